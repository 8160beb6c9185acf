"""The square grid's neighbour table against its definition."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from blockmaze import BlockmazeError, square_grid
from lattice import SQUARE_OFFSETS, lattice_grid


@given(st.integers(1, 30), st.integers(1, 30))
def test_square_grid_equals_lattice_definition(rows, cols):
    grid = square_grid(rows, cols)
    reference = lattice_grid((rows, cols), SQUARE_OFFSETS)
    assert np.array_equal(grid.neighbors, reference.neighbors)
    assert grid.opposite.tolist() == reference.opposite.tolist()


@given(st.integers(1, 20), st.integers(1, 20), st.integers(0, 2**32 - 1))
def test_opposite_leads_back_and_mask_cuts_links(rows, cols, seed):
    mask = np.random.default_rng(seed).random((rows, cols)) < 0.7
    grid = square_grid(rows, cols, mask=mask)
    cell, direction = np.nonzero(grid.neighbors >= 0)
    neighbor = grid.neighbors[cell, direction]
    assert np.array_equal(grid.neighbors[neighbor, grid.opposite[direction]], cell)
    assert grid.enabled[cell].all() and grid.enabled[neighbor].all()
    assert (grid.neighbors[~mask.ravel()] == -1).all()


def test_grid_is_read_only_and_compares_by_shape_and_mask():
    grid = square_grid(2, 2)
    with pytest.raises(ValueError):
        grid.neighbors[0, 0] = 3
    assert grid == square_grid(2, 2)
    assert grid != square_grid(2, 2, mask=[[True, False], [True, True]])
    assert grid != square_grid(1, 4)


@pytest.mark.parametrize("rows, cols", [(0, 3), (3, 0), (-1, 5)])
def test_empty_grids_are_refused(rows, cols):
    with pytest.raises(BlockmazeError, match="no cells"):
        square_grid(rows, cols)


def test_grids_beyond_int32_or_memory_are_refused(monkeypatch):
    with pytest.raises(BlockmazeError, match="at most 2147483647 cells"):
        square_grid(50_000, 50_000)
    monkeypatch.setattr("blockmaze.support.memory.available_memory", lambda: 1 << 30)
    with pytest.raises(BlockmazeError, match="needs about 3.5 GiB of memory; the memory available is 1.0 GiB"):
        square_grid(12_000, 12_000)


def test_mask_shape_must_match():
    with pytest.raises(BlockmazeError, match="mask shape"):
        square_grid(2, 3, mask=np.ones((3, 2), bool))
