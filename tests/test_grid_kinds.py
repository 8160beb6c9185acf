"""Every grid kind: the neighbour table against its definition, and the polygons against the table.

The reference tables here are built cell by cell from the definitions in DESIGN.md (independently of
the vectorised constructors); the geometric checks compute shared edges and overlaps from the
polygons alone.
"""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import blockmaze as bm
from blockmaze.algorithms import ALGORITHMS, algorithm_specs
from blockmaze.grids import GRID_KINDS
from blockmaze.grids.geometry import cell_shapes, outer_sides, polygons
from blockmaze.grids.hex import row_east
from blockmaze.grids.polar import polar_cell_count, ring_counts, ring_offsets
from blockmaze.mazes.masks import mask_shape, regions
from spanning import assert_spanning_tree

KINDS = ["square", "hex", "upsilon", "triangle", "polar", "layered"]
small = st.integers(1, 7)
SHAPES = {
    "square": st.tuples(small, small),
    "hex": st.tuples(small, small),
    "upsilon": st.tuples(small, small),
    "triangle": st.tuples(small, small).filter(lambda s: s[1] > 1 or s[0] <= 2),
    "polar": st.tuples(st.integers(1, 5)),
    "layered": st.tuples(st.integers(1, 3), st.integers(1, 5), st.integers(1, 5)),
}
seeds = st.integers(0, 2**32 - 1)


def build(kind, shape, mask=None):
    return GRID_KINDS[kind](*shape, mask=mask)


def test_every_kind_is_registered():
    assert set(KINDS) <= set(GRID_KINDS)


# --- reference neighbour tables from the definitions ------------------------------------------

def rect_reference(rows, cols, rule):
    """A table from ``rule(r, c) -> list of (row, col) or None`` per direction."""
    table = []
    for r in range(rows):
        for c in range(cols):
            row = []
            for target in rule(r, c):
                ok = target is not None and 0 <= target[0] < rows and 0 <= target[1] < cols
                row.append(target[0] * cols + target[1] if ok else -1)
            table.append(row)
    return np.array(table)


def hex_rule(r, c):
    north_diagonal, south_diagonal = (r - 1, r) if c % 2 == 0 else (r, r + 1)
    return [(r - 1, c), (north_diagonal, c + 1), (south_diagonal, c + 1), (r + 1, c),
            (south_diagonal, c - 1), (north_diagonal, c - 1)]


def upsilon_rule(r, c):
    octagon = (r + c) % 2 == 0
    diagonal = (lambda t: t) if octagon else (lambda t: None)
    return [(r - 1, c), diagonal((r - 1, c + 1)), (r, c + 1), diagonal((r + 1, c + 1)),
            (r + 1, c), diagonal((r + 1, c - 1)), (r, c - 1), diagonal((r - 1, c - 1))]


def triangle_rule(r, c):
    upright = (r + c) % 2 == 0
    return [(r, c - 1), (r, c + 1), None if upright else (r - 1, c), (r + 1, c) if upright else None]


def layered_reference(levels, rows, cols):
    table = []
    for level in range(levels):
        for r in range(rows):
            for c in range(cols):
                row = []
                for dl, dr, dc in [(0, -1, 0), (0, 0, 1), (0, 1, 0), (0, 0, -1), (1, 0, 0), (-1, 0, 0)]:
                    l2, r2, c2 = level + dl, r + dr, c + dc
                    inside = 0 <= l2 < levels and 0 <= r2 < rows and 0 <= c2 < cols
                    row.append((l2 * rows + r2) * cols + c2 if inside else -1)
                table.append(row)
    return np.array(table)


def polar_reference(rings):
    """From angles: cells of adjacent rings are neighbours iff their angular spans overlap."""
    cells = []  # (ring, start angle, end angle) in units of a full turn
    for r, n in enumerate(ring_counts(rings)):
        cells += [(r, j / n, (j + 1) / n) for j in range(n)]
    table = np.full((len(cells), 6), -1)
    for i, (r, a0, a1) in enumerate(cells):
        for j, (s, b0, b1) in enumerate(cells):
            if s == r and i != j and math.isclose(b0, a1 % 1.0, abs_tol=1e-12):
                table[i, 0] = j  # cw: the span starting where this one ends
            if s == r and i != j and math.isclose(b1 % 1.0, a0, abs_tol=1e-12):
                table[i, 1] = j
            if s == r + 1 and min(a1, b1) - max(a0, b0) > 1e-12:
                table[i, 4 if math.isclose(b0, a0) else 5] = j
                table[j, 2 if math.isclose(b0, a0) else 3] = i
    return table


@given(shape=SHAPES["hex"])
def test_hex_matches_definition(shape):
    assert np.array_equal(build("hex", shape).neighbors, rect_reference(*shape, hex_rule))


