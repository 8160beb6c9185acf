"""A unicursal maze of a hex, triangle, upsilon or polar grid drawn on that grid: the classic
labyrinth of a perfect maze, its one path in two lanes along every passage.

:func:`blockmaze.blocks.unicursal.unicursal` turns such a maze into a square one (drawn thin in
blocks, then split), and the document keeps the perfect maze it was split from
(``MazeDocument.split_from``). Its picture is drawn from that maze instead: the maze's walls, and
a wall down the middle of every passage, from each cell's centre to the middle of its door and on
to the next cell's centre. Between them runs one lane round the tree of passages (Walter Pullen,
Think Labyrinth, "Maze Algorithms": the unicursal maze of a perfect one), down every passage and
back. A last wall from the entrance cell's centre to the middle of its side on the outer wall (the
cell and side :func:`~blockmaze.blocks.unicursal.entrance` picks, where the split square maze
was cut too) cuts that loop into a path: its two ends lie side by side there, with an opening in
the outer wall beside each when the maze has openings.

Each cell is cut into corners (one where two sides meet, a side being the polygon edges of one
direction); the lane goes corner to corner: along a wall to the cell's next corner, through an
open side into the neighbour's corner at the same vertex. :func:`lane_route` gives those corners
in the path's order and the route through them (halfway between each cell's centre and its
corners, through each door halfway between its corner and its middle), the solution drawn.

>>> from blockmaze.pipeline import make_maze
>>> doc = make_maze((3, 3), "hex", seed=1, unicursal=True, entrances=True)
>>> scene = lane_scene(doc.split_from, entrances=True, cell_size=20)
>>> [layer.name for layer in scene.layers]
['walls', 'lanes', 'start', 'goal']
"""

from __future__ import annotations

import numpy as np

from ..errors import BlockmazeError
from ..maze import Maze
from ..mazes.endpoints import Endpoints
from .picture_scene import (GOAL, SOLUTION, START, WALL, _Builder, _checked_options, _Layer,
                            _Scene, _scene)

LANE_STYLES = ("walls", "classic")
LANE_WALL = 1 / 10  # the lanes' walls: a tenth of a cell wide (at least a pixel)
ROOM = 2.5  # pixels at least from the middle of a lane to its walls' edge (a cell size grows)


def drawn_scene(maze: Maze, split_from: Maze | None = None, **options) -> _Scene:
    """The scene of a picture of ``maze`` (options as for
    :func:`blockmaze.export.pictures.render_image`); of a unicursal maze, the lanes on the grid
    of ``split_from``, the perfect maze it was split from (its ``endpoints``' openings say
    whether the outer wall is open beside the ends). The paths and blocks styles draw the
    square maze itself, as its blocks are."""
    if split_from is None or options.get("style", "walls") not in LANE_STYLES:
        return _scene(maze, **options)
    ends = options.pop("endpoints", None)
    options.pop("marks", None)  # (start and goal are always marked)
    return lane_scene(split_from, entrances=bool(ends is not None and ends.openings), **options)


def lane_scene(maze: Maze, *, entrances: bool = False, style: str = "walls", **options) -> _Scene:
    """The picture of the unicursal maze split from the perfect ``maze`` (see the module
    docstring); ``entrances`` opens the outer wall beside both ends. Other options as for
    :func:`blockmaze.export.pictures.render_image` (``solve`` draws the one path, as
    ``solution`` does; ``shade`` counts from the entrance cell).
    """
    return lane_builder(maze, entrances=entrances, style=style, **options).scene()


def lane_builder(maze: Maze, *, entrances: bool = False, style: str = "walls",
                 **options) -> _LaneBuilder:
    """What :func:`lane_scene` draws from: the lanes' layout, its cell size grown where a lane
    would be too narrow for the route (see ``ROOM``).

    >>> from blockmaze import generate
    >>> lane_builder(generate((3, 3), rng=0, kind="triangle"), cell_size=8).s
    27.0
    """
    if style not in LANE_STYLES:
        raise BlockmazeError(f"a unicursal maze of a {maze.grid.kind} grid is drawn on its grid in "
                             f"the {' or '.join(LANE_STYLES)} style, not {style!r}")
    from ..blocks.unicursal import entrance

    door = entrance(maze.grid)
    if door is None or not maze.is_perfect():
        raise BlockmazeError("a unicursal maze is drawn from a perfect maze with a cell on its "
                             "outer wall")
    cell, side = door
    ends = Endpoints(cell, cell, ((cell, side),) if entrances else ())
    solution = bool(options.pop("solution", False) or options.pop("solve", None))
    options.pop("endpoints", None)
    c = _checked_options(maze, style=style, endpoints=ends, solution=solution, **options)
    size = c["s"]
    if c["wall_width"] is None:  # room for the route between the lanes' walls
        unit = _LaneBuilder(maze, c["style"], 1, 1, ends, False, None, [], True)
        per_pixel = unit.lane_clearance()  # (at a pixel a unit: no picture is drawn)
        size = max(size, float(np.ceil(ROOM / (per_pixel - LANE_WALL / 2))))
    builder = _LaneBuilder(maze, c["style"], size, c["wall_width"], ends, solution,
                           c["stops"], c["palette"], True)
    builder.door = door
    return builder


