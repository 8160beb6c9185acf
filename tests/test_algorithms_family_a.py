"""Kruskal, Prim, growing tree and Eller: what makes each one itself.

The generic tests (test_algorithms.py) check that every algorithm carves a perfect maze on any
grid. A wrong algorithm can pass them: any spanning tree does. These tests look at what sets the
algorithms apart — each one's texture on a 60x60 grid over a few seeds, and the exact property
its definition gives (true Prim's tree is the minimum spanning tree of its weights, Eller's last
row joins exactly the sets that are still apart, ...).
"""

import functools

import numpy as np
import pytest

import blockmaze as bm
from blockmaze.algorithms.common import random_enabled_cell
from blockmaze.algorithms.eller import eller_kernel
from blockmaze.algorithms.growing_tree import parse_rule
from blockmaze.algorithms.kruskal import packed_edges
from blockmaze.algorithms.prim import prim_kernel
from blockmaze.grids.square import EAST, SOUTH
from lattice import HEX_OFFSETS, lattice_grid

def edge_list(grid):
    """Every neighbour pair once, as (cells, directions) with neighbors[cell, d] > cell (numpy)."""
    cells, dirs = np.nonzero(grid.neighbors > np.arange(grid.size)[:, None])
    return cells.astype(np.int32), dirs.astype(np.int32)


SIDE = 60
SEEDS = (0, 1, 2)
PILLARS = np.ones((19, 23), bool)  # a mask that keeps the cells connected: a pillar every 2x2
PILLARS[1::2, 1::2] = False


@functools.cache
def texture(spec):
    """Dead-end share, mean straight-run length and east-west share of passages, over SEEDS.

    A straight run is a maximal line of passages in one direction (east-west or north-south).
    """
    dead, runs, across = [], [], []
    for seed in SEEDS:
        links = bm.generate((SIDE, SIDE), algorithm=spec, rng=seed).links
        dead.append(np.mean(links.sum(axis=1) == 1))
        east = links[:, EAST].reshape(SIDE, SIDE)
        south = links[:, SOUTH].reshape(SIDE, SIDE)
        starts = np.count_nonzero(east[:, 0]) + np.count_nonzero(east[:, 1:] & ~east[:, :-1])
        starts += np.count_nonzero(south[0]) + np.count_nonzero(south[1:] & ~south[:-1])
        runs.append((east.sum() + south.sum()) / starts)
        across.append(east.sum() / (east.sum() + south.sum()))
    return float(np.mean(dead)), float(np.mean(runs)), float(np.mean(across))


@pytest.mark.parametrize("spec, low, high", [
    ("backtracker", 0.08, 0.13),          # the reference: depth first, long corridors
    ("growing-tree:newest", 0.08, 0.13),
    ("growing-tree", 0.18, 0.23),         # R = 0.5: in between
    ("growing-tree:random", 0.25, 0.30),
    ("growing-tree:oldest", 0.0, 0.07),   # breadth first: straight corridors, few dead ends
    ("kruskal", 0.28, 0.325),             # the MST of random weights...
    ("prim", 0.28, 0.325),                # ...which true Prim makes too
    ("prim-simplified", 0.335, 0.38),     # radiates: the most dead ends
    ("eller", 0.26, 0.31),
])
def test_dead_end_share_is_the_algorithms_own(spec, low, high):
    dead, _, _ = texture(spec)
    assert low <= dead <= high, f"{spec}: {dead:.3f} of cells are dead ends"


def test_more_newest_picks_give_fewer_dead_ends():
    shares = [texture(f"growing-tree:{r}")[0] for r in ("1", "0.75", "0.5", "0.25")]
    assert all(a < b for a, b in zip(shares, shares[1:], strict=False)), shares


def test_oldest_rule_grows_long_straight_corridors():
    _, run, _ = texture("growing-tree:oldest")
    assert run > 10  # corridors cross much of the 60-cell grid
    for spec in ("growing-tree:newest", "growing-tree:random", "kruskal", "prim", "eller"):
        assert texture(spec)[1] < 3


def test_eller_has_a_vertical_grain():
    # p = 1/2 joins only between different sets, and every set goes down at least once
    assert 0.33 <= texture("eller")[2] <= 0.42
    for spec in ("kruskal", "prim", "backtracker"):
        assert 0.46 <= texture(spec)[2] <= 0.54


# --- growing tree --------------------------------------------------------------------------


