"""A player's view of a build: where a 2-block-tall player can stand and where they can walk.

Independent of blockmaze: it looks only at Minecraft block-state strings (as read back from a
written file) and the game's rules as a player meets them:

* a player occupies two blocks, feet and head; both must be *passable*: air, doors (either half,
  a player opens them), fence gates (likewise), ladders and scaffolding (climbed inside),
  torches, carpets, rails, pressure plates, the invisible ``light`` block;
* the block under the feet must *support* them: any block that is not passable (solid blocks,
  stairs, slabs), a ladder or scaffolding, or the world's ground below the build; the player
  may also hang on a climbable block (ladder, scaffolding) at the feet;
* moves: to a horizontal neighbour (north, east, south, west) at the same height, or one block
  up or down where the lower of the two places has a third passable block over the feet; straight
  up or down while the feet or the block reached are climbable. The game's numbers: a player is
  1.8 blocks tall and 0.6 wide, steps up 0.6 without jumping (a stair's half step) and jumps
  about 1.25. Rising a block, by a stair's two half steps or by a jump, the player is still
  partly over the lower place with its head 2.3 (or 3.05) blocks over that place's floor, so
  a ceiling two blocks up stops it, both ways. A player also jumps across a one-block hole
  (open three blocks high, nothing to stand on) to a place at the same height, where both
  places have the third passable block.

``regions`` labels the stand-able blocks by connected walking region. ``unsupported`` lists
blocks that would fall or pop off: gravity blocks (sand, gravel, concrete powder...) over a
passable block, and torches, carpets, rails, pressure plates, a door's lower half over a
passable block, a door's upper half without its lower half.

>>> import numpy as np
>>> b = np.full((4, 1, 3), "minecraft:air", dtype=object)
>>> b[0] = "minecraft:stone"
>>> labels = regions(b)
>>> int(labels[1, 0, 0]) == int(labels[1, 0, 2]) > 0
True
"""

from __future__ import annotations

import re
from collections import deque

import numpy as np

AIR = {"minecraft:air", "minecraft:cave_air", "minecraft:void_air", "minecraft:light"}
CLIMBABLE = re.compile(r"^minecraft:(ladder|scaffolding|vine|twisting_vines|weeping_vines)$")
PASSABLE = re.compile(
    r"^minecraft:(.*_door|.*_fence_gate|ladder|scaffolding|(.*_)?torch|.*_carpet|(.*_)?rail|"
    r".*_pressure_plate)$"
)
GRAVITY = re.compile(r"^minecraft:(sand|red_sand|gravel|.*_concrete_powder|suspicious_(sand|gravel)|"
                     r"(chipped_|damaged_)?anvil|dragon_egg)$")
NEEDS_FLOOR = re.compile(r"^minecraft:((.*_)?torch|.*_carpet|(.*_)?rail|.*_pressure_plate|snow)$")
STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))


def name(state: str) -> str:
    """The block name of a state string: ``minecraft:oak_door[half=upper]`` -> ``minecraft:oak_door``."""
    return state.split("[", 1)[0]


def properties(state: str) -> dict[str, str]:
    """The properties of a state string."""
    rest = state.partition("[")[2].rstrip("]")
    return dict(pair.split("=", 1) for pair in rest.split(",") if pair)


