"""The greedy mesher, checked by code that shares nothing with it.

Checks: a brute-force face list (every unit face where a solid block meets AIR or the outside)
that the rectangles must tile exactly; trimesh's ``is_watertight``/``is_volume``/``volume`` and
``euler_number`` on the vertices merged by position; a directed unit-edge balance that tolerates
T-junctions (for the raw greedy mesh); manifold3d where installed.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
import trimesh
from hypothesis import given, settings
from hypothesis import strategies as st

import blockmaze as bm
from blockmaze.export.meshes import (
    collision_boxes, culled_face_count, greedy_quads, mesh_blocks, triangulate,
)
import readers


def maze_volume(rows=4, cols=5, seed=1, height=3, roof=False):
    return bm.extrude(bm.to_blocks(bm.generate((rows, cols), rng=seed)), height=height, roof=roof)


def random_volume(shape, seed, density=0.5, materials=3):
    rng = np.random.default_rng(seed)
    solid = rng.random(shape) < density
    return np.where(solid, rng.integers(1, materials + 1, shape), 0).astype(np.uint8)


def exposed_faces(volume):
    """Brute force: {(axis, sign, plane, b, c): material} for every exposed unit face.

    Axis 0/1/2 = x/y/z; (b, c) are the two other coordinates in cyclic order after the axis.
    """
    size_y, size_z, size_x = volume.shape
    faces = {}
    for y in range(size_y):
        for z in range(size_z):
            for x in range(size_x):
                m = int(volume[y, z, x])
                if m == 0:
                    continue
                p = (x, y, z)
                for axis in range(3):
                    for sign in (-1, 1):
                        q = list(p)
                        q[axis] += sign
                        qx, qy, qz = q
                        inside = 0 <= qx < size_x and 0 <= qy < size_y and 0 <= qz < size_z
                        if inside and volume[qy, qz, qx] != 0:
                            continue
                        plane = p[axis] + (sign > 0)
                        b, c = p[(axis + 1) % 3], p[(axis + 2) % 3]
                        faces[(axis, sign, plane, b, c)] = m
    return faces


def merged(surface):
    """A trimesh of the surface with vertices merged by position (render meshes are unshared)."""
    mesh = trimesh.Trimesh(surface.vertices.astype(np.float64), surface.faces.astype(np.int64),
                           process=False)
    mesh.merge_vertices(merge_tex=True, merge_norm=True)
    return mesh


def unit_edge_balance(vertices, faces):
    """Directed unit edge segments a->b minus their reverses: empty for a closed surface.

    Holds with T-junctions too: each edge is cut into unit steps of the integer lattice.
    """
    balance = Counter()
    corners = np.rint(vertices[faces]).astype(np.int64)
    for triangle in corners:
        for i in range(3):
            a, b = triangle[i], triangle[(i + 1) % 3]
            step = b - a
            length = int(np.abs(step).max())
            if np.count_nonzero(step) != 1:  # a diagonal: the triangle's inner side, cut in two
                balance[(tuple(a), tuple(b))] += 1
                continue
            unit = step // length
            for t in range(length):
                p, q = tuple(a + t * unit), tuple(a + (t + 1) * unit)
                balance[(p, q)] += 1
    leftover = {}
    for (p, q), n in balance.items():
        diff = n - balance.get((q, p), 0)
        if diff:
            leftover[(p, q)] = diff
    return leftover


def edge_contacts(volume):
    """2x2 windows in any axis plane where two solid blocks touch only along an edge."""
    solid = volume != 0
    count = 0
    for axes in ((0, 1), (1, 2), (0, 2)):
        s = np.moveaxis(solid, axes, (0, 1))
        a, b = s[:-1, :-1], s[1:, 1:]
        c, d = s[:-1, 1:], s[1:, :-1]
        count += int(np.count_nonzero((a & b & ~c & ~d) | (c & d & ~a & ~b)))
    return count


def rasterized_quads(quads):
    faces = {}
    for axis, sign, plane, b0, c0, b1, c1, material in quads.data.tolist():
        for b in range(b0, b1):
            for c in range(c0, c1):
                key = (axis, sign, plane, b, c)
                assert key not in faces, f"two rectangles cover {key}"
                faces[key] = material
    return faces


def check_normals_and_winding(surface):
    """Each vertex normal is a unit axis vector, and each triangle's geometric normal agrees."""
    normals = surface.normals
    assert np.all(np.sort(np.abs(normals), axis=1) == [0, 0, 1])
    corners = surface.vertices[surface.faces].astype(np.float64)
    cross = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    assert np.all(np.linalg.norm(cross, axis=1) > 0), "a degenerate triangle"
    given_normal = normals[surface.faces[:, 0]]
    assert np.all(normals[surface.faces[:, 1]] == given_normal)
    assert np.all(normals[surface.faces[:, 2]] == given_normal)
    np.testing.assert_allclose(cross / np.linalg.norm(cross, axis=1)[:, None], given_normal)


