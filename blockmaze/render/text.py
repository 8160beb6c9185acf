"""Mazes as text: walls joined with box-drawing glyphs, or plain ASCII.

Every solid block of a plan gets the glyph for its 4-bit mask of solid neighbours
(north 1, east 2, south 4, west 8). A maze's cell columns are drawn wider than its wall columns
so the picture keeps roughly square cells in a terminal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..errors import BlockmazeError
from ..materials import SOLID, Material

if TYPE_CHECKING:
    from ..mazes.endpoints import Endpoints
    from ..maze import Maze

NORTH, EAST, SOUTH, WEST = 1, 2, 4, 8

# indexed by the mask: ' ', N, E, NE, S, NS, ES, NES, W, NW, EW, NEW, SW, NSW, ESW, NESW
# glyph per mask, the horizontal line, and the fill for solid areas (blocks with solid on all 8 sides)
STYLES = {
    "box": (" ╵╶└╷│┌├╴┘─┴┐┤┬┼", "─", "░"),
    "ascii": (" |-+||++-+-++++++", "-", "#"),
    "blocks": (" " + "█" * 15, "█", "█"),  # one character per block, solid = █
}
MARKS = {Material.PATH: "·", Material.START: "S", Material.GOAL: "G", Material.DOOR: "+",
         Material.STAIRS: ">", Material.CHECKPOINT: "C", Material.EXIT: "E"}
ASCII_MARKS = {**MARKS, Material.PATH: "."}


def square_text(maze: Maze, style: str = "box", cell_width: int = 3,
                endpoints: Endpoints | None = None, solution: bool = False) -> str:
    """A square-grid maze drawn for the terminal, ``style`` "box" (default) or "ascii".

    ``endpoints`` and ``solution`` draw openings and the marked path as :func:`to_blocks` does.

    Example
    -------
    >>> from blockmaze import generate
    >>> print(square_text(generate((2, 3), rng=4), style="ascii"))
    +-----------+
    |           |
    |   --------+
    |           |
    +-----------+
    """
    from ..blocks.convert import to_blocks

    plan = to_blocks(maze, endpoints=endpoints, solution=solution)
    widths = np.ones(plan.shape[1], dtype=np.int64)
    widths[1::2] = cell_width
    return plan_text(plan, style, widths)


def plan_text(plan: np.ndarray, style: str = "box", widths: np.ndarray | None = None) -> str:
    """Any block plan (z, x) as text, one line per row, column x drawn ``widths[x]`` characters wide.

    >>> print(plan_text(np.array([[1, 1, 1], [1, 0, 1], [1, 1, 1]], np.uint8)))
    ┌─┐
    │ │
    └─┘
    """
    if style not in STYLES:
        raise BlockmazeError(f"unknown text style {style!r}; choose one of: {', '.join(STYLES)}")
    glyphs, fill, shade = STYLES[style]
    marks = ASCII_MARKS if style == "ascii" else MARKS
    if style == "blocks":  # a lone solid block has no neighbours to join, and still is one
        glyphs = "█" * 16
    plan = np.asarray(plan, dtype=np.uint8)
    widths = np.ones(plan.shape[1], np.int64) if widths is None else np.asarray(widths, np.int64)
    solid = SOLID[plan]
    around = np.pad(solid, 1)
    interior = solid.copy()  # solid areas (masked cells) are shaded, not drawn as a lattice of lines
    for dz, dx in ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)):
        interior &= around[1 + dz:around.shape[0] - 1 + dz, 1 + dx:around.shape[1] - 1 + dx]
    lines = np.pad(solid & ~interior, 1)  # walls join only walls that are drawn as lines
    mask = (
        lines[:-2, 1:-1] * NORTH | lines[1:-1, 2:] * EAST
        | lines[2:, 1:-1] * SOUTH | lines[1:-1, :-2] * WEST
    ) * solid
    glyph_codes = np.array([ord(c) for c in glyphs], dtype=np.uint32)
    centre = np.where(solid, glyph_codes[mask], ord(" ")).astype(np.uint32)
    for material, char in marks.items():
        centre[plan == material] = ord(char)
    space, line, shaded = np.uint32(ord(" ")), np.uint32(ord(fill)), np.uint32(ord(shade))
    west_fill = np.where(mask & WEST, line, space)
    east_fill = np.where(mask & EAST, line, space)
    for array in (centre, west_fill, east_fill):
        array[interior] = shaded
    starts = np.cumsum(widths) - widths
    out = np.full((plan.shape[0], int(widths.sum())), space, dtype=np.uint32)
    for offset in range(int(widths.max())):
        columns = np.flatnonzero(widths > offset)
        middle = widths[columns] // 2
        chosen = np.where(offset < middle, west_fill[:, columns],
                          np.where(offset == middle, centre[:, columns], east_fill[:, columns]))
        out[:, starts[columns] + offset] = chosen
    return "\n".join(row.tobytes().decode("utf-32-le") for row in out)


BRIDGES = {"box": ("═", "║"), "ascii": ("=", "H"), "blocks": ("═", "║")}


def weave_text(maze: Maze, style: str = "box", cell_width: int = 3,
               endpoints: Endpoints | None = None, solution: bool = False) -> str:
    """A weave maze drawn for the terminal: as :func:`square_text`, with each used crossing's bridge
    drawn across its cell (═ east-west, ║ north-south) and its walls on the other axis open where
    the passage goes under.

    Example
    -------
    >>> from blockmaze.pipeline import make_maze
    >>> text = weave_text(make_maze((5, 5), "weave", "kruskal:weave", seed=3, weave=1.0).maze)
    >>> "═" in text or "║" in text
    True
    """
    from ..blocks.weave import weave_unit_plan
    from ..grids.weave import OVER_EAST_WEST, weave_of

    plan, used, under = weave_unit_plan(maze, endpoints, solution)
    cols = maze.grid.shape[1]
    r, c = np.divmod(used[:, 0], cols)
    over_ew = weave_of(maze.grid).crossings[used[:, 0]] == OVER_EAST_WEST
    z, x = 2 * r + 1, 2 * c + 1
    gap = np.where(under, np.uint8(Material.PATH), np.uint8(Material.AIR))
    for side in (-1, 1):
        plan[z + side * over_ew, x + side * ~over_ew] = gap
    widths = np.ones(plan.shape[1], dtype=np.int64)
    widths[1::2] = cell_width
    lines = [list(line) for line in plan_text(plan, style, widths).split("\n")]
    across, along = BRIDGES.get(style, BRIDGES["box"])
    starts = np.cumsum(widths) - widths
    for row, column, ew in zip(z.tolist(), x.tolist(), over_ew.tolist(), strict=True):
        start = int(starts[column])
        if ew:
            lines[row][start:start + cell_width] = across * cell_width
        else:
            lines[row][start + cell_width // 2] = along
    return "\n".join("".join(line) for line in lines)
