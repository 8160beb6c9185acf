"""Roguelike dungeons: rooms and mazes, doors, sparse corridors, shortcut loops and stairs.

A dungeon is a block plan (``uint8 (z, x)`` of :class:`~blockmaze.materials.Material` values) on
the strict odd-cell layout of :func:`~blockmaze.blocks.to_blocks`: a ``rows x cols``-cell
dungeon is ``(2 rows + 1) x (2 cols + 1)`` blocks, cell ``(r, c)`` is block ``(2r + 1, 2c + 1)``
and the wall between two neighbouring cells is the block between them. Row 0 is north.

The steps, all drawn from one seed (same seed and options, same bytes):

1. **Rooms.** ``room_attempts`` times, a room of ``room_size`` cells a side (each side drawn
   from the inclusive range) is dropped at a random cell position; it stays if it overlaps no
   room placed before (rooms may touch: a wall line then separates them). A room is fully open:
   its cells, the walls between them and the corners between those (``plan[z0:z1, x0:x1]``).
2. **Maze.** The cells outside the rooms are split into their connected regions (rooms can cut
   the free space apart); in each region a maze is grown with a registry ``algorithm`` on a grid
   masked to that region, so every region is a perfect maze (a tree) of its own.
3. **Doors.** A *connector* is a wall block between two cells of different regions (a room and
   a maze region, or two touching rooms; two maze regions never touch). The connectors are
   shuffled and taken Kruskal-style: one that joins two regions not yet joined becomes a DOOR, so
   the doors form a random spanning tree of the region graph. Every other connector becomes a
   DOOR too with chance ``extra_doors`` (loops between regions).
4. **Start and goal** are chosen next (see below), before corridors are thinned, and are kept.
5. **Dead ends.** A dead end is an open corridor cell (a cell outside the rooms, not a kept
   START/GOAL/STAIRS cell) with at most one open side. Filling dead ends one after another, tips
   first (a FIFO queue, raster order to begin with), until none is left fills a well-defined set
   of ``T`` cells (whole branches that lead nowhere). ``sparseness`` is the share of those ``T``
   cells that is filled: ``int(sparseness * T)`` cells, each with its wall opening or door. So
   ``sparseness=1`` leaves no dead end at all (except kept endpoint cells), ``0`` keeps the full
   maze, and ``0.5`` shortens every dead-end branch from its tip (short ones vanish).
6. **Loops** (Brogue's rule), when ``min_shortcut`` is given: every closed wall block between two
   open cells is considered once, in random order (64x64-block tiles in random order, random
   within each tile, which keeps the searches in cache), each with chance ``loop_chance``; it
   is opened (AIR between corridors, DOOR where a room is on either side) only if the walking
   distance between its two sides at that moment is at least ``min_shortcut`` blocks. The rule
   still holds in the finished plan: without any one loop block, its two sides are at least
   ``min_shortcut`` blocks apart (a later loop that shortened that walk would itself have had a
   walk shorter than ``min_shortcut`` through the earlier one).

**Start and goal**: on the first level, the two ends of the longest shortest path found by a
double sweep (breadth-first search from the first room's centre to the farthest room centre,
then from there to the farthest room centre again); without two rooms, over all cells. The
walking distance counts blocks. **Levels**: with ``levels=N`` every level is a dungeon of its own
of the same size; the GOAL cell of level ``i`` is the START cell of level ``i + 1`` (same
``(z, x)``), and both are marked STAIRS (down on level ``i``, up on level ``i + 1``). Only the
first level's start is START and only the last level's goal is GOAL. A level's goal is the room
centre (or, without rooms, the cell) farthest from its start.

Example
-------
>>> d = rooms_and_mazes_dungeon((20, 30), rng=7, levels=2)
>>> d.plans.shape
(2, 41, 61)
>>> d.levels[0].goal == d.levels[1].start
True
>>> int(d.levels[1].plan[d.levels[1].start]) == Material.STAIRS
True
"""