def check_groups(surface, volume):
    present = sorted(int(m) for m in np.unique(volume) if m != 0)
    if present:
        assert [g.material for g in surface.groups] <= present
    previous_vertex, previous_face = 0, 0
    for group in surface.groups:
        assert group.vertex_start == previous_vertex and group.face_start == previous_face
        faces = surface.faces[group.face_start:group.face_stop]
        assert faces.min() >= group.vertex_start and faces.max() < group.vertex_stop
        previous_vertex, previous_face = group.vertex_stop, group.face_stop
    assert previous_vertex == len(surface.vertices) and previous_face == len(surface.faces)


# --- examples --------------------------------------------------------------------------------


def test_cube_is_twelve_triangles():
    """A solid box of any size and one material is 6 rectangles, 12 triangles, 24 vertices."""
    surface = mesh_blocks(np.full((3, 4, 5), bm.Material.WALL, np.uint8))
    assert surface.faces.shape == (12, 3) and surface.vertices.shape == (24, 3)
    mesh = merged(surface)
    assert mesh.is_watertight and mesh.is_volume and mesh.volume == pytest.approx(60)
    assert mesh.bounds.tolist() == [[0, 0, 0], [5, 3, 4]]  # (x, y, z) = (east, up, south)


def test_empty_volume_has_no_surface():
    surface = mesh_blocks(np.zeros((2, 3, 4), np.uint8))
    assert surface.groups == () and len(surface.faces) == 0 and len(surface.vertices) == 0


def test_block_lands_at_its_coordinates():
    """blocks[y, z, x] fills the cube (x, y, z)..(x+1, y+1, z+1): high x, y, z stay high."""
    volume = np.zeros((3, 4, 5), np.uint8)
    volume[2, 1, 4] = bm.Material.GOAL
    surface = mesh_blocks(volume)
    assert surface.vertices.min(axis=0).tolist() == [4, 2, 1]
    assert surface.vertices.max(axis=0).tolist() == [5, 3, 2]
    assert merged(surface).volume == pytest.approx(1.0)  # positive: outward winding


def test_faces_between_materials_are_interior():
    """Two blocks of different materials side by side: 10 unit faces, none between them."""
    volume = np.array([[[bm.Material.WALL, bm.Material.GOAL]]], np.uint8)
    faces = rasterized_quads(greedy_quads(volume))
    assert faces == exposed_faces(volume) and len(faces) == 10
    surface = mesh_blocks(volume)
    assert [g.material for g in surface.groups] == [bm.Material.WALL, bm.Material.GOAL]
    mesh = merged(surface)
    assert mesh.is_watertight and mesh.is_volume and mesh.volume == pytest.approx(2)


def test_t_junctions_are_split():
    """An L of three blocks: the raw mesh has T-junctions (not watertight), the default has none."""
    volume = np.array([[[1, 1]], [[1, 0]]], np.uint8)
    raw, tight = mesh_blocks(volume, watertight=False), mesh_blocks(volume)
    assert not merged(raw).is_watertight
    assert merged(tight).is_watertight and merged(tight).is_volume
    assert len(raw.faces) < len(tight.faces)
    assert unit_edge_balance(raw.vertices, raw.faces) == {}


