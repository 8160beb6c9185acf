"""Costs linear in the work: four times the size takes less than five times the time.

Each check times the same job at one size and at four times it (CPU time of this process, so
other work on the machine counts little; the best of a few runs, after a warm-up run so imports
and numba's compile or cache load are not counted). Measured on 2 cores: the costs that were
quadratic (in the chunks, in the stairwells) took 5.7x and 7.6x; linear now, 4.0x and 3.8x.
"""

from __future__ import annotations

import io
import time

import pytest

import blockmaze
from blockmaze.grids import layered_grid
from blockmaze.support.kernels import forced

pytestmark = [pytest.mark.slow]

LIMIT = 5.0  # times the time of the small job, for four times the work
RUNS = 3


def _best(job) -> float:
    best = float("inf")
    for _ in range(RUNS):
        start = time.process_time()
        job()
        best = min(best, time.process_time() - start)
    return best


def _ratio(small, big) -> tuple[float, float]:
    """The best times of ``small`` and ``big`` (jobs), after a warm-up run of ``small``."""
    small()
    return _best(small), _best(big)


def _glb(cells: int):
    maze = blockmaze.generate((cells, cells), rng=1)
    return lambda: blockmaze.save(maze, io.BytesIO(), format="glb", chunk=1, collision=True)


def _layered_schem(cells: int):
    maze = blockmaze.generate(layered_grid(6, cells, cells), rng=1)
    return lambda: blockmaze.save(maze, io.BytesIO(), format="schem")


def test_one_block_chunks_cost_linear_in_the_chunks():
    """A mesh of 1-block chunks (16x16 and 32x32 cells: 33x4x33 and 65x4x65 blocks), in the numpy
    form small jobs take: each chunk's rectangles used to be picked out of every chunk's."""
    with forced("python"):
        small, big = _ratio(_glb(16), _glb(32))
    assert big < LIMIT * small, f"4x the blocks took {big / small:.1f}x the time ({small:.2f} s, {big:.2f} s)"


def test_layered_schematic_costs_linear_in_the_stairwells():
    """A layered maze's schematic, 6 levels of 30x30 and of 60x60 cells (4x the blocks and the
    stairwells): each stairwell used to look through every stairwell before it."""
    with forced("numba"):  # one path at both sizes
        small, big = _ratio(_layered_schem(30), _layered_schem(60))
    assert big < LIMIT * small, f"4x the cells took {big / small:.1f}x the time ({small:.2f} s, {big:.2f} s)"
