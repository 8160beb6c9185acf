"""Minecraft Java releases blockmaze can target, with what each format needs to know of them.

Sources: docs/minecraft.md §8 (DataVersion) and §5.1 (datapack formats from
1.20; the 1.13-1.19.4 formats are the Minecraft Wiki's "Pack format" table).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import BlockmazeError

DEFAULT_MC_VERSION = "1.20.4"
# Litematica's schematic Version per release line, as each line's LitematicaSchematic writes it
# (and reads at most): 5 up to 1.17.x, 6 with SubVersion 1 from 1.18, 7 from 1.20.5 (see
# litematic_version). Older builds refuse a newer Version ("unsupported schematic version").
LITEMATIC_V6_FROM = 2860  # 1.18
LITEMATIC_V7_FROM = 3837  # 1.20.5


@dataclass(frozen=True)
class Release:
    """One Minecraft Java release.

    Example
    -------
    >>> release("1.21").pack_format, release("1.21").litematic_version
    ((48, 0), 7)
    >>> release("1.16.5").litematic_version, release("1.16.5").litematic_subversion
    (5, None)
    """

    name: str
    data_version: int
    pack_format: tuple[int, int] | None  # datapack (major, minor); None where not known

    @property
    def litematic_version(self) -> int:
        """Litematica's schematic ``Version`` for this release: 5 up to 1.17.x, 6 from 1.18,
        7 from 1.20.5.

        Source: maruohon/litematica ``LitematicaSchematic.SCHEMATIC_VERSION`` per branch: 5 in
        pre-rewrite/rift/1.13.2 and fabric/1.14.x-1.17.x (1.13-1.16 builds read only 1..5), 6 in
        fabric/1.18.x-1.20.x, 7 in sakura-ryoko/litematica fabric/1.20.6, 1.21 and 1.21.3.
        """
        if self.data_version >= LITEMATIC_V7_FROM:
            return 7
        return 6 if self.data_version >= LITEMATIC_V6_FROM else 5

    @property
    def litematic_subversion(self) -> int | None:
        """Litematica's ``SubVersion``: 1 from 1.18 (``SCHEMATIC_VERSION_SUB``); the older builds
        write none."""
        return 1 if self.data_version >= LITEMATIC_V6_FROM else None


def _table(rows: str) -> dict[str, Release]:
    releases = {}
    for line in rows.strip().splitlines():
        names, data_versions, pack = line.split("|")
        major, _, minor = pack.strip().partition(".")
        fmt = None if major == "?" else (int(major), int(minor or 0))
        for name, dv in zip(names.split(), data_versions.split(), strict=True):
            releases[name] = Release(name, int(dv), fmt)
    return releases


# releases | their DataVersions | datapack format
RELEASES = _table("""
1.13 1.13.1 1.13.2 | 1519 1628 1631 | 4
1.14 1.14.1 1.14.2 1.14.3 1.14.4 | 1952 1957 1963 1968 1976 | 4
1.15 1.15.1 1.15.2 | 2225 2227 2230 | 5
1.16 1.16.1 | 2566 2567 | 5
1.16.2 1.16.3 1.16.4 1.16.5 | 2578 2580 2584 2586 | 6
1.17 1.17.1 | 2724 2730 | 7
1.18 1.18.1 | 2860 2865 | 8
1.18.2 | 2975 | 9
1.19 1.19.1 1.19.2 1.19.3 | 3105 3117 3120 3218 | 10
1.19.4 | 3337 | 12
1.20 1.20.1 | 3463 3465 | 15
1.20.2 | 3578 | 18
1.20.3 1.20.4 | 3698 3700 | 26
1.20.5 1.20.6 | 3837 3839 | 41
1.21 1.21.1 | 3953 3955 | 48
1.21.2 1.21.3 | 4080 4082 | 57
1.21.4 | 4189 | 61
1.21.5 | 4325 | 71
1.21.6 | 4435 | 80
1.21.7 1.21.8 | 4438 4440 | 81
1.21.9 1.21.10 | 4554 4556 | 88.0
1.21.11 | 4671 | 94.1
26.1 26.1.1 26.1.2 26.2 | 4786 4788 4790 4903 | ?
""")

DATA_VERSIONS = {name: r.data_version for name, r in RELEASES.items()}


def release(mc_version: str) -> Release:
    """The release called ``mc_version``, or an error listing the known ones."""
    try:
        return RELEASES[mc_version]
    except KeyError:
        raise BlockmazeError(
            f"unknown Minecraft version {mc_version!r}; known versions: {', '.join(RELEASES)}"
        ) from None


def data_version(mc_version: str) -> int:
    """The DataVersion of a Minecraft Java release.

    >>> data_version("1.20.4")
    3700
    """
    return release(mc_version).data_version
