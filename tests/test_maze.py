"""Maze: link validation, perfectness, BFS distances and shortest paths."""

from collections import deque

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import blockmaze as bm
from blockmaze.grids.square import EAST, SOUTH


def python_distances(maze, start):
    """Distances by a plain Python BFS, the reference for the kernel."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for d in np.flatnonzero(maze.links[cell]):
            nb = int(maze.grid.neighbors[cell, d])
            if nb not in dist:
                dist[nb] = dist[cell] + 1
                queue.append(nb)
    return [dist.get(i, -1) for i in range(maze.grid.size)]


def braided(maze, rng, count):
    """The maze with ``count`` extra random passages (so it has cycles)."""
    grid = maze.grid
    closed = np.argwhere((grid.neighbors >= 0) & ~maze.links)
    extra = bm.Maze(grid, maze.links.copy())
    for cell, d in closed[rng.permutation(len(closed))[:count]]:
        extra.link(int(cell), int(d))
    return extra


@given(st.integers(1, 15), st.integers(1, 15), st.integers(0, 10**9), st.integers(0, 5))
def test_distances_and_paths_match_reference(rows, cols, seed, loops):
    rng = np.random.default_rng(seed)
    maze = braided(bm.generate((rows, cols), rng=seed), rng, loops)
    start, goal = (int(c) for c in rng.integers(rows * cols, size=2))
    reference = python_distances(maze, start)
    assert maze.distances(start).tolist() == reference
    path = maze.shortest_path(start, goal)
    assert path[0] == start and path[-1] == goal and len(path) == reference[goal] + 1
    for a, b in zip(path[:-1], path[1:], strict=True):
        assert b in maze.grid.neighbors[a][maze.links[a]]


def test_is_perfect_rejects_cycles_and_disconnection():
    maze = bm.generate((4, 4), rng=0)
    assert maze.is_perfect()
    assert not braided(maze, np.random.default_rng(0), 1).is_perfect()
    cut = bm.Maze(maze.grid, maze.links.copy())
    cell, d = np.argwhere(cut.links)[0]
    cut.link(int(cell), int(d), open_=False)
    assert not cut.is_perfect()
    assert not bm.Maze(bm.square_grid(2, 2)).is_perfect()


def test_unreachable_goal_and_bad_cells_are_errors():
    maze = bm.Maze(bm.square_grid(1, 3))
    maze.link(0, EAST)
    assert maze.distances(0).tolist() == [0, 1, -1]
    with pytest.raises(bm.BlockmazeError, match="cannot be reached"):
        maze.shortest_path(0, 2)
    with pytest.raises(bm.BlockmazeError, match="not an enabled cell"):
        maze.distances(7)
    with pytest.raises(bm.BlockmazeError, match="no neighbour towards south"):
        maze.link(0, SOUTH)


def test_links_must_be_symmetric_and_inside_the_grid():
    grid = bm.square_grid(2, 2)
    one_sided = np.zeros((4, 4), bool)
    one_sided[0, EAST] = True
    with pytest.raises(bm.BlockmazeError, match="symmetric"):
        bm.Maze(grid, one_sided)
    outside = np.zeros((4, 4), bool)
    outside[0, 0] = True  # north of the top-left cell
    with pytest.raises(bm.BlockmazeError, match="out of the grid"):
        bm.Maze(grid, outside)
    with pytest.raises(bm.BlockmazeError, match="bool array of shape"):
        bm.Maze(grid, np.zeros((4, 3), bool))
