"""Blocks: uint8 material arrays, (z, x) plans and (y, z, x) volumes, and the conversions to them.

Each name is imported from its module on first use (``convert``, ``raster``, ``stack``,
``volume``), so using one conversion loads only its module. The blockwise generators (strict,
relaxed) and their sizing are in :mod:`blockmaze.blockwise`.

>>> from blockmaze.blocks import plan_shape
>>> plan_shape(2, 3)
(5, 7)
"""

from __future__ import annotations

from ..support.lazy import exports

_EXPORTS = {
    "from_blocks": "convert", "plan_shape": "convert", "to_blocks": "convert",
    "MIN_SCALE": "raster", "min_scale": "raster", "rasterize": "raster",
    "rasterize_labels": "raster",
    "level_plans": "stack", "level_tiles": "stack",
    "stack_levels": "stack", "stack_plans": "stack",
    "extrude": "volume", "volume_height": "volume",
}

__all__ = sorted(_EXPORTS)
__getattr__ = exports(__name__, _EXPORTS, globals())
