"""Classical labyrinths (issue 41; unicursal mazes: test_unicursal.py): one path, no junction,
every cell on it.

The property is checked by an independent walk, not by blockmaze's own analysis: from the start,
follow the only way on until there is none; every enabled cell must be met once, every cell has
one or two passages, the two with one are the start and the goal, and the passages are valid
(symmetric, between neighbours).
"""

from __future__ import annotations

import io
import json
from itertools import groupby

import numpy as np
import pytest

import blockmaze as bm
from blockmaze import writing
from blockmaze import pipeline
from blockmaze.cli import main
from blockmaze.grids.polar import ring_offsets
from blockmaze.mazes.labyrinths import CHARTRES, cretan_sequence, design, labyrinth, rings_of

CRETAN = tuple(range(3, 52, 4))


def walk_one_path(maze, start: int, goal: int) -> list[int]:
    """The cells from ``start`` to ``goal`` along the only way, asserting it is one path with no
    junction and no dead end but its ends, through every enabled cell."""
    bm.Maze(maze.grid, maze.links)  # symmetric, only between neighbours
    enabled = maze.grid.enabled
    degree = maze.links.sum(axis=1)
    assert not degree[~enabled].any()
    if enabled.sum() == 1:
        assert start == goal and degree[start] == 0
        return [start]
    assert set(np.flatnonzero(degree == 1).tolist()) == {start, goal}, "dead ends besides the ends"
    assert set(np.unique(degree[enabled]).tolist()) <= {1, 2}, "a junction"
    path, previous, here = [start], -1, start
    while here != goal:
        ways = [int(maze.grid.neighbors[here, d]) for d in np.flatnonzero(maze.links[here])]
        onward = [c for c in ways if c != previous]
        assert len(onward) == 1
        previous, here = here, onward[0]
        path.append(here)
        assert len(path) <= enabled.sum(), "a loop"
    assert len(path) == enabled.sum() == len(set(path)), "a cell off the path"
    return path


@pytest.mark.parametrize("circuits", CRETAN)
def test_a_cretan_labyrinth_is_one_path_from_its_entrance_to_its_centre(circuits):
    document = labyrinth(circuits)
    maze, ends = document.maze, document.endpoints
    path = walk_one_path(maze, ends.start, ends.goal)
    rings = maze.grid.shape[0]
    offsets = ring_offsets(rings)
    ring = np.searchsorted(offsets, path, side="right") - 1
    assert ring[0] == rings - 1 and ring[-1] == 0, "from the outer ring to the middle"
    assert ends.openings == ((ends.start, bm.polar_grid(1).direction("outward_a")),)
    assert set(ring.tolist()) == set(range(rings)), "every ring walked"
    # the circuits in the order the seed pattern gives, each walked once round (a crossing
    # passes a circuit in a cell or two)
    circuit = rings - ring  # 1 the outermost
    runs = [c for c, cells in groupby(circuit.tolist()) if c <= circuits and len(list(cells)) > 2]
    assert runs == cretan_sequence(circuits)
    assert rings_of("cretan", circuits) == rings


def test_the_seed_pattern_gives_the_known_sequences():
    assert cretan_sequence(7) == [3, 2, 1, 4, 7, 6, 5]
    assert cretan_sequence(11) == [5, 2, 3, 4, 1, 6, 11, 8, 9, 10, 7]  # self-dual
    for circuits in CRETAN:  # the dual (walked from the centre out, renumbered) is the same
        order = cretan_sequence(circuits)
        assert [circuits + 1 - c for c in reversed(order)] == order


def test_the_chartres_labyrinth_covers_each_circuit_once_round():
    document = labyrinth(style="chartres")
    walk_one_path(document.maze, document.endpoints.start, document.endpoints.goal)
    covered = {c: 0 for c in range(1, 12)}
    for circuit, quarters in CHARTRES.segments:
        covered[circuit] += quarters
    assert set(covered.values()) == {4}
    assert CHARTRES.segments[0][0] == 5 and CHARTRES.segments[-1][0] == 7


