"""Chunked, shared-vertex parts (blockmaze.export.meshes.chunks) and stair steps."""

from __future__ import annotations

import io

import numpy as np
import pytest
import trimesh
from hypothesis import given, settings
from hypothesis import strategies as st

import blockmaze as bm
from blockmaze.blocks.orientation import NONE, stair_facing
from blockmaze.export.meshes import mesh_blocks
from blockmaze.export.meshes.chunks import chunk_parts


def maze(rows, cols, seed, height=3, roof=False):
    return bm.extrude(bm.to_blocks(bm.generate((rows, cols), rng=seed)), height=height, roof=roof)


def triangles_of(parts):
    return np.concatenate([p.points()[p.faces.astype(np.int64)] for p in parts])


def canonical(triangles):
    """Each triangle rotated to start at its smallest corner (winding kept), rows sorted."""
    t = np.round(np.asarray(triangles, np.float64) * 2).astype(np.int64)
    rolls = np.stack([np.roll(t, -k, axis=1).reshape(len(t), 9) for k in range(3)], axis=1)
    return sorted(min(map(tuple, r)) for r in rolls)


def welded(triangles):
    mesh = trimesh.Trimesh(triangles.reshape(-1, 3), np.arange(3 * len(triangles)).reshape(-1, 3),
                           process=False)
    mesh.merge_vertices()
    return mesh


@pytest.mark.parametrize("watertight", [True, False])
def test_unchunked_parts_hold_the_same_triangles_as_the_surface(watertight):
    volume = maze(5, 4, 2)
    surface = mesh_blocks(volume, watertight=watertight)
    parts = list(chunk_parts(volume, chunk=0, watertight=watertight))
    assert canonical(triangles_of(parts)) == canonical(surface.vertices[surface.faces.astype(np.int64)])
    assert sum(len(p.positions) for p in parts) < len(surface.vertices)  # shared


def test_glb_holds_the_same_triangles_as_the_surface():
    """The written .glb (quantized, chunk 0), decoded, is the greedy surface triangle for triangle."""
    from test_mesh_formats import gltf_parts

    volume = maze(4, 6, 8)
    surface = mesh_blocks(volume)
    out = io.BytesIO()
    bm.write(volume, out, format="glb", chunk=0, quantize=True)
    ours = np.concatenate([pos[tri] for _, pos, _, _, tri, _ in gltf_parts(out.getvalue())])
    assert canonical(ours) == canonical(surface.vertices[surface.faces.astype(np.int64)])


@settings(max_examples=15, deadline=None)
@given(rows=st.integers(1, 6), cols=st.integers(1, 6), seed=st.integers(0, 99),
       chunk=st.integers(1, 9), roof=st.booleans())
def test_chunks_together_are_closed_and_manifold(rows, cols, seed, chunk, roof):
    volume = maze(rows, cols, seed, roof=roof)
    parts = list(chunk_parts(volume, chunk=chunk))
    mesh = welded(triangles_of(parts))
    assert mesh.is_watertight and mesh.is_winding_consistent and mesh.is_volume
    assert mesh.volume == pytest.approx(np.count_nonzero(volume))
    for part in parts:  # each part stays inside its chunk, indices local
        points = part.points()
        assert np.all(points >= part.origin) and np.all(points <= np.add(part.origin, chunk))
        assert part.faces.max() < len(part.positions)


def test_parts_share_vertices_only_where_position_and_normal_agree():
    for part in chunk_parts(maze(4, 4, 1), chunk=5):
        keys = np.column_stack([part.positions, part.normals])
        assert len(np.unique(keys, axis=0)) == len(keys)


def test_refuses_a_bad_chunk():
    with pytest.raises(bm.BlockmazeError, match="chunk must be"):
        list(chunk_parts(maze(2, 2, 1), chunk=-1))
    with pytest.raises(bm.BlockmazeError, match="chunk must be"):
        bm.write(maze(2, 2, 1), io.BytesIO(), format="glb", chunk=2.5)
    with pytest.raises(bm.BlockmazeError, match="compress must be one of"):
        bm.write(maze(2, 2, 1), io.BytesIO(), format="glb", compress="draco")


def test_missing_meshoptimizer_is_named(monkeypatch):
    """The hint's commands work where blockmaze is not on an index: the package is named as the
    index knows it (the extra's requirement), and the checkout's extra exists."""
    import re
    import sys
    from pathlib import Path

    monkeypatch.setitem(sys.modules, "meshoptimizer", None)
    with pytest.raises(bm.BlockmazeError) as refused:
        bm.write(maze(2, 2, 1), io.BytesIO(), format="glb", compress="meshopt")
    commands = re.findall(r"pip install ([^\s)]+)", str(refused.value))
    extra = re.search(r'^meshopt = \["([A-Za-z0-9_.-]+)', (Path(__file__).parent.parent / "pyproject.toml")
                      .read_text(), re.MULTILINE)
    assert "blockmaze[" not in str(refused.value)
    assert commands == [extra.group(1), "'.[meshopt]'"]


