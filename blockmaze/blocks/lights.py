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

from ..support.kernels import kernel
import numpy as np

from ..errors import BlockmazeError
from ..materials import SOLID, Material

LIGHT_LEVEL = 15
REACH = LIGHT_LEVEL - 2  # the block above the light has 14; 13 more steps leave 1

# blocks a walker stands on (markers and lights lie in floors)
STANDS_ON = np.zeros(256, dtype=bool)
STANDS_ON[[Material.WALL, Material.FLOOR, Material.ROOF, Material.PATH, Material.START,
           Material.GOAL, Material.LIGHT]] = True


@kernel
def _place(walkable, floor_is_plain, reach):
    z_size, x_size = walkable.shape
    lit = np.zeros((z_size, x_size), dtype=np.bool_)
    lights = np.zeros((z_size, x_size), dtype=np.bool_)
    depth = np.full((z_size, x_size), -1, dtype=np.int32)
    queue = np.empty(z_size * x_size, dtype=np.int64)
    touched = np.empty(z_size * x_size, dtype=np.int64)
    dz = np.array([-1, 0, 1, 0])
    dx = np.array([0, 1, 0, -1])
    for start in range(z_size * x_size):
        sz, sx = start // x_size, start % x_size
        if not walkable[sz, sx] or lit[sz, sx]:
            continue
        # walk up to `reach` steps from the unlit block; choose the farthest unlit plain-floor block
        head, tail, n_touched = 0, 1, 1
        queue[0] = start
        touched[0] = start
        depth[sz, sx] = 0
        # the farthest unlit plain-floor block; else the farthest plain-floor block; else itself
        best, best_depth, plain, plain_depth = -1, -1, start, -1
        while head < tail:
            cell = queue[head]
            head += 1
            z, x = cell // x_size, cell % x_size
            d = depth[z, x]
            if floor_is_plain[z, x]:
                if not lit[z, x] and d > best_depth:
                    best, best_depth = cell, d
                if d > plain_depth:
                    plain, plain_depth = cell, d
            if d == reach:
                continue
            for k in range(4):
                nz, nx = z + dz[k], x + dx[k]
                if 0 <= nz < z_size and 0 <= nx < x_size and walkable[nz, nx] and depth[nz, nx] < 0:
                    depth[nz, nx] = d + 1
                    queue[tail] = nz * x_size + nx
                    tail += 1
                    touched[n_touched] = nz * x_size + nx
                    n_touched += 1
        for i in range(n_touched):
            depth[touched[i] // x_size, touched[i] % x_size] = -1
        if best < 0:
            best = plain
        bz, bx = best // x_size, best % x_size
        lights[bz, bx] = True
        # everything within `reach` of the light is lit
        head, tail, n_touched = 0, 1, 1
        queue[0] = best
        touched[0] = best
        depth[bz, bx] = 0
        while head < tail:
            cell = queue[head]
            head += 1
            z, x = cell // x_size, cell % x_size
            lit[z, x] = True
            if depth[z, x] == reach:
                continue
            for k in range(4):
                nz, nx = z + dz[k], x + dx[k]
                if 0 <= nz < z_size and 0 <= nx < x_size and walkable[nz, nx] and depth[nz, nx] < 0:
                    depth[nz, nx] = depth[z, x] + 1
                    queue[tail] = nz * x_size + nx
                    tail += 1
                    touched[n_touched] = nz * x_size + nx
                    n_touched += 1
        for i in range(n_touched):
            depth[touched[i] // x_size, touched[i] % x_size] = -1
    return lights


def place_lights(volume: np.ndarray, reach: int = REACH) -> np.ndarray:
    """A copy of a volume with LIGHT blocks set into its floors.

    Walkable blocks are the AIR blocks that stand on a block (FLOOR, WALL, a marker...), on any
    layer: the one walking layer of an extruded maze, every level of a stacked maze, every cell
    layer of a 3-D blockwise maze. Each layer is lit on its own (light that also reaches other
    layers only adds). Lights replace plain FLOOR blocks, so the marked solution stays visible;
    only where no plain floor is within reach (a tiny maze that is all solution) does a light
    replace a marker.

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
        lights = _place(walkable, below == Material.FLOOR, int(reach))
        lit[y - 1][lights] = Material.LIGHT
    if not found:
        raise BlockmazeError("lights go into the floor: the volume needs a floor under its open blocks")
    return lit


@kernel
def _light(opaque, sources, level):
    ys, zs, xs = opaque.shape
    light = np.zeros(opaque.shape, dtype=np.int8)
    queue = np.empty((opaque.size, 3), dtype=np.int32)
    tail = 0
    for y in range(ys):
        for z in range(zs):
            for x in range(xs):
                if sources[y, z, x]:
                    light[y, z, x] = level
                    queue[tail, 0], queue[tail, 1], queue[tail, 2] = y, z, x
                    tail += 1
    steps = np.array([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]])
    head = 0
    while head < tail:  # breadth-first: levels only fall, so each block is set once
        y, z, x = queue[head, 0], queue[head, 1], queue[head, 2]
        head += 1
        next_level = light[y, z, x] - 1
        if next_level <= 0:
            continue
        for s in range(6):
            ny, nz, nx = y + steps[s, 0], z + steps[s, 1], x + steps[s, 2]
            if 0 <= ny < ys and 0 <= nz < zs and 0 <= nx < xs and not opaque[ny, nz, nx] \
                    and light[ny, nz, nx] < next_level:
                light[ny, nz, nx] = next_level
                queue[tail, 0], queue[tail, 1], queue[tail, 2] = ny, nz, nx
                tail += 1
    return light


def block_light(volume: np.ndarray, level: int = LIGHT_LEVEL) -> np.ndarray:
    """Block light of every block, as the game spreads it: LIGHT blocks emit ``level``; each step
    through a non-solid block loses one; solid blocks stop it (a conservative model: glass and
    leaves let light through in the game, which only adds light)."""
    volume = np.asarray(volume, dtype=np.uint8)
    return _light(SOLID[volume], volume == Material.LIGHT, int(level))