from __future__ import annotations

from numbers import Real

from ..support.breadth import FOUR, NO_LABELS, block_breadth_first
from ..support.kernels import kernel
import numpy as np

from ..algorithms import get_algorithm
from ..algorithms.common import join, root
from ..errors import BlockmazeError
from ..grids import square_grid
from ..grids.square import EAST, SOUTH
from ..materials import Material, SOLID
from ..support.randomness import as_generator
from ..support.memory import ensure_memory
from .checks import cells_shape, room_size_range, whole
from .connect import distances
from .level import Dungeon, DungeonLevel

_AIR = np.uint8(Material.AIR)
_WALL = np.uint8(Material.WALL)

# bytes per cell the generator needs at its peak: plan (4), labels (4), region boxes (20),
# connectors and loop candidates (up to 2 per cell, ~40 bytes each), search arrays (12)
_BYTES_PER_CELL = 120


# ----------------------------------------------------------------------------- kernels


@kernel
def _place_rooms(rows, cols, attempts, lo, hi, rng):
    """Rooms ``(r0, c0, h, w)`` in cells and a label per cell (room index, -1 = free)."""
    label = np.full((rows, cols), -1, dtype=np.int32)
    rooms = np.empty((max(min(attempts, rows * cols), 1), 4), dtype=np.int32)
    count = 0
    span = hi - lo + 1
    for _ in range(attempts):
        h = lo + int(rng.random() * span)
        w = lo + int(rng.random() * span)
        r0 = int(rng.random() * (rows - h + 1)) if h <= rows else -1
        c0 = int(rng.random() * (cols - w + 1)) if w <= cols else -1
        if r0 < 0 or c0 < 0:
            continue
        free = True
        for r in range(r0, r0 + h):
            for c in range(c0, c0 + w):
                if label[r, c] >= 0:
                    free = False
                    break
            if not free:
                break
        if not free:
            continue
        for r in range(r0, r0 + h):
            for c in range(c0, c0 + w):
                label[r, c] = count
        rooms[count, 0] = r0
        rooms[count, 1] = c0
        rooms[count, 2] = h
        rooms[count, 3] = w
        count += 1
    return rooms[:count].copy(), label


@kernel
def _label_free(label, first):
    """Give each connected region of free cells (-1) its own label from ``first`` on.

    Returns ``(count, boxes)``: ``boxes[i] = (r0, c0, r1, c1, size)`` of region ``first + i``.
    """
    rows, cols = label.shape
    free = label.ravel() == -1
    seen = np.full(rows * cols, -1, dtype=np.int32)
    queue = np.empty(rows * cols, dtype=np.int64)
    shape = np.array([1, rows, cols], dtype=np.int64)
    no_parents = np.empty(0, dtype=np.int64)
    boxes = np.empty((rows * cols, 5), dtype=np.int32)
    count = 0
    for start in range(rows * cols):
        if not free[start] or seen[start] >= 0:
            continue
        mark = first + count
        queue[0] = start
        seen[start] = 0
        reached = block_breadth_first(free, shape, FOUR, seen, queue, 1, -1, no_parents, NO_LABELS)
        r0, c0, r1, c1 = rows, cols, -1, -1
        for i in range(reached):
            r, c = queue[i] // cols, queue[i] % cols
            label[r, c] = mark
            r0, r1 = min(r0, r), max(r1, r)
            c0, c1 = min(c0, c), max(c1, c)
        boxes[count, 0] = r0
        boxes[count, 1] = c0
        boxes[count, 2] = r1 + 1
        boxes[count, 3] = c1 + 1
        boxes[count, 4] = reached
        count += 1
    return count, boxes[:count].copy()


@kernel
def _connect(plan, zs, xs, a, b, order, regions, extra, rng):
    """Kruskal over regions: a connector joining two regions not yet joined becomes a door; any
    other becomes a door with chance ``extra``."""
    parent = np.full(regions, -1, dtype=np.int64)
    door = np.uint8(7)
    for i in order:
        ra, rb = root(parent, a[i]), root(parent, b[i])
        if ra != rb:
            join(parent, ra, rb)
            plan[zs[i], xs[i]] = door
        elif extra > 0.0 and rng.random() < extra:
            plan[zs[i], xs[i]] = door