@given(shape=SHAPES["upsilon"])
def test_upsilon_matches_definition(shape):
    assert np.array_equal(build("upsilon", shape).neighbors, rect_reference(*shape, upsilon_rule))


@given(shape=SHAPES["triangle"])
def test_triangle_matches_definition(shape):
    assert np.array_equal(build("triangle", shape).neighbors, rect_reference(*shape, triangle_rule))


@given(shape=SHAPES["layered"])
def test_layered_matches_definition(shape):
    assert np.array_equal(build("layered", shape).neighbors, layered_reference(*shape))


@pytest.mark.parametrize("rings", range(1, 8))
def test_polar_matches_definition(rings):
    assert np.array_equal(build("polar", (rings,)).neighbors, polar_reference(rings))


# --- the table's invariants, masks included ---------------------------------------------------

def random_mask(kind, shape, seed, keep=0.7):
    return np.random.default_rng(seed).random(mask_shape(kind, shape)) < keep


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
@given(data=st.data(), seed=seeds, masked=st.booleans())
def test_opposite_rule_and_symmetry(kind, data, seed, masked):
    shape = data.draw(SHAPES[kind])
    mask = random_mask(kind, shape, seed) if masked else None
    grid = build(kind, shape, mask)
    assert grid.kind == kind and grid.shape == tuple(shape)
    assert np.array_equal(grid.opposite[grid.opposite], np.arange(grid.degree))
    assert len(grid.directions) == grid.degree
    cell, d = np.nonzero(grid.neighbors >= 0)
    nb = grid.neighbors[cell, d]
    assert np.array_equal(grid.neighbors[nb, grid.opposite[d]], cell)  # the opposite rule
    assert (nb != cell).all()
    pairs = set(zip(cell.tolist(), nb.tolist(), strict=True))
    assert pairs == {(b, a) for a, b in pairs}  # symmetric
    # no two directions of a cell lead to the same neighbour
    for i in np.unique(cell):
        row = grid.neighbors[i][grid.neighbors[i] >= 0]
        assert len(set(row.tolist())) == len(row)
    if masked:
        off = ~np.asarray(mask).ravel()
        assert np.array_equal(grid.enabled, ~off)
        assert (grid.neighbors[off] == -1).all()
        assert grid.enabled[nb].all()
        unmasked = build(kind, shape)
        keep = grid.enabled[:, None] & grid.enabled[np.maximum(unmasked.neighbors, 0)]
        assert np.array_equal(grid.neighbors, np.where(keep & (unmasked.neighbors >= 0), unmasked.neighbors, -1))


def degrees(grid):
    return (grid.neighbors >= 0).sum(axis=1)


def test_degrees_per_shape():
    hexes = build("hex", (6, 7))
    d = degrees(hexes).reshape(6, 7)
    assert (d[1:-1, 1:-1] == 6).all() and d.max() == 6 and d[0, 0] == 2

    ups = build("upsilon", (6, 7))
    d = degrees(ups).reshape(6, 7)
    octagon = (np.add.outer(np.arange(6), np.arange(7)) % 2) == 0
    assert (d[1:-1, 1:-1][octagon[1:-1, 1:-1]] == 8).all()
    assert (d[1:-1, 1:-1][~octagon[1:-1, 1:-1]] == 4).all()
    assert (d[~octagon] <= 4).all()

    tri = build("triangle", (6, 7))
    d = degrees(tri).reshape(6, 7)
    upright = octagon
    assert (d[1:-1, 1:-1] == 3).all() and d.max() == 3
    assert (d[0][~upright[0]] == 2).all()  # inverted cells of the north row lack their north
    north, south = tri.direction("north"), tri.direction("south")
    assert (tri.neighbors[upright.ravel(), north] == -1).all()
    assert (tri.neighbors[~upright.ravel(), south] == -1).all()

    layered = build("layered", (3, 4, 5))
    d = degrees(layered).reshape(3, 4, 5)
    assert d[1, 1:-1, 1:-1].min() == 6 and d.max() == 6 and d[0, 0, 0] == 3

    polar = build("polar", (7,))
    counts, offsets = ring_counts(7), ring_offsets(7)
    d = degrees(polar)
    for r in range(7):
        children = 0 if r == 6 else counts[r + 1] // counts[r]
        expected = 2 + (r > 0) + children
        assert (d[offsets[r]:offsets[r + 1]] == expected).all()
    assert 4 <= d[offsets[1]:offsets[6]].min() and d.max() <= 6


