"""BSP: the plan is split in two again and again (binary space partition), a room in each leaf,
and the rooms joined along the tree.

A part larger than ``leaf`` blocks on a side is split across its longer side (a random side
when square) at a random position at least ``leaf // 2`` blocks from either end; a leaf holds one
room of random size (sides from the room size range, as far as the leaf allows) at a random
position, with at least one rock row and column before it, so rooms never touch. Going back up
the tree, the two halves of every split are joined by an L-shaped corridor between a random
floor block of each (bends first along a random axis); so the whole is connected, and each
corridor stays inside the part that was split.

Example
-------
>>> plan, rooms = carve(31, 41, np.random.default_rng(2))
>>> len(rooms) > 1, bool((plan[rooms[0, 0], rooms[0, 1]] == Material.AIR))
(True, True)
"""

from __future__ import annotations

from ..support.kernels import kernel
import numpy as np

from ..materials import Material

ROOM_SIZE = (3, 9)  # room sides in blocks


@kernel
def _bsp(plan, leaf, lo, hi, rng):
    height, width = plan.shape
    cap = 2 * ((height * width) // max(1, (leaf // 2) * (leaf // 2)) + 1) + 1
    box = np.empty((cap, 4), dtype=np.int64)  # z0, x0, z1, x1
    child = np.full((cap, 2), -1, dtype=np.int64)
    point = np.empty((cap, 2), dtype=np.int64)
    rooms = np.empty((cap, 4), dtype=np.int64)
    box[0, 0], box[0, 1], box[0, 2], box[0, 3] = 1, 1, height - 1, width - 1
    nodes, count = 1, 0
    i = 0
    while i < nodes:  # split breadth first: children always come after their parent
        z0, x0, z1, x1 = box[i, 0], box[i, 1], box[i, 2], box[i, 3]
        h, w = z1 - z0, x1 - x0
        half = max(leaf // 2, 2)
        if (h > leaf or w > leaf) and max(h, w) >= 2 * half and nodes + 2 <= cap:
            across_z = h > w or (h == w and rng.random() < 0.5)
            size = h if across_z else w
            cut = half + int(rng.random() * (size - 2 * half + 1))
            for k in range(2):
                j = nodes + k
                box[j, 0], box[j, 1], box[j, 2], box[j, 3] = z0, x0, z1, x1
                child[i, k] = j
            if across_z:
                box[nodes, 2] = z0 + cut
                box[nodes + 1, 0] = z0 + cut
            else:
                box[nodes, 3] = x0 + cut
                box[nodes + 1, 1] = x0 + cut
            nodes += 2
        i += 1
    air = np.uint8(0)
    for i in range(nodes - 1, -1, -1):  # children before parents
        if child[i, 0] < 0:
            z0, x0, z1, x1 = box[i, 0], box[i, 1], box[i, 2], box[i, 3]
            mz = 1 if z1 - z0 >= 2 else 0  # a rock line before the room
            mx = 1 if x1 - x0 >= 2 else 0
            rh = _side(lo, hi, z1 - z0 - mz, rng)
            rw = _side(lo, hi, x1 - x0 - mx, rng)
            rz = z0 + mz + int(rng.random() * (z1 - z0 - mz - rh + 1))
            rx = x0 + mx + int(rng.random() * (x1 - x0 - mx - rw + 1))
            plan[rz:rz + rh, rx:rx + rw] = air
            rooms[count, 0], rooms[count, 1], rooms[count, 2], rooms[count, 3] = rz, rx, rz + rh, rx + rw
            count += 1
            point[i, 0] = rz + int(rng.random() * rh)
            point[i, 1] = rx + int(rng.random() * rw)
        else:
            a, b = child[i, 0], child[i, 1]
            _corridor(plan, point[a, 0], point[a, 1], point[b, 0], point[b, 1], rng.random() < 0.5)
            k = a if rng.random() < 0.5 else b
            point[i, 0], point[i, 1] = point[k, 0], point[k, 1]
    return rooms[:count].copy()


@kernel
def _side(lo, hi, room, rng):
    """A room side from lo..hi that fits in ``room`` blocks (at least 1)."""
    top = min(hi, room)
    bottom = min(lo, top)
    return max(1, bottom + int(rng.random() * (top - bottom + 1)))


@kernel
def _corridor(plan, az, ax, bz, bx, z_first):
    """Open an L-shaped walk from (az, ax) to (bz, bx), along z first or x first."""
    air = np.uint8(0)
    cz, cx = (bz, ax) if z_first else (az, bx)
    for z in range(min(az, cz), max(az, cz) + 1):
        plan[z, ax if z_first else bx] = air
    for x in range(min(ax, bx), max(ax, bx) + 1):
        plan[cz, x] = air
    for z in range(min(cz, bz), max(cz, bz) + 1):
        plan[z, bx if z_first else ax] = air


def carve(height: int, width: int, rng: np.random.Generator, room_size=ROOM_SIZE, **options):
    """A BSP plan (WALL and AIR, connected) and its rooms ``(z0, x0, z1, x1)``."""
    lo, hi = room_size
    plan = np.full((height, width), np.uint8(Material.WALL), dtype=np.uint8)
    rooms = _bsp(plan, hi + 3, lo, hi, rng)
    return plan, rooms
