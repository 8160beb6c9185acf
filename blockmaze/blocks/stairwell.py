"""Spiral stairs: a flight of STAIRS blocks winding round a 2x2 well, one block up per step.

A flight rising ``R`` blocks needs ``R`` blocks of run, which a one-block cell cannot hold. Two
by two blocks can: the step on layer ``y`` stands in corner ``CORNERS[(y + phase) % 4]`` of the
well (clockwise: north-west, north-east, south-east, south-west), so every step is beside the
step below it and the step above it, and each corner holds a step every fourth layer. Over each
step there are three blocks of air, cut through the upper floor where they reach it: a player
(1.8 blocks tall, 0.6 wide) rising half a block onto the next step is still partly over the
step below, so its head needs the third block there (Minecraft's player, and a game engine's
character, stop at a ceiling two blocks over the step they leave). The floor before the first
step needs three blocks of air too: a level at least three blocks high (:data:`LEAST_HEIGHT`). The top step lies in the
upper floor's layer, beside the landing (the next corner's floor block), so the upper floor
keeps one block of the well: the top step. Wells stacked in one column continue one spiral
(one phase). Each step rises toward the next
(:func:`~blockmaze.blocks.orientation.stair_facing`), so meshes draw them as steps and
Minecraft as stair blocks.

From the level below, each side of the well has an open corner to walk through or a step to
step onto, half a block up, but the corner under the second step (one block of headroom); and
a doorway (two blocks high, the wall over it) leads onto no step, since a player rising half a
block from it hits the wall over the door, and one coming down the first step into it likewise.
From the level above, a side beside the top step walks onto it, half a block down; a side that
touches only the holes over the three steps below it is a drop. :func:`best_phase` turns the
spiral so that neither level comes in only by such a side where it can.

Example
-------
>>> import numpy as np
>>> from blockmaze.materials import Material
>>> v = np.zeros((8, 2, 2), np.uint8)
>>> v[0] = v[4] = Material.FLOOR             # a floor, 3 layers of air, the upper floor
>>> spiral(v, 0, 0, bottom=1, top=4)
>>> [[int(v[y, z, x]) for z, x in CORNERS] for y in range(5)]   # layer by layer, by corner
[[2, 2, 2, 2], [0, 8, 0, 0], [0, 0, 8, 0], [0, 0, 0, 8], [8, 0, 0, 0]]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..materials import SOLID, Material
from ..support.breadth import FOUR, NO_LABELS, NO_PARENTS, block_breadth_first

CORNERS = ((0, 0), (0, 1), (1, 1), (1, 0))  # (dz, dx) round the well, clockwise from north-west


SIDES = ((((-1, 0), 0), ((-1, 1), 1)), (((0, 2), 1), ((1, 2), 2)),
         (((2, 1), 2), ((2, 0), 3)), (((1, -1), 3), ((0, -1), 0)))
"""Each side of a well (north, east, south, west): its two blocks just outside, as ``(dz, dx)``
from the well's north-west block, each with the corner it touches."""


HEADROOM = 3
"""Blocks of air over every step: a player stepping up onto the next step is still partly over
this one, its head 2.3 blocks above this step's top."""

LEAST_HEIGHT = HEADROOM
"""The least height (blocks of air over a level's floor) a level needs for a spiral's first step."""


def spiral(volume: np.ndarray, z: int, x: int, bottom: int, top: int, phase: int = 0) -> None:
    """Put the steps of layers ``bottom..top`` in the well whose north-west block is ``(z, x)``,
    and clear ``HEADROOM`` blocks over each, up to layer ``top`` (see the module docstring)."""
    stairs = np.uint8(Material.STAIRS)
    for y in range(bottom, top + 1):
        dz, dx = CORNERS[(y + phase) % 4]
        volume[y, z + dz, x + dx] = stairs
    for y in range(bottom, top + 1):
        dz, dx = CORNERS[(y + phase) % 4]
        column = volume[y + 1:min(y + 1 + HEADROOM, top + 1), z + dz, x + dx]  # (above the top: the level's own)
        column[column != stairs] = Material.AIR


