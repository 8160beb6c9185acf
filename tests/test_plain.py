"""Plain mazes in one call (mazes/plain.py) against the long way: the same carve, ends, solution
and dead ends for every grid kind, masked or not, compiled or as Python; and a batch's rows the
same whichever way they were made."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blockmaze import batches
from blockmaze.grids import GRID_KINDS
from blockmaze.mazes.endpoints import place_endpoints
from blockmaze.mazes.generation import generate, make_grid
from blockmaze.mazes.masks import masked_grid
from blockmaze.mazes.plain import PlainLayout, plain_maze
from blockmaze.pipeline import is_plain, make_maze
from blockmaze.support.kernels import forced

SHAPES = {"square": (5, 6), "hex": (4, 5), "triangle": (4, 7), "upsilon": (4, 4), "polar": (4,),
          "layered": (2, 3, 4)}
seeds = st.integers(0, 2**32 - 1)


def test_every_kind_but_weave_is_plain_and_tried_here():
    """A weave grid's crossings draw from the seed before the carve: never plain."""
    plain = {kind for kind in GRID_KINDS if is_plain(kind, "backtracker")}
    assert plain == set(GRID_KINDS) - {"weave"} and set(SHAPES) <= plain


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(SHAPES)), seeds, st.sampled_from(["python", "numba"]),
       st.booleans(), st.data())
def test_a_plain_maze_is_the_carve_and_its_ends_the_long_way(kind, seed, mode, masked, data):
    grid = make_grid(SHAPES[kind], kind)
    if masked and kind == "square":
        cells = np.array(data.draw(st.lists(st.booleans(), min_size=grid.size, max_size=grid.size)))
        cells[data.draw(st.integers(0, grid.size - 1))] = True  # at least one cell
        grid = masked_grid("square", SHAPES[kind], cells.reshape(SHAPES[kind]), split=True)[0]
    with forced(mode):
        made = plain_maze(PlainLayout.of(grid), np.random.default_rng(seed))
        maze = generate(grid, rng=seed)
        ends = place_endpoints(maze)
        route = ends.route(maze)
    assert np.array_equal(made.links, maze.links)
    assert (made.start, made.goal) == (ends.start, ends.goal)
    assert made.solution.tolist() == route.tolist()
    assert made.dead_ends == maze.dead_ends.size


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(sorted(SHAPES)), seeds, st.integers(0, 2), st.integers(0, 2))
def test_make_maze_gives_the_same_document_either_way(kind, seed, exits, checkpoints):
    """make_maze's plain path (exits and checkpoints added after it) against the carve and
    place_endpoints it stands for."""
    document = make_maze(SHAPES[kind], kind, seed=seed, exits=exits, checkpoints=checkpoints)
    maze = generate(make_grid(SHAPES[kind], kind), rng=seed)
    assert np.array_equal(document.maze.links, maze.links)
    from blockmaze.mazes.endpoints import add_checkpoints, add_exits

    expected = add_exits(maze, add_checkpoints(maze, place_endpoints(maze), checkpoints), exits)
    assert document.endpoints == expected


@pytest.mark.parametrize("size", [(17, 17), (3, 8)])
def test_a_batchs_rows_are_the_same_made_plain_or_the_long_way(tmp_path, size):
    """The rows of a plain batch against the same batch made with --measures (which takes the
    long way): every shared column equal."""
    import pyarrow.parquet as pq

    tables = []
    for measures in (False, True):
        out = tmp_path / f"m{measures}.parquet"
        batches.batch("generate", {"size": size}, count=30, output=str(out), seed=9,
                      shard_size=30, measures=measures)
        tables.append(pq.read_table(out).to_pydict())
    plain, long_way = tables
    assert {name: long_way[name] for name in plain} == plain
