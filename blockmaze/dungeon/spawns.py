"""Where to put things on a finished level: spawns by rule, and a lock with its key.

**Spawns** (:func:`place_spawns`), on plain walkable blocks (AIR or FLOOR) reachable from the
start, at least ``spacing`` blocks apart (Chebyshev distance) from each other and from every
block already taken (start, goal, stairs, the locked door and its key), and more than
:data:`STAIRS_CLEARANCE` blocks from stairs (a stacked build cuts its stairwell there, which
would take a spawn point's floor block), chosen greedily:

* ``treasure`` — dead ends (one walkable neighbour), farthest walk from the start first, then the
  farthest other blocks;
* ``item`` — room centres in random order, then random blocks;
* ``monster`` — random blocks, weighted by their walking distance from the start (a Dijkstra
  map: the deeper, the likelier; never the start's own block).

**Lock and key** (:func:`lock_and_key`): the door is a block every walk from the start to the
goal passes (a cut vertex between them, found by one depth-first search: an ancestor ``v`` of
the goal whose child ``c`` on the goal's branch has ``low(c) >= depth(v)``); an existing DOOR
is preferred, else a random one. The key lies in the part reachable from the start without
passing the door, on the block farthest from the start there.

Example
-------
>>> plan = np.ones((3, 9), np.uint8); plan[1, 1:8] = 0
>>> door, key = lock_and_key(plan, (1, 1), (1, 7), np.random.default_rng(0))
>>> key[1] == door[1] - 1
True
"""

from __future__ import annotations

from ..support.kernels import kernel
import numpy as np

from ..materials import Material, SOLID
from .connect import degrees, distances
from ..entities import Entity

STAIRS_CLEARANCE = 5  # the stairwell's reach from its stairs (blocks.stairwell.carve_well: 4) + 1
_PLAIN = np.zeros(256, dtype=bool)
_PLAIN[[Material.AIR, Material.FLOOR]] = True
_LOCKABLE = _PLAIN.copy()
_LOCKABLE[Material.DOOR] = True


@kernel
def _separators(walkable, sz, sx, gz, gx):
    """Blocks (flat) whose removal cuts the goal off the start, from the goal's side up."""
    height, width = walkable.shape
    n = height * width
    flat = walkable.ravel()
    disc = np.full(n, -1, dtype=np.int64)
    low = np.zeros(n, dtype=np.int64)
    parent = np.full(n, -1, dtype=np.int64)
    stack = np.empty(n, dtype=np.int64)
    step = np.zeros(n, dtype=np.int8)
    s, g = sz * width + sx, gz * width + gx
    disc[s] = low[s] = 0
    stack[0] = s
    top, clock = 1, 1
    while top > 0:
        v = stack[top - 1]
        i = step[v]
        if i < 4:
            step[v] = i + 1
            z, x = v // width, v % width
            if i == 0:
                u, ok = v - width, z > 0
            elif i == 1:
                u, ok = v + width, z < height - 1
            elif i == 2:
                u, ok = v - 1, x > 0
            else:
                u, ok = v + 1, x < width - 1
            if not ok or not flat[u]:
                continue
            if disc[u] < 0:
                parent[u] = v
                disc[u] = low[u] = clock
                clock += 1
                stack[top] = u
                top += 1
            elif u != parent[v]:
                low[v] = min(low[v], disc[u])
        else:
            top -= 1
            p = parent[v]
            if p >= 0:
                low[p] = min(low[p], low[v])
    found = np.empty(n, dtype=np.int64)
    count = 0
    if disc[g] < 0:
        return found[:0].copy()
    c = g
    v = parent[c]
    while v >= 0 and v != s:
        if low[c] >= disc[v]:
            found[count] = v
            count += 1
        c = v
        v = parent[v]
    return found[:count].copy()


def lock_and_key(plan: np.ndarray, start, goal, rng: np.random.Generator
                 ) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """``(door, key)`` blocks as described above, or None if no single block cuts the goal off
    (every walk can go around) or the start's side holds no plain block for the key."""
    walkable = ~SOLID[plan]
    found = _separators(walkable, *start, *goal)
    kinds = plan.ravel()[found]
    doors = found[kinds == Material.DOOR]
    pool = doors if doors.size else found[_LOCKABLE[kinds]]
    for first in rng.permutation(len(pool))[:8]:  # each try is a search of the whole level
        door = divmod(int(pool[int(first)]), plan.shape[1])
        dist = distances(walkable, *start, *door)
        dist[~_PLAIN[plan]] = -1
        dist[start] = -1
        if dist.max() > 0:
            key = np.unravel_index(int(np.argmax(dist)), plan.shape)
            return (int(door[0]), int(door[1])), (int(key[0]), int(key[1]))
    return None


