"""Mesh files (.glb, .gltf, .obj, .mtl, .ply, .stl), read back by readers that share no code with
the writers: pygltflib (accessors decoded here with numpy), numpy-stl, meshio, trimesh's loaders.

What every file must show: the volume of the solid blocks (block_size cubed each), a closed
surface, axis-aligned normals, the right axes (glTF Y-up metres, STL Z-up millimetres, both
proper rotations: signed volume positive), one named node/group per material, and the same bytes
for the same input.
"""

from __future__ import annotations

import base64
import dataclasses
import io
import json

import meshio
import numpy as np
import pygltflib
import pytest
import trimesh
from hypothesis import given, settings
from hypothesis import strategies as st
from stl import mesh as stl_mesh

import blockmaze as bm
from blockmaze.export.meshes.writers import material_name
from blockmaze.export.meshes import culled_face_count

FORMATS = ["glb", "gltf", "obj", "ply", "stl", "3mf"]
RENDER = ["glb", "gltf", "obj", "ply"]


def maze_volume(rows=4, cols=5, seed=1, height=3, roof=False, solution=False):
    maze = bm.generate((rows, cols), rng=seed)
    plan = bm.to_blocks(maze)
    if solution:
        plan[1, 1] = bm.Material.START
        plan[-2, -2] = bm.Material.GOAL
        plan[1, 2] = bm.Material.PATH
    return bm.extrude(plan, height=height, roof=roof)


def random_volume(shape, seed, density=0.5):
    rng = np.random.default_rng(seed)
    return np.where(rng.random(shape) < density, rng.integers(1, 7, shape), 0).astype(np.uint8)


def file_bytes(volume, fmt, **options):
    out = io.BytesIO()
    bm.write(volume, out, format=fmt, **options)
    return out.getvalue()


def signed_volume(vertices, faces):
    corners = np.asarray(vertices, np.float64)[np.asarray(faces, np.int64)]
    return float(np.einsum("ij,ij->i", corners[:, 0], np.cross(corners[:, 1], corners[:, 2])).sum() / 6)


def closed_mesh(vertices, faces):
    """trimesh of the triangles with vertices merged by position (render files repeat vertices)."""
    mesh = trimesh.Trimesh(np.asarray(vertices, np.float64), np.asarray(faces, np.int64),
                           process=False)
    mesh.merge_vertices(merge_tex=True, merge_norm=True)
    return mesh


# --- a glTF reader: pygltflib for the structure, numpy for the accessors ------------------------

COMPONENTS = {5126: np.float32, 5125: np.uint32, 5123: np.uint16, 5121: np.uint8}
WIDTH = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}


def load_gltf(data: bytes):
    if data[:4] == b"glTF":
        gltf = pygltflib.GLTF2.load_from_bytes(data)
        blob = gltf.binary_blob()
    else:
        gltf = pygltflib.GLTF2.from_json(data.decode("utf-8"))
        blob = gltf.get_data_from_buffer_uri(gltf.buffers[0].uri)
    assert len(gltf.buffers) == 1 and gltf.buffers[0].byteLength == len(blob)
    return gltf, blob


def accessor_array(gltf, blob, index):
    accessor = gltf.accessors[index]
    view = gltf.bufferViews[accessor.bufferView]
    dtype = np.dtype(COMPONENTS[accessor.componentType])
    width = WIDTH[accessor.type]
    # tightly packed: a vertex view states its stride (glTF requires it when views are shared),
    # an index view has none
    assert view.byteStride in (None, width * dtype.itemsize)
    assert (view.byteStride is None) == (view.target == pygltflib.ELEMENT_ARRAY_BUFFER)
    start = (view.byteOffset or 0) + (accessor.byteOffset or 0)
    assert start % dtype.itemsize == 0
    end = start + accessor.count * width * dtype.itemsize
    assert end <= (view.byteOffset or 0) + view.byteLength
    array = np.frombuffer(blob, dtype=dtype, count=accessor.count * width, offset=start)
    return array.reshape(-1, width) if width > 1 else array


