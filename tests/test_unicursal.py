"""Unicursal mazes (issue 41): a perfect maze of any kind with a flat plan split into one path
with no junction through every cell, on a square grid, its two ends side by side on the outer
wall.

The path is checked by an independent walk (``walk_one_path``: from the start, follow the only
way on; every enabled cell met once, every cell one or two passages, the two with one the start
and the goal), and the outer wall by the grid's rows and columns, not by blockmaze's analysis.
"""

from __future__ import annotations

import io
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.ndimage import label as flood

import blockmaze as bm
from blockmaze import writing
from blockmaze import pipeline
from blockmaze.algorithms import ALGORITHMS
from blockmaze.blocks.raster import OUTSIDE_LABEL, min_scale
from blockmaze.blocks.unicursal import (UNICURSAL_KINDS, block_maze, split, unicursal,
                                        unicursal_endpoints, unicursal_ends)
from blockmaze.materials import SOLID
from test_labyrinths import run_cli, walk_one_path

KINDS = ("square", "hex", "triangle", "upsilon", "polar")
RASTERIZED = KINDS[1:]
NORTH, EAST, SOUTH, WEST = range(4)
ALGORITHMS_OF = {kind: sorted(a.name for a in ALGORITHMS.values()
                              if a.grid_kinds is None or kind in a.grid_kinds) for kind in KINDS}
UNMASKED_ONLY = {a.name for a in ALGORITHMS.values() if a.needs_unmasked}


def connected_mask(rng: np.random.Generator, rows: int, cols: int) -> np.ndarray:
    """A random mask, kept to the part joined to its first enabled cell (a perfect maze needs
    every enabled cell reachable)."""
    mask = rng.random((rows, cols)) < 0.8
    mask.flat[int(rng.integers(rows * cols))] = True
    grid = bm.square_grid(rows, cols, mask=mask)
    first = int(np.flatnonzero(grid.enabled)[0])
    seen, frontier = {first}, [first]
    while frontier:
        cell = frontier.pop()
        for nb in grid.neighbors[cell]:
            if nb >= 0 and int(nb) not in seen:
                seen.add(int(nb))
                frontier.append(int(nb))
    kept = np.zeros(rows * cols, dtype=bool)
    kept[list(seen)] = True
    return kept.reshape(rows, cols)


def on_the_edge(grid, cell: int, side: int) -> bool:
    """Whether ``side`` of square ``cell`` is the grid's outer edge (its first or last row or
    column)."""
    rows, cols = grid.shape
    r, c = divmod(cell, cols)
    return {NORTH: r == 0, SOUTH: r == rows - 1, WEST: c == 0, EAST: c == cols - 1}[side]


def quarters(cells: np.ndarray, cols: int) -> np.ndarray:
    """The four cells of the split grid (twice ``cols`` wide) that square cells ``cells`` became."""
    r, c = np.divmod(cells, cols)
    return np.concatenate([(2 * r + dr) * 2 * cols + 2 * c + dc
                           for dr in (0, 1) for dc in (0, 1)])


