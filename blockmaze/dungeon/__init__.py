"""Roguelike levels: one module per level style, sharing the Dungeon value they return.

>>> from blockmaze.dungeon import generate_dungeon
>>> len(generate_dungeon((12, 16), 3).levels)
1
"""

from .rooms_and_mazes import Dungeon, DungeonLevel, generate_dungeon

__all__ = ["Dungeon", "DungeonLevel", "generate_dungeon"]