# --- stairs ----------------------------------------------------------------------------------


def stairway():
    """A corridor with two steps rising east onto a wall block."""
    volume = maze(3, 3, 1)
    volume[1, 1, 2] = volume[2, 1, 3] = bm.Material.STAIRS
    volume[1, 1, 3] = volume[1:3, 1, 4] = bm.Material.WALL
    return volume


@pytest.mark.parametrize("chunk", [0, 2, 64])
def test_stairs_are_steps_and_the_mesh_stays_closed(chunk):
    volume = stairway()
    facing = stair_facing(volume)
    assert facing[1, 1, 2] != NONE and facing[2, 1, 3] != NONE
    parts = list(chunk_parts(volume, chunk=chunk))
    assert {p.scale for p in parts} == {2}
    mesh = welded(triangles_of(parts))
    assert mesh.is_watertight and mesh.is_volume
    assert mesh.volume == pytest.approx(np.count_nonzero(volume) - 0.25 * 2)  # two faced stairs
    stairs = triangles_of([p for p in parts if p.material == bm.Material.STAIRS])
    tops = stairs[np.all(stairs[:, :, 1] == stairs[:, :1, 1], axis=1)][:, 0, 1]
    assert 1.5 in tops and 2.0 in tops  # the tread of the lower step, and the top
    low = stairs[np.all(stairs[:, :, 1] == 1.5, axis=1)]  # the lower tread: the west half
    assert low[:, :, 0].min() == 2.0 and low[:, :, 0].max() == 2.5


def test_a_stair_without_facing_is_a_full_block():
    volume = np.full((1, 1, 1), bm.Material.STAIRS, np.uint8)
    mesh = welded(triangles_of(chunk_parts(volume, chunk=0)))
    assert mesh.volume == pytest.approx(1.0) and len(mesh.faces) == 12


# --- trimesh for Python users ------------------------------------------------------------------


def test_to_trimesh_holds_the_glb_triangles():
    from test_mesh_formats import gltf_meshes

    volume = maze(4, 5, 6)
    volume[1, 1, 1] = bm.Material.START
    scene = bm.to_trimesh(volume, block_size=0.5)
    out = io.BytesIO()
    bm.write(volume, out, format="glb", chunk=0, block_size=0.5)
    written = gltf_meshes(out.getvalue())
    assert list(scene.geometry) == list(written) == ["wall", "floor", "start"]
    for name, geometry in scene.geometry.items():
        positions, normals, _, triangles, _ = written[name]
        assert canonical(geometry.triangles) == canonical(positions[triangles])
        np.testing.assert_allclose(geometry.vertex_normals[geometry.faces[:, 0]], geometry.face_normals)
    assert bm.load_theme().color(bm.Material.START) == tuple(scene.geometry["start"].visual.face_colors[0][:3])


def test_to_trimesh_names_the_missing_package(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "trimesh", None)
    with pytest.raises(bm.BlockmazeError, match=r"pip install trimesh \(or, in a blockmaze checkout, pip install '\.\[trimesh\]'"):
        bm.to_trimesh(maze(2, 2, 1))


def test_import_blockmaze_loads_neither_trimesh_nor_the_mesher():
    import subprocess
    import sys

    code = "import sys, blockmaze; print('trimesh' in sys.modules, 'blockmaze.export.meshes.chunks' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "False"]


# --- blockmaze info for meshes -------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["glb", "gltf", "obj", "ply", "stl", "3mf"])
def test_summary_counts_what_the_readers_read(fmt, tmp_path):
    from blockmaze.readers.info import inspect_file
    from test_mesh_formats import gltf_parts

    volume = maze(4, 5, 3)
    path = tmp_path / f"maze.{fmt}"
    bm.write(volume, path, **({"chunk": 4, "collision": True} if fmt == "glb" else {}))
    info = inspect_file(path)
    lines = {k: str(v) for k, v in info.details.items()}
    if fmt in ("glb", "gltf"):
        parts = gltf_parts(path.read_bytes())
        meshes = [p for p in parts if not p[0][-1].endswith("colonly")]
        assert int(lines["triangles"]) == sum(len(p[4]) for p in meshes)
        assert int(lines["vertices"]) == sum(len(p[1]) for p in meshes)
        chunks = {p[0][-1].partition("_")[2] for p in meshes}  # node names: material_x_y_z
        assert lines["chunks"].startswith(f"{len(chunks)} ") and len(chunks) == (9 if fmt == "glb" else 1)
        height, depth, width = volume.shape
        assert info.size == (width, height, depth)
        assert ("collision" in lines) == (fmt == "glb")
    elif fmt == "3mf":
        from test_mesh_formats import read_3mf

        objects = read_3mf(path)
        assert int(lines["triangles"]) == sum(len(o[3]) for o in objects)
        assert int(lines["objects"]) == len(objects)
    else:
        loaded = trimesh.load(path, process=False, force="mesh")
        assert int(lines["triangles"]) == len(loaded.faces)


