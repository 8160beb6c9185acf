"""Caves: a cellular automaton smooths random rock into caverns.

Each inner block starts as rock with chance ``fill``; then ``steps`` times, every inner block
becomes rock when at least 5 of the 9 blocks of its 3x3 neighbourhood are rock, and open
otherwise (the 4-5 rule; blocks outside the plan count as rock). The border stays rock. The
pockets this leaves are joined or filled by :func:`blockmaze.dungeon.connect.finish`.

Example
-------
>>> plan, rooms = carve(21, 41, np.random.default_rng(1))
>>> plan.shape, len(rooms), bool((plan[0] == Material.WALL).all())
((21, 41), 0, True)
"""

from __future__ import annotations

from ..support.kernels import kernel
import numpy as np

from ..materials import Material

FILL = 0.45
STEPS = 4
MIN_POCKET = 16  # caverns smaller than this many blocks are filled, the rest joined


@kernel
def _smooth(rock, out):
    """One step of the 4-5 rule from ``rock`` into ``out`` (inner blocks only)."""
    height, width = rock.shape
    for z in range(1, height - 1):
        for x in range(1, width - 1):
            count = 0
            for dz in range(-1, 2):
                for dx in range(-1, 2):
                    count += rock[z + dz, x + dx]
            out[z, x] = 1 if count >= 5 else 0


def cave_rock(height: int, width: int, rng: np.random.Generator, fill: float = FILL,
              steps: int = STEPS) -> np.ndarray:
    """uint8 ``(height, width)``: 1 = rock, 0 = open, after ``steps`` smoothing steps."""
    rock = (rng.random((height, width)) < fill).astype(np.uint8)
    rock[[0, -1], :] = 1
    rock[:, [0, -1]] = 1
    other = rock.copy()
    for _ in range(steps):
        _smooth(rock, other)
        rock, other = other, rock
    return rock


def carve(height: int, width: int, rng: np.random.Generator, **options):
    """A raw cave plan (WALL and AIR, not yet joined) and its rooms (none)."""
    rock = cave_rock(height, width, rng, options.get("fill", FILL), options.get("steps", STEPS))
    plan = np.where(rock == 1, np.uint8(Material.WALL), np.uint8(Material.AIR))
    return plan, np.empty((0, 4), dtype=np.int64)
