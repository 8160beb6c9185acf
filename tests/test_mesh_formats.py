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
from blockmaze.export.meshes.common import material_name
import readers
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


# --- a glTF reader: pygltflib for the structure, numpy (and meshopt's decoder) for the accessors --

COMPONENTS = {5126: np.float32, 5125: np.uint32, 5123: np.uint16, 5122: np.int16, 5121: np.uint8,
              5120: np.int8}
WIDTH = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}


def load_gltf(data: bytes):
    if data[:4] == b"glTF":
        gltf = pygltflib.GLTF2.load_from_bytes(data)
        blob = gltf.binary_blob()
    else:
        gltf = pygltflib.GLTF2.from_json(data.decode("utf-8"))
        blob = gltf.get_data_from_buffer_uri(gltf.buffers[0].uri)
    assert gltf.buffers[0].byteLength == len(blob)
    return gltf, blob


def view_bytes(gltf, blob, index):
    """A buffer view's bytes, decoded with meshoptimizer's decoder when it is compressed."""
    view = gltf.bufferViews[index]
    meshopt = (view.extensions or {}).get("EXT_meshopt_compression")
    if meshopt is None:
        assert view.buffer == 0
        return blob[view.byteOffset or 0:(view.byteOffset or 0) + view.byteLength], view.byteStride
    import meshoptimizer

    data = blob[meshopt["byteOffset"]:meshopt["byteOffset"] + meshopt["byteLength"]]
    stride, count = meshopt["byteStride"], meshopt["count"]
    if meshopt["mode"] == "ATTRIBUTES":
        decoded = meshoptimizer.decode_vertex_buffer(count, stride, data)
    else:
        assert meshopt["mode"] == "TRIANGLES"
        decoded = meshoptimizer.decode_index_buffer(count, stride, data)
    decoded = np.asarray(decoded).tobytes()[:count * stride]  # (its array type ignores the size)
    assert len(decoded) == count * stride == view.byteLength
    return decoded, view.byteStride


def accessor_array(gltf, blob, index):
    accessor = gltf.accessors[index]
    data, stride = view_bytes(gltf, blob, accessor.bufferView)
    dtype = np.dtype(COMPONENTS[accessor.componentType])
    width = WIDTH[accessor.type]
    stride = stride or width * dtype.itemsize
    assert stride % 4 == 0 or accessor.type == "SCALAR"
    rows = np.frombuffer(data, np.uint8, count=accessor.count * stride,
                         offset=accessor.byteOffset or 0).reshape(accessor.count, stride)
    array = rows[:, :width * dtype.itemsize].copy().view(dtype).reshape(accessor.count, width)
    if accessor.normalized:
        array = np.maximum(array / np.iinfo(dtype).max, -1.0)
    return array if width > 1 else array.reshape(-1)


def gltf_parts(data: bytes):
    """[(node path, positions in metres, normals, uv, triangles, material)] of a blockmaze glTF,
    node transforms applied (translation and uniform scale only)."""
    gltf, blob = load_gltf(data)
    assert gltf.asset.version == "2.0"
    out = []

    def walk(index, path, offset, scale):
        node = gltf.nodes[index]
        assert node.matrix is None and node.rotation is None
        if node.scale is not None:
            assert len(set(node.scale)) == 1
        translation = np.array(node.translation or [0, 0, 0], np.float64)
        offset = offset + scale * translation
        scale = scale * (node.scale[0] if node.scale else 1.0)
        path = path + [node.name]
        if node.mesh is not None:
            mesh = gltf.meshes[node.mesh]
            assert mesh.name == node.name
            (primitive,) = mesh.primitives
            assert primitive.mode in (None, 4)  # triangles
            attributes = primitive.attributes
            raw = accessor_array(gltf, blob, attributes.POSITION)
            accessor = gltf.accessors[attributes.POSITION]
            assert accessor.min == raw.min(axis=0).tolist()
            assert accessor.max == raw.max(axis=0).tolist()
            positions = offset + scale * raw.astype(np.float64)
            normals = accessor_array(gltf, blob, attributes.NORMAL) if attributes.NORMAL is not None else None
            uv = accessor_array(gltf, blob, attributes.TEXCOORD_0) if attributes.TEXCOORD_0 is not None else None
            indices = accessor_array(gltf, blob, primitive.indices)
            assert indices.max() < len(raw)
            if len(raw) <= 65535:
                assert gltf.accessors[primitive.indices].componentType == 5123  # 16-bit
            material = gltf.materials[primitive.material] if primitive.material is not None else None
            out.append((path, positions, normals, uv, indices.reshape(-1, 3).astype(np.int64), material))
        for child in node.children or []:
            walk(child, path, offset, scale)

    for index in gltf.scenes[gltf.scene].nodes:
        walk(index, [], np.zeros(3), 1.0)
    return out