def check_unicursal(algorithm: str, seed: int, grid, scale: int | None, mask=None) -> None:
    """Every promise of ``unicursal`` for the perfect maze ``algorithm`` carves on ``grid`` (a
    square grid's ``mask`` applied) from ``seed``."""
    perfect = bm.generate(grid, algorithm, rng=seed)
    maze = unicursal(perfect, scale)
    assert maze.grid.kind == "square"
    start, goal = unicursal_ends(maze)
    walk_one_path(maze, start, goal)  # one path, no junction, no dead end but its ends
    assert maze.is_perfect()
    # the ends: side by side, each with an opening on the outer wall (a square maze with no
    # enabled cell on its edge has none)
    assert goal - start in (1, maze.grid.shape[1])
    ends = unicursal_endpoints(maze, entrances=True)
    assert (ends.start, ends.goal) == (start, goal)
    assert [cell for cell, _ in ends.openings] in ([start, goal], [])
    assert all(on_the_edge(maze.grid, cell, side) for cell, side in ends.openings)
    assert len({side for _, side in ends.openings}) <= 1
    if grid.kind == "square":
        rows, cols = grid.shape
        edge = np.zeros((rows, cols), dtype=bool)
        edge[[0, -1], :] = edge[:, [0, -1]] = True
        assert bool(ends.openings) == bool((grid.enabled.reshape(rows, cols) & edge).any())
        # every cell of the maze is on the path: its four quarters, nothing else
        assert maze.grid.shape == (2 * rows, 2 * cols)
        expected = np.zeros(maze.grid.size, dtype=bool)
        expected[quarters(np.flatnonzero(grid.enabled), cols)] = True
        assert np.array_equal(maze.grid.enabled, expected)
    else:
        assert len(ends.openings) == 2
        drawn = block_maze(perfect, scale)
        assert split(drawn.maze, drawn.entrance) == maze
        # every cell of the maze is on the path: its anchor block's four quarters
        anchors = drawn.cells[grid.enabled]
        assert (drawn.labels[anchors] == np.flatnonzero(grid.enabled)).all()
        assert maze.grid.enabled[quarters(anchors, drawn.maze.grid.shape[1])].all()
        # the drawn tree steps from one cell's blocks to another's only where they are linked
        # (or out through the entrance's opening)
        i, d = np.nonzero(drawn.maze.links)
        a, b = drawn.labels[i], drawn.labels[drawn.maze.grid.neighbors[i, d]]
        linked = {(int(x), int(grid.neighbors[x, k])) for x, k in zip(*np.nonzero(perfect.links),
                                                                        strict=True)}
        first = drawn.labels[drawn.entrance[0]]
        assert first == OUTSIDE_LABEL
        for x, y in zip(a.tolist(), b.tolist(), strict=True):
            assert x == y or (x, y) in linked or OUTSIDE_LABEL in (x, y), (x, y)
    # the pipeline makes the same maze with those endpoints
    doc = pipeline.make_maze(grid.shape, grid.kind, algorithm, seed, entrances=True, mask=mask,
                             unicursal=True, scale=scale)
    assert doc.maze == maze and doc.endpoints == ends


def shape_of(kind: str, rows: int, cols: int) -> tuple[int, ...]:
    return (rows,) if kind == "polar" else (rows, cols)


def one_case(kind, rows, cols, seed, pick, masked, extra):
    if kind == "triangle" and cols == 1 and rows > 2:
        cols = 2  # (a single column of more than two triangles falls apart)
    algorithm = ALGORITHMS_OF[kind][pick % len(ALGORITHMS_OF[kind])]
    mask = None
    if kind == "square" and masked and algorithm not in UNMASKED_ONLY:
        mask = connected_mask(np.random.default_rng(seed), rows, cols)
    grid = bm.masked_grid(kind, shape_of(kind, rows, cols), mask) if mask is not None \
        else bm.make_grid(shape_of(kind, rows, cols), kind)
    scale = None if extra == 0 or kind == "square" else min_scale(kind) + extra
    check_unicursal(algorithm, seed, grid, scale, mask)


CASES = dict(kind=st.sampled_from(KINDS), rows=st.integers(1, 8), cols=st.integers(1, 8),
             seed=st.integers(0, 2 ** 32), pick=st.integers(0, 100), masked=st.booleans(),
             extra=st.sampled_from((0, 0, 1, 2)))


@settings(max_examples=60, deadline=None)
@given(**CASES)
def test_a_unicursal_maze_of_any_kind_is_one_path_through_every_cell(kind, rows, cols, seed,
                                                                      pick, masked, extra):
    one_case(kind, rows, cols, seed, pick, masked, extra)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(**CASES)
def test_many_unicursal_mazes_of_every_kind(kind, rows, cols, seed, pick, masked, extra):
    one_case(kind, rows, cols, seed, pick, masked, extra)


@settings(max_examples=100, deadline=None)
@given(rows=st.integers(1, 24), cols=st.integers(1, 24), seed=st.integers(0, 2 ** 32),
       pick=st.integers(0, 100), masked=st.booleans())
def test_a_square_unicursal_maze_is_one_path_at_larger_sizes(rows, cols, seed, pick, masked):
    one_case("square", rows, cols, seed, pick, masked, 0)