def gltf_meshes(data: bytes):
    """{node name: (positions, normals, uv, triangles, material)} of a blockmaze glTF."""
    gltf, blob = load_gltf(data)
    assert gltf.asset.version == "2.0"
    scene = gltf.scenes[gltf.scene]
    out = {}
    for node_index in scene.nodes:
        node = gltf.nodes[node_index]
        assert node.matrix is None and node.translation is None and node.rotation is None
        mesh = gltf.meshes[node.mesh]
        assert mesh.name == node.name
        (primitive,) = mesh.primitives
        assert primitive.mode in (None, 4)  # triangles
        attributes = primitive.attributes
        positions = accessor_array(gltf, blob, attributes.POSITION)
        accessor = gltf.accessors[attributes.POSITION]
        assert accessor.min == positions.min(axis=0).tolist()
        assert accessor.max == positions.max(axis=0).tolist()
        normals = accessor_array(gltf, blob, attributes.NORMAL) if attributes.NORMAL is not None else None
        uv = accessor_array(gltf, blob, attributes.TEXCOORD_0) if attributes.TEXCOORD_0 is not None else None
        indices = accessor_array(gltf, blob, primitive.indices)
        assert indices.max() < len(positions)
        material = gltf.materials[primitive.material] if primitive.material is not None else None
        out[node.name] = (positions, normals, uv, indices.reshape(-1, 3), material)
    return out


def srgb(theme, material):
    """The theme's colour of a material in 0..1."""
    return [c / 255 for c in theme.color(material)]


def srgb_to_linear(c):
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def combined(meshes):
    vertices, faces, offset = [], [], 0
    for positions, _, _, triangles, _ in meshes:
        vertices.append(positions)
        faces.append(triangles.astype(np.int64) + offset)
        offset += len(positions)
    return np.concatenate(vertices), np.concatenate(faces)


# --- glTF ------------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["glb", "gltf"])
@pytest.mark.parametrize("block_size", [1.0, 0.25, 2.5])
def test_gltf_scene_has_a_node_per_material_and_the_exact_volume(fmt, block_size):
    volume = maze_volume(5, 6, 3, solution=True)
    meshes = gltf_meshes(file_bytes(volume, fmt, block_size=block_size))
    assert list(meshes) == ["wall", "floor", "path", "start", "goal"]  # material order
    vertices, faces = combined(meshes.values())
    solid = np.count_nonzero(volume)
    assert signed_volume(vertices, faces) == pytest.approx(solid * block_size**3)
    mesh = closed_mesh(vertices, faces)
    assert mesh.is_watertight and mesh.is_volume
    height, depth, width = volume.shape
    np.testing.assert_allclose(vertices.min(axis=0), [0, 0, 0])
    np.testing.assert_allclose(vertices.max(axis=0), np.array([width, height, depth]) * block_size)
    for name, (positions, normals, uv, triangles, material) in meshes.items():
        assert material.name == name
        pbr = material.pbrMetallicRoughness
        expected = [srgb_to_linear(c) for c in srgb(bm.load_theme(), bm.Material[name.upper()])]
        np.testing.assert_allclose(pbr.baseColorFactor, expected + [1.0], atol=1e-6)
        assert (pbr.metallicFactor, pbr.roughnessFactor) == (0.0, 1.0)
        assert np.all(np.sort(np.abs(normals), axis=1) == [0, 0, 1])
        corners = positions[triangles].astype(np.float64)
        cross = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
        np.testing.assert_allclose(cross / np.linalg.norm(cross, axis=1)[:, None],
                                   normals[triangles[:, 0]], atol=1e-6)
        assert uv.shape == (len(positions), 2)


def test_gltf_uvs_are_world_space_block_coordinates():
    """UVs count blocks in the face's plane, whatever the block size: textures tile per block."""
    volume = np.full((1, 1, 3), bm.Material.WALL, np.uint8)  # a 3x1x1 bar
    positions, normals, uv, _, _ = gltf_meshes(file_bytes(volume, "glb", block_size=0.5))["wall"]
    top = normals[:, 1] == 1
    np.testing.assert_allclose(uv[top, 0], positions[top, 0] / 0.5)   # u = x in blocks
    side = normals[:, 2] == 1
    np.testing.assert_allclose(uv[side, 0], positions[side, 0] / 0.5)
    np.testing.assert_allclose(uv[side, 1], -positions[side, 1] / 0.5)  # v down the image = -y
    assert np.ptp(uv[top, 0]) == 3


def test_gltf_axes_are_a_rotation_not_a_mirror():
    """A block at high x, y, z of the volume is at high glTF x, y, z; the signed volume is positive."""
    volume = np.zeros((3, 4, 5), np.uint8)
    volume[0, 0, 0] = bm.Material.FLOOR
    volume[2, 3, 4] = bm.Material.GOAL
    meshes = gltf_meshes(file_bytes(volume, "glb"))
    goal, floor = meshes["goal"][0], meshes["floor"][0]
    assert goal.min(axis=0).tolist() == [4, 2, 3] and goal.max(axis=0).tolist() == [5, 3, 4]
    assert floor.min(axis=0).tolist() == [0, 0, 0]
    for positions, _, _, triangles, _ in meshes.values():
        assert signed_volume(positions, triangles) == pytest.approx(1.0)