def test_diagonal_edge_contact_is_closed_but_not_two_manifold():
    """Blocks touching along one edge only: closed, exact volume, 4 triangles on that edge.

    Such contacts never occur in an extruded 2n+1 maze; the mesher does not pinch them apart.
    """
    volume = np.array([[[1, 0], [0, 1]]], np.uint8)
    surface = mesh_blocks(volume)
    assert unit_edge_balance(surface.vertices, surface.faces) == {}
    mesh = merged(surface)
    assert mesh.volume == pytest.approx(2) and not mesh.is_watertight


@pytest.mark.parametrize("rows, cols, seed, roof", [(3, 3, 1, False), (6, 4, 7, False),
                                                    (5, 5, 3, True), (12, 9, 11, False)])
def test_maze_is_a_closed_volume_of_genus_zero(rows, cols, seed, roof):
    """Walls on a floor slab (under a roof): watertight, a volume, Euler number 2 (no handle)."""
    volume = maze_volume(rows, cols, seed, roof=roof)
    surface = mesh_blocks(volume)
    mesh = merged(surface)
    assert mesh.is_watertight and mesh.is_volume and mesh.is_winding_consistent
    assert mesh.volume == pytest.approx(np.count_nonzero(volume))
    # a perfect maze's walls are a tree joined to the outer ring: on the floor, no handle (a
    # sphere, Euler 2); under a roof the passages, also a tree, are a sealed cavity (2 + 2)
    assert mesh.euler_number == (4 if roof else 2)
    check_normals_and_winding(surface)
    check_groups(surface, volume)


def test_maze_passes_manifold3d():
    manifold3d = readers.module("manifold3d", "manifold3d")
    volume = maze_volume(8, 8, 5)
    mesh = merged(mesh_blocks(volume))
    solid = manifold3d.Manifold(manifold3d.Mesh(
        vert_properties=np.asarray(mesh.vertices, np.float32),
        tri_verts=np.asarray(mesh.faces, np.uint32)))
    assert solid.status() == manifold3d.Error.NoError
    assert solid.volume() == pytest.approx(np.count_nonzero(volume))
    assert solid.genus() == 0


@pytest.mark.parametrize("rows, cols, seed", [(10, 10, 1), (20, 30, 2), (40, 40, 3)])
def test_greedy_beats_face_culling_on_mazes(rows, cols, seed):
    """Both the raw and the watertight greedy mesh have fewer triangles than culling (2 per face)."""
    volume = maze_volume(rows, cols, seed)
    culled = 2 * culled_face_count(volume)
    raw, tight = mesh_blocks(volume, watertight=False), mesh_blocks(volume)
    assert len(raw.faces) < len(tight.faces) < culled
    assert culled / len(tight.faces) > 3  # measured 5.3x on a 1000x1000 maze (bench_mesh.py)


def test_culled_face_count_matches_brute_force():
    volume = random_volume((4, 5, 6), seed=3)
    assert culled_face_count(volume) == len(exposed_faces(volume))


def test_collision_boxes_tile_the_solid_blocks():
    volume = maze_volume(6, 7, 2)
    boxes = collision_boxes(volume)
    cover = np.zeros(volume.shape, np.int64)
    for x0, y0, z0, x1, y1, z1 in boxes.tolist():
        assert x0 < x1 and y0 < y1 and z0 < z1
        cover[y0:y1, z0:z1, x0:x1] += 1
    np.testing.assert_array_equal(cover, volume != 0)
    assert len(boxes) < np.count_nonzero(volume) / 3


def test_triangulate_respects_the_watertight_flag():
    quads = greedy_quads(maze_volume(3, 3))
    raw = triangulate(quads, watertight=False)
    assert len(raw.faces) == 2 * len(quads) and len(raw.vertices) == 4 * len(quads)
    assert len(triangulate(quads).faces) > len(raw.faces)


# --- properties -------------------------------------------------------------------------------


volumes = st.builds(
    random_volume,
    shape=st.tuples(st.integers(1, 5), st.integers(1, 5), st.integers(1, 5)),
    seed=st.integers(0, 2**32 - 1),
    density=st.sampled_from([0.2, 0.5, 0.8, 1.0]),
    materials=st.integers(1, 4),
)


