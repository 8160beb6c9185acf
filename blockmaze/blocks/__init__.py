"""Blocks: uint8 material arrays, (z, x) plans and (y, z, x) volumes, and the conversions to them."""

from .convert import from_blocks, plan_shape, to_blocks
from .volume import extrude, volume_height

__all__ = ["extrude", "from_blocks", "plan_shape", "to_blocks", "volume_height"]