@pytest.mark.parametrize("style, circuits, message", [
    ("cretan", 8, "4k \\+ 3 circuits"), ("chartres", 7, "has 11 circuits"),
    ("spiral", None, "unknown labyrinth style")])
def test_bad_designs_are_refused(style, circuits, message):
    with pytest.raises(bm.BlockmazeError, match=message):
        design(style, circuits)


def run_cli(capsys, *args):
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("args, message", [
    (["generate", "-g", "labyrinth", "--circuits", "8"], "4k + 3 circuits"),
    (["generate", "-g", "labyrinth", "--style", "chartres", "--circuits", "7"], "has 11 circuits"),
    (["generate", "7x7", "-g", "labyrinth"], "SIZE is its circuits, one number"),
    (["generate", "7", "-g", "labyrinth", "--circuits", "11"], "disagree"),
    (["generate", "5", "--finger", "8"], "WIDTHxDEPTH"),
])
def test_the_command_refuses_in_one_line(capsys, args, message):
    code, out, err = run_cli(capsys, *args)
    assert code == 2 and message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_options_that_do_not_apply_warn(capsys, tmp_path):
    code, _, err = run_cli(capsys, "generate", "-g", "labyrinth", "-a", "wilson", "--braid",
                           "0.5", "-o", str(tmp_path / "l.png"))
    assert code == 0
    assert "--algorithm does not apply to labyrinth mazes" in err
    assert "--braid does not apply to labyrinth mazes" in err
    code, _, err = run_cli(capsys, "generate", "5", "--circuits", "7", "--style", "chartres",
                           "-o", str(tmp_path / "s.png"))
    assert code == 0 and "--circuits does not apply to square mazes" in err
    assert "--style does not apply to square mazes" in err


FORMATS = ("schem", "litematic", "mcstructure", "world-zip", "glb", "obj", "stl", "3mf", "ply",
           "vox", "png", "svg", "tmx", "tmj", "ascii", "ldtk", "maze")


@pytest.mark.parametrize("style", ["cretan", "chartres"])
def test_a_labyrinth_goes_through_every_exporter(style):
    """Built once into blocks (rasterized as every polar maze is), then written in every
    format; the same design gives the same bytes."""
    document = labyrinth(style=style)
    assert labyrinth(style=style).maze == document.maze
    volume = pipeline.build(document.maze, document.endpoints, solution=True)
    made = {}
    for name in FORMATS:
        out = io.BytesIO()
        if name in ("png", "svg", "maze"):
            writing.save(document, out, format=name, solution=True)
        else:
            bm.write(volume if name not in ("tmx", "tmj", "ascii", "ldtk") else volume[1:2], out,
                     format=name)
        made[name] = out.getvalue()
        assert made[name], name
    again = io.BytesIO()
    writing.save(labyrinth(style=style), again, format="schem", solution=True)
    schem = io.BytesIO()
    bm.write(volume, schem, format="schem")
    assert again.getvalue() == schem.getvalue()
    loaded = bm.load_maze(io.BytesIO(made["maze"]))
    assert loaded.maze == document.maze and loaded.endpoints == document.endpoints
    name = "chartres" if style == "chartres" else "cretan-7"
    assert json.loads(made["maze"])["algorithm"] == f"labyrinth:{name}"