@pytest.mark.parametrize("option, value", [
    (None, 0.5), ("newest", 1.0), ("random", 0.0), ("0", 0.0), ("1", 1.0), ("0.3", 0.3),
    ("1e-1", 0.1),
])
def test_growing_tree_options_parse(option, value):
    assert parse_rule(option) == value


@pytest.mark.parametrize("option", ["1.5", "-0.1", "abc", "nan", "inf", "0.5x", "new"])
def test_growing_tree_refuses_bad_options(option):
    with pytest.raises(bm.BlockmazeError, match="growing-tree option must be"):
        bm.generate((4, 4), algorithm=f"growing-tree:{option}", rng=0)


@pytest.mark.parametrize("seed", range(4))
def test_growing_tree_newest_is_the_backtracker(seed):
    # Both are a depth-first search from the same start with the same draws: the same maze.
    a = bm.generate((23, 31), algorithm="growing-tree:newest", rng=seed)
    assert a == bm.generate((23, 31), algorithm="backtracker", rng=seed)


@pytest.mark.parametrize("seed", range(3))
def test_growing_tree_numeric_extremes_are_the_named_rules(seed):
    shape = (17, 19)
    assert bm.generate(shape, algorithm="growing-tree:1", rng=seed) == bm.generate(
        shape, algorithm="growing-tree:newest", rng=seed)
    assert bm.generate(shape, algorithm="growing-tree:0", rng=seed) == bm.generate(
        shape, algorithm="growing-tree:random", rng=seed)
    assert bm.generate(shape, algorithm="growing-tree", rng=seed) == bm.generate(
        shape, algorithm="growing-tree:0.5", rng=seed)


# --- true Prim -----------------------------------------------------------------------------


def minimum_spanning_tree(grid, weights):
    """The MST's edges as a set of (cell, direction) pairs, by a plain-Python Kruskal."""
    cells, dirs = edge_list(grid)
    w = weights[cells, dirs]
    parent = list(range(grid.size))

    def find(a):
        while parent[a] != a:
            a = parent[a]
        return a

    tree = set()
    for i in np.argsort(w, kind="stable"):
        a, b = find(int(cells[i])), find(int(grid.neighbors[cells[i], dirs[i]]))
        if a != b:
            parent[a] = b
            tree.add((int(cells[i]), int(dirs[i])))
    return tree


@pytest.mark.parametrize("grid", [
    bm.square_grid(25, 30),
    lattice_grid((14, 17), HEX_OFFSETS),
    bm.square_grid(19, 23, mask=PILLARS),
], ids=["square", "hex", "masked"])
@pytest.mark.parametrize("seed", [5, 6])
def test_true_prim_is_the_minimum_spanning_tree_of_its_weights(grid, seed):
    maze = bm.generate(grid, algorithm="prim", rng=seed)
    # replay the same draws with the weights recorded: the kernel gives the same links
    rng = np.random.default_rng(seed)
    start = random_enabled_cell(grid, rng)
    weights = np.full(grid.neighbors.shape, -1, dtype=np.int64)
    links = prim_kernel(grid.neighbors, grid.opposite, start, rng, weights,
                        np.empty((0, 2), np.int32))
    assert np.array_equal(links, maze.links)
    cells, dirs = edge_list(grid)
    w = weights[cells, dirs]
    assert (w >= 0).all()  # every edge of the (connected) region got a weight...
    assert np.array_equal(weights[grid.neighbors[cells, dirs], grid.opposite[dirs]], w)  # ...one
    assert np.unique(w).size == w.size  # distinct weights: the MST is unique
    tree = {(int(c), int(d)) for c, d in zip(cells, dirs, strict=True) if maze.links[c, d]}
    assert tree == minimum_spanning_tree(grid, weights)


def test_simplified_prim_is_not_a_minimum_spanning_tree_texture():
    # same growth from a start, but the frontier cell is uniform: more dead ends, shorter paths
    assert texture("prim-simplified")[0] > texture("prim")[0] + 0.02


# --- Kruskal -------------------------------------------------------------------------------


@pytest.mark.parametrize("grid", [
    bm.square_grid(7, 9),
    bm.square_grid(6, 6, mask=np.eye(6, dtype=bool) == 0),
    lattice_grid((5, 6), HEX_OFFSETS),
], ids=["square", "masked", "hex"])
def test_kruskal_edges_are_the_shared_edge_list(grid):
    cells, dirs = edge_list(grid)
    packed = packed_edges(grid.neighbors)
    assert np.array_equal(packed >> 32, cells)
    assert np.array_equal(packed & 0xFFFFFFFF, grid.neighbors[cells, dirs])