@kernel
def _remove_dead_ends(plan, solid, label, rooms, keep, share):
    """Fill ``int(share * T)`` of the ``T`` cells that full dead-end removal fills, tips first."""
    height, width = plan.shape
    rows, cols = height // 2, width // 2
    n = rows * cols
    degree = np.zeros(n, dtype=np.int32)
    removable = np.zeros(n, dtype=np.uint8)
    order = np.empty(n, dtype=np.int32)
    tail = 0
    for r in range(rows):
        for c in range(cols):
            cell = r * cols + c
            z, x = 2 * r + 1, 2 * c + 1
            if label[r, c] < rooms or keep[r, c] or solid[plan[z, x]]:
                continue
            removable[cell] = 1
            degree[cell] = ((not solid[plan[z - 1, x]]) + (not solid[plan[z + 1, x]])
                            + (not solid[plan[z, x - 1]]) + (not solid[plan[z, x + 1]]))
            if degree[cell] <= 1:
                order[tail] = cell
                removable[cell] = 2
                tail += 1
    # the full removal, simulated on degrees: order[:tail] is every filled cell, in fill order
    head = 0
    while head < tail:
        cell = order[head]
        head += 1
        r, c = cell // cols, cell % cols
        z, x = 2 * r + 1, 2 * c + 1
        for dz, dx, nb in ((-1, 0, cell - cols), (1, 0, cell + cols), (0, -1, cell - 1), (0, 1, cell + 1)):
            if solid[plan[z + dz, x + dx]] or removable[nb] == 2:
                continue
            if removable[nb] == 1:
                degree[nb] -= 1
                if degree[nb] <= 1:
                    removable[nb] = 2
                    order[tail] = nb
                    tail += 1
    wall = np.uint8(1)
    count = int(share * tail)
    for i in range(count):
        cell = order[i]
        z, x = 2 * (cell // cols) + 1, 2 * (cell % cols) + 1
        plan[z, x] = wall
        plan[z - 1, x] = wall
        plan[z + 1, x] = wall
        plan[z, x - 1] = wall
        plan[z, x + 1] = wall
    return count


@kernel
def _add_loops(plan, solid, label, rooms, zs, xs, min_shortcut, chance, rng):
    """Open each candidate wall (in the given order, with chance ``chance``) whose sides are at
    least ``min_shortcut`` blocks apart; return the indices of the opened ones, in order.

    The walk is measured in cells (2 blocks a step, the same as in blocks on this layout, rooms
    included) by a breadth-first search from one side that stops at depth
    ``ceil(min_shortcut / 2)``; stamps instead of clearing keep each search local.
    """
    height, width = plan.shape
    rows, cols = height // 2, width // 2
    limit = (min_shortcut + 1) // 2
    seen = np.zeros(rows * cols, dtype=np.int32)
    depth = np.zeros(rows * cols, dtype=np.int32)
    queue = np.empty(rows * cols, dtype=np.int32)
    opened = np.empty(zs.size, dtype=np.int64)
    count = 0
    stamp = 0
    for i in range(zs.size):
        z, x = zs[i], xs[i]
        if not solid[plan[z, x]]:
            continue
        if z % 2 == 1:
            az, ax, bz, bx = z, x - 1, z, x + 1
        else:
            az, ax, bz, bx = z - 1, x, z + 1, x
        if solid[plan[az, ax]] or solid[plan[bz, bx]]:
            continue
        if chance < 1.0 and rng.random() >= chance:
            continue
        stamp += 1
        source = (az // 2) * cols + ax // 2
        target = (bz // 2) * cols + bx // 2
        seen[source] = stamp
        depth[source] = 0
        queue[0] = source
        head, tail = 0, 1
        near = False
        while head < tail and not near:
            cell = queue[head]
            head += 1
            d = depth[cell] + 1
            if d >= limit:
                break  # FIFO: every later cell is at least as deep
            r, c = cell // cols, cell % cols
            cz, cx = 2 * r + 1, 2 * c + 1
            for dz, dx, nb in ((-1, 0, cell - cols), (1, 0, cell + cols),
                               (0, -1, cell - 1), (0, 1, cell + 1)):
                if solid[plan[cz + dz, cx + dx]] or seen[nb] == stamp:
                    continue
                if nb == target:
                    near = True
                    break
                seen[nb] = stamp
                depth[nb] = d
                queue[tail] = nb
                tail += 1
        if near:
            continue
        in_room = label[az // 2, ax // 2] < rooms or label[bz // 2, bx // 2] < rooms
        plan[z, x] = np.uint8(7) if in_room else np.uint8(0)
        opened[count] = i
        count += 1
    return opened[:count].copy()


# ----------------------------------------------------------------------------- steps


def _carve_regions(plan, label, rooms, boxes, algorithm, option, rng) -> None:
    """Open every cell, the rooms' insides, and a maze in each free region."""
    cells = plan[1::2, 1::2]
    cells[...] = _AIR
    in_room = label < rooms
    same_x = in_room[:, :-1] & (label[:, :-1] == label[:, 1:])
    plan[1::2, 2:-1:2][same_x] = _AIR
    same_z = in_room[:-1, :] & (label[:-1, :] == label[1:, :])
    plan[2:-1:2, 1::2][same_z] = _AIR
    corner = same_x[:-1, :] & same_x[1:, :] & same_z[:, :-1] & same_z[:, 1:]
    plan[2:-1:2, 2:-1:2][corner] = _AIR
    for i, (r0, c0, r1, c1, size) in enumerate(boxes.tolist()):
        if size == 1:
            continue
        mask = label[r0:r1, c0:c1] == rooms + i
        h, w = r1 - r0, c1 - c0
        links = algorithm.carve(square_grid(h, w, mask=mask), rng, option).reshape(h, w, -1)
        unit = plan[2 * r0:2 * r1 + 1, 2 * c0:2 * c1 + 1]
        unit[1::2, 2:-1:2][links[:, :-1, EAST]] = _AIR
        unit[2:-1:2, 1::2][links[:-1, :, SOUTH]] = _AIR


def _connectors(label):
    """Wall blocks between cells of different regions: (z, x, region a, region b)."""
    er, ec = np.nonzero(label[:, :-1] != label[:, 1:])
    sr, sc = np.nonzero(label[:-1, :] != label[1:, :])
    zs = np.concatenate([2 * er + 1, 2 * sr + 2]).astype(np.int64)
    xs = np.concatenate([2 * ec + 2, 2 * sc + 1]).astype(np.int64)
    a = np.concatenate([label[er, ec], label[sr, sc]]).astype(np.int64)
    b = np.concatenate([label[er, ec + 1], label[sr + 1, sc]]).astype(np.int64)
    return zs, xs, a, b


def _farthest(plan, cell, candidates):
    """The candidate cell (r, c) walking farthest from ``cell`` (the first of equals).

    The walk is in blocks, which here is walking cells: a block between four cells is open only
    inside a room, where all round it is open too."""
    dist = distances(~SOLID[plan], *_block(cell))
    values = dist[2 * candidates[:, 0] + 1, 2 * candidates[:, 1] + 1]
    return tuple(int(v) for v in candidates[int(np.argmax(values))])


def _block(cell):
    return 2 * cell[0] + 1, 2 * cell[1] + 1


def _endpoints(plan, centres, all_cells_shape, start):
    """Start and goal cells (r, c): see the module docstring."""
    rows, cols = all_cells_shape
    if start is None:
        first = tuple(int(v) for v in centres[0]) if len(centres) >= 2 else (0, 0)
        pool = centres if len(centres) >= 2 else None
        if pool is None:
            pool = np.argwhere(np.ones((rows, cols), dtype=bool))
        start = _farthest(plan, first, pool)
    else:
        pool = centres[np.any(centres != np.array(start), axis=1)] if len(centres) else centres
        if len(pool) == 0:
            pool = np.argwhere(np.ones((rows, cols), dtype=bool))
    goal = _farthest(plan, start, pool)
    return start, goal


def _level(rows, cols, options, rng, start):
    algorithm, option, lo, hi, attempts, extra, sparseness, min_shortcut, loop_chance = options
    plan = np.full((2 * rows + 1, 2 * cols + 1), _WALL, dtype=np.uint8)
    rooms, label = _place_rooms(rows, cols, attempts, lo, hi, rng)
    count = len(rooms)
    regions, boxes = _label_free(label, count)
    _carve_regions(plan, label, count, boxes, algorithm, option, rng)
    zs, xs, a, b = _connectors(label)
    order = rng.permutation(zs.size)
    _connect(plan, zs, xs, a, b, order, count + regions, float(extra), rng)
    centres = np.stack([rooms[:, 0] + rooms[:, 2] // 2, rooms[:, 1] + rooms[:, 3] // 2], axis=1)
    start, goal = _endpoints(plan, centres, (rows, cols), start)
    keep = np.zeros((rows, cols), dtype=bool)
    keep[start] = keep[goal] = True
    _remove_dead_ends(plan, SOLID, label, count, keep, float(sparseness))
    loops = np.empty((0, 2), dtype=np.int64)
    if min_shortcut is not None:
        wz, wx = _loop_candidates(plan, rows, cols)
        order = _tiled_order(wz, wx, plan.shape, rng)
        wz, wx = wz[order], wx[order]
        opened = _add_loops(plan, SOLID, label, count, wz, wx, int(min_shortcut), float(loop_chance), rng)
        loops = np.stack([wz[opened], wx[opened]], axis=1)
    boxes_blocks = np.stack([2 * rooms[:, 0] + 1, 2 * rooms[:, 1] + 1,
                             2 * (rooms[:, 0] + rooms[:, 2]), 2 * (rooms[:, 1] + rooms[:, 3])],
                            axis=1).astype(np.int64)
    return plan, boxes_blocks, loops, start, goal


_TILE = 64  # blocks a side of the tiles the loop candidates are visited in


def _tiled_order(wz, wx, shape, rng):
    """A random order of the candidates, tile by tile: the tiles (``_TILE`` blocks a side) in
    random order, the candidates of a tile in random order. Searches then stay in cache (about
    twice as fast on a 2001x2001 plan as one global shuffle); a tile is far wider than a search
    reaches, so the choice of loops is not visibly biased.
    """
    rank = np.empty(wz.size, dtype=np.int64)
    rank[rng.permutation(wz.size)] = np.arange(wz.size)
    across = -(-shape[1] // _TILE)
    tile_rank = rng.permutation(-(-shape[0] // _TILE) * across)
    return np.lexsort((rank, tile_rank[(wz // _TILE) * across + wx // _TILE]))


def _loop_candidates(plan, rows, cols):
    """Closed wall blocks between two open cells, in raster order by kind (east walls, then south)."""
    open_cells = ~SOLID[plan[1::2, 1::2]]
    east = open_cells[:, :-1] & open_cells[:, 1:] & SOLID[plan[1::2, 2:-1:2]]
    south = open_cells[:-1, :] & open_cells[1:, :] & SOLID[plan[2:-1:2, 1::2]]
    er, ec = np.nonzero(east)
    sr, sc = np.nonzero(south)
    return (np.concatenate([2 * er + 1, 2 * sr + 2]).astype(np.int64),
            np.concatenate([2 * ec + 2, 2 * sc + 1]).astype(np.int64))


# ----------------------------------------------------------------------------- API


def rooms_and_mazes_dungeon(
    shape,
    rng: np.random.Generator | int | None = None,
    *,
    algorithm: str = "backtracker",
    room_size=(2, 5),
    room_attempts: int | None = None,
    extra_doors: float = 0.0,
    sparseness: float = 1.0,
    min_shortcut: int | None = None,
    loop_chance: float = 1.0,
    levels: int = 1,
) -> Dungeon:
    """A roguelike dungeon of ``shape = (rows, cols)`` cells: rooms, mazes, doors, loops, stairs.

    Parameters
    ----------
    shape : (rows, cols)
        Size in cells; the plan is ``(2 rows + 1, 2 cols + 1)`` blocks.
    rng : Generator, seed or None
        Everything random follows from it; the same seed and options give the same bytes.
    algorithm : str
        Registry spec (``NAME[:OPTION]``) of the maze grown in the space between rooms; it must
        honour masks (not binary-tree, sidewinder or recursive-division, unless no rooms).
    room_size : int or (min, max)
        Room side length in cells (each side drawn from the inclusive range); a side of ``n``
        cells is ``2n - 1`` blocks.
    room_attempts : int, optional
        How many rooms are tried (overlapping ones are dropped); default ``rows * cols // 20``,
        which covers roughly half the area with the default sizes. 0 = a plain maze.
    extra_doors : float
        Chance (0..1) that a connector not needed to join the regions becomes a door too.
    sparseness : float
        Share (0..1) of the dead-end corridor cells filled (see the module docstring); 1 = none
        left.
    min_shortcut : int, optional
        Open loops where they shorten a walk by at least this many blocks (Brogue's rule);
        None = no loops.
    loop_chance : float
        Chance (0..1) that a candidate wall is considered for a loop at all.
    levels : int
        Number of levels; each level's goal is the next level's start, both STAIRS.

    Example
    -------
    >>> d = rooms_and_mazes_dungeon((15, 25), rng=3, extra_doors=0.05, sparseness=0.5, min_shortcut=20)
    >>> lvl = d.levels[0]
    >>> lvl.plan.shape, int(lvl.plan[lvl.start]) == Material.START
    ((31, 51), True)
    """
    rows, cols = cells_shape(shape)
    lo, hi = room_size_range(room_size)
    attempts = rows * cols // 20 if room_attempts is None else whole(room_attempts, "room_attempts", 0)
    shares = {"extra_doors": extra_doors, "sparseness": sparseness, "loop_chance": loop_chance}
    for name, value in shares.items():
        if isinstance(value, bool) or not isinstance(value, Real) or not 0.0 <= value <= 1.0:
            raise BlockmazeError(f"{name} must be a share between 0 and 1, got {value!r}")
    if min_shortcut is not None:
        min_shortcut = whole(min_shortcut, "min_shortcut", 1)
    levels = whole(levels, "levels", 1)
    chosen, option = get_algorithm(algorithm, square_grid(1, 1))
    if chosen.needs_unmasked and attempts > 0:
        raise BlockmazeError(
            f"{chosen.name} cannot grow a maze around rooms; choose an algorithm that honours "
            "masks (e.g. backtracker, wilson) or room_attempts=0"
        )
    ensure_memory(rows * cols * _BYTES_PER_CELL, f"a {rows}x{cols}-cell dungeon")
    generator = as_generator(rng)
    options = (chosen, option, lo, hi, attempts, extra_doors, sparseness, min_shortcut, loop_chance)
    made = []
    start = None
    for index in range(levels):
        plan, rooms, loops, start, goal = _level(rows, cols, options, generator, start)
        plan[_block(start)] = Material.START if index == 0 else Material.STAIRS
        plan[_block(goal)] = Material.GOAL if index == levels - 1 else Material.STAIRS
        doors = np.argwhere(plan == Material.DOOR).astype(np.int64)
        made.append(DungeonLevel(plan, rooms, doors, loops, _block(start), _block(goal)))
        start = goal
    return Dungeon(tuple(made))
