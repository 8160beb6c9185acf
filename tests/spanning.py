"""The spanning-tree check shared by the algorithm tests, independent of blockmaze's own."""

import numpy as np

import blockmaze as bm


def edges_and_reach(maze):
    """Passage count and cells reached from the first enabled cell, by an independent Python BFS."""
    grid = maze.grid
    start = int(np.flatnonzero(grid.enabled)[0])
    seen, frontier = {start}, [start]
    while frontier:
        cell = frontier.pop()
        for d in np.flatnonzero(maze.links[cell]):
            nb = int(grid.neighbors[cell, d])
            if nb not in seen:
                seen.add(nb)
                frontier.append(nb)
    return int(maze.links.sum()) // 2, len(seen)


def assert_spanning_tree(maze):
    bm.Maze(maze.grid, maze.links)  # validates: symmetric, only between neighbours
    edges, reached = edges_and_reach(maze)
    cells = maze.grid.enabled_count
    assert reached == cells and edges == cells - 1
    assert maze.is_perfect()
