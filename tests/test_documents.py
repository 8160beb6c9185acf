"""Maze documents: round trips, the schema, and clear errors for malformed documents."""

import io
import json
from pathlib import Path

import jsonschema
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import blockmaze as bm
from blockmaze import writing
from blockmaze.mazes.braiding import braid
from blockmaze.mazes.documents import MazeDocument, decode_links, encode_links, load_maze
from blockmaze.export.maze_document import save_maze
from blockmaze.mazes.endpoints import place_endpoints

SCHEMA = json.loads((Path(__file__).parents[1] / "schemas" / "maze.schema.json").read_text())


def saved(document) -> bytes:
    out = io.BytesIO()
    save_maze(document, out)
    return out.getvalue()


@pytest.mark.slow
@given(st.integers(1, 12), st.integers(1, 12), st.integers(0, 2**32 - 1), st.booleans(), st.floats(0, 1))
def test_round_trip_and_schema(rows, cols, seed, entrances, p):
    mask = np.random.default_rng(seed).random((rows, cols)) < 0.9
    mask[0, 0] = True
    grid = bm.square_grid(rows, cols, mask=mask)
    maze = braid(bm.generate(grid, rng=seed), p, rng=seed)
    ends = place_endpoints(maze, "entrances" if entrances and rows * cols > 1 else "longest")
    document = MazeDocument(maze, ends, "backtracker", seed, p)
    data = saved(document)
    jsonschema.Draft202012Validator(SCHEMA).validate(json.loads(data))
    assert load_maze(io.BytesIO(data)) == document


@pytest.mark.slow
@given(st.lists(st.lists(st.booleans(), min_size=6, max_size=6), min_size=1, max_size=20))
def test_link_encoding_round_trips_any_degree(rows):
    links = np.array(rows, bool)
    assert np.array_equal(decode_links(encode_links(links), *links.shape), links)


def good():
    return json.loads(saved(MazeDocument(bm.generate((3, 4), rng=1), None, "backtracker", 1)))


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(type="schematic"), "not a maze document"),
    (lambda d: d.update(version=9), "version 9 is not supported"),
    (lambda d: d.pop("grid"), "grid must be dict"),
    (lambda d: d["grid"].update(kind="hexagon"), "grid.kind 'hexagon' is unknown"),
    (lambda d: d["grid"].update(shape=[3, 0]), "grid.shape must be whole numbers >= 1"),
    (lambda d: d["grid"].update(disabled=[99]), "grid.disabled must list cells"),
    (lambda d: d.update(links=d["links"][:-1]), "links must be a string of 12 hex digits"),
    (lambda d: d.update(links="z" + d["links"][1:]), "only hex digits"),
    (lambda d: d.update(links="2" + "0" * 11), "links: links are not symmetric"),
    (lambda d: d.update(links="f" * 12), "links: a link leads out of the grid"),
    (lambda d: d.update(seed="seven"), "seed must be int"),
    (lambda d: d.update(start=0, goal=99), "goal must be an enabled cell"),
    (lambda d: d.update(start=0, goal=1, openings=[[0, "up"]]), "each opening must be"),
])
def test_malformed_documents_name_the_field(change, message):
    data = good()
    change(data)
    with pytest.raises(bm.BlockmazeError, match=message):
        load_maze(io.BytesIO(json.dumps(data).encode()))


def test_not_json_and_missing_file(tmp_path):
    with pytest.raises(bm.BlockmazeError, match="not valid JSON"):
        load_maze(io.BytesIO(b"{oops"))
    with pytest.raises(bm.BlockmazeError, match="cannot read maze document"):
        load_maze(tmp_path / "none.json")


KIND_SHAPES = {"square": (4, 5), "hex": (4, 5), "upsilon": (4, 5), "triangle": (4, 5),
               "polar": (4,), "layered": (2, 3, 4), "weave": (4, 5), "cylinder": (4, 5),
               "torus": (4, 5), "moebius": (4, 5), "cube": (3,), "sphere": (6,)}


@pytest.mark.parametrize("kind", sorted(bm.GRID_KINDS))
def test_masked_mazes_of_every_kind_round_trip(kind):
    from blockmaze.mazes.masks import mask_shape
    shape = KIND_SHAPES[kind]
    mask = np.random.default_rng(1).random(mask_shape(kind, shape)) < 0.8
    grid = bm.masked_grid(kind, shape, mask, split=True)[0]  # the largest region
    maze = bm.generate(grid, rng=4)
    closed = kind in ("torus", "cube", "sphere")  # (no outer wall to open)
    document = MazeDocument(maze, place_endpoints(maze, "longest" if closed else "entrances"),
                            "backtracker", 4)
    data = saved(document)
    jsonschema.Draft202012Validator(SCHEMA).validate(json.loads(data))
    assert load_maze(io.BytesIO(data)) == document


def test_an_opening_inside_the_maze_is_refused(tmp_path):
    """An opening must cut the outer wall: one between two cells would silently remove a wall."""
    from blockmaze import pipeline

    document = pipeline.make_maze((4, 5), seed=3, entrances=True)
    path = tmp_path / "m.json"
    writing.save(document, path)
    data = json.loads(path.read_text())
    data["openings"] = [[6, "east"]]  # cell 6 (row 1, column 1): its east side is inside
    path.write_text(json.dumps(data))
    with pytest.raises(bm.BlockmazeError, match="outer wall"):
        load_maze(path)
