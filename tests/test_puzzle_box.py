"""The cylinder puzzle box (blockmaze/export/surfaces): tube_mesh's solids, the wrapped plan,
every part closed and manifold, and the box opening, proven by sweeping a nub along its path
(trimesh and manifold3d, read at test time only, are the independent checks)."""

from __future__ import annotations

import json
import zipfile
from xml.etree import ElementTree

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import blockmaze as bm
from blockmaze.analysis import bfs
from blockmaze.errors import BlockmazeError
from blockmaze.export.surfaces.box import most_columns, puzzle_box
from blockmaze.export.surfaces.boxfile import write_box
from blockmaze.export.surfaces.plan import cylinder_plan
from blockmaze.export.surfaces.tube import CHORD, checkerboard, tube_mesh
from blockmaze.pipeline import make_maze

manifold3d = pytest.importorskip("manifold3d")
trimesh = pytest.importorskip("trimesh")

TAU = 2 * np.pi


def solid(points, triangles):
    mesh = manifold3d.Mesh(vert_properties=np.asarray(points, np.float32),
                           tri_verts=np.asarray(triangles, np.uint32))
    return manifold3d.Manifold(mesh)


def check_closed(points, triangles):
    """Watertight, every edge in exactly two triangles once each way, no degenerate triangle,
    outward; returns the manifold."""
    assert points.dtype == np.float64 and points.shape[1] == 3
    assert triangles.dtype == np.int64 and triangles.shape[1] == 3
    edges = triangles[:, [0, 1, 1, 2, 2, 0]].reshape(-1, 2)
    assert len(np.unique(edges, axis=0)) == len(edges)  # each directed edge once
    reverse = {tuple(e) for e in edges[:, ::-1].tolist()}
    assert all(tuple(e) in reverse for e in edges.tolist())  # ... and its twin the other way
    corners = points[triangles]
    area = np.linalg.norm(np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0]),
                          axis=1)
    assert area.min() > 1e-9
    mesh = trimesh.Trimesh(points, triangles, process=False)
    assert mesh.is_watertight and mesh.is_winding_consistent and mesh.volume > 0
    shape = solid(points, triangles)
    assert shape.status() == manifold3d.Error.NoError
    assert shape.volume() > 0
    return shape


def field_volume(radii, z_edges, theta_edges, bore):
    return float((np.abs(np.diff(z_edges))[:, None] * np.diff(theta_edges)[None, :] / 2
                  * (radii ** 2 - bore ** 2)).sum())


# --- tube_mesh

def test_tube_is_a_ring():
    points, triangles = tube_mesh(np.full((1, 1), 10.0), [5.0, 0.0], [0.0, TAU], 8.0)
    shape = check_closed(points, triangles)
    assert shape.volume() == pytest.approx(np.pi * (100 - 64) * 5, rel=3e-3)
    flat = np.hypot(points[:, 0], points[:, 1])
    assert set(np.round(flat, 9)) == {8.0, 10.0}


@st.composite
def fields(draw, plan_like: bool):
    rows = draw(st.integers(1, 5))
    cols = draw(st.integers(1, 4)) * (2 if plan_like else 1)
    values = st.sampled_from([3.0, 4.0, 4.5, 6.0])
    radii = np.array(draw(st.lists(values, min_size=rows * cols, max_size=rows * cols)))
    radii = radii.reshape(rows, cols)
    if plan_like:  # posts highest, cells lowest: the 2n+1 plan's corners
        radii[0::2, 0::2] = 7.0
        radii[1::2, 1::2] = 2.5
    widths = np.array(draw(st.lists(st.floats(0.2, 1.0), min_size=cols, max_size=cols)))
    theta_edges = np.concatenate([[0.0], np.cumsum(widths / widths.sum() * TAU)])
    theta_edges += draw(st.floats(-3, 3))
    heights = np.array(draw(st.lists(st.floats(0.5, 3.0), min_size=rows, max_size=rows)))
    z_edges = np.concatenate([[0.0], np.cumsum(heights)])
    if draw(st.booleans()):
        z_edges = z_edges[::-1].copy()  # row 0 at the top
    bore = draw(st.sampled_from([0.0, 1.0, 2.0]))
    return radii, z_edges, theta_edges, bore


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fields(plan_like=True))
def test_tube_mesh_of_plan_like_fields_is_closed_and_holds_the_field(field):
    radii, z_edges, theta_edges, bore = field
    points, triangles = tube_mesh(radii, z_edges, theta_edges, bore)
    shape = check_closed(points, triangles)
    assert shape.volume() == pytest.approx(field_volume(*field), rel=5e-3)
    assert np.hypot(points[:, 0], points[:, 1]).max() == pytest.approx(radii.max())