def best_phase(flights, z: int, x: int) -> int:
    """The phase for spirals stacked in the well at ``(z, x)``, given each flight as ``(bottom,
    top, lower plan, upper plan)``: the first of least :func:`phase_costs`.

    >>> plan = np.ones((4, 4), np.uint8); plan[1:3, 1:3] = 0; plan[0, 1:3] = 0   # open north
    >>> closed = np.pad(np.zeros((2, 2), np.uint8), 1, constant_values=1)
    >>> best_phase([(1, 4, closed, plan)], 1, 1), best_phase([(1, 2, closed, plan)], 1, 1)
    (0, 2)
    """
    costs = phase_costs(flights, z, x)
    return costs.index(min(costs))


def phase_costs(flights, z: int, x: int) -> list[int]:
    """For each phase of the spirals in the well at ``(z, x)`` (flights as in :func:`best_phase`),
    how many ways in (:func:`ways_in`) a level comes in by only beside a corner a player cannot
    walk into: on the level above, the holes over the steps ``top - 3`` to ``top - 1`` (drops); on
    the level below, under the step ``bottom + 1`` (no headroom), and from a door, the first step.

    >>> plan = np.ones((4, 4), np.uint8); plan[1:3, 1:3] = 0; plan[0, 1:3] = 0   # open north
    >>> phase_costs([(1, 4, plan, plan)], 1, 1)
    [0, 0, 1, 1]
    >>> closed = np.pad(np.zeros((2, 2), np.uint8), 1, constant_values=1)
    >>> plan[0, 1] = Material.WALL                                # below, only the north-east open
    >>> phase_costs([(1, 4, plan, closed)], 1, 1)
    [0, 0, 0, 1]
    >>> plan[0, 2] = Material.DOOR                                # a door there: not onto a step
    >>> phase_costs([(1, 4, plan, closed)], 1, 1)
    [1, 0, 0, 1]
    """
    def bad_ways(ways, blocked, blocked_from_doors=frozenset()):  # only into corners it cannot enter
        return sum(all(c in blocked or (door and c in blocked_from_doors) for c, door in way) for way in ways)

    seen = [(bottom, top, ways_in(lower, z, x), ways_in(upper, z, x)) for bottom, top, lower, upper in flights]
    return [sum(bad_ways(above, {(top - back + phase) % 4 for back in range(1, HEADROOM + 1)})
                + bad_ways(below, {(bottom + 1 + phase) % 4}, {(bottom + phase) % 4})
                for bottom, top, below, above in seen) for phase in range(4)]


AROUND = 6
"""How far round a well :func:`ways_in` follows a plan's open blocks to join them."""


def ways_in(plan: np.ndarray, z: int, x: int) -> list[list[tuple[int, bool]]]:
    """The ways into the well whose north-west block is ``(z, x)``: for each group of the open
    blocks just outside it that are joined outside the well (within :data:`AROUND` blocks of it),
    the ``(corner, through a door)`` of each of those blocks. A room round a well is one way in,
    however many sides of the well it touches; a door into it is another.

    >>> plan = np.zeros((4, 5), np.uint8)   # a room round the well at (1, 1), north and west of it;
    >>> plan[0, 3:] = plan[2, 3] = plan[3, :4] = Material.WALL
    >>> plan[1, 3] = Material.DOOR           # a doorway east of it, from a corridor down column 4
    >>> ways_in(plan, 1, 1)
    [[(0, False), (1, False), (3, False), (0, False)], [(1, True)]]
    """
    depth, width = plan.shape
    z0, z1, x0, x1 = max(0, z - AROUND), min(depth, z + 2 + AROUND), max(0, x - AROUND), min(width, x + 2 + AROUND)
    walk = ~SOLID[plan[z0:z1, x0:x1]]
    walk[z - z0:z - z0 + 2, x - x0:x - x0 + 2] = False  # the well itself
    passable = walk.ravel()
    shape = np.array([1, z1 - z0, x1 - x0], dtype=np.int64)
    reached = np.full(passable.size, -1, dtype=np.int32)
    queue = np.empty(passable.size, dtype=np.int64)
    group = np.full(passable.size, -1, dtype=np.int64)
    ways: list[list[tuple[int, bool]]] = []
    for side in SIDES:
        for (dz, dx), corner in side:
            a, b = z + dz, x + dx
            if not (z0 <= a < z1 and x0 <= b < x1 and walk[a - z0, b - x0]):
                continue
            block = (a - z0) * (x1 - x0) + (b - x0)
            if group[block] < 0:  # a new group: every open block joined to this one
                queue[0], reached[block] = block, 0
                count = block_breadth_first(passable, shape, FOUR, reached, queue, 1, -1, NO_PARENTS, NO_LABELS)
                group[queue[:count]] = len(ways)
                ways.append([])
            ways[group[block]].append((corner, bool(plan[a, b] == Material.DOOR)))
    return ways


