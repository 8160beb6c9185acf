"""The classic maze solvers, each returning its path and the cells it visited in order.

=================  ==========================================================================
``wall-left``      keep the left hand on the wall: at each cell take the first open way
                   turning left from the way back (the way back last)
``wall-right``     the same with the right hand
``random-mouse``   at each cell a random open way, never straight back unless at a dead end
``dead-end-fill``  fill every dead end (but start and goal) and the passage behind it until
                   none is left; what stays open holds every way from start to goal
``tremaux``        mark each passage walked; at a junction seen before turn back unless the way
                   in was marked twice, else take the way with the fewest marks; never a
                   passage marked twice; the passages marked once are the way
``bfs``            breadth first: cells in order of their distance from the start (shortest)
``astar``          A*: the cell with the least steps so far plus the straight-line distance to
                   the goal over the longest step first (shortest)
=================  ==========================================================================

They walk the maze's own neighbour table and links, so every grid kind works, a weave maze's
crossings (a jump through the under-passage is one step) and a layered maze's up and down
included. "Left" and "right" turn by :data:`CLOCKWISE`, each kind's directions in clockwise
order round a cell (a layered cell's up and down come after west); on a perfect maze any fixed
order walks each passage at most twice.

Example
-------
>>> from blockmaze import generate
>>> maze = generate((6, 6), rng=3)
>>> found = solve(maze, "wall-right", 0, 35)
>>> int(found.path[0]), int(found.path[-1]), len(found.path) == len(solve(maze, "bfs", 0, 35).path)
(0, 35, True)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import analysis
from .errors import ParameterError
from .maze import Maze
from .support.breadth import breadth_first
from .support.kernels import kernel
from .support.randomness import as_generator
from .solver_methods import METHODS

SHORTEST = ("bfs", "astar")

# each kind's directions in clockwise order round a cell, seen on screen (row 0 at the top)
CLOCKWISE = {
    "square": (0, 1, 2, 3),            # north east south west
    "weave": (0, 1, 2, 3),
    "layered": (0, 1, 2, 3, 4, 5),     # ... up down
    "hex": (0, 1, 2, 3, 4, 5),         # north northeast southeast south southwest northwest
    "upsilon": (0, 1, 2, 3, 4, 5, 6, 7),
    "triangle": (1, 3, 0, 2),          # east south west north (a cell has south or north)
    "polar": (4, 5, 0, 2, 3, 1),       # outward_a outward_b cw inward_a inward_b ccw
}
RANDOM_MOUSE_STEPS = 50_000_000  # the most steps the random mouse walks before it gives up


@dataclass(frozen=True, eq=False)
class Solution:
    """What a solver found: ``path``, the cells from start to goal along passages (a simple
    path), and ``visits``, the cells it stepped on or examined, in order (a walker's steps,
    repeats included; the searches' cells as they were taken; dead-end filling's cells as they
    were filled)."""

    method: str
    path: np.ndarray
    visits: np.ndarray

    @property
    def steps(self) -> int:
        """Steps along the path (its cells less one)."""
        return max(int(self.path.size) - 1, 0)


def clockwise(kind: str, degree: int) -> np.ndarray:
    """The direction order the wall followers and Trémaux turn by (the grid's own order for a
    kind :data:`CLOCKWISE` does not name).

    >>> clockwise("triangle", 4).tolist()
    [1, 3, 0, 2]
    """
    return np.array(CLOCKWISE.get(kind, tuple(range(degree))), dtype=np.int64)


def solve(maze: Maze, method: str = "bfs", start: int | None = None, goal: int | None = None,
          rng=None) -> Solution:
    """Solve ``maze`` from ``start`` to ``goal`` (by default the ends of its longest path) with
    one of :data:`METHODS`; ``rng`` (a seed or Generator) drives the random mouse.

    Raises ParameterError for an unknown method and BlockmazeError when the goal cannot be
    reached (not connected, or a wall follower going round a loop that keeps it from the goal).

    >>> from blockmaze import generate
    >>> maze = generate((5, 5), rng=1)
    >>> [solve(maze, m, rng=1).steps for m in METHODS] == [len(maze.longest_path()) - 1] * 7
    True
    """
    from .errors import BlockmazeError

    if method not in METHODS:
        raise ParameterError(f"unknown solver {method!r}; choose one of: {', '.join(METHODS)}")
    grid = maze.grid
    if start is None or goal is None:
        ends = analysis.longest_path(grid.neighbors, maze.links, grid.enabled)
        start = int(ends[0]) if start is None else start
        goal = int(ends[-1]) if goal is None else goal
    for cell in (start, goal):
        maze._check_cell(int(cell))
    start, goal = int(start), int(goal)
    distance, parents = analysis.bfs(grid.neighbors, maze.links, start)
    if distance[goal] < 0:
        raise BlockmazeError(f"cell {goal} cannot be reached from cell {start}")
    if method == "bfs":
        return Solution(method, analysis.path_from_parents(parents, goal),
                        _bfs_order(grid.neighbors, maze.links, start, goal))
    order = clockwise(grid.kind, grid.degree)
    if method in ("wall-left", "wall-right"):
        walk = wall_walk(maze, start, goal, method == "wall-left")
        if walk.size == 0:
            raise BlockmazeError(f"{method} cannot reach the goal of this maze: a loop keeps "
                                 "its wall from the goal (bfs, astar and tremaux solve any maze)")
        return Solution(method, _loop_erased(walk, grid.size), walk)
    if method == "random-mouse":
        seed = int(as_generator(rng).integers(2**63))
        count = _mouse(grid.neighbors, maze.links, start, goal, np.random.default_rng(seed),
                       RANDOM_MOUSE_STEPS, np.empty(0, np.int32))
        if count < 0:
            raise BlockmazeError(f"the random mouse did not find the goal in "
                                 f"{RANDOM_MOUSE_STEPS:,} steps")
        walk = np.empty(count, np.int32)
        _mouse(grid.neighbors, maze.links, start, goal, np.random.default_rng(seed), count, walk)
        return Solution(method, _loop_erased(walk, grid.size), walk)
    if method == "dead-end-fill":
        filled, open_ = _dead_end_fill(grid.neighbors, maze.links, start, goal)
        kept = maze.links & open_[:, None] & np.where(grid.neighbors >= 0,
                                                      open_[np.maximum(grid.neighbors, 0)], False)
        _, within = analysis.bfs(grid.neighbors, kept, start)
        return Solution(method, analysis.path_from_parents(within, goal), filled)
    if method == "tremaux":
        walk, marks = _tremaux(grid.neighbors, maze.links, grid.opposite, order, start, goal)
        once = maze.links & (marks == 1)
        _, within = analysis.bfs(grid.neighbors, once, start)
        return Solution(method, analysis.path_from_parents(within, goal), walk)
    heuristic = _straight_line(maze, goal)
    parents, visits = _astar(grid.neighbors, maze.links, heuristic, start, goal)
    return Solution(method, analysis.path_from_parents(parents, goal), visits)


def wall_walk(maze: Maze, start: int, goal: int, left: bool = False) -> np.ndarray:
    """The cells a wall follower steps on from ``start`` to ``goal`` (the right hand, or the
    left with ``left``), empty when a loop keeps its wall from the goal (no checks: see
    :func:`solve`).

    >>> from blockmaze import generate
    >>> wall_walk(generate((1, 3), rng=1), 0, 2).tolist()
    [0, 1, 2]
    """
    grid = maze.grid
    return _wall_follow(grid.neighbors, maze.links, grid.opposite,
                        clockwise(grid.kind, grid.degree), int(start), int(goal), left)


def _bfs_order(neighbors, links, start: int, goal: int) -> np.ndarray:
    """The cells breadth-first search takes, in order, up to and including the goal."""
    n = neighbors.shape[0]
    queue = np.empty(n, dtype=np.int32)
    distance = np.full(n, -1, dtype=np.int32)
    reached = breadth_first(neighbors, links, start, distance, np.empty(0, np.int32), queue)
    where = np.flatnonzero(queue[:reached] == goal)
    return queue[: int(where[0]) + 1].copy()


def _straight_line(maze: Maze, goal: int) -> np.ndarray:
    """A* 's estimate for every cell: the straight-line distance between cell centres to the
    goal over the longest step between neighbours' centres (never more than the steps left)."""
    from .grids.geometry import cell_shapes

    grid = maze.grid
    centres = cell_shapes(grid).centroids()[: grid.size]
    cells = np.repeat(np.arange(grid.size), grid.degree)
    others = grid.neighbors.ravel()
    real = others >= 0
    step = np.linalg.norm(centres[cells[real]] - centres[others[real]], axis=1)
    longest = float(step.max()) if step.size else 1.0
    estimate = np.linalg.norm(centres - centres[goal], axis=1) / max(longest, 1e-9)
    return np.nan_to_num(estimate, nan=0.0)


