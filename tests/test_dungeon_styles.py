"""Level styles, lock and key, spawns and metrics, checked on the plans with this file's own walks.

Nothing here shares code with the generators' kernels: walking is a plain breadth-first search
over the plan's blocks (``walk``), cut vertices are found by removing a block and walking again.
"""

from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blockmaze.dungeon import STYLES, generate_dungeon
from blockmaze.dungeon.metrics import level_metrics
from blockmaze.dungeon.spawns import lock_and_key
from blockmaze.errors import BlockmazeError
from blockmaze.materials import SOLID, Material

seeds = st.integers(0, 2**32 - 1)
small = st.tuples(st.integers(1, 12), st.integers(1, 12)).filter(lambda s: s[0] * s[1] >= 2)
PLAIN = (Material.AIR, Material.FLOOR)


def walk(plan, start, blocked=None):
    """bool (z, x): the blocks reachable from ``start`` (``blocked``: a block taken as rock)."""
    open_ = ~SOLID[plan]
    if blocked is not None:
        open_[blocked] = False
    seen = np.zeros(plan.shape, bool)
    seen[start] = True
    queue = deque([start])
    while queue:
        z, x = queue.popleft()
        for n in ((z - 1, x), (z + 1, x), (z, x - 1), (z, x + 1)):
            if 0 <= n[0] < plan.shape[0] and 0 <= n[1] < plan.shape[1] and open_[n] and not seen[n]:
                seen[n] = True
                queue.append(n)
    return seen


def distances(plan, start):
    """Walking distance from ``start`` (-1 unreachable), by the same plain search."""
    open_ = ~SOLID[plan]
    dist = np.full(plan.shape, -1)
    dist[start] = 0
    queue = deque([start])
    while queue:
        z, x = queue.popleft()
        for n in ((z - 1, x), (z + 1, x), (z, x - 1), (z, x + 1)):
            if 0 <= n[0] < plan.shape[0] and 0 <= n[1] < plan.shape[1] and open_[n] and dist[n] < 0:
                dist[n] = dist[z, x] + 1
                queue.append(n)
    return dist


def check_lock(level):
    """If the level has a locked door: the key is reachable without it, the goal is not."""
    doors = [e for e in level.entities if e.kind == "door" and e.properties.get("locked")]
    keys = [e for e in level.entities if e.kind == "key"]
    assert len(doors) == len(keys) <= 1
    if not doors:
        return False
    door, key = (doors[0].z, doors[0].x), (keys[0].z, keys[0].x)
    assert level.plan[door] == Material.DOOR
    assert level.plan[key] in PLAIN and key != level.start
    without = walk(level.plan, level.start, blocked=door)
    assert without[key], "the key must be reachable without passing the door"
    assert not without[level.goal], "the door must be necessary to reach the goal"
    return True


def check_level(level, rows, cols):
    plan = level.plan
    assert plan.shape == (2 * rows + 1, 2 * cols + 1) and plan.dtype == np.uint8
    assert (SOLID[plan[[0, -1]]]).all() and (SOLID[plan[:, [0, -1]]]).all(), "border is rock"
    walkable = ~SOLID[plan]
    assert walk(plan, level.start)[walkable].all(), "one walkable region"
    assert level.start != level.goal and walkable[level.start] and walkable[level.goal]
    assert level.doors.tolist() == np.argwhere(plan == Material.DOOR).tolist()


@pytest.mark.slow
@pytest.mark.parametrize("style", STYLES)
@settings(max_examples=500, deadline=None)
@given(size=small, seed=seeds, levels=st.integers(1, 2))
def test_every_style_is_connected_exact_and_locks_soundly(style, size, seed, levels):
    d = generate_dungeon(size, seed, style=style, levels=levels, lock=True, metrics=False)
    assert len(d.levels) == levels
    for index, level in enumerate(d.levels):
        check_level(level, *size)
        check_lock(level)
        assert int(level.plan[level.start]) == (Material.START if index == 0 else Material.STAIRS)
        assert int(level.plan[level.goal]) == (Material.GOAL if index == levels - 1 else Material.STAIRS)
    for upper, lower in zip(d.levels, d.levels[1:], strict=False):
        assert upper.goal == lower.start


