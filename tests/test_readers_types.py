"""Reader bugs found by typing the readers: a hostile file of the wrong types gets one clear line
(exit 1) naming what is wrong, never a wrong summary or a "malformed (TypeError: ...)" leak."""

from __future__ import annotations

import gzip
import io
import json
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

import blockmaze as bm

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
from hostile import _int, _name, tag  # noqa: E402 (after the path to the test helpers)


def _short(key: str, value: int) -> bytes:
    return tag(2, key, struct.pack(">h", value))


def mcedit(side: int, blocks: int, data: int) -> bytes:
    """A legacy .schematic of side**3 blocks, Blocks and Data of NBT tags ``blocks`` and ``data``
    (7 ByteArray, 11 IntArray, 12 LongArray), all zeros."""
    n, width = side ** 3, {7: 1, 11: 4, 12: 8}
    body = (_short("Width", side) + _short("Height", side) + _short("Length", side)
            + tag(8, "Materials", _name("Alpha"))
            + tag(blocks, "Blocks", _int(n) + bytes(n * width[blocks]))
            + tag(data, "Data", _int(n) + bytes(n * width[data])))
    return gzip.compress(b"\x0a" + _name("Schematic") + body + b"\x00", mtime=0)


def sponge(side: int, kind: int) -> bytes:
    """A Sponge v2 schematic of side**3 air blocks, BlockData of NBT tag ``kind``, all zeros."""
    n, width = side ** 3, {7: 1, 11: 4, 12: 8}[kind]
    body = (tag(3, "Version", _int(2)) + tag(3, "DataVersion", _int(3465)) + _short("Width", side)
            + _short("Height", side) + _short("Length", side) + tag(3, "PaletteMax", _int(1))
            + tag(10, "Palette", tag(3, "minecraft:air", _int(0)) + b"\x00")
            + tag(kind, "BlockData", _int(n // width) + bytes(n)))
    return gzip.compress(b"\x0a" + _name("Schematic") + body + b"\x00", mtime=0)


def gltf(**changes) -> bytes:
    out = io.BytesIO()
    bm.write(bm.extrude(bm.to_blocks(bm.generate((2, 3), rng=1))), out, format="gltf")
    return json.dumps({**json.loads(out.getvalue()), **changes}).encode()


PLY_HEAD = b"ply\nformat binary_little_endian 1.0\nelement vertex 0\n"


def ply(*properties: bytes) -> bytes:
    return PLY_HEAD + b"".join(b"property " + p + b"\n" for p in properties) + b"element face 0\nend_header\n"


HOSTILE = [
    # an IntArray's bytes were read as block ids: 32 "blocks" in a 2x2x2 schematic
    pytest.param("both.schematic", mcedit(2, 11, 11), "Blocks must be a ByteArray", id="mcedit-int-arrays"),
    pytest.param("blocks.schematic", mcedit(2, 11, 7), "Blocks must be a ByteArray", id="mcedit-int-blocks"),
    pytest.param("data.schematic", mcedit(2, 7, 12), "Data must be a ByteArray", id="mcedit-long-data"),
    # too long to keep: a skipped IntArray has no byte counts (TypeError on None before)
    pytest.param("big.schematic", mcedit(128, 11, 7), "Blocks must be a ByteArray", id="mcedit-long-int-blocks"),
    pytest.param("int.schem", sponge(2, 11), "BlockData must be a ByteArray", id="sponge-int-blockdata"),
    pytest.param("s.gltf", gltf(scenes=5), "scenes has the wrong type", id="gltf-scenes-number"),
    pytest.param("s.gltf", gltf(scenes={"a": 1}), "scenes has the wrong type", id="gltf-scenes-object"),
    pytest.param("e.gltf", gltf(extensionsUsed=5), "extensionsUsed has the wrong type", id="gltf-extensions"),
    pytest.param("p.ply", ply(b"", b"float y", b"float z"), "each a type and a name", id="ply-bare-property"),
    pytest.param("p.ply", ply(b"float x", b"float y", b"float"), "each a type and a name", id="ply-unnamed-z"),
    pytest.param("p.ply", ply(b"float x", b"float y", b"float z", b"uchar"), "each a type and a name",
                 id="ply-unnamed-extra"),
]


@pytest.mark.parametrize("name, data, says", HOSTILE)
def test_a_file_of_the_wrong_types_is_refused_in_one_clear_line(tmp_path, name, data, says):
    path = tmp_path / name
    path.write_bytes(data)
    result = subprocess.run([sys.executable, "-m", "blockmaze", "info", str(path)], capture_output=True,
                            text=True, timeout=120, check=False,
                            env=dict(os.environ, PYTHONPATH=str(HERE.parent)))
    err = result.stderr.strip().splitlines()
    assert result.returncode == 1 and len(err) == 1 and err[0].startswith("Error: "), (result.returncode, err)
    assert says in err[0] and "malformed (" not in err[0], err[0]