@kernel(views=True)
def _wall_follow(neighbors, links, opposite, order, start, goal, left):
    """The cells a wall follower steps on from start to goal; empty if its walk comes back to
    a state it was in (a way it walked in the same direction) before reaching the goal."""
    n, k = neighbors.shape
    m = order.shape[0]
    place = np.zeros(k, dtype=np.int64)
    for i in range(m):
        place[order[i]] = i
    passages = 0
    for c in range(n):
        for d in range(k):
            if links[c, d]:
                passages += 1
    walk = np.empty(passages + 1, dtype=np.int32)  # a walk on a rotation: each way once at most
    walk[0] = start
    length = 1
    cell = start
    back = -1  # the clockwise place of the way back; none at the start
    while cell != goal:
        moved = False
        for t in range(1, m + 1):
            if back < 0:
                p = (t - 1) % m if left else (m - t) % m
            else:
                p = (back + t) % m if left else (back - t) % m
            d = order[p]
            if links[cell, d]:
                nb = neighbors[cell, d]
                if length >= walk.shape[0]:
                    return np.empty(0, dtype=np.int32)
                walk[length] = nb
                length += 1
                back = place[opposite[d]]  # the way back from nb
                cell = nb
                moved = True
                break
        if not moved:
            return np.empty(0, dtype=np.int32)
    return walk[:length]