@pytest.mark.slow
@pytest.mark.parametrize("style", STYLES)
def test_larger_levels_are_connected_and_usually_locked(style):
    locked = 0
    for seed in range(12):
        d = generate_dungeon((30, 40), seed, style=style, lock=True)
        check_level(d.levels[0], 30, 40)
        locked += check_lock(d.levels[0])
    assert locked >= 6, f"{style}: a lock on only {locked} of 12 levels"


@pytest.mark.parametrize("style", STYLES)
def test_same_seed_same_bytes_and_seeds_differ(style):
    def make(seed):
        return generate_dungeon((15, 20), seed, style=style, levels=2, lock=True, spawns=(3, 2, 1))

    a, b, c = make(11), make(11), make(12)
    assert a.plans.tobytes() == b.plans.tobytes()
    assert [lv.entities for lv in a.levels] == [lv.entities for lv in b.levels]
    assert [lv.metrics for lv in a.levels] == [lv.metrics for lv in b.levels]
    assert a.plans.tobytes() != c.plans.tobytes()


def test_styles_look_like_themselves():
    caves = generate_dungeon((40, 60), 1, style="caves").levels[0]
    assert len(caves.rooms) == 0 and caves.metrics["walkable_share"] > 0.3
    for style in ("bsp", "digger", "mixed"):
        level = generate_dungeon((40, 60), 1, style=style).levels[0]
        assert len(level.rooms) >= 3, style
        for z0, x0, z1, x1 in level.rooms.tolist():
            assert (~SOLID[level.plan[z0:z1, x0:x1]]).all(), f"{style}: a room is open floor"
    digger = generate_dungeon((40, 60), 1, style="digger").levels[0]
    assert len(digger.doors) > 0 and digger.metrics["loops"] == 0  # a tree of features


def test_stairs_say_where_they_lead():
    d = generate_dungeon((12, 16), 4, style="bsp", levels=3)
    for index, level in enumerate(d.levels):
        stairs = {(e.z, e.x): e.properties for e in level.entities if e.kind == "stairs"}
        expected = {}
        if index > 0:
            expected[level.start] = {"direction": "up", "level": index}
        if index < 2:
            expected[level.goal] = {"direction": "down", "level": index + 2}
        assert stairs == expected
        for block in expected:
            assert level.plan[block] == Material.STAIRS


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(style=st.sampled_from(STYLES), seed=seeds, spacing=st.integers(1, 6),
       counts=st.tuples(st.integers(0, 6), st.integers(0, 6), st.integers(0, 6)))
def test_spawns_are_spaced_reachable_and_follow_their_rules(style, seed, spacing, counts):
    level = generate_dungeon((14, 18), seed, style=style, spawns=counts, spacing=spacing,
                             lock=True).levels[0]
    spawns = [e for e in level.entities if e.kind in ("monster", "item", "treasure")]
    fixed = [level.start, level.goal] + [(e.z, e.x) for e in level.entities
                                         if e.kind in ("door", "key", "stairs")]
    dist = distances(level.plan, level.start)
    walkable = ~SOLID[level.plan]
    for kind, count in zip(("monster", "item", "treasure"), counts, strict=True):
        assert sum(e.kind == kind for e in spawns) <= count
    points = [(e.z, e.x) for e in spawns]
    for i, e in enumerate(spawns):
        assert level.plan[e.z, e.x] in PLAIN and dist[e.z, e.x] == e.properties["distance"] > 0
        for other in points[:i] + fixed:
            assert max(abs(e.z - other[0]), abs(e.x - other[1])) >= spacing
        if e.properties["rule"] == "dead end":
            z, x = e.z, e.x
            assert walkable[z - 1, x] + walkable[z + 1, x] + walkable[z, x - 1] + walkable[z, x + 1] == 1
        if e.properties["rule"] == "room centre":
            assert any(z0 <= e.z < z1 and x0 <= e.x < x1 for z0, x0, z1, x1 in level.rooms.tolist())


