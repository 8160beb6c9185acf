"""Digger: rooms and corridors dug outward from a seed room, one feature at a time.

The first room is dug at the centre. Every rock block beside the dug area (not a corner) is an
*exit* facing away from it. Until ``dig`` of the inner area is open or no exit is left, a random
exit is taken and a feature is tried beyond it: a room (chance ``room_chance``; sides from the
room size range, shifted sideways at random so the exit meets its near wall) or a straight
corridor of 3 to 10 blocks. The feature is dug only where it and a rock ring around it are all
rock inside the plan, so features never merge; then the exit block opens (a DOOR where a room is
on either side) and the feature's own side blocks become exits. Each exit is tried once. The
level is connected by construction: every feature hangs on the one before it.

Example
-------
>>> plan, rooms = carve(31, 41, np.random.default_rng(3))
>>> len(rooms) > 1, int((plan == Material.DOOR).sum()) > 0
(True, True)
"""

from __future__ import annotations

from ..support.kernels import kernel
import numpy as np

from ..materials import Material

ROOM_SIZE = (3, 9)
DIG = 0.4  # share of the inner blocks to open
ROOM_CHANCE = 0.5
CORRIDOR = (3, 10)

_DZ = np.array([-1, 1, 0, 0], dtype=np.int64)  # north, south, west, east
_DX = np.array([0, 0, -1, 1], dtype=np.int64)


@kernel
def _free(plan, z0, x0, z1, x1):
    """True if the box and a one-block ring around it are rock, the box inside the border."""
    height, width = plan.shape
    if z0 < 1 or x0 < 1 or z1 > height - 1 or x1 > width - 1:
        return False
    for z in range(z0 - 1, z1 + 1):
        for x in range(x0 - 1, x1 + 1):
            if plan[z, x] != 1:
                return False
    return True


@kernel
def _add_exits(exits, count, z0, x0, z1, x1, width):
    """Push the side blocks around box [z0, z1) x [x0, x1) as exits ``block * 4 + direction``."""
    for x in range(x0, x1):
        if count + 2 > exits.size:
            return count
        exits[count] = ((z0 - 1) * width + x) * 4 + 0
        exits[count + 1] = (z1 * width + x) * 4 + 1
        count += 2
    for z in range(z0, z1):
        if count + 2 > exits.size:
            return count
        exits[count] = (z * width + x0 - 1) * 4 + 2
        exits[count + 1] = (z * width + x1) * 4 + 3
        count += 2
    return count


@kernel
def _dig(plan, lo, hi, clo, chi, dig, room_chance, dz, dx, rng):
    height, width = plan.shape
    inner = (height - 2) * (width - 2)
    is_room = np.zeros((height, width), dtype=np.uint8)
    rooms = np.empty((inner // max(1, lo * lo) + 1, 4), dtype=np.int64)
    exits = np.empty(2 * height * width + 16, dtype=np.int64)
    rh = min(lo + int(rng.random() * (hi - lo + 1)), height - 2)
    rw = min(lo + int(rng.random() * (hi - lo + 1)), width - 2)
    z0, x0 = (height - rh) // 2, (width - rw) // 2
    plan[z0:z0 + rh, x0:x0 + rw] = 0
    is_room[z0:z0 + rh, x0:x0 + rw] = 1
    rooms[0, 0], rooms[0, 1], rooms[0, 2], rooms[0, 3] = z0, x0, z0 + rh, x0 + rw
    count = 1
    dug = rh * rw
    n = _add_exits(exits, 0, z0, x0, z0 + rh, x0 + rw, width)
    while n > 0 and dug < dig * inner:
        k = int(rng.random() * n)
        code = exits[k]
        n -= 1
        exits[k] = exits[n]
        p, d = code // 4, code % 4
        ez, ex = p // width, p % width
        if plan[ez, ex] != 1:
            continue
        room = rng.random() < room_chance
        if room:
            h = lo + int(rng.random() * (hi - lo + 1))
            w = lo + int(rng.random() * (hi - lo + 1))
        else:
            length = clo + int(rng.random() * (chi - clo + 1))
            h = length if dz[d] != 0 else 1
            w = length if dx[d] != 0 else 1
        if dz[d] != 0:  # going north or south: the box spans x around the exit
            fx0 = ex - int(rng.random() * w)
            fz0 = ez - h if dz[d] < 0 else ez + 1
        else:
            fz0 = ez - int(rng.random() * h)
            fx0 = ex - w if dx[d] < 0 else ex + 1
        # the exit itself lies in the ring: check the ring with the exit counted as rock
        if not _free(plan, fz0, fx0, fz0 + h, fx0 + w):
            continue
        plan[fz0:fz0 + h, fx0:fx0 + w] = 0
        behind = is_room[ez - dz[d], ex - dx[d]] == 1
        plan[ez, ex] = 7 if (room or behind) else 0
        if room:
            is_room[fz0:fz0 + h, fx0:fx0 + w] = 1
            if count < rooms.shape[0]:
                rooms[count, 0], rooms[count, 1] = fz0, fx0
                rooms[count, 2], rooms[count, 3] = fz0 + h, fx0 + w
                count += 1
        dug += h * w + 1
        n = _add_exits(exits, n, fz0, fx0, fz0 + h, fx0 + w, width)
    return rooms[:count].copy()


def carve(height: int, width: int, rng: np.random.Generator, room_size=ROOM_SIZE, **options):
    """A digger plan (WALL, AIR and DOOR, connected) and its rooms ``(z0, x0, z1, x1)``."""
    lo, hi = room_size
    plan = np.full((height, width), np.uint8(Material.WALL), dtype=np.uint8)
    rooms = _dig(plan, lo, hi, CORRIDOR[0], CORRIDOR[1], float(options.get("dig", DIG)),
                 float(options.get("room_chance", ROOM_CHANCE)), _DZ, _DX, rng)
    return plan, rooms