@kernel(views=True)
def _mouse(neighbors, links, start, goal, rng, limit, walk):
    """Walk as the random mouse from start until the goal (at most ``limit`` steps); writes
    the cells into ``walk`` when it has room; returns the cells walked, or -1 past the limit."""
    k = neighbors.shape[1]
    record = walk.shape[0] > 0
    choices = np.empty(k, dtype=np.int64)
    cell = start
    previous = -1
    count = 1
    if record:
        walk[0] = start
    while cell != goal:
        if count >= limit:
            return -1
        m = 0
        for d in range(k):
            if links[cell, d] and neighbors[cell, d] != previous:
                choices[m] = neighbors[cell, d]
                m += 1
        if m == 0:
            nb = previous
        else:
            nb = choices[int(rng.random() * m)]
        previous = cell
        cell = nb
        if record:
            walk[count] = cell
        count += 1
    return count


@kernel(views=True)
def _dead_end_fill(neighbors, links, start, goal):
    """``(filled, open)``: the cells filled, in order (each dead end, then the cells it leaves
    a dead end), and whether each cell is still open."""
    n, k = neighbors.shape
    degree = np.zeros(n, dtype=np.int64)
    for c in range(n):
        for d in range(k):
            if links[c, d]:
                degree[c] += 1
    open_ = np.ones(n, dtype=np.bool_)
    filled = np.empty(n, dtype=np.int32)
    count = 0
    stack = np.empty(n, dtype=np.int32)
    for first in range(n):
        if degree[first] != 1 or first == start or first == goal or not open_[first]:
            continue
        top = 0
        stack[0] = first
        top = 1
        while top > 0:
            top -= 1
            c = stack[top]
            if not open_[c] or degree[c] > 1 or c == start or c == goal:
                continue
            open_[c] = False
            filled[count] = c
            count += 1
            for d in range(k):
                if links[c, d]:
                    nb = neighbors[c, d]
                    if open_[nb]:
                        degree[nb] -= 1
                        if degree[nb] <= 1:
                            stack[top] = nb
                            top += 1
    return filled[:count], open_


