"""Dungeons: rooms, mazes, doors, dead ends, shortcut loops and stairs, checked on the plan itself.

Every check walks the plan with its own breadth-first search over blocks (no code shared with the
generator's cell-level kernels).
"""

from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blockmaze.algorithms import ALGORITHMS
from blockmaze.dungeon import generate_dungeon
from blockmaze.errors import BlockmazeError
from blockmaze.materials import SOLID, Material

sizes = st.tuples(st.integers(1, 24), st.integers(1, 24)).filter(lambda s: s[0] * s[1] >= 2)
seeds = st.integers(0, 2**32 - 1)
room_sizes = st.tuples(st.integers(1, 3), st.integers(0, 3)).map(lambda p: (p[0], p[0] + p[1]))
shares = st.sampled_from([0.0, 0.3, 0.5, 1.0])


def block_distances(plan, start):
    """Walking distance in blocks from ``start`` to every block (-1 = unreachable or solid)."""
    open_ = ~SOLID[plan]
    dist = np.full(plan.shape, -1, dtype=np.int64)
    dist[start] = 0
    queue = deque([start])
    while queue:
        z, x = queue.popleft()
        for nz, nx in ((z - 1, x), (z + 1, x), (z, x - 1), (z, x + 1)):
            if 0 <= nz < plan.shape[0] and 0 <= nx < plan.shape[1] and open_[nz, nx] and dist[nz, nx] < 0:
                dist[nz, nx] = dist[z, x] + 1
                queue.append((nz, nx))
    return dist


def room_index(level):
    """int (z, x): the room a block lies in, -1 outside rooms; asserts rooms do not overlap."""
    index = np.full(level.plan.shape, -1, dtype=np.int64)
    for i, (z0, x0, z1, x1) in enumerate(level.rooms.tolist()):
        assert (index[z0:z1, x0:x1] == -1).all(), "rooms overlap"
        index[z0:z1, x0:x1] = i
    return index


def sides(z, x):
    """The two blocks a wall block at (z, x) separates (cells on the strict layout)."""
    return ((z, x - 1), (z, x + 1)) if z % 2 == 1 else ((z - 1, x), (z + 1, x))


def corridor_degree(plan, z, x):
    open_ = ~SOLID[plan]
    return int(open_[z - 1, x]) + int(open_[z + 1, x]) + int(open_[z, x - 1]) + int(open_[z, x + 1])


def check_level(level, rows, cols):
    plan = level.plan
    assert plan.dtype == np.uint8 and plan.shape == (2 * rows + 1, 2 * cols + 1)
    open_ = ~SOLID[plan]
    rooms = room_index(level)
    # strict layout: closed border, corners open only inside rooms
    assert not open_[0].any() and not open_[-1].any() and not open_[:, 0].any() and not open_[:, -1].any()
    assert not (open_[::2, ::2] & (rooms[::2, ::2] < 0)).any()
    for z0, x0, z1, x1 in level.rooms.tolist():
        assert z0 % 2 == 1 and x0 % 2 == 1 and z1 % 2 == 0 and x1 % 2 == 0
        assert 1 <= z0 < z1 <= plan.shape[0] - 1 and 1 <= x0 < x1 <= plan.shape[1] - 1
        assert open_[z0:z1, x0:x1].all()
        # a room is closed around except for doors
        ring = np.concatenate([plan[z0 - 1, x0:x1], plan[z1, x0:x1], plan[z0:z1, x0 - 1], plan[z0:z1, x1]])
        assert set(ring.tolist()) <= {Material.WALL, Material.DOOR}
    # one connected region
    reach = block_distances(plan, level.start)
    assert (reach[open_] >= 0).all(), "an open block cannot be reached from the start"
    # doors sit in walls between a room and another region
    assert np.array_equal(level.doors, np.argwhere(plan == Material.DOOR))
    for z, x in level.doors.tolist():
        assert (z + x) % 2 == 1, "a door must be a wall block between two cells"
        (az, ax), (bz, bx) = sides(z, x)
        assert open_[az, ax] and open_[bz, bx]
        ra, rb = rooms[az, ax], rooms[bz, bx]
        assert max(ra, rb) >= 0 and ra != rb
    # markers
    assert level.start != level.goal
    for z, x in (level.start, level.goal):
        assert z % 2 == 1 and x % 2 == 1
    return rooms


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(sizes, seeds, room_sizes, shares, st.sampled_from([0.0, 0.1]), st.sampled_from([None, 4, 12]))
def test_dungeon_invariants(size, seed, room_size, sparseness, extra, shortcut):
    rows, cols = size
    d = generate_dungeon(size, seed, room_size=room_size, room_attempts=rows * cols // 6,
                         sparseness=sparseness, extra_doors=extra, min_shortcut=shortcut)
    level = d.levels[0]
    check_level(level, rows, cols)
    assert level.plan[level.start] == Material.START and level.plan[level.goal] == Material.GOAL
    assert (level.plan == Material.START).sum() == 1 and (level.plan == Material.GOAL).sum() == 1
    if shortcut is None:
        assert len(level.loops) == 0


