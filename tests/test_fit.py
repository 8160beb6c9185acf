"""``--fit``: the most cells whose plan fits a number of blocks, for every grid kind: the plan
made fits, one more row or column would not, and the command writes a file within the blocks."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import blockmaze as bm
from blockmaze.cli import main
from blockmaze.blocks.fit import fitting_shape
from blockmaze.blocks.raster import plan_extent
from blockmaze.blocks.settings import BlockSettings
from blockmaze.errors import BlockmazeError
from blockmaze.grids import grid_constructor

FLAT = ["square", "weave", "hex", "triangle", "upsilon", "polar"]


def _extent(kind: str, shape, chosen: BlockSettings):
    if chosen.converted:
        return chosen.plan_shape(shape[-2:])
    try:
        return plan_extent(grid_constructor(kind)(*shape), chosen.scale)
    except BlockmazeError:  # (no such grid: one column of triangles, more than 2 rows)
        return (10 ** 9, 10 ** 9)


@settings(max_examples=60)
@given(kind=st.sampled_from(FLAT), rows=st.integers(1, 120), cols=st.integers(1, 120),
       wall=st.integers(1, 3), passage=st.integers(1, 3), scale=st.integers(0, 3))
def test_the_fitted_shape_fits_and_one_more_cell_would_not(kind, rows, cols, wall, passage, scale):
    from blockmaze.blocks.raster import min_scale

    chosen = BlockSettings.resolve(kind, wall=None if kind == "weave" else wall, passage=passage,
                                   scale=None if kind in ("square", "weave") else min_scale(kind) + scale)
    try:
        shape = fitting_shape(kind, (rows, cols), chosen)
    except BlockmazeError as error:
        assert "hold no" in str(error)
        return
    z, x = _extent(kind, shape, chosen)
    assert z <= rows and x <= cols
    for axis in range(len(shape)):
        bigger = list(shape)
        bigger[axis] += 1
        z, x = _extent(kind, tuple(bigger), chosen)
        assert z > rows or x > cols, (shape, axis)


@pytest.mark.parametrize("kind", [*FLAT, "layered"])
def test_the_command_writes_a_maze_within_the_blocks(kind, tmp_path):
    from blockmaze.readers.info import inspect_file

    fit = "10x40x50" if kind == "layered" else "40x50"
    assert main(["-q", "generate", "-g", kind, "--fit", fit, "--seed", "1", "-o",
                        str(tmp_path / "m.schem")]) == 0
    width, height, length = inspect_file(tmp_path / "m.schem").size
    assert length <= 40 and width <= 50 and (kind != "layered" or height <= 10 + 1)


def test_the_plan_extent_is_the_plan_made():
    maze = bm.generate((5, 7), rng=3, kind="hex")
    assert bm.rasterize(maze, 5).shape == plan_extent(maze.grid, 5)


def test_fit_is_refused_with_a_size_and_for_a_labyrinth(capsys):
    assert main(["generate", "5x5", "--fit", "20x20"]) == 2
    assert capsys.readouterr().err.strip().splitlines() == [
        "Error: --fit is the maze's size in blocks: give it without SIZE, --mask or --unicursal"]
    with pytest.raises(BlockmazeError, match="circuits"):
        fitting_shape("labyrinth", (20, 20), BlockSettings.resolve("polar"))
    assert np.array(fitting_shape("layered", (4, 9, 9), BlockSettings.resolve("layered"))).tolist() == [1, 2, 2]  # (3 cells: 1 + 3 x 3 blocks)
