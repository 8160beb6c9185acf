"""Relaxed blockwise generation: one tree of 1-block passages, the carving rule, dead blocks, seeds."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import ndimage

import blockmaze as bm
from blockmaze.blockwise.relaxed import relaxed_layout, relaxed_plan
from blockmaze.materials import Material

ORDERINGS = ["backtracker", "newest", "prim", "growing-tree", "growing-tree:0.25",
             "growing-tree:newest", "growing-tree:random", "growing-tree:oldest"]
seeds = st.integers(0, 2**32 - 1)


def open_neighbour_counts(open_, outside=False):
    """How many of each block's 4 neighbours are open (outside the plan counts as ``outside``)."""
    padded = np.pad(open_, 1, constant_values=outside).astype(int)
    return padded[:-2, 1:-1] + padded[2:, 1:-1] + padded[1:-1, :-2] + padded[1:-1, 2:]


def check_relaxed(layout, width, length, border):
    plan = layout.plan
    assert plan.shape == (length, width) and plan.dtype == np.uint8
    open_ = plan == Material.AIR
    assert np.array_equal(open_, layout.passages)
    # one tree: connected (face neighbours) and acyclic (edges = blocks - 1)
    count = int(open_.sum())
    edges = int(np.count_nonzero(open_[1:] & open_[:-1]) + np.count_nonzero(open_[:, 1:] & open_[:, :-1]))
    _, components = ndimage.label(open_)
    assert count >= 1 and components == 1 and edges == count - 1
    assert open_[layout.root]
    # the carving rule, checked on the recorded order: every open block other than the root has
    # exactly one open neighbour carved before it (so none of its other neighbours was open when it
    # was carved) -- hence no loop and no 2x2 open square
    order = layout.order
    assert order[layout.root] == 0 and (order[~open_] == -1).all()
    assert sorted(order[open_].tolist()) == list(range(count))
    padded = np.pad(np.where(open_, order, np.iinfo(np.int64).max), 1,
                    constant_values=np.iinfo(np.int64).max)
    earlier = sum((padded[1 + dz:padded.shape[0] - 1 + dz, 1 + dx:padded.shape[1] - 1 + dx] < order)
                  .astype(int) for dz, dx in ((-1, 0), (1, 0), (0, -1), (0, 1)))
    assert (earlier[open_] == (order[open_] > 0)).all()
    assert not (open_[1:, 1:] & open_[:-1, 1:] & open_[1:, :-1] & open_[:-1, :-1]).any()
    # carving ran to the end: no solid block that may be carved has exactly one open neighbour
    carvable = np.zeros_like(open_)
    if border:
        carvable[1:-1, 1:-1] = True
        assert not open_[[0, -1], :].any() and not open_[:, [0, -1]].any()
    else:
        carvable[:] = True
    neighbours = open_neighbour_counts(open_)
    assert not (carvable & ~open_ & (neighbours == 1)).any()
    # dead blocks: solid with four solid neighbours in the plan, and their share of the solid blocks
    dead = ~open_ & (open_neighbour_counts(open_, outside=True) == 0)
    assert np.array_equal(layout.dead, dead)
    solid = plan.size - count
    assert layout.dead_share == (dead.sum() / solid if solid else 0.0)
    assert 0.0 <= layout.dead_share <= 1.0


@pytest.mark.slow
@pytest.mark.parametrize("ordering", ORDERINGS)
@given(width=st.integers(1, 24), length=st.integers(1, 24), border=st.booleans(), seed=seeds)
def test_passages_form_one_tree_under_the_rule(ordering, width, length, border, seed):
    if border and min(width, length) < 3:
        with pytest.raises(bm.BlockmazeError, match=">= 3"):
            relaxed_layout(length, width, ordering, rng=seed, border=border)
        return
    layout = relaxed_layout(length, width, ordering, rng=seed, border=border, record_order=True)
    check_relaxed(layout, width, length, border)


