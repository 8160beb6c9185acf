"""MagicaVoxel .vox: read back by three.js's VOXLoader (node), scene graph included, voxel for
voxel against our blocks; split scenes place each model by its transform node.

Set THREE_JS to a folder where `npm install three` was run (CI does); without it (and node) the
reader tests skip, except under CI=true, where they fail.
"""

from __future__ import annotations

import io
import json
import struct
import subprocess
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, strategies as st

import blockmaze as bm
import readers
from blockmaze.export.voxels.vox import MODEL_SIDE

READER = Path(__file__).with_name("external") / "vox_reader.mjs"


def three_folder() -> str:
    """The folder whose node_modules holds three.js (see tests/readers.py)."""
    return str(readers.node_package("three", "THREE_JS"))


def vox_bytes(blocks, **options) -> bytes:
    out = io.BytesIO()
    bm.write(blocks, out, format="vox", **options)
    return out.getvalue()


def read_scene(data: bytes, tmp_path) -> tuple[np.ndarray, dict]:
    """Every voxel the loader's scene holds as (x, y, z, colour) in three.js world coordinates."""
    folder = three_folder()
    source, out = tmp_path / "m.vox", tmp_path / "voxels.bin"
    source.write_bytes(data)
    run = subprocess.run(["node", str(READER), folder, str(source), str(out)],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    return np.fromfile(out, dtype="<i4").reshape(-1, 4), json.loads(run.stdout.strip().splitlines()[-1])


def scene_as_blocks(voxels: np.ndarray, shape) -> np.ndarray:
    """The loader's voxels as a (y, z, x) volume: three.js is Y up with Z pointing south, like
    our blocks; the scene's origin is where MagicaVoxel centres it, so the min corner is taken."""
    low = voxels[:, :3].min(axis=0)
    x, y, z = (voxels[:, :3] - low).T
    volume = np.zeros(shape, np.uint8)
    assert y.max() < shape[0] and z.max() < shape[1] and x.max() < shape[2]
    volume[y, z, x] = voxels[:, 3]
    assert len(np.unique(np.stack([x, y, z]), axis=1)[0]) == len(voxels), "two voxels in one place"
    return volume


def maze_volume(rows, cols, seed=1, height=3):
    return bm.extrude(bm.to_blocks(bm.generate((rows, cols), rng=seed)), height=height)


@pytest.mark.reader
def test_a_small_maze_reads_back_voxel_for_voxel_with_theme_colours(tmp_path):
    blocks = maze_volume(5, 7)
    blocks[1, 1, 1], blocks[1, -2, -2], blocks[1, 1, 2] = 5, 6, 4   # start, goal, path
    theme = bm.load_theme("hedge")
    voxels, info = read_scene(vox_bytes(blocks, theme=theme), tmp_path)
    assert info["models"] == 1
    assert np.array_equal(scene_as_blocks(voxels, blocks.shape), blocks)
    for value in np.unique(blocks[blocks > 0]):   # palette entry = material, theme's colour
        packed = info["palette"][value - 1]
        assert tuple(packed >> shift & 0xFF for shift in (0, 8, 16)) == theme.color(int(value))


@pytest.mark.slow
@pytest.mark.reader
def test_a_300x300_maze_opens_as_several_models_with_every_block(tmp_path):
    blocks = maze_volume(150, 150, seed=3)       # 301 x 301 blocks: over one 256-voxel model
    voxels, info = read_scene(vox_bytes(blocks), tmp_path)
    assert info["models"] == 4
    assert len(voxels) == np.count_nonzero(blocks)
    assert np.array_equal(scene_as_blocks(voxels, blocks.shape), blocks)


@given(st.integers(1, 3), st.integers(1, 300), st.integers(1, 300), st.integers(0, 2**32 - 1))
def test_any_volume_splits_into_models_that_hold_it_exactly(height, length, width, seed):
    """Our own chunk walk (the loader is checked above): each model <= 256 a side, even sizes."""
    rng = np.random.default_rng(seed)
    blocks = np.where(rng.random((height, length, width)) < 0.02, rng.integers(1, 10, (height, length, width)), 0).astype(np.uint8)
    blocks[0, 0, 0] = 1
    data = vox_bytes(blocks)
    assert data[:8] == b"VOX " + struct.pack("<i", 200)
    sizes, counts, offset = [], [], 20
    while offset < len(data):
        name, content, _ = struct.unpack_from("<4sii", data, offset)
        if name == b"SIZE":
            sizes.append(struct.unpack_from("<3i", data, offset + 12))
        if name == b"XYZI":
            counts.append(struct.unpack_from("<i", data, offset + 12)[0])
        offset += 12 + content
    assert offset == len(data)
    assert sum(counts) == np.count_nonzero(blocks)
    assert all(side % 2 == 0 and 2 <= side <= MODEL_SIDE for size in sizes for side in size)


def test_same_blocks_same_bytes_and_an_empty_volume_is_refused():
    blocks = maze_volume(4, 4)
    assert vox_bytes(blocks) == vox_bytes(blocks.copy())
    with pytest.raises(bm.BlockmazeError, match="no solid block"):
        vox_bytes(np.zeros((2, 3, 4), np.uint8))


def test_glass_is_a_glass_material_and_light_an_emitter():
    blocks = maze_volume(3, 3)
    blocks[1, 1, 1] = bm.Material.LIGHT
    data = vox_bytes(blocks, theme="glass")
    assert data.count(b"MATL") == 2 and b"_glass" in data and b"_emit" in data
    assert b"_glass" not in vox_bytes(blocks)     # stone bricks: no glass
