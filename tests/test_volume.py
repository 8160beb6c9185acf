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
