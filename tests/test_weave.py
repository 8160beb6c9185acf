"""Weave mazes: the grid model, every algorithm on it, pictures, text and blocks."""

from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from blockmaze import generate
from blockmaze.algorithms import ALGORITHMS, algorithm_specs
from blockmaze.mazes.documents import load_maze
from blockmaze.export.maze_document import save_maze
from blockmaze.errors import BlockmazeError
from blockmaze.grids import square_grid
from blockmaze.grids.weave import OVER_EAST_WEST, place_crossings, weave_grid
from blockmaze.pipeline import make_maze

ANY_GRID = [spec for spec in algorithm_specs()
            if ALGORITHMS[spec.partition(":")[0]].grid_kinds is None]


@pytest.mark.slow
@pytest.mark.parametrize("spec", ANY_GRID)
@settings(max_examples=12, deadline=None)
@given(rows=st.integers(1, 14), cols=st.integers(1, 14), seed=st.integers(0, 2**32),
       chance=st.sampled_from([0.0, 0.3, 1.0]))
def test_every_algorithm_weaves_a_perfect_maze(spec, rows, cols, seed, chance):
    document = make_maze((rows, cols), "weave", spec, seed=seed, weave=chance)
    maze = document.maze
    assert maze.is_perfect()
    grid = maze.grid
    used = grid.used_crossings(maze.links)
    for cell, _before, _after in used:  # the passage on top of a used crossing runs straight
        over = (1, 3) if grid.crossings[cell] == OVER_EAST_WEST else (0, 2)
        assert maze.links[cell, list(over)].any() and not maze.links[cell].sum() > 2


def test_no_crossings_is_the_square_maze():
    weave = make_maze((9, 11), "weave", "backtracker", seed=5, weave=0)
    square = make_maze((9, 11), "square", "backtracker", seed=5)
    assert np.array_equal(weave.maze.links, square.maze.links)
    assert np.array_equal(weave.maze.grid.neighbors, square.maze.grid.neighbors)


@settings(max_examples=30, deadline=None)
@given(rows=st.integers(3, 30), cols=st.integers(3, 30), seed=st.integers(0, 2**32))
def test_crossings_keep_the_grid_connected_and_symmetric(rows, cols, seed):
    grid = place_crossings(square_grid(rows, cols), 1.0, np.random.default_rng(seed))
    n = grid.neighbors
    cells, dirs = np.nonzero(n >= 0)
    assert (n[n[cells, dirs], grid.opposite[dirs]] == cells).all()
    from blockmaze.algorithms.common import region_kernel
    assert region_kernel(n, 0)[1] == grid.size


@pytest.mark.slow
def test_kruskal_weave_lays_most_crossings():
    plain = make_maze((40, 40), "weave", "kruskal", seed=2, weave=1.0).maze
    woven = make_maze((40, 40), "weave", "kruskal:weave", seed=2, weave=1.0).maze

    def count(m):
        return len(m.grid.used_crossings(m.links))

    assert woven.is_perfect()
    assert count(woven) > 0.9 * (woven.grid.crossings > 0).sum() > count(plain)


def test_document_keeps_the_crossings():
    document = make_maze((8, 9), "weave", "wilson", seed=4, weave=0.8)
    buffer = io.BytesIO()
    save_maze(document, buffer)
    buffer.seek(0)
    loaded = load_maze(buffer)
    assert loaded.maze == document.maze
    assert np.array_equal(loaded.maze.grid.crossings, document.maze.grid.crossings)


def test_bad_crossings_and_options_are_refused():
    crossings = np.zeros(9, np.int8)
    crossings[0] = 1
    with pytest.raises(BlockmazeError, match="crossing cell 0"):
        weave_grid(3, 3, crossings=crossings)
    with pytest.raises(BlockmazeError, match="weave makes crossings on a weave grid"):
        make_maze((5, 5), "square", weave=0.5)
    with pytest.raises(BlockmazeError, match="from 0 to 1"):
        make_maze((5, 5), "weave", weave=1.5)


def test_the_weave_drawings_refuse_a_maze_of_another_grid():
    """What reads a weave grid's crossings takes a weave maze only: another is one clear error
    (no AttributeError from a grid that has no crossings)."""
    from blockmaze.blocks.weave import over_maze, weave_volume
    from blockmaze.export.weave_picture import inset_walls
    from blockmaze.render.text import weave_text

    square = generate(square_grid(3, 3), rng=1)
    for draw in (over_maze, weave_volume, inset_walls, weave_text):
        with pytest.raises(BlockmazeError, match="needs a weave maze, not a square one"):
            draw(square)


# -- blocks: a player's body (2 blocks tall) walks the volume ---------------------------------