def well_at(lower: np.ndarray, upper: np.ndarray, z: int, x: int) -> tuple[int, int] | None:
    """The north-west block of a 2x2 well holding block ``(z, x)`` that is open in both plans (the
    one starting at ``(z, x)`` first, then those reaching north and west of it), or None.

    >>> plan = np.array([[1, 1, 1], [1, 0, 0], [1, 0, 0]], np.uint8)
    >>> well_at(plan, plan, 2, 2), well_at(plan, plan, 0, 0)
    ((1, 1), None)
    """
    for dz, dx in CORNERS:
        z0, x0 = z - dz, x - dx
        if _open_in_both(lower, upper, z0, x0).all():
            return z0, x0
    return None


def carve_well(lower: np.ndarray, upper: np.ndarray, z: int, x: int,
               flight: tuple[int, int] | None = None, reach: int = 4,
               cut: Sequence[tuple[int, int]] = ()) -> tuple[int, int] | None:
    """The north-west block of a 2x2 well for stairs at block ``(z, x)``, made room for in both
    plans (in place). Candidates, in order: :func:`well_at`; the wells within ``reach`` blocks,
    nearest first, that are open in both plans or can be cut out of their walls without
    shortening any way (every block it opens touches only walls, the well, and open blocks that
    already touch the well's open blocks); the wells holding ``(z, x)``, cut regardless. With
    ``flight = (bottom, top)`` the first candidate every level can walk into (see
    :func:`best_phase`) is taken, else the first. None if there is no candidate (a door or a
    light in every such well, or the outer wall). A carved well never takes a START or GOAL
    mark. A well may continue one of the wells ``cut``
    already (their north-west blocks: one spiral, stacked) but not overlap one in part, where
    the steps of one would stand in the holes over the other's.

    >>> plan = np.array([[1, 1, 1, 1], [1, 0, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1]], np.uint8)
    >>> carve_well(plan, plan.copy(), 1, 1), plan.tolist()[1:3]
    ((1, 1), [[1, 0, 0, 1], [1, 0, 0, 1]])
    """
    depth, width = lower.shape
    found = well_at(lower, upper, z, x)
    near = sorted((max(abs(z0 - z), abs(x0 - x), abs(z0 + 1 - z), abs(x0 + 1 - x)), z0, x0)
                   for z0 in range(max(1, z - reach), min(depth - 2, z + reach))
                   for x0 in range(max(1, x - reach), min(width - 2, x + reach)))
    clean = [(z0, x0) for _, z0, x0 in near
             if _open_in_both(lower, upper, z0, x0).any() and (
                 _open_in_both(lower, upper, z0, x0).all()
                 or all(_cuts_cleanly(plan, z0, x0) for plan in (lower, upper)))]
    holding = [(z - dz, x - dx) for dz, dx in CORNERS
               if 1 <= z - dz < depth - 2 and 1 <= x - dx < width - 2
               and all(_openable(plan[z - dz:z - dz + 2, x - dx:x - dx + 2]) for plan in (lower, upper))]
    candidates = [c for c in ([] if found is None else [found]) + clean + holding
                  if not any(c != w and abs(c[0] - w[0]) < 2 and abs(c[1] - w[1]) < 2 for w in cut)
                  and not any(np.isin(plan[c[0]:c[0] + 2, c[1]:c[1] + 2], (Material.START, Material.GOAL)).any()
                              for plan in (lower, upper))]  # (a hole over a step would take the mark away)
    if not candidates:
        return None
    if flight is not None:  # (the blocks around a well are the same before and after it is cut)
        walked = [c for c in candidates if min(phase_costs([(*flight, lower, upper)], *c)) == 0]
        candidates = walked + candidates
    z0, x0 = candidates[0]
    if flight is not None and min(phase_costs([(*flight, lower, upper)], z0, x0)):
        _open_a_way_in(lower, upper, z0, x0, flight)
    for plan in (lower, upper):
        well = plan[z0:z0 + 2, x0:x0 + 2]
        well[SOLID[well]] = Material.AIR
    return z0, x0


