"""The values every level style returns: :class:`Dungeon` and :class:`DungeonLevel` (its things
on the plan are :class:`~blockmaze.entities.Entity` values).

Example
-------
>>> Entity("stairs", 3, 5, {"direction": "down", "level": 2}).kind
'stairs'
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..entities import Entity


@dataclass(frozen=True, eq=False)
class DungeonLevel:
    """One level of a dungeon.

    Attributes
    ----------
    plan : uint8 array (z, x)
        The block plan: WALL, AIR, DOOR, and START/GOAL/STAIRS on the two endpoint blocks.
    rooms : int array (k, 4)
        One row ``(z0, x0, z1, x1)`` per room, block bounds with the end excluded:
        ``plan[z0:z1, x0:x1]`` is the room's open floor (all bounds odd in rooms-and-mazes).
    doors : int array (k, 2)
        ``(z, x)`` of every DOOR block, in raster order.
    loops : int array (k, 2)
        ``(z, x)`` of the wall blocks opened by the shortcut rule (rooms-and-mazes), in order.
    start, goal : tuple of int
        ``(z, x)`` blocks of this level's start and goal (odd coordinates in rooms-and-mazes, any
        walkable block in the other styles).
    style : str
        The level style that made it.
    entities : tuple of Entity
        Stairs with their direction and target level, the locked door and its key, spawns.
    metrics : dict
        :func:`blockmaze.dungeon.metrics.level_metrics` of the finished plan (empty if not asked).
    """

    plan: np.ndarray
    rooms: np.ndarray
    doors: np.ndarray
    loops: np.ndarray
    start: tuple[int, int]
    goal: tuple[int, int]
    style: str = "rooms-and-mazes"
    entities: tuple[Entity, ...] = ()
    metrics: dict = field(default_factory=dict)

    @property
    def marked_plan(self) -> np.ndarray:
        """A copy of the plan with its spawn points drawn as MONSTER, ITEM and TREASURE blocks
        (markers: a block format sets them in the floor, Minecraft as spawners and chests).

        >>> from blockmaze.dungeon import generate_dungeon
        >>> level = generate_dungeon((10, 10), rng=1, spawns=(2, 1, 1)).levels[0]
        >>> sorted(int(m) for m in np.unique(level.marked_plan) if m not in np.unique(level.plan))
        [10, 11, 12]
        """
        from ..materials import Material

        plan = self.plan.copy()
        kinds = {"monster": Material.MONSTER, "item": Material.ITEM, "treasure": Material.TREASURE}
        for entity in self.entities:
            if entity.kind in kinds:
                plan[entity.z, entity.x] = kinds[entity.kind]
        return plan


@dataclass(frozen=True, eq=False)
class Dungeon:
    """The levels of a dungeon, top first.

    Example
    -------
    >>> from blockmaze.dungeon import generate_dungeon
    >>> d = generate_dungeon((10, 10), rng=1)
    >>> d.plan.shape, len(d.levels)
    ((21, 21), 1)
    """

    levels: tuple[DungeonLevel, ...]

    @property
    def plan(self) -> np.ndarray:
        """The first level's plan (the only one unless ``levels > 1``)."""
        return self.levels[0].plan

    @property
    def plans(self) -> np.ndarray:
        """Every level's plan stacked: ``uint8 (levels, z, x)``."""
        return np.stack([level.plan for level in self.levels])
