"""The solvers and the measures against brute force, on small mazes of every grid kind."""

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import blockmaze as bm
from blockmaze.errors import BlockmazeError, ParameterError
from blockmaze.mazes.measures import analyze
from blockmaze.pipeline import make_maze
from blockmaze.solvers import METHODS, SHORTEST, solve
from blockmaze.support.kernels import forced

SHAPES = {"square": (5, 6), "hex": (4, 5), "triangle": (4, 7), "upsilon": (4, 4), "polar": (4,),
          "layered": (2, 3, 4), "weave": (6, 6)}
seeds = st.integers(0, 2**32 - 1)
kinds = st.sampled_from(sorted(SHAPES))


def small_maze(kind, seed, braid=0.0):
    doc = make_maze(SHAPES[kind], kind=kind, seed=seed, braid=braid,
                    weave=0.6 if kind == "weave" else 0.0)
    return doc.maze, doc.endpoints


def passages(maze):
    """Every passage once, as a frozenset of its two cells, by a loop over the links."""
    found = set()
    for cell in range(maze.grid.size):
        for d in range(maze.grid.degree):
            if maze.links[cell, d]:
                found.add(frozenset((cell, int(maze.grid.neighbors[cell, d]))))
    return found


def brute_distances(maze, *starts):
    """Steps from the nearest start by relaxing every passage until nothing changes (no queue)."""
    inf = 10**9
    best = [inf] * maze.grid.size
    for start in starts:
        best[start] = 0
    edges = [tuple(p) for p in passages(maze)]
    changed = True
    while changed:
        changed = False
        for a, b in edges:
            for x, y in ((a, b), (b, a)):
                if best[x] + 1 < best[y]:
                    best[y] = best[x] + 1
                    changed = True
    return best


def walked(visits):
    return Counter(frozenset(pair) for pair in zip(visits[:-1].tolist(), visits[1:].tolist(), strict=True))


@settings(max_examples=15, deadline=None)
@given(kinds, seeds, st.sampled_from([0.0, 0.5]))
def test_every_solver_walks_real_passages_from_start_to_goal(kind, seed, braid):
    maze, ends = small_maze(kind, seed, braid)
    real = passages(maze)
    for method in METHODS:
        try:
            found = solve(maze, method, ends.start, ends.goal, rng=seed)
        except BlockmazeError as error:  # a wall follower kept from the goal by a loop
            assert braid and method.startswith("wall"), error
            continue
        path = found.path.tolist()
        assert path[0] == ends.start and path[-1] == ends.goal
        assert len(set(path)) == len(path), method  # a simple path
        assert all(frozenset(pair) in real for pair in zip(path[:-1], path[1:], strict=True)), method
        if method in ("wall-left", "wall-right", "random-mouse", "tremaux"):
            steps = found.visits.tolist()  # a walk: every step along a passage
            assert steps[0] == ends.start and steps[-1] == ends.goal
            assert all(frozenset(pair) in real for pair in zip(steps[:-1], steps[1:], strict=True)), method


@settings(max_examples=15, deadline=None)
@given(kinds, seeds, st.sampled_from([0.0, 0.5]))
def test_shortest_solvers_agree_with_brute_force(kind, seed, braid):
    maze, ends = small_maze(kind, seed, braid)
    steps = brute_distances(maze, ends.start)[ends.goal]
    for method in SHORTEST:
        assert solve(maze, method, ends.start, ends.goal).steps == steps
    filled = solve(maze, "dead-end-fill", ends.start, ends.goal)
    if not braid:  # on a perfect maze every way is the way
        assert filled.steps == steps
        assert solve(maze, "tremaux", ends.start, ends.goal).steps == steps


@settings(max_examples=15, deadline=None)
@given(kinds, seeds)
def test_wall_followers_and_tremaux_walk_each_passage_at_most_twice(kind, seed):
    maze, ends = small_maze(kind, seed)
    for method in ("wall-left", "wall-right", "tremaux"):
        counts = walked(solve(maze, method, ends.start, ends.goal).visits)
        assert max(counts.values()) <= 2, method
    braided, ends = small_maze(kind, seed, braid=1.0)  # Trémaux's marks hold on loops too
    assert max(walked(solve(braided, "tremaux", ends.start, ends.goal).visits).values()) <= 2


