"""Refusing work that cannot fit in this machine's memory, before allocating it."""

from __future__ import annotations

import contextlib
import contextvars
import os
from collections.abc import Iterator

from ..errors import BlockmazeError

GIB = 1 << 30
MEMORY_LIMIT = "BLOCKMAZE_MEMORY_LIMIT"  # the environment variable that sets the limit
_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def parse_bytes(text: str, what: str) -> int:
    """A byte count written as a whole number with an optional K, M, G or T (powers of 1024).

    >>> parse_bytes("512M", "--memory-limit"), parse_bytes("2g", "x"), parse_bytes("1000", "x")
    (536870912, 2147483648, 1000)
    """
    raw = str(text).strip().upper().removesuffix("IB").removesuffix("B")
    unit = raw[-1:] if raw[-1:] in _UNITS and raw[-1:] else ""
    number = raw[: len(raw) - len(unit)].strip()
    if not number.isascii() or not number.isdigit() or len(number) > 20 or int(number) < 1:
        raise BlockmazeError(f"{what} must be a whole number of bytes >= 1, optionally with K, M, G "
                             f"or T (e.g. 512M, 8G); got {text!r}")
    return int(number) * _UNITS[unit]


def available_memory() -> int:
    """Bytes of memory this process can still take (MemAvailable, else physical memory).

    Example
    -------
    >>> available_memory() > 0
    True
    """
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 1 << 62  # unknown platform: do not refuse


