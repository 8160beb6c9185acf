"""Lighting a maze so no hostile mob spawns in its passages.

Since Minecraft 1.18 hostile mobs spawn only where block light is 0. A light block of level 15
(sea lantern, glowstone) set into the floor lights the air block above it to 14, and light loses
one level per block it travels through air. So a walkable block (air on top of the floor) within
13 steps of the block above a light, walking through air, has block light >= 1.

:func:`place_lights` sets LIGHT blocks into the floor until every walkable block is within reach
of one: it takes the first walkable block not yet lit (in y, z, x order), walks up to ``reach``
steps from it, and puts the light under the farthest unlit block it reached, so one light covers
as much new ground as it can while still lighting the block that asked for it. Light travelling
over walls or through glass only adds to this, so the guarantee holds for every theme.
:func:`block_light` computes the light levels the game would, to check the result.
"""

from __future__ import annotations

from ..support.breadth import FOUR, NO_LABELS, NO_PARENTS, SIX, block_breadth_first
from ..support.kernels import kernel
import numpy as np

from ..errors import BlockmazeError
from ..materials import SOLID, Material

LIGHT_LEVEL = 15
REACH = LIGHT_LEVEL - 2  # the block above the light has 14; 13 more steps leave 1

# blocks a walker stands on (markers and lights lie in floors)
STANDS_ON = np.zeros(256, dtype=bool)
STANDS_ON[[Material.WALL, Material.FLOOR, Material.ROOF, Material.PATH, Material.START,
           Material.GOAL, Material.LIGHT, Material.CHECKPOINT, Material.EXIT]] = True


@kernel
def _place(walkable, floor_is_plain, floor_is_end, reach):
    z_size, x_size = walkable.shape
    passable = walkable.ravel()
    plain = floor_is_plain.ravel()
    end = floor_is_end.ravel()
    lit = np.zeros(z_size * x_size, dtype=np.bool_)
    lights = np.zeros((z_size, x_size), dtype=np.bool_)
    depth = np.full(z_size * x_size, -1, dtype=np.int32)
    queue = np.empty(z_size * x_size, dtype=np.int64)
    shape = np.array([1, z_size, x_size], dtype=np.int64)
    no_parents = np.empty(0, dtype=np.int64)
    for start in range(z_size * x_size):
        if not passable[start] or lit[start]:
            continue
        # walk up to `reach` steps from the unlit block; choose the farthest unlit plain-floor block,
        # else the farthest plain-floor block, else the nearest marker that is not START or GOAL
        # (the block itself, or a path block beside an end), else the block itself
        queue[0] = start
        depth[start] = 0
        count = block_breadth_first(passable, shape, FOUR, depth, queue, 1, reach, no_parents, NO_LABELS)
        best, best_depth, fallback, fallback_depth = -1, -1, -1, -1
        marker, marker_depth = start, -1
        for i in range(count):
            cell = queue[i]
            d = depth[cell]
            if plain[cell]:
                if not lit[cell] and d > best_depth:
                    best, best_depth = cell, d
                if d > fallback_depth:
                    fallback, fallback_depth = cell, d
            elif not end[cell] and (marker_depth < 0 or d < marker_depth):
                marker, marker_depth = cell, d
            depth[cell] = -1
        if best < 0:
            best = fallback if fallback >= 0 else marker
        lights[best // x_size, best % x_size] = True
        # everything within `reach` of the light is lit
        queue[0] = best
        depth[best] = 0
        count = block_breadth_first(passable, shape, FOUR, depth, queue, 1, reach, no_parents, NO_LABELS)
        for i in range(count):
            lit[queue[i]] = True
            depth[queue[i]] = -1
    return lights


def place_lights(volume: np.ndarray, reach: int = REACH) -> np.ndarray:
    """A copy of a volume with LIGHT blocks set into its floors.

    Walkable blocks are the AIR blocks that stand on a block (FLOOR, WALL, a marker...), on any
    layer: the one walking layer of an extruded maze, every level of a stacked maze, every cell
    layer of a 3-D blockwise maze. Each layer is lit on its own (light that also reaches other
    layers only adds). Lights replace plain FLOOR blocks, so the marked solution stays visible;
    only where no plain floor is within reach (a tiny maze that is all solution) does a light
    replace a marker: a path block, and START or GOAL only where nothing else is in reach.

    Example
    -------
    >>> from blockmaze import generate, to_blocks, extrude
    >>> volume = extrude(to_blocks(generate((10, 10), rng=1)), height=3)
    >>> lit = place_lights(volume)
    >>> int((lit == Material.LIGHT).sum()) > 0, bool((block_light(lit)[1][~SOLID[lit[1]]] >= 1).all())
    (True, True)
    """
    volume = np.asarray(volume, dtype=np.uint8)
    if volume.ndim != 3 or volume.shape[0] < 2:
        raise BlockmazeError("lights go into the floor: the volume needs a floor layer and a layer above it")
    lit = volume.copy()
    found = False
    for y in range(1, volume.shape[0]):
        below = volume[y - 1]
        walkable = (volume[y] == Material.AIR) & STANDS_ON[below]
        if not walkable.any():
            continue
        found = True
        ends = np.isin(below, (Material.START, Material.GOAL, Material.CHECKPOINT, Material.EXIT))
        lights = _place(walkable, below == Material.FLOOR, ends, int(reach))
        lit[y - 1][lights] = Material.LIGHT
    if not found:
        raise BlockmazeError("lights go into the floor: the volume needs a floor under its open blocks")
    return lit


def _light(opaque, sources, level):
    """Light levels: ``level`` at the sources, one less a step through blocks that are not opaque
    (breadth-first, so each block gets its highest level first)."""
    lights = np.flatnonzero(sources)
    count = lights.size
    queue = np.empty(opaque.size, dtype=np.int64)
    queue[:count] = lights
    distance = np.full(opaque.size, -1, dtype=np.int32)
    distance[lights] = 0
    block_breadth_first(~opaque.ravel(), np.array(opaque.shape, np.int64), SIX, distance, queue, count,
                        max(level - 1, 0), NO_PARENTS, NO_LABELS)
    light = np.where(distance >= 0, level - distance, 0).astype(np.int8)
    return light.reshape(opaque.shape)


def block_light(volume: np.ndarray, level: int = LIGHT_LEVEL) -> np.ndarray:
    """Block light of every block, as the game spreads it: LIGHT blocks emit ``level``; each step
    through a non-solid block loses one; solid blocks stop it (a conservative model: glass and
    leaves let light through in the game, which only adds light)."""
    volume = np.asarray(volume, dtype=np.uint8)
    return _light(SOLID[volume], volume == Material.LIGHT, int(level))