@kernel
def _pick(zs, xs, blocked, count, radius):
    """The first ``count`` candidates (in order) not within ``radius`` of an earlier pick or a
    blocked block; marks the square around each pick as blocked."""
    height, width = blocked.shape
    picked = np.empty(count, dtype=np.int64)
    made = 0
    for i in range(zs.size):
        if made == count:
            break
        z, x = zs[i], xs[i]
        if blocked[z, x]:
            continue
        picked[made] = i
        made += 1
        blocked[max(0, z - radius):min(height, z + radius + 1),
                max(0, x - radius):min(width, x + radius + 1)] = True
    return picked[:made].copy()


def _block_around(blocked, taken, radius):
    for z, x in taken:
        blocked[max(0, z - radius):z + radius + 1, max(0, x - radius):x + radius + 1] = True


def place_spawns(plan, start, rooms, rng: np.random.Generator, monsters: int = 0, items: int = 0,
                 treasure: int = 0, spacing: int = 5, taken=(), stairs=()) -> list[Entity]:
    """Entities ``treasure``, ``item`` and ``monster`` by the rules above (fewer if the level
    has no room for them at this spacing); ``stairs`` are the level's stairs blocks."""
    walkable = ~SOLID[plan]
    dist = distances(walkable, *start)
    free = _PLAIN[plan] & (dist > 0)
    radius = max(0, int(spacing) - 1)
    blocked = np.zeros(plan.shape, dtype=bool)
    _block_around(blocked, [tuple(start), *taken], radius)
    _block_around(blocked, [tuple(s) for s in stairs], max(radius, STAIRS_CLEARANCE))
    made: list[Entity] = []

    def take(kind, orders, rule, count):
        """Pick up to ``count`` ``kind`` from each ``(zs, xs)`` candidate order in turn while
        still short; return how many are missing."""
        for zs, xs in orders:
            picked = _pick(zs.astype(np.int64), xs.astype(np.int64), blocked, count, radius)
            for i in picked:
                z, x = int(zs[i]), int(xs[i])
                made.append(Entity(kind, z, x, {"rule": rule, "distance": int(dist[z, x])}))
            count -= picked.size
            if count <= 0:
                break
        return count

    zs, xs = np.nonzero(free)
    d = dist[zs, xs]
    # treasure: dead ends, farthest first; then any block, farthest first
    dead = np.flatnonzero(degrees(walkable)[zs, xs] == 1)
    dead = dead[np.lexsort((rng.random(dead.size), -d[dead]))]
    left = take("treasure", [(zs[dead], xs[dead])], "dead end", treasure)
    if left:
        take("treasure", ((zs[o], xs[o]) for o in _top(-d.astype(np.float64), left)), "far", left)
    # items: room centres in random order, then random blocks
    left = items
    if len(rooms) and left:
        cz = (rooms[:, 0] + rooms[:, 2] - 1) // 2
        cx = (rooms[:, 1] + rooms[:, 3] - 1) // 2
        keep = np.flatnonzero(free[cz, cx])
        keep = keep[rng.permutation(keep.size)]
        left = take("item", [(cz[keep], cx[keep])], "room centre", left)
    if left:
        take("item", ((zs[o], xs[o]) for o in _top(rng.random(zs.size), left)), "random", left)
    # monsters: weighted by distance (Efraimidis-Spirakis: the largest keys u ** (1 / weight))
    if monsters:
        keys = -(rng.random(zs.size) ** (1.0 / np.maximum(d, 1)))
        take("monster", ((zs[o], xs[o]) for o in _top(keys, monsters)), "distance", monsters)
    return made


def _top(keys: np.ndarray, count: int):
    """Orders of ``keys``' indices to try, increasing: first the smallest ``64 count`` (a partial
    sort, enough for ``count`` spaced picks on most levels), then, if still wanted, all of them."""
    head = min(keys.size, 64 * count + 64)
    if head < keys.size:
        first = np.argpartition(keys, head - 1)[:head]
        yield first[np.argsort(keys[first], kind="stable")]
    yield np.argsort(keys, kind="stable")