def gltf_meshes(data: bytes):
    """{material node name: (positions, normals, uv, triangles, material)}: a material's chunks
    joined (the collision node by its name)."""
    out = {}
    for path, positions, normals, uv, triangles, material in gltf_parts(data):
        name = path[1] if len(path) > 2 else path[-1]
        out.setdefault(name, []).append((positions, normals, uv, triangles, material))
    joined = {}
    for name, parts in out.items():
        offsets = np.cumsum([0] + [len(p[0]) for p in parts])

        def cat(k, parts=parts):
            return None if parts[0][k] is None else np.concatenate([p[k] for p in parts])

        joined[name] = (cat(0), cat(1), cat(2),
                        np.concatenate([p[3] + o for p, o in zip(parts, offsets, strict=False)]), parts[0][4])
    return joined


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


GLTF_VARIANTS = [{}, {"quantize": True}, {"compress": "meshopt"}, {"chunk": 4}, {"chunk": 0},
                 {"uv": True}, {"chunk": 5, "quantize": False, "uv": True, "compress": "meshopt"}]


# every variant as .glb in three block sizes; the .gltf (the same code) in a few
GLTF_CASES = ([("glb", size, options) for size in (1.0, 0.25, 2.5) for options in GLTF_VARIANTS]
              + [("gltf", 1.0, options) for options in GLTF_VARIANTS]
              + [("gltf", size, {}) for size in (0.25, 2.5)])


@pytest.mark.slow
@pytest.mark.parametrize("fmt, block_size, options", GLTF_CASES)
def test_gltf_scene_has_a_node_per_material_and_the_exact_volume(fmt, block_size, options):
    volume = maze_volume(5, 6, 3, solution=True)
    meshes = gltf_meshes(file_bytes(volume, fmt, block_size=block_size, **options))
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
        if options.get("uv"):
            assert uv.shape == (len(positions), 2)
        else:
            assert uv is None  # no texture: no UVs unless asked (as gltfpack drops unused ones)


@pytest.mark.parametrize("chunk", [0, 2])
def test_gltf_uvs_are_world_space_block_coordinates(chunk):
    """UVs count blocks in the face's plane, whatever the block size: textures tile per block
    (in a chunk, UVs start at the chunk's corner: whole blocks apart, the same tiling)."""
    volume = np.full((1, 1, 3), bm.Material.WALL, np.uint8)  # a 3x1x1 bar
    positions, normals, uv, _, _ = gltf_meshes(
        file_bytes(volume, "glb", block_size=0.5, uv=True, chunk=chunk))["wall"]
    top = normals[:, 1] == 1
    shift = np.array([0.0, 0.0]) if chunk == 0 else None

    def same_tiling(a, b):
        difference = np.asarray(a, np.float64) - np.asarray(b, np.float64)
        np.testing.assert_allclose(difference, np.round(difference))
        if shift is not None:
            np.testing.assert_allclose(difference, 0)

    same_tiling(uv[top, 0], positions[top, 0] / 0.5)   # u = x in blocks
    side = normals[:, 2] == 1
    same_tiling(uv[side, 0], positions[side, 0] / 0.5)
    same_tiling(uv[side, 1], -positions[side, 1] / 0.5)  # v down the image = -y
    assert np.ptp(uv[top, 0]) == (3 if chunk == 0 else 2)


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
    document = json.loads(file_bytes(volume, "gltf", collision=True))
    (node,) = [n for n in document["nodes"] if n["name"] == "collision-colonly"]
    assert node["extensions"] == {"KHR_node_visibility": {"visible": False}}  # hidden (Godot 4.5+)
    assert "KHR_node_visibility" in document["extensionsUsed"]
    assert "KHR_node_visibility" not in document.get("extensionsRequired", [])  # others show it