def test_wall_follower_turns_the_way_its_hand_says():
    # a plus-shaped square maze: walking east from the west arm, the right hand turns south
    # first, the left north
    maze = bm.Maze(bm.square_grid(3, 3))
    for a, b in ((3, 4), (4, 1), (4, 5), (4, 7)):
        maze.link(a, [d for d in range(4) if maze.grid.neighbors[a, d] == b][0])
    assert solve(maze, "wall-right", 3, 5).visits.tolist() == [3, 4, 7, 4, 5]
    assert solve(maze, "wall-left", 3, 5).visits.tolist() == [3, 4, 1, 4, 5]


def test_the_compiled_solvers_give_the_same_walks():
    maze, ends = small_maze("polar", 5, braid=0.3)
    for method in METHODS:
        try:
            plain = solve(maze, method, ends.start, ends.goal, rng=9)
        except BlockmazeError:
            continue
        with forced("numba"):
            compiled = solve(maze, method, ends.start, ends.goal, rng=9)
        assert plain.path.tolist() == compiled.path.tolist(), method
        assert plain.visits.tolist() == compiled.visits.tolist(), method


def test_bad_solver_and_unreachable_goal_are_refused():
    maze = bm.generate((3, 3), rng=1)
    with pytest.raises(ParameterError, match="unknown solver 'left'; choose one of: wall-left"):
        solve(maze, "left")
    lonely = bm.Maze(bm.square_grid(1, 2))
    with pytest.raises(BlockmazeError, match="cannot be reached"):
        solve(lonely, "bfs", 0, 1)


# --- the measures, each against a count by hand


def brute_measures(maze, start, goal):
    grid = maze.grid
    cells = [c for c in range(grid.size) if grid.enabled[c]]
    degree = {c: int(maze.links[c].sum()) for c in cells}
    edges = passages(maze)
    parts, unreached = 0, set(cells)
    while unreached:  # connected parts: what relaxing from a cell not reached yet reaches
        reach = brute_distances(maze, min(unreached))
        unreached = {c for c in unreached if reach[c] == 10**9}
        parts += 1
    dist = brute_distances(maze, start)
    way = maze.shortest_path(start, goal).tolist()[::-1]  # the way (of several, BFS's)
    assert len(way) - 1 == dist[goal]
    on_way = set(way)
    to_way = brute_distances(maze, *way)
    straight = sum(1 for c in cells if degree[c] == 2
                   and grid.opposite[np.flatnonzero(maze.links[c])[0]] == np.flatnonzero(maze.links[c])[1])
    return {
        "dead_ends": sum(d == 1 for d in degree.values()),
        "junctions": dict(sorted(Counter(d for d in degree.values() if d >= 3).items())),
        "straights": straight,
        "turns": sum(d == 2 for d in degree.values()) - straight,
        "solution": dist[goal],
        "cyclomatic": len(edges) - len(cells) + parts,
        "branch_depth_max": max((to_way[c] for c in cells if c not in on_way), default=0),
        "decision_points": sum(1 for i, c in enumerate(reversed(way[1:]))
                               if degree[c] - (1 if i else 0) >= 2),
    }


@settings(max_examples=15, deadline=None)
@given(kinds, seeds, st.sampled_from([0.0, 0.4]))
def test_measures_agree_with_a_count_by_hand(kind, seed, braid):
    maze, ends = small_maze(kind, seed, braid)
    facts = analyze(maze, ends)
    for key, value in brute_measures(maze, ends.start, ends.goal).items():
        assert facts[key] == value, key
    assert facts["perfect"] == maze.is_perfect() == (facts["cyclomatic"] == 0)


def test_longest_corridor_counts_the_run_without_branches():
    # a 1x5 corridor with a spur off its middle: runs of two-passage cells are 1 and 2 long
    maze = bm.Maze(bm.square_grid(2, 5))
    for cell in range(4):
        maze.link(cell, 1)
    maze.link(2, 2)
    assert analyze(maze, bm.Endpoints(0, 4))["longest_corridor"] == 1
    assert analyze(maze, bm.Endpoints(0, 4))["branches"] == 1