def test_the_command_writes_labyrinths_and_unicursal_mazes(capsys, tmp_path):
    out = tmp_path / "c.schem"
    code, _, err = run_cli(capsys, "generate", "-g", "labyrinth", "--circuits", "11", "-o",
                           str(out))
    assert code == 0 and "labyrinth:cretan-11" in err
    code, text, _ = run_cli(capsys, "generate", "-g", "labyrinth", "--circuits", "3")
    assert code == 0 and text.count("\n") > 10
    assert run_cli(capsys, "generate", "3", "-g", "labyrinth")[1] == text  # SIZE: its circuits
    one, two = tmp_path / "u1.schem", tmp_path / "u2.schem"
    for path in (one, two):
        assert run_cli(capsys, "generate", "12x9", "--seed", "4", "--unicursal", "--entrances",
                       "-o", str(path))[0] == 0
    assert one.read_bytes() == two.read_bytes()
    code, text, _ = run_cli(capsys, "generate", "3x4", "--seed", "4", "--unicursal",
                            "--solution", "--text-style", "ascii")
    assert code == 0 and text.count("\n") == 2 * 2 * 3 + 1


def finger_mesh(tmp_path, *args):
    import trimesh

    path = tmp_path / "finger.stl"
    assert main(["generate", *args, "--finger", "8x3", "-o", str(path)]) == 0
    return trimesh.load(path)


@pytest.mark.parametrize("args", [("-g", "labyrinth"), ("-g", "labyrinth", "--style", "chartres"),
                                  ("6x6", "--unicursal", "--seed", "2", "--entrances")])
def test_a_finger_labyrinth_is_a_closed_manifold_plate(tmp_path, args):
    import manifold3d

    mesh = finger_mesh(tmp_path, *args)
    assert mesh.is_watertight and mesh.is_volume
    assert mesh.bounds[0][2] == 0 and mesh.bounds[1][2] == pytest.approx(5.0)  # 2 mm base + 3
    solid = manifold3d.Manifold(manifold3d.Mesh(
        vert_properties=np.asarray(mesh.vertices, np.float32),
        tri_verts=np.asarray(mesh.faces, np.uint32)))
    assert solid.status() == manifold3d.Error.NoError
    assert solid.volume() == pytest.approx(mesh.volume, rel=1e-4)
    # the groove: the plate's top is cut down to the base where the path runs
    heights = np.unique(np.round(mesh.vertices[:, 2], 4))
    assert heights.tolist() == [0.0, 2.0, 5.0]


def test_a_finger_groove_is_as_wide_as_asked(tmp_path):
    mesh = finger_mesh(tmp_path, "1x3", "--passage", "2", "--seed", "1")
    # a 1x3 maze: 3 passages of 2 blocks and 4 walls across, 10 blocks at 4 mm (8 mm over 2
    # blocks); 4 blocks north to south
    assert mesh.bounds[1][0] == pytest.approx(40.0) and mesh.bounds[1][1] == pytest.approx(16.0)
    top = mesh.vertices[np.isclose(mesh.vertices[:, 2], 5.0)]  # the walls' tops: one corridor
    assert sorted(set(np.round(top[:, 1], 3).tolist())) == [0.0, 4.0, 12.0, 16.0]  # 8 mm groove


@pytest.mark.reader
def test_a_finger_labyrinth_loads_in_three_js(tmp_path):
    """three.js's own STLLoader (node) reads the plate: every triangle, the same extent."""
    import subprocess
    from pathlib import Path

    import readers

    mesh = finger_mesh(tmp_path, "-g", "labyrinth", "--style", "chartres")
    folder = str(readers.node_package("three", "THREE_JS"))
    script = Path(__file__).with_name("external") / "stl_reader.mjs"
    run = subprocess.run(["node", str(script), folder, str(tmp_path / "finger.stl")],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    assert seen["finite"] and seen["triangles"] == len(mesh.faces)
    assert np.allclose(seen["min"], mesh.bounds[0]) and np.allclose(seen["max"], mesh.bounds[1])


def test_the_command_names_the_styles_the_designs_have():
    """commands.py keeps the names as a static table (no import of the designs for --help)."""
    from blockmaze.commands import LABYRINTH_STYLES
    from blockmaze.mazes.labyrinths import STYLES

    assert LABYRINTH_STYLES == STYLES
