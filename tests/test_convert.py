"""The 2n+1 converter: sizes, thickness per axis, round trips, and refusal of non-strict plans."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import blockmaze as bm
from blockmaze.blocks.convert import per_axis
from blockmaze.materials import SOLID, Material

thickness = st.one_of(st.integers(1, 4), st.tuples(st.integers(1, 4), st.integers(1, 4)))


def adjacency_by_geometry(plan, rows, cols, wall, passage):
    """Cell pairs the plan joins, read block by block from the layout's definition.

    Cell (r, c) covers rows wz + r*(wz+pz) .. +pz and columns wx + c*(wx+px) .. +px; the wall run
    between two cells is open (all blocks) or closed (all blocks); every other block is solid.
    """
    (wz, wx), (pz, px) = per_axis(wall, "w"), per_axis(passage, "p")
    open_ = ~SOLID[plan]
    expected_open = np.zeros_like(open_)
    joined = set()
    for r in range(rows):
        for c in range(cols):
            z, x = wz + r * (wz + pz), wx + c * (wx + px)
            assert open_[z:z + pz, x:x + px].all()
            expected_open[z:z + pz, x:x + px] = True
            for run, other in ((open_[z:z + pz, x + px:x + px + wx], (r, c + 1)),
                               (open_[z + pz:z + pz + wz, x:x + px], (r + 1, c))):
                if other[0] < rows and other[1] < cols and run.any():
                    assert run.all()
                    run_rows = slice(z, z + pz) if other[0] == r else slice(z + pz, z + pz + wz)
                    run_cols = slice(x + px, x + px + wx) if other[1] != c else slice(x, x + px)
                    expected_open[run_rows, run_cols] = True
                    joined.add(frozenset((r * cols + c, other[0] * cols + other[1])))
    assert np.array_equal(open_, expected_open)
    return joined


def maze_adjacency(maze):
    cells, dirs = np.nonzero(maze.links)
    return {frozenset((int(a), int(maze.grid.neighbors[a, d])))
            for a, d in zip(cells, dirs, strict=True)}


@pytest.mark.slow
@given(st.integers(1, 12), st.integers(1, 12), st.integers(0, 10**9), thickness, thickness)
def test_size_topology_and_round_trip(rows, cols, seed, wall, passage):
    maze = bm.generate((rows, cols), rng=seed)
    plan = bm.to_blocks(maze, wall=wall, passage=passage)
    (wz, wx), (pz, px) = per_axis(wall, "w"), per_axis(passage, "p")
    assert plan.shape == ((rows + 1) * wz + rows * pz, (cols + 1) * wx + cols * px)
    assert plan.shape == bm.plan_shape(rows, cols, wall, passage)
    assert plan.dtype == np.uint8 and set(np.unique(plan)) <= {Material.AIR, Material.WALL}
    assert adjacency_by_geometry(plan, rows, cols, wall, passage) == maze_adjacency(maze)
    assert bm.from_blocks(plan, wall=wall, passage=passage) == maze


def test_unit_plan_round_trip_is_default():
    maze = bm.generate((7, 5), rng=9)
    plan = bm.to_blocks(maze)
    assert plan.shape == (15, 11)
    assert bm.from_blocks(plan) == maze


def test_masked_cells_are_solid_and_come_back_masked():
    mask = np.ones((4, 5), bool)
    mask[1, 1] = mask[2, 3] = False
    maze = bm.generate(bm.square_grid(4, 5, mask=mask), rng=4)
    plan = bm.to_blocks(maze, wall=1, passage=2)
    assert (plan[3:5, 3:5] == Material.WALL).all()
    assert bm.from_blocks(plan, wall=1, passage=2) == maze


def test_entrances_in_the_outer_wall_are_ignored():
    maze = bm.generate((3, 3), rng=1)
    plan = bm.to_blocks(maze)
    plan[0, 1] = plan[-1, -2] = Material.AIR
    assert bm.from_blocks(plan) == maze


def test_marker_materials_count_as_open():
    maze = bm.generate((3, 3), rng=1)
    plan = bm.to_blocks(maze)
    plan[1, 1] = Material.START
    plan[plan == Material.AIR] = Material.PATH
    assert bm.from_blocks(plan) == maze


@pytest.mark.parametrize("wall, passage, match", [
    (0, 1, "wall thickness must be"), (1, -2, "passage thickness must be"),
    ((1, 2, 3), 1, "wall thickness"), (True, 1, "wall thickness"), (1.5, 1, "wall thickness"),
])
def test_bad_thickness_is_refused(wall, passage, match):
    with pytest.raises(bm.BlockmazeError, match=match):
        bm.to_blocks(bm.generate((2, 2), rng=0), wall=wall, passage=passage)


def test_non_strict_plans_are_refused_with_the_reason():
    maze = bm.generate((3, 3), rng=2)
    with pytest.raises(bm.BlockmazeError, match="nearest possible lengths are 10 and 13"):
        bm.from_blocks(np.ones((11, 7), np.uint8), wall=1, passage=2)
    uneven = bm.to_blocks(maze, wall=1, passage=2)
    uneven[1, 1] = Material.WALL  # half a passage run solid
    with pytest.raises(bm.BlockmazeError, match="partly open and partly solid"):
        bm.from_blocks(uneven, wall=1, passage=2)
    corner = bm.to_blocks(maze)
    corner[2, 2] = Material.AIR
    with pytest.raises(bm.BlockmazeError, match="corner"):
        bm.from_blocks(corner)
    into_solid = bm.to_blocks(maze)
    into_solid[1, 1] = Material.WALL
    into_solid[1, 2] = into_solid[2, 1] = Material.AIR
    with pytest.raises(bm.BlockmazeError, match="solid cell"):
        bm.from_blocks(into_solid)
    with pytest.raises(bm.BlockmazeError, match="2-D integer plan"):
        bm.from_blocks(np.zeros((2, 3, 3), np.uint8))
