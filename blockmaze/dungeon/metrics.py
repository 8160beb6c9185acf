"""Numbers that describe a finished level, to tune styles by.

* ``walkable_share`` — walkable blocks / all blocks;
* ``rooms`` — rooms the style built (caves have none);
* ``dead_ends`` — walkable blocks with exactly one walkable side neighbour;
* ``loops`` — independent cycles around rock: the walkable graph's cycle rank (edges - blocks +
  regions) less its open 2x2 squares, i.e. how many separate pillars or wall islands a walker can
  walk around (a plain open room has none);
* ``longest_path`` — the longest shortest walk in blocks, by a double sweep (from the start to
  the farthest block, then the farthest from there: exact on trees, a lower bound otherwise).

Example
-------
>>> plan = np.ones((5, 5), np.uint8); plan[1:4, 1:4] = 0; plan[2, 2] = 1
>>> level_metrics(plan, np.empty((0, 4)), (1, 1))
{'walkable_share': 0.32, 'rooms': 0, 'dead_ends': 0, 'loops': 1, 'longest_path': 4}
"""

from __future__ import annotations

import numpy as np

from ..materials import SOLID
from .connect import degrees, distances, region_labels


def level_metrics(plan: np.ndarray, rooms: np.ndarray, start: tuple[int, int]) -> dict:
    """The metrics above for one level's plan (``start``: a walkable block)."""
    walkable = ~SOLID[plan]
    edges = int((walkable[:, :-1] & walkable[:, 1:]).sum() + (walkable[:-1] & walkable[1:]).sum())
    squares = int((walkable[:-1, :-1] & walkable[1:, :-1] & walkable[:-1, 1:] & walkable[1:, 1:]).sum())
    blocks = int(walkable.sum())
    regions = int(region_labels(walkable)[1].size)
    first = distances(walkable, *start)
    far = np.unravel_index(int(np.argmax(first)), plan.shape)
    return {
        "walkable_share": round(blocks / plan.size, 4),
        "rooms": int(len(rooms)),
        "dead_ends": int((degrees(walkable) == 1).sum()),
        "loops": edges - blocks + regions - squares,
        "longest_path": int(distances(walkable, int(far[0]), int(far[1])).max()),
    }


def metrics_text(metrics: dict) -> str:
    """One line for the terminal.

    >>> metrics_text({'walkable_share': 0.32, 'rooms': 0, 'dead_ends': 0, 'loops': 1, 'longest_path': 4})
    'walkable 32.0%, 0 rooms, 0 dead ends, 1 loop, longest shortest path 4 blocks'
    """
    from ..support.wording import counted

    return (f"walkable {metrics['walkable_share']:.1%}, {counted(metrics['rooms'], 'room')}, "
            f"{counted(metrics['dead_ends'], 'dead end')}, {counted(metrics['loops'], 'loop')}, "
            f"longest shortest path {counted(metrics['longest_path'], 'block')}")


def level_analysis(level) -> dict:
    """``bm.analyze`` of one dungeon level: :func:`level_metrics`, the share of its walkable
    blocks outside every room (``corridor_share``) and the steps from its start to its goal
    (``solution``, blocks).

    >>> from blockmaze.dungeon import generate_dungeon
    >>> facts = level_analysis(generate_dungeon((10, 10), rng=1).levels[0])
    >>> 0 <= facts["corridor_share"] <= 1, facts["solution"] > 0
    (True, True)
    """
    plan = level.plan
    walkable = ~SOLID[plan]
    in_room = np.zeros(plan.shape, dtype=bool)
    for z0, x0, z1, x1 in np.asarray(level.rooms).reshape(-1, 4).tolist():
        in_room[z0:z1, x0:x1] = True
    blocks = int(walkable.sum())
    facts = dict(level_metrics(plan, level.rooms, level.start))
    facts["corridor_share"] = round(int((walkable & ~in_room).sum()) / max(blocks, 1), 4)
    facts["solution"] = int(distances(walkable, *level.start)[level.goal])
    return facts

