"""Longest paths, dead ends, endpoints, braiding and solution marking."""

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import blockmaze as bm
from blockmaze.mazes.braiding import braid
from blockmaze.mazes.endpoints import outside_directions, place_endpoints
from blockmaze.materials import Material

seeds = st.integers(0, 2**32 - 1)


def all_distances(maze):
    return np.array([maze.distances(c) for c in range(maze.grid.size)])


@given(st.integers(1, 9), st.integers(1, 9), seeds)
def test_longest_path_is_the_diameter(rows, cols, seed):
    maze = bm.generate((rows, cols), rng=seed)
    path = maze.longest_path()
    assert len(path) - 1 == all_distances(maze).max()
    assert maze.shortest_path(int(path[0]), int(path[-1])).tolist() == path.tolist()


def test_dead_ends_are_cells_with_one_passage():
    maze = bm.generate((12, 12), rng=4)
    by_hand = [c for c in range(maze.grid.size) if maze.links[c].sum() == 1]
    assert maze.dead_ends.tolist() == by_hand


@pytest.mark.slow
@given(st.integers(2, 12), st.integers(2, 12), seeds)
def test_entrances_are_on_the_border_and_farthest_apart(rows, cols, seed):
    maze = bm.generate((rows, cols), rng=seed)
    ends = place_endpoints(maze, "entrances")
    border = [r * cols + c for r, c in itertools.product(range(rows), range(cols))
              if r in (0, rows - 1) or c in (0, cols - 1)]
    assert ends.start in border and ends.goal in border and ends.start != ends.goal
    for cell, d in ends.openings:
        assert maze.grid.neighbors[cell, d] == -1
    # the two-pass search finds the farthest border pair in a tree (it is exact for trees'
    # leaves-and-border sets only approximately, so compare with a tolerance of zero on small mazes)
    best = max(maze.distances(a)[b] for a in border for b in border)
    assert maze.distances(ends.start)[ends.goal] >= best - 2


def test_outside_directions_ignore_masked_neighbours():
    mask = np.ones((3, 3), bool)
    mask[1, 1] = False
    maze = bm.generate(bm.square_grid(3, 3, mask=mask), rng=0)
    outside = outside_directions(maze)
    assert not outside[1].any() or outside[1].tolist() == [True, False, False, False]
    assert outside[1, 0] and not outside[1, 2]  # north of (0,1) is outside; south is the hole
    assert not outside[4].any()


def test_unknown_endpoint_mode():
    with pytest.raises(bm.BlockmazeError, match="unknown endpoint mode"):
        place_endpoints(bm.generate((2, 2), rng=0), "middle")


@pytest.mark.slow
@given(st.integers(2, 14), st.integers(2, 14), seeds, st.floats(0, 1))
def test_braid_keeps_connection_and_removes_dead_ends(rows, cols, seed, p):
    maze = bm.generate((rows, cols), rng=seed)
    braided = braid(maze, p, rng=seed)
    assert (all_distances(braided) >= 0).all()  # still connected
    assert (braided.links >= maze.links).all()  # only opens walls
    assert len(braided.dead_ends) <= len(maze.dead_ends)
    assert braid(maze, p, rng=seed) == braided
    if p == 0:
        assert braided == maze


@pytest.mark.slow
def test_braid_one_removes_every_dead_end_and_half_removes_about_half():
    maze = bm.generate((60, 60), rng=3)
    assert len(braid(maze, 1.0, rng=1).dead_ends) == 0
    share = [len(braid(maze, 0.5, rng=s).dead_ends) / len(maze.dead_ends) for s in range(5)]
    # each opening into another dead end removes two, so a bit more than half disappears
    assert 0.2 < np.mean(share) < 0.5