def test_polar_cells_stay_roughly_square():
    counts = ring_counts(60)
    assert counts[0] == 4 and set((counts[1:] // counts[:-1]).tolist()) == {1, 2}
    widths = 2 * np.pi * (np.arange(1, 60) + 0.5) / counts[1:]  # at the middle radius; height 1
    assert widths.min() > 1.0 and widths.max() <= 2.0
    assert polar_cell_count(60) == counts.sum()


@pytest.mark.parametrize("kind", KINDS)
def test_wrong_masks_and_empty_shapes_are_refused(kind):
    shape = {"polar": (2,), "layered": (2, 2, 2)}.get(kind, (2, 2))
    with pytest.raises(bm.BlockmazeError, match="mask shape"):
        build(kind, shape, np.ones(tuple(s + 1 for s in mask_shape(kind, shape)), bool))
    with pytest.raises(bm.BlockmazeError, match="no cells"):
        build(kind, tuple(0 for _ in shape))


def test_single_column_triangle_grid_is_refused():
    assert build("triangle", (2, 1)).neighbors.tolist() == [[-1, -1, -1, 1], [-1, -1, 0, -1]]
    with pytest.raises(bm.BlockmazeError, match="at least 2 columns"):
        build("triangle", (3, 1))


@pytest.mark.parametrize("kind", KINDS)
def test_grid_arrays_are_read_only_int32(kind):
    grid = build(kind, {"polar": (3,), "layered": (2, 3, 3)}.get(kind, (3, 3)))
    assert grid.neighbors.dtype == np.int32 and not grid.neighbors.flags.writeable


# --- geometry ---------------------------------------------------------------------------------

def edges_of(shapes):
    """Every polygon edge: (cell, side direction, start xy, end xy)."""
    cells, sides, starts, ends = [], [], [], []
    for i, poly in enumerate(shapes.polygons()):
        m = len(poly)
        cells += [i] * m
        sides += shapes.sides[i, :m].tolist()
        starts.append(poly)
        ends.append(np.roll(poly, -1, axis=0))
    return np.array(cells), np.array(sides), np.concatenate(starts), np.concatenate(ends)


def shared_lengths(a0, a1, b0, b1):
    """Length of the common part of every pair of segments (a[i], b[j]); 0 unless collinear."""
    u = a1 - a0
    length = np.linalg.norm(u, axis=1)
    u = u / length[:, None]

    def along(p):  # coordinates of points p[j] along and across each segment i
        rel = p[None, :, :] - a0[:, None, :]
        return (rel[..., 0] * u[:, None, 0] + rel[..., 1] * u[:, None, 1],
                rel[..., 1] * u[:, None, 0] - rel[..., 0] * u[:, None, 1])

    t0, n0 = along(b0)
    t1, n1 = along(b1)
    collinear = (np.abs(n0) < 1e-9) & (np.abs(n1) < 1e-9)
    overlap = np.minimum(np.maximum(t0, t1), length[:, None]) - np.maximum(np.minimum(t0, t1), 0)
    return np.where(collinear, np.maximum(overlap, 0), 0.0)


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=30)
@given(data=st.data())
def test_polygon_adjacency_agrees_with_topology(kind, data):
    shape = data.draw(SHAPES[kind])
    grid = build(kind, shape)
    shapes = cell_shapes(grid)
    assert shapes.points.shape[0] == grid.size == len(polygons(grid))
    cells, sides, starts, ends = edges_of(shapes)
    assert ((sides >= 0) & (sides < grid.degree)).all()
    lengths = shared_lengths(starts, ends, starts, ends)
    lengths[cells[:, None] == cells[None, :]] = 0  # a cell's own edges
    shared = lengths > 1e-6
    # two cells are neighbours in the plane iff their polygons share an edge of positive length
    e, f = np.nonzero(shared)
    geometric = set(zip(cells[e].tolist(), cells[f].tolist(), strict=True))
    planar = np.unique(sides)
    cell, d = np.nonzero(grid.neighbors >= 0)
    in_plane = np.isin(d, planar)
    topological = set(zip(cell[in_plane].tolist(), grid.neighbors[cell, d][in_plane].tolist(),
                          strict=True))
    assert geometric == topological
    # and each edge's side names the right neighbour: the one across it, or -1 on the outer wall
    assert np.array_equal(grid.neighbors[cells[e], sides[e]], cells[f])
    alone = ~shared.any(axis=1)
    assert (grid.neighbors[cells[alone], sides[alone]] == -1).all()
    # every direction a cell has a neighbour in, in the plane, is one of its sides
    for i, dd in zip(cell[in_plane].tolist(), d[in_plane].tolist(), strict=True):
        assert dd in shapes.sides[i]


def inside(points, poly):
    """Even-odd rule: which of ``points`` lie inside ``poly``."""
    x, y = points[:, 0:1], points[:, 1:2]
    x0, y0 = poly[:, 0], poly[:, 1]
    x1, y1 = np.roll(x0, -1), np.roll(y0, -1)
    crosses = ((y0 > y) != (y1 > y)) & (x < (x1 - x0) * (y - y0) / np.where(y1 == y0, 1, y1 - y0) + x0)
    return crosses.sum(axis=1) % 2 == 1


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=15)
@given(data=st.data(), seed=seeds)
def test_polygons_do_not_overlap(kind, data, seed):
    shape = data.draw(SHAPES[kind])
    shapes = cell_shapes(build(kind, shape))
    areas = shapes.areas()
    assert (areas > 0).all()  # clockwise on screen
    xmin, ymin, xmax, ymax = shapes.bounds()
    points = np.random.default_rng(seed).uniform((xmin, ymin), (xmax, ymax), size=(4000, 2))
    cover = sum(inside(points, poly).astype(int) for poly in shapes.polygons())
    assert cover.max() <= 1  # no point lies in two cells
    # so the union's area is the sum of the areas: compare with the covered share of the box
    box = (xmax - xmin) * (ymax - ymin)
    assert abs(cover.mean() * box - areas.sum()) <= 0.06 * box
    centroids = shapes.centroids()
    for i, poly in enumerate(shapes.polygons()):
        if kind != "polar":  # polar wedges and sectors are not convex; their centroids still are inside
            assert inside(centroids[i:i + 1], poly)[0]