@pytest.mark.slow
@settings(max_examples=50, deadline=None)
@given(sizes, seeds, room_sizes, shares)
def test_region_graph_is_a_tree_without_extra_doors_or_loops(size, seed, room_size, sparseness):
    """Rooms contracted to one node each, corridor cells as nodes, open wall blocks as edges: a tree."""
    rows, cols = size
    level = generate_dungeon(size, seed, room_size=room_size, room_attempts=rows * cols // 6,
                             sparseness=sparseness, extra_doors=0.0).levels[0]
    rooms = check_level(level, rows, cols)
    open_ = ~SOLID[level.plan]
    corridor_cells = int((open_[1::2, 1::2] & (rooms[1::2, 1::2] < 0)).sum())
    walls = np.zeros_like(open_)
    walls[1::2, 2::2] = True
    walls[2::2, 1::2] = True
    edges = int((open_ & walls & (rooms < 0)).sum())
    assert edges == corridor_cells + len(level.rooms) - 1


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(sizes, seeds, room_sizes, st.sampled_from([0.0, 0.2]), st.sampled_from([None, 6]), st.integers(1, 2))
def test_total_sparseness_leaves_no_dead_end(size, seed, room_size, extra, shortcut, levels):
    """Only the kept START/GOAL/STAIRS cells may still be dead ends."""
    rows, cols = size
    d = generate_dungeon(size, seed, room_size=room_size, room_attempts=rows * cols // 6,
                         sparseness=1.0, extra_doors=extra, min_shortcut=shortcut, levels=levels)
    for level in d.levels:
        rooms = check_level(level, rows, cols)
        open_ = ~SOLID[level.plan]
        for z, x in np.argwhere(open_[1::2, 1::2]).tolist():
            z, x = 2 * z + 1, 2 * x + 1
            if rooms[z, x] < 0 and (z, x) not in (level.start, level.goal):
                assert corridor_degree(level.plan, z, x) >= 2, f"dead end at {(z, x)}"


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(sizes, seeds, room_sizes)
def test_no_sparseness_keeps_every_cell_and_more_sparseness_only_fills(size, seed, room_size):
    rows, cols = size
    plans = [generate_dungeon(size, seed, room_size=room_size, room_attempts=rows * cols // 6,
                              sparseness=s).plan for s in (0.0, 0.4, 0.8, 1.0)]
    assert (~SOLID[plans[0][1::2, 1::2]]).all()
    for denser, sparser in zip(plans, plans[1:], strict=False):
        assert not (~SOLID[sparser] & SOLID[denser]).any(), "more sparseness opened a block"


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(sizes, seeds, room_sizes, st.integers(1, 30), st.sampled_from([0.0, 0.5, 1.0]))
def test_every_loop_shortens_a_walk_by_at_least_min_shortcut(size, seed, room_size, shortcut, sparseness):
    rows, cols = size
    level = generate_dungeon(size, seed, room_size=room_size, room_attempts=rows * cols // 6,
                             sparseness=sparseness, min_shortcut=shortcut).levels[0]
    check_level(level, rows, cols)
    plan = level.plan
    for z, x in level.loops.tolist():
        assert not SOLID[plan[z, x]] and (z + x) % 2 == 1
        closed = plan.copy()
        closed[z, x] = Material.WALL
        a, b = sides(z, x)
        distance = block_distances(closed, a)[b]
        assert distance < 0 or distance >= shortcut