def test_gltf_collision_node_of_boxes():
    """collision=True adds a 'collision-colonly' node: disjoint boxes filling the solid blocks."""
    volume = maze_volume(6, 6, 2)
    meshes = gltf_meshes(file_bytes(volume, "glb", collision=True, block_size=2.0))
    assert list(meshes) == ["wall", "floor", "collision-colonly"]
    positions, normals, uv, triangles, material = meshes["collision-colonly"]
    assert normals is None and uv is None and material is None
    assert len(triangles) % 12 == 0 and len(positions) == len(triangles) // 12 * 8
    assert signed_volume(positions, triangles) == pytest.approx(np.count_nonzero(volume) * 8)
    boxes = positions.reshape(-1, 8, 3)
    assert np.all(boxes.max(axis=1) > boxes.min(axis=1))
    assert len(triangles) < 2 * 2 * culled_face_count(volume)
    assert "collision-colonly" not in gltf_meshes(file_bytes(volume, "glb"))


def test_glb_and_gltf_hold_the_same_scene():
    volume = maze_volume(3, 4, 9, solution=True)
    glb, gltf = gltf_meshes(file_bytes(volume, "glb")), gltf_meshes(file_bytes(volume, "gltf"))
    assert list(glb) == list(gltf)
    for name in glb:
        for a, b in zip(glb[name][:4], gltf[name][:4]):
            np.testing.assert_array_equal(a, b)
    document = json.loads(file_bytes(volume, "gltf"))
    uri = document["buffers"][0]["uri"]
    assert uri.startswith("data:application/octet-stream;base64,")
    assert len(base64.b64decode(uri.split(",", 1)[1])) == document["buffers"][0]["byteLength"]


def test_glb_chunks_are_aligned():
    data = file_bytes(maze_volume(2, 3), "glb")
    magic, version, length = np.frombuffer(data[:12], "<u4")
    assert data[:4] == b"glTF" and version == 2 and length == len(data)
    json_length = int(np.frombuffer(data[12:16], "<u4")[0])
    assert data[16:20] == b"JSON" and json_length % 4 == 0
    bin_header = 20 + json_length
    assert data[bin_header + 4:bin_header + 8] == b"BIN\0"
    assert int(np.frombuffer(data[bin_header:bin_header + 4], "<u4")[0]) % 4 == 0


def test_glb_loads_in_trimesh_with_the_same_triangles():
    volume = maze_volume(4, 4, 4, solution=True)
    scene = trimesh.load(io.BytesIO(file_bytes(volume, "glb")), file_type="glb")
    meshes = gltf_meshes(file_bytes(volume, "glb"))
    assert sorted(scene.geometry) == sorted(meshes)
    for name, geometry in scene.geometry.items():
        assert len(geometry.faces) == len(meshes[name][3])


def test_raw_mesh_has_fewer_triangles_and_the_same_volume():
    volume = maze_volume(8, 8, 6)
    tight = combined(gltf_meshes(file_bytes(volume, "glb")).values())
    raw = combined(gltf_meshes(file_bytes(volume, "glb", watertight=False)).values())
    assert len(raw[1]) < len(tight[1]) < 2 * culled_face_count(volume)
    assert signed_volume(*raw) == pytest.approx(signed_volume(*tight))
    assert not closed_mesh(*raw).is_watertight


# --- STL -------------------------------------------------------------------------------------


@pytest.mark.parametrize("block_size", [5.0, 1.0, 10.0])
def test_stl_is_one_closed_solid_in_millimetres_z_up(block_size, tmp_path):
    volume = maze_volume(5, 4, 8, solution=True)
    path = tmp_path / "maze.stl"
    options = {} if block_size == 5.0 else {"block_size": block_size}
    bm.write(volume, path, **options)
    solid = stl_mesh.Mesh.from_file(str(path), calculate_normals=False)  # the stored normals
    assert path.read_bytes()[:5] != b"solid"  # binary, not mistaken for ASCII
    assert solid.is_closed(exact=True)
    mass_volume, _, _ = solid.get_mass_properties()
    assert mass_volume == pytest.approx(np.count_nonzero(volume) * block_size**3)
    height, depth, width = volume.shape
    np.testing.assert_allclose(solid.min_, [0, 0, 0])
    np.testing.assert_allclose(solid.max_, np.array([width, depth, height]) * block_size)
    assert np.all(np.sort(np.abs(solid.normals), axis=1) == [0, 0, 1])
    # the stored normals point the way the corners wind (outward)
    cross = np.cross(solid.v1 - solid.v0, solid.v2 - solid.v0)
    assert np.all(np.einsum("ij,ij->i", cross, solid.normals) > 0)
    mesh = closed_mesh(solid.vectors.reshape(-1, 3), np.arange(3 * len(solid.vectors)).reshape(-1, 3))
    assert mesh.is_watertight and mesh.is_volume