def test_glb_and_gltf_hold_the_same_scene():
    volume = maze_volume(3, 4, 9, solution=True)
    glb, gltf = gltf_meshes(file_bytes(volume, "glb")), gltf_meshes(file_bytes(volume, "gltf"))
    assert list(glb) == list(gltf)
    for name in glb:
        for a, b in zip(glb[name][:4], gltf[name][:4], strict=True):
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


@pytest.mark.parametrize("options", [{}, {"chunk": 3}])
def test_glb_loads_in_trimesh_with_the_same_triangles(options):
    """trimesh reads the float glTF (it knows no KHR_mesh_quantization) with our node transforms."""
    volume = maze_volume(4, 4, 4, solution=True)
    data = file_bytes(volume, "glb", block_size=2.0, **options)
    scene = trimesh.load(io.BytesIO(data), file_type="glb")
    parts = gltf_parts(data)
    assert sorted(scene.geometry) == sorted(path[-1] for path, *_ in parts)
    ours = np.concatenate([positions[triangles] for _, positions, _, _, triangles, _ in parts])
    theirs = scene.to_geometry()
    assert len(theirs.faces) == len(ours)
    np.testing.assert_allclose(np.sort(theirs.triangles.reshape(-1, 9), axis=0),
                               np.sort(ours.reshape(-1, 9), axis=0))


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


def test_obj_reads_back_in_trimesh_with_shared_positions(tmp_path):
    """Positions are shared within a material's group (one connected surface per material, closed
    together), normals are the six axis ``vn`` lines, faces ``v/vt/vn`` (meshio cannot read that
    layout: it wants one vt and vn per v; trimesh, Blender, Godot and assimp can)."""
    volume = maze_volume(4, 5, 2, solution=True)
    path = tmp_path / "maze.obj"
    bm.write(volume, path, block_size=0.5)  # writes maze.mtl beside it
    assert (tmp_path / "maze.mtl").read_bytes() == file_bytes(volume, "mtl")
    tight = gltf_meshes(file_bytes(volume, "glb", block_size=0.5, chunk=0))
    text = path.read_text()
    assert "mtllib maze.mtl" in text.splitlines()[:3]
    assert [line[2:] for line in text.splitlines() if line.startswith("o ")] == list(tight)
    assert text.count("\nvn ") == 6
    for group in text.split("\no ")[1:]:
        points = [line for line in group.splitlines() if line.startswith("v ")]
        assert len(points) == len(set(points))  # each position once per group
    loaded = trimesh.load(path, process=False)  # a scene: a geometry per material
    assert sorted(loaded.geometry) == sorted(tight)
    for name, geometry in loaded.geometry.items():
        assert len(geometry.faces) == len(tight[name][3])
        normals = geometry.vertex_normals[geometry.faces[:, 0]]
        np.testing.assert_allclose(normals, geometry.face_normals, atol=1e-6)  # flat, outward
    whole = closed_mesh(*combined([(g.vertices, None, None, g.faces, None)
                                   for g in loaded.geometry.values()]))
    assert whole.is_watertight and whole.is_volume
    assert whole.volume == pytest.approx(np.count_nonzero(volume) * 0.125)


def test_mtl_names_each_material_present_with_its_colour():
    volume = maze_volume(2, 2, solution=True)
    text = file_bytes(volume, "mtl").decode("ascii")
    names = [line.split()[1] for line in text.splitlines() if line.startswith("newmtl")]
    assert names == ["wall", "floor", "path", "start", "goal"]
    kd = [line for line in text.splitlines() if line.startswith("Kd")]
    expected = srgb(bm.load_theme(), bm.Material.GOAL)  # sRGB, as MTLLoader and Godot read Kd
    assert not any(line.startswith("Ka") for line in text.splitlines())  # Godot warns on Ka
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
    assert f"Kd 1.000000 {128 / 255:.6f} 0.000000" in out.getvalue().decode()
    out = io.BytesIO()
    bm.write(volume, out, format="ply", theme=theme)
    ply = meshio.read(io.BytesIO(out.getvalue()), file_format="ply")
    # meshio 5.3 reads binary 'uchar' as int8 (its type table says "i1"): view the bytes unsigned
    colours = np.column_stack([ply.point_data[k] for k in ("red", "green", "blue")]).view(np.uint8)
    assert [255, 128, 0] in colours.tolist()


