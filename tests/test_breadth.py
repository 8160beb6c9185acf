"""The one breadth-first search: over blocks it agrees with the neighbour-table search on the same
graph, compiled and as Python, with its limit, parents and labels."""

import numpy as np
import pytest

from blockmaze.grids import square_grid
from blockmaze.support.breadth import (
    FOUR,
    NO_LABELS,
    NO_PARENTS,
    SIX,
    block_breadth_first,
    breadth_first,
)
from blockmaze.support.kernels import forced


def _search(passable, sources, steps, limit=-1, parents=NO_PARENTS, labels=NO_LABELS):
    flat = passable.ravel()
    distance = np.full(flat.size, -1, np.int32)
    queue = np.empty(flat.size, np.int64)
    queue[:len(sources)] = sources
    distance[sources] = 0
    shape = np.array((1,) * (3 - passable.ndim) + passable.shape, np.int64)
    count = block_breadth_first(flat, shape, steps, distance, queue, len(sources), limit, parents, labels)
    return distance, queue[:count]


@pytest.mark.parametrize("mode", ["python", "numba"])
@pytest.mark.parametrize("seed", range(4))
def test_blocks_and_the_neighbour_table_agree(mode, seed):
    rng = np.random.default_rng(seed)
    passable = rng.random((13, 17)) < 0.7
    start = int(np.flatnonzero(passable)[0])
    table = square_grid(13, 17, passable).neighbors
    expected = np.full(passable.size, -1, np.int32)
    order = np.empty(passable.size, np.int32)
    with forced(mode):
        count = breadth_first(table, np.zeros((0, 4), bool), start, expected, np.empty(0, np.int32), order)
        distance, reached = _search(passable, [start], FOUR)
    assert distance.tolist() == expected.tolist()
    assert sorted(reached.tolist()) == sorted(order[:count].tolist())


@pytest.mark.parametrize("mode", ["python", "numba"])
def test_a_volume_from_several_sources_with_a_limit(mode):
    passable = np.ones((3, 4, 5), bool)
    passable[1, 1:3, 1:4] = False
    with forced(mode):
        distance, reached = _search(passable, [0, passable.size - 1], SIX, limit=2)
    z, y, x = np.indices(passable.shape)
    steps = np.minimum(z + y + x, (2 - z) + (3 - y) + (4 - x))  # no wall stands in a short walk here
    expected = np.where(passable.ravel() & (steps.ravel() <= 2), steps.ravel(), -1)
    assert distance.tolist() == expected.tolist()
    assert set(reached.tolist()) == set(np.flatnonzero(expected >= 0).tolist())


@pytest.mark.parametrize("mode", ["python", "numba"])
def test_parents_lead_back_and_labels_hold_steps_within(mode):
    passable = np.ones((1, 6), bool)
    parents = np.full(6, -1, np.int64)
    labels = np.array([0, 0, 0, 1, 1, 1], np.int32)
    with forced(mode):
        walked, _ = _search(passable, [0], FOUR, parents=parents)
        held, _ = _search(passable, [0], FOUR, labels=labels)
    assert walked.tolist() == [0, 1, 2, 3, 4, 5] and parents.tolist() == [-1, 0, 1, 2, 3, 4]
    assert held.tolist() == [0, 1, 2, -1, -1, -1]
