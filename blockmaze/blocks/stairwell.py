"""Spiral stairs: a flight of STAIRS blocks winding round a 2x2 well, one block up per step.

A flight rising ``R`` blocks needs ``R`` blocks of run and two blocks of headroom over each step,
which a one-block cell cannot hold. Two by two blocks can: the step on layer ``y`` stands in
corner ``CORNERS[y % 4]`` of the well (clockwise: north-west, north-east, south-east, south-west),
so every step is beside the step below it and the step above it, and each corner holds a step
every fourth layer, with three blocks of air over it. The top step lies in the upper floor's
layer, beside the landing (the next corner's floor block); the upper floor over the two steps
below it is cut away for headroom. Wells stacked in one column continue one spiral. Each step
rises toward the next (:func:`~blockmaze.blocks.orientation.stair_facing`), so meshes draw them
as steps and Minecraft as stair blocks.

From the level below, each side of the well has an open corner to walk through or to step onto
the first step from; from the level above, each side has a step or floor within one block of
the floor's height.

Example
-------
>>> import numpy as np
>>> from blockmaze.materials import Material
>>> v = np.zeros((8, 2, 2), np.uint8)
>>> v[0] = v[4] = Material.FLOOR             # a floor, 3 layers of air, the upper floor
>>> spiral(v, 0, 0, bottom=1, top=4)
>>> [[int(v[y, z, x]) for z, x in CORNERS] for y in range(5)]   # layer by layer, by corner
[[2, 2, 2, 2], [0, 8, 0, 0], [0, 0, 8, 0], [0, 0, 0, 8], [8, 2, 0, 0]]
"""

from __future__ import annotations

import numpy as np

from ..materials import SOLID, Material

CORNERS = ((0, 0), (0, 1), (1, 1), (1, 0))  # (dz, dx) round the well, clockwise from north-west


def spiral(volume: np.ndarray, z: int, x: int, bottom: int, top: int) -> None:
    """Put the steps of layers ``bottom..top`` in the well whose north-west block is ``(z, x)``,
    and clear two blocks of headroom over each, up to layer ``top`` (see the module docstring)."""
    stairs = np.uint8(Material.STAIRS)
    for y in range(bottom, top + 1):
        dz, dx = CORNERS[y % 4]
        volume[y, z + dz, x + dx] = stairs
    for y in range(bottom, top + 1):
        dz, dx = CORNERS[y % 4]
        column = volume[y + 1:min(y + 3, top + 1), z + dz, x + dx]  # (above the top: the level's own)
        column[column != stairs] = Material.AIR


def well_at(lower: np.ndarray, upper: np.ndarray, z: int, x: int) -> tuple[int, int] | None:
    """The north-west block of a 2x2 well holding block ``(z, x)`` that is open in both plans (the
    one starting at ``(z, x)`` first, then those reaching north and west of it), or None.

    >>> plan = np.array([[1, 1, 1], [1, 0, 0], [1, 0, 0]], np.uint8)
    >>> well_at(plan, plan, 2, 2), well_at(plan, plan, 0, 0)
    ((1, 1), None)
    """
    open_ = _walkable(lower) & _walkable(upper)
    depth, width = open_.shape
    for dz, dx in CORNERS:
        z0, x0 = z - dz, x - dx
        if 0 <= z0 < depth - 1 and 0 <= x0 < width - 1 and open_[z0:z0 + 2, x0:x0 + 2].all():
            return z0, x0
    return None


def carve_well(lower: np.ndarray, upper: np.ndarray, z: int, x: int,
               reach: int = 4) -> tuple[int, int] | None:
    """The north-west block of a 2x2 well for stairs at block ``(z, x)``, made room for in both
    plans (in place): :func:`well_at`; else the nearest well within ``reach`` blocks that is open
    in both plans, or can be cut out of their walls without shortening any way (every block it
    opens touches only walls, the well, and open blocks that already touch the well's open
    blocks); else a well holding ``(z, x)`` cut regardless. None if even that cannot be (a door or
    a light in every such well, or the outer wall).

    >>> plan = np.array([[1, 1, 1, 1], [1, 0, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1]], np.uint8)
    >>> carve_well(plan, plan.copy(), 1, 1), plan.tolist()[1:3]
    ((1, 1), [[1, 0, 0, 1], [1, 0, 0, 1]])
    """
    found = well_at(lower, upper, z, x)
    if found is not None:
        return found
    depth, width = lower.shape
    both = _walkable(lower) & _walkable(upper)
    near = sorted(((max(abs(z0 - z), abs(x0 - x), abs(z0 + 1 - z), abs(x0 + 1 - x)), z0, x0)
                   for z0 in range(max(1, z - reach), min(depth - 2, z + reach))
                   for x0 in range(max(1, x - reach), min(width - 2, x + reach))))
    clean = [(z0, x0) for _, z0, x0 in near
             if both[z0:z0 + 2, x0:x0 + 2].any() and (
                 both[z0:z0 + 2, x0:x0 + 2].all()
                 or all(_cuts_cleanly(plan, z0, x0) for plan in (lower, upper)))]
    holding = [(z - dz, x - dx) for dz, dx in CORNERS
               if 1 <= z - dz < depth - 2 and 1 <= x - dx < width - 2
               and all(_openable(plan[z - dz:z - dz + 2, x - dx:x - dx + 2]) for plan in (lower, upper))]
    if not clean + holding:
        return None
    z0, x0 = (clean + holding)[0]
    for plan in (lower, upper):
        well = plan[z0:z0 + 2, x0:x0 + 2]
        well[SOLID[well]] = Material.AIR
    return z0, x0


def _cuts_cleanly(plan: np.ndarray, z0: int, x0: int) -> bool:
    """True if opening the 2x2 at ``(z0, x0)`` opens only walls, each touching only walls, the well,
    or open blocks already beside the well's open blocks (no way is shortened by more than a step)."""
    well = plan[z0:z0 + 2, x0:x0 + 2]
    if not _openable(well):
        return False
    near = set()  # open blocks beside the well's open blocks
    for dz, dx in CORNERS:
        if not SOLID[well[dz, dx]]:
            near.update(_sides_out(z0, x0, dz, dx))
    for dz, dx in CORNERS:
        if SOLID[well[dz, dx]] and not all(SOLID[plan[b]] or b in near for b in _sides_out(z0, x0, dz, dx)):
            return False
    return True


def _sides_out(z0: int, x0: int, dz: int, dx: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two blocks beside corner ``(dz, dx)`` of the well at ``(z0, x0)`` that lie outside it."""
    z, x = z0 + dz, x0 + dx
    return (z + (1 if dz else -1), x), (z, x + (1 if dx else -1))


def _openable(well: np.ndarray) -> bool:
    """True if every block of ``well`` is a wall or open ground (no door or light in the way)."""
    return bool((SOLID[well] | _walkable(well)).all())


def _walkable(plan: np.ndarray) -> np.ndarray:
    """Blocks of a plan a well may take: open, and not a door or a light."""
    return ~SOLID[plan] & (plan != Material.DOOR) & (plan != Material.LIGHT)