def test_summary_refuses_what_is_not_a_mesh(tmp_path):
    from blockmaze.readers.info import inspect_file

    (tmp_path / "x.glb").write_bytes(b"glTF\x02\0\0\0")
    with pytest.raises(bm.BadFileError, match="x.glb"):
        inspect_file(tmp_path / "x.glb")


def test_welding_by_sorting_gives_the_table_s_result(monkeypatch):
    """Boxes too big for the weld table (a whole big volume, chunk 0) weld by sorting: same parts."""
    from blockmaze.export.meshes import chunks

    volume = maze(6, 7, 5)
    by_table = list(chunk_parts(volume, chunk=0))
    monkeypatch.setattr(chunks, "_TABLE_LIMIT", 0)
    by_sorting = list(chunk_parts(volume, chunk=0))
    assert len(by_table) == len(by_sorting)
    for a, b in zip(by_table, by_sorting, strict=True):
        for name in ("positions", "normals", "faces"):
            np.testing.assert_array_equal(getattr(a, name), getattr(b, name))


@pytest.mark.parametrize("fmt", ["glb", "obj", "ply", "stl", "3mf"])
def test_every_format_draws_stairs_as_steps(fmt, tmp_path):
    from stl import mesh as stl_mesh

    from test_mesh_formats import gltf_meshes, read_3mf, signed_volume

    volume = stairway()
    expected = np.count_nonzero(volume) - 0.25 * 2  # two faced stairs
    path = tmp_path / f"steps.{fmt}"
    bm.write(volume, path, block_size=1.0)
    if fmt == "glb":
        meshes = gltf_meshes(path.read_bytes())
        vertices = np.concatenate([m[0] for m in meshes.values()])
        offsets = np.cumsum([0] + [len(m[0]) for m in meshes.values()])
        faces = np.concatenate([m[3] + o for m, o in zip(meshes.values(), offsets, strict=False)])
        assert signed_volume(vertices, faces) == pytest.approx(expected)
    elif fmt == "stl":
        assert stl_mesh.Mesh.from_file(str(path)).get_mass_properties()[0] == pytest.approx(expected)
    elif fmt == "3mf":
        objects = read_3mf(path)
        assert sum(signed_volume(o[2], o[3]) for o in objects) == pytest.approx(expected)
        # every object closed and oriented, the flight of steps too: two steps in a flight
        # touch along an edge only (the wall under the upper one is another object), so each
        # step is its own shell there
        assert [o[0] for o in objects if not o[1].IsManifoldAndOriented()] == []
    else:
        loaded = trimesh.load(path, process=False, force="mesh")
        assert welded(loaded.triangles).volume == pytest.approx(expected)


def test_cli_mesh_options(tmp_path, capsys):
    from blockmaze.cli import main
    from blockmaze.readers.info import inspect_file

    path = tmp_path / "m.glb"
    assert main(["generate", "4x4", "--seed", "2", "-o", str(path), "--chunk", "3",
                 "--compress", "meshopt", "--no-quantize", "--uv"]) == 0
    details = inspect_file(path).details
    assert details["chunks"].startswith("18 (3 blocks a side)")  # 9x4x9 blocks: 3 x 2 x 3
    assert details["encoding"] == "EXT_meshopt_compression"
    assert main(["generate", "4x4", "--seed", "2", "-o", str(path)]) == 0
    assert inspect_file(path).details["chunks"].startswith("1 (128 blocks a side)")
    assert main(["generate", "4x4", "-o", str(path), "--compress", "zip"]) == 2
    assert "--compress" in capsys.readouterr().err


def test_threads_do_not_change_the_bytes(monkeypatch):
    from blockmaze.export.meshes import chunks

    volume = maze(7, 6, 4)

    def glb():
        out = io.BytesIO()
        bm.write(volume, out, format="glb", chunk=3)  # dozens of chunks: meshed on two threads
        return out.getvalue()

    threaded = glb()
    monkeypatch.setattr(chunks, "_THREADS", 1)
    assert glb() == threaded


@pytest.mark.slow
def test_quantized_chunks_must_fit_16_bits():
    bar = np.ones((1, 1, 40000), np.uint8)
    with pytest.raises(bm.BlockmazeError, match="smaller chunk or no quantization"):
        bm.write(bar, io.BytesIO(), format="glb", chunk=0, quantize=True)
    out = io.BytesIO()
    bm.write(bar, out, format="glb", chunk=0)  # floats (the default) hold it
    bm.write(bar, io.BytesIO(), format="glb", quantize=True)  # chunks of 128 blocks: quantized