from blockmaze.materials import Material  # noqa: E402
from blockmaze.pipeline import build  # noqa: E402

STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))
MARKED = (Material.PATH, Material.START, Material.GOAL)


def moves(volume, stand, falls):
    """Pairs of positions (flat indices) a player moves between: level, and one block down and
    back up only onto a stair, from a block with 3 of room (the head rises with the step before
    the feet leave the lower block). With ``falls``, also what a player could do to leak: step off
    into the open and fall, or jump one block up where the room above the head allows it."""
    air = volume == Material.AIR
    body = air & np.roll(air, -1, axis=0)
    body[-1] = False
    shape = stand.shape
    index = np.arange(stand.size).reshape(shape)
    pairs = []

    def shifted(a, b, dy, dz, dx):
        src, dst = [], []
        for axis, d in ((0, dy), (1, dz), (2, dx)):
            src.append(slice(max(0, -d), shape[axis] - max(0, d)))
            dst.append(slice(max(0, d), shape[axis] - max(0, -d)))
        ok = a[tuple(src)] & b[tuple(dst)]
        pairs.append(np.stack([index[tuple(src)][ok], index[tuple(dst)][ok]], axis=1))

    for dz, dx in STEPS:
        shifted(stand, stand, 0, dz, dx)
        rise = np.zeros_like(air)  # where a rise starts: a third block of room, for the head
        rise[:-2] = air[2:]
        shifted(stand & (below(volume) == Material.STAIRS), stand & rise, -1, dz, dx)
        if falls:
            shifted(stand, body, 0, dz, dx)  # into the open beside
            room = stand & np.roll(air, -2, axis=0)
            room[-2:] = False
            shifted(room, stand, 1, dz, dx)  # a jump one block up
    if falls:
        shifted(body & ~stand, body, -1, 0, 0)  # falling
    return np.concatenate(pairs)


def below(volume):
    """The block under each block (rock under the volume)."""
    out = np.full(volume.shape, Material.WALL, dtype=np.uint8)
    out[1:] = volume[:-1]
    return out


def standable(volume):
    """Where a player's feet can be: air at the feet and head, something under the feet."""
    air = volume == Material.AIR
    head = np.zeros_like(air)
    head[:-1] = air[1:]
    return air & head & (below(volume) != Material.AIR)


def owners(volume, maze, wall, passage):
    """Per stand position: a node id. Cells are 0..n-1; the way under crossing c is n + c; a
    wall run between cells (or at the edge) and a corner get their own ids above 2n."""
    (wz, wx), (pz, px) = wall, passage
    rows, cols = maze.grid.shape
    y, z, x = np.indices(volume.shape)

    def split(v, w, p):
        q, rest = np.divmod(v, w + p)
        return q, rest >= w  # cell index, inside a cell's run (else a wall run before cell q)

    r, in_r = split(z, wz, pz)
    c, in_c = split(x, wx, px)
    n = maze.grid.size
    cell = r * cols + c
    node = 2 * n + (r * (cols + 1) + c) * 4 + in_r * 2 + in_c  # wall runs and corners
    inside = in_r & in_c
    used = maze.grid.used_crossings(maze.links)[:, 0]
    tunnel = inside & (y < 4) & np.isin(cell, used)  # the way under: below the bridge's feet
    node = np.where(inside, np.where(tunnel, n + cell, cell), node)
    return node.ravel()


