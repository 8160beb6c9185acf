"""Extrusion of a plan into a volume: floor, wall height, roof."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import blockmaze as bm
from blockmaze.materials import Material


@given(st.integers(1, 6), st.booleans(), st.booleans(), st.integers(0, 10**6))
def test_layers(height, floor, roof, seed):
    plan = bm.to_blocks(bm.generate((3, 4), rng=seed))
    volume = bm.extrude(plan, height=height, floor=floor, roof=roof)
    assert volume.shape == (bm.volume_height(height, floor, roof),) + plan.shape
    assert volume.shape[0] == height + floor + roof
    walls = volume[int(floor): int(floor) + height]
    assert (walls == plan).all()
    if floor:
        assert (volume[0] == Material.FLOOR).all()
    if roof:
        assert (volume[-1] == Material.ROOF).all()


def test_markers_show_in_the_floor():
    plan = np.array([[Material.WALL, Material.PATH, Material.START, Material.AIR]], np.uint8)
    volume = bm.extrude(plan, height=2)
    assert volume[0, 0].tolist() == [Material.FLOOR, Material.PATH, Material.START, Material.FLOOR]
    assert volume[1, 0].tolist() == [Material.WALL, Material.AIR, Material.AIR, Material.AIR]


@pytest.mark.parametrize("height", [0, -1, 2.5, True])
def test_bad_height_is_refused(height):
    with pytest.raises(bm.BlockmazeError, match="wall height must be"):
        bm.extrude(np.ones((3, 3), np.uint8), height=height)


def test_doors_lights_and_stairs_keep_their_blocks():
    """A doorway is a door two blocks high under a wall; an open light lies in the floor; an open
    stair is a step on the walking layer; enclosed lights and stairs are whole columns."""
    W, A, D, L, S = (Material.WALL, Material.AIR, Material.DOOR, Material.LIGHT, Material.STAIRS)
    plan = np.array([[W, W, W, W, W, W, W],
                     [W, A, D, L, A, S, W],
                     [W, W, W, W, W, W, W],
                     [W, L, W, S, W, W, W],
                     [W, W, W, W, W, W, W]], np.uint8)
    volume = bm.extrude(plan, height=4, roof=True)
    assert volume[:, 1, 2].tolist() == [Material.FLOOR, D, D, W, W, Material.ROOF]
    assert volume[:, 1, 3].tolist() == [L, A, A, A, A, Material.ROOF]
    assert volume[:, 1, 5].tolist() == [Material.FLOOR, S, A, A, A, Material.ROOF]
    assert volume[1:5, 3, 1].tolist() == [L] * 4 and volume[1:5, 3, 3].tolist() == [S] * 4
    low = bm.extrude(plan, height=1)
    assert low[1, 1, 2] == A  # no room for a door: the doorway stays open


@given(st.integers(1, 5), st.integers(1, 5), st.integers(0, 10**6), st.booleans())
def test_every_door_stands_on_a_floor_under_its_upper_half(rows, cols, seed, floor):
    from blockmaze.dungeon import generate_dungeon

    plan = generate_dungeon((rows + 2, cols + 2), seed, extra_doors=0.5).plan
    volume = bm.extrude(plan, height=3, floor=floor)
    first = int(floor)
    doors = plan == Material.DOOR
    assert (volume[first][doors] == Material.DOOR).all() and (volume[first + 1][doors] == Material.DOOR).all()
    assert (volume[first + 2][doors] == Material.WALL).all()
    assert int((volume == Material.DOOR).sum()) == 2 * int(doors.sum())