def _open_a_way_in(lower: np.ndarray, upper: np.ndarray, z0: int, x0: int, flight) -> bool:
    """Open one wall block just outside the well at ``(z0, x0)``, on either level, where that lets
    every level walk into the well (:func:`phase_costs`) and the block touches only walls, the
    well, and open blocks beside (or diagonally beside) the open blocks round the well: two ways
    in that never met at the well, a level whose one way in is the corner under the second step
    while the other's is the top step's diagonal. True if one was opened (in place).

    >>> lower = np.ones((5, 5), np.uint8); lower[1:3, 1:3] = 0; lower[3, 2] = lower[4, 1:3] = 0
    >>> upper = np.ones((5, 5), np.uint8); upper[1:3, 1:3] = 0; upper[1, 0] = 0
    >>> min(phase_costs([(1, 4, lower, upper)], 1, 1)) > 0   # south-east below, north-west above
    True
    >>> _open_a_way_in(lower, upper, 1, 1, (1, 4)), lower[3].tolist()
    (True, [1, 0, 0, 1, 1])
    """
    depth, width = lower.shape
    for plan in (lower, upper):
        near = [(z0 + dz, x0 + dx) for side in SIDES for (dz, dx), _ in side
                if 0 <= z0 + dz < depth and 0 <= x0 + dx < width and not SOLID[plan[z0 + dz, x0 + dx]]]
        for a, b in (spot for side in SIDES for spot, _ in side):
            a, b = z0 + a, x0 + b
            if not (1 <= a < depth - 1 and 1 <= b < width - 1) or plan[a, b] != Material.WALL:
                continue
            joins = [(r, t) for r, t in ((a - 1, b), (a + 1, b), (a, b - 1), (a, b + 1))
                     if not (z0 <= r < z0 + 2 and x0 <= t < x0 + 2) and not SOLID[plan[r, t]]]
            if not joins or not all(any(abs(r - n) <= 1 and abs(t - m) <= 1 for n, m in near) for r, t in joins):
                continue
            plan[a, b] = Material.AIR
            if min(phase_costs([(*flight, lower, upper)], z0, x0)) == 0:
                return True
            plan[a, b] = Material.WALL
    return False


def _cuts_cleanly(plan: np.ndarray, z0: int, x0: int) -> bool:
    """True if opening the 2x2 at ``(z0, x0)`` opens only walls, each touching only walls, the well,
    or open blocks already beside the well's open blocks (no way is shortened by more than a step)."""
    well = plan[z0:z0 + 2, x0:x0 + 2]
    if not _openable(well):
        return False
    near = set()  # open blocks beside the well's open blocks
    for corner, (dz, dx) in enumerate(CORNERS):
        if not SOLID[well[dz, dx]]:
            near.update(_outside(z0, x0, corner))
    for corner, (dz, dx) in enumerate(CORNERS):
        if SOLID[well[dz, dx]] and not all(SOLID[plan[b]] or b in near for b in _outside(z0, x0, corner)):
            return False
    return True


def _outside(z0: int, x0: int, corner: int) -> list[tuple[int, int]]:
    """The two blocks just outside the well at ``(z0, x0)`` that touch ``corner`` (see ``SIDES``)."""
    return [(z0 + dz, x0 + dx) for side in SIDES for (dz, dx), touched in side if touched == corner]


def _open_in_both(lower: np.ndarray, upper: np.ndarray, z0: int, x0: int) -> np.ndarray:
    """bool 2x2: the blocks of the well at ``(z0, x0)`` a well may take in both plans (all False
    where the well would reach outside them)."""
    depth, width = lower.shape
    if not (0 <= z0 < depth - 1 and 0 <= x0 < width - 1):
        return np.zeros((2, 2), dtype=bool)
    window = np.s_[z0:z0 + 2, x0:x0 + 2]
    return _walkable(lower[window]) & _walkable(upper[window])


def _openable(well: np.ndarray) -> bool:
    """True if every block of ``well`` is a wall or open ground (no door or light in the way)."""
    return bool((SOLID[well] | _walkable(well)).all())


def _walkable(plan: np.ndarray) -> np.ndarray:
    """Blocks of a plan a well may take: open, and not a door or a light."""
    return ~SOLID[plan] & (plan != Material.DOOR) & (plan != Material.LIGHT)