def test_braid_prefers_other_dead_ends():
    # 0 1 2     passages 0-1, 1-2, 2-5, 0-3, 3-4: dead ends 4 and 5. Dead end 4 may open into
    # 3 4 5     1 (not a dead end) or 5 (a dead end): it must always take 5.
    maze = bm.Maze(bm.square_grid(2, 3))
    east, south = 1, 2
    for cell, direction in ((0, east), (1, east), (2, south), (0, south), (3, east)):
        maze.link(cell, direction)
    assert maze.dead_ends.tolist() == [4, 5]
    for seed in range(30):
        braided = braid(maze, 1.0, rng=seed)
        assert braided.links[4, east] and not braided.links[1, south]


def test_braid_share_must_be_a_fraction():
    with pytest.raises(bm.BlockmazeError, match="between 0 and 1"):
        braid(bm.generate((2, 2), rng=0), 1.5)


@given(st.integers(2, 10), st.integers(2, 10), seeds, st.booleans(),
       st.integers(1, 3), st.integers(1, 3))
def test_solution_marks_the_shortest_path_in_blocks(rows, cols, seed, entrances, wall, passage):
    maze = bm.generate((rows, cols), rng=seed)
    ends = place_endpoints(maze, "entrances" if entrances else "longest")
    plan = bm.to_blocks(maze, wall, passage, endpoints=ends, solution=True)
    assert (plan == Material.START).sum() == passage * passage
    assert (plan == Material.GOAL).sum() == passage * passage
    marked = np.isin(plan, [Material.PATH, Material.START, Material.GOAL])
    path = maze.shortest_path(ends.start, ends.goal)
    # path cells and the passages between them, each passage*passage and wall*passage blocks,
    # plus the openings (wall*passage each)
    expected = len(path) * passage**2 + (len(path) - 1) * wall * passage + len(ends.openings) * wall * passage
    assert marked.sum() == expected
    assert bm.from_blocks(plan, wall, passage) == maze  # markers stay open, openings ignored
    volume = bm.extrude(plan, height=2)
    assert (volume[0] == Material.START).sum() == passage * passage  # shown in the floor


def test_openings_without_solution_are_air_in_the_outer_wall():
    maze = bm.generate((4, 4), rng=1)
    ends = place_endpoints(maze, "entrances")
    plan = bm.to_blocks(maze, endpoints=ends)
    border = np.concatenate([plan[0], plan[-1], plan[:, 0], plan[:, -1]])
    assert (border == Material.AIR).sum() == 2
    with pytest.raises(bm.BlockmazeError, match="needs endpoints"):
        bm.to_blocks(maze, solution=True)


plans = st.tuples(st.integers(1, 12), st.integers(1, 12), seeds).map(
    lambda t: np.random.default_rng(t[2]).random((t[0], t[1])) < 0.6)


@given(plans)
def test_plan_regions_are_scipys_four_connected_labels(walkable):
    from scipy import ndimage

    from blockmaze.dungeon.connect import region_labels

    labels, sizes = region_labels(walkable)
    expected, count = ndimage.label(walkable)  # 4-connected, numbered in raster order
    assert (labels == expected - 1).all()
    assert sizes.tolist() == np.bincount(expected.ravel(), minlength=count + 1)[1:].tolist()


@given(plans, st.data())
def test_plan_distances_are_one_more_than_the_nearest_neighbours(walkable, data):
    from blockmaze.dungeon.connect import distances, region_labels

    if not walkable.any():
        return
    start = tuple(data.draw(st.sampled_from(np.argwhere(walkable).tolist())))
    dist = distances(walkable, *start)
    labels, _ = region_labels(walkable)
    assert ((dist >= 0) == (labels == labels[start])).all()
    padded = np.pad(np.where(dist >= 0, dist, 1 << 20), 1, constant_values=1 << 20)
    nearest = np.minimum.reduce([padded[:-2, 1:-1], padded[2:, 1:-1], padded[1:-1, :-2], padded[1:-1, 2:]])
    reached = dist > 0
    assert (dist[reached] == nearest[reached] + 1).all() and dist[start] == 0
