"""What a maze is like: its passages counted and measured (``bm.analyze``, ``info --analysis``).

Every measure is defined in ``docs/analysis.md`` with its source. In short, over the enabled
cells and their passages (a weave crossing's jump and a layered maze's up and down are one
passage each):

* ``dead_ends``: cells with one passage; ``junctions``: cells with three or more, by degree;
* ``straights`` and ``turns``: the cells with two passages, by whether the two lie in opposite
  directions (the grid's own ``opposite``) or not;
* ``longest_corridor``: the most cells in one run of two-passage cells (no branch on it);
* ``longest_path``: the steps of the longest path (the tree's diameter; on a maze with loops the
  longest shortest path found by two sweeps);
* ``solution``: the steps from start to goal; ``decision_points``: the cells on the way (not the
  goal) where more than one way leads on, the way in not counted;
* ``branches``: the passages that leave the way; ``branch_depth_max`` and ``branch_depth_mean``:
  how far (in steps) each branch's farthest cell lies from the way, the most and the mean;
* ``cyclomatic``: passages - cells + connected parts, the number of independent loops (0 for a
  perfect maze); ``perfect``.

Example
-------
>>> from blockmaze import generate
>>> facts = analyze(generate((6, 6), rng=1))
>>> facts["cells"], facts["passages"], facts["cyclomatic"], facts["perfect"]
(36, 35, 0, True)
"""

from __future__ import annotations

import numpy as np

from .. import analysis
from ..maze import Maze
from ..support.kernels import kernel
from .endpoints import Endpoints, place_endpoints


def analyze(maze: Maze, endpoints: Endpoints | None = None) -> dict:
    """The measures above for ``maze``, from ``endpoints`` (by default the ends of its longest
    path), as a dict of plain numbers (``junctions``: degree -> count).

    >>> from blockmaze import braid, generate
    >>> maze = braid(generate((8, 8), rng=2), 1.0, rng=2)
    >>> facts = analyze(maze)
    >>> facts["dead_ends"], facts["cyclomatic"] > 0, facts["solution"] <= facts["cells"]
    (0, True, True)
    """
    grid = maze.grid
    links = maze.links
    cells = np.flatnonzero(grid.enabled)
    degree = analysis.degrees(links)
    live = degree[cells]
    junctions = {int(d): int(np.count_nonzero(live == d)) for d in np.unique(live[live >= 3])}
    two = np.flatnonzero(degree == 2)
    pair = np.sort(np.argsort(~links[two], axis=1, kind="stable")[:, :2], axis=1)
    straight = grid.opposite[pair[:, 0]] == pair[:, 1]
    passages = maze.passage_count
    _, parts = analysis.label_regions(np.where(links, grid.neighbors, -1).astype(np.int32),
                                      grid.enabled)
    ends = endpoints if endpoints is not None else place_endpoints(maze)
    way = maze.shortest_path(ends.start, ends.goal)
    depth_max, depth_mean, branches = _branches(grid.neighbors, links, way)
    diameter = analysis.longest_path(grid.neighbors, links, grid.enabled)
    return {
        "cells": int(cells.size),
        "passages": passages,
        "dead_ends": int(np.count_nonzero(live == 1)),
        "junctions": junctions,
        "straights": int(np.count_nonzero(straight)),
        "turns": int(np.count_nonzero(~straight)),
        "longest_corridor": int(_longest_corridor(grid.neighbors, links, degree)),
        "longest_path": int(diameter.size - 1),
        "solution": int(way.size - 1),
        "decision_points": decision_points(degree, way),
        "branches": branches,
        "branch_depth_max": depth_max,
        "branch_depth_mean": depth_mean,
        "cyclomatic": int(passages - cells.size + parts),
        "perfect": passages == cells.size - 1 and parts == 1,
    }


def decision_points(degree: np.ndarray, way: np.ndarray) -> int:
    """The cells of ``way`` (but its last) where more than one way leads on: two or more
    passages at the start, three or more after it (the way in is not a choice).

    >>> decision_points(np.array([2, 3, 1, 1, 1]), np.array([0, 1, 2]))
    2
    """
    if way.size < 2:
        return 0
    on = degree[way[:-1]]
    return int((on[0] >= 2) + np.count_nonzero(on[1:] >= 3))


def _branches(neighbors: np.ndarray, links: np.ndarray, way: np.ndarray) -> tuple[int, float, int]:
    """``(deepest, mean depth, count)`` of the branches off ``way``: every cell not on the way is
    given to the branch it is reached through, from the nearest cell of the way."""
    n = neighbors.shape[0]
    distance = np.full(n, -1, dtype=np.int32)
    distance[way] = 0
    branch = _branch_of(neighbors, links, way.astype(np.int32), distance)
    off = branch >= 0
    if not off.any():
        return 0, 0.0, 0
    deepest = np.zeros(int(branch.max()) + 1, dtype=np.int64)
    np.maximum.at(deepest, branch[off], distance[off])
    return int(deepest.max()), round(float(deepest.mean()), 3), int(deepest.size)


@kernel(views=True)
def _branch_of(neighbors, links, way, distance):
    """Each cell's branch (numbered as they leave the way; -1 on the way or unreached), by one
    breadth-first search from every cell of the way (``distance``: 0 there, -1 elsewhere; filled
    with the steps from the way)."""
    n, k = neighbors.shape
    branch = np.full(n, -1, dtype=np.int64)
    queue = np.empty(n, dtype=np.int32)
    tail = 0
    for i in range(way.shape[0]):
        queue[tail] = way[i]
        tail += 1
    head = 0
    count = 0
    while head < tail:
        cell = queue[head]
        head += 1
        for d in range(k):
            if links[cell, d]:
                nb = neighbors[cell, d]
                if distance[nb] < 0:
                    distance[nb] = distance[cell] + 1
                    if branch[cell] < 0:
                        branch[nb] = count
                        count += 1
                    else:
                        branch[nb] = branch[cell]
                    queue[tail] = nb
                    tail += 1
    return branch


@kernel(views=True)
def _longest_corridor(neighbors, links, degree):
    """The most cells in one run of linked two-passage cells."""
    n, k = neighbors.shape
    seen = np.zeros(n, dtype=np.bool_)
    stack = np.empty(n, dtype=np.int32)
    longest = 0
    for first in range(n):
        if degree[first] != 2 or seen[first]:
            continue
        seen[first] = True
        stack[0] = first
        top = 1
        size = 0
        while top > 0:
            top -= 1
            cell = stack[top]
            size += 1
            for d in range(k):
                if links[cell, d]:
                    nb = neighbors[cell, d]
                    if degree[nb] == 2 and not seen[nb]:
                        seen[nb] = True
                        stack[top] = nb
                        top += 1
        if size > longest:
            longest = size
    return longest


def analysis_lines(facts: dict) -> list[str]:
    """The measures as ``info`` prints them, a line each.

    >>> analysis_lines({"dead_ends": 3, "junctions": {3: 2}})
    ['dead ends: 3', 'junctions: 2 of degree 3']
    """
    out = []
    for key, value in facts.items():
        if key == "junctions":
            value = ", ".join(f"{count} of degree {d}" for d, count in value.items()) or "none"
        if key == "difficulty" and isinstance(value, dict):
            value = f"{value['score']:.3f} ({value['band']})"
        out.append(f"{key.replace('_', ' ')}: {value}")
    return out
