"""Mixed: caves and rooms in one level (Brogue's blend of caverns and built rooms).

The plan is cut into squares of ``ZONE`` blocks; each square is a cave zone with chance
``cave_share`` (at least one of each kind when there are two squares or more). Cave zones take
the blocks of a :mod:`~blockmaze.dungeon.caves` plan, the others those of a
:mod:`~blockmaze.dungeon.digger` plan of the same size; rooms cut by a zone edge are dropped
from the room list. :func:`~blockmaze.dungeon.connect.finish` then joins what the cut parted.

Example
-------
>>> plan, rooms = carve(41, 61, np.random.default_rng(4))
>>> plan.shape, bool((plan[:, 0] == Material.WALL).all())
((41, 61), True)
"""

from __future__ import annotations

import numpy as np

from ..materials import SOLID, Material
from . import caves, digger
from .connect import degrees

ZONE = 24
CAVE_SHARE = 0.5


def zones(height: int, width: int, rng: np.random.Generator, share: float = CAVE_SHARE) -> np.ndarray:
    """bool ``(height, width)``: True in the cave zones."""
    rows, cols = -(-height // ZONE), -(-width // ZONE)
    coarse = rng.random((rows, cols)) < share
    if coarse.size >= 2 and (coarse.all() or not coarse.any()):
        coarse.flat[int(rng.random() * coarse.size)] ^= True
    return np.repeat(np.repeat(coarse, ZONE, axis=0), ZONE, axis=1)[:height, :width]


def carve(height: int, width: int, rng: np.random.Generator, room_size=digger.ROOM_SIZE, **options):
    """A raw mixed plan (not yet joined) and the rooms wholly outside the cave zones."""
    cave = zones(height, width, rng, options.get("cave_share", CAVE_SHARE))
    built, rooms = digger.carve(height, width, rng, room_size=room_size, dig=0.6)
    rock, _ = caves.carve(height, width, rng)
    plan = np.where(cave, rock, built)
    keep = [i for i, (z0, x0, z1, x1) in enumerate(rooms.tolist())
            if not cave[z0 - 1:z1 + 1, x0 - 1:x1 + 1].any()]
    doors = plan == Material.DOOR
    plan[doors & (degrees(~SOLID[plan]) < 2)] = np.uint8(Material.WALL)  # doors the cut left dangling
    return plan, rooms[keep]
