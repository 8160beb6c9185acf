"""Minecraft Java releases blockmaze can target, with what each format needs to know of them."""

from __future__ import annotations

from ..errors import BlockmazeError

DEFAULT_MC_VERSION = "1.20.4"

# release -> DataVersion (the world/data format number Minecraft writes into every NBT file)
DATA_VERSIONS = {
    "1.13": 1519, "1.13.1": 1628, "1.13.2": 1631,
    "1.14": 1952, "1.14.1": 1957, "1.14.2": 1963, "1.14.3": 1968, "1.14.4": 1976,
    "1.15": 2225, "1.15.1": 2227, "1.15.2": 2230,
    "1.16": 2566, "1.16.1": 2567, "1.16.2": 2578, "1.16.3": 2580, "1.16.4": 2584, "1.16.5": 2586,
    "1.17": 2724, "1.17.1": 2730,
    "1.18": 2860, "1.18.1": 2865, "1.18.2": 2975,
    "1.19": 3105, "1.19.1": 3117, "1.19.2": 3120, "1.19.3": 3218, "1.19.4": 3337,
    "1.20": 3463, "1.20.1": 3465, "1.20.2": 3578, "1.20.3": 3698, "1.20.4": 3700,
    "1.20.5": 3837, "1.20.6": 3839,
    "1.21": 3953, "1.21.1": 3955, "1.21.2": 4080, "1.21.3": 4082, "1.21.4": 4189,
    "1.21.5": 4325, "1.21.6": 4435, "1.21.7": 4438, "1.21.8": 4440, "1.21.9": 4554,
    "1.21.10": 4556, "1.21.11": 4671,
    "26.1": 4786, "26.1.1": 4788, "26.1.2": 4790, "26.2": 4903,
}


def data_version(mc_version: str) -> int:
    """The DataVersion of a Minecraft Java release.

    >>> data_version("1.20.4")
    3700
    """
    try:
        return DATA_VERSIONS[mc_version]
    except KeyError:
        raise BlockmazeError(
            f"unknown Minecraft version {mc_version!r}; known versions: {', '.join(DATA_VERSIONS)}"
        ) from None