def test_ply_reads_back_in_meshio_z_up(tmp_path):
    """The glTF's vertices (chunk 0: the same parts), rotated Y-up -> Z-up: the maze lies flat."""
    volume = maze_volume(4, 3, 5, solution=True)
    path = tmp_path / "maze.ply"
    bm.write(volume, path)
    read = meshio.read(path)
    vertices, faces = combined(gltf_meshes(file_bytes(volume, "glb", chunk=0)).values())
    height, depth, width = volume.shape
    np.testing.assert_allclose(read.points, np.column_stack(
        [vertices[:, 0], depth - vertices[:, 2], vertices[:, 1]]))
    np.testing.assert_allclose(read.points.max(axis=0), [width, depth, height])
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


def test_the_default_gltf_requires_no_extension(tmp_path, capsys):
    """Every engine loads the default file (Godot 4 refuses KHR_mesh_quantization): plain floats,
    no extensionsRequired, no warning; --quantize asks for the extension, --compress meshopt
    implies it unless --no-quantize."""
    from blockmaze.cli import main

    def required(*options):
        path = tmp_path / "m.glb"
        assert main(["generate", "4x4", "--seed", "1", "-o", str(path), *options]) == 0
        data = path.read_bytes()
        document = json.loads(data[20:20 + int.from_bytes(data[12:16], "little")])  # the JSON chunk
        floats = all(a["componentType"] == 5126 for a in document["accessors"] if a["type"] == "VEC3")
        return document.get("extensionsRequired", []), floats

    assert required() == ([], True)
    assert "Godot" not in capsys.readouterr().err
    assert required("--quantize") == (["KHR_mesh_quantization"], False)
    assert required("--compress", "meshopt") == (["KHR_mesh_quantization", "EXT_meshopt_compression"], False)
    assert required("--compress", "meshopt", "--no-quantize") == (["EXT_meshopt_compression"], True)
    assert required("--no-quantize") == ([], True)


def test_options_are_per_format():
    assert bm.writer_for(format="glb").options == (
        "block_size", "watertight", "collision", "chunk", "quantize", "compress", "uv", "navmesh")
    assert bm.writer_for(format="stl").options == ("block_size", "watertight", "finger", "bed")
    assert bm.writer_for(format="3mf").options == ("block_size", "bed")
    with pytest.raises(bm.BlockmazeError, match="stl does not take collision"):
        file_bytes(maze_volume(2, 2), "stl", collision=True)


def test_material_names():
    assert [material_name(m) for m in (1, 2, 4, 5, 6)] == ["wall", "floor", "path", "start", "goal"]


@pytest.mark.slow
@settings(max_examples=20, deadline=None)
@given(shape=st.tuples(st.integers(1, 5), st.integers(1, 5), st.integers(1, 5)),
       seed=st.integers(0, 2**32 - 1), block_size=st.sampled_from([1.0, 0.5, 3.0]))
def test_random_volumes_keep_their_volume_in_every_format(shape, seed, block_size):
    """The raw mesh keeps the volume exactly; the watertight one too, but for a half-block cell
    or two beside each edge where blocks touch along that edge only (sealed)."""
    volume = random_volume(shape, seed)
    solid = np.count_nonzero(volume)
    if solid == 0:
        return
    expected = solid * block_size**3
    sealed = edge_only_contacts(volume) * 2 * 0.125 * block_size**3  # 2 fills a contact at most
    for options in ({"watertight": False}, {}):
        low, high = expected, expected + (sealed if not options else 0)
        meshes = gltf_meshes(file_bytes(volume, "glb", block_size=block_size, **options))
        assert low - 1e-6 <= signed_volume(*combined(meshes.values())) <= high + 1e-6
        stl = stl_mesh.Mesh.from_file("x.stl", fh=io.BytesIO(file_bytes(volume, "stl", block_size=block_size, **options)))
        assert low - 1e-6 <= stl.get_mass_properties()[0] <= high + 1e-6
        ply = meshio.read(io.BytesIO(file_bytes(volume, "ply", block_size=block_size, **options)), file_format="ply")
        triangles = np.concatenate([b.data for b in ply.cells if b.type == "triangle"])
        assert low - 1e-6 <= signed_volume(ply.points, triangles) <= high + 1e-6