def test_stl_z_up_is_a_rotation():
    """High y (up) -> high Z; north (z = 0) -> high Y, as the maze looks from above; no mirror."""
    volume = np.zeros((3, 4, 5), np.uint8)
    volume[2, 0, 4] = bm.Material.WALL   # top, north-east corner
    volume[0, 3, 0] = bm.Material.FLOOR  # bottom, south-west corner
    solid = stl_mesh.Mesh.from_file("maze.stl", fh=io.BytesIO(file_bytes(volume, "stl", block_size=1.0)))
    corners = solid.vectors.reshape(-1, 3)
    high = corners[corners[:, 2] > 1.5]
    assert high.min(axis=0).tolist() == [4, 3, 2] and high.max(axis=0).tolist() == [5, 4, 3]
    low = corners[corners[:, 2] < 1.5]
    assert low.min(axis=0).tolist() == [0, 0, 0] and low.max(axis=0).tolist() == [1, 1, 1]
    assert solid.get_mass_properties()[0] == pytest.approx(2.0)
    assert signed_volume(corners, np.arange(len(corners)).reshape(-1, 3)) == pytest.approx(2.0)


# --- OBJ, MTL, PLY -----------------------------------------------------------------------------


def test_obj_reads_back_in_meshio_and_trimesh(tmp_path):
    volume = maze_volume(4, 5, 2, solution=True)
    path = tmp_path / "maze.obj"
    bm.write(volume, path, block_size=0.5)  # writes maze.mtl beside it
    assert (tmp_path / "maze.mtl").read_bytes() == file_bytes(volume, "mtl")
    tight = gltf_meshes(file_bytes(volume, "glb", block_size=0.5))
    vertices, faces = combined(tight.values())
    read = meshio.read(path)
    assert len(read.points) == len(vertices)
    assert sum(len(block.data) for block in read.cells if block.type == "triangle") == len(faces)
    np.testing.assert_allclose(read.points, vertices)
    text = path.read_text()
    assert "mtllib maze.mtl" in text.splitlines()[:3]
    assert [line[2:] for line in text.splitlines() if line.startswith("o ")] == list(tight)
    assert text.count("\nvn ") == len(vertices)
    normals = np.concatenate([m[1] for m in tight.values()])
    np.testing.assert_array_equal(read.point_data["obj:vn"], normals)
    loaded = trimesh.load(path, force="mesh")  # finds maze.mtl beside it
    loaded = closed_mesh(loaded.vertices, loaded.faces)
    assert loaded.is_watertight and loaded.is_volume
    assert loaded.volume == pytest.approx(np.count_nonzero(volume) * 0.125)
    groups = np.concatenate(read.cell_data["obj:group_ids"])
    assert len(np.unique(groups)) == len(tight)


def test_mtl_names_each_material_present_with_its_colour():
    volume = maze_volume(2, 2, solution=True)
    text = file_bytes(volume, "mtl").decode("ascii")
    names = [line.split()[1] for line in text.splitlines() if line.startswith("newmtl")]
    assert names == ["wall", "floor", "path", "start", "goal"]
    kd = [line for line in text.splitlines() if line.startswith("Kd")]
    expected = srgb(bm.load_theme(), bm.Material.GOAL)
    np.testing.assert_allclose([float(v) for v in kd[-1].split()[1:]], expected, atol=1e-6)


