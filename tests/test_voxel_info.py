"""``info`` on .vox, .mts and .mcpack: what they hold, and one clear error for a damaged file."""

from __future__ import annotations

import io

import numpy as np
import pytest

from blockmaze.errors import BadFileError
from blockmaze.readers.info import inspect_bytes
from blockmaze.pipeline import make_maze
from blockmaze.writing import save


def written(fmt: str, source=None, **options) -> tuple[bytes, np.ndarray]:
    out = io.BytesIO()
    blocks = save(source or make_maze((6, 7), seed=2), out, format=fmt, **options)
    return out.getvalue(), blocks


def test_a_300x300_vox_is_four_models_holding_every_block():
    data, blocks = written("vox", make_maze((150, 150), seed=1))
    info = inspect_bytes(data, "m.vox")
    height, length, width = blocks.shape
    assert info.details["models"] == 4 and info.size == (width, height, length)
    assert info.details["voxels"] == np.count_nonzero(blocks) == sum(info.counts.values())


def test_mts_and_mcpack_count_every_block():
    for fmt in ("mts", "mcpack"):
        data, blocks = written(fmt, solution=True)
        info = inspect_bytes(data, f"m.{fmt}")
        height, length, width = blocks.shape
        assert info.size == (width, height, length) and sum(info.counts.values()) == blocks.size, fmt
    assert inspect_bytes(written("mcpack")[0], "m.mcpack").details["functions"] == "/function blockmaze/build"


@pytest.mark.parametrize("fmt", ["vox", "mts", "mcpack"])
def test_damaged_files_give_one_clear_error(fmt):
    data = written(fmt)[0]
    rng = np.random.default_rng(7)
    for i in range(300):
        damaged = bytearray(data)
        if i % 2:
            damaged = damaged[:rng.integers(0, len(damaged))]
        else:
            for _ in range(rng.integers(1, 8)):
                damaged[rng.integers(0, len(damaged))] = rng.integers(0, 256)
        try:
            inspect_bytes(bytes(damaged), f"m.{fmt}")
        except BadFileError as error:
            assert str(error).startswith(f"m.{fmt}: ")
