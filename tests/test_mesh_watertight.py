"""Every watertight mesh blockmaze writes is closed, whatever made the blocks: STL files of every
dungeon style at 1, 2 and 3 levels, layered mazes (spiral stairs), strict 3-D blockwise mazes and
every grid kind, as the command writes them. Read back by trimesh (merged by position: every edge
in exactly two faces, winding consistent, a positive volume) and by manifold3d (a valid manifold
of that volume); a chunked .glb merged by position is closed too; every object of a .3mf is
closed on its own, by vertex index (lib3mf, trimesh unmerged, manifold3d).
``bench/bench_watertight.py`` counts the same over 20 seeds each."""

from __future__ import annotations

import io

import numpy as np
import pytest
import trimesh
from hypothesis import given, settings
from hypothesis import strategies as st

import blockmaze as bm
import readers
from blockmaze.cli import main
from blockmaze.dungeon import STYLES, generate_dungeon, stack_dungeon
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


# --- 3MF: every object closed on its own --------------------------------------------------------

THREEMF_CASES = {
    "entrances": ("generate", "10x10", "--entrances", "--solution"),
    "weave": ("generate", "8x8", "-g", "weave", "--weave", "0.5", "--solution"),
    "layered": ("generate", "3x4x4", "-g", "layered", "--entrances", "--solution"),
    "lights-roof": ("generate", "8x8", "--entrances", "--solution", "--lights", "--roof"),
    "dungeon-levels": ("dungeon", "16x16", "--levels", "3"),
    "dungeon-caves": ("dungeon", "12x16", "--style", "caves", "--levels", "2"),
}


def assert_3mf_objects_closed(path, what: str) -> None:
    """Each object of a 3MF, as its vertex indices join its triangles (3MF Core §4.1: an edge's
    ends are vertex indices), is closed and manifold: lib3mf's own check, every edge in exactly
    two triangles running opposite ways, a positive volume; manifold3d builds it unmerged."""
    import lib3mf

    manifold3d = readers.module("manifold3d", "manifold3d")
    model = lib3mf.get_wrapper().CreateModel()
    model.QueryReader("3mf").ReadFromFile(str(path))
    objects = model.GetMeshObjects()
    while objects.MoveNext():
        mesh = objects.GetCurrentMeshObject()
        name = f"{what}: object {mesh.GetName()}"
        vertices = np.array([v.Coordinates[0:3] for v in mesh.GetVertices()], np.float64)
        triangles = np.array([t.Indices[0:3] for t in mesh.GetTriangleIndices()], np.int64)
        directed = triangles[:, [0, 1, 1, 2, 2, 0]].reshape(-1, 2)
        edges, counts = np.unique(np.sort(directed, axis=1), axis=0, return_counts=True)
        assert (counts == 2).all(), (
            f"{name}: {np.count_nonzero(counts != 2)} edges not in two triangles, "
            f"at {vertices[edges[counts != 2][:2]].tolist()}")
        assert len(np.unique(directed, axis=0)) == len(directed), f"{name}: winding not consistent"
        assert mesh.IsManifoldAndOriented(), name
        unmerged = trimesh.Trimesh(vertices, triangles, process=False)
        assert unmerged.is_watertight and unmerged.is_winding_consistent and unmerged.volume > 0, name
        solid = manifold3d.Manifold(manifold3d.Mesh(vert_properties=vertices.astype(np.float32),
                                                    tri_verts=triangles.astype(np.uint32)))
        assert solid.status() == manifold3d.Error.NoError, f"{name}: {solid.status()}"
        assert solid.volume() == pytest.approx(unmerged.volume, rel=1e-6), name


@pytest.mark.parametrize("case", list(THREEMF_CASES))
@settings(max_examples=3, deadline=None)
@given(seed=SEEDS)
def test_every_3mf_object_is_closed_and_manifold(tmp_path_factory, case, seed):
    """Two solids of one object that touch along an edge only (a solution path's corner at an
    entrance, stair blocks of a weave maze) are separate shells: no edge in four triangles."""
    path = tmp_path_factory.mktemp("t") / "out.3mf"
    arguments = [*THREEMF_CASES[case], "--seed", str(seed)]
    assert main(["-q", *arguments, "-o", str(path)]) == 0
    assert_3mf_objects_closed(path, " ".join(arguments))


def test_touching_solids_of_one_object_are_separate_shells(tmp_path):
    """Two cubes of one material touching along an edge, the rest of the box another material:
    the first object holds two shells (16 vertices), and a pair bridged again at both ends of
    their edge is split at its middle."""
    pair = np.full((2, 1, 2), bm.Material.FLOOR, np.uint8)
    pair[0, 0, 0] = pair[1, 0, 1] = bm.Material.WALL
    bridged = np.full((2, 3, 2), bm.Material.WALL, np.uint8)
    bridged[:, 1] = bm.Material.FLOOR
    bridged[0, 1, 0] = bridged[1, 1, 1] = bm.Material.WALL
    for name, volume in (("pair", pair), ("bridged", bridged)):
        bm.write(volume, tmp_path / f"{name}.3mf")
        assert_3mf_objects_closed(tmp_path / f"{name}.3mf", name)


@settings(max_examples=150, deadline=None)
@given(cells=st.lists(st.sampled_from([0, 1, 1, 2]), min_size=27, max_size=27))
def test_any_volume_of_two_materials_makes_closed_3mf_objects(tmp_path_factory, cells):
    """Any 3x3x3 volume of walls and floors: each object closed and manifold on its own, however
    the cells of one material touch (along edges, at corners, bridged around both ends)."""
    volume = np.array(cells, np.uint8).reshape(3, 3, 3)
    if not volume.any():
        return
    path = tmp_path_factory.mktemp("v") / "v.3mf"
    bm.write(volume, path)
    assert_3mf_objects_closed(path, str(np.argwhere(volume == 1).tolist()))


@pytest.mark.parametrize("case", list(THREEMF_CASES))
@settings(max_examples=2, deadline=None)
@given(seed=SEEDS)
def test_every_mesh_format_is_closed_as_a_whole(tmp_path_factory, case, seed):
    """The same mazes as .stl, .obj, .ply and .glb: each file's surface (its groups, parts or
    nodes together: one material's piece is open where another material takes over) is closed
    and manifold, merged by position."""
    folder = tmp_path_factory.mktemp("f")
    arguments = [*THREEMF_CASES[case], "--seed", str(seed)]
    for suffix in ("stl", "obj", "ply", "glb"):
        path = folder / f"out.{suffix}"
        assert main(["-q", *arguments, "-o", str(path)]) == 0
        if suffix == "glb":
            vertices, faces = combined(gltf_meshes(path.read_bytes()).values())
        else:
            mesh = trimesh.load(path, force="mesh", process=False)
            vertices, faces = mesh.vertices, mesh.faces
        assert_closed(np.asarray(vertices), np.asarray(faces), f"{' '.join(arguments)} .{suffix}")