def _size(nbytes: int) -> str:
    """A byte count for a message, in the largest unit it reaches (bytes, KiB, MiB, GiB).

    >>> _size(3 << 30), _size(1536 << 10), _size(2048), _size(700)
    ('3.0 GiB', '1.5 MiB', '2.0 KiB', '700 bytes')
    """
    for unit, name in ((GIB, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
        if nbytes >= unit:
            return f"{nbytes / unit:.1f} {name}"
    return f"{nbytes} bytes"


# a need this small is refused only by a limit set (--memory-limit), never by the memory available
SMALL_NEED = 1 << 20


def ensure_memory(nbytes: int, what: str) -> None:
    """Raise BlockmazeError if ``nbytes`` for ``what`` exceed the memory limit
    (:func:`memory_limit`), saying how much is needed and how to raise the limit (a need of at
    most :data:`SMALL_NEED` is checked against a limit set only).

    Example
    -------
    >>> ensure_memory(1 << 70, "a huge maze")
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: a huge maze needs about 1099511627776.0 GiB of memory; ...
    """
    if nbytes <= SMALL_NEED and _RUN_LIMIT.get() is None and not os.environ.get(MEMORY_LIMIT):
        return  # (reading the memory available costs more than such a job: a batch makes millions)
    limit, source = memory_limit()
    if nbytes > limit:
        raise BlockmazeError(
            f"{what} needs about {_size(nbytes)} of memory; {source} is {_size(limit)}: "
            f"choose a smaller size, or raise the limit with --memory-limit SIZE (or {MEMORY_LIMIT}=SIZE) "
            "if the machine has the memory"
        )


# -- measured memory per unit of work ---------------------------------------------------------

# Peak memory above the input per unit of work, measured by bench/bench_memory.py (n x n square
# mazes; within some 15 % over n = 150..1680, see that script), as (unit, bytes per unit, fixed
# bytes): what each step takes on top of what it is given. Units: "block" of the volume written,
# "tile" of a plan, "cell" of the maze, "pixel" of a picture drawn whole (big square-maze PNGs are
# drawn in bands, in bounded memory). "generate" is a square maze by the backtracker.
MEASURED: dict[str, tuple[str, float, int]] = {
    "generate": ("cell", 24.9, 0),
    "document": ("cell", 64.0, 0),
    "png": ("pixel", 139.4, 0),
    "svg": ("cell", 787.1, 0),
    "pdf": ("cell", 890.0, 0),  # the scene and ReportLab's page streams
    "pieces": ("cell", 639.2, 0),  # a row of Python values a cell, then the text
    "pieces-csv": ("cell", 637.3, 0),
    "kit": ("cell", 1181.9, 0),  # a node (or an instance) a cell
    "tscn": ("cell", 2534.0, 0),  # a mesh instance and a body a cell, with the navigation floor
    "schem": ("block", 4.4, 0),
    "litematic": ("block", 22.2, 0),
    "structure": ("block", 6.9, 2_000_000),
    "datapack": ("block", 16.3, 0),
    "schematic": ("block", 7.9, 0),
    "mcstructure": ("block", 14.3, 0),
    "glb": ("block", 46.7, 0),
    "gltf": ("block", 195.5, 0),
    "obj": ("block", 119.9, 0),
    "mtl": ("block", 7.9, 0),
    "ply": ("block", 113.3, 0),
    "3mf": ("block", 215.3, 0),
    "stl": ("block", 102.0, 0),
    "tmx": ("tile", 21.0, 0),
    "tmj": ("tile", 21.0, 0),
    "ascii": ("tile", 9.0, 0),
    "tilemap": ("tile", 9.0, 0),
    "npz": ("tile", 4.0, 0),
    "xp": ("tile", 31.0, 0),
    "ldtk": ("tile", 21.5, 0),
    "vox": ("block", 16.5, 0),
    "mts": ("block", 7.9, 0),
    "mcpack": ("block", 30.9, 0),
}


def units_of(kind: str, *, maze=None, cell_size: float = 16, data=None) -> int:
    """How many units of ``kind``'s measure a job has (see :data:`MEASURED`).

    >>> units_of("schem", data=__import__("numpy").zeros((2, 3, 4)))
    24
    """
    if kind in ("png",):
        return int(maze.grid.size * float(cell_size) ** 2)
    if maze is not None:
        return int(maze.grid.size)
    return int(data.size)


def estimate(kind: str, units: int) -> int:
    """Bytes ``kind`` needs for ``units`` units, from :data:`MEASURED` (0 if not measured).

    >>> estimate("no such step", 10), estimate("schem", 1_000_000)
    (0, 4400000)
    """
    if kind not in MEASURED:
        return 0
    _, per_unit, fixed = MEASURED[kind]
    return int(fixed + per_unit * units)


def memory_limit() -> tuple[int, str]:
    """The memory a run may use and where that figure comes from: the limit the running job set
    (:func:`limited`: the CLI's ``--memory-limit``), else env ``BLOCKMAZE_MEMORY_LIMIT`` (bytes,
    or with K/M/G/T), else the memory available.

    >>> memory_limit()[0] > 0
    True
    """
    chosen = _RUN_LIMIT.get()
    if chosen is not None:
        return chosen, "the limit set"
    raw = os.environ.get(MEMORY_LIMIT)
    if raw:
        return parse_bytes(raw, f"{MEMORY_LIMIT} (--memory-limit)"), "the limit set"
    return available_memory(), "the memory available"


# the limit of the job running in this context (a thread of the studio has its own)
_RUN_LIMIT: contextvars.ContextVar[int | None] = contextvars.ContextVar("memory_limit", default=None)


@contextlib.contextmanager
def limited(limit: str | int | None) -> Iterator[None]:
    """Within the block, runs in this context (thread) may use at most ``limit`` bytes (K/M/G/T
    allowed; None: as before); nothing outside the context changes.

    >>> with limited("1K"):
    ...     memory_limit()
    (1024, 'the limit set')
    """
    token = _RUN_LIMIT.set(None if limit is None else parse_bytes(str(limit), "--memory-limit"))
    try:
        yield
    finally:
        _RUN_LIMIT.reset(token)


def ensure_step_memory(kind: str, units: int, what: str) -> None:
    """:func:`ensure_memory` for a measured step: ``units`` of ``kind`` (see :data:`MEASURED`).

    >>> ensure_step_memory("generate", 10, "a small maze")
    """
    ensure_memory(estimate(kind, units), what)
