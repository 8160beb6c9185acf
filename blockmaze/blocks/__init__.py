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
_exported = exports(__name__, _EXPORTS, globals())
# the blockwise generators moved to blockmaze.blockwise: the old names warn and forward
_MOVED = ("fit_plan", "fit_strict", "from_runs", "relaxed_layout", "relaxed_plan", "strict_layout",
          "strict_plan", "strict_volume_3d")


def __getattr__(name: str):
    if name in _MOVED:
        import warnings

        from .. import blockwise

        warnings.warn(f"blockmaze.blocks.{name} is now blockmaze.blockwise.{name}",
                      DeprecationWarning, stacklevel=2)
        return getattr(blockwise, name)
    return _exported(name)
