"""Aldous-Broder and Wilson sample spanning trees uniformly: a chi-square test on tiny grids.

A 2x3 grid has 15 spanning trees and a 3x3 grid 192 (Kirchhoff's matrix-tree theorem, checked
below). Mazes from seeds 0..N-1 — fixed, so the test is deterministic — are counted per distinct
tree; a uniform sampler must produce every tree, with counts that pass a chi-square
goodness-of-fit test against the uniform distribution at significance 0.001. The same check must
reject biased samplers, or it would prove nothing.
"""

from collections import Counter

import numpy as np
import pytest

import blockmaze as bm
import readers

# Critical values of the chi-square distribution at alpha = 0.001, i.e. scipy.stats.chi2.ppf(0.999,
# df) — scipy is not a dependency, so they are written out: df = 14 from standard tables (36.123),
# df = 191 computed from the regularized incomplete gamma function (257.135; the Wilson-Hilferty
# approximation gives 257.18). The test below recomputes them with scipy when it is installed.
CRITICAL_0999 = {14: 36.123, 191: 257.135}

# (rows, cols) -> (number of spanning trees, samples); about 200 resp. 40 expected per tree
CASES = {(2, 3): (15, 3000), (3, 3): (192, 7680)}


def spanning_tree_count(rows, cols):
    """Kirchhoff: the number of spanning trees is any cofactor of the grid graph's Laplacian."""
    grid = bm.square_grid(rows, cols)
    laplacian = np.zeros((grid.size, grid.size))
    for cell, row in enumerate(grid.neighbors):
        for nb in row[row >= 0]:
            laplacian[cell, cell] += 1
            laplacian[cell, nb] -= 1
    return round(np.linalg.det(laplacian[1:, 1:]))


def tree_counts(sample, shape, samples):
    """How often each distinct tree (keyed by its links' bytes) came out of seeds 0..samples-1."""
    return Counter(sample(shape, seed).tobytes() for seed in range(samples))


def chi_square(counts, categories, samples):
    """Pearson's statistic against the uniform distribution over ``categories`` outcomes."""
    expected = samples / categories
    observed = np.array(list(counts.values()), dtype=float)
    missing = categories - len(counts)  # trees never drawn count (0 - expected)^2 / expected each
    return float(((observed - expected) ** 2).sum() / expected + missing * expected)


def looks_uniform(sample, shape):
    trees, samples = CASES[shape]
    counts = tree_counts(sample, shape, samples)
    statistic = chi_square(counts, trees, samples)
    return len(counts) == trees and statistic < CRITICAL_0999[trees - 1], len(counts), statistic


def generated(algorithm):
    return lambda shape, seed: bm.generate(shape, algorithm=algorithm, rng=seed).links


def greedy_walk(shape, seed):
    """A deliberately biased Aldous-Broder: it steps to an unvisited neighbour whenever there is one.

    Every tree it makes is a spanning tree, but preferring unvisited cells favours long corridors
    (it is a depth-first search that finds its way back by random walking), so it is not uniform.
    """
    grid = bm.square_grid(*shape)
    rng = np.random.default_rng(seed)
    links = np.zeros(grid.neighbors.shape, dtype=bool)
    cell = int(rng.integers(grid.size))
    visited = {cell}
    while len(visited) < grid.size:
        dirs = np.flatnonzero(grid.neighbors[cell] >= 0)
        fresh = [d for d in dirs if int(grid.neighbors[cell, d]) not in visited]
        d = int(rng.choice(fresh if fresh else dirs))
        nb = int(grid.neighbors[cell, d])
        if nb not in visited:
            visited.add(nb)
            links[cell, d] = links[nb, grid.opposite[d]] = True
        cell = nb
    return links


def test_known_spanning_tree_counts():
    assert {shape: spanning_tree_count(*shape) for shape in CASES} == {
        shape: trees for shape, (trees, _) in CASES.items()
    }


@pytest.mark.slow
def test_critical_values_match_scipy_when_available():
    stats = readers.module("scipy.stats", "scipy")
    for df, value in CRITICAL_0999.items():
        assert stats.chi2.ppf(0.999, df) == pytest.approx(value, abs=1e-3)


@pytest.mark.slow
@pytest.mark.parametrize("shape", sorted(CASES))
@pytest.mark.parametrize("algorithm", ["aldous-broder", "wilson"])
def test_uniform_spanning_trees(algorithm, shape):
    uniform, distinct, statistic = looks_uniform(generated(algorithm), shape)
    assert uniform, f"{distinct} distinct trees of {CASES[shape][0]}, chi-square {statistic:.1f}"


@pytest.mark.slow
@pytest.mark.parametrize("sampler", [generated("backtracker"), generated("hunt-and-kill"), greedy_walk],
                         ids=["backtracker", "hunt-and-kill", "greedy-walk"])
def test_the_check_rejects_biased_samplers(sampler):
    uniform, distinct, statistic = looks_uniform(sampler, (2, 3))
    assert not uniform
    assert statistic > 5 * CRITICAL_0999[14], "rejected by a wide margin, not by chance"