def test_known_areas_and_extents():
    assert np.allclose(cell_shapes(build("hex", (2, 2))).areas(), 3 * np.sqrt(3) / 2)
    assert np.allclose(cell_shapes(build("triangle", (2, 2))).areas(), np.sqrt(3) / 4)
    ups = cell_shapes(build("upsilon", (2, 2))).areas()
    side = 2 - np.sqrt(2)
    assert np.allclose(ups[[0, 3]], 2 * (1 + np.sqrt(2)) * side**2) and np.allclose(ups[[1, 2]], side**2)
    polar = cell_shapes(build("polar", (5,)))
    assert polar.bounds() == pytest.approx((0, 0, 10, 10), abs=1e-9)
    assert polar.areas().sum() == pytest.approx(np.pi * 25, rel=0.01)
    assert cell_shapes(build("layered", (2, 2, 3))).bounds() == (0, 0, 7, 2)
    assert cell_shapes(build("square", (2, 3))).bounds() == (0, 0, 3, 2)


# --- generation on every kind -----------------------------------------------------------------

ANY_KIND_SPECS = [s for s in algorithm_specs() if ALGORITHMS[s.partition(":")[0]].grid_kinds is None]


def test_there_are_algorithms_for_any_kind():
    assert {"backtracker", "wilson"} <= set(ANY_KIND_SPECS)


@pytest.mark.slow
@pytest.mark.parametrize("spec", ANY_KIND_SPECS)
@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=15)
@given(data=st.data(), seed=seeds, masked=st.booleans())
def test_generated_mazes_are_perfect_on_every_kind(kind, spec, data, seed, masked):
    shape = data.draw(SHAPES[kind])
    grid = build(kind, shape)
    if masked:
        if ALGORITHMS[spec.partition(":")[0]].needs_unmasked:
            return
        # the largest connected region of a random mask
        grid = build(kind, shape, regions(build(kind, shape, random_mask(kind, shape, seed)))[0]) \
            if random_mask(kind, shape, seed).any() else grid
    maze = bm.generate(grid, algorithm=spec, rng=seed)
    assert_spanning_tree(maze)
    assert not maze.links[~grid.enabled].any()
    assert maze == bm.generate(grid, algorithm=spec, rng=seed)


@pytest.mark.parametrize("kind", KINDS)
def test_kinds_build_through_generate(kind):
    shape = {"polar": (4,), "layered": (2, 3, 3)}.get(kind, (4, 5))
    maze = bm.generate(shape, kind=kind, rng=3)
    assert maze.grid.kind == kind and maze.is_perfect()


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=20)
@given(data=st.data(), seed=seeds)
def test_outer_sides_are_the_edges_on_the_boundary(kind, data, seed):
    shape = data.draw(SHAPES[kind])
    mask = random_mask(kind, shape, seed)
    grid = build(kind, shape, mask)
    unmasked = build(kind, shape)
    outer = outer_sides(grid)
    shapes = cell_shapes(unmasked)
    cells, sides, starts, ends = edges_of(shapes)
    lengths = shared_lengths(starts, ends, starts, ends)
    lengths[cells[:, None] == cells[None, :]] = 0
    alone = ~(lengths > 1e-6).any(axis=1)  # edges no other cell shares: the drawing's outline
    expected = np.zeros_like(outer)
    expected[cells[alone], sides[alone]] = True
    assert np.array_equal(outer, expected & grid.enabled[:, None])


def test_hex_row_east_stays_in_the_row():
    grid = build("hex", (4, 5))
    east = row_east(grid)
    target = grid.neighbors[np.arange(grid.size), east]
    cells = np.arange(grid.size)
    assert np.array_equal(target, np.where(cells % 5 < 4, cells + 1, -1))
