"""Exact sizes: fitted runs hit the length exactly; impossible lengths name the nearest possible ones."""

import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import blockmaze as bm
from blockmaze.blockwise.sizing import apply_runs, fit_plan, fit_strict, from_runs, nearest_lengths, spread
from blockmaze.blockwise.strict import strict_layout
from blockmaze.materials import SOLID

maybe = st.one_of(st.none(), st.integers(1, 6))


def feasible(length, wall, passage, cells):
    """Whether runs >= 1 meeting the fixed values can sum to ``length`` (free runs may differ)."""
    for c in ([cells] if cells else range(1, length + 1)):
        least = (c + 1) * (wall or 1) + c * (passage or 1)
        if (length == least) if (wall and passage) else (length >= least):
            return True
    return False


@given(length=st.integers(1, 120), wall=maybe, passage=maybe, cells=st.one_of(st.none(), st.integers(1, 30)))
def test_fits_hit_the_length_exactly_or_are_impossible(length, wall, passage, cells):
    try:
        fit = fit_strict(length, wall, passage, cells)
    except bm.BlockmazeError as error:
        assert not feasible(length, wall, passage, cells), str(error)
        return
    runs = fit.runs
    assert int(runs.sum()) == length == fit.length
    assert runs.size == 2 * fit.cells + 1 and (runs >= 1).all()
    if cells is not None:
        assert fit.cells == cells
    for fixed, part in ((wall, fit.wall_runs), (passage, fit.passage_runs)):
        if fixed is not None:
            assert (part == fixed).all()
    free = [part for fixed, part in ((wall, fit.wall_runs), (passage, fit.passage_runs)) if fixed is None]
    if len(free) == 1:
        assert np.ptp(free[0]) <= 1                       # the remainder is spread evenly
    elif len(free) == 2:
        assert np.ptp(runs) <= 1
    if cells is None:                                     # the most cells that fit
        w, p = wall or 1, passage or 1
        assert (fit.cells + 2) * w + (fit.cells + 1) * p > length
    assert fit.uniform == (np.ptp(fit.wall_runs) == 0 and np.ptp(fit.passage_runs) == 0)


@given(length=st.integers(1, 120), wall=st.integers(1, 6), passage=st.integers(1, 6))
def test_fixed_thicknesses_refuse_with_the_nearest_possible_lengths(length, wall, passage):
    possible = [(c + 1) * wall + c * passage for c in range(1, 130)]
    below = [n for n in possible if n < length]
    above = [n for n in possible if n > length]
    if length in possible:
        assert fit_strict(length, wall, passage).cells == possible.index(length) + 1
        assert nearest_lengths(length, wall, passage) == (length,)
        return
    expected = ([below[-1]] if below else []) + [above[0]]
    assert list(nearest_lengths(length, wall, passage)) == expected
    with pytest.raises(bm.BlockmazeError) as error:
        fit_strict(length, wall, passage)
    numbers = re.search(r"(?:lengths are|length is) (\d+)(?: and (\d+))?", str(error.value))
    assert [int(n) for n in numbers.groups() if n] == expected
    assert f"cannot be {length} blocks" in str(error.value)


def test_fixed_cells_and_thickness_that_disagree_say_so():
    with pytest.raises(bm.BlockmazeError, match="3 cells with wall 1 and passage 2 are 10 blocks long, not 11"):
        fit_strict(11, wall=1, passage=2, cells=3)
    with pytest.raises(bm.BlockmazeError, match="need at least 13 blocks, got 12"):
        fit_strict(12, wall=None, passage=3, cells=3)
    with pytest.raises(bm.BlockmazeError, match="wall thickness must be"):
        fit_strict(12, wall=0)


@given(total=st.integers(0, 200), count=st.integers(1, 50))
def test_spread(total, count):
    parts = spread(total, count)
    assert parts.size == count and parts.sum() == total and np.ptp(parts) <= 1


@given(width=st.integers(3, 40), length=st.integers(3, 40), seed=st.integers(0, 2**32 - 1),
       wall=st.one_of(st.none(), st.integers(1, 2)), passage=st.one_of(st.none(), st.integers(1, 2)))
def test_strict_plans_of_any_size_are_exact_and_read_back(width, length, seed, wall, passage):
    try:
        fit_plan(length, width, wall, passage)
    except bm.BlockmazeError:
        return  # fixed thicknesses that cannot reach this size: covered above
    layout = strict_layout(length, width, rng=seed, wall=wall, passage=passage)
    plan, maze = layout.blocks, layout.maze
    fz, fx = layout.fits
    assert plan.shape == (length, width)
    assert layout.maze == bm.generate(maze.grid.shape, rng=seed)
    assert from_runs(plan, fz.runs, fx.runs) == maze
    # every run rectangle is all open or all solid, and it is open as the unit plan says
    unit = bm.to_blocks(maze)
    z_edges, x_edges = np.cumsum(fz.runs), np.cumsum(fx.runs)
    solid = SOLID[plan]
    for i, (z0, z1) in enumerate(zip(z_edges - fz.runs, z_edges, strict=True)):
        for j, (x0, x1) in enumerate(zip(x_edges - fx.runs, x_edges, strict=True)):
            block = solid[z0:z1, x0:x1]
            assert block.all() if SOLID[unit[i, j]] else not block.any()
    if layout.uniform:
        assert bm.from_blocks(plan, wall=(fz.wall, fx.wall), passage=(fz.passage, fx.passage)) == maze


def test_from_runs_refuses_what_does_not_match():
    maze = bm.generate((2, 3), rng=1)
    runs_z, runs_x = [1, 2, 1, 1, 1], [1, 1, 2, 1, 1, 1, 1]
    plan = apply_runs(bm.to_blocks(maze), runs_z, runs_x)
    assert from_runs(plan, runs_z, runs_x) == maze
    with pytest.raises(bm.BlockmazeError, match="does not match runs"):
        from_runs(plan, runs_z, [1] * 7)
    broken = plan.copy()
    broken[1, 1] = 1 if broken[1, 1] == 0 else 0
    with pytest.raises(bm.BlockmazeError, match="partly open"):
        from_runs(broken, runs_z, runs_x)
    with pytest.raises(bm.BlockmazeError, match="runs along axis 1"):
        apply_runs(bm.to_blocks(maze), runs_z, [1, 1])