def lane_route(builder: _Builder, door: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """The path of the unicursal maze on ``builder``'s perfect maze, cut at ``door`` (its cell
    and a side on the outer wall): its corners in order, as (cell, polygon vertex) rows, and the
    route through them in pixels.

    >>> from blockmaze import generate
    >>> from blockmaze.blocks.unicursal import entrance
    >>> maze = generate((2, 2), rng=0, kind="hex")
    >>> builder = _Builder(maze, "walls", 10, None, None, False, None, [])
    >>> corners, points = lane_route(builder, entrance(maze.grid))
    >>> len(corners), corners[0].tolist(), corners[-1].tolist()
    (24, [0, 2], [0, 1])
    """
    grid = builder.grid
    n = grid.size
    cell, vertex, direction, _ = corners(builder)
    total = cell.size
    index = np.full((n, len(grid.directions)), -1, dtype=np.int64)
    index[cell, direction] = np.arange(total)
    first = np.searchsorted(cell, cell)  # each cell's first corner
    last = np.searchsorted(cell, cell, side="right")
    following = np.where(np.arange(total) + 1 < last, np.arange(total) + 1, first)
    # along a wall: the cell's next corner; through a door: the neighbour's corner after the side
    # it shares (that side runs the other way round the shared edge)
    across = grid.neighbors[cell, direction]
    linked = builder.maze.links[cell, direction] & (across >= 0)
    back = np.argmax(grid.neighbors[np.maximum(across, 0)] == cell[:, None], axis=1)
    there = index[np.maximum(across, 0), back]
    following_ = np.where(linked, following[np.where(there >= 0, there, 0)], following)
    successor = following_.tolist()
    cut = int(index[door[0], door[1]])
    if cut < 0 or linked[cut]:
        raise BlockmazeError(f"cannot cut the lanes at side {door[1]} of cell {door[0]}")
    order = [int(following[cut])]
    while order[-1] != cut and len(order) <= total:
        order.append(successor[order[-1]])
    if order[-1] != cut or len(order) != total:  # (a perfect maze's lanes are one loop)
        raise BlockmazeError("the maze's lanes are not one loop: is it a perfect maze?")
    walk = np.asarray(order, dtype=np.int64)
    route = _route_points(builder, cell, vertex, walk, linked, following)
    return np.stack([cell[walk], vertex[walk]], axis=1), route


def corners(builder: _Builder) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every cell's corners, cell by cell in polygon order: the cell, the polygon vertex, and
    the directions of the side that starts there and of the side that ends there (a side: the
    run of a polygon's edges of one direction).

    >>> from blockmaze import generate
    >>> builder = _Builder(generate((1, 1), rng=0, kind="hex"), "walls", 10, None, None, False,
    ...                    None, [])
    >>> [part.tolist() for part in corners(builder)]
    [[0, 0, 0, 0, 0, 0], [0, 1, 2, 3, 4, 5], [5, 0, 1, 2, 3, 4], [4, 5, 0, 1, 2, 3]]
    """
    shapes, sides = builder.shapes, builder.sides
    m = sides.shape[1]
    valid = builder.valid & builder.grid.enabled[:, None]
    previous = np.take_along_axis(sides, (np.arange(m)[None, :] - 1) % shapes.counts[:, None], axis=1)
    cell, vertex = np.nonzero(valid & (sides != previous))
    return cell, vertex, sides[cell, vertex], previous[cell, vertex]


def _route_points(builder: _Builder, cell, vertex, walk, linked, following) -> np.ndarray:
    """The route through the corners ``walk`` (see :func:`lane_route`): at each corner the
    point halfway to the cell's centre, then through a door the point halfway between the
    corner and the door's middle, or along a wall of several edges (a ring's arc) the points
    halfway to the centre from the vertices on the way; the last corner (at the cut) ends it."""
    centroids, points, counts = builder.centroids, builder.points, builder.shapes.counts
    c, v = cell[walk], vertex[walk]
    count = counts[c]
    door = linked[walk]
    inner = np.where(door, 0, (vertex[following[walk]] - v - 1) % count)
    extra = np.where(door, 1, inner)
    extra[-1] = 0  # (the cut: the path ends at its corner)
    inner[-1] = 0
    first = np.concatenate([[0], np.cumsum(1 + extra)[:-1]])
    out = np.empty((int((1 + extra).sum()), 2))
    out[first] = (centroids[c] + points[c, v]) / 2
    through = np.flatnonzero(door[:-1])
    middle = builder.doors(c[through], builder.sides[c[through], v[through]])
    out[first[through] + 1] = (points[c[through], v[through]] + middle) / 2
    along = np.repeat(np.arange(walk.size), inner)  # a row for each vertex on a wall's way
    step = np.arange(along.size) - np.repeat(np.cumsum(inner) - inner, inner)
    on = (v[along] + 1 + step) % count[along]
    out[first[along] + 1 + step] = (centroids[c[along]] + points[c[along], on]) / 2
    return out


class _LaneBuilder(_Builder):
    """The lanes' scene: the maze's walls, a wall down every passage and the cut, and the one
    path as the solution (``door``: where it is cut, set by :func:`lane_scene`); walls of
    :data:`LANE_WALL` unless a width is given."""

    door: tuple[int, int]

    def __init__(self, maze, style, s, wall_width, *rest) -> None:
        wall_width = max(1.0, float(round(s * LANE_WALL))) if wall_width is None else wall_width
        super().__init__(maze, style, s, wall_width, *rest)

    def centre_lines(self) -> list[np.ndarray]:
        """A wall down the middle of each passage (centre, door, centre) and the cut."""
        index = np.arange(self.grid.size)[:, None]
        cell, d = np.nonzero(self.maze.links & self.planar & (self.grid.neighbors > index)
                             & self.grid.enabled[:, None])
        other = self.grid.neighbors[cell, d]
        doors = self.doors(cell, d)
        lines = list(np.stack([self.centroids[cell], doors, self.centroids[other]], axis=1))
        c, side = self.door
        lines.append(np.stack([self.centroids[c], self.side_middle(c, side)]))
        return lines

    def lane_clearance(self) -> float:
        """The least room beside the route, in pixels: the route runs halfway between a cell's
        centre and its sides and corners, so half the least of a centre's distance to its
        sides and a corner's distance to the centre lines of the two sides it joins."""
        cells = np.flatnonzero(self.grid.enabled)
        cell, vertex, after, before = corners(self)
        centre, corner = self.centroids[cell], self.points[cell, vertex]
        gaps = [_distance(corner, centre, self.doors(cell, d)) for d in (after, before)]
        return float(min(self.clearance(cells).min(), *(g.min() for g in gaps))) / 2

    def _walls(self) -> list[_Layer]:
        clear = self.lane_clearance()
        layers = self.shade_layers()
        layers.append(_Layer("lines", "walls", WALL, self.chains(self.wall_mask())[0], self.line))
        layers.append(_Layer("lines", "lanes", WALL, self.centre_lines(), self.line))
        corners, route = lane_route(self, self.door)
        width = max(1.0, float(round(self.s / 5)))
        if not self.classic:
            width = float(max(1, min(width, int(2 * (clear - self.line / 2 - 1)))))
        if self.endpoints.openings:  # out through the openings beside the cut
            c, side = self.door
            middle = self.side_middle(c, side)
            out = [(self.points[c, v] + middle) / 2 for v in (corners[0, 1], corners[-1, 1])]
            route = np.concatenate([out[0][None], route, out[1][None]])
        if self.solution:
            layers.append(_Layer("lines", "solution", SOLUTION, [route], width))
        start, goal = ((self.centroids[c] + self.points[c, v]) / 2 for c, v in corners[[0, -1]])
        r = max(0.5, min(0.22 * self.s, clear - self.line / 2 - 1.5))
        diamond = goal + np.array([[0, -r], [r, 0], [0, r], [-r, 0]])
        layers.append(_Layer("dots", "start", START, [start], 2 * r))
        layers.append(_Layer("fill", "goal", GOAL, [diamond]) if r >= 1.5
                      else _Layer("dots", "goal", GOAL, [goal], 2 * r))
        return layers


def _distance(points: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Each point's distance to the line through its ``a`` and ``b``."""
    line, off = b - a, points - a
    cross = np.abs(line[:, 0] * off[:, 1] - line[:, 1] * off[:, 0])
    return cross / np.maximum(np.hypot(line[:, 0], line[:, 1]), 1e-12)
