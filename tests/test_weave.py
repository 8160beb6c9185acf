"""Weave mazes: the grid model, every algorithm on it, pictures, text and blocks."""

from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from blockmaze.algorithms import ALGORITHMS, algorithm_specs
from blockmaze.documents import load_maze, save_maze
from blockmaze.errors import BlockmazeError
from blockmaze.grids import square_grid
from blockmaze.grids.weave import OVER_EAST_WEST, place_crossings, weave_grid
from blockmaze.pipeline import make_maze

ANY_GRID = [spec for spec in algorithm_specs()
            if ALGORITHMS[spec.partition(":")[0]].grid_kinds is None]


@pytest.mark.parametrize("spec", ANY_GRID)
@settings(max_examples=12, deadline=None)
@given(rows=st.integers(1, 14), cols=st.integers(1, 14), seed=st.integers(0, 2**32),
       chance=st.sampled_from([0.0, 0.3, 1.0]))
def test_every_algorithm_weaves_a_perfect_maze(spec, rows, cols, seed, chance):
    document = make_maze((rows, cols), "weave", spec, seed=seed, weave=chance)
    maze = document.maze
    assert maze.is_perfect()
    grid = maze.grid
    used = grid.used_crossings(maze.links)
    for cell, before, after in used:  # the passage on top of a used crossing runs straight
        over = (1, 3) if grid.crossings[cell] == OVER_EAST_WEST else (0, 2)
        assert maze.links[cell, list(over)].any() and not maze.links[cell].sum() > 2


def test_no_crossings_is_the_square_maze():
    weave = make_maze((9, 11), "weave", "backtracker", seed=5, weave=0)
    square = make_maze((9, 11), "square", "backtracker", seed=5)
    assert np.array_equal(weave.maze.links, square.maze.links)
    assert np.array_equal(weave.maze.grid.neighbors, square.maze.grid.neighbors)


@settings(max_examples=30, deadline=None)
@given(rows=st.integers(3, 30), cols=st.integers(3, 30), seed=st.integers(0, 2**32))
def test_crossings_keep_the_grid_connected_and_symmetric(rows, cols, seed):
    grid = place_crossings(square_grid(rows, cols), 1.0, np.random.default_rng(seed))
    n = grid.neighbors
    cells, dirs = np.nonzero(n >= 0)
    assert (n[n[cells, dirs], grid.opposite[dirs]] == cells).all()
    from blockmaze.algorithms.common import region_kernel
    assert region_kernel(n, 0)[1] == grid.size


def test_kruskal_weave_lays_most_crossings():
    plain = make_maze((40, 40), "weave", "kruskal", seed=2, weave=1.0).maze
    woven = make_maze((40, 40), "weave", "kruskal:weave", seed=2, weave=1.0).maze
    count = lambda m: len(m.grid.used_crossings(m.links))
    assert woven.is_perfect()
    assert count(woven) > 0.9 * (woven.grid.crossings > 0).sum() > count(plain)


def test_document_keeps_the_crossings():
    document = make_maze((8, 9), "weave", "wilson", seed=4, weave=0.8)
    buffer = io.BytesIO()
    save_maze(document, buffer)
    buffer.seek(0)
    loaded = load_maze(buffer)
    assert loaded.maze == document.maze
    assert np.array_equal(loaded.maze.grid.crossings, document.maze.grid.crossings)


def test_bad_crossings_and_options_are_refused():
    crossings = np.zeros(9, np.int8)
    crossings[0] = 1
    with pytest.raises(BlockmazeError, match="crossing cell 0"):
        weave_grid(3, 3, crossings=crossings)
    with pytest.raises(BlockmazeError, match="--weave"):
        make_maze((5, 5), "square", weave=0.5)
    with pytest.raises(BlockmazeError, match="from 0 to 1"):
        make_maze((5, 5), "weave", weave=1.5)
