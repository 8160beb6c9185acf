"""Which way oriented blocks face, derived from their neighbours in a (y, z, x) volume.

One rule serves every output: Minecraft block states (``facing=``), mesh geometry (stair steps)
and tile maps. Directions are numbered as Minecraft names them: NORTH (-z), EAST (+x), SOUTH (+z),
WEST (-x); ``NONE`` where a block is not of the asked material or no rule applies.

A STAIRS block *rises toward* its facing: the walker steps onto it and up in that direction,
as a Minecraft ``stairs[facing=...]`` block placed by a player who faces uphill. Its facing is
the first direction (N, E, S, W) whose neighbour one layer up is STAIRS too (the next step);
failing that, the first whose neighbour one layer up is open and stands on something solid or
a stair (the landing at the top); failing that, away from a neighbour one layer down that is
STAIRS (the top step of a spiral whose landing is a hole cut for head room: it still rises from
the step below).

Example
-------
>>> import numpy as np
>>> from blockmaze.materials import Material
>>> v = np.zeros((3, 1, 3), np.uint8)
>>> v[0] = Material.FLOOR
>>> v[1, 0, 0], v[1, 0, 1] = Material.STAIRS, Material.WALL   # a step, then a landing to the east
>>> int(stair_facing(v)[1, 0, 0]) == EAST
True
"""

from __future__ import annotations

import numpy as np

from ..materials import SOLID, Material

NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3
NONE = 255
NAMES = ("north", "east", "south", "west")
STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))  # (dz, dx) for NORTH, EAST, SOUTH, WEST
OPPOSITE = (SOUTH, WEST, NORTH, EAST)

# materials that are blocks in a volume (markers lie in the floor, lights are blocks)
BLOCK = np.zeros(256, dtype=bool)
BLOCK[[Material.WALL, Material.FLOOR, Material.ROOF, Material.PATH, Material.START, Material.GOAL,
       Material.LIGHT, Material.CHECKPOINT, Material.EXIT]] = True


def _shifted(mask: np.ndarray, dz: int, dx: int) -> np.ndarray:
    """``out[y, z, x] = mask[y, z + dz, x + dx]``, False outside the volume."""
    out = np.zeros_like(mask)
    depth, width = mask.shape[1:]
    zs = slice(max(0, -dz), depth - max(0, dz))
    xs = slice(max(0, -dx), width - max(0, dx))
    out[:, zs, xs] = mask[:, zs.start + dz: zs.stop + dz, xs.start + dx: xs.stop + dx]
    return out


def stair_facing(volume: np.ndarray) -> np.ndarray:
    """uint8 (y, z, x): the direction each STAIRS block rises toward, NONE elsewhere (see module)."""
    volume = np.asarray(volume)
    stairs = volume == Material.STAIRS
    solid = BLOCK[volume] | stairs  # (a floor marked as the path is a floor to land on)
    up = np.zeros_like(stairs)  # up[y] = layer y + 1
    landing = np.zeros_like(stairs)
    below = np.zeros_like(stairs)  # below[y] = layer y - 1
    up[:-1] = stairs[1:]
    landing[:-1] = ~solid[1:] & solid[:-1]
    below[1:] = stairs[:-1]
    facing = np.full(volume.shape, NONE, dtype=np.uint8)
    # lowest priority first, so later (higher-priority) matches overwrite earlier ones
    for direction in (WEST, SOUTH, EAST, NORTH):
        facing[stairs & _shifted(below, *STEPS[direction])] = OPPOSITE[direction]
    for rule in (landing, up):
        for direction in (WEST, SOUTH, EAST, NORTH):
            facing[stairs & _shifted(rule, *STEPS[direction])] = direction
    return facing


def passage_axis(volume: np.ndarray, material: int) -> np.ndarray:
    """uint8 (y, z, x) for blocks of ``material`` (doors, gates): NORTH where the way through runs
    north-south (solid to the west and east), EAST where it runs east-west, NONE elsewhere.

    >>> from blockmaze.materials import Material
    >>> v = np.array([[[1, 7, 1]]], np.uint8)   # a door between two walls, east and west of it
    >>> int(passage_axis(v, Material.DOOR)[0, 0, 1]) == NORTH
    True
    """
    volume = np.asarray(volume)
    here = volume == material
    solid = SOLID[volume]
    walls_we = _shifted(solid, *STEPS[WEST]) & _shifted(solid, *STEPS[EAST])
    walls_ns = _shifted(solid, *STEPS[NORTH]) & _shifted(solid, *STEPS[SOUTH])
    axis = np.full(volume.shape, NONE, dtype=np.uint8)
    axis[here & walls_we] = NORTH
    axis[here & walls_ns & ~walls_we] = EAST
    return axis


def ladder_facing(volume: np.ndarray) -> np.ndarray:
    """uint8 (y, z, x): for STAIRS blocks, the direction a ladder there faces (away from the first
    block beside it, in the order north, east, south, west); NONE without one.

    >>> v = np.array([[[1, 8, 0]]], np.uint8)   # a wall west of the ladder
    >>> NAMES[int(ladder_facing(v)[0, 0, 1])]
    'east'
    """
    volume = np.asarray(volume)
    solid = BLOCK[volume]
    stairs = volume == Material.STAIRS
    facing = np.full(volume.shape, NONE, dtype=np.uint8)
    for direction in (WEST, SOUTH, EAST, NORTH):  # lowest priority first
        facing[stairs & _shifted(solid, *STEPS[direction])] = OPPOSITE[direction]
    return facing