@settings(max_examples=40, deadline=None)
@given(fields(plan_like=False))
def test_tube_mesh_of_any_field_is_closed_or_refuses_a_checkerboard(field):
    radii, z_edges, theta_edges, bore = field
    levels = np.searchsorted(np.unique(radii), radii)
    if checkerboard(levels) is not None:
        with pytest.raises(BlockmazeError, match="checkerboard"):
            tube_mesh(radii, z_edges, theta_edges, bore)
        return
    shape = check_closed(*tube_mesh(radii, z_edges, theta_edges, bore))
    assert shape.volume() == pytest.approx(field_volume(*field), rel=5e-3)


def test_tube_chords_are_within_a_hundredth_of_their_arcs():
    points, _ = tube_mesh(np.full((1, 3), 30.0), [1.0, 0.0], np.linspace(0, TAU, 4), 29.0)
    outer = points[np.isclose(np.hypot(points[:, 0], points[:, 1]), 30.0) & (points[:, 2] == 0)]
    angles = np.sort(np.arctan2(outer[:, 1], outer[:, 0]))
    step = np.diff(np.concatenate([angles, [angles[0] + TAU]])).max()
    assert 30.0 * (1 - np.cos(step / 2)) <= CHORD + 1e-12


@pytest.mark.parametrize("radii, z_edges, theta_edges, bore, message", [
    (np.ones((1, 1)), [1.0, 0.0], [0.0, np.pi], 0.0, "2π"),
    (np.ones((1, 1)), [1.0, 1.0], [0.0, TAU], 0.0, "z_edges"),
    (np.ones((1, 1)), [1.0, 0.0], [0.0, TAU], 1.0, "more than the bore"),
    (np.ones((2, 1)), [1.0, 0.0], [0.0, TAU], 0.0, "values"),
    (np.ones((1, 1)), [1.0, 0.0], [0.0, TAU], -1.0, "bore"),
])
def test_tube_mesh_refuses_bad_parameters_in_one_line(radii, z_edges, theta_edges, bore, message):
    with pytest.raises(BlockmazeError, match=message) as caught:
        tube_mesh(radii, z_edges, theta_edges, bore)
    assert "\n" not in str(caught.value)


# --- the plan

def test_cylinder_plan_follows_the_links_round_the_seam():
    maze = bm.generate(bm.cylinder_grid(3, 4), rng=5)
    plan = cylinder_plan(maze)
    assert plan.shape == (7, 8)
    assert plan[0::2, 0::2].all() and not plan[1::2, 1::2].any()
    assert plan[0].all() and plan[-1].all()
    links = maze.links.reshape(3, 4, 4)
    assert (plan[1::2, 0::2] == ~links[:, :, 3]).all()  # west sides, column 0's across the seam
    assert (plan[2:-1:2, 1::2] == ~links[1:, :, 0]).all()
    assert (links[:, -1, 1] == links[:, 0, 3]).all()
    opened = cylinder_plan(maze, openings=[(0, 3)])
    assert not opened[0, 3] and (opened ^ plan).sum() == 1


def test_cylinder_plan_refuses_other_grids_and_openings_outside():
    with pytest.raises(BlockmazeError, match="cylinder"):
        cylinder_plan(bm.generate((3, 3), rng=1))
    with pytest.raises(BlockmazeError, match="outside"):
        cylinder_plan(bm.generate(bm.cylinder_grid(3, 3), rng=1), openings=[(9, 0)])


# --- the box

def nub_points(box, position, diameter, segments=24):
    """The round nub (circumscribed polygon: never smaller than the true cylinder) whose axis is
    the radius through ``position``, from the sleeve's bore inward by the nub's length."""
    radius = box.diameter / 2 + box.clearance
    theta = np.arctan2(position[1], position[0])
    out = np.array([np.cos(theta), np.sin(theta), 0.0])
    side = np.array([-np.sin(theta), np.cos(theta), 0.0])
    up = np.array([0.0, 0.0, 1.0])
    a = np.linspace(0, TAU, segments, endpoint=False)
    ring = (np.cos(a)[:, None] * side + np.sin(a)[:, None] * up) \
        * (diameter / 2 / np.cos(np.pi / segments))
    centre = np.array([0.0, 0.0, position[2]])
    return np.concatenate([centre + out * r + ring for r in (radius - box.nub_length, radius)])


