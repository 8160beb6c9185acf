"""Piece lists: read back (by the reader, not the writer) they rebuild every grid kind's maze
exactly, and each cell's piece, turned and mirrored as the list says, opens where the maze does."""

from __future__ import annotations

import io
import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import blockmaze as bm
from blockmaze.errors import BadFileError
from blockmaze.grids.geometry import cell_shapes
from blockmaze.mazes.documents import MazeDocument
from blockmaze.mazes.endpoints import place_endpoints
from blockmaze.pipeline import make_maze
from blockmaze.readers.info import inspect_bytes
from blockmaze.readers.pieces import load_pieces

SIZES = {"square": st.tuples(st.integers(1, 9), st.integers(1, 9)),
         "hex": st.tuples(st.integers(1, 7), st.integers(1, 7)),
         "triangle": st.tuples(st.integers(1, 7), st.integers(2, 9)),
         "upsilon": st.tuples(st.integers(1, 7), st.integers(1, 7)),
         "polar": st.tuples(st.integers(1, 5)),
         "layered": st.tuples(st.integers(1, 3), st.integers(1, 5), st.integers(1, 5)),
         "weave": st.tuples(st.integers(3, 9), st.integers(3, 9))}


def written(document, form: str) -> bytes:
    out = io.BytesIO()
    bm.save(document, out, format=form)
    return out.getvalue()


def side_bearings(name: str, rotation: float, mirror: bool) -> list[float]:
    """Where a piece's open sides face once placed: canonical side i faces i * 360 / m
    (clockwise from north), mirrored across north-south, then turned by ``rotation``."""
    bits = name.rsplit("-", 1)[1]
    m = len(bits)
    return [((-1 if mirror else 1) * i * 360 / m + rotation) % 360
            for i, bit in enumerate(bits) if bit == "1"]


SQUARE_BITS = {"closed": "0000", "dead-end": "1000", "corridor": "1010", "corner": "1100",
               "tee": "1110", "cross": "1111"}


def open_bearings(maze, cell: int) -> list[float]:
    """The bearings of the sides of ``cell`` the maze opens, from the cell's polygon."""
    shapes = cell_shapes(maze.grid)
    polygon = shapes.polygon(cell)
    centre = polygon.mean(axis=0)
    found = []
    for j, direction in enumerate(shapes.sides[cell, :len(polygon)].tolist()):
        if direction >= 0 and maze.links[cell, direction]:
            middle = (polygon[j] + polygon[(j + 1) % len(polygon)]) / 2 - centre
            found.append(math.degrees(math.atan2(middle[0], -middle[1])) % 360)
    return sorted(found)


def close(a: list[float], b: list[float]) -> bool:
    near = [[abs((x - y + 180) % 360 - 180) < 1e-6 for y in b] for x in a]
    return len(a) == len(b) and all(map(any, near)) and all(map(any, zip(*near, strict=True)))


@pytest.mark.parametrize("kind", sorted(SIZES))
@settings(max_examples=15, deadline=None)
@given(data=st.data(), seed=st.integers(0, 2**32 - 1), braid=st.sampled_from([0.0, 0.5]),
       form=st.sampled_from(["pieces", "pieces-csv"]))
def test_piece_list_rebuilds_the_maze_and_its_pieces_open_where_it_does(kind, data, seed, braid,
                                                                        form):
    size = data.draw(SIZES[kind])
    document = make_maze(size, kind, "backtracker", seed=seed, braid=braid,
                         **({"weave": 0.6} if kind == "weave" else {}))
    back = load_pieces(written(document, form))
    assert back.maze == document.maze
    assert (back.endpoints.start, back.endpoints.goal) == (document.endpoints.start,
                                                           document.endpoints.goal)
    if kind in ("polar", "layered", "weave"):
        return  # (their pieces' sides: a polar piece turns with its ring; stairs, crossings)
    pieces = bm.mazes.pieces.maze_pieces(document.maze)
    for cell, name, rotation, mirror in zip(pieces.cells.tolist(), pieces.names,
                                            pieces.rotation.tolist(), pieces.mirror.tolist(),
                                            strict=True):
        if kind == "square":
            name = "x-" + SQUARE_BITS[name]
        assert close(side_bearings(name, rotation, mirror), open_bearings(document.maze, cell))


def test_weave_crossings_and_stairs_have_their_own_pieces():
    weave = make_maze((8, 8), "weave", "backtracker", seed=4, weave=1.0)
    names = bm.mazes.pieces.maze_pieces(weave.maze).names
    assert any(name.startswith("crossing-") for name in names)
    layered = bm.mazes.pieces.maze_pieces(bm.generate((3, 3, 3), kind="layered", rng=2)).names
    assert any(name.endswith(("-up", "-updown")) for name in layered)


def test_a_masked_maze_lists_only_its_enabled_cells():
    mask = np.ones((4, 5), bool)
    mask[1, 2] = mask[3, 0] = False
    maze = bm.generate(bm.square_grid(4, 5, mask=mask), rng=3)
    data = written(MazeDocument(maze, place_endpoints(maze)), "pieces")
    assert load_pieces(data).maze == maze
    assert inspect_bytes(data, "m.pieces.json").details["cells"] == 18


@pytest.mark.parametrize("change, message", [
    (lambda t: t.replace('"type": "blockmaze-pieces"', '"type": "other"'), "not a piece list"),
    (lambda t: t.replace(',6,', ',7,', 1), "links: a link leads out of the grid"),
    (lambda t: t.replace('"north", "east"', '"east", "north"'), "directions are not its kind's"),
    (lambda t: json.dumps({**json.loads(t), "pieces": json.loads(t)["pieces"][:1] * 2 + json.loads(t)["pieces"][1:]}),
     "one row for every enabled cell"),
])
def test_bad_piece_lists_are_refused_in_one_line(change, message):
    text = written(MazeDocument(bm.generate((3, 3), rng=1)), "pieces").decode()
    with pytest.raises(BadFileError, match=message):
        load_pieces(change(text).encode())
