"""Strict blockwise generation: equal to the graph path + converter, sizes in blocks, the 3-D volume."""

import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import ndimage

import blockmaze as bm
from blockmaze.algorithms import ALGORITHMS, algorithm_specs
from blockmaze.grids import layered_grid
from blockmaze.blockwise.strict import (strict_layout, strict_plan, strict_volume_3d,
                                     strict_volume_layout)
from blockmaze.materials import SOLID, Material

thickness = st.one_of(st.integers(1, 3), st.tuples(st.integers(1, 3), st.integers(1, 3)))
seeds = st.integers(0, 2**32 - 1)


def square_specs():
    return [s for s in algorithm_specs()
            if ALGORITHMS[s.partition(":")[0]].grid_kinds is None
            or "square" in ALGORITHMS[s.partition(":")[0]].grid_kinds]


def any_grid_specs():
    return [s for s in algorithm_specs() if ALGORITHMS[s.partition(":")[0]].grid_kinds is None]


def pair(value):
    return tuple(value) if isinstance(value, tuple) else (value, value)


def possible_lengths(wall, passage, up_to):
    return [(c + 1) * wall + c * passage for c in range(1, up_to + 1)]


def open_blocks_form_a_tree(open_):
    """Open blocks joined across faces: a tree (connected, edges = blocks - 1), counted independently."""
    count = int(open_.sum())
    edges = 0
    for axis in range(open_.ndim):
        a = np.moveaxis(open_, axis, 0)
        edges += int(np.count_nonzero(a[1:] & a[:-1]))
    _, components = ndimage.label(open_)  # default structure: face neighbours only
    return count >= 1 and components == 1 and edges == count - 1


@pytest.mark.slow
@pytest.mark.parametrize("spec", square_specs())
@given(rows=st.integers(1, 10), cols=st.integers(1, 10), seed=seeds, wall=thickness, passage=thickness)
def test_strict_equals_the_converter_and_round_trips(spec, rows, cols, seed, wall, passage):
    (wz, wx), (pz, px) = pair(wall), pair(passage)
    length, width = (rows + 1) * wz + rows * pz, (cols + 1) * wx + cols * px
    plan = strict_plan(length, width, algorithm=spec, rng=seed, wall=wall, passage=passage)
    maze = bm.generate((rows, cols), spec, rng=seed)
    assert plan.dtype == np.uint8 and plan.shape == (length, width)
    assert np.array_equal(plan, bm.to_blocks(maze, wall=wall, passage=passage))
    assert bm.from_blocks(plan, wall=wall, passage=passage) == maze
    if (wall, passage) == (1, 1):
        assert open_blocks_form_a_tree(~SOLID[plan])


def test_strict_accepts_a_generator_and_the_same_seed_gives_the_same_plan():
    a = strict_plan(21, 41, rng=np.random.default_rng(8))
    b = strict_plan(21, 41, rng=8)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, strict_plan(21, 41, rng=9))


@given(size=st.integers(1, 60), wall=st.integers(1, 4), passage=st.integers(1, 4))
def test_impossible_sizes_name_the_nearest_possible_ones(size, wall, passage):
    lengths = possible_lengths(wall, passage, 70)
    other = lengths[0] + 2 * (wall + passage)  # a possible length for the other axis
    if size in lengths:
        assert strict_plan(other, size, wall=wall, passage=passage, rng=0).shape == (other, size)
        return
    with pytest.raises(bm.BlockmazeError) as error:
        strict_plan(other, size, wall=wall, passage=passage, rng=0)
    message = str(error.value)
    assert "along x (width)" in message and f"cannot be {size} blocks" in message
    named = [int(n) for n in re.findall(r"lengths? (?:are|is) (\d+)(?: and (\d+))?", message)[0] if n]
    below = [n for n in lengths if n < size]
    above = [n for n in lengths if n > size]
    assert named == ([below[-1]] if below else []) + [above[0]]


def test_cells_and_free_thickness_reach_any_size():
    layout = strict_layout(17, 30, rng=4, wall=None, passage=None, cells=(4, 6))
    assert layout.blocks.shape == (17, 30) and layout.maze.grid.shape == (4, 6)
    assert not layout.uniform
    fz, fx = layout.fits
    assert fz.runs.sum() == 17 and fx.runs.sum() == 30
    with pytest.raises(bm.BlockmazeError, match="along z"):
        strict_plan(5, 9, wall=1, passage=1, cells=(3, 4))