def swept(box, diameter, path=None):
    """The union of the hulls of the nub at consecutive points of the path (every nub)."""
    path = box.nub_path if path is None else path
    hulls = []
    for k in range(box.nubs):
        turn = TAU / box.nubs * k
        c, s = np.cos(turn), np.sin(turn)
        turned = path @ np.array([[c, s, 0], [-s, c, 0], [0, 0, 1]])
        clouds = [nub_points(box, p, diameter) for p in turned]
        hulls += [manifold3d.Manifold.hull_points(np.concatenate([a, b]))
                  for a, b in zip(clouds[:-1], clouds[1:], strict=True)]
    return manifold3d.Manifold.batch_boolean(hulls, manifold3d.OpType.Add)


def box_for(seed, diameter=40.0, rows=4, nubs=1, **options):
    cols = min(most_columns(diameter, nubs, least_wall=2.0), 10)
    return puzzle_box(make_maze((rows, cols), kind="cylinder", seed=seed), diameter=diameter,
                      nubs=nubs, **options)


BOXES = [(1, 40.0, 4, 1), (2, 30.0, 3, 1), (3, 40.0, 4, 2), (4, 60.0, 5, 3)]


@pytest.fixture(scope="module", params=BOXES, ids=lambda p: f"seed{p[0]}-{p[1]:g}mm-{p[3]}nubs")
def box(request):
    seed, diameter, rows, nubs = request.param
    return box_for(seed, diameter, rows, nubs)


def test_every_part_is_closed_and_manifold(box):
    assert sorted(box.parts) == ["base", "inner", "lid", "sleeve"]
    for points, triangles in box.parts.values():
        check_closed(points, triangles)
    inner = box.parts["inner"][0]
    assert np.hypot(inner[:, 0], inner[:, 1]).max() * 2 == pytest.approx(box.diameter, abs=0.1)
    assert np.ptp(inner[:, 0]) == pytest.approx(box.diameter, abs=0.1)
    outer = box.diameter + 2 * (box.clearance + 2.0)
    for name in ("sleeve", "lid", "base"):
        points = box.parts[name][0]
        assert np.hypot(points[:, 0], points[:, 1]).max() * 2 == pytest.approx(outer, abs=0.1)


def test_the_nub_path_runs_from_the_rim_to_the_park(box):
    path = box.nub_path
    inner = box.parts["inner"][0]
    assert np.linalg.norm(np.diff(path, axis=0), axis=1).max() <= 0.5
    assert np.hypot(path[:, 0], path[:, 1]) == pytest.approx(box.diameter / 2 - box.depth / 2)
    assert path[0, 2] > inner[:, 2].max() + box.nub_diameter / 2  # the nub clear of the rim
    assert path[-1, 2] < path[:, 2].max()
    assert path[-1, 2] == pytest.approx(path[:, 2].min())  # the park is the lowest point


def test_the_box_opens(box):
    inner = solid(*box.parts["inner"])
    assert (swept(box, box.nub_diameter) ^ inner).volume() < 1e-6


def test_a_nub_too_wide_does_not_pass(box):
    inner = solid(*box.parts["inner"])
    wide = box.nub_diameter + 2 * box.clearance + 0.5
    assert (swept(box, wide) ^ inner).volume() > 1e-3


def test_the_nub_built_into_the_sleeve_lies_in_the_round_nub(box):
    """The sleeve less its plain tube is the nubs; each lies within the round one at the park."""
    sleeve = solid(*box.parts["sleeve"])
    radius = box.diameter / 2 + box.clearance
    # the tube a little inside the sleeve's bore (whose chords differ from the sleeve's)
    tube = solid(*tube_mesh(np.array([[radius + 5.0]]), [radius * 4, -1.0], [0.0, TAU],
                            radius - 0.02))
    nubs = sleeve - tube
    assert nubs.volume() > 0.5 * np.pi * (box.nub_diameter / 2) ** 2 * box.nub_length * box.nubs
    round_ = swept(box, box.nub_diameter + 1e-3, path=box.nub_path[-1:].repeat(2, axis=0))
    assert (nubs - round_).volume() < 1e-3