def cell_graph(volume, maze, wall, passage, falls):
    """The cell pairs a player walks between: through positions that belong to no cell (wall
    runs, tunnels), each such way traced block by block (connected components of the moves)."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    stand = standable(volume)
    pairs = moves(volume, stand, falls)
    node = owners(volume, maze, wall, passage)
    n = maze.grid.size
    a, b = node[pairs[:, 0]], node[pairs[:, 1]]
    touching = {(int(min(u, v)), int(max(u, v))) for u, v in zip(a, b, strict=True) if u != v and u < n and v < n}
    between = (a >= n) & (b >= n)  # moves among the ways between cells
    graph = coo_matrix((np.ones(between.sum()), (pairs[between, 0], pairs[between, 1])),
                       shape=(stand.size, stand.size))
    _, way = connected_components(graph, directed=False)
    cells_of = {}
    for u, v, p, q in zip(a.tolist(), b.tolist(), pairs[:, 0].tolist(), pairs[:, 1].tolist(),
                          strict=True):
        if (u < n) != (v < n):
            cells_of.setdefault(int(way[q if u < n else p]), set()).add(u if u < n else v)
    for cells in cells_of.values():
        cells = sorted(cells)
        touching.update((p, q) for i, p in enumerate(cells) for q in cells[i + 1:])
    return touching


def maze_pairs(maze):
    cells, dirs = np.nonzero(maze.links)
    other = maze.grid.neighbors[cells, dirs]
    return {(int(min(p, q)), int(max(p, q))) for p, q in zip(cells, other, strict=True)}


@pytest.mark.parametrize("wall, passage, height, roof, lights, bridges", [
    ((4, 4), (1, 1), 3, False, False, False), ((5, 4), (2, 1), 2, True, True, False),
    ((4, 6), (1, 3), 4, True, False, False), ((3, 3), (1, 1), 5, False, False, True),
    ((3, 4), (2, 1), 6, True, True, True)])
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32), spec=st.sampled_from(["kruskal:weave", "backtracker", "wilson"]))
def test_walkable_regions_are_the_maze(wall, passage, height, roof, lights, bridges, seed, spec):
    """Tunnels (or bridges): the cells a player walks between are the maze's links, and no
    fall or jump joins two others (the crossing's way on top is level 4 and up, the way under
    below it, in both styles)."""
    maze = make_maze((6, 7), "weave", spec, seed=seed, weave=1.0).maze
    volume = build(maze, wall=wall, passage=passage, height=height, roof=roof, lights=lights,
                   bridges=bridges)
    if lights and not bridges:
        assert (volume[0] == Material.LIGHT).any() == bool(len(maze.grid.used_crossings(maze.links)))
    expected = maze_pairs(maze)
    assert cell_graph(volume, maze, wall, passage, falls=False) == expected  # every way walks
    assert cell_graph(volume, maze, wall, passage, falls=True) == expected  # no fall leaks


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32))
@pytest.mark.parametrize("bridges", [False, True])
def test_marked_solution_is_continuous_in_3d(seed, bridges):
    document = make_maze((7, 7), "weave", "kruskal:weave", seed=seed, weave=1.0)
    maze, ends = document.maze, document.endpoints
    volume = build(maze, ends, solution=True, wall=4, height=5,  # (lights may replace a mark)
                   bridges=bridges)
    stand = standable(volume)
    on_path = stand & np.isin(below(volume), MARKED + (Material.STAIRS,))
    pairs = moves(volume, on_path, falls=False)
    parent = np.arange(stand.size)

    def find(v):
        while parent[v] != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    for u, v in pairs.tolist():
        parent[find(u)] = find(v)
    start = np.flatnonzero((below(volume) == Material.START).ravel() & on_path.ravel())
    goal = np.flatnonzero((below(volume) == Material.GOAL).ravel() & on_path.ravel())
    assert start.size and goal.size and find(int(start[0])) == find(int(goal[0]))
    path = maze.shortest_path(ends.start, ends.goal)
    under = set(((path[:-1] + path[1:]) // 2)[np.abs(path[1:] - path[:-1]) == 2 * 7].tolist()) | \
        set(((path[:-1] + path[1:]) // 2)[np.abs(path[1:] - path[:-1]) == 2].tolist())
    if under & set(np.flatnonzero(maze.grid.crossings).tolist()) and not bridges:
        assert (volume[0] == Material.PATH).any()  # the path goes down a tunnel


def test_thin_walls_are_refused_for_tunnels():
    maze = make_maze((6, 6), "weave", "kruskal:weave", seed=1, weave=1.0).maze
    with pytest.raises(BlockmazeError, match="wall=4"):
        build(maze, wall=1)


@pytest.mark.parametrize("bridges", [False, True])
def test_schematic_stairs_face_uphill_and_the_build_walks(tmp_path, bridges):
    """Read back from the .schem: every stair faces the higher floor beside it, and a player
    (tests/walkability.py, which lets a player jump a block anywhere) finds one region."""
    from blockmaze.writing import save
    from schem_checker import read_schem
    from walkability import name, properties, regions

    document = make_maze((6, 8), "weave", "kruskal:weave", seed=9, weave=1.0)
    save(document, tmp_path / "w.schem", wall=4, roof=True, solution=True, height=5,
         bridges=bridges)
    blocks = read_schem(tmp_path / "w.schem").blocks
    steps = {"north": (-1, 0), "east": (0, 1), "south": (1, 0), "west": (0, -1)}
    stairs = [(y, z, x) for y, z, x in zip(*np.nonzero(
        np.vectorize(lambda s: name(s).endswith("_stairs"))(blocks)), strict=True)]
    used = len(document.maze.grid.used_crossings(document.maze.links))
    assert (len(stairs) <= 6 * used if bridges else len(stairs) == 6 * used) and stairs
    for y, z, x in stairs:
        dz, dx = steps[properties(blocks[y, z, x])["facing"]]
        assert name(blocks[y, z + dz, x + dx]) != "minecraft:air"  # uphill: a floor or a stair
        above = name(blocks[y + 1, z + dz, x + dx])  # room to stand on, or the next step up
        assert above == "minecraft:air" or above.endswith("_stairs")
        assert name(blocks[y, z - dz, x - dx]) == "minecraft:air"  # downhill: the way on
    labels = regions(blocks)
    assert len(np.unique(labels[labels > 0])) == 1


def test_pictures_show_passages_going_under():
    """PNG: at every crossing the walls of the passage on top cross the cell, and the corridor
    walls of the way under are drawn (in the crossing's margin) exactly where it is used."""
    from blockmaze.export.pictures import render_image
    from blockmaze.export.weave_picture import INSET

    maze = make_maze((10, 12), "weave", "backtracker", seed=6, weave=1.0).maze
    size = 40
    image = np.asarray(render_image(maze, cell_size=size, wall_width=2))
    wall = 1  # the palette's wall colour (after the background)
    used = set(maze.grid.used_crossings(maze.links)[:, 0].tolist())
    assert used and set(np.flatnonzero(maze.grid.crossings).tolist()) - used

    def pixel(cell, fx, fy, ew):  # (fx, fy): along, across the passage on top, in the cell
        r, c = divmod(cell, 12)
        x, y = (fx, fy) if ew else (fy, fx)
        return image[int(20 + (r + y) * size), int(20 + (c + x) * size)]

    for cell in np.flatnonzero(maze.grid.crossings).tolist():
        ew = maze.grid.crossings[cell] == OVER_EAST_WEST
        assert pixel(cell, 0.5, INSET, ew) == wall  # the passage on top: its wall across
        assert (pixel(cell, INSET, INSET / 2, ew) == wall) == (cell in used)


@pytest.mark.parametrize("fmt", ["schem", "litematic", "structure", "datapack", "schematic",
                                 "mcstructure", "glb", "obj", "ply", "3mf", "stl", "tmx", "tmj",
                                 "ascii", "tilemap", "npz", "xp", "ldtk", "world-zip", "png",
                                 "svg", "maze"])
def test_every_format_takes_a_weave_maze(fmt):
    """Each writer takes a solved, lit, roofed weave maze; block formats hold the tunnels (as
    many layers under the floor), tile maps its stairs down as a legend."""
    from blockmaze.writing import save

    document = make_maze((5, 6), "weave", "kruskal:weave", seed=3, weave=1.0)
    used = len(document.maze.grid.used_crossings(document.maze.links))
    assert used
    options = {"lights": True, "roof": True} if fmt not in ("png", "svg", "maze") else {}
    if fmt in ("tmx", "tmj", "ascii", "tilemap", "npz", "xp", "ldtk"):
        options = {}
    volume = save(document, io.BytesIO(), format=fmt, wall=4, solution=True, **options)
    if volume is None:
        return
    if volume.shape[0] == 1:  # a tile map: two stairs down per tunnel
        assert int((volume == Material.STAIRS).sum()) == 2 * used
    else:
        assert int((volume == Material.STAIRS).sum()) == 6 * used
        assert (volume[1] == Material.AIR).sum() > 0  # the tunnels, under the floor


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), spec=st.sampled_from(["backtracker", "kruskal:weave", "wilson"]))
def test_masked_weave_mazes_are_perfect(seed, spec):
    """Crossings only where their 3x3 block is enabled: a masked region stays connected."""
    from blockmaze.mazes.masks import masked_grid

    rng = np.random.default_rng(seed)
    grid = masked_grid("weave", (12, 12), rng.random((12, 12)) < 0.85, split=True)[0]
    woven = place_crossings(grid, 1.0, rng)
    assert woven.enabled_count == grid.enabled_count
    maze = generate(woven, algorithm=spec, rng=seed)
    assert maze.is_perfect()


@pytest.mark.parametrize("bridges", [False, True])
def test_glb_is_one_walk_for_an_engine_character(bridges):
    """The .glb of a solved weave maze whose path goes under a crossing, walked by a game
    engine's character (tests/meshwalk.py: half-block steps, no climbing): start meets goal."""
    from blockmaze.writing import save
    from test_mesh_walk import one_walk, walk_glb

    for seed in range(40):
        document = make_maze((5, 6), "weave", "kruskal:weave", seed=seed, weave=1.0)
        maze, ends = document.maze, document.endpoints
        path = maze.shortest_path(ends.start, ends.goal)
        step = np.abs(np.diff(path))
        if ((step == 2) | (step == 12)).any():  # a jump: under a crossing
            break
    else:
        pytest.fail("no seed below 40 gives a path under a crossing")
    out = io.BytesIO()
    volume = save(document, out, format="glb", solution=True, wall=4, height=5, bridges=bridges)
    assert one_walk(walk_glb(out.getvalue()), volume)
