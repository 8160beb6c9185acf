"""``info --analysis`` on the Minecraft, voxel, tile-map and mesh files blockmaze writes: the plan read
back through the file gives the measures of the maze written (issue 54)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import blockmaze as bm
from blockmaze.errors import BadFileError
from blockmaze.materials import SOLID
from blockmaze.mazes.masks import masked_grid
from blockmaze.readers.analysis import analyze_file
from blockmaze.readers import plans
from blockmaze.readers.plans import SUFFIXES, file_plan
from test_difficulty import run

SAMPLE = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _measures(facts: dict) -> dict:
    return {key: value for key, value in facts.items() if key != "measured_as"}


@pytest.mark.parametrize("suffix", SUFFIXES)
@SAMPLE
@given(rows=st.integers(2, 6), cols=st.integers(2, 6), seed=st.integers(0, 2**16),
       braid=st.sampled_from([0.0, 0.5]), solution=st.booleans())
def test_a_square_maze_read_back_through_its_file_measures_as_the_maze(tmp_path, suffix, rows, cols,
                                                                          seed, braid, solution):
    maze = bm.generate((rows, cols), rng=seed)
    if braid:
        maze = bm.braid(maze, braid, rng=seed)
    path = tmp_path / f"m{suffix}"
    bm.save(maze, path, solution=solution)
    facts = analyze_file(path)
    assert facts["measured_as"] == "maze cells"
    assert _measures(facts) == bm.analyze(maze)


@pytest.mark.slow
@pytest.mark.parametrize("suffix", SUFFIXES)
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**16), braid=st.sampled_from([0.0, 0.5]))
def test_another_grid_is_read_back_as_its_block_plan(tmp_path, suffix, seed, braid):
    maze = bm.generate((4, 5), kind="hex", rng=seed)
    if braid:
        maze = bm.braid(maze, braid, rng=seed)
    path = tmp_path / f"m{suffix}"
    bm.save(maze, path)
    plan = file_plan(path)
    drawn = ~SOLID[bm.rasterize(maze)]
    assert np.array_equal(plan.open, drawn)  # the plan the writer drew, block for block
    facts = analyze_file(path)
    assert facts["measured_as"] == "walkable blocks"
    blocks = bm.Maze(masked_grid("square", drawn.shape, drawn), masked_grid("square", drawn.shape, drawn).neighbors >= 0)
    assert _measures(facts) == bm.analyze(blocks)  # the maze of walkable blocks the docs define


def test_the_start_and_goal_a_file_marks_are_the_ends_measured(tmp_path):
    maze = bm.generate((5, 6), rng=3)
    ends = bm.place_endpoints(maze)
    for suffix in (".schem", ".vox", ".npz", ".tmj"):
        path = tmp_path / f"m{suffix}"
        bm.save(maze, path, solution=True)
        plan = file_plan(path)
        assert (plan.start, plan.goal) != (None, None), suffix
        width = 2 * maze.grid.shape[1] + 1
        cells = [(z // 2) * maze.grid.shape[1] + x // 2 for z, x in (divmod(b, width) for b in (plan.start, plan.goal))]
        assert sorted(cells) == sorted([ends.start, ends.goal]), suffix


def test_the_command_measures_a_schematic_and_refuses_a_picture_in_one_line(capsys, tmp_path):
    schem, document, mesh = tmp_path / "m.schem", tmp_path / "m.json", tmp_path / "m.3mf"
    for path in (schem, document, mesh):
        assert run(capsys, "generate", "6x5", "--seed", "4", "--braid", "0.3", "-o", str(path))[0] == 0
    reports = []
    for path in (document, schem):
        code, out, err = run(capsys, "info", str(path), "--analysis", "--json")
        assert code == 0, err
        reports.append(json.loads(out)["analysis"])
    assert reports[0] == reports[1]
    code, out, err = run(capsys, "info", str(mesh), "--analysis")
    assert code == 1 and err.count("\n") == 1 and ".schem" in err and "another mesh" in err


@pytest.mark.parametrize("suffix", [".vox", ".schem"])
def test_a_volume_past_the_limit_is_refused_in_one_line(tmp_path, monkeypatch, suffix):
    path = tmp_path / f"big{suffix}"
    bm.save(bm.generate((4, 4), rng=1), path)
    assert file_plan(path).open.shape == (9, 9)
    monkeypatch.setattr(plans, "MAX_PLAN_BLOCKS", 9 * 9 * 4 - 1)
    with pytest.raises(BadFileError, match="more than is read") as error:
        file_plan(path)
    assert "\n" not in str(error.value)


@pytest.mark.slow
@pytest.mark.parametrize("suffix", [".stl", ".ply", ".obj", ".glb"])
def test_a_mesh_is_read_back_the_same_by_the_compiled_kernel(tmp_path, suffix):
    from blockmaze.readers.meshplan import mesh_solid, mesh_triangles
    from blockmaze.support import kernels

    maze = bm.braid(bm.generate((5, 7), rng=2), 0.5, rng=2)
    path = tmp_path / f"m{suffix}"
    bm.save(maze, path, roof=True, height=2)
    triangles = mesh_triangles(path.read_bytes(), suffix)
    with kernels.forced("python"):
        python = mesh_solid(triangles, 10_000)
    with kernels.forced("numba"):
        compiled = mesh_solid(triangles, 10_000)
    assert np.array_equal(python, compiled)
    assert np.array_equal(python, SOLID[bm.extrude(bm.to_blocks(maze), height=2, roof=True)])


def test_a_mesh_off_the_block_lattice_or_past_the_limit_is_refused(tmp_path, monkeypatch):
    path = tmp_path / "m.obj"
    path.write_text("v 0 0 0\nv 1 0 0\nv 0 0 1\nv 0.3 1 0\nf 1 2 3\nf 1 2 4\n")
    with pytest.raises(BadFileError, match="not on one lattice"):
        file_plan(path)
    mesh = tmp_path / "m.stl"
    bm.save(bm.generate((3, 3), rng=1), mesh)
    monkeypatch.setattr(plans, "MAX_PLAN_BLOCKS", 7 * 7 * 4 - 1)
    with pytest.raises(BadFileError, match="more than is read"):
        file_plan(mesh)


def test_a_compressed_gltf_is_refused_in_one_line(tmp_path):
    path = tmp_path / "m.gltf"
    bm.save(bm.generate((3, 3), rng=1), path)
    document = json.loads(path.read_text())
    document["extensionsRequired"] = ["EXT_meshopt_compression"]
    path.write_text(json.dumps(document))
    with pytest.raises(BadFileError, match="EXT_meshopt_compression .compressed. is not read back"):
        file_plan(path)


@pytest.mark.parametrize("name, text", [("m.obj", "v 0 0 zero\nf 1 1 1\n"), ("m.obj", "v 0 0 0\nf 1 2 9\n"),
                                        ("m.tmj", '{"width": 2, "height": 1, "layers": 3}'),
                                        ("m.tilemap.json", '{"width": 1, "height": 1, "grid": ["#"], "legend": {"#": 5}}')])
def test_a_malformed_file_is_refused_in_one_line(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(BadFileError) as error:
        file_plan(path)
    assert "\n" not in str(error.value)