def test_theme_colours_reach_glb_ply_and_mtl():
    theme = dataclasses.replace(bm.load_theme(), colors={bm.Material.WALL: "#ff8000"})
    volume = maze_volume(2, 2)
    out = io.BytesIO()
    bm.write(volume, out, format="glb", theme=theme)
    wall = gltf_meshes(out.getvalue())["wall"][4]
    np.testing.assert_allclose(wall.pbrMetallicRoughness.baseColorFactor,
                               [1.0, srgb_to_linear(128 / 255), 0.0, 1.0], atol=1e-6)
    out = io.BytesIO()
    bm.write(volume, out, format="mtl", theme=theme)
    assert "Kd 1.000000 0.501961 0.000000" in out.getvalue().decode()
    out = io.BytesIO()
    bm.write(volume, out, format="ply", theme=theme)
    ply = meshio.read(io.BytesIO(out.getvalue()), file_format="ply")
    # meshio 5.3 reads binary 'uchar' as int8 (its type table says "i1"): view the bytes unsigned
    colours = np.column_stack([ply.point_data[k] for k in ("red", "green", "blue")]).view(np.uint8)
    assert [255, 128, 0] in colours.tolist()


def test_ply_reads_back_in_meshio(tmp_path):
    volume = maze_volume(4, 3, 5, solution=True)
    path = tmp_path / "maze.ply"
    bm.write(volume, path)
    read = meshio.read(path)
    vertices, faces = combined(gltf_meshes(file_bytes(volume, "glb")).values())
    np.testing.assert_allclose(read.points, vertices)
    triangles = np.concatenate([b.data for b in read.cells if b.type == "triangle"])
    np.testing.assert_array_equal(triangles, faces)
    normals = np.column_stack([read.point_data[k] for k in ("nx", "ny", "nz")])
    assert np.all(np.sort(np.abs(normals), axis=1) == [0, 0, 1])
    assert signed_volume(read.points, triangles) == pytest.approx(np.count_nonzero(volume))
    materials = read.point_data["material"].view(np.uint8)  # meshio reads 'uchar' as int8
    assert sorted(set(materials.tolist())) == sorted(int(m) for m in np.unique(volume) if m)
    loaded = trimesh.load(path, process=False)
    assert len(loaded.faces) == len(faces)


# --- all formats ---------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS + ["mtl"])
def test_same_input_gives_identical_bytes(fmt):
    volume = maze_volume(6, 5, 42, solution=True)
    assert file_bytes(volume, fmt) == file_bytes(volume.copy(), fmt)


@pytest.mark.parametrize("fmt", FORMATS)
def test_path_by_suffix_and_stream_by_format_agree(fmt, tmp_path):
    volume = maze_volume(3, 3)
    path = tmp_path / f"maze.{fmt}"
    options = {"mtllib": "maze.mtl"} if fmt == "obj" else {}  # a file target references its .mtl
    bm.write(volume, path, **options)
    assert path.read_bytes() == file_bytes(volume, fmt, **options)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("block_size", [0, -1, float("nan"), "1", True])
def test_bad_block_size_is_refused(fmt, block_size, tmp_path):
    with pytest.raises(bm.BlockmazeError, match="block size"):
        bm.write(maze_volume(2, 2), tmp_path / f"maze.{fmt}", block_size=block_size)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("fmt", FORMATS)
def test_volume_without_solid_blocks_is_refused(fmt):
    with pytest.raises(bm.BlockmazeError, match="no solid block"):
        file_bytes(np.zeros((2, 3, 3), np.uint8), fmt)


def test_options_are_per_format():
    assert bm.writer_for(format="glb").options == ("block_size", "watertight", "collision")
    assert bm.writer_for(format="stl").options == ("block_size", "watertight")
    with pytest.raises(bm.BlockmazeError, match="stl does not take collision"):
        file_bytes(maze_volume(2, 2), "stl", collision=True)


def test_material_names():
    assert [material_name(m) for m in (1, 2, 4, 5, 6)] == ["wall", "floor", "path", "start", "goal"]


@settings(max_examples=20, deadline=None)
@given(shape=st.tuples(st.integers(1, 5), st.integers(1, 5), st.integers(1, 5)),
       seed=st.integers(0, 2**32 - 1), block_size=st.sampled_from([1.0, 0.5, 3.0]))
def test_random_volumes_keep_their_volume_in_every_format(shape, seed, block_size):
    volume = random_volume(shape, seed)
    solid = np.count_nonzero(volume)
    if solid == 0:
        return
    expected = solid * block_size**3
    meshes = gltf_meshes(file_bytes(volume, "glb", block_size=block_size))
    assert signed_volume(*combined(meshes.values())) == pytest.approx(expected)
    stl = stl_mesh.Mesh.from_file("x.stl", fh=io.BytesIO(file_bytes(volume, "stl", block_size=block_size)))
    assert stl.get_mass_properties()[0] == pytest.approx(expected)
    ply = meshio.read(io.BytesIO(file_bytes(volume, "ply", block_size=block_size)), file_format="ply")
    triangles = np.concatenate([b.data for b in ply.cells if b.type == "triangle"])
    assert signed_volume(ply.points, triangles) == pytest.approx(expected)