def test_the_sleeve_without_nubs_clears_the_inner_part_by_the_clearance(box):
    points, triangles = box.parts["sleeve"]
    radius = box.diameter / 2
    inner = solid(*box.parts["inner"])
    flat = np.hypot(points[:, 0], points[:, 1])
    bore = flat[flat > radius + box.clearance - 1e-6].min()  # the sleeve's bore, nubs aside
    assert bore == pytest.approx(radius + box.clearance)
    ring = points[np.isclose(flat, bore) & (points[:, 2] == 0)]  # the bore's corners at the bottom
    angles = np.sort(np.arctan2(ring[:, 1], ring[:, 0]))
    step = np.diff(np.concatenate([angles, [angles[0] + TAU]])).max()
    gap = bore * np.cos(step / 2) - np.hypot(*box.parts["inner"][0][:, :2].T).max()
    assert box.clearance - 0.01 - 1e-9 <= gap <= box.clearance + 1e-9
    z_top = points[:, 2].max()
    tube = solid(*tube_mesh(np.array([[bore + 2.0]]), [z_top, 0.0], [0.0, TAU], bore))
    assert (tube ^ inner).volume() < 1e-6
    for name in ("lid", "base"):
        assert (solid(*box.parts[name]) ^ inner).volume() < 1e-6


@pytest.mark.parametrize("options, message", [
    (dict(diameter=12.0), "too small|no inner wall"),
    (dict(diameter=40.0, nubs=9), "too small"),
    (dict(diameter=40.0, height=5.0), "too low"),
    (dict(diameter=40.0, nub_length=5.0, depth=2.0), "nub_length"),
    (dict(diameter=-1.0), "diameter"),
    (dict(diameter=40.0, nubs=0), "nubs"),
    (dict(diameter=40.0, clearance=float("nan")), "clearance"),
])
def test_the_box_refuses_what_cannot_be_made_in_one_line(options, message):
    document = make_maze((3, 8), kind="cylinder", seed=1)
    with pytest.raises(BlockmazeError, match=message) as caught:
        puzzle_box(document, **options)
    assert "\n" not in str(caught.value)


def test_the_box_refuses_a_flat_maze():
    with pytest.raises(BlockmazeError, match="cylinder"):
        puzzle_box(make_maze((3, 3), seed=1))


def test_the_entry_is_in_row_0_and_the_park_in_the_last_row():
    document = make_maze((4, 6), kind="cylinder", seed=7)
    box = puzzle_box(document, diameter=40.0)
    assert box.start < 6 and box.goal >= 18
    neighbors, links = document.maze.grid.neighbors, document.maze.links
    best = max(bfs(neighbors, links, s)[0][18:].max() for s in range(6))
    distance, _ = bfs(neighbors, links, box.start)
    assert distance[box.goal] == distance[18:].max() == best


def test_a_given_height_is_the_inner_parts():
    box = puzzle_box(make_maze((3, 6), kind="cylinder", seed=2), diameter=40.0, height=30.0)
    assert np.ptp(box.parts["inner"][0][:, 2]) == pytest.approx(30.0)


# --- the files

