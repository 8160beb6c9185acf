"""Blocks: uint8 material arrays, (z, x) plans and (y, z, x) volumes, and the conversions to them.

Each name is imported from its module on first use (``convert``, ``raster``, ``stack``,
``relaxed``, ``sizing``, ``strict``, ``volume``), so using one conversion loads only its module.

>>> from blockmaze.blocks import plan_shape
>>> plan_shape(2, 3)
(5, 7)
"""

from __future__ import annotations

from ..lazy import exports

_EXPORTS = {
    "from_blocks": "convert", "plan_shape": "convert", "to_blocks": "convert",
    "MIN_SCALE": "raster", "min_scale": "raster", "rasterize": "raster",
    "rasterize_labels": "raster",
    "level_plans": "stack", "level_tiles": "stack",
    "stack_levels": "stack", "stack_dungeon": "stack", "stack_plans": "stack",
    "relaxed_layout": "relaxed", "relaxed_plan": "relaxed",
    "fit_plan": "sizing", "fit_strict": "sizing", "from_runs": "sizing",
    "strict_layout": "strict", "strict_plan": "strict", "strict_volume_3d": "strict",
    "extrude": "volume", "volume_height": "volume",
}

__all__ = sorted(_EXPORTS)
__getattr__ = exports(__name__, _EXPORTS, globals())
