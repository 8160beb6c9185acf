"""A multi-level dungeon as one volume: its level plans stacked as :mod:`blockmaze.blocks.stack`
stacks a layered maze's levels, joined by the same stairwells."""

from __future__ import annotations

import numpy as np

from ..blocks.stack import stack_plans
from ..materials import Material


def stack_dungeon(dungeon, height: int = 3, floor: bool = True, roof: bool = True) -> np.ndarray:
    """One volume of a multi-level dungeon: its levels stacked, the first (top) level on top, each
    level's down stairs a STAIRS shaft to the level below (whose up stairs are at the same block).

    >>> from blockmaze.dungeon import generate_dungeon
    >>> d = generate_dungeon((6, 8), rng=4, levels=3)
    >>> v = stack_dungeon(d, height=3)
    >>> v.shape, int((v == Material.START).sum()), int((v == Material.GOAL).sum())
    ((13, 13, 17), 1, 1)
    """
    levels = list(dungeon.levels)[::-1]  # bottom first
    plans = []
    for level in levels:
        plan = level.marked_plan  # spawn points in the floor
        plan[plan == Material.STAIRS] = Material.AIR  # the shafts take their place
        plans.append(plan)
    shafts = [(index, *levels[index + 1].goal) for index in range(len(levels) - 1)]
    return stack_plans(plans, shafts, height, floor=floor, roof=roof, carve=True)
