"""Generation: every maze is perfect, on any grid topology, and the seed fixes the maze."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import blockmaze as bm
from blockmaze.algorithms import ALGORITHMS, algorithm_specs, get_algorithm
from lattice import CUBE_OFFSETS, HEX_OFFSETS, SQUARE_OFFSETS, lattice_grid
from spanning import assert_spanning_tree

seeds = st.integers(0, 2**63 - 1)


def specs(where=lambda algorithm: True):
    return [s for s in algorithm_specs() if where(ALGORITHMS[s.partition(":")[0]])]


@pytest.mark.slow
@pytest.mark.parametrize("spec", specs())
@given(rows=st.integers(1, 40), cols=st.integers(1, 40), seed=seeds)
def test_square_mazes_are_perfect(spec, rows, cols, seed):
    assert_spanning_tree(bm.generate((rows, cols), algorithm=spec, rng=seed))


@pytest.mark.parametrize("spec", specs())
def test_same_seed_same_maze_for_every_algorithm(spec):
    a = bm.generate((23, 17), algorithm=spec, rng=99)
    assert a == bm.generate((23, 17), algorithm=spec, rng=99)
    assert any(a != bm.generate((23, 17), algorithm=spec, rng=s) for s in range(100, 105))


TOPOLOGIES = {
    "hex": lambda a, b: lattice_grid((a, b), HEX_OFFSETS),
    "3d": lambda a, b: lattice_grid((a, b, 3), CUBE_OFFSETS),
    "torus": lambda a, b: lattice_grid((a + 2, b + 2), SQUARE_OFFSETS, wrap=True),
}


@pytest.mark.slow
@pytest.mark.parametrize("spec", specs(lambda a: a.grid_kinds is None))
@pytest.mark.parametrize("topology", sorted(TOPOLOGIES))
@given(a=st.integers(1, 12), b=st.integers(1, 12), seed=seeds)
def test_any_topology_gives_a_spanning_tree(spec, topology, a, b, seed):
    grid = TOPOLOGIES[topology](a, b)
    assert_spanning_tree(bm.generate(grid, algorithm=spec, rng=seed))


@pytest.mark.slow
@pytest.mark.parametrize("spec", specs(lambda a: not a.needs_unmasked))
@given(rows=st.integers(2, 25), cols=st.integers(2, 25), seed=seeds)
def test_masked_cells_are_skipped(spec, rows, cols, seed):
    # a mask that keeps the region connected: a random set of interior pillars on even rows/cols
    rng = np.random.default_rng(seed)
    mask = np.ones((rows, cols), bool)
    mask[1::2, 1::2] = rng.random(mask[1::2, 1::2].shape) < 0.5
    maze = bm.generate(bm.square_grid(rows, cols, mask=mask), algorithm=spec, rng=seed)
    assert_spanning_tree(maze)
    assert not maze.links[~mask.ravel()].any()


@pytest.mark.parametrize("spec", specs(lambda a: a.needs_unmasked))
def test_unmasked_only_algorithms_refuse_masks(spec):
    mask = np.ones((4, 4), bool)
    mask[1, 1] = False
    with pytest.raises(bm.BlockmazeError, match="masked"):
        bm.generate(bm.square_grid(4, 4, mask=mask), algorithm=spec, rng=0)


def test_same_seed_same_maze_and_generator_accepted():
    a = bm.generate((30, 40), rng=123)
    assert a == bm.generate((30, 40), rng=123)
    assert a != bm.generate((30, 40), rng=124)
    assert a == bm.generate((30, 40), rng=np.random.default_rng(123))


def test_global_random_state_untouched():
    np.random.seed(5)
    before = np.random.random()
    np.random.seed(5)
    bm.generate((10, 10), rng=1)
    assert np.random.random() == before


def test_backtracker_output_is_pinned():
    # Guards the kernel's draw order: a change here changes every user's maze for a given seed.
    maze = bm.generate((3, 4), rng=2026)
    assert bm.maze_text(maze, style="ascii") == "\n".join([
        "+-------+---+---+",
        "|       |   |   |",
        "|   ----+   |   |",
        "|       |   |   |",
        "|   |   |   |   |",
        "|   |           |",
        "+---+-----------+",
    ])


def test_unknown_algorithm_and_bad_seed_are_clear_errors():
    with pytest.raises(bm.BlockmazeError, match="unknown algorithm 'nope'; choose one of"):
        get_algorithm("nope")
    with pytest.raises(bm.BlockmazeError, match="backtracker takes no option"):
        get_algorithm("backtracker:fast")
    with pytest.raises(bm.BlockmazeError, match="seed must be"):
        bm.generate((2, 2), rng=-1)
    with pytest.raises(bm.BlockmazeError, match="unknown grid kind"):
        bm.generate((2, 2), kind="klein-bottle")