@pytest.mark.slow
def test_loops_exist_and_respect_the_rule_on_a_larger_dungeon():
    level = generate_dungeon((40, 60), 11, min_shortcut=24, sparseness=0.3).levels[0]
    assert len(level.loops) > 10
    assert any(level.plan[z, x] == Material.DOOR for z, x in level.loops.tolist())
    assert any(level.plan[z, x] == Material.AIR for z, x in level.loops.tolist())
    for z, x in level.loops.tolist()[:40]:
        closed = level.plan.copy()
        closed[z, x] = Material.WALL
        a, b = sides(z, x)
        assert block_distances(closed, a)[b] >= 24


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(sizes, seeds, st.integers(2, 4), st.sampled_from([None, 10]))
def test_levels_line_up_with_stairs(size, seed, levels, shortcut):
    rows, cols = size
    d = generate_dungeon(size, seed, levels=levels, room_attempts=rows * cols // 6, min_shortcut=shortcut)
    assert d.plans.shape == (levels, 2 * rows + 1, 2 * cols + 1) and len(d.levels) == levels
    for i, level in enumerate(d.levels):
        check_level(level, rows, cols)
        assert level.plan[level.start] == (Material.START if i == 0 else Material.STAIRS)
        assert level.plan[level.goal] == (Material.GOAL if i == levels - 1 else Material.STAIRS)
        if i + 1 < levels:
            assert level.goal == d.levels[i + 1].start
    markers = [int(np.isin(p, [Material.START, Material.GOAL, Material.STAIRS]).sum()) for p in d.plans]
    assert markers == [2] * levels


def test_goal_is_the_farthest_room_centre_from_the_start():
    d = generate_dungeon((30, 40), 5, levels=3)
    for level in d.levels:
        dist = block_distances(level.plan, level.start)
        centres = [((z0 + z1 - 1) // 2 | 1, (x0 + x1 - 1) // 2 | 1)
                   for z0, x0, z1, x1 in level.rooms.tolist()]
        centres = [c for c in centres if c != level.start]
        assert dist[level.goal] == max(dist[c] for c in centres)
        assert dist[level.goal] > 40


def test_without_rooms_it_is_a_maze_path_from_start_to_goal():
    level = generate_dungeon((15, 15), 2, room_attempts=0, sparseness=1.0).levels[0]
    assert len(level.rooms) == 0 and len(level.doors) == 0
    open_ = ~SOLID[level.plan]
    path_cells = int(open_[1::2, 1::2].sum())
    assert block_distances(level.plan, level.start)[level.goal] == 2 * (path_cells - 1)
    full = generate_dungeon((15, 15), 2, room_attempts=0, sparseness=0.0).plan
    assert int((~SOLID[full]).sum()) == 2 * 225 - 1   # a perfect maze: cells + (cells - 1) passages


@pytest.mark.slow
@settings(max_examples=20, deadline=None)
@given(sizes, seeds)
def test_same_seed_same_bytes(size, seed):
    options = dict(extra_doors=0.1, sparseness=0.5, min_shortcut=8, levels=2, loop_chance=0.7)
    a, b = generate_dungeon(size, seed, **options), generate_dungeon(size, seed, **options)
    assert a.plans.tobytes() == b.plans.tobytes()
    for la, lb in zip(a.levels, b.levels, strict=True):
        for field in ("rooms", "doors", "loops"):
            assert np.array_equal(getattr(la, field), getattr(lb, field))
        assert (la.start, la.goal) == (lb.start, lb.goal)
    g = np.random.default_rng(seed)
    assert generate_dungeon(size, g, **options).plans.tobytes() == a.plans.tobytes()


def test_different_seeds_differ():
    plans = {generate_dungeon((20, 20), seed, sparseness=0.5).plan.tobytes() for seed in range(8)}
    assert len(plans) == 8


@pytest.mark.parametrize("name", sorted(n for n, a in ALGORITHMS.items() if not a.needs_unmasked))
def test_every_masking_algorithm_grows_the_maze(name):
    level = generate_dungeon((14, 18), 4, algorithm=name, sparseness=0.0).levels[0]
    rooms = check_level(level, 14, 18)
    open_ = ~SOLID[level.plan]
    assert open_[1::2, 1::2].all()
    walls = np.zeros_like(open_)
    walls[1::2, 2::2] = True
    walls[2::2, 1::2] = True
    corridor_cells = int((rooms[1::2, 1::2] < 0).sum())
    assert int((open_ & walls & (rooms < 0)).sum()) == corridor_cells + len(level.rooms) - 1


@pytest.mark.parametrize("name", sorted(n for n, a in ALGORITHMS.items() if a.needs_unmasked))
def test_unmasked_only_algorithms_are_refused_with_rooms(name):
    with pytest.raises(BlockmazeError, match="around rooms"):
        generate_dungeon((10, 10), 1, algorithm=name)
    level = generate_dungeon((10, 10), 1, algorithm=name, room_attempts=0, sparseness=0.0).levels[0]
    assert (~SOLID[level.plan[1::2, 1::2]]).all()


@pytest.mark.parametrize("kwargs, message", [
    (dict(shape=(1, 1)), "at least 2 cells"),
    (dict(shape=(0, 5)), "rows"),
    (dict(shape=5), "shape"),
    (dict(room_size=(3, 2)), "room_size"),
    (dict(room_size=0), "room_size"),
    (dict(room_attempts=-1), "room_attempts"),
    (dict(extra_doors=1.5), "extra_doors"),
    (dict(sparseness=-0.1), "sparseness"),
    (dict(loop_chance=2), "loop_chance"),
    (dict(min_shortcut=0), "min_shortcut"),
    (dict(levels=0), "levels"),
    (dict(algorithm="nope"), "unknown algorithm"),
])
def test_bad_options_are_refused(kwargs, message):
    kwargs = {"shape": (8, 8), **kwargs}
    with pytest.raises(BlockmazeError, match=message):
        generate_dungeon(rng=1, **kwargs)