def test_a_square_maze_is_cut_at_its_first_cells_north_side():
    """The square split as it always was: both ends in the first enabled cell, north."""
    maze = unicursal(bm.generate((5, 7), rng=3))
    assert unicursal_ends(maze) == (0, 1)
    assert unicursal_endpoints(maze, True).openings == ((0, NORTH), (1, NORTH))
    # row 0 masked off: the first cell on the outer wall, on its west side
    mask = np.ones((3, 3), dtype=bool)
    mask[0] = False
    maze = unicursal(bm.generate(bm.square_grid(3, 3, mask=mask), rng=1))
    assert unicursal_ends(maze) == (12, 18)
    assert unicursal_endpoints(maze, True).openings == ((12, WEST), (18, WEST))


def test_unicursal_refuses_a_maze_with_loops_and_is_reproducible():
    for kind in KINDS:
        shape = shape_of(kind, 4, 4)
        with pytest.raises(bm.BlockmazeError, match="perfect maze"):
            unicursal(bm.braid(bm.generate(shape, rng=1, kind=kind), 1.0, rng=1))
        assert unicursal(bm.generate(shape, rng=5, kind=kind)) == \
            unicursal(bm.generate(shape, rng=5, kind=kind))
    for kind, shape in (("layered", (2, 2, 2)), ("weave", (3, 3))):
        with pytest.raises(bm.BlockmazeError, match=f"a {kind} maze's .* no one plan to split"):
            unicursal(bm.generate(shape, kind=kind, rng=1))
    with pytest.raises(bm.BlockmazeError, match="scale 2 is too small"):
        unicursal(bm.generate((3, 3), kind="hex", rng=1), scale=2)


def test_the_commands_table_names_the_kinds_that_split():
    """commands.py keeps the kinds as a static table (no import of the split for --help)."""
    from blockmaze.commands import UNICURSAL

    assert UNICURSAL == set(UNICURSAL_KINDS) == set(KINDS)


def open_path(plan: np.ndarray):
    """The open blocks of a plan, its openings (open blocks on the border), and each open
    block's count of open side neighbours."""
    open_ = ~SOLID[plan]
    border = np.zeros(plan.shape, dtype=bool)
    border[[0, -1], :] = border[:, [0, -1]] = True
    padded = np.pad(open_, 1)
    neighbours = (padded[:-2, 1:-1].astype(int) + padded[2:, 1:-1] + padded[1:-1, :-2]
                  + padded[1:-1, 2:])
    return open_, np.argwhere(open_ & border), neighbours


@pytest.mark.parametrize("kind", RASTERIZED)
def test_the_built_plan_is_one_corridor_from_one_opening_to_the_other(kind):
    """The 2n+1 plan of a unicursal maze: its open blocks are one 1-block-wide path between
    the two openings in the outer wall (a flood from one reaches the other and every open
    block; every block but the two ends has two open neighbours)."""
    doc = pipeline.make_maze(shape_of(kind, 6, 7), kind, seed=11, entrances=True, unicursal=True)
    plan = pipeline.maze_blocks(doc.maze, doc.endpoints)
    open_, openings, neighbours = open_path(plan)
    assert len(openings) == 2
    regions, count = flood(open_)  # side neighbours only
    assert count == 1
    (za, xa), (zb, xb) = openings
    assert regions[za, xa] == regions[zb, xb] == 1
    assert (neighbours[open_] == 2).sum() == open_.sum() - 2
    assert neighbours[za, xa] == neighbours[zb, xb] == 1
    # side by side: the two openings two blocks apart along the same outer wall
    assert abs(int(za) - int(zb)) + abs(int(xa) - int(xb)) == 2


@pytest.mark.parametrize("kind, size", [("hex", "8x8"), ("triangle", "8x8"), ("upsilon", "8x8"),
                                        ("polar", "8")])
def test_the_command_writes_every_kind_split(capsys, tmp_path, kind, size):
    out = tmp_path / f"{kind}.schem"
    code, _, err = run_cli(capsys, "generate", size, "-g", kind, "--unicursal", "--entrances",
                           "--seed", "3", "-o", str(out))
    assert code == 0, err
    assert "Warning" not in err
    # the report names the maze asked for, then the one path it became
    assert f"wrote {out}: {kind} {size} {'rings' if kind == 'polar' else 'cells'} split into " \
           "one path (square " in err
    # the command's bytes are the library's
    doc = pipeline.make_maze(pipeline.grid_shape(kind, tuple(map(int, size.split("x")))), kind,
                             seed=3, entrances=True, unicursal=True)
    again = io.BytesIO()
    writing.save(doc, again, format="schem", seed=3)
    assert out.read_bytes() == again.getvalue()


