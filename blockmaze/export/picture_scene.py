"""What every picture of a maze is drawn from: the checked options, the scene (layers in pixel
coordinates) a maze and its options make, and the PNG and SVG drawings of a scene.

:mod:`blockmaze.export.pictures` (whole pictures, PNG and SVG) and
:mod:`blockmaze.export.pngbands` (big square-grid PNGs band by band) both build on this module,
so the imports run one way: pictures -> pngbands -> picture_scene.

>>> from blockmaze import generate
>>> scene = _scene(generate((2, 3), rng=0), cell_size=10)
>>> scene.width, scene.height, [layer.name for layer in scene.layers][:1]
(40, 30, ['walls'])
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..mazes.endpoints import Endpoints
from ..errors import BlockmazeError
from ..materials import DEFAULT_THEME, Material, Theme, as_theme
from ..maze import Maze
from ..support.memory import ensure_memory
from . import PICTURE_STYLES, check_picture_style

STYLES = PICTURE_STYLES
# the built-in distance ramp (near -> far), interpolated to at most RAMP_STEPS colours
RAMP = ("#fde725", "#7ad151", "#22a884", "#2a788e", "#414487", "#440154")
RAMP_STEPS = 64
FLOOR_SCALE = 0.5  # blocks style: a floor is its cell shrunk to this size about the centroid
MARGIN = 0.5  # units of blank border around the maze
MAX_PIXELS = 1 << 28

Colour = str | Sequence[int]

# palette slots; shade ramp colours follow
BACKGROUND, WALL, PATH, SOLUTION, START, GOAL = range(6)
# the print look's colours (the default theme's pictures): black ink on white paper (a contrast
# of 21:1), the solution in blue, the start green and the goal red (a disc and a diamond, told
# apart in grey print too)
PRINT = ("#ffffff", "#000000", "#000000", "#1f5fbf", "#1b7f3a", "#c8102e")


@dataclass
class _Layer:
    """One drawing step in pixel coordinates: ``kind`` is fill (polygons), lines (polylines),
    dots (centres, ``width`` = diameter) or plan (a colour-index raster with pixel edges)."""

    kind: str
    name: str
    colour: int
    items: list = field(default_factory=list)
    width: float = 0.0
    svg: bool = True
    caps: bool = True  # PNG: round line ends (SVG always has round caps)


@dataclass
class _Scene:
    width: int
    height: int
    palette: list[tuple[int, int, int]]
    layers: list[_Layer]


def _compress_level_for(pixels: int) -> int:
    """zlib level 6, 3 for pictures over 4 megapixels (four times faster, a third larger), 1
    over 64 megapixels (twice as fast again; drawn in bands, compressing is most of the work)."""
    return 6 if pixels <= 4_000_000 else 3 if pixels <= 64_000_000 else 1


# -- options ----------------------------------------------------------------------------------

def _colour(value: Colour, name: str) -> tuple[int, int, int]:
    if isinstance(value, str):
        text = value.strip()
        if len(text) == 7 and text[0] == "#":
            try:
                red, green, blue = (int(text[i:i + 2], 16) for i in (1, 3, 5))
                return red, green, blue
            except ValueError:
                pass
        raise BlockmazeError(f"{name} colour {value!r} is not of the form #rrggbb")
    try:
        rgb = tuple(int(v) for v in value)
    except (TypeError, ValueError):
        rgb = ()
    if len(rgb) != 3 or not all(0 <= v <= 255 for v in rgb):
        raise BlockmazeError(f"{name} colour {value!r} must be #rrggbb or three numbers 0..255")
    return rgb


def _positive(value, name: str, minimum: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
            or not math.isfinite(value) or value < minimum:
        raise BlockmazeError(f"{name} must be a number >= {minimum:g}, got {value!r}")
    return float(value)


def _ramp(stops: Sequence[tuple[int, int, int]], steps: int) -> list[tuple[int, int, int]]:
    """``steps`` colours evenly along the piecewise-linear ramp through ``stops``."""
    points = np.asarray(stops, dtype=np.float64)
    if steps == 1:
        red, green, blue = (int(v) for v in points[0])
        return [(red, green, blue)]
    where = np.linspace(0.0, len(points) - 1, steps)
    low = np.minimum(where.astype(np.int64), len(points) - 2)
    t = (where - low)[:, None]
    colours = np.rint(points[low] * (1 - t) + points[low + 1] * t).astype(np.int64)
    return [(red, green, blue) for red, green, blue in colours.tolist()]


# -- scene ------------------------------------------------------------------------------------

def _checked_options(maze: Maze, *, style: str = "walls", cell_size: float = 16,
           wall_width: float | None = None, endpoints: Endpoints | None = None,
           solution: bool = False, shade: bool | Sequence[Colour] = False,
           theme: Theme | str | None = None, background: Colour | None = None,
           wall: Colour | None = None, path: Colour | None = None,
           solution_color: Colour | None = None, solve: str | None = None,
           marks: bool = False) -> dict:
    """Check the options (the same for every format): what :class:`_Builder` takes."""
    if not isinstance(maze, Maze):
        raise BlockmazeError(f"a picture needs a Maze, got {type(maze).__name__}")
    check_picture_style(style, maze.grid.kind)
    s = _positive(cell_size, "cell_size", 1)
    if wall_width is not None:
        wall_width = _positive(wall_width, "wall_width", 1)
    theme = as_theme(theme)

    def pick(value, name, default):
        return _colour(value, name) if value is not None else default

    printed = style != "classic" and theme.name == DEFAULT_THEME
    paper, ink_colour, route, start, goal = (
        [_colour(PRINT[k], "print") for k in (BACKGROUND, WALL, SOLUTION, START, GOAL)]
        if printed else [theme.color(m) for m in (Material.FLOOR, Material.WALL, Material.PATH,
                                                   Material.START, Material.GOAL)])
    ink = pick(wall, "wall", ink_colour)
    palette = [pick(background, "background", paper), ink, pick(path, "path", ink),
               pick(solution_color, "solution", route), start, goal]
    if (solution or solve) and endpoints is None:
        raise BlockmazeError("drawing the solution needs endpoints (a start and a goal)")
    if shade is True:
        stops = [_colour(c, "shade") for c in RAMP]
    elif shade is False or shade is None:
        stops = None
    else:
        if isinstance(shade, (str, bytes)) or not hasattr(shade, "__len__") or len(shade) < 2:
            raise BlockmazeError("shade must be True, False or a sequence of two or more colours")
        stops = [_colour(c, "shade") for c in shade]
    return {"style": style, "s": s, "wall_width": wall_width, "endpoints": endpoints,
            "solution": solution, "stops": stops, "palette": palette, "solve": solve,
            "marks": marks and endpoints is not None and style != "classic"}


def _scene(maze: Maze, **options) -> _Scene:
    """Check the options and lay out the picture."""
    c = _checked_options(maze, **options)
    builder = _Builder(maze, c["style"], c["s"], c["wall_width"], c["endpoints"], c["solution"],
                       c["stops"], c["palette"], c["marks"])
    if c["solve"] is not None:
        builder.solved_by(c["solve"], c["stops"])
    return builder.scene()


class _Builder:
    """Turns a maze and the checked options into layers in pixel coordinates (``segments``: walls
    as single edges, drawn without Pillow where they are axis-aligned; the banded PNG sets it)."""

    segments = False
    pieces: list[np.ndarray] | None = None  # the solution's pieces, when given (a band's own)

    def __init__(self, maze, style, s, wall_width, endpoints, solution, stops, palette,
                 marks=False):
        grid = self.grid = maze.grid
        self.classic = style == "classic"  # the walls as drawn before the print look
        style = "walls" if self.classic else style
        self.maze, self.style, self.s = maze, style, s
        self.endpoints, self.solution, self.palette = endpoints, solution, palette
        self.marks = marks  # start and goal marked without the solution (a puzzle's page)
        from ..grids.geometry import cell_shapes

        shapes = self.shapes = cell_shapes(grid)
        n, m = shapes.sides.shape
        default = s / 4 if style == "paths" else s / 8
        if not self.classic and style == "walls" and grid.kind not in ("square", "weave"):
            default = s / 6  # slanted walls: wide enough for round joins, as even as straight ones
        self.line = max(1.0, float(round(default))) if wall_width is None else wall_width
        xmin, ymin, xmax, ymax = shapes.bounds()
        pad = 0.25 if style == "blocks" and grid.kind == "square" else 0.0
        self.margin = max(MARGIN * s, self.line)
        self.origin = np.array([xmin - pad, ymin - pad])
        self.width = int(math.ceil((xmax - xmin + 2 * pad) * s + 2 * self.margin))
        self.height = int(math.ceil((ymax - ymin + 2 * pad) * s + 2 * self.margin))
        if self.width * self.height > MAX_PIXELS:
            raise BlockmazeError(
                f"a {self.width}x{self.height}-pixel picture is too large; choose a smaller cell size (--cell-size)")
        ensure_memory(4 * self.width * self.height, f"a {self.width}x{self.height}-pixel picture")
        self.points = self.px(shapes.points)
        self.centroids = self.px(shapes.centroids())
        # per polygon edge: the next vertex, its side, the neighbour across and whether linked
        j = np.arange(m)
        self.valid = (j[None, :] < shapes.counts[:, None]) & (shapes.sides >= 0)
        nxt = (j[None, :] + 1) % shapes.counts[:, None]
        self.next_points = np.take_along_axis(self.points, nxt[:, :, None], axis=1)
        sides = np.where(self.valid, shapes.sides, 0)
        rows = np.arange(n)[:, None]
        self.sides = sides
        self.across = np.where(self.valid, grid.neighbors[rows, sides], -1)
        self.linked = self.valid & maze.links[rows, sides]
        self.own = self.valid & grid.enabled[:, None]
        self.planar = np.zeros(grid.neighbors.shape, dtype=bool)
        r, c = np.nonzero(self.valid)
        self.planar[r, sides[r, c]] = True
        # a surface's net is cut along its seams: a wall there is drawn on both sides of the
        # cut, and the solution leaves by one and comes back in by the other
        self.seam = np.zeros((n, m), dtype=bool) if shapes.seams is None else \
            self.valid & shapes.seams
        self.crossing = np.zeros(grid.neighbors.shape, dtype=bool)
        self.crossing[r, sides[r, c]] = self.seam[r, c]
        self.opened = np.zeros((n, m), dtype=bool)
        if endpoints is not None:
            for cell, direction in endpoints.openings:
                cell, direction = int(cell), int(direction)
                if not (0 <= cell < n) or not grid.enabled[cell]:
                    raise BlockmazeError(f"opening in cell {cell}, which is not an enabled cell")
                hit = self.own[cell] & (sides[cell] == direction)
                if not hit.any() or (self.across[cell][hit] >= 0).any():
                    raise BlockmazeError(
                        f"opening ({cell}, {direction}) is not a side of cell {cell} on the outer wall")
                self.opened[cell] |= hit
        self._doors: np.ndarray | None = None  # per cell and direction, its side's middle
        self._routes: dict = {}
        self.levels = None
        if stops is not None:
            self._shade_levels(stops)

    def px(self, plane: np.ndarray) -> np.ndarray:
        return (plane - self.origin) * self.s + self.margin

    def _shade_levels(self, stops) -> None:
        grid = self.grid
        start = self.endpoints.start if self.endpoints is not None else int(np.argmax(grid.enabled))
        distance = self.maze.distances(int(start))
        reach = (distance >= 0) & grid.enabled
        far = int(distance[reach].max())
        steps = min(RAMP_STEPS, far + 1)
        level = np.full(grid.size, -1, dtype=np.int64)
        if far == 0:
            level[reach] = 0
        else:
            level[reach] = np.rint(distance[reach] * (steps - 1) / far).astype(np.int64)
        self.ramp_base = len(self.palette)
        self.palette.extend(_ramp(stops, steps))
        self.levels = level

    # -- pieces ---------------------------------------------------------------------------

    def polygons(self, cells: np.ndarray, points: np.ndarray | None = None) -> list[np.ndarray]:
        points = self.points if points is None else points
        counts = self.shapes.counts
        return [points[i, :counts[i]] for i in cells.tolist()]

    def wall_mask(self) -> np.ndarray:
        """Edges drawn as walls: not linked, owned by the lower cell (or the only enabled one)."""
        index = np.arange(self.grid.size)[:, None]
        return (self.own & ~self.linked & ~self.opened
                & ((self.across < 0) | (self.across > index) | self.seam))

    def chains(self, mask: np.ndarray, by_side: bool = False):
        """The masked edges as polylines: consecutive edges of one cell (and, with ``by_side``,
        of one side) join into one line. Also gives each line's first edge ``(cell, j)``."""
        cell, j = np.nonzero(mask)
        if cell.size == 0:
            return [], cell, j
        cont = np.zeros(cell.size, dtype=bool)
        cont[1:] = (cell[1:] == cell[:-1]) & (j[1:] == j[:-1] + 1)
        if by_side:
            cont[1:] &= self.sides[cell[1:], j[1:]] == self.sides[cell[:-1], j[:-1]]
        chain = np.cumsum(~cont) - 1
        out = np.empty((cell.size + chain[-1] + 1, 2))
        out[np.arange(cell.size) + chain + 1] = self.next_points[cell, j]
        first = np.flatnonzero(~cont)
        out[first + chain[first]] = self.points[cell[first], j[first]]
        return np.split(out, (first + chain[first])[1:]), cell[first], j[first]

    def outline(self) -> list[np.ndarray]:
        """Closed loops around every cell of the unmasked grid (its outer boundary)."""
        from ..grids import GRID_KINDS

        grid = self.grid
        full = grid
        if not grid.enabled.all() and grid.kind in GRID_KINDS:
            full = GRID_KINDS[grid.kind](*grid.shape)
        rows = np.arange(grid.size)[:, None]
        outer = self.valid & (np.where(self.valid, full.neighbors[rows, self.sides], 0) < 0)
        cell, j = np.nonzero(outer)
        starts = self.points[cell, j]
        # edges follow each other where one ends at the (rounded) point where the next starts
        start_keys = [tuple(p) for p in np.round(starts, 3).tolist()]
        end_keys = [tuple(p) for p in np.round(self.next_points[cell, j], 3).tolist()]
        following = {key: k for k, key in enumerate(start_keys)}
        loops, seen = [], np.zeros(cell.size, dtype=bool)
        for k in range(cell.size):
            loop = []
            while not seen[k]:
                seen[k] = True
                loop.append(k)
                k = following.get(end_keys[k], k)
            if loop:
                loops.append(starts[loop])
        return loops

    def side_middle(self, cell: int, direction: int) -> np.ndarray:
        hit = np.flatnonzero(self.own[cell] & (self.sides[cell] == direction))
        return (self.points[cell, hit[0]] + self.next_points[cell, hit[-1]]) / 2

    def solved_by(self, method: str, stops) -> None:
        """``solve``: the solution drawn is ``method``'s path (:func:`blockmaze.solvers.solve`),
        and without ``shade`` the cells it visited are shaded by when it first came to them."""
        from ..solvers import solve

        found = solve(self.maze, method, int(self.endpoints.start), int(self.endpoints.goal),
                      rng=0)
        self.solution = True
        self.pieces = self.solution_pieces(found.path)
        if stops is None:
            first = np.full(self.grid.size, -1, dtype=np.int64)
            cells, order = np.unique(found.visits[::-1], return_index=True)
            first[cells] = found.visits.size - 1 - order  # each cell's first visit
            rank = np.full(self.grid.size, -1, dtype=np.int64)
            rank[cells] = np.argsort(np.argsort(first[cells]))
            steps = min(RAMP_STEPS, cells.size)
            self.levels = np.where(rank >= 0, rank * (steps - 1) // max(cells.size - 1, 1), -1)
            self.ramp_base = len(self.palette)
            self.palette.extend(_ramp([_colour(c, "shade") for c in RAMP], steps))

    def solution_pieces(self, cells: np.ndarray | None = None) -> list[np.ndarray]:
        """The solution's cells (by default the shortest path), split where a step is not in
        the plane (layered up/down) or crosses a seam of a surface's net."""
        if self.pieces is not None:
            return self.pieces
        if cells is None:
            cells = self.maze.shortest_path(int(self.endpoints.start), int(self.endpoints.goal))
        step_dir = np.argmax(self.grid.neighbors[cells[:-1]] == cells[1:, None], axis=1)
        flat = self.planar[cells[:-1], step_dir] & ~self.crossing[cells[:-1], step_dir]
        return np.split(cells, np.flatnonzero(~flat) + 1)

    def seam_ends(self, pieces: list[np.ndarray]) -> tuple[list, list]:
        """For each piece of the solution, the middle of the seam it came in by (or None) and
        of the seam it leaves by (or None): the way drawn to the net's cut and on from it."""
        grid = self.grid
        came: list = [None] * len(pieces)
        leaves: list = [None] * len(pieces)
        for k in range(1, len(pieces)):
            a, b = int(pieces[k - 1][-1]), int(pieces[k][0])
            d = int(np.argmax(grid.neighbors[a] == b))
            if self.crossing[a, d]:
                leaves[k - 1] = self.side_middle(a, d)
                came[k] = self.side_middle(b, int(grid.opposite[d]))
        return came, leaves

    def openings_of(self, cell: int) -> list[np.ndarray]:
        return [self.side_middle(c, d) for c, d in self.endpoints.openings if int(c) == cell]

    def markers(self, colour: int) -> list[_Layer]:
        """Triangles for up/down passages (links in directions that are no polygon side)."""
        grid = self.grid
        layers = []
        for d, name in enumerate(grid.directions):
            cells = np.flatnonzero(self.maze.links[:, d] & ~self.planar[:, d] & grid.enabled)
            if cells.size == 0:
                continue
            sign = -1.0 if name == "up" else 1.0  # up points north, the rest south
            shape = np.array([[0.0, 0.36], [0.14, 0.12], [-0.14, 0.12]]) * self.s
            shape[:, 1] *= sign
            polys = self.centroids[cells][:, None, :] + shape[None]
            layers.append(_Layer("fill", f"marker-{name}", colour, list(polys)))
        return layers

    def shade_layers(self) -> list[_Layer]:
        if self.levels is None:
            return []
        layers = []
        for level in np.unique(self.levels[self.levels >= 0]).tolist():
            cells = np.flatnonzero(self.levels == level)
            layers.append(_Layer("fill", "shade", self.ramp_base + level, self.polygons(cells)))
        return layers

    def solution_layers(self, width: float) -> list[_Layer]:
        """The solution over the walls, start and goal marked (the classic look: straight lines
        between cell centres; else :meth:`route`); a part under a bridge is in
        :meth:`under_layers`, drawn beneath the walls."""
        if not (self.solution or self.marks):
            return []
        ends = self.endpoints
        lines = []
        pieces = self.solution_pieces() if self.solution else []
        came, leaves = self.seam_ends(pieces)
        for piece, into, out in zip(pieces, came, leaves, strict=True):
            ways = [self.centroids[piece]] if self.classic else self.route(piece)[0]
            for k, pts in enumerate(ways):
                if k == 0 and piece[0] == ends.start:
                    pts = np.concatenate([*(o[None] for o in self.openings_of(int(piece[0]))[:1]), pts])
                if k == len(ways) - 1 and piece[-1] == ends.goal:
                    pts = np.concatenate([pts, *(o[None] for o in self.openings_of(int(piece[-1]))[:1])])
                if k == 0 and into is not None:
                    pts = np.concatenate([into[None], pts])
                if k == len(ways) - 1 and out is not None:
                    pts = np.concatenate([pts, out[None]])
                if len(pts) > 1:
                    lines.append(np.asarray(pts).reshape(-1, 2))
        start, goal = int(ends.start), int(ends.goal)
        if self.classic:
            radius = 0.22 * self.s
            return [
                _Layer("lines", "solution", SOLUTION, lines, width),
                _Layer("dots", "start", START, [self.centroids[start]], 2 * radius),
                _Layer("dots", "goal", GOAL, [self.centroids[goal]], 2 * radius),
            ]
        r = self.mark_radius(goal)
        diamond = self.centroids[goal] + np.array([[0, -r], [r, 0], [0, r], [-r, 0]])
        goal_mark = (_Layer("fill", "goal", GOAL, [diamond]) if r >= 1.5 else  # else a dot
                     _Layer("dots", "goal", GOAL, [self.centroids[goal]], 2 * r))
        return [
            *([_Layer("lines", "solution", SOLUTION, lines, width)] if lines else []),
            _Layer("dots", "start", START, [self.centroids[start]], 2 * self.mark_radius(start)),
            goal_mark,
        ]

    def under_layers(self, width: float) -> list[_Layer]:
        """The solution's steps under a bridge (a weave maze's), drawn before the walls."""
        if not self.solution or self.classic:
            return []
        lines = [line for piece in self.solution_pieces() for line in self.route(piece)[1]]
        return [_Layer("lines", "solution-under", SOLUTION, lines, width)] if lines else []

    def route(self, cells: np.ndarray) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """The way through ``cells`` (in the plane) along the passages, in pixels: from each
        cell's centre through the middle of the door to the next (on a polar grid along arcs
        round the centre), split where it goes under a bridge. Gives (the lines on top, the
        lines beneath a bridge).

        >>> from blockmaze import generate
        >>> builder = _Builder(generate((1, 2), rng=0), "walls", 10, None, None, False, None, [])
        >>> builder.route(np.array([0, 1]))[0][0].tolist()
        [[10.0, 10.0], [15.0, 10.0], [20.0, 10.0]]
        """
        key = (int(cells[0]), int(cells[-1]), len(cells))
        if key in self._routes:
            return self._routes[key]
        a, b = cells[:-1], cells[1:]
        d = np.argmax(self.grid.neighbors[a] == b[:, None], axis=1)
        doors = self.doors(a, d)
        bridged = np.zeros(a.size, dtype=bool)
        if self.grid.kind == "weave":  # a step to a cell not beside it: under a crossing
            gap = np.abs(a - b)
            bridged = (gap != 1) & (gap != self.grid.shape[1])
        under = [np.stack([self.centroids[x], self.centroids[y]])
                 for x, y in zip(a[bridged].tolist(), b[bridged].tolist(), strict=True)]
        over = []
        bounds = [-1, *np.flatnonzero(bridged).tolist(), a.size]
        for lo, hi in zip(bounds[:-1], bounds[1:], strict=True):
            run = np.arange(lo + 1, hi)
            start = self.centroids[int(cells[0]) if lo < 0 else int(b[lo])]
            if self.grid.kind == "polar":
                parts = [start[None]]
                for x, door, y in zip(a[run].tolist(), doors[run], b[run].tolist(), strict=True):
                    parts += [self._towards(self.centroids[x], door)[1:],
                              self._towards(door, self.centroids[y])[1:]]
                over.append(np.concatenate(parts))
                continue
            line = np.empty((2 * run.size + 1, 2))
            line[0] = start
            line[1::2] = doors[run]
            line[2::2] = self.centroids[b[run]]
            over.append(line)
        self._routes[key] = (over, under)
        return over, under

    def doors(self, cells: np.ndarray, directions: np.ndarray) -> np.ndarray:
        """The middle of each cell's side in each direction (pixels): where the way passes."""
        if self._doors is None:
            n, m = self.sides.shape
            first = np.full((n, len(self.grid.directions)), m, dtype=np.int64)
            last = np.full_like(first, -1)
            cell, j = np.nonzero(self.own)
            np.minimum.at(first, (cell, self.sides[cell, j]), j)
            np.maximum.at(last, (cell, self.sides[cell, j]), j)
            rows = np.arange(n)[:, None]
            self._doors = (self.points[rows, np.minimum(first, m - 1)]
                           + self.next_points[rows, np.maximum(last, 0)]) / 2
        return self._doors[cells, directions]

    def _towards(self, p: np.ndarray, q: np.ndarray) -> np.ndarray:
        """Points from p to q: the straight line, or on a polar grid the line straight in the
        ring's own terms (radius and angle each moving evenly), an arc along a ring."""
        if self.grid.kind != "polar":
            return np.stack([p, q])
        centre = self.px(np.full((1, 2), float(self.grid.shape[0])))[0]
        (rp, ap), (rq, aq) = (_polar(v - centre) for v in (p, q))
        turn = (aq - ap + math.pi) % (2 * math.pi) - math.pi
        t = np.linspace(0.0, 1.0, 2 + int(abs(turn) * max(rp, rq) / 4))  # a point per 4 pixels
        radius, angle = rp + (rq - rp) * t, ap + turn * t
        return centre + np.stack([radius * np.cos(angle), radius * np.sin(angle)], axis=1)

    def route_width(self) -> float:
        """The solution's width over the walls: a fifth of a cell (the classic look's), in the
        print look no wider than keeps a pixel clear of the walls in the narrowest cell."""
        width = max(1.0, float(round(self.s / 5)))
        if self.classic or not self.solution:
            return width
        cells = np.flatnonzero(self.grid.enabled)
        clear = min(self.clearance(cells))
        return float(max(1, min(width, int(2 * (clear - self.line / 2 - 1)))))

    def clearance(self, cells: np.ndarray) -> np.ndarray:
        """Each cell's distance from its centre to its nearest side, in pixels (a weave maze's
        room is inset from its square)."""
        points = self.points[cells]
        ends = self.next_points[cells]
        edge = ends - points
        toward = self.centroids[cells][:, None, :] - points
        t = np.clip(np.einsum("nij,nij->ni", toward, edge)
                    / np.maximum(np.einsum("nij,nij->ni", edge, edge), 1e-12), 0, 1)
        gap = np.linalg.norm(points + t[..., None] * edge - self.centroids[cells][:, None, :], axis=2)
        drawn = np.arange(points.shape[1])[None, :] < self.shapes.counts[cells][:, None]
        gap = np.where(np.isfinite(gap) & drawn, gap, np.inf)
        clear = gap.min(axis=1)
        if self.grid.kind == "weave":
            from .weave_picture import INSET

            clear = np.minimum(clear, (0.5 - INSET) * self.s)
        return clear

    def mark_radius(self, cell: int) -> float:
        """A start or goal mark's radius: a fifth of a cell, kept clear of the cell's walls."""
        clear = float(self.clearance(np.array([cell]))[0])
        return max(0.5, min(0.22 * self.s, clear - self.line / 2 - 1.5))

    # -- styles ---------------------------------------------------------------------------

    def scene(self) -> _Scene:
        layers = getattr(self, f"_{self.style}")()
        return _Scene(self.width, self.height, self.palette, layers)

    def _walls(self) -> list[_Layer]:
        layers = self.shade_layers()
        layers += self.under_layers(self.route_width())
        if self.grid.kind == "weave":  # inset rooms, so a passage can be seen to go under
            from .weave_picture import inset_walls

            walls = self.px(inset_walls(self.maze, self.endpoints))
            layers.append(_Layer("lines", "walls", WALL, list(walls), self.line))
        elif self.segments and self.line < 3:  # no joints or caps: the edges themselves (PNG only)
            cell, j = np.nonzero(self.wall_mask())
            items = [self.points[cell, j], self.next_points[cell, j]]
            layers.append(_Layer("segments", "walls", WALL, items, self.line, svg=False))
        else:
            layers.append(_Layer("lines", "walls", WALL, self.chains(self.wall_mask())[0], self.line))
        solution = self.solution_layers(self.route_width())
        # the classic look drew the stairs' marks first; the print look keeps them over the way
        layers += self.markers(WALL) + solution if self.classic else solution + self.markers(WALL)
        return layers

    def _paths(self) -> list[_Layer]:
        layers = self.shade_layers()
        index = np.arange(self.grid.size)[:, None]
        cell, d = np.nonzero(self.maze.links & self.planar & (self.grid.neighbors > index)
                             & self.grid.enabled[:, None])
        other = self.grid.neighbors[cell, d]
        lines = list(np.stack([self.centroids[cell], self.centroids[other]], axis=1))
        for c, direction in (self.endpoints.openings if self.endpoints is not None else ()):
            lines.append(np.stack([self.centroids[int(c)], self.side_middle(int(c), int(direction))]))
        layers.append(_Layer("lines", "paths", PATH, lines, self.line, caps=False))
        if self.line >= 3:  # round joins where passages meet (SVG has round caps already)
            enabled = np.flatnonzero(self.grid.enabled)
            layers.append(_Layer("dots", "joins", PATH, list(self.centroids[enabled]),
                                 self.line, svg=False))
        layers += self.markers(PATH)
        layers += self.under_layers(self.line)  # over the passage it crosses: the picture is flat
        layers += self.solution_layers(self.line)
        return layers

    def _blocks(self) -> list[_Layer]:
        if self.grid.kind == "square":
            return self._square_plan()
        grid = self.grid
        enabled = np.flatnonzero(grid.enabled)
        centre = self.centroids[:, None, :]
        floor_points = centre + (self.points - centre) * FLOOR_SCALE
        colour = np.full(grid.size, BACKGROUND, dtype=np.int64)
        if self.levels is not None:
            reach = self.levels >= 0
            colour[reach] = self.ramp_base + self.levels[reach]
        step_pairs: set[tuple[int, int]] = set()
        if self.solution:
            for piece in self.solution_pieces():
                colour[piece] = SOLUTION
                step_pairs.update(zip(piece[:-1].tolist(), piece[1:].tolist(), strict=True))
            colour[int(self.endpoints.start)] = START
            colour[int(self.endpoints.goal)] = GOAL
        # the wall colour over the whole grid, masked cells blank again
        layers = [_Layer("fill", "blocks-wall", WALL, self.outline())]
        disabled = np.flatnonzero(~grid.enabled)
        if disabled.size:
            layers.append(_Layer("fill", "blocks-masked", BACKGROUND, self.polygons(disabled)))
        # passages: across each linked side, the shrunk edge of one floor joined to the other's
        index = np.arange(grid.size)[:, None]
        lines, cell, j = self.chains(self.own & self.linked & (self.across > index), by_side=True)
        other = self.across[cell, j]
        polys = []
        for line, a, b in zip(lines, self.centroids[cell], self.centroids[other], strict=True):
            near, far = a + (line - a) * FLOOR_SCALE, b + (line - b) * FLOOR_SCALE
            polys.append(np.concatenate([near, far[::-1]]))
        passage_colour = np.full(cell.size, BACKGROUND, dtype=np.int64)
        if self.levels is not None:
            level = np.maximum(self.levels[cell], self.levels[other])
            passage_colour = np.where(level >= 0, self.ramp_base + level, BACKGROUND)
        if self.solution:
            step = np.array([(a, b) in step_pairs or (b, a) in step_pairs
                             for a, b in zip(cell.tolist(), other.tolist(), strict=True)],
                            dtype=bool)
            passage_colour[step] = SOLUTION
        # openings: from the floor out through the outer wall
        lines_out, oc, _ = self.chains(self.opened, by_side=True)
        for line, a in zip(lines_out, self.centroids[oc], strict=True):
            polys.append(np.concatenate([a + (line - a) * FLOOR_SCALE, line[::-1]]))
        passage_colour = np.concatenate(
            [passage_colour, np.full(oc.size, SOLUTION if self.solution else BACKGROUND)])
        floors = self.polygons(enabled, floor_points)
        floor_colour = colour[enabled]
        for value in np.unique(np.concatenate([floor_colour, passage_colour])).tolist():
            items = [floors[k] for k in np.flatnonzero(floor_colour == value).tolist()]
            items += [polys[k] for k in np.flatnonzero(passage_colour == value).tolist()]
            layers.append(_Layer("fill", "blocks-floor", int(value), items))
        layers += self.markers(WALL)
        return layers

    def _square_plan(self) -> list[_Layer]:
        from ..blocks.convert import to_blocks, unit_centre

        plan = to_blocks(self.maze, endpoints=self.endpoints,
                         solution=self.solution and self.pieces is None)
        rows, cols = self.grid.shape
        ids = np.full(plan.shape, BACKGROUND, dtype=np.int64)
        ids[plan == Material.WALL] = WALL
        if self.levels is not None:
            level = self.levels.reshape(rows, cols)
            shade = np.full(plan.shape, -1, dtype=np.int64)
            shade[1::2, 1::2] = level
            shade[1::2, 2:-1:2] = np.maximum(level[:, :-1], level[:, 1:])
            shade[2:-1:2, 1::2] = np.maximum(level[:-1], level[1:])
            open_ = np.isin(plan, (Material.AIR, Material.CHECKPOINT, Material.EXIT)) & (shade >= 0)
            ids[open_] = self.ramp_base + shade[open_]
        ids[plan == Material.PATH] = SOLUTION
        for piece in self.pieces or ():  # a solver's path (solve)
            z, x = unit_centre(piece, cols)
            ids[z, x] = SOLUTION
            ids[(z[:-1] + z[1:]) // 2, (x[:-1] + x[1:]) // 2] = SOLUTION
        ids[plan == Material.START] = START
        ids[plan == Material.GOAL] = GOAL
        xs = self.margin + np.arange(plan.shape[1] + 1) * (self.s / 2)
        ys = self.margin + np.arange(plan.shape[0] + 1) * (self.s / 2)
        return [_Layer("plan", "blocks", -1, [ids, xs, ys])]


def contrast(first: Colour, second: Colour) -> float:
    """The WCAG 2 contrast ratio of two colours (1 to 21; 7 is its AAA level for text).

    >>> contrast(PRINT[WALL], PRINT[BACKGROUND]), round(contrast("#7a7a7a", "#a8a8a0"), 2)
    (21.0, 1.79)
    """
    def luminance(colour) -> float:
        channels = np.asarray(_colour(colour, "contrast"), dtype=np.float64) / 255
        linear = np.where(channels <= 0.04045, channels / 12.92, ((channels + 0.055) / 1.055) ** 2.4)
        return float(linear @ np.array([0.2126, 0.7152, 0.0722]))

    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return round((light + 0.05) / (dark + 0.05), 6)


def _polar(v: np.ndarray) -> tuple[float, float]:
    return float(math.hypot(v[0], v[1])), float(math.atan2(v[1], v[0]))


# -- PNG --------------------------------------------------------------------------------------

def _draw_png(scene: _Scene):
    """Draw the layers; Pillow truncates float coordinates, so they are rounded first (the pixel
    with index k is centred on coordinate k)."""
    from PIL import Image, ImageDraw

    image = Image.new("P", (scene.width, scene.height), BACKGROUND)
    flat = [v for rgb in scene.palette for v in rgb]
    palette = flat + [0] * (768 - len(flat))  # (each new image below takes it again)
    image.putpalette(palette)
    draw = ImageDraw.Draw(image)
    for layer in scene.layers:
        colour = layer.colour
        if layer.kind == "fill":
            for poly in layer.items:
                draw.polygon(np.rint(poly).astype(np.int64).ravel().tolist(), fill=colour)
        elif layer.kind == "lines":
            width = max(1, int(round(layer.width)))
            joint = "curve" if width >= 3 else None
            for line in layer.items:
                draw.line(np.rint(line).astype(np.int64).ravel().tolist(), fill=colour, width=width,
                          joint=joint if len(line) > 2 else None)
            if width >= 3 and layer.caps and layer.items:
                ends = np.concatenate([np.stack([line[0] for line in layer.items]),
                                       np.stack([line[-1] for line in layer.items])])
                _dots(draw, ends, width, colour)
        elif layer.kind == "dots":
            if layer.items:
                _dots(draw, np.asarray(layer.items), layer.width, colour)
        elif layer.kind == "segments":
            starts, ends = layer.items
            image = _segments(image, starts, ends, int(round(layer.width)), colour)
            draw = ImageDraw.Draw(image)
        elif layer.kind == "plan":
            ids, xs, ys = layer.items
            xe, ye = np.rint(xs).astype(np.int64), np.rint(ys).astype(np.int64)
            block = np.repeat(np.repeat(ids.astype(np.uint8), np.diff(ye), axis=0), np.diff(xe), axis=1)
            canvas = np.asarray(image).copy()
            canvas[ye[0]:ye[-1], xe[0]:xe[-1]] = block
            image = Image.fromarray(canvas, mode="P")
            image.putpalette(palette)
            draw = ImageDraw.Draw(image)
    return image


def _segments(image, starts: np.ndarray, ends: np.ndarray, width: int, colour: int):
    """Straight lines of width 1 or 2 from ``starts`` to ``ends``, as Pillow draws them: the
    axis-aligned ones with numpy (a width-2 line adds the row below a rightward line, above
    a leftward one; the column right of a downward line, left of an upward one), the rest by
    Pillow. Returns the image (a new one when numpy drew)."""
    from PIL import Image, ImageDraw

    a, b = np.rint(starts).astype(np.int64), np.rint(ends).astype(np.int64)
    other = ~(((a[:, 1] == b[:, 1]) & (a[:, 0] != b[:, 0])) | ((a[:, 0] == b[:, 0]) & (a[:, 1] != b[:, 1])))
    if other.any():
        draw = ImageDraw.Draw(image)
        for p, q in zip(a[other].tolist(), b[other].tolist(), strict=True):
            draw.line(p + q, fill=colour, width=width)
    canvas = np.asarray(image).copy()
    _axis_lines(canvas, a[~other], b[~other], width, colour)
    palette = image.getpalette()
    image = Image.fromarray(canvas, mode="P")
    image.putpalette(palette)
    return image


_LINE_PIXELS = 1 << 22  # pixels of lines set per numpy pass (bounds the index arrays' memory)


def _axis_lines(canvas: np.ndarray, a: np.ndarray, b: np.ndarray, width: int, colour: int) -> None:
    """Set the pixels of axis-aligned lines from ``a`` to ``b`` (x, y rows) to ``colour``: across
    ones on row y0 (and the row below a rightward line, above a leftward one), down ones on column
    x0 (and the column right of a downward line, left of an upward one); clipped to the canvas.

    >>> canvas = np.zeros((3, 4), np.uint8)
    >>> _axis_lines(canvas, np.array([[0, 0], [3, 2]]), np.array([[2, 0], [3, 0]]), 2, 7)
    >>> canvas.tolist()
    [[7, 7, 7, 7], [7, 7, 7, 7], [0, 0, 7, 7]]
    """
    across = a[:, 1] == b[:, 1]
    for lines, rows in ((across, True), (~across, False)):
        # in the canvas's (row, column) frame a down line is an across line of the transpose
        target = canvas if rows else canvas.T
        at, run_a, run_b = (a[lines, 1], a[lines, 0], b[lines, 0]) if rows else (a[lines, 0], a[lines, 1], b[lines, 1])
        forward = run_b > run_a
        lo = np.maximum(np.minimum(run_a, run_b), 0)
        hi = np.minimum(np.maximum(run_a, run_b), target.shape[1] - 1)
        for extra in range(width):
            line = at + np.where(forward, extra, -extra)
            keep = (line >= 0) & (line < target.shape[0]) & (hi >= lo)
            _fill_runs(target, line[keep], lo[keep], hi[keep] - lo[keep] + 1, colour)


def _fill_runs(target: np.ndarray, rows: np.ndarray, starts: np.ndarray, lengths: np.ndarray, colour: int) -> None:
    """``target[rows[k], starts[k]:starts[k] + lengths[k]] = colour`` for every k, a batch of
    at most :data:`_LINE_PIXELS` pixels (or one run) per numpy pass."""
    ends = np.cumsum(lengths)
    first = 0
    while first < lengths.size:
        base = ends[first] - lengths[first]
        last = max(int(np.searchsorted(ends, base + _LINE_PIXELS, side="right")), first + 1)
        counts = lengths[first:last]
        total = int(counts.sum())
        offsets = np.arange(total) - np.repeat(ends[first:last] - counts - base, counts)
        target[np.repeat(rows[first:last], counts), np.repeat(starts[first:last], counts) + offsets] = colour
        first = last


def _dots(draw, centres: np.ndarray, diameter: float, colour: int) -> None:
    """Filled discs, all in one call: every covered pixel as a point."""
    r = diameter / 2
    reach = int(math.ceil(r))
    offsets = np.arange(-reach, reach + 1)
    dy, dx = np.meshgrid(offsets, offsets, indexing="ij")
    inside = dx * dx + dy * dy <= r * r - r + 0.5  # the disc that a line of this width ends in
    x = np.rint(centres[:, 0]).astype(np.int64)[:, None] + dx[inside][None]
    y = np.rint(centres[:, 1]).astype(np.int64)[:, None] + dy[inside][None]
    xy = np.stack([x.ravel(), y.ravel()], axis=1)
    draw.point(xy.ravel().tolist(), fill=colour)


# -- SVG --------------------------------------------------------------------------------------

def _hex(rgb) -> str:
    return "#%02x%02x%02x" % tuple(rgb)


def _numbers(values: np.ndarray) -> list[str]:
    return ["%.7g" % v for v in np.round(values, 1).ravel().tolist()]


def _path_data(polylines: list[np.ndarray], close: bool) -> str:
    if not polylines:
        return ""
    lengths = [len(p) for p in polylines]
    numbers = _numbers(np.concatenate(polylines))
    parts = []
    k = 0
    tail = "Z" if close else ""
    for n in lengths:
        chunk = numbers[2 * k: 2 * (k + n)]
        parts.append(f"M{chunk[0]} {chunk[1]}L" + " ".join(chunk[2:]) + tail)
        k += n
    return "".join(parts)


def _svg(scene: _Scene) -> str:
    w, h = scene.width, scene.height
    paper = _hex(scene.palette[BACKGROUND])
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'viewBox="0 0 {w} {h}">',
           f'<rect class="background" width="{w}" height="{h}" fill="{paper}"/>']
    for layer in scene.layers:
        if not layer.svg or not layer.items:
            continue
        colour = _hex(scene.palette[layer.colour]) if layer.colour >= 0 else ""
        if layer.kind == "fill":
            out.append(f'<path class="{layer.name}" fill="{colour}" '
                       f'd="{_path_data(layer.items, close=True)}"/>')
        elif layer.kind == "lines":
            width = "%.7g" % round(layer.width, 2)
            out.append(f'<path class="{layer.name}" fill="none" stroke="{colour}" '
                       f'stroke-width="{width}" stroke-linecap="round" stroke-linejoin="round" '
                       f'd="{_path_data(layer.items, close=False)}"/>')
        elif layer.kind == "dots":
            r = "%.7g" % round(layer.width / 2, 2)
            for x, y in _pairs(np.asarray(layer.items)):
                out.append(f'<circle class="{layer.name}" cx="{x}" cy="{y}" r="{r}" fill="{colour}"/>')
        elif layer.kind == "plan":
            out += _svg_plan(layer, scene)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _pairs(points: np.ndarray) -> list[tuple[str, str]]:
    numbers = _numbers(points)
    return list(zip(numbers[0::2], numbers[1::2], strict=True))


def _svg_plan(layer: _Layer, scene: _Scene) -> list[str]:
    """A block plan as one path per colour, each horizontal run of equal blocks one rectangle."""
    ids, xs, ys = layer.items
    rows, cols = ids.shape
    start = np.ones(ids.shape, dtype=bool)
    start[:, 1:] = ids[:, 1:] != ids[:, :-1]
    z, x0 = np.nonzero(start)
    x1 = np.append(x0[1:], cols)
    x1[np.append(z[1:] != z[:-1], True)] = cols
    values = ids[z, x0]
    out = []
    block_h = _numbers(np.array([ys[1] - ys[0]]))[0]
    for value in np.unique(values).tolist():
        if value == BACKGROUND:
            continue
        pick = values == value
        left, top, right = _numbers(xs[x0[pick]]), _numbers(ys[z[pick]]), _numbers(xs[x1[pick]])
        d = "".join(f"M{a} {b}H{c}v{block_h}H{a}Z"
                    for a, b, c in zip(left, top, right, strict=True))
        out.append(f'<path class="blocks" fill="{_hex(scene.palette[value])}" d="{d}"/>')
    return out
