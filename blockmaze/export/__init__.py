"""Writers from Blocks to files, found by suffix or format name.

Each module of this package that writes a format registers it with :func:`register_writer`;
modules are discovered automatically, so adding a format is adding one module.

Example
-------
>>> writer_for("maze.schem").name
'schem'
"""

from __future__ import annotations

import importlib
import inspect
import os
import pkgutil
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from ..errors import BlockmazeError
from ..materials import Theme, load_theme
from .target import Target, open_target


@dataclass(frozen=True)
class Writer:
    """A file format.

    ``write(blocks, file, theme, **options)`` writes a (y, z, x) volume to a binary file;
    ``check_size(shape)`` raises BlockmazeError for a volume the format cannot hold, before any
    work is done; ``plan`` is True for formats that draw the (z, x) plan rather than a volume
    (tile maps): they receive the plan as a one-layer volume.
    """

    name: str
    suffixes: tuple[str, ...]
    write: Callable
    check_size: Callable[[tuple[int, int, int]], None]
    summary: str
    plan: bool = False

    @property
    def options(self) -> tuple[str, ...]:
        """The keyword options the writer accepts beyond blocks, file and theme."""
        names = list(inspect.signature(self.write).parameters)
        return tuple(names[3:])


WRITERS: dict[str, Writer] = {}


def size_limits(what: str, max_side: int | None = None, max_blocks: int | None = None):
    """A ``check_size`` for a format: every side at least 1 block and at most ``max_side``, and
    at most ``max_blocks`` blocks in all.

    >>> size_limits(".schem", max_side=65535)((4, 70001, 21))
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: a 21x4x70001-block volume (width x height x length) is too large for .schem: each side holds at most 65535 blocks
    """

    def check_size(shape: tuple[int, int, int]) -> None:
        height, length, width = shape
        volume = f"a {width}x{height}x{length}-block volume"
        if min(shape) < 1:
            raise BlockmazeError(f"{volume} is empty; every side needs at least one block")
        if max_side is not None and max(shape) > max_side:
            raise BlockmazeError(f"{volume} (width x height x length) is too large for {what}: "
                                 f"each side holds at most {max_side} blocks")
        if max_blocks is not None and width * height * length > max_blocks:
            raise BlockmazeError(f"{volume} has {width * height * length} blocks; {what} holds "
                                 f"at most {max_blocks}")

    check_size.__doc__ = f"Refuse a (y, z, x) volume {what} cannot hold, before any work is done."
    return check_size


def register_writer(writer: Writer) -> None:
    """Add a format to the registry."""
    WRITERS[writer.name] = writer


def writer_for(path: str | os.PathLike | None = None, format: str | None = None) -> Writer:
    """The writer for a format name, or else for the (longest matching) suffix of ``path``."""
    if format is not None:
        try:
            return WRITERS[format]
        except KeyError:
            raise BlockmazeError(
                f"unknown format {format!r}; choose one of: {', '.join(sorted(WRITERS))}"
            ) from None
    name = Path(path).name.lower() if path is not None else ""
    matches = [(len(s), w.name) for w in WRITERS.values() for s in w.suffixes if name.endswith(s)]
    if matches:  # the longest suffix wins: ".tilemap.json" before ".json"
        return WRITERS[max(matches)[1]]
    known = ", ".join(s for w in WRITERS.values() for s in w.suffixes)
    raise BlockmazeError(
        f"cannot tell the format of {str(path)!r} from its suffix; use one of {known} or give a format"
    )


def write(
    blocks: np.ndarray,
    target: Target,
    format: str | None = None,
    theme: Theme | str | None = None,
    **options,
) -> None:
    """Write Blocks (a (y, z, x) volume, or a (z, x) plan as one layer) to a path or binary file.

    Example
    -------
    >>> import io
    >>> from blockmaze import generate, to_blocks, extrude
    >>> out = io.BytesIO()
    >>> write(extrude(to_blocks(generate((3, 4), rng=1))), out, format="schem", schem_version=3)
    """
    writer = writer_for(None if hasattr(target, "write") else target, format)
    unknown = set(options) - set(writer.options)
    if unknown:
        raise BlockmazeError(
            f"{writer.name} does not take {', '.join(sorted(unknown))}; "
            f"its options are: {', '.join(writer.options) or 'none'}"
        )
    blocks = np.asarray(blocks)
    if blocks.ndim == 2:
        blocks = blocks[np.newaxis]
    if blocks.ndim != 3 or blocks.dtype != np.uint8:
        raise BlockmazeError(f"blocks must be a uint8 array (y, z, x), got {blocks.dtype} {blocks.shape}")
    writer.check_size(blocks.shape)
    theme = theme if isinstance(theme, Theme) else load_theme(theme)
    with open_target(target) as file:
        writer.write(blocks, file, theme, **options)


def _register_all() -> None:
    """Import every module of this package: the writers among them register themselves."""
    for module in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{module.name}")


_register_all()
