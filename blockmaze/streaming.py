"""Mazes larger than memory: square mazes generated row by row and written band by band.

Eller's algorithm, sidewinder and binary tree only ever look at one row of cells (and what
reached it from the row above), so they can run as a stream: :func:`maze_rows` yields the
passages of a few rows at a time, :func:`plan_bands` turns them into the block plan 16 rows at a
time, and :func:`volume_bands` extrudes each band, for a band writer (a world, a Sponge
schematic, or .schem tiles: :func:`blockmaze.writing.write_streamed`). Memory holds one band,
whatever the maze's length.

Each of the three algorithms has one row kernel (in its module under ``algorithms/``): the
in-memory carver runs it over all rows at once, a stream band by band carrying its draws (and
Eller's sets) from one band to the next, so a seed gives **the same maze** as
``generate((rows, cols), algorithm, seed)``.

Options that need the whole maze are refused for streams: a solution path, start and goal at
the ends of the longest path or at entrances chosen by distance, braiding, masks, lights.

Example
-------
>>> from blockmaze import generate
>>> north, east = next(maze_rows(3, 4, "eller", 7))
>>> links = generate((3, 4), "eller", 7).links.reshape(3, 4, 4)
>>> bool((north == links[..., 0]).all() and (east == links[..., 1]).all())
True
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np

from .algorithms import ALGORITHMS
from .blocks.convert import per_axis, thickness_runs
from .blocks.settings import BlockSettings
from .blocks.volume import extrude, volume_height
from .errors import BlockmazeError
from .materials import Material
from .support.randomness import as_generator

if TYPE_CHECKING:
    from .export import Writer

STREAMABLE = ("eller", "sidewinder", "binary-tree")
ROWS_AT_ONCE = 64


def check_streamable(algorithm: str) -> str:
    """The algorithm's name if it can stream, else a BlockmazeError naming the ones that can.

    >>> check_streamable("eller")
    'eller'
    """
    name, _, option = algorithm.partition(":")
    if name not in STREAMABLE or option:
        raise BlockmazeError(f"only {', '.join(STREAMABLE)} generate row by row (streamed); got {algorithm!r}")
    return name


def maze_rows(rows: int, cols: int, algorithm: str = "eller", rng=None,
              at_once: int = ROWS_AT_ONCE) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """The passages of a rows x cols square maze, ``at_once`` rows at a time: ``(north, east)``,
    bool arrays (k, cols), True where a cell opens to its north / east neighbour.

    The same seed gives the same maze as :func:`blockmaze.generate` (see the module docstring).
    """
    name = check_streamable(algorithm)
    if rows < 1 or cols < 1:
        raise BlockmazeError(f"a maze needs at least one row and one column, got {rows}x{cols}")
    module = importlib.import_module(f"{__package__}.algorithms.{ALGORITHMS[name].module}")
    yield from module.row_bands(rows, cols, as_generator(rng), at_once)


def plan_rows(north: np.ndarray, east: np.ndarray, wall=1, passage=1, last: bool = False) -> np.ndarray:
    """The block-plan rows of some cell rows (as :func:`blockmaze.to_blocks` draws them): for each
    row the wall above it, then the cells; with ``last`` the closing south wall too.

    >>> plan_rows(np.array([[False, False]]), np.array([[True, False]]), last=True).tolist()
    [[1, 1, 1, 1, 1], [1, 0, 0, 0, 1], [1, 1, 1, 1, 1]]
    """
    (wz, wx), (pz, px) = per_axis(wall, "wall"), per_axis(passage, "passage")
    count, cols = north.shape
    wall_, air = np.uint8(Material.WALL), np.uint8(Material.AIR)
    unit = np.full((2 * count + last, 2 * cols + 1), wall_, dtype=np.uint8)
    unit[0:2 * count:2, 1::2] = np.where(north, air, wall_)
    unit[1:2 * count:2, 1::2] = air
    unit[1:2 * count:2, 2:-1:2] = np.where(east[:, :-1], air, wall_)
    if (wz, pz) != (1, 1):
        runs = np.tile(np.array([wz, pz]), count)
        unit = np.repeat(unit, np.append(runs, np.full(int(last), wz)), axis=0)
    if (wx, px) != (1, 1):
        unit = np.repeat(unit, thickness_runs(cols, wx, px), axis=1)
    return unit


def plan_bands(rows: int, cols: int, algorithm: str = "eller", rng=None, wall=1, passage=1,
               band: int = 16) -> Iterator[np.ndarray]:
    """The maze's block plan, ``band`` rows (z) at a time; the whole plan is :func:`blockmaze.to_blocks`'s.

    >>> from blockmaze import generate, to_blocks
    >>> plan = np.concatenate(list(plan_bands(5, 4, "sidewinder", 3, band=4)))
    >>> bool((plan == to_blocks(generate((5, 4), "sidewinder", 3))).all())
    True
    """
    pending: list[np.ndarray] = []
    held = 0
    done = 0
    for north, east in maze_rows(rows, cols, algorithm, rng):
        done += north.shape[0]
        pending.append(plan_rows(north, east, wall, passage, last=done == rows))
        held += pending[-1].shape[0]
        if held >= band:
            joined = np.concatenate(pending)
            whole = held - held % band
            for z in range(0, whole, band):
                yield joined[z:z + band]
            pending, held = ([joined[whole:]], held - whole) if held > whole else ([], 0)
    if held:
        yield np.concatenate(pending)


def volume_bands(rows: int, cols: int, algorithm: str = "eller", rng=None, wall=1, passage=1,
                 height: int = 3, floor: bool = True, roof: bool = False,
                 band: int = 16) -> Iterator[np.ndarray]:
    """The extruded maze (y, z, x) in bands of ``band`` z-rows: :func:`plan_bands`, stood up.

    >>> [band.shape for band in volume_bands(10, 3, "binary-tree", 1, roof=True)]
    [(5, 16, 7), (5, 5, 7)]
    """
    volume_height(height, floor, roof)
    for plan in plan_bands(rows, cols, algorithm, rng, wall, passage, band):
        yield extrude(plan, height, floor, roof)


def stream_blockers(kind: str = "square", mask=None, algorithm: str = "eller", braid: float = 0.0,
                    entrances: bool = False, solution: bool = False, lights: bool = False,
                    exits: int = 0, checkpoints: int = 0) -> list[str]:
    """Why a maze cannot be generated and written as a stream (none: it can).

    >>> stream_blockers(algorithm="backtracker", solution=True)
    ['--algorithm backtracker (only eller, sidewinder, binary-tree run row by row)', '--solution (the path needs the whole maze)']
    """
    reasons = []
    if kind != "square":
        reasons.append(f"a {kind} grid (only square grids stream)")
    if mask is not None:
        reasons.append("--mask")
    if algorithm.partition(":")[0] not in STREAMABLE or ":" in algorithm:
        reasons.append(f"--algorithm {algorithm} (only {', '.join(STREAMABLE)} run row by row)")
    if braid:
        reasons.append("--braid (dead ends are found in the whole maze)")
    if entrances:
        reasons.append("--entrances (they are chosen by distances across the whole maze)")
    if solution:
        reasons.append("--solution (the path needs the whole maze)")
    if lights:
        reasons.append("--lights (placed over the whole floor)")
    if exits:
        reasons.append("--exits (spread by distances across the whole maze)")
    if checkpoints:
        reasons.append("--checkpoints (on the way from start to goal, which needs the whole maze)")
    return reasons


def in_memory_or_explain(reasons: list[str], blocks: int) -> None:
    """Refuse, naming ``reasons``, a maze that cannot stream and whose ``blocks`` do not fit memory.

    >>> in_memory_or_explain(["--solution (the path needs the whole maze)"], 1 << 62)
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: this maze (4611686018427387904 blocks) does not fit in memory and cannot be streamed because of --solution (the path needs the whole maze): drop those or choose a smaller size
    """
    from .support.memory import available_memory

    needed = 3 * blocks  # the plan, the volume and the palette indices
    if reasons and needed > available_memory():
        raise BlockmazeError(
            f"this maze ({blocks} blocks) does not fit in memory and cannot be streamed because of "
            f"{'; '.join(reasons)}: drop those or choose a smaller size")


def should_stream(writer: Writer, shape: tuple[int, ...], settings: BlockSettings,
                  blockers: list[str], split: int | None = None) -> bool:
    """Whether ``blockmaze generate`` streams a maze of ``shape`` cells into ``writer``: a band
    writer (a world) streams whenever nothing blocks it (``blockers``, from
    :func:`stream_blockers`); a writer that starts bands over (a ``.schem``) when it is split into
    tiles or would not fit in memory (otherwise it is written whole, the same bytes as
    :func:`blockmaze.save`). A maze that something keeps in memory is refused at once if it
    cannot fit there.

    >>> from blockmaze.export import writer_for
    >>> should_stream(writer_for(format="world"), (100, 100), BlockSettings(), [])
    True
    >>> should_stream(writer_for(format="schem"), (100, 100), BlockSettings(), [])
    False
    """
    from .support.memory import available_memory

    if not writer.streams:
        return False
    blocks = 0
    if settings.kind == "square":
        z, x = settings.plan_shape((shape[0], shape[1]))
        blocks = z * x * (settings.height + 2)
    if blockers:
        if blocks:
            in_memory_or_explain(blockers, blocks)
        return False
    return writer.bands or split is not None or 3 * blocks > available_memory()