@pytest.mark.parametrize("spec", ["kruskal", "eller"])
@pytest.mark.parametrize("seed", range(3))
def test_union_find_algorithms_span_every_region(spec, seed):
    # a wall of masked cells cuts the grid in two: one tree in each part, none across
    mask = np.ones((9, 12), bool)
    mask[:, 5] = False
    maze = bm.generate(bm.square_grid(9, 12, mask=mask), algorithm=spec, rng=seed)
    assert maze.passage_count == mask.sum() - 2
    left = maze.distances(0)
    right = maze.distances(11)
    region = np.zeros((9, 12), bool)
    region[:, :5] = True
    assert (left[region.ravel()] >= 0).all() and (left[(~region & mask).ravel()] < 0).all()
    assert (right[(~region & mask).ravel()] >= 0).all()


# --- Eller ---------------------------------------------------------------------------------


def last_row_joins_exactly_when_needed(maze, rows, cols):
    """Eller's last row, read back from the finished maze.

    With every passage known except the last row's east-west ones, go along the last row from
    west to east: a pair of neighbours must be joined exactly when nothing joins them yet (not
    the rows above, not the last row's passages further west).
    """
    parent = list(range(rows * cols))

    def find(a):
        while parent[a] != a:
            a = parent[a]
        return a

    first_of_last = (rows - 1) * cols
    for cell in range(rows * cols):
        for d in (EAST, SOUTH):
            if maze.links[cell, d] and not (d == EAST and cell >= first_of_last):
                parent[find(cell)] = find(int(maze.grid.neighbors[cell, d]))
    for cell in range(first_of_last, rows * cols - 1):
        apart = find(cell) != find(cell + 1)
        if bool(maze.links[cell, EAST]) != apart:
            return False
        if apart:
            parent[find(cell)] = find(cell + 1)
    return True


@pytest.mark.parametrize("rows, cols", [(2, 2), (5, 8), (12, 7), (30, 30)])
def test_eller_last_row_joins_exactly_the_sets_still_apart(rows, cols):
    for seed in range(5):
        maze = bm.generate((rows, cols), algorithm="eller", rng=seed)
        assert last_row_joins_exactly_when_needed(maze, rows, cols)


@pytest.mark.parametrize("spec", ["kruskal", "prim", "backtracker", "growing-tree"])
def test_other_algorithms_fail_the_eller_last_row_check(spec):
    # the property is Eller's own: other perfect mazes break it
    assert not all(
        last_row_joins_exactly_when_needed(bm.generate((12, 12), algorithm=spec, rng=s), 12, 12)
        for s in range(5)
    )


def test_eller_needs_no_cleanup_on_a_plain_square_grid():
    for rows, cols in [(1, 1), (1, 9), (9, 1), (8, 13), (40, 25)]:
        grid = bm.square_grid(rows, cols)
        for seed in range(3):
            _, cleaned = eller_kernel(grid.neighbors, grid.opposite, grid.enabled, cols,
                                      np.random.default_rng(seed), np.empty((0, 2), np.int32))
            assert not cleaned


def test_eller_cleanup_joins_a_set_the_rows_stranded():
    # cell (1, 0) is masked: if row 0 leaves cell (0, 0) alone, no row below can reach it, and
    # only the cleanup pass joins it (through its east neighbour)
    mask = np.ones((3, 3), bool)
    mask[1, 0] = False
    grid = bm.square_grid(3, 3, mask=mask)
    cleaned = [eller_kernel(grid.neighbors, grid.opposite, grid.enabled, 3,
                            np.random.default_rng(seed), np.empty((0, 2), np.int32))[1]
               for seed in range(20)]
    assert any(cleaned) and not all(cleaned)
    for seed in range(20):
        assert bm.generate(grid, algorithm="eller", rng=seed).is_perfect()


def test_eller_on_a_single_row_or_column():
    # a 1-row grid is all "last row": every neighbour pair is joined, a straight corridor
    maze = bm.generate((1, 12), algorithm="eller", rng=3)
    assert maze.links[:-1, EAST].all()
    # a 1-column grid: every row has one set, which must go down
    maze = bm.generate((12, 1), algorithm="eller", rng=3)
    assert maze.links[:-1, SOUTH].all()
