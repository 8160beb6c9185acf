"""Terminal pictures: the glyph for every wall-connection mask, and the drawing of whole mazes."""

import numpy as np
import pytest

import blockmaze as bm
from blockmaze.render.text import STYLES

# (mask as N, E, S, W) -> box glyph, spelled out independently of the table in the module
BOX = {
    (0, 0, 0, 0): " ", (1, 0, 0, 0): "╵", (0, 1, 0, 0): "╶", (0, 0, 1, 0): "╷", (0, 0, 0, 1): "╴",
    (1, 0, 1, 0): "│", (0, 1, 0, 1): "─", (1, 1, 0, 0): "└", (1, 0, 0, 1): "┘", (0, 1, 1, 0): "┌",
    (0, 0, 1, 1): "┐", (1, 1, 1, 0): "├", (1, 0, 1, 1): "┤", (0, 1, 1, 1): "┬", (1, 1, 0, 1): "┴",
    (1, 1, 1, 1): "┼",
}


@pytest.mark.parametrize("mask, glyph", sorted(BOX.items()))
def test_each_of_the_16_glyphs(mask, glyph):
    north, east, south, west = mask
    plan = np.zeros((3, 3), np.uint8)
    plan[1, 1] = 1
    plan[0, 1], plan[1, 2], plan[2, 1], plan[1, 0] = north, east, south, west
    assert bm.plan_text(plan).splitlines()[1][1] == glyph


def test_box_maze_has_closed_border_and_cells_three_wide():
    maze = bm.generate((5, 7), rng=3)
    lines = bm.maze_text(maze).splitlines()
    assert len(lines) == 11 and all(len(line) == 7 * 4 + 1 for line in lines)
    assert lines[0][0] == "┌" and lines[0][-1] == "┐" and lines[-1][0] == "└" and lines[-1][-1] == "┘"
    assert set(lines[0][1:-1]) <= {"─", "┬"}


def test_text_shows_the_same_walls_as_the_plan():
    maze = bm.generate((6, 6), rng=8)
    plan = bm.to_blocks(maze)
    for style in STYLES:
        lines = bm.maze_text(maze, style=style).splitlines()
        drawn = np.array([[line[x * 2] != " " for x in range(plan.shape[1])] for line in lines])
        assert np.array_equal(drawn, plan == bm.Material.WALL)


def test_unknown_style():
    with pytest.raises(bm.BlockmazeError, match="unknown text style"):
        bm.plan_text(np.ones((1, 1), np.uint8), style="fancy")