def classify(blocks: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(passable, support, climbable) boolean arrays for an array of block-state strings."""
    names = np.vectorize(name, otypes=[object])(blocks)
    table = {n: (n in AIR or bool(PASSABLE.match(n)), bool(CLIMBABLE.match(n))) for n in set(names.ravel())}
    passable = np.vectorize(lambda n: table[n][0], otypes=[bool])(names)
    climbable = np.vectorize(lambda n: table[n][1], otypes=[bool])(names)
    support = ~passable | climbable
    return passable, support, climbable


def standable(blocks: np.ndarray, ground: bool = True) -> np.ndarray:
    """bool (y, z, x): feet and head passable, and the feet stand on support or hang on a climbable
    block. Above the build is open air; below it, the ground (if ``ground``)."""
    passable, support, climbable = classify(blocks)
    head = np.ones_like(passable)
    head[:-1] = passable[1:]
    below = np.full(passable.shape, bool(ground))
    below[1:] = support[:-1]
    return passable & head & (below | climbable)


def regions(blocks: np.ndarray, ground: bool = True) -> np.ndarray:
    """int32 (y, z, x): connected walking regions of stand-able blocks, numbered from 1; 0 elsewhere.

    >>> b = np.full((5, 1, 2), "minecraft:air", dtype=object)
    >>> b[0], b[1, 0, 1] = "minecraft:stone", "minecraft:stone_brick_stairs"   # a step up
    >>> bool(regions(b)[1, 0, 0] == regions(b)[2, 0, 1])
    True
    >>> b[3, 0, 0] = "minecraft:stone"           # a ceiling two blocks over the lower place
    >>> bool(regions(b)[1, 0, 0] == regions(b)[2, 0, 1])
    False
    """
    passable, _, climbable = classify(blocks)
    over_head = np.ones_like(passable)
    over_head[:-2] = passable[2:]
    stand = standable(blocks, ground)
    head = np.ones_like(passable)
    head[:-1] = passable[1:]
    hole = passable & head & over_head & ~stand
    return label_walks(stand, climbable, over_head, hole)


def label_walks(stand: np.ndarray, climbable: np.ndarray | None = None,
                rise: np.ndarray | None = None, hole: np.ndarray | None = None,
                leap: int = 1, leap_step: int = 0) -> np.ndarray:
    """int32 (y, z, x): ``stand`` cells joined by moves to a horizontal neighbour at the same
    height, or one cell up or down where ``rise`` holds at the lower of the two cells (all
    cells if None), straight up or down where either cell is ``climbable``, and across ``leap``
    cells of ``hole`` in a line (holes at both heights) to a cell at most ``leap_step`` cells
    higher or lower where ``rise`` holds at both ends (a jump); regions numbered from 1, 0
    elsewhere.

    >>> stand = np.zeros((2, 1, 4), bool); stand[0, 0, 0] = stand[1, 0, 3] = True
    >>> room = np.ones_like(stand); hole = ~stand
    >>> [int(label_walks(stand, rise=room, hole=hole, leap=2, leap_step=s)[1, 0, 3]) for s in (0, 1)]
    [2, 1]
    """
    height, depth, width = stand.shape
    labels = np.zeros(stand.shape, dtype=np.int32)
    count = 0
    for start in zip(*np.nonzero(stand), strict=True):
        if labels[start]:
            continue
        count += 1
        labels[start] = count
        queue = deque([start])
        while queue:
            y, z, x = queue.popleft()
            moves = [(y + dy, z + dz, x + dx) for dz, dx in STEPS for dy in (-1, 0, 1)]
            if hole is not None and rise[y, z, x]:
                moves += [(y + dy, z + dz * (leap + 1), x + dx * (leap + 1)) for dz, dx in STEPS
                          for dy in range(-leap_step, leap_step + 1)
                          if 0 <= y + dy < height and 0 <= z + dz * (leap + 1) < depth
                          and 0 <= x + dx * (leap + 1) < width
                          and rise[y + dy, z + dz * (leap + 1), x + dx * (leap + 1)]
                          and all(hole[h, z + dz * k, x + dx * k] for k in range(1, leap + 1)
                                  for h in {y, y + dy})]
            if climbable is not None:
                moves += [(y + dy, z, x) for dy in (-1, 1)
                          if 0 <= y + dy < height and (climbable[y, z, x] or climbable[y + dy, z, x])]
            for ny, nz, nx in moves:
                if not (0 <= ny < height and 0 <= nz < depth and 0 <= nx < width) \
                        or not stand[ny, nz, nx] or labels[ny, nz, nx]:
                    continue
                if rise is not None and ny != y and abs(nz - z) + abs(nx - x) == 1 \
                        and not (rise[y, z, x] if y < ny else rise[ny, nz, nx]):
                    continue  # a step up or down with a ceiling over the lower place
                labels[ny, nz, nx] = count
                queue.append((ny, nz, nx))
    return labels


def unsupported(blocks: np.ndarray) -> list[tuple[int, int, int, str]]:
    """(y, z, x, state) of every block that would fall or pop off (see the module docstring)."""
    passable, _, _ = classify(blocks)
    found = []
    for y, z, x in zip(*np.nonzero(np.ones(blocks.shape, dtype=bool)), strict=True):
        state = blocks[y, z, x]
        n = name(state)
        if y == 0 or not (GRAVITY.match(n) or NEEDS_FLOOR.match(n) or n.endswith("_door")):
            continue
        below = blocks[y - 1, z, x]
        if n.endswith("_door") and properties(state).get("half") == "upper":
            if name(below) != n or properties(below).get("half") != "lower":
                found.append((int(y), int(z), int(x), state))
        elif passable[y - 1, z, x] and not CLIMBABLE.match(name(below)):
            found.append((int(y), int(z), int(x), state))
    return found


def region_of(labels: np.ndarray, y: int, z: int, x: int) -> int:
    """The region of a player whose feet are at (y, z, x), or of one standing on the block there."""
    for dy in (0, 1):
        if 0 <= y + dy < labels.shape[0] and labels[y + dy, z, x]:
            return int(labels[y + dy, z, x])
    return 0
