"""Grids on surfaces (blockmaze/grids/surfaces.py): every seam symmetric (wraps, the Möbius
flip, the cube's edges, the sphere's equator), each table against a reference built from the
definitions cell by cell, and every algorithm that reads only the table carving a spanning
tree, masked too."""

import io
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import blockmaze as bm
from blockmaze.algorithms import ALGORITHMS, algorithm_specs
from blockmaze.errors import BlockmazeError
from blockmaze.grids import GRID_KINDS, SURFACE_KINDS
from blockmaze.grids.surfaces import (FACES, FRAMES, cube_centres, hemisphere_counts,
                                      sphere_ring_counts)
from blockmaze.export.maze_document import save_maze
from blockmaze.mazes.documents import MazeDocument, load_maze
from blockmaze.mazes.endpoints import place_endpoints
from spanning import assert_spanning_tree

wraps = st.integers(3, 8)
SHAPES = {
    "cylinder": st.tuples(st.integers(1, 8), wraps),
    "moebius": st.tuples(st.integers(1, 8), wraps),
    "torus": st.tuples(wraps, wraps),
    "cube": st.tuples(st.integers(1, 6)),
    "sphere": st.tuples(st.integers(1, 8).map(lambda h: 2 * h)),
}
GENERAL = [spec for spec in algorithm_specs() if ALGORITHMS[spec.partition(":")[0]].grid_kinds is None
           and not spec.endswith(":weave")]


def asymmetric(grid) -> int:
    """The neighbour entries whose way back does not lead back, a cell its own neighbour, or a
    cell reaching one neighbour twice."""
    bad = 0
    for cell in range(grid.size):
        seen = []
        for d, other in enumerate(grid.neighbors[cell].tolist()):
            if other < 0:
                continue
            bad += other == cell or other in seen
            bad += int(grid.neighbors[other, grid.opposite[d]]) != cell
            seen.append(other)
    return bad


@pytest.mark.parametrize("kind", SURFACE_KINDS)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_every_seam_is_symmetric(kind, data):
    grid = GRID_KINDS[kind](*data.draw(SHAPES[kind]))
    assert asymmetric(grid) == 0
    assert (grid.opposite[grid.opposite] == np.arange(grid.degree)).all()


def wrapped_reference(rows, cols, across, down, flip):
    """A wrapped square grid's table, cell by cell from its definition."""
    table = []
    for r in range(rows):
        for c in range(cols):
            north = (r - 1, c) if r > 0 else ((rows - 1, c) if down else None)
            south = (r + 1, c) if r < rows - 1 else ((0, c) if down else None)
            east = (r, c + 1) if c < cols - 1 else (((rows - 1 - r) if flip else r, 0)
                                                    if across else None)
            west = (r, c - 1) if c > 0 else (((rows - 1 - r) if flip else r, cols - 1)
                                             if across else None)
            table.append([-1 if t is None else t[0] * cols + t[1]
                          for t in (north, east, south, west)])
    return np.array(table)


@pytest.mark.parametrize("kind, across, down, flip", [
    ("cylinder", True, False, False), ("torus", True, True, False), ("moebius", True, False, True)])
@given(rows=st.integers(3, 9), cols=st.integers(3, 9))
def test_wrapped_grids_match_their_definitions(kind, across, down, flip, rows, cols):
    grid = GRID_KINDS[kind](rows, cols)
    assert (grid.neighbors == wrapped_reference(rows, cols, across, down, flip)).all()


@given(n=st.integers(1, 7))
def test_the_cubes_neighbours_are_the_cells_a_cell_side_away_on_the_surface(n):
    """Neighbours by the table are exactly the pairs of cells whose centres are one cell apart
    on a face (2/n) or round an edge (sqrt(2)/n); every cell has four; each face's frame is
    right-handed seen from outside."""
    grid = GRID_KINDS["cube"](n)
    centres = cube_centres(n)
    distance = np.linalg.norm(centres[:, None] - centres[None], axis=2) * n
    face = np.arange(grid.size) // (n * n)
    same = face[:, None] == face[None]
    near = (same & np.isclose(distance, 2)) | (~same & np.isclose(distance, math.sqrt(2)))
    table = np.zeros_like(near)
    for cell, row in enumerate(grid.neighbors.tolist()):
        table[cell, [o for o in row if o >= 0]] = True
    assert (table == near).all()
    assert ((grid.neighbors >= 0).sum(axis=1) == 4).all()
    for face, (north, east) in enumerate(FRAMES):
        assert (np.cross(east, north) == FACES[face]).all()


