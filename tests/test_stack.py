"""Stacked levels: a player walking and climbing the volume meets exactly the maze's links."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

import blockmaze as bm
from blockmaze.blocks.convert import per_axis
from blockmaze.blocks.raster import rasterize_labels
from blockmaze.blocks.stack import level_mazes, shaft_columns, stack_levels
from blockmaze.blocks.stairwell import CORNERS, LEAST_HEIGHT
from blockmaze.grids import layered_grid
from blockmaze.grids.layered import UP
from blockmaze.materials import MARKERS, SOLID, Material


def player_moves(volume):
    """Standable blocks and the moves between them.

    STAIRS in a column (a shaft) are climbed inside; other STAIRS are steps, stood on like solid
    blocks (floor markers are floor too). A block is standable if it is open and stands on a
    solid block, a step or a shaft block, or is in a shaft. A player steps between edge-adjacent
    standable blocks of one layer, or one layer apart outside shafts (up or down a step) where
    the lower one has a third open block over it (a player's head, rising a block, is still over
    it), jumps across a one-block hole (open three blocks up, nothing to stand on) between such
    blocks of one layer, and climbs a shaft straight up or down."""
    stairs = volume == Material.STAIRS
    shaft = np.zeros_like(stairs)
    shaft[1:] |= stairs[1:] & stairs[:-1]
    shaft[:-1] |= stairs[:-1] & stairs[1:]
    solid = SOLID[volume] | MARKERS[volume] | (stairs & ~shaft)
    below = np.zeros_like(stairs)
    below[1:] = (solid | shaft)[:-1]
    walk = ~solid & (below | shaft)
    open3 = ~solid.copy()
    for dy in (1, 2):
        open3[:-dy] &= ~solid[dy:]
    room = walk & open3
    hole = open3 & ~walk
    index = -np.ones(volume.shape, dtype=np.int64)
    index[walk] = np.arange(int(walk.sum()))
    pairs = []
    layers = volume.shape[0]
    for a, b in ((np.s_[:, :-1], np.s_[:, 1:]), (np.s_[:-1, :], np.s_[1:, :])):
        for lo, hi in ((np.s_[:], np.s_[:]), (np.s_[:layers - 1], np.s_[1:]), (np.s_[1:], np.s_[:layers - 1])):
            ok = walk if lo == hi else walk & ~shaft
            both = ok[lo][(slice(None), *a)] & ok[hi][(slice(None), *b)]
            if lo != hi:  # the lower of the two needs room over the head
                lower = room[:layers - 1][(slice(None), *a)] if lo == np.s_[:layers - 1] else room[:layers - 1][(slice(None), *b)]
                both &= lower
            pairs.append(np.stack([index[lo][(slice(None), *a)][both],
                                   index[hi][(slice(None), *b)][both]], axis=1))
    for a, m, b in ((np.s_[:, :-2], np.s_[:, 1:-1], np.s_[:, 2:]), (np.s_[:-2, :], np.s_[1:-1, :], np.s_[2:, :])):
        both = room[(slice(None), *a)] & hole[(slice(None), *m)] & room[(slice(None), *b)]
        pairs.append(np.stack([index[(slice(None), *a)][both], index[(slice(None), *b)][both]], axis=1))
    vertical = walk[:-1] & walk[1:] & shaft[:-1]
    pairs.append(np.stack([index[:-1][vertical], index[1:][vertical]], axis=1))
    return walk, index, np.concatenate(pairs)


def joined_cells(volume, cell_of):
    """Cell pairs a player can walk between without crossing a third cell (``cell_of``: the cell
    of each block, -1 for blocks in no cell)."""
    walk, index, moves = player_moves(volume)
    cells = cell_of[walk]
    n = cells.size
    a, b = moves[:, 0], moves[:, 1]
    ca, cb = cells[a], cells[b]
    direct = {frozenset((int(x), int(y)))
              for x, y in zip(ca, cb, strict=True) if x >= 0 and y >= 0 and x != y}
    free = (ca < 0) & (cb < 0)
    graph = coo_matrix((np.ones(int(free.sum())), (a[free], b[free])), shape=(n, n))
    _, comp = connected_components(graph, directed=False)
    touching = {}
    for x, y in ((a, b), (b, a)):
        sel = (cells[x] >= 0) & (cells[y] < 0)
        for cell, c in zip(cells[x][sel], comp[y][sel], strict=True):
            touching.setdefault(int(c), set()).add(int(cell))
    via = {frozenset((p, q)) for group in touching.values() for p in group for q in group if p != q}
    return direct | via


def link_pairs(maze):
    i, d = np.nonzero(maze.links)
    return {frozenset((int(a), int(b))) for a, b in zip(i, maze.grid.neighbors[i, d], strict=True)}


def cell_labels(maze, volume, height, method, wall, passage, scale):
    """The cell of a player whose feet are in each block, from the level layout alone: a level
    owns its floor layer (feet in a hole there are in the upper cell) and its walking layers."""
    levels, rows, cols = maze.grid.shape
    cell_of = -np.ones(volume.shape, dtype=np.int64)
    for level, m in enumerate(level_mazes(maze)):
        if method == "raster":
            labels = rasterize_labels(m, scale).astype(np.int64)
        else:
            (wz, wx), (pz, px) = per_axis(wall, "w"), per_axis(passage, "p")
            labels = -np.ones(volume.shape[1:], dtype=np.int64)
            for cell in np.flatnonzero(m.grid.enabled):
                r, c = divmod(int(cell), cols)
                labels[wz + r * (wz + pz): wz + r * (wz + pz) + pz, wx + c * (wx + px): wx + c * (wx + px) + px] = cell
        labels[labels >= 0] += level * rows * cols
        cell_of[level * (height + 1):(level + 1) * (height + 1)] = labels
    return cell_of


layouts = st.one_of(
    st.tuples(st.just("convert"), st.integers(1, 2), st.integers(1, 3), st.just(4)),
    st.tuples(st.just("raster"), st.just(1), st.just(1), st.integers(3, 5)),
)


@pytest.mark.slow
@settings(max_examples=40)
@given(levels=st.integers(1, 4), rows=st.integers(1, 5), cols=st.integers(1, 5),
       seed=st.integers(0, 10_000), height=st.integers(2, 4), layout=layouts, braid=st.booleans())
def test_player_meets_exactly_the_links(levels, rows, cols, seed, height, layout, braid):
    method, wall, passage, scale = layout
    maze = bm.generate(layered_grid(levels, rows, cols), rng=seed)
    if braid:
        maze = bm.braid(maze, 1.0, rng=seed)
    volume = stack_levels(maze, height, method, wall, passage, scale)
    assert volume.shape[0] == levels * (height + 1) + 1
    cell_of = cell_labels(maze, volume, height, method, wall, passage, scale)
    assert joined_cells(volume, cell_of) == link_pairs(maze)
    # stairs exactly where there is an up/down link: a spiral round a 2x2 well in the cell where
    # one fits (passages 2 wide, levels 3 high), else a column in the cell's centre block
    stairs = volume == Material.STAIRS
    columns = shaft_columns(maze, method, wall, passage, scale)
    per = rows * cols
    expected = np.zeros_like(stairs)
    wide = method == "convert" and min(per_axis(passage, "p")) >= 2 and height >= LEAST_HEIGHT
    for cell in np.flatnonzero(maze.links[:, UP]):
        z, x = (int(v) for v in columns[cell % per])
        bottom = (cell // per) * (height + 1) + 1
        top = bottom + height
        if wide:  # one step a layer, each in the corner clockwise of the one below
            well = stairs[bottom:top + 1, z:z + 2, x:x + 2]
            corners = [CORNERS.index(tuple(int(v) for v in np.argwhere(layer)[0])) for layer in well]
            assert well.sum(axis=(1, 2)).tolist() == [1] * (height + 1)
            assert all((b - a) % 4 == 1 for a, b in zip(corners, corners[1:], strict=False))
            expected[bottom:top + 1, z:z + 2, x:x + 2] = well
        elif method == "convert":
            expected[bottom:top + 1, z, x] = True
        else:  # a raster cell may or may not hold a well: its stairs stay in reach of its centre
            expected[bottom:top + 1, z - 1:z + 2, x - 1:x + 2] = stairs[bottom:top + 1, z - 1:z + 2, x - 1:x + 2]
    assert np.array_equal(stairs, expected)


@pytest.mark.slow
@pytest.mark.parametrize("method", ["convert", "raster"])
def test_solution_marks_connect_start_to_goal(method):
    for seed in range(5):
        maze = bm.generate(layered_grid(3, 4, 5), rng=seed)
        ends = bm.place_endpoints(maze, "entrances")
        volume = stack_levels(maze, 2, method, endpoints=ends, solution=True)
        # (a shaft coming up into the start or goal cell takes the place of its floor marker)
        down = maze.grid.direction("down")
        assert (volume == Material.START).any() or maze.links[ends.start, down]
        assert (volume == Material.GOAL).any() or maze.links[ends.goal, down]
        # every level the path visits has marks in its floor; the openings cut the outer walls
        path_levels = set((maze.shortest_path(ends.start, ends.goal) // 20).tolist())
        marked_levels = {lv for lv in range(3) if MARKERS[volume[lv * 3]].any()}
        assert marked_levels == path_levels
        for cell, _ in ends.openings:
            walking = volume[(cell // 20) * 3 + 1]
            border = np.concatenate([walking[0], walking[-1], walking[:, 0], walking[:, -1]])
            assert (~SOLID[border]).any()


def test_masked_levels_and_refusals():
    mask = np.ones((2, 3, 3), dtype=bool)
    mask[1, 1, 1] = False
    maze = bm.generate(layered_grid(2, 3, 3, mask=mask), rng=4)
    volume = stack_levels(maze, 2)
    cell_of = cell_labels(maze, volume, 2, "convert", 1, 1, 4)
    assert joined_cells(volume, cell_of) == link_pairs(maze)
    with pytest.raises(bm.BlockmazeError, match="layered"):
        stack_levels(bm.generate((3, 3), rng=0))
    with pytest.raises(bm.BlockmazeError, match="method"):
        stack_levels(maze, method="carve")
    with pytest.raises(bm.BlockmazeError, match="endpoints"):
        stack_levels(maze, solution=True)
    with pytest.raises(bm.BlockmazeError, match="height"):
        stack_levels(maze, height=0)


def test_no_roof_and_floors_shared():
    maze = bm.generate(layered_grid(2, 2, 2), rng=1)
    volume = stack_levels(maze, height=3, roof=False)
    assert volume.shape == (8, 5, 5)
    floor = volume[4]   # level 1's floor is level 0's ceiling
    assert set(np.unique(floor).tolist()) <= {Material.FLOOR, Material.STAIRS}
