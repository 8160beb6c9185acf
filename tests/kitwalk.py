"""What a kit scene's floor is, from the maze alone (not from blockmaze's navigation code): each
cell a 5 x 5 lattice of units whose middle 3 x 3 and whose open sides' middle units are floor;
a point a path passes is checked to lie on that floor (or on a stair cell's middle unit). A weave
crossing the maze passes under (docs/guides/engines.md) has two floors: the under-passage's, on
the level across the whole cell and 3 units wide, and the bridge's, 3 units wide along the
passage on top, its deck over the middle 3 units at DECK of a level up, each open end a ramp
from the level at the cell's edge to the deck a unit in."""

from __future__ import annotations

import math

import numpy as np

PIECE, EPS, DECK = 5, 1e-3, 0.75


def on_crossing(maze, cell: int, u: float, v: float, y: float) -> bool:
    """Whether the point ``u``, ``v`` units into used crossing ``cell`` (east, south), ``y``
    levels up, is on its under-passage's floor or its bridge."""
    over_east_west = maze.grid.crossings[cell] == 1
    along, across = (u, v) if over_east_west else (v, u)
    near, far = (3, 1) if over_east_west else (0, 2)  # the bridge's ends: west/east, north/south
    inside = -EPS <= across <= PIECE + EPS and 1 - EPS <= along <= PIECE - 1 + EPS
    if inside and abs(y) < 0.05:
        return True  # under the bridge
    if not 1 - EPS <= across <= PIECE - 1 + EPS:
        return False
    if 1 <= along <= PIECE - 1:
        height = DECK
    elif along < 1 and maze.links[cell, near]:
        height = DECK * along
    elif along > PIECE - 1 and maze.links[cell, far]:
        height = DECK * (PIECE - along)
    else:
        return False
    return abs(y - height) < 0.05


def walkable(maze, cell_size: float, level_height: float, point) -> bool:
    """Whether ``point`` (x, y, z metres) is on the floor of a cell of a square or layered maze."""
    grid = maze.grid
    levels, rows, cols = (1, *grid.shape) if len(grid.shape) == 2 else grid.shape
    unit = cell_size / PIECE
    x, y, z = point[0] / unit, point[1] / level_height, point[2] / unit
    for level in {math.floor(y + EPS), math.floor(y - EPS), round(y)}:
        for ux in {math.floor(x + EPS), math.floor(x - EPS)}:
            for uz in {math.floor(z + EPS), math.floor(z - EPS)}:
                if not (0 <= level < levels and 0 <= ux < cols * PIECE and 0 <= uz < rows * PIECE):
                    continue
                cell = (level * rows + uz // PIECE) * cols + ux // PIECE
                u, v = ux % PIECE, uz % PIECE
                if grid.kind == "weave" and cell in grid.used_crossings(maze.links)[:, 0]:
                    col, row = ux // PIECE, uz // PIECE
                    if on_crossing(maze, cell, x - col * PIECE, z - row * PIECE, y):
                        return True
                    continue
                links = maze.links[cell]
                stair = (u, v) == (2, 2) and (len(links) > 4 and (links[4] or links[5]))
                on_level = abs(y - level) < 0.05 or stair
                if not on_level or not grid.enabled[cell]:
                    continue
                if 1 <= u <= 3 and 1 <= v <= 3:
                    return True
                side = None
                if v == 0 and 1 <= u <= 3:
                    side = 0
                elif u == 4 and 1 <= v <= 3:
                    side = 1
                elif v == 4 and 1 <= u <= 3:
                    side = 2
                elif u == 0 and 1 <= v <= 3:
                    side = 3
                if side is not None and links[side]:
                    return True
    return False


def path_on_floor(maze, cell_size: float, level_height: float, path, step: float = 0.2) -> bool:
    """Every point of ``path`` and of its segments, every ``step`` metres, is on the floor."""
    points = np.asarray(path, float)
    for a, b in zip(points[:-1], points[1:], strict=True):
        count = max(1, int(np.linalg.norm(b - a) / step))
        for t in np.linspace(0, 1, count + 1):
            if not walkable(maze, cell_size, level_height, a + t * (b - a)):
                return False
    return True


def _inside(points: np.ndarray, polygon: np.ndarray) -> np.ndarray:
    """Which of ``points`` (n, 2) lie in ``polygon`` (m, 2) (even-odd rule)."""
    x, y = points[:, 0:1], points[:, 1:2]
    a, b = polygon, np.roll(polygon, -1, axis=0)
    crosses = ((a[:, 1] > y) != (b[:, 1] > y)) & (
        x < (b[:, 0] - a[:, 0]) * (y - a[:, 1]) / (b[:, 1] - a[:, 1] + 1e-300) + a[:, 0])
    return crosses.sum(axis=1) % 2 == 1


def path_through_open_sides(maze, cell_size: float, path, step: float = 0.1) -> bool:
    """For a maze of polygon cells: every point of ``path`` (and every ``step`` metres between)
    lies in a cell, and the path goes from cell to cell only where the maze links them."""
    from blockmaze.grids.geometry import cell_shapes

    shapes = cell_shapes(maze.grid)
    points = np.asarray(path, float)[:, [0, 2]] / cell_size
    samples = [points[0]]
    for a, b in zip(points[:-1], points[1:], strict=True):
        count = max(1, int(np.linalg.norm(b - a) * cell_size / step))
        samples.extend(a + t * (b - a) for t in np.linspace(0, 1, count + 1)[1:])
    samples = np.array(samples)
    owner = np.full(len(samples), -1)
    for cell in np.flatnonzero(maze.grid.enabled).tolist():
        owner[_inside(samples, shapes.polygon(cell)) & (owner < 0)] = cell
    if (owner < 0).any():
        return False
    for a, b in zip(owner[:-1].tolist(), owner[1:].tolist(), strict=True):
        if a != b and not any(maze.grid.neighbors[a, d] == b and maze.links[a, d]
                              for d in range(maze.grid.degree)):
            return False
    return True


def on_blocks(maze, path, floor_top: float = 1.0, step: float = 0.2) -> bool:
    """For the voxel mesh of a square maze (passages and walls a block wide, metres a block):
    every point of ``path`` (and every ``step`` between) is ``floor_top`` up, over a cell's
    block or the block between two cells the maze links."""
    rows, cols = maze.grid.shape
    points = np.asarray(path, float)
    samples = [points[0]]
    for a, b in zip(points[:-1], points[1:], strict=True):
        count = max(1, int(np.linalg.norm(b - a) / step))
        samples.extend(a + t * (b - a) for t in np.linspace(0, 1, count + 1)[1:])
    for x, y, z in samples:
        if abs(y - floor_top) > 0.05:
            return False
        found = False
        for bx in {math.floor(x + EPS), math.floor(x - EPS)}:
            for bz in {math.floor(z + EPS), math.floor(z - EPS)}:
                if not (1 <= bx < 2 * cols and 1 <= bz < 2 * rows):
                    continue
                if bx % 2 and bz % 2:
                    found = True  # a cell
                elif bx % 2:  # between the cells north and south of it
                    cell = (bz // 2 - 1) * cols + bx // 2
                    found = found or bool(maze.links[cell, 2])
                elif bz % 2:  # between the cells west and east of it
                    cell = (bz // 2) * cols + bx // 2 - 1
                    found = found or bool(maze.links[cell, 1])
        if not found:
            return False
    return True