@settings(max_examples=60, deadline=None)
@given(volume=volumes)
def test_rectangles_tile_exactly_the_exposed_faces(volume):
    """The greedy rectangles cover each exposed face once, with its block's material, and no other."""
    assert rasterized_quads(greedy_quads(volume)) == exposed_faces(volume)


@settings(max_examples=60, deadline=None)
@given(volume=volumes, watertight=st.booleans())
def test_random_volumes_are_closed_with_exact_volume(volume, watertight):
    """Any volume: exact volume, axis-aligned normals, outward winding, balanced edges;
    watertight and a volume by trimesh's definition unless blocks touch along an edge only."""
    surface = mesh_blocks(volume, watertight=watertight)
    check_groups(surface, volume)
    solid = np.count_nonzero(volume)
    if solid == 0:
        assert len(surface.faces) == 0
        return
    check_normals_and_winding(surface)
    assert unit_edge_balance(surface.vertices, surface.faces) == {}
    mesh = merged(surface)
    assert mesh.volume == pytest.approx(solid)
    assert len(surface.faces) <= 2 * culled_face_count(volume) or watertight
    if watertight and edge_contacts(volume) == 0:
        assert mesh.is_watertight and mesh.is_volume


@settings(max_examples=25, deadline=None)
@given(rows=st.integers(1, 8), cols=st.integers(1, 8), seed=st.integers(0, 2**32 - 1),
       height=st.integers(1, 4), roof=st.booleans())
def test_mazes_are_watertight_volumes(rows, cols, seed, height, roof):
    volume = maze_volume(rows, cols, seed, height, roof)
    assert edge_contacts(volume) == 0
    surface = mesh_blocks(volume)
    mesh = merged(surface)
    assert mesh.is_watertight and mesh.is_volume
    assert mesh.volume == pytest.approx(np.count_nonzero(volume))
    assert len(surface.faces) < 2 * culled_face_count(volume)


def test_two_threads_give_the_same_mesh(monkeypatch):
    """Big volumes are meshed on two threads; forcing that path on a small maze changes nothing."""
    from blockmaze.export.meshes import greedy

    volume = maze_volume(9, 7, 4, roof=True)
    expected = [mesh_blocks(volume, watertight) for watertight in (True, False)]
    monkeypatch.setattr(greedy, "_PARALLEL_BLOCKS", 0)
    for watertight, surface in zip((True, False), expected, strict=True):
        threaded = mesh_blocks(volume, watertight)
        for name in ("vertices", "normals", "uv", "faces"):
            np.testing.assert_array_equal(getattr(threaded, name), getattr(surface, name))
        assert threaded.groups == surface.groups


def test_no_fan_reaches_across_a_long_side():
    """A 40-long side face whose top edge is split at every block (pillars stand on it): the fans
    over the split points come from both bottom corners and meet in the middle, so no triangle
    spans the whole side (a sliver of angle ~ 1/40^2 radians)."""
    volume = np.zeros((2, 40, 1), np.uint8)  # a bar along z
    volume[0] = bm.Material.WALL
    volume[1, ::2, 0] = bm.Material.WALL  # pillars on every other block
    surface = mesh_blocks(volume)
    corners = surface.vertices[surface.faces.astype(np.int64)]
    side = corners[np.all(corners[:, :, 0] == 0, axis=1) & np.all(corners[:, :, 1] <= 1, axis=1)]
    assert len(side) == (41 + 2) - 2  # the polygon: 41 points on top, 2 corners below
    a, b, c = (side[:, k].astype(np.float64) for k in range(3))

    def angle(p, q, r):
        u, w = q - p, r - p
        return np.degrees(np.arccos(np.einsum("ij,ij->i", u, w)
                                    / np.linalg.norm(u, axis=1) / np.linalg.norm(w, axis=1)))

    smallest = np.minimum.reduce([angle(a, b, c), angle(b, c, a), angle(c, a, b)])
    # fans of 20 from each corner: the last angle atan(1/19) - atan(1/20) = 0.15 degrees; one
    # fan of 40 would give atan(1/39) - atan(1/40) = 0.037
    assert smallest.min() > 0.14
