"""Where to put things on a finished level: spawns by rule, and a lock with its key.

**Spawns** (:func:`place_spawns`), on plain walkable blocks (AIR or FLOOR) reachable from the
start, at least ``spacing`` blocks apart (Chebyshev distance) from each other and from every
block already taken (start, goal, stairs, the locked door and its key), chosen greedily:

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

import numba
import numpy as np

from ..materials import Material, SOLID
from .connect import degrees, distances
from .level import Entity

_PLAIN = np.zeros(256, dtype=bool)
_PLAIN[[Material.AIR, Material.FLOOR]] = True


@numba.njit(cache=True)
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


def lock_and_key(plan: np.ndarray, start, goal, rng: np.random.Generator):
    """``(door, key)`` blocks as described above, or None if no single block cuts the goal off
    (every walk can go around) or the start's side holds no plain block for the key."""
    walkable = ~SOLID[plan]
    found = _separators(walkable, *start, *goal)
    blocks = [divmod(int(p), plan.shape[1]) for p in found]
    blocks = [b for b in blocks if plan[b] in (Material.AIR, Material.FLOOR, Material.DOOR)]
    doors = [b for b in blocks if plan[b] == Material.DOOR]
    pool = doors or blocks
    for first in rng.permutation(len(pool)):
        door = pool[int(first)]
        dist = distances(walkable, *start, *door)
        dist[~_PLAIN[plan]] = -1
        dist[start] = -1
        if dist.max() > 0:
            key = np.unravel_index(int(np.argmax(dist)), plan.shape)
            return (int(door[0]), int(door[1])), (int(key[0]), int(key[1]))
    return None


@numba.njit(cache=True)
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
                 treasure: int = 0, spacing: int = 5, taken=()) -> list[Entity]:
    """Entities ``treasure``, ``item`` and ``monster`` by the rules above (fewer if the level
    has no room for them at this spacing)."""
    walkable = ~SOLID[plan]
    dist = distances(walkable, *start)
    free = _PLAIN[plan] & (dist > 0)
    radius = max(0, int(spacing) - 1)
    blocked = np.zeros(plan.shape, dtype=bool)
    _block_around(blocked, [tuple(start), *taken], radius)
    made: list[Entity] = []

    def take(kind, zs, xs, rules, count):
        if count <= 0 or zs.size == 0:
            return
        for i in _pick(zs.astype(np.int64), xs.astype(np.int64), blocked, count - _count(kind), radius):
            z, x = int(zs[i]), int(xs[i])
            made.append(Entity(kind, z, x, {"rule": rules[i] if isinstance(rules, list) else rules,
                                            "distance": int(dist[z, x])}))

    def _count(kind):
        return sum(1 for e in made if e.kind == kind)

    zs, xs = np.nonzero(free)
    d = dist[zs, xs]
    tie = rng.random(zs.size)
    # treasure: dead ends, farthest first, then any block, farthest first
    dead = degrees(walkable)[zs, xs] == 1
    order = np.lexsort((tie, -d, ~dead))
    take("treasure", zs[order], xs[order], ["dead end" if v else "far" for v in dead[order]], treasure)
    # items: room centres, then random blocks
    if len(rooms):
        cz = (rooms[:, 0] + rooms[:, 2] - 1) // 2
        cx = (rooms[:, 1] + rooms[:, 3] - 1) // 2
        keep = free[cz, cx]
        shuffle = rng.permutation(int(keep.sum()))
        take("item", cz[keep][shuffle], cx[keep][shuffle], "room centre", items)
    shuffle = rng.permutation(zs.size)
    take("item", zs[shuffle], xs[shuffle], "random", items)
    # monsters: weighted by distance (Efraimidis-Spirakis keys u ** (1 / weight))
    keys = rng.random(zs.size) ** (1.0 / np.maximum(d, 1))
    order = np.argsort(-keys, kind="stable")
    take("monster", zs[order], xs[order], "distance", monsters)
    return made
