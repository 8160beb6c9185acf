"""Rasterization of every planar grid kind: the plan's topology is the maze's, block for block.

The checks read only the plan, the labels and the cell polygons: labels are checked against the
geometry (an open block labelled c has its centre in c's polygon), and the adjacency of the plan's
open blocks is compared with the maze's links.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

import blockmaze as bm
from blockmaze.blocks.raster import MIN_SCALE, OUTSIDE_LABEL, min_scale, raster, rasterize
from blockmaze.grids import GRID_KINDS
from blockmaze.materials import MARKERS, SOLID, Material

KINDS = sorted(MIN_SCALE)


def make_maze(kind, size, seed, algorithm="backtracker"):
    shape = (size,) if kind == "polar" else (size, size + seed % 3)
    return bm.generate(GRID_KINDS[kind](*shape), algorithm=algorithm, rng=seed)


def inside_polygon(px, py, poly):
    """Centres (px, py) in the closed polygon (even-odd rule, with points on the boundary in)."""
    inside = np.zeros(px.shape, dtype=bool)
    near = np.zeros(px.shape, dtype=bool)
    for (x0, y0), (x1, y1) in zip(poly, np.roll(poly, -1, axis=0), strict=True):
        crosses = (y0 > py) != (y1 > py)
        with np.errstate(divide="ignore", invalid="ignore"):
            at = x0 + (x1 - x0) * (py - y0) / (y1 - y0)
        inside ^= crosses & (px < at)
        ex, ey = x1 - x0, y1 - y0
        t = np.clip(((px - x0) * ex + (py - y0) * ey) / (ex * ex + ey * ey), 0, 1)
        near |= np.hypot(px - x0 - t * ex, py - y0 - t * ey) < 1e-9
    return inside | near


def components(mask, same):
    """4-connected components of the blocks in ``mask``, joining neighbours where ``same`` agrees."""
    index = -np.ones(mask.shape, dtype=np.int64)
    index[mask] = np.arange(int(mask.sum()))
    rows, cols = [], []
    for a, b in ((np.s_[:, :-1], np.s_[:, 1:]), (np.s_[:-1, :], np.s_[1:, :])):
        join = mask[a] & mask[b] & (same[a] == same[b])
        rows.append(index[a][join])
        cols.append(index[b][join])
    n = int(mask.sum())
    rows, cols = np.concatenate(rows), np.concatenate(cols)
    graph = coo_matrix((np.ones(rows.size), (rows, cols)), shape=(n, n))
    count, comp = connected_components(graph, directed=False)
    out = -np.ones(mask.shape, dtype=np.int64)
    out[mask] = comp
    return count, out


def link_pairs(maze):
    g = maze.grid
    i, d = np.nonzero(maze.links)
    return {frozenset((int(a), int(b))) for a, b in zip(i, g.neighbors[i, d], strict=True)}


def plan_pairs(labels):
    """Pairs of labels that touch edge to edge in the plan (both open, different labels)."""
    pairs = set()
    for a, b in ((np.s_[:, :-1], np.s_[:, 1:]), (np.s_[:-1, :], np.s_[1:, :])):
        la, lb = labels[a], labels[b]
        touch = (la != -1) & (lb != -1) & (la != lb)
        pairs |= {frozenset((int(x), int(y))) for x, y in zip(la[touch], lb[touch], strict=True)}
    return pairs


def diagonal_only(open_, labels):
    """Number of 2x2 windows where two diagonal open blocks of different labels have no open block
    between them."""
    a, b, c, d = open_[:-1, :-1], open_[:-1, 1:], open_[1:, :-1], open_[1:, 1:]
    la, lb, lc, ld = labels[:-1, :-1], labels[:-1, 1:], labels[1:, :-1], labels[1:, 1:]
    main = a & d & ~b & ~c & (la != ld)
    anti = b & c & ~a & ~d & (lb != lc)
    return int(main.sum() + anti.sum())


def check_raster(maze, r, endpoints=None, solution=False):
    grid = maze.grid
    plan, labels = r.plan, r.labels
    open_ = ~SOLID[plan]
    assert plan.dtype == np.uint8
    assert np.array_equal(open_, labels != -1)
    # labels agree with the geometry: a block of cell c has its centre in c's polygon
    shapes = bm.cell_shapes(grid)
    zz, xx = np.nonzero(labels >= 0)
    cells = labels[zz, xx]
    px = r.origin[0] + (xx + 0.5) / r.scale
    py = r.origin[1] + (zz + 0.5) / r.scale
    for c in np.unique(cells):
        sel = cells == c
        assert grid.enabled[c]
        assert inside_polygon(px[sel], py[sel], shapes.polygon(c)).all(), f"cell {c} leaks"
    # every enabled cell is there, as one 4-connected region
    present = np.zeros(grid.size, dtype=bool)
    present[cells] = True
    assert np.array_equal(present, grid.enabled)
    count, comp = components(labels >= 0, labels)
    assert count == grid.enabled_count
    # the adjacency seen in the blocks is the maze's links (and the openings' cells with the outside)
    seen = plan_pairs(labels)
    cell_pairs = {p for p in seen if OUTSIDE_LABEL not in p}
    assert cell_pairs == link_pairs(maze)
    opened = {cell for cell, _ in (endpoints.openings if endpoints else ())}
    assert {p for p in seen if OUTSIDE_LABEL in p} == {frozenset((c, OUTSIDE_LABEL)) for c in opened}
    # no diagonal-only contact between different cells
    assert diagonal_only(open_, labels) == 0
    # the border is solid except where an opening leaves; each opening is its own passage out
    border = np.ones(plan.shape, dtype=bool)
    border[1:-1, 1:-1] = False
    assert (labels[border & open_] == OUTSIDE_LABEL).all()
    out = labels == OUTSIDE_LABEL
    if out.any():
        n_out, out_comp = components(out, labels)   # (two openings may meet outside the cells)
        assert 1 <= n_out <= len(opened)
        assert set(out_comp[border & out].tolist()) == set(range(n_out))
    else:
        assert not opened
    if solution:
        marks = MARKERS[plan]
        if endpoints.start == endpoints.goal:
            assert (plan == Material.GOAL).sum() == 1
            return
        (sz,), (sx,) = np.nonzero(plan == Material.START)
        (gz,), (gx,) = np.nonzero(plan == Material.GOAL)
        _, mcomp = components(marks, np.zeros(plan.shape))
        assert mcomp[sz, sx] == mcomp[gz, gx]
        assert labels[sz, sx] == endpoints.start and labels[gz, gx] == endpoints.goal


@pytest.mark.slow
@settings(max_examples=60)
@given(kind=st.sampled_from(KINDS), size=st.integers(1, 6), seed=st.integers(0, 10_000),
       extra=st.integers(0, 5), ends=st.booleans())
def test_topology_equals_links(kind, size, seed, extra, ends):
    if kind == "triangle" and size == 1:
        size = 2
    maze = make_maze(kind, size, seed)
    if seed % 4 == 0:
        maze = bm.braid(maze, 1.0, rng=seed)
    scale = MIN_SCALE[kind] + extra
    endpoints = bm.place_endpoints(maze, "entrances" if ends else "longest")
    r = raster(maze, scale, endpoints=endpoints, solution=ends)
    check_raster(maze, r, endpoints, solution=ends)


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_at_its_minimum_scale(kind):
    for seed in range(6):
        maze = make_maze(kind, 7, seed)
        endpoints = bm.place_endpoints(maze, "entrances")
        check_raster(maze, raster(maze, MIN_SCALE[kind], endpoints, solution=True), endpoints, True)


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_wider_corridors(kind):
    maze = make_maze(kind, 5, 3)
    endpoints = bm.place_endpoints(maze, "entrances")
    for scale in (8, 12):
        for width in (1, 2, 3):
            check_raster(maze, raster(maze, scale, endpoints, corridor=width), endpoints)


@pytest.mark.parametrize("kind", KINDS)
def test_masked_cells_stay_solid(kind):
    grid = GRID_KINDS[kind](*((6,) if kind == "polar" else (6, 7)))
    enabled = grid.enabled.copy()
    enabled[np.random.default_rng(5).random(grid.size) < 0.2] = False
    masked = GRID_KINDS[kind](*grid.shape, mask=enabled.reshape(
        (grid.size,) if kind == "polar" else grid.shape))
    maze = bm.generate(masked, rng=1)
    r = raster(maze, MIN_SCALE[kind] + 1)
    check_raster(maze, r)
    assert not np.isin(r.labels, np.flatnonzero(~enabled)).any()


@pytest.mark.parametrize("kind", KINDS)
def test_a_thin_plan_keeps_the_guarantees(kind):
    """Without rooms (``rooms=False``, 1-block corridors) a plan is only the anchors, corridors
    and openings, under the same rules: each cell one region, touching exactly its linked cells."""
    for seed, extra in ((1, 0), (2, 1), (3, 3)):
        maze = make_maze(kind, 5, seed)
        endpoints = bm.place_endpoints(maze, "entrances")
        thin = raster(maze, MIN_SCALE[kind] + extra, endpoints, corridor=1, rooms=False)
        check_raster(maze, thin, endpoints)
        full = raster(maze, MIN_SCALE[kind] + extra, endpoints, corridor=1)
        thin_open, full_open = (thin.labels != -1).sum(), (full.labels != -1).sum()
        assert thin_open < full_open if extra == 3 else thin_open <= full_open  # (the least
        # scale's rooms may be no more than the corridors)
        assert np.array_equal(thin.anchors, full.anchors)


@pytest.mark.slow
@given(size=st.integers(1, 7), seed=st.integers(0, 1000), scale=st.integers(3, 7))
def test_square_topology_equals_converter(size, seed, scale):
    maze = make_maze("square", size, seed)
    if seed % 2:
        maze = bm.braid(maze, 0.5, rng=seed)
    labels = raster(maze, scale).labels
    converted = bm.from_blocks(bm.to_blocks(maze))  # the 2n+1 layout read back
    assert plan_pairs(labels) == link_pairs(converted) == link_pairs(maze)


@pytest.mark.parametrize("kind", KINDS)
def test_too_small_scale_is_refused(kind):
    maze = make_maze(kind, 3, 0)
    with pytest.raises(bm.BlockmazeError, match=f">= {MIN_SCALE[kind]}"):
        rasterize(maze, MIN_SCALE[kind] - 1)
    with pytest.raises(bm.BlockmazeError, match="whole number"):
        rasterize(maze, 4.5)


def test_layered_is_refused_with_a_pointer_to_stacking():
    maze = bm.generate(GRID_KINDS["layered"](2, 3, 3), rng=0)
    with pytest.raises(bm.BlockmazeError, match="stack"):
        rasterize(maze)
    with pytest.raises(bm.BlockmazeError):
        min_scale("nonsense")


def test_solution_needs_endpoints_and_plan_is_deterministic():
    maze = make_maze("hex", 4, 1)
    with pytest.raises(bm.BlockmazeError, match="endpoints"):
        rasterize(maze, solution=True)
    ends = bm.place_endpoints(maze)
    assert np.array_equal(rasterize(maze, 5, ends, True), rasterize(maze, 5, ends, True))


def test_plan_size_follows_the_scale():
    maze = make_maze("square", 3, 0)   # 3 x 3 unit squares
    assert rasterize(maze, 4).shape == (3 * 4 + 2, 3 * 4 + 2)