def edge_only_contacts(volume) -> int:
    """Half-block edges (two a block edge) where two solid blocks touch along that edge only."""
    solid = np.pad(volume != 0, 1)
    count = 0
    for axis in range(3):  # the edge's direction
        a, b = [k for k in range(3) if k != axis]

        def cut(da, db, a=a, b=b):
            return solid[tuple(slice(d, solid.shape[k] - 1 + d) if k in (a, b) else slice(None)
                               for k, d in ((k, {a: da, b: db}.get(k, 0)) for k in range(3)))]

        s00, s01, s10, s11 = cut(0, 0), cut(0, 1), cut(1, 0), cut(1, 1)
        count += 2 * int(((s00 & s11 & ~s01 & ~s10) | (s01 & s10 & ~s00 & ~s11)).sum())
    return count


def test_stl_written_in_chunks_is_the_same(monkeypatch):
    from blockmaze.export.meshes import stl as meshes

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


def assert_validator_passes(folder, files: list[str]) -> None:
    """The Khronos validator (run from its npm ``folder``) finds no error or warning in ``files``."""
    import subprocess

    result = subprocess.run(["node", "-e", VALIDATE, *files], cwd=folder, capture_output=True,
                            text=True, check=True, timeout=120)
    reports = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(reports) == len(files)
    for report in reports:
        assert (report["numErrors"], report["numWarnings"]) == (0, 0), report["messages"][:5]


@pytest.mark.reader
def test_khronos_validator_finds_no_error_or_warning(tmp_path):
    """The Khronos validator (npm gltf-validator; GLTF_VALIDATOR names its folder).

    Infos are allowed: TEXCOORD_0 is 'unused' until a texture is assigned in the engine.
    """

    folder = readers.node_package("gltf-validator", "GLTF_VALIDATOR")
    volume = maze_volume(6, 6, 3, solution=True)
    stairs = maze_volume(3, 3, 1)
    stairs[1, 1, 2:4] = bm.Material.STAIRS  # steps, on a half-block lattice
    stairs[2, 1, 4] = bm.Material.STAIRS
    glass = bm.load_theme("glass")
    files = []
    for name, fmt, blocks, options in [
            ("a.glb", "glb", volume, {"collision": True}),
            ("b.gltf", "gltf", volume, {"block_size": 0.5, "uv": True}),
            ("c.glb", "glb", volume, {"watertight": False, "chunk": 5}),
            ("d.glb", "glb", volume, {"compress": "meshopt", "uv": True, "theme": glass}),
            ("e.gltf", "gltf", volume, {"compress": "meshopt", "quantize": False, "chunk": 4}),
            ("f.glb", "glb", volume, {"quantize": False, "chunk": 0, "uv": True}),
            ("g.glb", "glb", stairs, {"uv": True}),
            ("h.glb", "glb", stairs, {"compress": "meshopt", "chunk": 3})]:
        bm.write(blocks, tmp_path / name, format=fmt, **options)
        files.append(str(tmp_path / name))
    assert_validator_passes(folder, files)


def test_obj_written_in_slices_is_the_same(monkeypatch):
    from blockmaze.export.meshes import obj as meshes

    volume = maze_volume(4, 4, 3, solution=True)
    whole = file_bytes(volume, "obj")
    monkeypatch.setattr(meshes, "_TEXT_ROWS", 5)
    assert file_bytes(volume, "obj") == whole


# --- 3MF, read back by lib3mf (the 3MF Consortium's own library) ---------------------------------


