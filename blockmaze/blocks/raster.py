"""Rasterization: any grid kind's maze as a block plan ``(z, x)``, ``scale`` blocks per unit length.

How it works (every step a numba kernel over plain arrays):

1. **Ownership.** Each block belongs to the cell whose polygon (:func:`cell_shapes`) holds the
   block's centre, or to nobody (outside the grid, or a disabled cell).
2. **Rooms.** A block is a cell's room block when it and its eight neighbours all belong to that
   cell, so rooms of different cells never touch, not even diagonally (about one block of wall
   on each side of every cell edge). ``rooms=False`` leaves them out (only anchors, corridors
   and openings are open: the thin plan :mod:`blockmaze.blocks.unicursal` splits).
3. **Corridors.** Every cell has an anchor, the block holding its centroid. A link becomes a
   4-connected path anchor -> gate -> anchor, where the gate is the pair of edge-adjacent blocks,
   one of each cell, nearest the shared side's midpoint; each half of the path stays inside its own
   cell. Paths are ``corridor`` blocks wide (the extra width only where it touches nothing else).
   An endpoint opening is a path from the anchor through the outer side's midpoint, straight out
   along the side's normal to the plan border.
4. **Checks.** Open blocks are labelled with their owner (opening rays: the outside). A cell's open
   blocks must be one 4-connected region, and two open blocks of different labels may touch only
   edge to edge and only where the maze links them; optional blocks (room, corridor width) that
   break this are closed, and a scale that would need an essential block closed is refused.

So the plan keeps three guarantees: passages are 4-connected (no diagonal-only gaps between
different cells), each link is a walkable opening, and no two unlinked cells are joined.

Example
-------
>>> from blockmaze import generate
>>> plan = rasterize(generate((2, 3), rng=1, kind="hex"), scale=4)
>>> plan.shape, plan.dtype.name
((20, 22), 'uint8')
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..support.breadth import NO_LABELS, block_breadth_first
from ..support.kernels import kernel
import numpy as np

from ..mazes.endpoints import Endpoints
from ..errors import BlockmazeError
from ..grids.geometry import cell_shapes
from ..materials import Material
from ..maze import Maze
from ..support.memory import ensure_memory
from .least import RASTER_BYTES

# The smallest scale (blocks per unit length) each kind rasterizes at: below it some cells have no
# room for an anchor, a gate or a wall between corridors (found by testing many mazes per kind).
MIN_SCALE = {"square": 3, "hex": 3, "upsilon": 4, "triangle": 5, "polar": 4}
PAD = 1  # solid blocks around the whole plan
OUTSIDE_LABEL = -2  # label of opening blocks (outside every cell) in :func:`rasterize_labels`

# states of a block while building
_CLOSED, _OPTIONAL, _ESSENTIAL = 0, 1, 2
# (y, z, x) steps of the searches within a cell, in the order they try them
_SOUTH_NORTH_EAST_WEST = np.array([[0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]], dtype=np.int64)


@dataclass(frozen=True, eq=False)
class Raster:
    """A rasterized maze: the plan and what each open block belongs to.

    Attributes
    ----------
    plan : uint8 (z, x)
        Materials: WALL and AIR (PATH, START, GOAL with a solution).
    labels : int32 (z, x)
        The cell of each open block; -1 for solid blocks, -2 (``OUTSIDE_LABEL``) for the blocks of
        an opening outside every cell.
    anchors : int64 (n, 2)
        ``(z, x)`` of each cell's anchor block (near its centroid; always open); -1 for disabled cells.
    scale : int
        Blocks per unit length.
    origin : (float, float)
        The plane point ``(x, y)`` at the top-left corner of block ``(0, 0)``.
    """

    plan: np.ndarray
    labels: np.ndarray
    anchors: np.ndarray
    scale: int
    origin: tuple[float, float]


def rasterize(maze: Maze, scale: int = 4, endpoints: Endpoints | None = None,
              solution: bool = False, corridor: int | None = None) -> np.ndarray:
    """The block plan ``(z, x)`` of a maze on any planar grid kind, ``scale`` blocks per unit length.

    Cells become WALL-bounded rooms, links 4-connected corridors through the shared side's
    midpoint (``corridor`` blocks wide; default ``max(1, scale // 4)``). ``endpoints`` cuts its
    openings from the cell to the plan border; with ``solution`` the start-to-goal path (anchors,
    corridors, openings) is PATH with START and GOAL at the end cells' anchors. A solid margin of
    at least one block surrounds the plan. Scales below ``MIN_SCALE[kind]`` are refused.

    Example
    -------
    >>> from blockmaze import generate, place_endpoints
    >>> m = generate((3, 3), rng=2, kind="upsilon")
    >>> plan = rasterize(m, scale=4, endpoints=place_endpoints(m, "entrances"), solution=True)
    >>> sorted(set(plan.ravel().tolist()))   # AIR, WALL, PATH, START, GOAL
    [0, 1, 4, 5, 6]
    """
    return raster(maze, scale, endpoints, solution, corridor).plan


def rasterize_labels(maze: Maze, scale: int = 4, endpoints: Endpoints | None = None,
                     corridor: int | None = None) -> np.ndarray:
    """For each block of :func:`rasterize`'s plan, the cell it belongs to (-1 solid, -2 opening).

    >>> from blockmaze import generate
    >>> labels = rasterize_labels(generate((1, 2), rng=0), scale=3)
    >>> labels[1:-1, 1:-1].tolist()   # two 3x3 cells, linked through their shared side
    [[-1, -1, -1, -1, -1, -1], [-1, 0, 0, 1, 1, -1], [-1, -1, -1, -1, -1, -1]]
    """
    return raster(maze, scale, endpoints, False, corridor).labels


def plan_extent(grid, scale: int) -> tuple[int, int]:
    """The (z, x) blocks of ``grid``'s rasterized plan at ``scale``, from its cells' shapes alone
    (no maze needed: what :func:`raster` makes).

    >>> from blockmaze.grids import grid_constructor
    >>> plan_extent(grid_constructor("hex")(2, 3), 4)
    (20, 22)
    """
    return _extent(cell_shapes(grid).bounds(), int(scale))


def _extent(bounds, scale: int) -> tuple[int, int]:
    xmin, ymin, xmax, ymax = bounds
    return (int(math.ceil((ymax - ymin) * scale - 1e-9)) + 2 * PAD,
            int(math.ceil((xmax - xmin) * scale - 1e-9)) + 2 * PAD)


def min_scale(kind: str) -> int:
    """The smallest scale a grid kind rasterizes at.

    >>> min_scale("hex")
    3
    """
    from ..grids import SURFACE_KINDS

    if kind in SURFACE_KINDS:
        raise BlockmazeError(f"a {kind} maze lies on a surface: no blocks, mesh or tile map is "
                             f"drawn of one yet; a picture (.png, .svg, .pdf) draws its net, and "
                             f"a maze document (.json) keeps it")
    if kind not in MIN_SCALE:
        raise BlockmazeError(
            f"a {kind} grid cannot be rasterized into one plan; "
            + ("stack its levels with blockmaze.blocks.stack.stack_levels" if kind == "layered"
               else f"rasterizable kinds are: {', '.join(MIN_SCALE)}")
        )
    return MIN_SCALE[kind]


def raster(maze: Maze, scale: int = 4, endpoints: Endpoints | None = None,
           solution: bool = False, corridor: int | None = None, rooms: bool = True) -> Raster:
    """:func:`rasterize` with the block labels and cell anchors (a :class:`Raster`).

    ``rooms=False`` leaves the rooms out: the open blocks are the anchors, the corridors and the
    openings only (with ``corridor=1``, every link a 1-block-wide path anchor -> gate -> anchor),
    under the same checks (no two unlinked cells touch).

    >>> from blockmaze import generate
    >>> r = raster(generate((2, 2), rng=0, kind="triangle"), scale=6)
    >>> r.plan.shape == r.labels.shape, r.anchors.shape
    (True, (4, 2))
    >>> thin = raster(generate((1, 2), rng=0), scale=3, corridor=1, rooms=False)
    >>> thin.labels[1:-1, 1:-1].tolist()   # the two anchors and the link's corridor between them
    [[-1, -1, -1, -1, -1, -1], [-1, 0, 0, 1, 1, -1], [-1, -1, -1, -1, -1, -1]]
    """
    grid = maze.grid
    lowest = min_scale(grid.kind)
    if isinstance(scale, bool) or not isinstance(scale, (int, np.integer)) or scale < lowest:
        raise BlockmazeError(
            f"scale {scale!r} is too small for a {grid.kind} grid: use a whole number >= {lowest} "
            "(blocks per unit length)"
        )
    scale = int(scale)
    width = max(1, scale // 4) if corridor is None else corridor
    if isinstance(width, bool) or not isinstance(width, (int, np.integer)) or not 1 <= width <= scale:
        raise BlockmazeError(f"corridor width must be a whole number from 1 to the scale {scale}, got {corridor!r}")
    if solution and endpoints is None:
        raise BlockmazeError("marking the solution needs endpoints (a start and a goal)")

    shapes = cell_shapes(grid)
    bounds = shapes.bounds()
    xmin, ymin = bounds[:2]
    nz, nx = _extent(bounds, scale)
    ensure_memory(nz * nx * RASTER_BYTES, f"a {nx}x{nz}-block plan")  # owners, labels, queue, flags
    # block coordinates: u = (x - xmin) * scale + PAD; block (z, x) spans [x, x + 1) x [z, z + 1)
    pts = np.empty_like(shapes.points)
    pts[..., 0] = (shapes.points[..., 0] - xmin) * scale + PAD
    pts[..., 1] = (shapes.points[..., 1] - ymin) * scale + PAD
    counts = shapes.counts.astype(np.int64)
    enabled = grid.enabled.copy()
    owner = _owners(pts, counts, enabled, nz, nx)

    centroids = shapes.centroids()
    cu = (centroids[:, 0] - xmin) * scale + PAD
    cv = (centroids[:, 1] - ymin) * scale + PAD
    anchors = np.stack([np.floor(cv), np.floor(cu)], axis=1).astype(np.int64)
    anchors[~enabled] = -1
    ok = ~enabled | (owner[np.clip(anchors[:, 0], 0, nz - 1), np.clip(anchors[:, 1], 0, nx - 1)]
                     == np.arange(grid.size))
    if not ok.all():
        raise BlockmazeError(
            f"scale {scale} is too small for this {grid.kind} grid: cell {int(np.flatnonzero(~ok)[0])} "
            "has no block at its centre; use a larger scale"
        )

    mid, normal = _side_midpoints(pts, shapes.sides, counts, grid.degree)
    neighbors = grid.neighbors.astype(np.int64)
    links = maze.links & (neighbors >= 0)
    cells, dirs = np.nonzero(links & (np.arange(grid.size)[:, None] < neighbors))
    link_a = cells.astype(np.int64)
    link_b = neighbors[cells, dirs]
    link_m = mid[cells, dirs]
    if np.isnan(link_m).any():
        bad = int(np.flatnonzero(np.isnan(link_m[:, 0]))[0])
        raise BlockmazeError(f"cell {int(link_a[bad])} is linked across a direction it has no side in")
    openings = np.zeros((0, 2), dtype=np.int64) if endpoints is None else \
        np.array(endpoints.openings, dtype=np.int64).reshape(-1, 2)
    for cell, direction in openings.tolist():
        if not (0 <= cell < grid.size and enabled[cell] and 0 <= direction < grid.degree) \
                or np.isnan(mid[cell, direction, 0]) or neighbors[cell, direction] >= 0:
            raise BlockmazeError(
                f"cannot open cell {cell} towards direction {direction}: not an outer side of an enabled cell")
    has_opening = np.zeros(grid.size, dtype=bool)
    has_opening[openings[:, 0]] = True

    state = _rooms(owner, enabled) if rooms else np.zeros(owner.shape, dtype=np.uint8)
    failure = _carve(state, owner, anchors, link_a, link_b, link_m, openings,
                     mid, normal, width)
    if failure >= 0:
        raise BlockmazeError(
            f"scale {scale} is too small for this {grid.kind} grid (no room for a corridor near "
            f"cell {failure}); use a larger scale"
        )
    label = np.where((owner >= 0), owner, grid.size).astype(np.int64)
    failure = _settle(state, label, anchors, neighbors, links, has_opening, grid.size)
    if failure >= 0:
        raise BlockmazeError(
            f"scale {scale} is too small for this {grid.kind} grid (corridors touch near cell "
            f"{failure}); use a larger scale"
        )

    open_ = state != _CLOSED
    plan = np.where(open_, np.uint8(Material.AIR), np.uint8(Material.WALL)).astype(np.uint8)
    labels = np.where(open_, np.where(label < grid.size, label, OUTSIDE_LABEL), -1).astype(np.int32)
    if solution:
        _mark_solution(plan, maze, endpoints, owner, anchors, mid, normal, neighbors, links)
    if endpoints is not None:  # checkpoints and exits, with or without the solution
        for material, stops in ((Material.EXIT, endpoints.exits),
                                (Material.CHECKPOINT, endpoints.checkpoints)):
            for stop in stops:
                plan[tuple(anchors[stop])] = material
    return Raster(plan, labels, anchors, scale, (xmin - PAD / scale, ymin - PAD / scale))


def _mark_solution(plan, maze, endpoints, owner, anchors, mid, normal, neighbors, links) -> None:
    path = maze.shortest_path(endpoints.start, endpoints.goal)
    buffer = np.empty((4 * (plan.shape[0] + plan.shape[1]) + 16, 2), dtype=np.int64)
    marks = []
    for a, b in zip(path[:-1].tolist(), path[1:].tolist(), strict=True):
        a, b = min(a, b), max(a, b)  # the corridor as carved: from the lower cell's side
        d = int(np.flatnonzero((neighbors[a] == b) & links[a])[0])
        length = _link_path(owner, a, b, anchors[a], anchors[b], mid[a, d], buffer)
        marks.append(buffer[:length].copy())
    for cell, direction in endpoints.openings:
        if cell in (endpoints.start, endpoints.goal):
            length = _opening_path(owner, cell, anchors[cell], mid[cell, direction],
                                   normal[cell, direction], buffer)
            marks.append(buffer[:length].copy())
    for block in marks:
        plan[block[:, 0], block[:, 1]] = Material.PATH
    plan[tuple(anchors[endpoints.start])] = Material.START
    plan[tuple(anchors[endpoints.goal])] = Material.GOAL


@kernel
def _owners(pts, counts, enabled, nz, nx):
    """Owner cell of every block (-1: outside, or a disabled cell): centre-in-polygon, even-odd rule."""
    owner = np.full((nz, nx), -1, dtype=np.int64)
    for i in range(pts.shape[0]):
        if not enabled[i]:
            continue
        m = counts[i]
        u0, v0, u1, v1 = np.inf, np.inf, -np.inf, -np.inf
        for j in range(m):
            u0 = min(u0, pts[i, j, 0])
            u1 = max(u1, pts[i, j, 0])
            v0 = min(v0, pts[i, j, 1])
            v1 = max(v1, pts[i, j, 1])
        x0 = max(int(np.floor(u0 - 0.5)), 0)
        x1 = min(int(np.ceil(u1 - 0.5)), nx - 1)
        z0 = max(int(np.floor(v0 - 0.5)), 0)
        z1 = min(int(np.ceil(v1 - 0.5)), nz - 1)
        for z in range(z0, z1 + 1):
            py = z + 0.5
            for x in range(x0, x1 + 1):
                px = x + 0.5
                inside = False
                k = m - 1
                for j in range(m):
                    yj, yk = pts[i, j, 1], pts[i, k, 1]
                    if (yj > py) != (yk > py):
                        xj, xk = pts[i, j, 0], pts[i, k, 0]
                        if px < xj + (xk - xj) * (py - yj) / (yk - yj):
                            inside = not inside
                    k = j
                if inside:
                    owner[z, x] = i
    return owner


@kernel
def _side_midpoints(pts, sides, counts, degree):
    """Per cell and direction, the midpoint (by length) of the side and its outward unit normal."""
    n = pts.shape[0]
    mid = np.full((n, degree, 2), np.nan)
    normal = np.full((n, degree, 2), np.nan)
    for i in range(n):
        m = counts[i]
        for d in range(degree):
            # the side is a run of consecutive edges; start where the previous edge is another side
            start = -1
            total = 0.0
            for j in range(m):
                if sides[i, j] == d:
                    ex = pts[i, (j + 1) % m, 0] - pts[i, j, 0]
                    ey = pts[i, (j + 1) % m, 1] - pts[i, j, 1]
                    total += np.sqrt(ex * ex + ey * ey)
                    if sides[i, (j - 1) % m] != d:
                        start = j
            if start < 0 or total <= 0.0:
                continue
            walked = 0.0
            for step in range(m):
                j = (start + step) % m
                if sides[i, j] != d:
                    break
                ax, ay = pts[i, j, 0], pts[i, j, 1]
                ex = pts[i, (j + 1) % m, 0] - ax
                ey = pts[i, (j + 1) % m, 1] - ay
                length = np.sqrt(ex * ex + ey * ey)
                if walked + length >= total / 2 or step == m - 1:
                    t = (total / 2 - walked) / length
                    mid[i, d, 0] = ax + t * ex
                    mid[i, d, 1] = ay + t * ey
                    normal[i, d, 0] = ey / length   # clockwise on screen: outward is (dy, -dx)
                    normal[i, d, 1] = -ex / length
                    break
                walked += length
    return mid, normal


def _rooms(owner: np.ndarray, enabled: np.ndarray) -> np.ndarray:
    """OPTIONAL where a block and its 8 neighbours belong to the same enabled cell, else CLOSED."""
    nz, nx = owner.shape
    same = owner >= 0
    core = owner[1:-1, 1:-1]
    inner = same[1:-1, 1:-1].copy()
    for dz in (-1, 0, 1):
        for dx in (-1, 0, 1):
            inner &= owner[1 + dz: nz - 1 + dz, 1 + dx: nx - 1 + dx] == core
    state = np.zeros((nz, nx), dtype=np.uint8)
    state[1:-1, 1:-1] = np.where(inner, _OPTIONAL, _CLOSED)
    return state


@kernel
def _line(z0, x0, z1, x1, buffer, start):
    """A 4-connected digital line from block (z0, x0) to (z1, x1) into ``buffer[start:]``; the end."""
    dz, dx = abs(z1 - z0), abs(x1 - x0)
    sz = 1 if z1 > z0 else -1
    sx = 1 if x1 > x0 else -1
    z, x = z0, x0
    buffer[start, 0], buffer[start, 1] = z, x
    k = start + 1
    iz, ix = 0, 0
    while iz < dz or ix < dx:
        # step along the axis whose next crossing of the ideal line comes first
        if iz >= dz or (ix < dx and (2 * ix + 1) * dz <= (2 * iz + 1) * dx):
            x += sx
            ix += 1
        else:
            z += sz
            iz += 1
        buffer[k, 0], buffer[k, 1] = z, x
        k += 1
    return k


@kernel
def _inside_path(owner, cell, z0, x0, z1, x1, buffer, start):
    """A 4-connected path from (z0, x0) to (z1, x1) through blocks of ``cell``: the straight digital
    line if it stays inside, else a breadth-first shortest path; returns the end, or -1."""
    if start + abs(z1 - z0) + abs(x1 - x0) + 1 > buffer.shape[0]:
        return -1
    end = _line(z0, x0, z1, x1, buffer, start)
    inside = True
    for k in range(start, end):
        if owner[buffer[k, 0], buffer[k, 1]] != cell:
            inside = False
            break
    if inside:
        return end
    nz, nx = owner.shape
    # breadth-first search in a window around both ends (cells are small)
    r = abs(z1 - z0) + abs(x1 - x0) + 4
    wz0, wx0 = max(min(z0, z1) - r, 0), max(min(x0, x1) - r, 0)
    wz1, wx1 = min(max(z0, z1) + r, nz - 1), min(max(x0, x1) + r, nx - 1)
    hz, hx = wz1 - wz0 + 1, wx1 - wx0 + 1
    inside_cell = (owner[wz0:wz1 + 1, wx0:wx1 + 1] == cell).ravel()
    distance = np.full(hz * hx, -1, dtype=np.int32)
    parent = np.full(hz * hx, -1, dtype=np.int64)
    queue = np.empty(hz * hx, dtype=np.int64)
    s = (z0 - wz0) * hx + (x0 - wx0)
    goal = (z1 - wz0) * hx + (x1 - wx0)
    distance[s] = 0
    queue[0] = s
    block_breadth_first(inside_cell, np.array([1, hz, hx], dtype=np.int64), _SOUTH_NORTH_EAST_WEST,
                        distance, queue, 1, -1, parent, NO_LABELS)
    if distance[goal] < 0:
        return -1
    length = 0
    q = goal
    while q != -1:
        length += 1
        q = parent[q]
    if start + length > buffer.shape[0]:
        return -1
    q = goal
    for k in range(length - 1, -1, -1):
        buffer[start + k, 0], buffer[start + k, 1] = wz0 + q // hx, wx0 + q % hx
        q = parent[q]
    return start + length


@kernel
def _gate(owner, a, b, mu, mv):
    """The edge-adjacent blocks (p of a, q of b) whose shared side is nearest (mu, mv); -1s if none."""
    nz, nx = owner.shape
    best = np.inf
    pz, px, qz, qx = -1, -1, -1, -1
    cz, cx = int(np.floor(mv)), int(np.floor(mu))
    for z in range(max(cz - 3, 0), min(cz + 4, nz)):
        for x in range(max(cx - 3, 0), min(cx + 4, nx)):
            if owner[z, x] != a:
                continue
            for t in range(4):
                rz = z + (1 if t == 0 else -1 if t == 1 else 0)
                rx = x + (1 if t == 2 else -1 if t == 3 else 0)
                if 0 <= rz < nz and 0 <= rx < nx and owner[rz, rx] == b:
                    du = (x + rx) / 2 + 0.5 - mu
                    dv = (z + rz) / 2 + 0.5 - mv
                    dist = du * du + dv * dv
                    if dist < best:
                        best = dist
                        pz, px, qz, qx = z, x, rz, rx
    return pz, px, qz, qx


@kernel
def _link_path(owner, a, b, anchor_a, anchor_b, m, buffer):
    """The blocks of the corridor of link (a, b): anchor a -> gate -> anchor b; length or -1."""
    pz, px, qz, qx = _gate(owner, a, b, m[0], m[1])
    if pz < 0:
        return -1
    end = _inside_path(owner, a, anchor_a[0], anchor_a[1], pz, px, buffer, 0)
    if end < 0:
        return -1
    # the b half, from b's anchor to q, is stored reversed after the a half
    end_b = _inside_path(owner, b, anchor_b[0], anchor_b[1], qz, qx, buffer, end)
    if end_b < 0:
        return -1
    return end_b


@kernel
def _opening_path(owner, cell, anchor, m, normal, buffer):
    """The blocks of an opening: anchor -> the cell's block nearest the side's midpoint -> straight
    out along the normal to the plan border; length, or -1 if it crosses another cell."""
    nz, nx = owner.shape
    best = np.inf
    pz, px = -1, -1
    cz, cx = int(np.floor(m[1])), int(np.floor(m[0]))
    for z in range(max(cz - 3, 0), min(cz + 4, nz)):
        for x in range(max(cx - 3, 0), min(cx + 4, nx)):
            if owner[z, x] == cell:
                du, dv = x + 0.5 - m[0], z + 0.5 - m[1]
                dist = du * du + dv * dv
                if dist < best:
                    best, pz, px = dist, z, x
    if pz < 0:
        return -1
    end = _inside_path(owner, cell, anchor[0], anchor[1], pz, px, buffer, 0)
    if end < 0:
        return -1
    reach = 2.0 * (nz + nx)
    tz = int(np.floor(pz + 0.5 + normal[1] * reach))
    tx = int(np.floor(px + 0.5 + normal[0] * reach))
    ray = np.empty((int(abs(tz - pz) + abs(tx - px)) + 1, 2), dtype=np.int64)
    length = _line(pz, px, tz, tx, ray, 0)
    left = False
    for k in range(1, length):
        z, x = ray[k, 0], ray[k, 1]
        if z < 0 or z >= nz or x < 0 or x >= nx:
            break
        o = owner[z, x]
        if o == cell and not left:
            pass
        elif o >= 0:
            return -1
        else:
            left = True
        if end >= buffer.shape[0]:
            return -1
        buffer[end, 0], buffer[end, 1] = z, x
        end += 1
    return end


@kernel
def _carve(state, owner, anchors, link_a, link_b, link_m, openings, mid, normal, width):
    """Mark anchors and corridor/opening paths ESSENTIAL and their widening OPTIONAL; returns a
    cell where a corridor did not fit, or -1."""
    nz, nx = owner.shape
    buffer = np.empty((4 * (nz + nx) + 16, 2), dtype=np.int64)
    lo = -((width - 1) // 2)
    hi = width // 2
    for i in range(anchors.shape[0]):
        if anchors[i, 0] >= 0:
            state[anchors[i, 0], anchors[i, 1]] = 2
    for k in range(link_a.shape[0] + openings.shape[0]):
        if k < link_a.shape[0]:
            a, b = link_a[k], link_b[k]
            length = _link_path(owner, a, b, anchors[a], anchors[b], link_m[k], buffer)
        else:
            a = openings[k - link_a.shape[0], 0]
            d = openings[k - link_a.shape[0], 1]
            length = _opening_path(owner, a, anchors[a], mid[a, d], normal[a, d], buffer)
        if length < 0:
            return a
        for j in range(length):
            z, x = buffer[j, 0], buffer[j, 1]
            state[z, x] = 2
            if width > 1:
                o = owner[z, x]
                for dz in range(lo, hi + 1):
                    for dx in range(lo, hi + 1):
                        rz, rx = z + dz, x + dx
                        if 0 < rz < nz - 1 and 0 < rx < nx - 1 and state[rz, rx] == 0 \
                                and owner[rz, rx] == o and o >= 0:
                            state[rz, rx] = 1
    return -1


@kernel
def _allowed(la, lb, neighbors, links, has_opening, outside):
    if la == lb:
        return True
    if la == outside:
        return has_opening[lb]
    if lb == outside:
        return has_opening[la]
    for d in range(neighbors.shape[1]):
        if neighbors[la, d] == lb and links[la, d]:
            return True
    return False


@kernel
def _settle(state, label, anchors, neighbors, links, has_opening, outside):
    """Close open blocks not 4-connected to their cell's anchor (within the cell), and optional blocks
    that touch another label where the maze has no link, or only diagonally; repeat until stable.
    Returns -1, or the cell of an essential block that breaks a rule."""
    nz, nx = state.shape
    queue = np.empty(nz * nx, dtype=np.int64)
    seen = np.empty(nz * nx, dtype=np.int32)  # -1: not reached
    shape = np.array([1, nz, nx], dtype=np.int64)
    flat_label = label.ravel()
    no_parents = np.empty(0, dtype=np.int64)
    while True:
        # 1. reachability from the anchors (and the opening blocks outside), within each label
        seen[:] = -1
        tail = 0
        for i in range(anchors.shape[0]):
            if anchors[i, 0] >= 0 and seen[anchors[i, 0] * nx + anchors[i, 1]] < 0:
                seen[anchors[i, 0] * nx + anchors[i, 1]] = 0
                queue[tail] = anchors[i, 0] * nx + anchors[i, 1]
                tail += 1
        for z in range(nz):
            for x in range(nx):
                if state[z, x] == 2 and label[z, x] == outside and seen[z * nx + x] < 0:
                    seen[z * nx + x] = 0
                    queue[tail] = z * nx + x
                    tail += 1
        block_breadth_first((state != 0).ravel(), shape, _SOUTH_NORTH_EAST_WEST, seen, queue, tail, -1,
                            no_parents, flat_label)
        for z in range(nz):
            for x in range(nx):
                if state[z, x] != 0 and seen[z * nx + x] < 0:
                    if state[z, x] == 2:
                        return label[z, x]
                    state[z, x] = 0
        # 2. edge contacts between labels the maze does not link
        changed = False
        for z in range(nz):
            for x in range(nx):
                if state[z, x] == 0:
                    continue
                for t in range(2):
                    rz, rx = (z, x + 1) if t == 0 else (z + 1, x)
                    if rz >= nz or rx >= nx or state[rz, rx] == 0 or label[rz, rx] == label[z, x]:
                        continue
                    if _allowed(label[z, x], label[rz, rx], neighbors, links, has_opening, outside):
                        continue
                    if state[z, x] == 2 and state[rz, rx] == 2:
                        return label[z, x] if label[z, x] != outside else label[rz, rx]
                    if state[z, x] == 1:
                        state[z, x] = 0
                    if state[rz, rx] == 1:
                        state[rz, rx] = 0
                    changed = True
                    if state[z, x] == 0:
                        break
        # 3. diagonal-only contacts between different labels
        for z in range(nz - 1):
            for x in range(nx - 1):
                for t in range(2):
                    if t == 0:
                        az, ax, bz, bx, cz, cx, dz, dx = z, x, z + 1, x + 1, z, x + 1, z + 1, x
                    else:
                        az, ax, bz, bx, cz, cx, dz, dx = z, x + 1, z + 1, x, z, x, z + 1, x + 1
                    if state[az, ax] == 0 or state[bz, bx] == 0 or label[az, ax] == label[bz, bx]:
                        continue
                    if state[cz, cx] != 0 or state[dz, dx] != 0:
                        continue
                    if state[az, ax] == 2 and state[bz, bx] == 2:
                        return label[az, ax] if label[az, ax] != outside else label[bz, bx]
                    if state[az, ax] == 1:
                        state[az, ax] = 0
                    if state[bz, bx] == 1:
                        state[bz, bx] = 0
                    changed = True
        if not changed:
            return -1