@kernel(views=True)
def _tremaux(neighbors, links, opposite, order, start, goal):
    """``(walk, marks)``: Trémaux's walk from start to goal and each passage's marks (both
    sides of a passage hold its count)."""
    n, k = neighbors.shape
    m = order.shape[0]
    marks = np.zeros((n, k), dtype=np.int8)
    passages = 0
    for c in range(n):
        for d in range(k):
            if links[c, d]:
                passages += 1
    walk = np.empty(passages + 1, dtype=np.int32)  # each way walked at most twice: 2 x passages
    walk[0] = start
    length = 1
    cell = start
    came = -1  # the direction of cell that leads back the way we came
    while cell != goal:
        way = -1
        if came >= 0:
            seen = False  # a junction walked through before: a marked way besides the way in
            for d in range(k):
                if d != came and links[cell, d] and marks[cell, d] > 0:
                    seen = True
            if seen and marks[cell, came] < 2:
                way = came
        if way < 0:
            fewest = 3
            for t in range(m):
                d = order[t]
                if links[cell, d] and d != came and marks[cell, d] < fewest:
                    fewest = marks[cell, d]
                    way = d
            if way < 0 or fewest >= 2:
                if came >= 0 and marks[cell, came] < 2:
                    way = came
                else:
                    break  # every way marked twice: the goal is not here
        if length >= walk.shape[0]:
            break
        nb = neighbors[cell, way]
        marks[cell, way] += 1
        marks[nb, opposite[way]] += 1
        walk[length] = nb
        length += 1
        came = opposite[way]
        cell = nb
    return walk[:length], marks


@kernel(views=True)
def _astar(neighbors, links, heuristic, start, goal):
    """``(parents, visits)``: A* over the links, expanding the least steps + estimate first
    (ties: the most steps, then the lowest cell); ``parents`` each reached cell's predecessor
    (the start its own), ``visits`` the cells in the order expanded."""
    n, k = neighbors.shape
    best = np.full(n, -1, dtype=np.int64)
    parent = np.full(n, -1, dtype=np.int32)
    done = np.zeros(n, dtype=np.bool_)
    heap_f = np.empty(n * k + 1, dtype=np.float64)
    heap_g = np.empty(n * k + 1, dtype=np.int64)
    heap_c = np.empty(n * k + 1, dtype=np.int32)
    visits = np.empty(n, dtype=np.int32)
    seen = 0
    size = 1
    heap_f[0] = heuristic[start]
    heap_g[0] = 0
    heap_c[0] = start
    best[start] = 0
    parent[start] = start
    while size > 0:
        g, c = heap_g[0], heap_c[0]
        size -= 1
        # sift the last entry down from the root
        lf, lg, lc = heap_f[size], heap_g[size], heap_c[size]
        i = 0
        while True:
            child = 2 * i + 1
            if child >= size:
                break
            if child + 1 < size and _before(heap_f[child + 1], heap_g[child + 1], heap_c[child + 1],
                                            heap_f[child], heap_g[child], heap_c[child]):
                child += 1
            if _before(heap_f[child], heap_g[child], heap_c[child], lf, lg, lc):
                heap_f[i], heap_g[i], heap_c[i] = heap_f[child], heap_g[child], heap_c[child]
                i = child
            else:
                break
        heap_f[i], heap_g[i], heap_c[i] = lf, lg, lc
        if done[c] or g != best[c]:
            continue
        done[c] = True
        visits[seen] = c
        seen += 1
        if c == goal:
            break
        for d in range(k):
            if links[c, d]:
                nb = neighbors[c, d]
                if not done[nb] and (best[nb] < 0 or g + 1 < best[nb]):
                    best[nb] = g + 1
                    parent[nb] = c
                    # sift up
                    nf, ng = g + 1 + heuristic[nb], g + 1
                    j = size
                    size += 1
                    while j > 0:
                        up = (j - 1) // 2
                        if _before(nf, ng, nb, heap_f[up], heap_g[up], heap_c[up]):
                            heap_f[j], heap_g[j], heap_c[j] = heap_f[up], heap_g[up], heap_c[up]
                            j = up
                        else:
                            break
                    heap_f[j], heap_g[j], heap_c[j] = nf, ng, nb
    return parent, visits[:seen]


@kernel(views=True)
def _before(f1, g1, c1, f2, g2, c2):
    """A* 's order: the smaller estimate, then the more steps taken, then the lower cell."""
    if f1 != f2:
        return f1 < f2
    if g1 != g2:
        return g1 > g2
    return c1 < c2


def _loop_erased(walk: np.ndarray, cells: int) -> np.ndarray:
    """A walk with its loops taken out: the simple path it leaves from its first cell to its last."""
    return _erase_loops(walk, np.full(cells, -1, dtype=np.int64))


@kernel(views=True)
def _erase_loops(walk, place):
    path = np.empty(walk.shape[0], dtype=np.int32)
    top = 0
    for i in range(walk.shape[0]):
        c = walk[i]
        if place[c] >= 0:
            while top > place[c] + 1:
                top -= 1
                place[path[top]] = -1
        else:
            place[c] = top
            path[top] = c
            top += 1
    return path[:top]
