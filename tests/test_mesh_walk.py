"""Walking the meshes as a game engine's character would (tests/meshwalk.py): issue 15's target,
start and goal in one walkable region in the .glb of a 3-level layered maze and of a 3-level
dungeon, read back from the written file. Stairs must be steps: a character does not climb."""

import io

import numpy as np
import pytest

import blockmaze as bm
from blockmaze.dungeon import generate_dungeon, stack_dungeon
from blockmaze.grids import layered_grid
from blockmaze.materials import Material
from meshwalk import blocks_behind, region_on, regions, solid_lattice
from test_mesh_formats import combined, gltf_meshes


def walk_glb(data: bytes) -> np.ndarray:
    """Regions of the .glb's solid (half-block lattice), its doors open."""
    meshes = gltf_meshes(data)
    vertices, faces = combined(meshes.values())
    solid = solid_lattice(vertices, faces)
    if "door" in meshes:
        solid &= ~blocks_behind(*combined([meshes["door"]]), solid.shape)
    return regions(solid)


def marked(labels, volume, material) -> set[int]:
    """The regions of a character standing on any block marked ``material`` (START, GOAL), or,
    for a mark in a wall (a cell all holes but a spiral's top step), on the top step beside it."""
    found = set()
    for y, z, x in np.argwhere(volume == material).tolist():
        found |= region_on(labels, (y, z, x))
        if y + 1 < volume.shape[0] and volume[y + 1, z, x] != Material.AIR:
            for dz, dx in ((-1, 0), (0, 1), (1, 0), (0, -1)):
                if volume[y - 1, z + dz, x + dx] == Material.STAIRS:
                    found |= region_on(labels, (y - 1, z + dz, x + dx))
    return found


def one_walk(labels, volume) -> bool:
    start = marked(labels, volume, Material.START)
    return len(start) == 1 and start == marked(labels, volume, Material.GOAL)


def layered_glb(seed, **options):
    maze = bm.generate(layered_grid(3, 4, 5), rng=seed)
    out = io.BytesIO()
    volume = bm.save(maze, out, format="glb", endpoints=bm.place_endpoints(maze), solution=True, **options)
    return out.getvalue(), volume


@pytest.mark.parametrize("seed", [1, 5, 9])
def test_three_level_layered_glb_is_one_walk(seed):
    data, volume = layered_glb(seed)  # the default: 2-block passages, spiral stairs
    assert one_walk(walk_glb(data), volume)


def test_shafts_are_not_walked_in_a_mesh():
    """With 1-block passages the levels are joined by shafts (Minecraft climbs them; a mesh draws
    them solid): no walk from start to goal, the failure the spiral stairs mend."""
    data, volume = layered_glb(5, passage=1)
    labels = walk_glb(data)
    levels = {int(y) for y in np.argwhere(volume == Material.START)[:, 0]}
    assert levels != {int(y) for y in np.argwhere(volume == Material.GOAL)[:, 0]}
    assert marked(labels, volume, Material.START) and not one_walk(labels, volume)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 6])
@pytest.mark.parametrize("style", ["rooms-and-mazes", "caves", "bsp", "digger", "mixed"])
def test_three_level_dungeon_glb_is_one_walk(style, seed):
    volume = stack_dungeon(generate_dungeon((8, 10), rng=seed, levels=3, style=style), 3)
    out = io.BytesIO()
    bm.write(volume, out, format="glb")
    assert one_walk(walk_glb(out.getvalue()), volume)


def test_spiral_stairs_mesh_is_manifold():
    """Merged by position, every edge of a layered maze's .glb has exactly two faces: the steps of
    a flight meet face to face (risers), and where a corner step touches a pillar along an edge
    only, the contact is sealed (tests/test_mesh_watertight.py checks every style)."""
    data, volume = layered_glb(1)
    vertices, faces = combined(gltf_meshes(data).values())
    _, index = np.unique(np.round(vertices * 4).astype(np.int64), axis=0, return_inverse=True)
    faces = index.ravel()[faces]
    edges = np.sort(np.concatenate([faces[:, [0, 1]], faces[:, [1, 2]], faces[:, [2, 0]]]), axis=1)
    _, counts = np.unique(edges, axis=0, return_counts=True)
    assert set(counts.tolist()) == {2}
