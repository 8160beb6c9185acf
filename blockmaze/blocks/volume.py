"""Extruding a plan (z, x) into a volume (y, z, x): floor, walls of a height, optional roof.

Every material of the plan reaches the volume:

* WALL (and any other solid material) stands ``height`` layers high;
* PATH, START and GOAL mark the floor beneath them (without a floor, the bottom layer);
* DOOR is a doorway: a two-block door (its lower and upper half, DOOR both) on the walking
  layer and the one above, wall over it up to the wall height (a door needs ``height >= 2``:
  with ``height=1`` the doorway stays open);
* LIGHT in the open (beside a walkable block) is set into the floor under an open block; LIGHT
  enclosed by solid blocks on all four sides (a relaxed maze's ``fill``) is a column of light
  blocks, wall height, like the wall it replaces;
* STAIRS in the open is one step on the walking layer; enclosed, a column of STAIRS (a shaft of
  ladders or scaffolding in a theme) wall height.
"""

from __future__ import annotations

import numpy as np

from ..errors import BlockmazeError
from ..materials import MARKERS, SOLID, Material
from ..support.memory import ensure_memory


def volume_height(height: int = 3, floor: bool = True, roof: bool = False) -> int:
    """Layers in an extruded volume.

    >>> volume_height(3, floor=True, roof=True)
    5
    """
    if isinstance(height, bool) or not isinstance(height, (int, np.integer)) or height < 1:
        raise BlockmazeError(f"wall height must be a whole number >= 1, got {height!r}")
    return int(height) + bool(floor) + bool(roof)


def enclosed(plan: np.ndarray) -> np.ndarray:
    """bool (z, x): blocks with no walkable block (AIR or a marker) among their four neighbours.

    >>> enclosed(np.array([[1, 9, 1], [1, 0, 1]], np.uint8)).tolist()
    [[True, False, True], [False, True, False]]
    """
    plan = np.asarray(plan)
    walkable = (plan == Material.AIR) | MARKERS[plan]
    near = np.zeros(plan.shape, dtype=bool)
    near[1:] |= walkable[:-1]
    near[:-1] |= walkable[1:]
    near[:, 1:] |= walkable[:, :-1]
    near[:, :-1] |= walkable[:, 1:]
    return ~near


def extrude(plan: np.ndarray, height: int = 3, floor: bool = True, roof: bool = False) -> np.ndarray:
    """Stand a plan up: ``height`` layers of its solid blocks, on a FLOOR layer, under a ROOF layer.

    Doors, lights and stairs keep their blocks (see the module docstring).

    Parameters
    ----------
    plan : numpy.ndarray
        A ``uint8`` ``(z, x)`` plan of materials.
    height : int
        How many layers the walls stand.
    floor, roof : bool
        Whether a FLOOR layer goes under the walls and a ROOF layer over them.

    Returns
    -------
    numpy.ndarray
        The ``uint8`` ``(y, z, x)`` volume, ``height + floor + roof`` layers high.

    Examples
    --------
    >>> plan = np.array([[1, 0, 1]], dtype=np.uint8)
    >>> extrude(plan, height=2, roof=True)[:, 0].tolist()   # layers bottom to top
    [[2, 2, 2], [1, 0, 1], [1, 0, 1], [3, 3, 3]]
    >>> extrude(np.array([[1, 7, 1]], np.uint8), height=3)[:, 0, 1].tolist()   # a door, wall above
    [2, 7, 7, 1]
    """
    plan = np.asarray(plan, dtype=np.uint8)
    if plan.ndim != 2:
        raise BlockmazeError(f"extrude takes a 2-D plan (z, x), got shape {plan.shape}")
    layers = volume_height(height, floor, roof)
    ensure_memory(layers * plan.size, f"a {plan.shape[1]}x{layers}x{plan.shape[0]}-block volume")
    volume = np.empty((layers,) + plan.shape, dtype=np.uint8)
    door, light, stairs = (plan == Material.DOOR), (plan == Material.LIGHT), (plan == Material.STAIRS)
    columns = SOLID[plan]  # whole-height columns of their material
    shut = enclosed(plan) if light.any() or stairs.any() else None  # (walls and air need none)
    if shut is not None:
        columns |= (light | stairs) & shut
    walls = plan * columns  # AIR (0) outside the columns
    first = int(bool(floor))
    volume[first: first + height] = walls
    if height >= 2 and door.any():
        volume[first: first + 2][:, door] = Material.DOOR
        volume[first + 2: first + height][:, door] = Material.WALL
    ground = MARKERS[plan]  # what shows in the floor
    if shut is not None:
        volume[first][stairs & ~shut] = Material.STAIRS
        ground |= light & ~shut
    if not ground.any():
        if floor:
            volume[0] = Material.FLOOR
    elif floor:
        volume[0] = np.where(ground, plan, np.uint8(Material.FLOOR))
    else:
        volume[0] = np.where(ground, plan, volume[0])
    if roof:
        volume[-1] = Material.ROOF
    return volume
