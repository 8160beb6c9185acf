"""``blockmaze info FILE --analysis``: the measures of the maze a file holds.

A maze document (``.json``) holds the maze itself: its grid, links and start and goal, so every
measure of :func:`blockmaze.mazes.measures.analyze` and its difficulty
(:mod:`blockmaze.mazes.difficulty`) is taken from it as it was made. A text map (``.txt``)
says in its legend which glyphs a walker can enter: its walkable blocks are read back as the
square maze they draw (:func:`blockmaze.blocks.from_blocks`, one-block walls and passages, as
``generate`` draws a square maze by default) or, when they are not one (another grid kind,
other thicknesses, a dungeon), as a maze of blocks, each walkable block a cell joined to the
walkable blocks beside it. Its ``S`` and ``G`` blocks are start and goal when it marks them.
A Minecraft, voxel or tile-map file (:data:`blockmaze.readers.plans.SUFFIXES`) is read back as
the plan of its walking layer (:func:`blockmaze.readers.plans.file_plan`), then analysed the
same way (:func:`plan_maze`).

Example
-------
>>> import os, tempfile, blockmaze as bm
>>> path = os.path.join(tempfile.mkdtemp(), "m.json")
>>> bm.save_maze(bm.MazeDocument(bm.generate((5, 5), rng=1)), path)
>>> facts = analyze_file(path)
>>> facts["cells"], facts["perfect"]
(25, True)
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..errors import BadFileError, BlockmazeError
from ..maze import Maze
from ..mazes.documents import load_maze
from ..mazes.endpoints import Endpoints
from .base import read_whole
from .plans import BlockPlan


def analyze_file(path: str | Path) -> dict:
    """The measures of the maze in the file at ``path`` (BadFileError for a file that holds
    none this reads: the reason and what it reads); ``measured_as`` says what a cell is."""
    from ..mazes.difficulty import analyzed
    from .plans import SUFFIXES, file_plan

    path = Path(path)
    name = path.name.lower()
    if name.endswith(".json") and not name.endswith(SUFFIXES):
        document = load_maze(path)
        return {"measured_as": "maze cells", **analyzed(document.maze, document.endpoints)}
    if name.endswith(".txt"):
        with path.open("rb") as file:
            maze, ends, unit = text_map_maze(read_whole(file, "a text map"))
    else:
        maze, ends, unit = plan_maze(file_plan(path))
    return {"measured_as": unit, **analyzed(maze, ends)}


def text_map_maze(data: bytes) -> tuple[Maze, Endpoints | None, str]:
    """The maze a blockmaze text map draws, its start and goal (None unless it marks both) and
    what a cell is (``"maze cells"`` or ``"walkable blocks"``).

    >>> import os, tempfile, blockmaze as bm
    >>> maze = bm.generate((3, 4), rng=1)
    >>> path = os.path.join(tempfile.mkdtemp(), "m.txt")
    >>> _ = bm.save(maze, path, solution=True)
    >>> found, ends, unit = text_map_maze(open(path, "rb").read())
    >>> found == maze, ends == bm.place_endpoints(maze), unit
    (True, True, 'maze cells')
    """
    try:
        lines = data.decode("utf-8").split("\n")
    except UnicodeDecodeError as error:
        raise BadFileError(f"a text map that is not UTF-8: {error}") from None
    comment = lines[0][:1]
    walkable, names = {}, {}
    for line in lines[1:]:
        if line.startswith(comment) and len(line) > 4 and line[1] == " " and line[3] == " ":
            parts = line[4:].split(" ")
            if len(parts) == 3 and parts[1] in ("walkable", "blocked"):
                walkable[line[2]] = parts[1] == "walkable"
                names[line[2]] = parts[0].split(",")
    rows = [line for line in lines if line and not line.startswith(comment)]
    if not walkable or not rows or any(len(row) != len(rows[0]) for row in rows) or \
            any(glyph not in walkable for row in rows for glyph in row):
        raise BadFileError("not a blockmaze text map with its legend: every glyph on the map must "
                           "be in the legend (write maps with blockmaze for info to read them)")
    glyphs = np.array([list(row) for row in rows])
    open_ = np.vectorize(walkable.__getitem__, otypes=[bool])(glyphs)
    marks = [np.flatnonzero(np.isin(glyphs.ravel(), [g for g, n in names.items() if name in n]))
             for name in ("start", "goal")]
    return plan_maze(BlockPlan(open_, *(int(m[0]) if m.size == 1 else None for m in marks)))


def plan_maze(plan: BlockPlan) -> tuple[Maze, Endpoints | None, str]:
    """The maze a walkable block plan draws: the square maze of one-block walls and passages
    (:func:`blockmaze.blocks.from_blocks`, as ``generate`` draws a square maze by default) or,
    when it is not one (another grid kind, other thicknesses, a dungeon), a maze of blocks, each
    walkable block a cell joined to the walkable blocks beside it; its start and goal (None
    unless the plan marks both) and what a cell is (``"maze cells"`` or ``"walkable blocks"``).

    >>> maze, ends, unit = plan_maze(BlockPlan(np.array([[0, 0, 0], [0, 1, 0], [0, 0, 0]], bool)))
    >>> maze.grid.shape, ends, unit
    ((1, 1), None, 'maze cells')
    """
    from ..blocks.convert import from_blocks
    from ..materials import Material
    from ..mazes.masks import masked_grid

    open_ = plan.open
    blocks = np.where(open_, Material.AIR, Material.WALL).astype(np.uint8)
    try:
        maze, unit = from_blocks(blocks), "maze cells"
        cols = maze.grid.shape[1]

        def cell(block: int) -> int:
            z, x = divmod(block, blocks.shape[1])
            return (z // 2) * cols + x // 2
    except BlockmazeError:
        grid = masked_grid("square", blocks.shape, open_)
        maze, unit = Maze(grid, grid.neighbors >= 0), "walkable blocks"

        def cell(block: int) -> int:
            return block
    ends = None
    if plan.start is not None and plan.goal is not None:
        ends = Endpoints(cell(plan.start), cell(plan.goal))
    return maze, ends, unit