def read_3mf(path):
    """[(name, mesh, vertices, triangles, colour name)] of the file's objects, by lib3mf."""
    import lib3mf  # a test dependency: the 3MF Consortium's reader

    model = lib3mf.get_wrapper().CreateModel()
    model.QueryReader("3mf").ReadFromFile(str(path))
    groups = model.GetBaseMaterialGroups()
    assert groups.MoveNext()
    group = groups.GetCurrentBaseMaterialGroup()
    assert not groups.MoveNext()
    objects, out = model.GetMeshObjects(), []
    while objects.MoveNext():
        mesh = objects.GetCurrentMeshObject()
        vertices = np.array([v.Coordinates[0:3] for v in mesh.GetVertices()], np.float64)
        triangles = np.array([t.Indices[0:3] for t in mesh.GetTriangleIndices()], np.int64)
        resource, colour, present = mesh.GetObjectLevelProperty()
        assert present and resource == group.GetUniqueResourceID()
        out.append((mesh.GetName(), mesh, vertices, triangles, group.GetName(colour)))
    return out


@pytest.mark.parametrize("rows, cols, seed", [(3, 4, 1), (6, 5, 9)])
def test_3mf_is_an_object_per_material_each_a_manifold_solid(tmp_path, rows, cols, seed):
    """Slicers give each object its own filament: an object per material, each closed and
    oriented on its own, together the maze's exact volume, coloured by its base material."""
    volume = maze_volume(rows, cols, seed, solution=True)
    path = tmp_path / "maze.3mf"
    bm.write(volume, path, block_size=2.0)
    objects = read_3mf(path)
    assert [name for name, *_ in objects] == ["wall", "floor", "path", "start", "goal"]
    everything = []
    for name, mesh, vertices, triangles, colour in objects:
        assert colour == name
        assert mesh.IsManifoldAndOriented()
        value = bm.Material[name.upper()]
        assert signed_volume(vertices, triangles) == pytest.approx(np.count_nonzero(volume == value) * 8.0)
        everything.append(vertices)
    height, length, width = volume.shape
    np.testing.assert_allclose(np.concatenate(everything).max(axis=0),
                               [2.0 * width, 2.0 * length, 2.0 * height])  # Z-up


@pytest.mark.parametrize("build", ["layered", "dungeon"])
def test_3mf_objects_do_not_overlap(tmp_path, build):
    """Each object holds its own material's solid only (a stair's riser is the stairs' alone):
    every object voxelised on the half-block lattice (tests/meshwalk.py, from its triangles),
    no cell lies in two objects, and together they hold the .glb's volume."""
    from blockmaze.dungeon import generate_dungeon, stack_dungeon
    from meshwalk import solid_lattice

    if build == "layered":  # the issue's case: 3 levels, spiral stairs
        maze = bm.generate(bm.layered_grid(3, 4, 5), rng=1)
        volume = bm.build(maze, bm.place_endpoints(maze), solution=True)
    else:
        volume = stack_dungeon(generate_dungeon((10, 12), rng=4, style="caves", levels=3), 3)
    bm.write(volume, tmp_path / "m.3mf", block_size=2.0)
    height, depth, width = volume.shape
    owners = np.zeros((2 * height, 2 * depth, 2 * width), np.int64)
    for _name, _mesh, vertices, triangles, _ in read_3mf(tmp_path / "m.3mf"):
        y_up = np.column_stack([vertices[:, 0], vertices[:, 2], depth * 2.0 - vertices[:, 1]]) / 2.0
        cells = solid_lattice(y_up, triangles)
        owners[:cells.shape[0], :cells.shape[1], :cells.shape[2]] += cells
    assert owners.max() == 1, f"{np.count_nonzero(owners > 1)} half-block cells in two objects"
    glb = signed_volume(*combined(gltf_meshes(file_bytes(volume, "glb", quantize=False)).values()))
    assert owners.sum() / 8 == pytest.approx(glb)


def test_glass_is_translucent_with_alpha_blend():
    volume = maze_volume(2, 2)
    meshes = gltf_meshes(file_bytes(volume, "glb", theme=bm.load_theme("glass")))
    wall, floor = meshes["wall"][4], meshes["floor"][4]
    assert wall.alphaMode == "BLEND" and wall.pbrMetallicRoughness.baseColorFactor[3] < 1
    assert floor.alphaMode in (None, "OPAQUE") and floor.pbrMetallicRoughness.baseColorFactor[3] == 1
    mtl = file_bytes(volume, "mtl", theme=bm.load_theme("glass")).decode()
    assert "\nd 0.35\n" in mtl and "\nd 1\n" in mtl
