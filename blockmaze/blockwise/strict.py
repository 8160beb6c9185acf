"""Strict blockwise generation: sizes in blocks, cells on odd indices, passages carved between them.

A strict plan is the 2n+1 layout: an odd x odd block array whose odd-indexed blocks are cells and
whose blocks between two cells are open exactly where the maze has a passage. Generation here is
not a second implementation: it builds the square grid for the cell counts, runs the registry
algorithm through :func:`~blockmaze.mazes.generation.generate` (the numba kernels) and draws the maze with
the converter. What this module adds is the blockwise interface — sizes in blocks, refused with
the nearest possible sizes when the thicknesses cannot reach them, or reached exactly with spread
runs when a thickness is left free (see :mod:`blockmaze.blockwise.sizing`) — and the 3-D strict
volume, whose cells sit on odd indices along y, z and x.

Sizes: ``width_blocks`` runs along x (east), ``length_blocks`` along z (south), ``height_blocks``
along y (up), as in a Sponge schematic; a plan has shape ``(length, width)``, a volume
``(height, length, width)``.

Example
-------
>>> plan = strict_plan(5, 9, rng=1)
>>> plan.shape
(5, 9)
>>> from blockmaze import generate, to_blocks
>>> bool((plan == to_blocks(generate((2, 4), rng=1))).all())
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..algorithms import get_algorithm
from ..errors import BlockmazeError
from ..mazes.generation import generate
from ..grids.layered import EAST, SOUTH, UP, layered_grid
from ..materials import Material
from ..maze import Maze
from ..support.randomness import as_generator
from ..support.memory import ensure_memory
from ..blocks.convert import to_blocks
from .sizing import AxisFit, _pair, apply_runs, fit_plan, fit_strict
from ..blocks.stairwell import LEAST_HEIGHT, spiral



@dataclass(frozen=True)
class StrictLayout:
    """A strict blockwise maze: the plan (or volume), the maze it draws, and the runs of each axis.

    ``fits`` holds one :class:`~blockmaze.blockwise.sizing.AxisFit` per axis of ``blocks``:
    ``(z, x)`` for a plan, ``(y, z, x)`` for a volume.
    """

    blocks: np.ndarray
    maze: Maze
    fits: tuple[AxisFit, ...]

    @property
    def uniform(self) -> bool:
        """True if every axis has uniform runs (the plan is exactly what ``to_blocks`` draws)."""
        return all(fit.uniform for fit in self.fits)


def strict_layout(length_blocks: int, width_blocks: int, algorithm: str = "backtracker",
                  rng: np.random.Generator | int | None = None, wall=1, passage=1,
                  cells=None) -> StrictLayout:
    """A strict plan exactly ``width_blocks`` (x) by ``length_blocks`` (z), with its maze and runs.

    ``wall`` and ``passage`` are thicknesses in blocks: a number, a ``(z, x)`` pair, or None to
    let :func:`~blockmaze.blockwise.sizing.fit_strict` choose and spread the remainder (some runs a
    block thicker than others). ``cells`` optionally fixes ``(rows, cols)``. With fixed
    thicknesses a size they cannot reach raises BlockmazeError naming the nearest sizes.

    The maze is ``generate((rows, cols), algorithm, rng)``, so the same seed gives the same maze
    as the graph path, and a uniform layout is exactly ``to_blocks(maze, wall, passage)``.

    Example
    -------
    >>> layout = strict_layout(7, 10, rng=3, wall=None, passage=None)
    >>> layout.blocks.shape, layout.maze.grid.shape, layout.uniform
    ((7, 10), (3, 4), False)
    """
    fit_z, fit_x = fit_plan(length_blocks, width_blocks, wall, passage, cells)
    ensure_memory(2 * fit_z.length * fit_x.length,
                  f"a {fit_x.length}x{fit_z.length}-block plan")
    maze = generate((fit_z.cells, fit_x.cells), algorithm, rng=rng)
    if fit_z.uniform and fit_x.uniform:
        plan = to_blocks(maze, wall=(fit_z.wall, fit_x.wall), passage=(fit_z.passage, fit_x.passage))
    else:
        plan = apply_runs(to_blocks(maze), fit_z.runs, fit_x.runs)
    return StrictLayout(plan, maze, (fit_z, fit_x))


def strict_plan(length_blocks: int, width_blocks: int, algorithm: str = "backtracker",
                rng: np.random.Generator | int | None = None, wall=1, passage=1,
                cells=None) -> np.ndarray:
    """A strict block plan ``(z, x)`` exactly ``width_blocks`` wide (x) and ``length_blocks`` long (z).

    See :func:`strict_layout` for the options; this returns only the plan (WALL and AIR).

    Example
    -------
    >>> strict_plan(5, 7, rng=0, algorithm="wilson").shape
    (5, 7)
    >>> strict_plan(5, 8)
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: along x (width): a strict layout with wall 1 and passage 1 cannot be 8 blocks long; the nearest possible lengths are 7 and 9
    """
    return strict_layout(length_blocks, width_blocks, algorithm, rng, wall, passage, cells).blocks


def volume_blocks(maze: Maze) -> np.ndarray:
    """The unit volume ``(y, z, x)`` of a layered maze: cells on odd indices, one block per run.

    Vertical wall runs are WALL; the horizontal slabs between levels are FLOOR (and the top slab
    ROOF), all solid. Cells and horizontal passages are AIR. A vertical passage is a ladder column:
    the shaft through the slab and the lower cell it starts from are STAIRS (see
    :func:`strict_volume_3d`).

    Example
    -------
    >>> from blockmaze.maze import Maze
    >>> m = Maze(layered_grid(2, 1, 1)); m.link(0, UP)
    >>> volume_blocks(m)[:, 1, 1].tolist()   # floor, lower cell, shaft, upper cell, roof
    [2, 8, 8, 0, 3]
    """
    grid = maze.grid
    if grid.kind != "layered":
        raise BlockmazeError(f"volume_blocks draws layered grids, not {grid.kind}")
    levels, rows, cols = grid.shape
    air, stairs = np.uint8(Material.AIR), np.uint8(Material.STAIRS)
    unit = np.full((2 * levels + 1, 2 * rows + 1, 2 * cols + 1), Material.WALL, dtype=np.uint8)
    unit[0::2] = Material.FLOOR
    unit[-1] = Material.ROOF
    links = maze.links.reshape(levels, rows, cols, 6)
    cell = unit[1::2, 1::2, 1::2]
    cell[...] = np.where(grid.enabled.reshape(levels, rows, cols), air, np.uint8(Material.WALL))
    unit[1::2, 1::2, 2:-1:2] = np.where(links[:, :, :-1, EAST], air, unit[1::2, 1::2, 2:-1:2])
    unit[1::2, 2:-1:2, 1::2] = np.where(links[:, :-1, :, SOUTH], air, unit[1::2, 2:-1:2, 1::2])
    up = links[:-1, :, :, UP]
    unit[2:-1:2, 1::2, 1::2] = np.where(up, stairs, unit[2:-1:2, 1::2, 1::2])
    cell[:-1] = np.where(up, stairs, cell[:-1])
    return unit


def strict_volume_layout(height_blocks: int, length_blocks: int, width_blocks: int,
                         algorithm: str = "backtracker",
                         rng: np.random.Generator | int | None = None,
                         wall=1, passage=1, cells=None) -> StrictLayout:
    """A 3-D strict volume with its layered maze and the runs of each axis; see :func:`strict_volume_3d`.

    Example
    -------
    >>> layout = strict_volume_layout(5, 7, 9, algorithm="wilson", rng=4)
    >>> layout.maze.grid.shape, layout.maze.is_perfect()    # (levels, rows, cols)
    ((2, 3, 4), True)
    """
    walls = _pair(wall, "wall", 3)
    passages = _pair(passage, "passage", 3)
    counts = _pair(cells, "cells", 3)
    fits = []
    for axis, size, w, p, c in zip("yzx", (height_blocks, length_blocks, width_blocks),
                                   walls, passages, counts, strict=True):
        try:
            fits.append(fit_strict(size, w, p, c))
        except BlockmazeError as error:
            name = {"y": "height", "z": "length", "x": "width"}[axis]
            raise BlockmazeError(f"along {axis} ({name}): {error}") from None
    fit_y, fit_z, fit_x = fits
    ensure_memory(3 * fit_y.length * fit_z.length * fit_x.length,
                  f"a {fit_x.length}x{fit_y.length}x{fit_z.length}-block volume")
    grid = layered_grid(fit_y.cells, fit_z.cells, fit_x.cells)
    chosen, option = get_algorithm(algorithm, grid)
    maze = Maze(grid, chosen.carve(grid, as_generator(rng), option), validate=False)
    volume = apply_runs(volume_blocks(maze), fit_y.runs, fit_z.runs, fit_x.runs)
    _spiral_wide_shafts(volume, maze, fit_y.runs, fit_z.runs, fit_x.runs)
    return StrictLayout(volume, maze, tuple(fits))


def _spiral_wide_shafts(volume, maze, runs_y, runs_z, runs_x) -> None:
    """Where a shaft's cell is 2x2 blocks or more and at least ``LEAST_HEIGHT`` blocks high,
    spiral stairs round a well at its north-west corner instead
    (:mod:`~blockmaze.blocks.stairwell`), from the lower cell's bottom layer to the top of the
    slab: a player walks up them, and a mesh draws them as steps. A lower cell only two blocks
    high keeps its shaft: a player's head would meet the slab stepping onto the first step."""
    starts = [np.concatenate([[0], np.cumsum(runs)]) for runs in (runs_y, runs_z, runs_x)]
    levels, rows, cols = maze.grid.shape
    for cell in np.flatnonzero(maze.links[:, UP]).tolist():
        level, rest = divmod(cell, rows * cols)
        r, c = divmod(rest, cols)
        (y0, y1), (z0, z1), (x0, x1) = ((s[2 * i + 1], s[2 * i + 1 + span])
                                         for s, i, span in zip(starts, (level, r, c), (2, 1, 1),
                                                               strict=True))
        slab = starts[0][2 * level + 2]
        if z1 - z0 < 2 or x1 - x0 < 2 or slab - y0 < LEAST_HEIGHT:
            continue  # a one-block or low cell: the shaft stays
        volume[y0:slab, z0:z1, x0:x1] = Material.AIR
        volume[slab:y1, z0:z1, x0:x1] = Material.FLOOR
        spiral(volume, z0, x0, y0, y1 - 1)