@pytest.mark.parametrize("suffix", ["png", "schem", "tmx", "glb", "json", "svg"])
def test_the_command_writes_a_split_hex_maze_in_every_family(capsys, tmp_path, suffix):
    out = tmp_path / f"x.{suffix}"
    code, _, err = run_cli(capsys, "generate", "8x8", "-g", "hex", "--unicursal", "--seed", "2",
                           "-o", str(out))
    assert code == 0, err
    assert out.stat().st_size > 0
    if suffix == "json":  # a maze document: the split maze, square, with its two ends
        loaded = bm.load_maze(out)
        assert loaded.maze.grid.kind == "square"
        assert (loaded.endpoints.start, loaded.endpoints.goal) == unicursal_ends(loaded.maze)


@pytest.mark.parametrize("args, message", [
    (["generate", "5", "-g", "layered", "--unicursal"], "a layered maze's levels"),
    (["generate", "5", "-g", "weave", "--unicursal"], "a weave maze's crossings"),
    (["generate", "5", "-g", "hex", "--unicursal", "--braid", "0.5"], "drop --braid"),
    (["generate", "5", "--unicursal", "--braid", "0.5"], "drop --braid"),
    (["generate", "5", "-g", "hex", "--unicursal", "--scale", "2", "-o", "x.png"],
     "needs --scale 3 or more"),
    (["generate", "-g", "labyrinth", "--unicursal"], "unicursal already"),
])
def test_the_command_refuses_in_one_line(capsys, args, message):
    code, _, err = run_cli(capsys, *args)
    assert code == 2 and message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_scale_wall_and_passage_apply_to_a_split_hex_maze(capsys, tmp_path):
    """--scale draws the corridors that are split (in every output), --wall and --passage the
    square maze that comes out; an option for neither still warns."""
    code, small, err = run_cli(capsys, "generate", "3", "-g", "hex", "--unicursal", "--seed", "1")
    assert code == 0 and "Warning" not in err
    code, large, err = run_cli(capsys, "generate", "3", "-g", "hex", "--unicursal", "--seed", "1",
                               "--scale", "5")
    assert code == 0 and "Warning" not in err and large.count("\n") > small.count("\n")
    code, _, err = run_cli(capsys, "generate", "3", "-g", "hex", "--unicursal", "--seed", "1",
                           "--scale", "4", "--wall", "2", "--passage", "2", "--bridges", "-o",
                           str(tmp_path / "m.schem"))
    assert code == 0
    assert err.count("Warning") == 1 and "--bridges does not apply to hex mazes" in err
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        doc = pipeline.make_maze((3, 3), "hex", seed=1, unicursal=True, scale=4)
    assert doc.maze == unicursal(bm.generate((3, 3), kind="hex", rng=1), scale=4)


def test_the_studio_counts_the_cells_of_a_split_maze():
    from blockmaze.commands import make_job
    from blockmaze.web.jobs import Limits, RequestError, check_limits

    check_limits(make_job("generate", size=(100, 100), kind="hex"), Limits())
    for kind in ("hex", "square"):
        with pytest.raises(RequestError, match="this studio makes at most"):
            check_limits(make_job("generate", size=(300, 300), kind=kind, unicursal=True),
                         Limits())
    with pytest.raises(RequestError, match="this studio makes at most"):
        check_limits(make_job("generate", size=(100, 100), kind="hex", unicursal=True), Limits())


def test_a_unicursal_maze_too_large_for_the_format_is_refused_before_any_work(tmp_path, capsys):
    """Its size is the split maze's: 20000x20000 cells become 40000x40000, 80001 blocks a side."""
    from blockmaze.cli import main

    out = tmp_path / "m.schem"
    assert main(["generate", "20000x20000", "--unicursal", "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "80001" in err[0] and "65535" in err[0]
    assert not out.exists()