def test_a_free_thickness_that_fits_uniformly_is_exactly_the_converter():
    layout = strict_layout(13, 21, rng=5, wall=None, passage=3)   # 6 walls of 1 and 5 passages of 3
    assert layout.uniform and layout.maze.grid.shape == (3, 5)
    assert np.array_equal(layout.blocks, bm.to_blocks(layout.maze, wall=1, passage=3))
    assert layout.maze == bm.generate((3, 5), rng=5)


# --- 3-D ---------------------------------------------------------------------------------------


def test_layered_grid_topology():
    grid = layered_grid(3, 2, 4)
    n = grid.neighbors
    for cell in range(grid.size):
        for d in range(6):
            if n[cell, d] >= 0:
                assert n[n[cell, d], grid.opposite[d]] == cell
    # level l, row r, column c is cell (l * 2 + r) * 4 + c
    assert n[(1 * 2 + 1) * 4 + 2].tolist() == [10, 15, -1, 13, 22, 6]


@pytest.mark.slow
@pytest.mark.parametrize("spec", any_grid_specs())
@given(levels=st.integers(1, 4), rows=st.integers(1, 5), cols=st.integers(1, 5), seed=seeds)
def test_volume_is_a_tree_of_cells_with_stair_shafts(spec, levels, rows, cols, seed):
    shape = (2 * levels + 1, 2 * rows + 1, 2 * cols + 1)
    layout = strict_volume_layout(shape[0], shape[1], shape[2], algorithm=spec, rng=seed)
    volume = layout.blocks
    assert volume.shape == shape and volume.dtype == np.uint8
    open_ = ~SOLID[volume]
    y, z, x = np.indices(shape)
    odd = (y % 2) + (z % 2) + (x % 2)
    assert open_[odd == 3].all()                         # every cell is open
    assert not open_[odd <= 1].any()                     # edges and corners of the lattice: solid
    assert open_blocks_form_a_tree(open_)                # cells joined through connectors: a tree
    # the same maze as the registry algorithm on the layered grid, seen in the blocks
    grid = layered_grid(levels, rows, cols)
    algorithm = ALGORITHMS[spec.partition(":")[0]]
    links = algorithm.carve(grid, np.random.default_rng(seed), spec.partition(":")[2] or None)
    assert layout.maze == bm.Maze(grid, links)
    connectors = open_ & (odd == 2)
    assert int(connectors.sum()) == layout.maze.passage_count == levels * rows * cols - 1
    # shafts (connectors in a slab: y even) and the cell under each are STAIRS, nothing else
    shafts = connectors & (y % 2 == 0)
    below = np.zeros_like(shafts)
    below[:-1] = shafts[1:]
    assert np.array_equal(volume == Material.STAIRS, shafts | below)
    assert set(np.unique(volume[open_ & ~(shafts | below)])) <= {Material.AIR}
    assert (volume[0] == Material.FLOOR).all() and (volume[-1] == Material.ROOF).all()


def test_volume_with_thickness_is_the_unit_volume_stretched():
    unit = strict_volume_3d(5, 7, 9, rng=3)
    wall, passage = (1, 1, 2), (3, 2, 2)
    cells = (2, 3, 4)
    height, length, width = ((c + 1) * w + c * p
                             for c, w, p in zip(cells, wall, passage, strict=True))
    thick = strict_volume_3d(height, length, width, rng=3, wall=wall, passage=passage)
    runs = [np.array([w if i % 2 == 0 else p for i in range(n)])
            for w, p, n in zip(wall, passage, unit.shape, strict=True)]
    stretched = unit
    for axis, r in enumerate(runs):
        stretched = np.repeat(stretched, r, axis=axis)
    # the same but in the shafts, whose 2x2 cells hold spiral stairs: STAIRS, air and floor
    differ = thick != stretched
    assert (stretched[differ] == Material.STAIRS).all()
    assert (thick == Material.STAIRS).any() and differ.any()
    assert set(np.unique(thick[stretched == Material.STAIRS]).tolist()) <= {
        Material.STAIRS, Material.AIR, Material.FLOOR}


def test_volume_sizes_and_algorithms_are_checked():
    with pytest.raises(bm.BlockmazeError, match=r"along y \(height\).*nearest possible lengths are 5 and 7"):
        strict_volume_3d(6, 7, 7)
    if "binary-tree" in ALGORITHMS:
        with pytest.raises(bm.BlockmazeError, match="needs a grid of kind square"):
            strict_volume_3d(5, 7, 7, algorithm="binary-tree")


def test_volume_seed_reproducible():
    assert np.array_equal(strict_volume_3d(7, 9, 11, rng=1), strict_volume_3d(7, 9, 11, rng=1))