def strict_volume_3d(height_blocks: int, length_blocks: int, width_blocks: int,
                     algorithm: str = "backtracker",
                     rng: np.random.Generator | int | None = None,
                     wall=1, passage=1, cells=None) -> np.ndarray:
    """A 3-D strict maze volume ``(y, z, x)``: cells on odd indices of all three axes.

    The cells form a layered grid (square levels, linked north/east/south/west and up/down, see
    :func:`layered_grid`); ``algorithm`` is any registry algorithm that runs on every grid kind
    (those made for square grids only are refused). Sizes are in blocks, fitted per axis like
    :func:`strict_plan` and given in the volume's own axis order: height (y), length (z), width
    (x); ``wall``, ``passage`` and ``cells`` may be given per axis as
    ``(y, z, x)`` triples — e.g. ``passage=(2, 1, 1)`` for corridors two blocks tall.

    Materials: AIR for cells and horizontal passages; WALL for vertical walls; FLOOR for the slabs
    between levels (and the bottom), ROOF on top. A vertical passage is STAIRS — the blocks of
    the shaft cut through the slab *and* the lower cell's blocks under it — because a walker
    cannot otherwise leave a cell upwards: the shaft starts a whole cell height above the lower
    floor. STAIRS is not solid, so the volume stays open there; Minecraft draws such a shaft as
    scaffolding (a ladder before 1.14), which stands without support, is climbed from inside,
    walked on top of (at the upper floor's level) and descended by sneaking. Where a cell is 2x2
    blocks or more, the link is spiral stairs instead (:mod:`~blockmaze.blocks.stairwell`), which
    a player walks up and a mesh draws as steps.

    Example
    -------
    >>> v = strict_volume_3d(5, 7, 7, rng=2)
    >>> v.shape, int((v == Material.STAIRS).sum()) >= 2   # 2 levels of 3x3 cells, >= 1 shaft
    ((5, 7, 7), True)
    """
    return strict_volume_layout(height_blocks, length_blocks, width_blocks, algorithm, rng,
                                wall, passage, cells).blocks
