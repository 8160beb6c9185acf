"""Several exits and checkpoints (issue 51): openings only in the outer wall, the maze still a
spanning tree; checkpoints on the way from start to goal in order, marked in the blocks and the
tile maps; the same seed, the same files; the game's bot walks through every checkpoint."""

from __future__ import annotations

import json
from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from blockmaze import pipeline
from blockmaze.cli import main
from blockmaze.grids.geometry import outer_sides
from blockmaze.materials import Material
from blockmaze.mazes.documents import document_text, parse_maze

KINDS = {"square": (7, 9), "hex": (5, 6), "triangle": (5, 7), "upsilon": (5, 5), "polar": (5,),
         "weave": (6, 6)}


def made(kind, seed, exits, checkpoints, entrances=True):
    return pipeline.make_maze(KINDS[kind], kind, seed=seed, entrances=entrances, exits=exits,
                              checkpoints=checkpoints, weave=0.4 if kind == "weave" else 0.0)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(KINDS)), st.integers(0, 2 ** 31), st.integers(0, 4),
       st.booleans())
def test_exits_open_only_the_outer_wall_of_a_perfect_maze(kind, seed, exits, entrances):
    plain = made(kind, seed, 0, 0, entrances)
    document = made(kind, seed, exits, 0, entrances)
    ends, maze = document.endpoints, document.maze
    assert maze.is_perfect() and (maze.links == plain.maze.links).all()  # the carve untouched
    outer = outer_sides(maze.grid)
    assert all(outer[cell, direction] for cell, direction in ends.openings)
    assert len(ends.exits) == exits == len(ends.openings) - len(plain.endpoints.openings)
    assert {c for c, _ in ends.openings} >= set(ends.exits)
    assert len({*ends.exits, ends.start, ends.goal}) == exits + 2


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(KINDS)), st.integers(0, 2 ** 31), st.integers(1, 4),
       st.integers(0, 2))
def test_checkpoints_lie_on_the_solution_in_order(kind, seed, checkpoints, exits):
    document = made(kind, seed, exits, checkpoints)
    ends, maze = document.endpoints, document.maze
    path = maze.shortest_path(ends.start, ends.goal).tolist()
    places = [path.index(c) for c in ends.checkpoints]
    assert len(places) == checkpoints and places == sorted(set(places))
    assert 0 < places[0] and places[-1] < len(path) - 1
    assert ends.route(maze).tolist() == path
    assert not set(ends.checkpoints) & set(ends.exits)


