"""Roguelike levels: one module per level style, sharing the Dungeon value they return.

>>> from blockmaze.dungeon import generate_dungeon
>>> len(generate_dungeon((12, 16), 3).levels)
1
>>> generate_dungeon((12, 16), 3, style="bsp").plan.shape
(25, 33)
"""

from .level import Dungeon, DungeonLevel, Entity
from .styles import STYLES, generate_dungeon, parse_spawns

__all__ = ["Dungeon", "DungeonLevel", "Entity", "STYLES", "generate_dungeon", "parse_spawns"]
