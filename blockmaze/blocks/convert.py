"""The 2n+1 converter between square-grid mazes and block plans, with any wall/passage thickness.

A plan is a ``uint8`` array ``(z, x)`` of materials. Along each axis it is made of runs
``[wall, passage, wall, passage, ..., wall]``: a cell's passage run, then the wall run between it
and the next cell ("unequal quarters" when the two thicknesses differ). Thickness may differ per
axis: pass ``(z, x)`` pairs.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..errors import BlockmazeError
from ..grids import square_grid
from ..grids.square import EAST, NORTH, SOUTH, WEST
from ..materials import SOLID, Material
from ..maze import Maze
from ..mazes.endpoints import Endpoints
from ..support.memory import ensure_memory

Thickness = int | Sequence[int]


def per_axis(value: Thickness, name: str) -> tuple[int, int]:
    """A thickness as a ``(z, x)`` pair of whole numbers >= 1.

    >>> per_axis(2, "wall"), per_axis((1, 3), "passage")
    ((2, 2), (1, 3))
    """
    pair = tuple(value) if isinstance(value, (tuple, list)) else (value, value)
    if len(pair) != 2 or not all(_whole_at_least_one(v) for v in pair):
        raise BlockmazeError(
            f"{name} thickness must be a whole number >= 1 or a (z, x) pair of them, got {value!r}"
        )
    return int(pair[0]), int(pair[1])


def _whole_at_least_one(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool) and bool(value >= 1)


def thickness_runs(cells: int, wall: int, passage: int) -> np.ndarray:
    """Run lengths ``[wall, passage, ..., passage, wall]`` along an axis of ``cells`` cells.

    >>> thickness_runs(2, 1, 3).tolist()
    [1, 3, 1, 3, 1]
    """
    runs = np.full(2 * cells + 1, wall, dtype=np.int64)
    runs[1::2] = passage
    return runs


def plan_shape(rows: int, cols: int, wall: Thickness = 1, passage: Thickness = 1) -> tuple[int, int]:
    """The ``(z, x)`` size in blocks of a rows x cols maze's plan.

    >>> plan_shape(10, 20), plan_shape(10, 20, wall=2, passage=(1, 3))
    ((21, 41), (32, 102))
    """
    (wz, wx), (pz, px) = per_axis(wall, "wall"), per_axis(passage, "passage")
    return (rows + 1) * wz + rows * pz, (cols + 1) * wx + cols * px


def to_blocks(maze: Maze, wall: Thickness = 1, passage: Thickness = 1,
              endpoints: Endpoints | None = None, solution: bool = False) -> np.ndarray:
    """The block plan ``(z, x)`` of a square-grid maze: WALL blocks, AIR for cells and passages.

    Disabled (masked) cells are solid WALL.

    Parameters
    ----------
    maze : Maze
        A maze on a square grid.
    wall, passage : int or (int, int)
        Thickness in blocks of every wall and every passage (cell), or a ``(z, x)`` pair.
    endpoints : Endpoints, optional
        Its openings are cut in the outer wall.
    solution : bool
        Mark the shortest path from the endpoints' start to their goal PATH (cells, the
        passages between them and the openings), with START and GOAL on the end cells.

    Returns
    -------
    numpy.ndarray
        A ``uint8`` ``(z, x)`` plan of :class:`~blockmaze.materials.Material` values,
        ``rows * passage + (rows + 1) * wall`` by ``cols * passage + (cols + 1) * wall``.

    Examples
    --------
    >>> from blockmaze import generate
    >>> plan = to_blocks(generate((1, 2), rng=0))
    >>> plan.tolist()
    [[1, 1, 1, 1, 1], [1, 0, 0, 0, 1], [1, 1, 1, 1, 1]]
    """
    grid = maze.grid
    if grid.kind != "square":
        raise BlockmazeError(
            f"the 2n+1 converter takes square grids; a {grid.kind} grid must be rasterized"
        )
    (wz, wx), (pz, px) = per_axis(wall, "wall"), per_axis(passage, "passage")
    rows, cols = grid.shape
    shape = plan_shape(rows, cols, (wz, wx), (pz, px))
    ensure_memory(2 * shape[0] * shape[1], f"a {shape[1]}x{shape[0]}-block plan")
    unit = _unit_plan(maze)
    if endpoints is not None:
        _mark_endpoints(unit, maze, endpoints, solution)
    elif solution:
        raise BlockmazeError("marking the solution needs endpoints (a start and a goal)")
    if (wz, pz) != (1, 1):
        unit = np.repeat(unit, thickness_runs(rows, wz, pz), axis=0)
    if (wx, px) != (1, 1):
        unit = np.repeat(unit, thickness_runs(cols, wx, px), axis=1)
    return unit


def _unit_plan(maze: Maze) -> np.ndarray:
    rows, cols = maze.grid.shape
    wall, air = np.uint8(Material.WALL), np.uint8(Material.AIR)
    unit = np.full((2 * rows + 1, 2 * cols + 1), wall, dtype=np.uint8)
    links = maze.links.reshape(rows, cols, 4)
    unit[1::2, 1::2] = np.where(maze.grid.enabled.reshape(rows, cols), air, wall)
    unit[1::2, 2:-1:2] = np.where(links[:, :-1, EAST], air, wall)
    unit[2:-1:2, 1::2] = np.where(links[:-1, :, SOUTH], air, wall)
    return unit


# unit-plan offset of the wall beside a cell, per square direction (north, east, south, west)
WALL_OFFSETS = np.array([(-1, 0), (0, 1), (1, 0), (0, -1)])


def unit_centre(cells, cols: int):
    """The (z, x) block of each cell (an index, or an array of them) in the unit plan of a
    square grid ``cols`` wide: cells on odd blocks.

    >>> [int(n) for n in unit_centre(5, 4)], [a.tolist() for a in unit_centre([0, 5], 4)]
    ([3, 3], [[1, 3], [1, 3]])
    """
    cells = np.asarray(cells)
    return 2 * (cells // cols) + 1, 2 * (cells % cols) + 1


def _mark_endpoints(unit: np.ndarray, maze: Maze, endpoints: Endpoints, solution: bool) -> None:
    cols = maze.grid.shape[1]

    ends = (endpoints.start, endpoints.goal)
    for cell, direction in endpoints.openings:  # (an exit's is off the way)
        z, x = unit_centre(cell, cols)
        dz, dx = WALL_OFFSETS[direction]
        unit[z + dz, x + dx] = Material.PATH if solution and cell in ends else Material.AIR
    if solution:
        path = maze.shortest_path(endpoints.start, endpoints.goal)
        z, x = unit_centre(path, cols)
        unit[z, x] = Material.PATH
        unit[(z[:-1] + z[1:]) // 2, (x[:-1] + x[1:]) // 2] = Material.PATH
        unit[unit_centre(endpoints.start, cols)] = Material.START
        unit[unit_centre(endpoints.goal, cols)] = Material.GOAL
    mark_stops(unit, cols, endpoints)


def mark_stops(unit: np.ndarray, cols: int, endpoints: Endpoints) -> None:
    """CHECKPOINT and EXIT on the centre blocks of a unit plan's checkpoint and exit cells (shown
    with or without the solution: a player looks for them)."""
    for material, cells in ((Material.EXIT, endpoints.exits),
                            (Material.CHECKPOINT, endpoints.checkpoints)):
        if cells:
            unit[unit_centre(cells, cols)] = material


def from_blocks(plan: np.ndarray, wall: Thickness = 1, passage: Thickness = 1) -> Maze:
    """The square-grid Maze drawn by a strict plan: the inverse of :func:`to_blocks`.

    Solid cells become masked cells; openings in the outer wall (entrances) are ignored.

    Parameters
    ----------
    plan : numpy.ndarray
        A ``(z, x)`` block plan, solid where nonzero but for the walkable materials.
    wall, passage : int or (int, int)
        The thicknesses it was drawn with, as for :func:`to_blocks`.

    Returns
    -------
    Maze
        The square-grid maze; a plan that is not a strict layout with these thicknesses raises
        BlockmazeError with the reason.

    Examples
    --------
    >>> from blockmaze import generate
    >>> m = generate((6, 9), rng=3)
    >>> from_blocks(to_blocks(m, wall=2, passage=3), wall=2, passage=3) == m
    True
    """
    plan = np.asarray(plan)
    if plan.ndim != 2 or not np.issubdtype(plan.dtype, np.integer):
        raise BlockmazeError(f"from_blocks takes a 2-D integer plan (z, x), got {plan.dtype} {plan.shape}")
    (wz, wx), (pz, px) = per_axis(wall, "wall"), per_axis(passage, "passage")
    rows = _cells_along(plan.shape[0], wz, pz, "z")
    cols = _cells_along(plan.shape[1], wx, px, "x")
    solid = SOLID[plan.astype(np.uint8)]
    runs_z, runs_x = thickness_runs(rows, wz, pz), thickness_runs(cols, wx, px)
    unit = solid[np.ix_(np.cumsum(runs_z) - runs_z, np.cumsum(runs_x) - runs_x)]
    if not np.array_equal(np.repeat(np.repeat(unit, runs_z, axis=0), runs_x, axis=1), solid):
        raise BlockmazeError(
            f"not a strict layout with wall {(wz, wx)} and passage {(pz, px)}: "
            "some wall or passage run is partly open and partly solid"
        )
    if not unit[::2, ::2].all():
        raise BlockmazeError("not a strict layout: a wall corner between four cells is open")
    enabled = ~unit[1::2, 1::2]
    east = ~unit[1::2, 2:-1:2]
    south = ~unit[2:-1:2, 1::2]
    if np.any(east & ~(enabled[:, :-1] & enabled[:, 1:])) or np.any(south & ~(enabled[:-1, :] & enabled[1:, :])):
        raise BlockmazeError("not a strict layout: an opening in a wall leads into a solid cell")
    links = np.zeros((rows, cols, 4), dtype=bool)
    links[:, :-1, EAST] = links[:, 1:, WEST] = east
    links[:-1, :, SOUTH] = links[1:, :, NORTH] = south
    grid = square_grid(rows, cols, mask=enabled)
    return Maze(grid, links.reshape(rows * cols, 4))


def _cells_along(length: int, wall: int, passage: int, axis: str) -> int:
    cells, rest = divmod(length - wall, wall + passage)
    if cells < 1 or rest:
        lower = max(cells, 1)
        options = [(c + 1) * wall + c * passage for c in (lower, lower + 1)]
        raise BlockmazeError(
            f"a strict plan with wall {wall} and passage {passage} cannot be {length} blocks "
            f"along {axis}; the nearest possible lengths are {options[0]} and {options[1]}"
        )
    return cells
