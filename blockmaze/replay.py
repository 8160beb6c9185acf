"""A maze's carve replayed as text frames, for ``blockmaze generate --animate``.

The kernels record the order they open passages in (:func:`algorithms.common.carve_order`);
each frame draws the maze with the first passages of that record open, in the same text the
command prints (box drawing for square mazes).

Example
-------
>>> from blockmaze.pipeline import make_maze
>>> document, order, carved = recorded_maze((1, 3), seed=1)
>>> frames = list(carve_frames(document, order, per_frame=1, style="ascii"))
>>> print(frames[0])
+---+---+---+
|   |   |   |
+---+---+---+
>>> print(frames[-1])
+-----------+
|           |
+-----------+
"""

from __future__ import annotations

import sys
import time
from typing import TextIO
from collections.abc import Iterator

import numpy as np

from .mazes.documents import MazeDocument
from .maze import Maze


def recorded_maze(shape, kind: str = "square", algorithm: str = "backtracker", seed=None,
                  braid: float = 0.0, entrances: bool = False, mask=None, weave: float = 0.0):
    """The maze :func:`pipeline.make_maze` makes for these options, its carve order (rows
    ``(cell, direction)``, braiding's passages after the algorithm's) and how many of those
    rows the algorithm carved."""
    from .algorithms.common import carve_order
    from .mazes.generation import make_grid
    from .pipeline import make_maze

    order = carve_order(make_grid(shape, kind), True)
    document = make_maze(shape, kind, algorithm, seed, braid, entrances, mask, weave, order=order)
    order = order[order[:, 0] >= 0]
    grid, links = document.maze.grid, document.maze.links
    carved = np.zeros_like(links)
    carved[order[:, 0], order[:, 1]] = True
    carved[grid.neighbors[order[:, 0], order[:, 1]], grid.opposite[order[:, 1]]] = True
    extra = np.argwhere(links & ~carved & (grid.neighbors > np.arange(grid.size)[:, None]))
    return document, np.concatenate([order, extra]).astype(np.int64), len(order)


def carve_frames(document: MazeDocument, order: np.ndarray, per_frame: int = 1,
                 style: str = "box", plan_style: str = "blocks") -> Iterator[str]:
    """Text frames of the carve: no passage open, then ``per_frame`` more each frame, until the
    whole record is open (no start, goal or solution: the command's own output ends the show)."""
    from .pipeline import maze_text

    grid = document.maze.grid
    links = np.zeros_like(document.maze.links)
    for start in range(0, len(order) + per_frame, per_frame):
        for cell, d in order[max(0, start - per_frame):start]:
            links[cell, d] = links[grid.neighbors[cell, d], grid.opposite[d]] = True
        yield maze_text(Maze(grid, links.copy(), validate=False), style=style,
                        plan_style=plan_style)
        if start >= len(order):
            return


def solve_frames(document: MazeDocument, method: str, per_frame: int = 1, style: str = "box",
                 plan_style: str = "blocks", rng=0) -> Iterator[str]:
    """Text frames of a solver at work (:func:`blockmaze.solvers.solve`, from the document's
    start to its goal): frame k marks the way from the start to the cell the solver visited
    k x ``per_frame``-th, the last one the way it found to the goal.

    >>> from blockmaze.pipeline import make_maze, maze_text
    >>> document = make_maze((2, 3), seed=1)
    >>> frames = list(solve_frames(document, "wall-right", style="ascii"))
    >>> len(frames) > 1, frames[-1] == maze_text(document, solution=True, style="ascii")
    (True, True)
    """
    from .mazes.endpoints import Endpoints
    from .pipeline import maze_text
    from .solvers import solve

    ends = document.endpoints
    assert ends is not None, "a solver needs the document's start and goal"
    found = solve(document.maze, method, ends.start, ends.goal, rng=rng)
    shown = [*found.visits[::per_frame].tolist(), ends.goal]
    for cell in shown:
        here = MazeDocument(document.maze, Endpoints(ends.start, int(cell), ends.openings))
        yield maze_text(here, solution=True, style=style, plan_style=plan_style)


def play(frames: Iterator[str], fps: float, stream: TextIO | None = None) -> int:
    """Draw ``frames`` over each other on a terminal (``stream``, standard output by default)
    at ``fps``; leave the cursor at the top of the last one and return its line count (so the
    next text can overwrite it)."""
    stream = stream or sys.stdout
    lines = 0
    for frame in frames:
        if lines:
            stream.write(f"\x1b[{lines}F")
        stream.write(frame + "\n")
        stream.flush()
        lines = frame.count("\n") + 1
        time.sleep(1 / fps)
    if lines:
        stream.write(f"\x1b[{lines}F")
    return lines
