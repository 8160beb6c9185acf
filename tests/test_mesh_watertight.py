"""Every watertight mesh blockmaze writes is closed, whatever made the blocks: STL files of every
dungeon style at 1, 2 and 3 levels, layered mazes (spiral stairs), strict 3-D blockwise mazes and
every grid kind, as the command writes them. Read back by trimesh (merged by position: every edge
in exactly two faces, winding consistent, a positive volume) and by manifold3d (a valid manifold
of that volume); a chunked .glb merged by position is closed too. ``bench/bench_watertight.py``
counts the same over 20 seeds each."""

from __future__ import annotations

import io

import numpy as np
import pytest
import trimesh
from hypothesis import given, settings
from hypothesis import strategies as st

import blockmaze as bm
import readers
from blockmaze.blocks.stack import stack_dungeon
from blockmaze.cli import main
from blockmaze.dungeon import STYLES, generate_dungeon
from blockmaze.export.meshes.chunks import seal_edges, touches_by_edge
from test_mesh_formats import combined, gltf_meshes

SEEDS = st.integers(0, 2**32 - 1)


def assert_closed(vertices: np.ndarray, faces: np.ndarray, what: str) -> None:
    """Closed and manifold, by trimesh and by manifold3d."""
    mesh = trimesh.Trimesh(vertices, faces, process=True)  # merges vertices by position
    edges, counts = np.unique(mesh.edges_sorted, axis=0, return_counts=True)
    assert (counts == 2).all(), f"{what}: edges in {sorted(set(counts.tolist()))} faces at {mesh.vertices[edges[counts != 2][:3]].tolist()}"
    assert mesh.is_watertight and mesh.is_winding_consistent and mesh.volume > 0, what
    manifold3d = readers.module("manifold3d", "manifold3d")
    solid = manifold3d.Manifold(manifold3d.Mesh(vert_properties=np.asarray(mesh.vertices, np.float32),
                                                tri_verts=np.asarray(mesh.faces, np.uint32)))
    assert solid.status() == manifold3d.Error.NoError, f"{what}: {solid.status()}"
    assert solid.volume() == pytest.approx(mesh.volume, rel=1e-6), what


def stl_closed(tmp_path, *arguments: str) -> None:
    path = tmp_path / "out.stl"
    assert main(["-q", *arguments, "-o", str(path)]) == 0
    mesh = trimesh.load(path, process=False)
    assert_closed(mesh.vertices, mesh.faces, " ".join(arguments))


@pytest.mark.slow
@pytest.mark.parametrize("levels", [1, 2, 3])
@pytest.mark.parametrize("style", STYLES)
@settings(max_examples=4)
@given(seed=SEEDS)
def test_every_dungeon_style_and_level_count_is_watertight(tmp_path_factory, style, levels, seed):
    stl_closed(tmp_path_factory.mktemp("d"), "dungeon", "12x16", "--style", style,
               "--levels", str(levels), "--seed", str(seed))


@settings(max_examples=4)
@given(seed=SEEDS, passage=st.sampled_from(["1", "2"]))
def test_layered_mazes_are_watertight(tmp_path_factory, seed, passage):
    stl_closed(tmp_path_factory.mktemp("l"), "generate", "3x4x5", "-g", "layered",
               "--passage", passage, "--solution", "--seed", str(seed))


@settings(max_examples=4)
@given(seed=SEEDS)
def test_strict_3d_blockwise_mazes_are_watertight(tmp_path_factory, seed):
    stl_closed(tmp_path_factory.mktemp("b"), "blockwise", "9x21x25", "--seed", str(seed))


@pytest.mark.slow
@pytest.mark.parametrize("kind, size", [("square", "6x7"), ("hex", "5x6"), ("upsilon", "5x6"),
                                        ("triangle", "5x8"), ("polar", "4")])
@settings(max_examples=3)
@given(seed=SEEDS)
def test_every_grid_kind_is_watertight(tmp_path_factory, kind, size, seed):
    stl_closed(tmp_path_factory.mktemp("g"), "generate", size, "-g", kind, "--solution",
               "--roof", "--seed", str(seed))


@pytest.mark.slow
@pytest.mark.parametrize("style, levels, seed", [("caves", 3, 4), ("bsp", 3, 12), ("mixed", 1, 8)])
def test_chunks_meshed_apart_close_the_same_way(style, levels, seed):
    """Seams between chunks are sealed alike on both sides: a chunked .glb, merged by position,
    is closed (dungeons whose contacts need two passes of seal_edges, and a single level's)."""
    volume = stack_dungeon(generate_dungeon((12, 16), rng=seed, style=style, levels=levels), 3)
    for chunk in (3, 5):
        out = io.BytesIO()
        bm.write(volume, out, format="glb", chunk=chunk, quantize=False)
        vertices, faces = combined(gltf_meshes(out.getvalue()).values())
        assert_closed(vertices, faces, f"{style} seed {seed} chunk {chunk}")


@pytest.mark.slow
@settings(max_examples=200)
@given(cells=st.lists(st.booleans(), min_size=27, max_size=27))
def test_sealing_leaves_no_edge_only_contact(cells):
    """Any 3x3x3 volume, sealed on the half-block lattice, has no two solid cells that touch along
    an edge only, and keeps every solid cell it had."""
    volume = np.array(cells, np.uint8).reshape(3, 3, 3).repeat(2, 0).repeat(2, 1).repeat(2, 2)
    sealed = seal_edges(volume)
    assert (sealed[volume != 0] == volume[volume != 0]).all()
    if touches_by_edge(sealed):  # a fill's own contacts, left after SEAL_PASSES: say where
        pytest.fail(f"an edge-only contact is left in {np.argwhere(volume[::2, ::2, ::2]).tolist()}")