def test_the_cubes_seams_use_their_own_directions_only_where_sides_do_not_pair():
    grid = GRID_KINDS["cube"](3)
    used = {grid.directions[d] for d in np.flatnonzero((grid.neighbors >= 0).any(axis=0))}
    assert used == set(grid.directions)  # every direction is some seam's


@given(h=st.integers(1, 40))
def test_the_sphere_splits_its_rings_by_latitude(h):
    """Each ring as many cells as the one nearer its pole, or twice as many when those would be
    more than twice as wide as high at its latitude; the hemispheres mirror; the equator's
    cells meet one to one at the same longitude."""
    counts = hemisphere_counts(h)
    assert counts[0] == 4
    for r in range(1, h):
        width = 4 * h * math.sin(math.pi / 2 * (r + 0.5) / h) / counts[r - 1]
        assert counts[r] == (2 if width > 2 else 1) * counts[r - 1]
    rings = sphere_ring_counts(2 * h)
    assert (rings == rings[::-1]).all()
    grid = GRID_KINDS["sphere"](2 * h)
    across = grid.neighbors[:, grid.direction("across")]
    half = grid.size // 2
    rim = int(counts[-1])
    north_rim = np.arange(half - rim, half)
    assert (across[north_rim] == (2 * half - 1 - (north_rim - (half - rim)))).all()
    assert (across >= 0).sum() == 2 * rim


@pytest.mark.parametrize("kind", SURFACE_KINDS)
@pytest.mark.parametrize("spec", GENERAL)
@settings(max_examples=6, deadline=None)
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_every_algorithm_carves_a_spanning_tree_on_every_surface(kind, spec, data, seed):
    grid = GRID_KINDS[kind](*data.draw(SHAPES[kind]))
    assert_spanning_tree(bm.generate(grid, algorithm=spec, rng=seed))


@pytest.mark.parametrize("kind", SURFACE_KINDS)
@settings(max_examples=10, deadline=None)
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_masked_surfaces_carve_their_largest_region_and_round_trip(kind, data, seed):
    from blockmaze.mazes.masks import mask_shape

    shape = data.draw(SHAPES[kind])
    rng = np.random.default_rng(seed)
    mask = rng.random(mask_shape(kind, shape)) < 0.8
    if not mask.any():
        mask.flat[0] = True
    grid = bm.masked_grid(kind, shape, mask, split=True)[0]
    maze = bm.generate(grid, rng=seed)
    assert_spanning_tree(maze)
    document = MazeDocument(maze, place_endpoints(maze), "backtracker", seed)
    saved = io.BytesIO()
    save_maze(document, saved)
    assert load_maze(io.BytesIO(saved.getvalue())) == document


@pytest.mark.parametrize("kind, shape, says", [
    ("cylinder", (4, 2), "at least 3 columns"), ("torus", (2, 5), "at least 3 rows"),
    ("moebius", (3, 1), "at least 3 columns"), ("cube", (0,), "1 to 20000"),
    ("sphere", (5,), "even number of rings"), ("sphere", (0,), "even number of rings")])
def test_a_surface_too_small_to_close_is_refused_in_one_line(kind, shape, says):
    with pytest.raises(BlockmazeError, match=says):
        GRID_KINDS[kind](*shape)


def test_a_braided_surface_maze_has_loops_and_its_solution_walks_its_passages():
    from blockmaze.pipeline import make_maze

    document = make_maze((6, 6), kind="torus", seed=3, braid=1.0)
    maze, ends = document.maze, document.endpoints
    assert not maze.is_perfect() and len(maze.dead_ends) == 0
    path = bm.solve(maze, start=ends.start, goal=ends.goal).path
    assert all(maze.links[a, list(maze.grid.neighbors[a]).index(b)]
               for a, b in zip(path[:-1], path[1:], strict=False))


@pytest.mark.parametrize("kind, shape", [("torus", (5, 6)), ("cube", (3,)), ("sphere", (6,)),
                                         ("moebius", (4, 5)), ("cylinder", (4, 5))])
def test_info_reads_a_surface_mazes_document_and_measures_it(tmp_path, capsys, kind, shape):
    from blockmaze.cli import main
    from blockmaze.pipeline import make_maze

    path = tmp_path / "m.json"
    document = make_maze(shape, kind=kind, seed=2)
    save_maze(document, path)
    assert main(["info", str(path), "--analysis", "--json"]) == 0
    import json

    facts = json.loads(capsys.readouterr().out)
    text = json.dumps(facts)
    assert kind in text and facts["analysis"]["perfect"] is True, facts
    assert facts["analysis"]["dead_ends"] == len(document.maze.dead_ends)


