"""Our solvers beside mazelib's (PyPI ``mazelib``) on the same square mazes, through the 2n+1 array.

mazelib keeps a maze as the 2n+1 array (1 a wall, 0 open; cells on odd rows and columns) that
``blockmaze.from_blocks`` and ``to_blocks`` convert. With start and end on the outer border, its
``ShortestPath`` and ``ShortestPaths`` solutions list every open block from the cell inside the
start to the cell inside the end. A perfect maze has one such path: ours, drawn in the same
blocks, must be it, for mazes mazelib generated and for mazes we generated. (mazelib 0.9.16 has
no wall follower: it was taken out in its commit 967bfc7, issue #93; so no visit counts to
compare.)
"""

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import blockmaze as bm
from blockmaze.blocks.convert import unit_centre
from blockmaze.solvers import solve

from readers import missing

try:
    from mazelib import Maze as LibMaze
    from mazelib.generate.BacktrackingGenerator import BacktrackingGenerator
    from mazelib.generate.Kruskal import Kruskal
    from mazelib.generate.Prims import Prims
    from mazelib.solve.ShortestPath import ShortestPath
    from mazelib.solve.ShortestPaths import ShortestPaths
except ImportError as error:  # pragma: no cover - the test extra installs it
    LibMaze = None
    WHY = str(error)

GENERATORS = ("backtracking", "kruskal", "prims")


@pytest.fixture(autouse=True)
def _mazelib():
    if LibMaze is None:
        missing("mazelib", f"{WHY}; pip install mazelib")


def blocks_of(path, cols):
    """Our path as mazelib lists it: each cell's block and the block between two cells."""
    z, x = unit_centre(np.asarray(path), cols)
    out = [(int(z[0]), int(x[0]))]
    for i in range(1, len(path)):
        out.append((int(z[i - 1] + z[i]) // 2, int(x[i - 1] + x[i]) // 2))
        out.append((int(z[i]), int(x[i])))
    return out


def lib_solutions(grid, rows, cols, start_col, end_col, seed):
    """mazelib's two shortest-path solvers from the top border above ``start_col`` to the
    bottom border below ``end_col`` (their own random draws seeded)."""
    found = []
    for solver in (ShortestPath, ShortestPaths):
        maze = LibMaze(seed)
        maze.grid = grid.copy()
        maze.start, maze.end = (0, 2 * start_col + 1), (2 * rows, 2 * end_col + 1)
        maze.solver = solver()
        maze.solve()
        found.append(maze.solutions[0])
    return found


@settings(max_examples=12, deadline=None)
@given(st.integers(3, 12), st.integers(3, 12), st.sampled_from(sorted(GENERATORS)),
       st.integers(0, 2**31 - 1), st.data())
def test_the_same_shortest_paths_on_mazelibs_mazes(rows, cols, generator, seed, data):
    np.random.seed(seed % 2**32)
    random.seed(seed)
    lib = LibMaze(seed)
    lib.generator = {"prims": Prims, "backtracking": BacktrackingGenerator,
                     "kruskal": Kruskal}[generator](rows, cols)
    lib.generate()
    ours = bm.from_blocks(lib.grid.astype(np.uint8))
    assert ours.is_perfect()
    a = data.draw(st.integers(0, cols - 1))
    b = data.draw(st.integers(0, cols - 1))
    start, goal = a, (rows - 1) * cols + b
    expected = blocks_of(solve(ours, "bfs", start, goal).path, cols)
    for method in ("astar", "dead-end-fill", "tremaux", "wall-left", "wall-right"):
        assert blocks_of(solve(ours, method, start, goal).path, cols) == expected, method
    for theirs in lib_solutions(lib.grid, rows, cols, a, b, seed):
        assert [tuple(map(int, p)) for p in theirs] == expected


@settings(max_examples=12, deadline=None)
@given(st.integers(3, 12), st.integers(3, 12), st.integers(0, 2**32 - 1))
def test_mazelib_finds_our_paths_on_our_mazes(rows, cols, seed):
    maze = bm.generate((rows, cols), "wilson", rng=seed)
    grid = (bm.to_blocks(maze) == bm.Material.WALL).astype(np.int8)
    start, goal = 0, rows * cols - 1
    expected = blocks_of(solve(maze, "astar", start, goal).path, cols)
    for theirs in lib_solutions(grid, rows, cols, 0, cols - 1, seed):
        assert [tuple(map(int, p)) for p in theirs] == expected