def marked_walk(plan: np.ndarray) -> dict[tuple[int, int], int]:
    """The blocks of the marked way, START to GOAL, walked over PATH, CHECKPOINT, START and
    GOAL blocks of a plan (and EXIT: an exit may be on the way), with their distance from START."""
    way = np.isin(plan, (Material.PATH, Material.START, Material.GOAL, Material.CHECKPOINT,
                         Material.EXIT))
    start = tuple(int(v) for v in np.argwhere(plan == Material.START)[0])
    distance = {start: 0}
    queue = deque([start])
    while queue:
        z, x = queue.popleft()
        for dz, dx in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            near = (z + dz, x + dx)
            if 0 <= near[0] < plan.shape[0] and 0 <= near[1] < plan.shape[1] \
                    and way[near] and near not in distance:
                distance[near] = distance[(z, x)] + 1
                queue.append(near)
    return distance


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_the_blocks_mark_every_checkpoint_and_exit_and_the_way_through_them(kind):
    document = made(kind, 3, 2, 3)
    ends = document.endpoints
    plain = pipeline.build(document.maze, ends)
    assert (plain == Material.PATH).sum() == 0  # shown without --solution too
    volume = pipeline.build(document.maze, ends, solution=True)
    floor = volume[0]
    for material in (Material.CHECKPOINT, Material.EXIT):
        assert (plain == material).any() and (volume == material).any()
    if kind == "square":  # one block a cell: the order is read off the blocks
        cols = document.maze.grid.shape[1]
        distance = marked_walk(floor)
        at = [distance.get((2 * (c // cols) + 1, 2 * (c % cols) + 1)) for c in ends.checkpoints]
        goal = tuple(int(v) for v in np.argwhere(floor == Material.GOAL)[0])
        assert None not in at and at == sorted(at) and at[-1] < distance[goal]


def test_a_maze_document_keeps_its_exits_and_checkpoints():
    document = made("square", 5, 2, 2)
    again = parse_maze(json.loads(document_text(document)))
    assert again.endpoints == document.endpoints
    plain = made("square", 5, 0, 0)
    assert "checkpoints" not in document_text(plain)  # documents without them: the same bytes


@pytest.mark.parametrize("suffix", ["schem", "tmx", "tmj", "json", "litematic"])
def test_the_same_seed_gives_the_same_files(tmp_path, capsys, suffix):
    outputs = []
    for number in range(2):
        (tmp_path / str(number)).mkdir()
        path = tmp_path / str(number) / f"m.{suffix}"  # (a tile map names its tile set)
        assert main(["generate", "8x10", "--seed", "11", "--entrances", "--exits", "3",
                     "--checkpoints", "2", "--solution", "-o", str(path)]) == 0
        outputs.append(path.read_bytes())
    assert outputs[0] == outputs[1]


def test_tile_maps_carry_checkpoints_and_exits_as_entities(tmp_path, capsys):
    path = tmp_path / "m.tmj"
    assert main(["generate", "6x8", "--seed", "2", "--exits", "2", "--checkpoints", "3",
                 "-o", str(path)]) == 0
    objects = [o for layer in json.loads(path.read_text())["layers"]
               for o in layer.get("objects", [])]
    kinds = [o.get("type") or o.get("class") for o in objects]
    assert kinds.count("checkpoint") == 3 and kinds.count("exit") == 2
    ends = pipeline.make_maze((6, 8), seed=2, exits=2, checkpoints=3).endpoints
    order = {}
    for o in objects:
        if o["type"] == "checkpoint":
            row, col = (o["y"] // 16 - 1) // 2, (o["x"] // 16 - 1) // 2
            order[o["properties"][0]["value"]] = row * 8 + col
    assert [order[k] for k in (1, 2, 3)] == list(ends.checkpoints)


def test_too_many_checkpoints_or_exits_are_refused_in_one_line(capsys):
    assert main(["generate", "3x3", "--seed", "1", "--checkpoints", "9"]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "too few for 9 checkpoints" in err[0]
    assert main(["generate", "2x2", "--seed", "1", "--exits", "9"]) != 0
    assert "for exits, not 9" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.reader
def test_the_bot_walks_through_every_checkpoint_to_the_goal(tmp_path):
    from blockmaze import writing
    from game import feet_on, walk

    document = pipeline.make_maze((8, 10), "square", seed=4, entrances=True, exits=3,
                                  checkpoints=3)
    ends = document.endpoints
    path = tmp_path / "stops.schem"
    volume = writing.save(document, path, solution=True, mc_version="1.20.4")
    cols = document.maze.grid.shape[1]
    route = [[2 * (c % cols) + 1, 1, 2 * (c // cols) + 1, 0] for c in ends.checkpoints]
    for x, _, z, _ in route:
        assert volume[0, z, x] == Material.CHECKPOINT
    result, = walk([{"name": "checkpoints", "file": path, "goal": list(feet_on(volume, Material.GOAL)),
                     "start": None, "route": route}], timeout=120)
    assert result["reached"], result


@pytest.mark.parametrize("style", ["blocks", "walls"])
def test_pictures_take_a_maze_with_exits_and_checkpoints_banded_or_whole(style):
    import io

    from PIL import Image

    from blockmaze.export.pictures import render_image
    from blockmaze.export.pngbands import write_png_bands

    document = made("square", 6, 2, 3)
    options = dict(style=style, cell_size=6, endpoints=document.endpoints, shade=True)
    out = io.BytesIO()
    write_png_bands(document.maze, out, band_rows=2, **options)
    banded = np.asarray(Image.open(io.BytesIO(out.getvalue())))
    assert (banded == np.asarray(render_image(document.maze, **options))).all()