def test_stl_written_in_chunks_is_the_same(monkeypatch):
    from blockmaze.export.meshes import writers as meshes

    volume = maze_volume(4, 4, 3)
    whole = file_bytes(volume, "stl")
    monkeypatch.setattr(meshes, "_STL_CHUNK", 7)
    assert file_bytes(volume, "stl") == whole


VALIDATE = """
const validator = require('gltf-validator'); const fs = require('fs');
(async () => { for (const file of process.argv.slice(1)) {
  const report = await validator.validateBytes(new Uint8Array(fs.readFileSync(file)));
  console.log(JSON.stringify(report.issues));
}})();
"""


def test_khronos_validator_finds_no_error_or_warning(tmp_path):
    """Optional: set GLTF_VALIDATOR to a folder where `npm install gltf-validator` was run.

    Infos are allowed: TEXCOORD_0 is 'unused' until a texture is assigned in the engine.
    """
    import os
    import shutil
    import subprocess

    folder = os.environ.get("GLTF_VALIDATOR")
    if not folder or not shutil.which("node"):
        pytest.skip("GLTF_VALIDATOR (a folder with node_modules/gltf-validator) and node not set up")
    volume = maze_volume(6, 6, 3, solution=True)
    files = []
    for name, fmt, options in [("a.glb", "glb", {"collision": True}),
                               ("b.gltf", "gltf", {"block_size": 0.5}),
                               ("c.glb", "glb", {"watertight": False})]:
        bm.write(volume, tmp_path / name, format=fmt, **options)
        files.append(str(tmp_path / name))
    result = subprocess.run(["node", "-e", VALIDATE, *files], cwd=folder, capture_output=True,
                            text=True, check=True, timeout=120)
    reports = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(reports) == 3
    for report in reports:
        assert (report["numErrors"], report["numWarnings"]) == (0, 0), report["messages"][:5]


def test_obj_written_in_slices_is_the_same(monkeypatch):
    from blockmaze.export.meshes import writers as meshes

    volume = maze_volume(4, 4, 3, solution=True)
    whole = file_bytes(volume, "obj")
    monkeypatch.setattr(meshes, "_TEXT_ROWS", 5)
    assert file_bytes(volume, "obj") == whole


# --- 3MF, read back by lib3mf (the 3MF Consortium's own library) ---------------------------------


def read_3mf(path):
    import lib3mf  # a test dependency: the 3MF Consortium's reader

    model = lib3mf.get_wrapper().CreateModel()
    model.QueryReader("3mf").ReadFromFile(str(path))
    objects = model.GetMeshObjects()
    assert objects.MoveNext()
    mesh = objects.GetCurrentMeshObject()
    assert not objects.MoveNext()  # one object
    vertices = np.array([v.Coordinates[0:3] for v in mesh.GetVertices()], np.float64)
    triangles = np.array([t.Indices[0:3] for t in mesh.GetTriangleIndices()], np.int64)
    materials = [p.PropertyIDs[0] for p in mesh.GetAllTriangleProperties()]
    groups = model.GetBaseMaterialGroups()
    assert groups.MoveNext()
    group = groups.GetCurrentBaseMaterialGroup()
    names = {pid: group.GetName(pid) for pid in group.GetAllPropertyIDs()}
    return mesh, vertices, triangles, [names[m] for m in materials]


@pytest.mark.parametrize("rows, cols, seed", [(3, 4, 1), (6, 5, 9)])
def test_3mf_is_a_manifold_print_with_exact_volume(tmp_path, rows, cols, seed):
    volume = maze_volume(rows, cols, seed, solution=True)
    path = tmp_path / "maze.3mf"
    bm.write(volume, path, block_size=2.0)
    mesh, vertices, triangles, names = read_3mf(path)
    assert mesh.IsManifoldAndOriented()
    assert signed_volume(vertices, triangles) == pytest.approx(np.count_nonzero(volume) * 8.0)
    height, length, width = volume.shape
    np.testing.assert_allclose(vertices.max(axis=0), [2.0 * width, 2.0 * length, 2.0 * height])  # Z-up
    assert set(names) == {"wall", "floor", "path", "start", "goal"}
    assert len(triangles) == len(names)