def test_write_box_writes_the_3mf_the_stls_and_the_json(tmp_path):
    box = box_for(5, 30.0, 3, 1)
    written = write_box(box, tmp_path / "gift.3mf")
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["gift-base.stl", "gift-inner.stl", "gift-lid.stl", "gift-sleeve.stl",
                     "gift.3mf", "gift.box.json"]
    assert sorted(p.name for p in written) == names
    with zipfile.ZipFile(tmp_path / "gift.3mf") as archive:
        model = archive.read("3D/3dmodel.model").decode()
    for name in ("inner", "sleeve", "lid", "base"):
        assert f'name="{name}"' in model
    root = ElementTree.fromstring(model)
    space = {"m": "http://schemas.microsoft.com/3dmanufacturing/core/2015/02"}
    objects = root.findall(".//m:object", space)
    assert [o.get("name") for o in objects] == ["inner", "sleeve", "lid", "base"]
    for element in objects:
        points = np.array([[float(v.get(a)) for a in "xyz"]
                           for v in element.iterfind(".//m:vertex", space)])
        triangles = np.array([[int(t.get(a)) for a in ("v1", "v2", "v3")]
                              for t in element.iterfind(".//m:triangle", space)])
        check_closed(points, triangles)
        assert np.allclose(points, box.parts[element.get("name")][0], atol=1e-6)
    for name, (points, triangles) in box.parts.items():
        mesh = trimesh.load(tmp_path / f"gift-{name}.stl")
        assert mesh.is_watertight
        assert len(mesh.faces) == len(triangles)
        assert mesh.volume == pytest.approx(solid(points, triangles).volume(), rel=1e-4)
    about = json.loads((tmp_path / "gift.box.json").read_text())
    assert about["parts"] == ["inner", "sleeve", "lid", "base"]
    assert np.allclose(about["nub_path"], box.nub_path, rtol=0, atol=1e-6)
    assert about["nub_diameter"] == box.nub_diameter and about["clearance"] == box.clearance
    assert about["nub_length"] == box.nub_length


def test_write_box_leaves_no_temporary_and_replaces_old_files(tmp_path):
    box = box_for(6, 30.0, 3, 1)
    (tmp_path / "b.box.json").write_text("old")
    write_box(box, tmp_path / "b.3mf")
    assert json.loads((tmp_path / "b.box.json").read_text())["parts"]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def read_3mf(path):
    """Each object of a 3MF by its name: (points, triangles), read from its XML."""
    with zipfile.ZipFile(path) as archive:
        root = ElementTree.fromstring(archive.read("3D/3dmodel.model"))
    space = {"m": "http://schemas.microsoft.com/3dmanufacturing/core/2015/02"}
    return {o.get("name"): (
        np.array([[float(v.get(a)) for a in "xyz"] for v in o.iterfind(".//m:vertex", space)]),
        np.array([[int(t.get(a)) for a in ("v1", "v2", "v3")]
                  for t in o.iterfind(".//m:triangle", space)]))
        for o in root.findall(".//m:object", space)}


def test_the_command_writes_a_box_that_opens_by_its_own_files(tmp_path, capsys):
    """``generate -g cylinder --puzzle-box``: the 3MF's inner part and the nub of the .box.json
    swept along its nub_path miss each other, as anyone can check from the two files; a nub
    0.5 mm wider than its groove hits."""
    from types import SimpleNamespace

    from blockmaze.cli import main

    out = tmp_path / "gift.3mf"
    assert main(["generate", "-g", "cylinder", "4x8", "--puzzle-box", "--nubs", "2", "-s", "5",
                 "--diameter", "45", "--clearance", "0.4", "-o", str(out)]) == 0
    assert "a puzzle box" in capsys.readouterr().err
    about = json.loads((tmp_path / "gift.box.json").read_text())
    parts = read_3mf(out)
    assert sorted(parts) == ["base", "inner", "lid", "sleeve"]
    inner = solid(*parts["inner"])
    assert about["clearance"] == 0.4 and about["nubs"] == 2 and about["diameter"] == 45
    box = SimpleNamespace(diameter=about["diameter"], clearance=about["clearance"],
                          nub_length=about["nub_length"], nubs=about["nubs"],
                          nub_path=np.array(about["nub_path"]))
    assert (swept(box, about["nub_diameter"]) ^ inner).volume() < 1e-6
    wider = about["nub_diameter"] + 2 * about["clearance"] + 0.5
    assert (swept(box, wider) ^ inner).volume() > 1e-3


@pytest.mark.parametrize("args, says", [
    (["5x8", "--puzzle-box", "-o", "b.3mf"], "cuts a cylinder's maze"),
    (["-g", "cylinder", "5x8", "--puzzle-box", "-o", "b.stl"], "NAME.3mf"),
    (["-g", "cylinder", "5x8", "--puzzle-box"], "give -o NAME.3mf"),
    (["-g", "cylinder", "5x40", "--puzzle-box", "--diameter", "10", "-o", "b.3mf"], "too small"),
])
def test_a_box_that_cannot_be_made_is_refused_in_one_line(tmp_path, capsys, monkeypatch, args,
                                                          says):
    from blockmaze.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["generate", *args]) in (1, 2)
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and says in err[0], err
    assert list(tmp_path.iterdir()) == []