def test_spawn_counts_are_met_where_there_is_room_and_treasure_prefers_far_dead_ends():
    level = generate_dungeon((40, 60), 3, style="digger", spawns=(10, 6, 4), spacing=3).levels[0]
    kinds = [e.kind for e in level.entities]
    assert (kinds.count("monster"), kinds.count("item"), kinds.count("treasure")) == (10, 6, 4)
    treasure = [e for e in level.entities if e.kind == "treasure"]
    assert all(e.properties["rule"] == "dead end" for e in treasure)
    dist = distances(level.plan, level.start)
    walkable = ~SOLID[level.plan]
    degree = sum(np.roll(walkable, s, axis=a) for s in (1, -1) for a in (0, 1))
    dead = walkable & (degree == 1) & np.isin(level.plan, PLAIN)
    assert min(e.properties["distance"] for e in treasure) >= np.percentile(dist[dead], 50)
    items = [e for e in level.entities if e.kind == "item"]
    assert all(e.properties["rule"] == "room centre" for e in items)


def test_lock_on_a_corridor_and_none_around_a_loop():
    plan = np.ones((3, 9), np.uint8)
    plan[1, 1:8] = Material.AIR
    door, key = lock_and_key(plan, (1, 1), (1, 7), np.random.default_rng(0))
    assert 1 < door[1] < 7 and key == (1, door[1] - 1)
    ring = np.ones((5, 5), np.uint8)
    ring[1:4, 1:4] = Material.AIR
    ring[2, 2] = Material.WALL
    assert lock_and_key(ring, (1, 1), (3, 3), np.random.default_rng(0)) is None


def all_pairs_longest(plan):
    walkable = np.argwhere(~SOLID[plan])
    return max(int(distances(plan, tuple(b)).max()) for b in walkable)


@pytest.mark.parametrize("picture, expected", [
    (["#####", "#...#", "#.#.#", "#...#", "#####"], dict(loops=1, dead_ends=0, longest_path=4)),
    (["#######", "#.....#", "#.#.#.#", "#.....#", "#######"], dict(loops=2, dead_ends=0, longest_path=6)),
    (["#####", "#...#", "#...#", "#####"], dict(loops=0, dead_ends=0, longest_path=3)),
    (["#######", "#.....#", "###.###", "###.###", "#######"], dict(loops=0, dead_ends=3, longest_path=4)),
])
def test_metrics_on_drawn_plans(picture, expected):
    plan = np.array([[Material.WALL if c == "#" else Material.AIR for c in row] for row in picture], np.uint8)
    start = tuple(int(v) for v in np.argwhere(plan == Material.AIR)[0])
    measured = level_metrics(plan, np.empty((0, 4)), start)
    assert {k: measured[k] for k in expected} == expected
    assert measured["walkable_share"] == round(float((plan == Material.AIR).mean()), 4)
    assert measured["longest_path"] == all_pairs_longest(plan)  # exact on these


def test_metrics_agree_with_an_independent_count_on_generated_levels():
    for style in STYLES:
        level = generate_dungeon((10, 14), 5, style=style).levels[0]
        walkable = ~SOLID[level.plan]
        padded = np.pad(walkable, 1)
        degree = padded[:-2, 1:-1].astype(int) + padded[2:, 1:-1] + padded[1:-1, :-2] + padded[1:-1, 2:]
        assert level.metrics["dead_ends"] == int((walkable & (degree == 1)).sum())
        assert level.metrics["rooms"] == len(level.rooms)
        assert level.metrics["longest_path"] <= all_pairs_longest(level.plan)
        assert level.metrics["loops"] >= 0


@pytest.mark.parametrize("kwargs, message", [
    (dict(style="maze"), "unknown dungeon style 'maze'; choose one of"),
    (dict(style="caves", min_shortcut=5), "min_shortcut shape rooms-and-mazes levels only"),
    (dict(spawns=(1, 2)), "spawns are three whole numbers"),
    (dict(spawns=(1, -2, 0)), "spawns are three whole numbers"),
    (dict(spacing=0), "spacing must be a whole number"),
    (dict(style="bsp", room_size=(5, 2)), "room_size min must not exceed max"),
    (dict(style="digger", levels=0), "levels must be a whole number >= 1"),
    (dict(colour="red"), "does not take colour"),
])
def test_bad_options_are_refused(kwargs, message):
    with pytest.raises(BlockmazeError, match=message.replace("(", r"\(")):
        generate_dungeon((6, 6), 1, **kwargs)