@pytest.mark.parametrize("width, length, border", [
    (1, 1, False), (2, 1, False), (2, 2, False), (3, 3, False), (3, 3, True), (4, 3, True),
    (4, 4, True), (5, 3, True), (1, 9, False), (3, 10, True),
])
@pytest.mark.parametrize("ordering", ["backtracker", "prim", "growing-tree"])
def test_tiny_plans(width, length, border, ordering):
    for seed in range(20):
        layout = relaxed_layout(length, width, ordering, rng=seed, border=border, record_order=True)
        check_relaxed(layout, width, length, border)
    if (width, length) == (1, 1):
        assert relaxed_plan(1, 1, border=False).tolist() == [[Material.AIR]]
    if (width, length, border) == (3, 3, True):
        assert int((layout.plan == Material.AIR).sum()) == 1  # the single interior block


@pytest.mark.parametrize("ordering", ["backtracker", "prim", "growing-tree:0.3", "growing-tree:oldest"])
def test_larger_plans_even_and_odd(ordering):
    for width, length in [(64, 48), (101, 77)]:
        layout = relaxed_layout(length, width, ordering, rng=width, record_order=True)
        check_relaxed(layout, width, length, True)


def test_seed_reproducible_generator_accepted_and_global_state_untouched():
    np.random.seed(123)
    before = np.random.random()
    np.random.seed(123)
    a = relaxed_plan(30, 40, "growing-tree:0.5", rng=7)
    assert np.random.random() == before
    assert np.array_equal(a, relaxed_plan(30, 40, "growing-tree:0.5", rng=np.random.default_rng(7)))
    assert not np.array_equal(a, relaxed_plan(30, 40, "growing-tree:0.5", rng=8))
    assert not np.array_equal(relaxed_plan(30, 40, "backtracker", rng=7),
                              relaxed_plan(30, 40, "prim", rng=7))


def test_recording_the_order_changes_nothing():
    for ordering in ("backtracker", "prim", "growing-tree:0.5"):
        plain = relaxed_layout(20, 30, ordering, rng=2)
        recorded = relaxed_layout(20, 30, ordering, rng=2, record_order=True)
        assert plain.order is None and np.array_equal(plain.plan, recorded.plan)


def test_orderings_shape_the_maze():
    """Depth-first growth gives fewer, longer branches than random-frontier growth."""
    def dead_ends(plan):
        open_ = plan == Material.AIR
        return int((open_ & (open_neighbour_counts(open_) == 1)).sum())

    backtracker = dead_ends(relaxed_plan(200, 200, "backtracker", rng=1))
    prim = dead_ends(relaxed_plan(200, 200, "prim", rng=1))
    assert backtracker < 0.7 * prim   # measured: 3921 against 7045


def test_fill_puts_the_material_in_dead_blocks_only():
    plain = relaxed_layout(40, 60, "prim", rng=3)
    filled = relaxed_layout(40, 60, "prim", rng=3, fill=Material.LIGHT)
    assert plain.dead.any()
    assert (plain.plan[plain.dead] == Material.WALL).all()
    assert (filled.plan[filled.dead] == Material.LIGHT).all()
    assert np.array_equal(filled.plan[~filled.dead], plain.plan[~plain.dead])
    assert np.array_equal(filled.dead, plain.dead) and filled.dead_share == plain.dead_share
    # the plan's edge shows its outer face: never dead
    assert not plain.dead[[0, -1], :].any() and not plain.dead[:, [0, -1]].any()


@pytest.mark.parametrize("kwargs, match", [
    (dict(ordering="spiral"), "unknown relaxed ordering"),
    (dict(ordering="growing-tree:1.5"), "growing-tree takes"),
    (dict(ordering="prim:2"), "takes no option"),
    (dict(fill=99), "fill must be a Material"),
    (dict(width_blocks=0, border=False), ">= 1"),
    (dict(width_blocks=2), ">= 3"),
    (dict(width_blocks=True), "whole number"),
    (dict(rng=-1), "seed"),
])
def test_bad_input_is_refused(kwargs, match):
    args = dict(width_blocks=10, length_blocks=10) | kwargs
    with pytest.raises(bm.BlockmazeError, match=match):
        relaxed_layout(**args)
