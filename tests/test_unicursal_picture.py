"""A unicursal maze of a hex, triangle, upsilon or polar grid drawn on that grid: the one path in
lanes (blockmaze.export.unicursal_picture), carried through the maze document (split_from)."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from blockmaze.blocks.unicursal import entrance
from blockmaze.cli import main
from blockmaze.errors import BadFileError
from blockmaze.export.picture_scene import GOAL, SOLUTION, START, WALL
from blockmaze.export.pictures import render_image
from blockmaze.export.unicursal_picture import _LaneBuilder, lane_route, lane_scene
from blockmaze.mazes.documents import document_text, load_maze
from blockmaze.mazes.endpoints import Endpoints
from blockmaze.pipeline import make_maze

KINDS = {"hex": (4, 5), "triangle": (4, 6), "upsilon": (4, 4), "polar": (4,)}


def _pictures(doc, cell: int):
    options = dict(endpoints=doc.endpoints, split_from=doc.split_from, cell_size=cell)
    plain = np.asarray(render_image(doc.maze, **options))
    solved = np.asarray(render_image(doc.maze, solution=True, **options))
    return plain, solved


def _component(free: np.ndarray, seed: tuple[int, int]) -> np.ndarray:
    """The pixels of ``free`` joined side to side to ``seed``."""
    from scipy import ndimage

    labels, _ = ndimage.label(free)
    return labels == labels[seed]


@pytest.mark.slow  # (about 2.5 s: 24 pictures twice)
@settings(max_examples=24, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(sorted(KINDS)), seed=st.integers(0, 10_000),
       cell=st.sampled_from([6, 9, 12, 16, 21]), entrances=st.booleans(), holed=st.booleans())
def test_the_lanes_are_one_path_from_start_to_goal_that_crosses_no_wall(kind, seed, cell,
                                                                         entrances, holed):
    mask = None
    if holed and kind != "polar":  # a hole in the middle and a corner cut off
        mask = np.ones(KINDS[kind], dtype=bool)
        mask[1:3, 2:4] = mask[0, 0] = False
    doc = make_maze(KINDS[kind], kind, seed=seed, unicursal=True, entrances=entrances, mask=mask)
    assert doc.maze.grid.kind == "square" and doc.split_from.grid.kind == kind
    plain, solved = _pictures(doc, cell)
    # the route never crosses a wall pixel, and it is drawn
    assert int(((plain == WALL) & (solved != WALL)).sum()) == 0
    route = solved == SOLUTION
    assert route.any()
    # one line: its pixels are one piece, and it joins the start's mark to the goal's
    marks = [np.argwhere(plain == colour) for colour in (START, GOAL)]
    assert all(len(m) for m in marks)
    drawn = route | (solved == START) | (solved == GOAL)
    piece = _component(drawn, tuple(marks[0][0]))
    assert piece[tuple(marks[1][0])] and piece[route].all()
    # between the walls, start and goal lie in one lane, and the path through it goes through
    # every corner of every cell exactly once (the walk round the tree of passages)
    lane = _component(plain != WALL, tuple(marks[0][0]))
    assert lane[tuple(marks[1][0])]
    builder = _LaneBuilder(doc.split_from, "walls", cell, None, None, False, None, [])
    corners, points = lane_route(builder, entrance(doc.split_from.grid))
    assert len({tuple(c) for c in corners.tolist()}) == len(corners)
    enabled = doc.split_from.grid.enabled
    cells, edges = np.nonzero(builder.valid & enabled[:, None])
    sides = {(c, d) for c, d in zip(cells.tolist(), builder.sides[cells, edges].tolist(), strict=True)}
    assert len(corners) == len(sides)  # a corner a side: each cell's sides, once each
    assert set(corners[:, 0].tolist()) == set(np.flatnonzero(enabled).tolist())
    assert len(points) >= len(corners)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_the_picture_is_the_grids_shape(kind):
    """The lanes' picture is the picture of the perfect maze it was split from, its walls all
    there (outline included), with the walls down the passages added: not the square maze."""
    doc = make_maze(KINDS[kind], kind, seed=5, unicursal=True, entrances=True)
    original = doc.split_from
    door = entrance(original.grid)
    scene = lane_scene(original, entrances=True, cell_size=30)
    builder = _LaneBuilder(original, "walls", 30, None, None, False, None, [])
    perfect = np.asarray(render_image(original, cell_size=30, wall_width=builder.line,
                                      endpoints=Endpoints(door[0], door[0], (door,))))
    lanes = np.asarray(render_image(doc.maze, endpoints=doc.endpoints, split_from=original,
                                    cell_size=30))
    assert lanes.shape == perfect.shape == (scene.height, scene.width)
    walls = perfect == WALL
    assert (lanes[walls] == WALL).all()
    assert (lanes == WALL).sum() > walls.sum()  # the lanes' own walls
    square = np.asarray(render_image(doc.maze, endpoints=doc.endpoints, cell_size=30))
    assert square.shape != lanes.shape


def test_the_document_carries_the_maze_it_was_split_from(tmp_path):
    doc = make_maze((3, 4), "hex", seed=2, unicursal=True, entrances=True)
    text = document_text(doc)
    back = load_maze(io.BytesIO(text.encode()))
    assert back == doc and back.split_from == doc.split_from
    jsonschema = pytest.importorskip("jsonschema")
    from pathlib import Path

    schema = json.loads((Path(__file__).parents[1] / "schemas/maze.schema.json").read_text())
    jsonschema.validate(json.loads(text), schema)
    # a square unicursal maze has none (its own split is drawn)
    assert make_maze((3, 4), seed=2, unicursal=True).split_from is None
    # exported from the document: the same picture as made at once
    path, direct, exported = tmp_path / "m.json", tmp_path / "a.png", tmp_path / "b.png"
    args = ["generate", "4x5", "-g", "hex", "--unicursal", "--entrances", "-s", "3"]
    assert main([*args, "-o", str(path)]) == 0 and main([*args, "-o", str(direct)]) == 0
    assert main(["export", str(path), "-o", str(exported)]) == 0
    assert direct.read_bytes() == exported.read_bytes()
    made = make_maze((4, 5), "hex", seed=3, unicursal=True, entrances=True)
    scene = lane_scene(made.split_from, entrances=True)
    with Image.open(exported) as image:  # the lanes, not the square maze
        assert image.size == (scene.width, scene.height)
    from blockmaze.readers.documents import maze_document_summary

    summary = maze_document_summary(json.loads(path.read_text()))
    assert summary.details["grid"] == "square 44x40"
    assert summary.details["split from"].startswith("a perfect hex 4x5 maze")


def test_a_bad_split_from_is_one_line(tmp_path):
    doc = make_maze((3, 3), "hex", seed=2, unicursal=True)
    data = json.loads(document_text(doc))
    data["split_from"]["links"] = "f" * len(data["split_from"]["links"])  # not a perfect maze
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(BadFileError, match="split_from"):
        load_maze(path)
    data["split_from"] = {"grid": {"kind": "square", "shape": [2, 2]}, "links": "6c93"}
    path.write_text(json.dumps(data))
    with pytest.raises(BadFileError, match="split_from"):
        load_maze(path)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_pdf_page_and_its_answer_are_the_lanes(kind):
    from blockmaze.export.pdf import _maze_scene, describe

    doc = make_maze(KINDS[kind], kind, seed=3, unicursal=True, entrances=True)
    puzzle = _maze_scene(doc, "walls", False, False, None)
    answer = _maze_scene(doc, "walls", True, False, None)
    names = [[layer.name for layer in scene.layers] for scene in (puzzle, answer)]
    assert names == [["walls", "lanes", "start", "goal"],
                     ["walls", "lanes", "solution", "start", "goal"]]
    assert describe(doc)[0].startswith(f"A unicursal {kind} maze, ")


@pytest.mark.reader
def test_qpdf_passes_and_poppler_renders_the_lanes_of_each_kind(tmp_path):
    """One PDF a kind (answers on): qpdf --check passes, and pdftoppm's puzzle page has ink at
    the lanes' walls (the maze's walls and the walls down its passages) and none in the middle of
    the lanes, where the answer page has the path."""
    import subprocess

    from readers import program

    from blockmaze.export.paper import layout, page_size
    from blockmaze.export.pdf import SCENE_CELL, write_pdf
    from blockmaze.export.unicursal_picture import lane_builder

    qpdf, pdftoppm = program("qpdf", "qpdf"), program("pdftoppm", "poppler-utils")
    dpi = 150
    for kind in sorted(KINDS):
        doc = make_maze(KINDS[kind], kind, seed=8, unicursal=True, entrances=True)
        path = tmp_path / f"{kind}.pdf"
        with path.open("wb") as out:
            write_pdf(doc, out, None, page="A4", answers=True)
        subprocess.run([qpdf, "--check", str(path)], check=True, capture_output=True, timeout=60)
        subprocess.run([pdftoppm, "-r", str(dpi), "-png", str(path), str(tmp_path / kind)],
                       check=True, timeout=120)
        pages = []
        for page in sorted(tmp_path.glob(f"{kind}-*.png")):
            with Image.open(page) as image:
                pages.append(np.asarray(image.convert("RGB")))
        assert len(pages) == 2, kind
        builder = lane_builder(doc.split_from, entrances=True, cell_size=SCENE_CELL)
        scene = builder.scene()
        (sheet,) = layout(scene.width, scene.height, page_size("A4"))

        lines = [*builder.chains(builder.wall_mask())[0], *builder.centre_lines()]
        walls = np.concatenate([(line[:-1] + line[1:]) / 2 for line in lines])
        corners, _ = lane_route(builder, builder.door)
        cells, vertices = corners[1:-1, 0], corners[1:-1, 1]  # (the ends hold the marks)
        lanes = (builder.centroids[cells] + builder.points[cells, vertices]) / 2
        puzzle, answer = pages
        walls, lanes = (np.array([sheet.to_page(x, y) for x, y in points]) * dpi / 72
                        for points in (walls, lanes))
        assert _ink(puzzle, walls).all(), kind
        assert not _ink(puzzle, lanes, reach=0).any(), kind
        assert _ink(answer, lanes, reach=0).all(), kind


def _ink(picture: np.ndarray, xy: np.ndarray, reach: int = 1) -> np.ndarray:
    """Whether the pixels within ``reach`` of each point hold ink (any channel below half)."""
    x, y = np.rint(xy[:, 0]).astype(int), np.rint(xy[:, 1]).astype(int)
    found = np.zeros(len(xy), dtype=bool)
    for dy in range(-reach, reach + 1):
        for dx in range(-reach, reach + 1):
            found |= picture[y + dy, x + dx].min(axis=-1) < 128
    return found


def test_the_command_says_a_picture_is_drawn_in_lanes(tmp_path, capsys):
    args = ["generate", "3x3", "-g", "triangle", "--unicursal", "-s", "1", "-o"]
    assert main([*args, str(tmp_path / "m.svg")]) == 0
    assert "split into one path (drawn in lanes on its triangle grid)" in capsys.readouterr().err
    assert main([*args, str(tmp_path / "m.png"), "--picture-style", "blocks"]) == 0
    assert "split into one path (square " in capsys.readouterr().err  # its blocks, as they are
