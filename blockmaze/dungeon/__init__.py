"""Roguelike levels: one module per level style, sharing the Dungeon value they return.

:data:`STYLES` names the styles without importing them; the rest is imported on first use.

>>> from blockmaze.dungeon import generate_dungeon
>>> len(generate_dungeon((12, 16), 3).levels)
1
>>> generate_dungeon((12, 16), 3, style="bsp").plan.shape
(25, 33)
"""

from __future__ import annotations

from ..support.lazy import exports

STYLES = ("rooms-and-mazes", "caves", "bsp", "digger", "mixed")  # checked against styles.CARVERS

_EXPORTS = {"Dungeon": "level", "DungeonLevel": "level", "Entity": "level",
            "generate_dungeon": "styles", "parse_spawns": "styles", "stack_dungeon": "stack"}
__all__ = ["STYLES", *sorted(_EXPORTS)]
__getattr__ = exports(__name__, _EXPORTS, globals())
