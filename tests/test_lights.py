"""Lights: every walkable block lit to >= 1, checked by walking distance and by light spread."""

from collections import deque

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import blockmaze as bm
from blockmaze.blocks.lights import REACH, block_light, place_lights
from blockmaze.materials import SOLID, Material


def walking_distance_to_light(volume):
    """Plain BFS over walkable blocks from every block above a light (the test's own reference)."""
    walkable = ~SOLID[volume[1]]
    distance = np.full(walkable.shape, -1)
    queue = deque()
    for z, x in np.argwhere(volume[0] == Material.LIGHT):
        distance[z, x] = 0
        queue.append((z, x))
    while queue:
        z, x = queue.popleft()
        for nz, nx in ((z - 1, x), (z + 1, x), (z, x - 1), (z, x + 1)):
            if 0 <= nz < walkable.shape[0] and 0 <= nx < walkable.shape[1] \
                    and walkable[nz, nx] and distance[nz, nx] < 0:
                distance[nz, nx] = distance[z, x] + 1
                queue.append((nz, nx))
    return distance[walkable]


def within_reach(volume, z, x):
    """Walkable blocks at most REACH steps from (z, x)."""
    walkable = ~SOLID[volume[1]]
    near = np.zeros(walkable.shape, bool)
    near[z, x] = True
    frontier = [(z, x)]
    for _ in range(REACH):
        step = []
        for a, b in frontier:
            for c, d in ((a - 1, b), (a + 1, b), (a, b - 1), (a, b + 1)):
                if 0 <= c < near.shape[0] and 0 <= d < near.shape[1] and walkable[c, d] and not near[c, d]:
                    near[c, d] = True
                    step.append((c, d))
        frontier = step
    return near


@pytest.mark.slow
@given(st.integers(1, 12), st.integers(1, 12), st.integers(0, 10**6), st.integers(1, 3), st.integers(1, 3))
def test_every_walkable_block_is_lit(rows, cols, seed, wall, passage):
    maze = bm.generate((rows, cols), rng=seed)
    ends = bm.place_endpoints(maze)
    volume = bm.extrude(bm.to_blocks(maze, wall, passage, endpoints=ends, solution=True), height=3)
    lit = place_lights(volume)
    changed = lit != volume
    assert (lit[changed] == Material.LIGHT).all() and changed[1:].sum() == 0
    ends = (volume[0] == Material.START) | (volume[0] == Material.GOAL)
    for z, x in np.argwhere(changed[0] & (volume[0] != Material.FLOOR)):  # a marker replaced:
        near = within_reach(volume, z, x)      # only if no plain floor near, or it lights an end
        beside_an_end = ends[max(z - 1, 0):z + 2, max(x - 1, 0):x + 2].any()
        assert not (volume[0][near] == Material.FLOOR).any() or beside_an_end
    if ((volume[1] == Material.AIR) & ~ends).any():  # START and GOAL kept, but in a maze of one
        assert ((lit[0] == Material.START) | (lit[0] == Material.GOAL)).sum() == ends.sum()
    distances = walking_distance_to_light(lit)
    assert (distances >= 0).all() and distances.max() <= REACH
    light = block_light(lit)
    assert light[1][~SOLID[lit[1]]].min() >= 1


def test_light_spreads_one_level_per_block():
    corridor = np.full((3, 1, 20), Material.WALL, np.uint8)
    corridor[0] = Material.FLOOR
    corridor[1] = Material.AIR
    corridor[0, 0, 0] = Material.LIGHT
    assert block_light(corridor)[1, 0].tolist() == [14 - x for x in range(14)] + [0] * 6


def test_a_long_corridor_needs_few_lights():
    # a straight 1x200 corridor: each light covers 13 blocks each side, so about 200 / 27
    corridor = bm.extrude(bm.to_blocks(bm.generate((1, 100), rng=0)), height=2)
    count = (place_lights(corridor) == Material.LIGHT).sum()
    assert 199 / 27 <= count <= 199 / 27 + 2


def test_needs_a_floor():
    with pytest.raises(bm.BlockmazeError, match="needs a floor"):
        place_lights(bm.extrude(bm.to_blocks(bm.generate((2, 2), rng=0)), floor=False))