@pytest.mark.parametrize("output", ["m.schem", "m.glb", "m.tmx", "m.nbt", "m.pieces.json", None])
def test_blocks_meshes_and_tile_maps_of_a_surface_maze_are_refused_in_one_line(tmp_path, capsys,
                                                                              output):
    from blockmaze.cli import main
    from blockmaze.pipeline import make_maze

    path = tmp_path / "m.json"
    save_maze(make_maze((4, 5), kind="torus", seed=2), path)
    args = ["export", str(path)] + ([] if output is None else ["-o", str(tmp_path / output)])
    assert main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "lies on a surface" in err[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.json"]
    assert main(["generate", "-g", "cube", "4"] + ([] if output is None else
                                                   ["-o", str(tmp_path / output)])) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.json"]


@pytest.mark.parametrize("kind, size", [("cylinder", "5x9"), ("torus", "6x6"), ("moebius", "4x9"),
                                        ("cube", "4"), ("sphere", "8")])
def test_generate_draws_a_surface_mazes_net(tmp_path, capsys, kind, size):
    """The command takes -g for each surface: a picture of its net (walls on both sides of each
    cut, the solution drawn to the cut and on from the other side) and its document."""
    from PIL import Image

    from blockmaze.cli import main

    for name in ("m.png", "m.svg", "m.json"):
        assert main(["generate", "-g", kind, size, "-s", "3", "--solution", "-o",
                     str(tmp_path / name)]) == 0
    with Image.open(tmp_path / "m.png") as picture:
        assert picture.size[0] > 20 and picture.size[1] > 20
    assert load_maze(tmp_path / "m.json").maze.grid.kind == kind
    assert "<path" in (tmp_path / "m.svg").read_text()


def test_entrances_open_a_cylinders_edges_and_a_closed_surface_has_none():
    maze = bm.generate(bm.cylinder_grid(5, 6), rng=1)
    ends = place_endpoints(maze, "entrances")
    for cell, direction in ends.openings:
        assert maze.grid.directions[direction] in ("north", "south")
        assert maze.grid.neighbors[cell, direction] < 0
    for grid in (bm.torus_grid(4, 4), bm.cube_grid(2), bm.sphere_grid(4)):
        with pytest.raises(BlockmazeError, match="no cell on an outer wall"):
            place_endpoints(bm.generate(grid, rng=1), "entrances")


@pytest.mark.parametrize("kind", SURFACE_KINDS)
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_each_net_is_cut_only_along_its_seams(kind, data):
    """In a surface's net every cell is a clockwise polygon; a side that is no seam is the
    neighbour's side across it, edge for edge, and a seam's neighbour lies elsewhere; each
    seam's way back is a seam too."""
    from blockmaze.grids.geometry import cell_shapes

    grid = GRID_KINDS[kind](*data.draw(SHAPES[kind]))
    shapes = cell_shapes(grid)
    assert (shapes.areas() > 0).all()
    edges = {}
    for cell in range(grid.size):
        polygon = np.round(shapes.polygon(cell), 6)
        for j in range(shapes.counts[cell]):
            a, b = tuple(polygon[j]), tuple(polygon[(j + 1) % shapes.counts[cell]])
            edges[(a, b)] = (cell, j)
    for (a, b), (cell, j) in edges.items():
        side = int(shapes.sides[cell, j])
        other = int(grid.neighbors[cell, side])
        seam = bool(shapes.seams[cell, j])
        mate = edges.get((b, a))
        if other < 0:
            assert mate is None and not seam
        elif seam:
            assert mate is None or mate[0] != other
            back = shapes.sides[other] == grid.opposite[side]
            assert shapes.seams[other][back].all() and back.any()
        else:
            assert mate is not None and mate[0] == other, (cell, j, side)


@pytest.mark.parametrize("kind", SURFACE_KINDS)
@settings(max_examples=8, deadline=None)
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_a_net_draws_a_wall_on_each_side_of_a_walled_cut_and_none_on_a_passage(kind, data, seed):
    from blockmaze.export.picture_scene import _Builder

    maze = bm.generate(GRID_KINDS[kind](*data.draw(SHAPES[kind])), rng=seed)
    builder = _Builder(maze, "walls", 10, None, None, False, None, [])
    walls = builder.wall_mask()
    cells, edges = np.nonzero(builder.seam)
    for cell, j in zip(cells.tolist(), edges.tolist(), strict=True):
        assert walls[cell, j] == (not maze.links[cell, builder.sides[cell, j]])
    ends = place_endpoints(maze)
    builder.endpoints, builder.solution = ends, True
    pieces = builder.solution_pieces()
    assert np.concatenate(pieces).tolist() == maze.shortest_path(ends.start, ends.goal).tolist()
    came, leaves = builder.seam_ends(pieces)
    assert sum(p is not None for p in came) == sum(p is not None for p in leaves) == len(pieces) - 1
