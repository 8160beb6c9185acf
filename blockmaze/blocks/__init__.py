"""Blocks: uint8 material arrays, (z, x) plans and (y, z, x) volumes, and the conversions to them."""

from .convert import from_blocks, plan_shape, to_blocks
from .raster import MIN_SCALE, min_scale, rasterize, rasterize_labels
from .stack import stack_dungeon, stack_levels, stack_plans
from .relaxed import relaxed_layout, relaxed_plan
from .sizing import fit_plan, fit_strict, from_runs
from .strict import strict_layout, strict_plan, strict_volume_3d
from .volume import extrude, volume_height

__all__ = ["MIN_SCALE", "min_scale", "rasterize", "rasterize_labels", "stack_levels",
           "stack_dungeon", "stack_plans",
           "extrude", "fit_plan", "fit_strict", "from_blocks", "from_runs", "plan_shape",
           "relaxed_layout", "relaxed_plan", "strict_layout", "strict_plan", "strict_volume_3d",
           "to_blocks", "volume_height"]
