"""The vectorized numpy mesher gives the compiled kernels' rectangles and triangles, bit for bit.

Both forms are asked for explicitly (``numpy_form``), the kernels compiled by numba, on random
volumes with random chunk boxes and cut faces, and on mazes; and the switch between them.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import blockmaze as bm
from blockmaze.export.meshes import greedy
from blockmaze.export.meshes.chunks import chunk_parts, touches_by_edge, _touches_by_edge
from blockmaze.export.meshes.vectorized import collision_boxes_numpy
from blockmaze.support.kernels import forced


def assert_same_mesh(blocks, box=None, cuts=(False,) * 6):
    with forced("numba"):
        expected = greedy.greedy_quads(blocks, box, numpy_form=False)
        surfaces = [greedy.triangulate(expected, w, cuts, numpy_form=False) for w in (True, False)]
    quads = greedy.greedy_quads(blocks, box, numpy_form=True)
    assert quads.shape == expected.shape
    np.testing.assert_array_equal(quads.data, expected.data)
    for watertight, want in zip((True, False), surfaces, strict=True):
        got = greedy.triangulate(quads, watertight, cuts, numpy_form=True)
        for name in ("vertices", "normals", "uv", "faces"):
            np.testing.assert_array_equal(getattr(got, name), getattr(want, name), err_msg=name)
        assert got.groups == want.groups


@st.composite
def volumes(draw):
    shape = tuple(draw(st.integers(1, 7)) for _ in range(3))
    seed = draw(st.integers(0, 2**32 - 1))
    density = draw(st.sampled_from([0.2, 0.5, 0.8, 1.0]))
    rng = np.random.default_rng(seed)
    blocks = np.where(rng.random(shape) < density, rng.integers(1, 4, shape), 0).astype(np.uint8)
    box = None
    if draw(st.booleans()):
        low = [draw(st.integers(0, n - 1)) for n in shape]
        high = [draw(st.integers(lo + 1, n)) for lo, n in zip(low, shape, strict=True)]
        box = tuple(low + high)
    cuts = tuple(draw(st.booleans()) for _ in range(6)) if box else (False,) * 6
    return blocks, box, cuts


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(volumes())
def test_random_volumes_mesh_alike(case):
    assert_same_mesh(*case)


def test_maze_meshes_alike():
    maze = bm.extrude(bm.to_blocks(bm.generate((12, 9), rng=4)), height=3, roof=True)
    assert_same_mesh(np.asarray(maze, np.uint8))
    assert_same_mesh(np.asarray(maze, np.uint8), box=(0, 3, 5, 4, 15, 19), cuts=(True,) * 6)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([0.3, 0.7]), st.integers(1, 5), st.booleans(),
       st.sampled_from([0, 1, 3]), st.tuples(st.integers(1, 5), st.integers(1, 9), st.integers(1, 9)))
def test_every_chunk_at_once_gives_each_chunks_parts(seed, density, chunk, watertight, kinds, shape):
    """The numpy form meshes all chunk boxes in one sweep and one zip: the parts are the
    kernels', chunk by chunk (stairs, edge seals and one material's solid among them)."""
    rng = np.random.default_rng(seed)
    blocks = ((rng.random(shape) < density) * rng.integers(1, 4, shape)).astype(np.uint8)
    if kinds == 3:
        blocks[blocks == 3] = bm.Material.STAIRS
    only = 2 if kinds == 1 else None
    with forced("numba"):
        expected = list(chunk_parts(blocks, chunk, watertight, only=only))
    with forced("python"):
        got = list(chunk_parts(blocks, chunk, watertight, only=only))
    assert [(p.material, p.chunk, p.origin, p.scale) for p in got] == \
        [(p.material, p.chunk, p.origin, p.scale) for p in expected]
    for mine, theirs in zip(got, expected, strict=True):
        for name in ("positions", "normals", "faces"):
            np.testing.assert_array_equal(getattr(mine, name), getattr(theirs, name))


def test_empty_and_full_volumes():
    assert len(greedy.greedy_quads(np.zeros((3, 4, 5), np.uint8), numpy_form=True)) == 0
    assert_same_mesh(np.zeros((3, 4, 5), np.uint8))
    assert_same_mesh(np.full((3, 4, 5), 2, np.uint8))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([0.1, 0.4, 0.7]))
def test_edge_contacts_found_alike(seed, density):
    rng = np.random.default_rng(seed)
    blocks = (rng.random((3, 4, 5)) < density).astype(np.uint8)
    with forced("numba"):
        expected = bool(_touches_by_edge(blocks))
    assert touches_by_edge(blocks) is expected
    with forced("python"):
        assert touches_by_edge(blocks) is expected


def test_switch():
    with forced("python"):
        assert greedy.vectorized(10**9)
    with forced("numba"):
        assert not greedy.vectorized(10)


@pytest.mark.slow
def test_medium_mesh_does_not_import_numba(tmp_path):
    """A 100x100 maze to .glb with collision boxes, in a fresh process: no numba imported."""
    script = ("import sys, blockmaze as bm; "
              f"bm.write(bm.extrude(bm.to_blocks(bm.generate((100, 100), rng=1)), height=3), "
              f"{str(tmp_path / 'm.glb')!r}, collision=True); print('numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([0.3, 0.7, 0.95, 1.0]),
       st.tuples(st.integers(1, 6), st.integers(1, 6), st.integers(1, 6)))
def test_collision_boxes_alike(seed, density, shape):
    solid = np.random.default_rng(seed).random(shape) < density
    with forced("numba"):
        expected = greedy._boxes(solid)
    np.testing.assert_array_equal(collision_boxes_numpy(solid), expected)


def test_maze_collision_boxes_alike():
    maze = bm.extrude(bm.to_blocks(bm.generate((10, 13), rng=2)), height=3, roof=True)
    solid = np.asarray(maze) != 0
    with forced("numba"):
        expected = greedy._boxes(solid)
    np.testing.assert_array_equal(collision_boxes_numpy(solid), expected)
