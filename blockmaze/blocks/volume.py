"""Extruding a plan (z, x) into a volume (y, z, x): floor, walls of a height, optional roof."""

from __future__ import annotations

import numpy as np

from ..errors import BlockmazeError
from ..materials import MARKERS, SOLID, Material
from ..resources import ensure_memory


def volume_height(height: int = 3, floor: bool = True, roof: bool = False) -> int:
    """Layers in an extruded volume.

    >>> volume_height(3, floor=True, roof=True)
    5
    """
    if isinstance(height, bool) or not isinstance(height, (int, np.integer)) or height < 1:
        raise BlockmazeError(f"wall height must be a whole number >= 1, got {height!r}")
    return int(height) + bool(floor) + bool(roof)


def extrude(plan: np.ndarray, height: int = 3, floor: bool = True, roof: bool = False) -> np.ndarray:
    """Stand a plan up: ``height`` layers of its solid blocks, on a FLOOR layer, under a ROOF layer.

    Marker blocks (PATH, START, GOAL) of the plan show in the floor beneath them (without a floor,
    in the bottom layer).

    Example
    -------
    >>> plan = np.array([[1, 0, 1]], dtype=np.uint8)
    >>> extrude(plan, height=2, roof=True)[:, 0].tolist()   # layers bottom to top
    [[2, 2, 2], [1, 0, 1], [1, 0, 1], [3, 3, 3]]
    """
    plan = np.asarray(plan, dtype=np.uint8)
    if plan.ndim != 2:
        raise BlockmazeError(f"extrude takes a 2-D plan (z, x), got shape {plan.shape}")
    layers = volume_height(height, floor, roof)
    ensure_memory(layers * plan.size, f"a {plan.shape[1]}x{layers}x{plan.shape[0]}-block volume")
    volume = np.empty((layers,) + plan.shape, dtype=np.uint8)
    walls = np.where(SOLID[plan], plan, np.uint8(Material.AIR))
    first = 0
    if floor:
        volume[0] = np.where(MARKERS[plan], plan, np.uint8(Material.FLOOR))
        first = 1
    volume[first : first + height] = walls
    if not floor:
        volume[0] = np.where(MARKERS[plan], plan, volume[0])
    if roof:
        volume[-1] = Material.ROOF
    return volume
