"""Bedrock worlds (.mcworld) read back by programs that are not ours: Mojang's LevelDB (through
amulet-leveldb) iterates every key, in the layout docs/voxels.md ("Bedrock worlds") gives from the public
format documentation, and every block equals the .mcstructure of the same maze; Amulet's world
library (amulet-core, in a venv of its own) loads the world and finds the same blocks."""

from __future__ import annotations

import io
import json
import os
import struct
import subprocess
import zipfile
from pathlib import Path

import nbtlib
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import blockmaze as bm
import readers
from blockmaze.cli import main
from blockmaze.export.minecraft.mcworld import subchunks
from blockmaze.support.kernels import forced
from test_mcstructure import key, read_mcstructure

leveldb = readers.module("leveldb", "amulet-leveldb")
TAG_NAMES = {nbtlib.Byte: "byte", nbtlib.Int: "int", nbtlib.String: "string"}
Y = -60


def unpack(path: Path, folder: Path) -> dict[bytes, bytes]:
    """Every key and value of the world's LevelDB, read by Mojang's LevelDB."""
    zipfile.ZipFile(path).extractall(folder)
    db = leveldb.LevelDB(str(folder / "db"))
    try:
        return dict(db.items())
    finally:
        db.close()


def decode_subchunk(value: bytes, cy: int) -> np.ndarray:
    """A format-9 sub-chunk as (16 y, 16 z, 16 x) block keys (name and typed states)."""
    assert value[0] == 9 and value[1] == 1 and struct.unpack("b", value[2:3])[0] == cy
    bits = value[3] >> 1
    assert value[3] & 1 == 0 and bits in (1, 2, 3, 4, 5, 6, 8, 16)
    per_word = 32 // bits
    words = -(-4096 // per_word)
    packed = np.frombuffer(value[4:4 + 4 * words], "<u4")
    shifts = np.arange(per_word, dtype=np.uint32) * bits
    indices = ((packed[:, None] >> shifts) & ((1 << bits) - 1)).ravel()[:4096]
    count = struct.unpack("<i", value[4 + 4 * words:8 + 4 * words])[0]
    stream = io.BytesIO(value[8 + 4 * words:])
    palette = []
    for _ in range(count):
        entry = nbtlib.File.parse(stream, byteorder="little")
        assert int(entry["version"]) == bm.export.minecraft.bedrock.BLOCK_VERSION
        palette.append(key(str(entry["name"]), {k: (TAG_NAMES[type(v)], str(v) if isinstance(
            v, nbtlib.String) else int(v)) for k, v in entry["states"].items()}))
    assert stream.read() == b"" and indices.max() < count
    return np.array(palette, dtype=object)[indices].reshape(16, 16, 16).transpose(2, 1, 0)


def world_blocks(items: dict[bytes, bytes], shape) -> np.ndarray:
    """The maze's (y, z, x) region of the world, from the sub-chunks of every chunk."""
    height, length, width = shape
    top = Y + height
    blocks = np.full((top - Y, -(-length // 16) * 16, -(-width // 16) * 16), None, dtype=object)
    for k, value in items.items():
        if len(k) == 10 and k[8:9] == b"/":
            cx, cz = struct.unpack("<ii", k[:8])
            cy = struct.unpack("b", k[9:10])[0]
            part = decode_subchunk(value, cy)
            for layer in range(16):
                world_y = cy * 16 + layer
                if Y <= world_y < top:
                    blocks[world_y - Y, cz * 16:cz * 16 + 16, cx * 16:cx * 16 + 16] = part[layer]
    return blocks[:, :length, :width]


def write(args, tmp_path, name):
    out = tmp_path / name
    assert main(["-q", *args, "-o", str(out)]) == 0
    return out


@pytest.mark.slow
@pytest.mark.parametrize("theme", ["stone-bricks", "deepslate-dungeon", "glass", "hedge"])
def test_every_key_is_the_documented_layout_and_every_block_the_mcstructures(tmp_path, theme):
    args = ["dungeon", "12x14", "--seed", "5", "--spawns", "3:2:1", "--lock", "--theme", theme,
            "--height", "2"]
    world = unpack(write(args, tmp_path, "d.mcworld"), tmp_path / "w")
    structure = write(args, tmp_path, "d.mcstructure").read_bytes()
    expected, *_ = read_mcstructure(structure)
    chunks = {}
    for k, value in world.items():
        assert len(k) in (9, 10), k
        cx, cz = struct.unpack("<ii", k[:8])
        tag = k[8:9]
        chunks.setdefault((cx, cz), {})[tag] = value
        if tag == b"/":
            assert len(k) == 10 and -4 <= struct.unpack("b", k[9:10])[0] < 20
        else:
            assert len(k) == 9 and tag in (b",", b"+", b"1", b"6"), k
    for _chunk, records in chunks.items():
        assert records[b","] == bytes([40])                         # the chunk version
        assert records[b"6"] == struct.pack("<i", 2)                # finalized: never regenerated
        assert len(records[b"+"]) == 512 + 24 * 5                   # heights, then 24 biomes
        assert b"/" in records
    assert world_blocks(world, expected.shape).tolist() == expected.tolist()
    entities = [nbtlib.File.parse(io.BytesIO(v), byteorder="little") for k, v in world.items()
                if k[8:9] == b"1"]
    assert entities  # spawners and chests: --spawns 3:2:1


def test_level_dat_names_a_flat_world_and_a_spawn(tmp_path):
    path = write(["generate", "6x7", "--seed", "2", "--entrances"], tmp_path, "m.mcworld")
    with zipfile.ZipFile(path) as archive:
        data = archive.read("level.dat")
        assert archive.read("levelname.txt") == b"m"
    version, length = struct.unpack("<ii", data[:8])
    assert version == 10 and length == len(data) - 8
    level = nbtlib.File.parse(io.BytesIO(data[8:]), byteorder="little")
    assert int(level["Generator"]) == 2 and str(level["LevelName"]) == "m"
    layers = json.loads(str(level["FlatWorldLayers"]))["block_layers"]
    assert [layer["block_name"] for layer in layers] == ["minecraft:bedrock", "minecraft:dirt",
                                                         "minecraft:grass_block"]
    assert sum(layer["count"] for layer in layers) == Y + 64    # the ground's top at y - 1
    assert int(level["doMobSpawning"]) == 0 and int(level["doDaylightCycle"]) == 0
    assert int(level["SpawnY"]) == Y and not 0 <= int(level["SpawnZ"]) < 13  # outside, on the ground


def test_the_same_maze_gives_the_same_world(tmp_path):
    """Small worlds are the same bytes; every world holds the same keys and values (LevelDB's
    own background compaction may split a large one's tables differently run to run)."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = write(["generate", "20x20", "--seed", "4"], tmp_path / "a", "m.mcworld")
    second = write(["generate", "20x20", "--seed", "4"], tmp_path / "b", "m.mcworld")
    assert first.read_bytes() == second.read_bytes()
    assert unpack(first, tmp_path / "a" / "w") == unpack(second, tmp_path / "b" / "w")


@pytest.mark.slow
def test_a_world_of_many_batches_holds_the_records_of_one(tmp_path, monkeypatch):
    """A world over BATCH_BYTES goes in several batches, the earlier ones sent to tables by
    LevelDB's background thread (past its 4 MiB write buffer); it holds the same records as the
    same world put in one batch, which lies in the log alone."""
    from blockmaze.export.minecraft import mcworld

    (tmp_path / "one").mkdir()
    (tmp_path / "many").mkdir()
    args = ["generate", "400x400", "--seed", "3"]
    one = write(args, tmp_path / "one", "m.mcworld")
    assert [n for n in zipfile.ZipFile(one).namelist() if n.endswith(".ldb")] == []
    monkeypatch.setattr(mcworld, "BATCH_BYTES", 2 << 20)
    many = write(args, tmp_path / "many", "m.mcworld")
    assert [n for n in zipfile.ZipFile(many).namelist() if n.endswith(".ldb")]
    assert unpack(many, tmp_path / "many" / "w") == unpack(one, tmp_path / "one" / "w")


def test_bands_of_any_rows_give_the_records_of_the_whole_volume(tmp_path, monkeypatch):
    """The writer regroups what comes (runs of whole 16-row bands for the palettes): bands of
    odd sizes, runs of 32 rows or of the whole maze give the same records; a band of another
    width is refused."""
    from blockmaze.export.minecraft import mcworld

    volume = bm.extrude(bm.to_blocks(bm.generate((30, 40), rng=2)), height=3)
    theme = bm.load_theme("hedge")
    worlds = []
    for group, cuts in ((1 << 21, None), (32 * volume.shape[0] * volume.shape[2], [7, 16, 3, 30, 1])):
        monkeypatch.setattr(mcworld, "GROUP_BLOCKS", group)
        if cuts is None:
            bands = volume
        else:
            bounds = [*np.cumsum([0, *cuts[:-1]]).tolist(), volume.shape[1]]  # (the last to the end)
            bands = iter([volume[:, a:b] for a, b in zip(bounds[:-1], bounds[1:], strict=True)])
        path = tmp_path / f"{len(worlds)}.mcworld"
        with open(path, "wb") as file:
            mcworld.write_mcworld(bands, file, theme, seed=4)
        worlds.append(unpack(path, tmp_path / f"w{len(worlds)}"))
    assert worlds[0] == worlds[1] and len(worlds[0]) == 4 * 6 * 4  # (61 x 81 blocks: 4 x 6 chunks)
    with pytest.raises(bm.BlockmazeError, match="every band needs"):
        mcworld.write_mcworld(iter([volume[:, :16], volume[:, 16:, 1:]]), io.BytesIO(), theme)


def test_without_the_extra_the_refusal_names_it(tmp_path, monkeypatch, capsys):
    import sys

    monkeypatch.setitem(sys.modules, "leveldb", None)
    assert main(["generate", "4x4", "-o", str(tmp_path / "m.mcworld")]) == 2
    err = capsys.readouterr().err
    assert "pip install 'blockmaze[bedrock]'" in err and err.count("\n") == 1
    assert not list(tmp_path.iterdir())


AMULET_SCRIPT = r"""
import json, sys
import amulet
level = amulet.load_level(sys.argv[1])
x0, y0, z0, width, height, length = map(int, sys.argv[2:8])
out = []
for y in range(y0, y0 + height):
    for z in range(z0, z0 + length):
        for x in range(x0, x0 + width):
            block, _ = level.get_version_block(x, y, z, "minecraft:overworld", ("bedrock", (1, 21, 90)))
            out.append([block.namespaced_name, {k: str(v.py_data) for k, v in block.properties.items()}])
level.close()
print(json.dumps(out))
"""


def states_of(block_key: str) -> tuple[str, dict]:
    """A block key's name and its states' values as text."""
    name, _, states = block_key.partition("{")
    pairs = [part.rsplit(":", 2) for part in states.rstrip("}").split(",") if part]
    return name, {k: str(v) for k, _, v in pairs}


@pytest.mark.reader
@pytest.mark.slow
@pytest.mark.parametrize("theme", ["stone-bricks", "deepslate-dungeon", "glass", "hedge"])
def test_amulet_loads_the_world_with_the_mcstructures_blocks(tmp_path, theme):
    """Amulet finds every block the .mcstructure has, name and states. One state is not
    compared: the direction of a door's upper half, which Bedrock takes from the lower half
    (Amulet's translation drops it; the .mcstructure and the world write the same value)."""
    python = readers.amulet_python()
    args = ["dungeon", "10x12", "--seed", "5", "--spawns", "3:2:1", "--lock", "--theme", theme,
            "--height", "2"]
    path = write(args, tmp_path, "m.mcworld")
    expected, *_ = read_mcstructure(write(args, tmp_path, "m.mcstructure").read_bytes())
    folder = tmp_path / "world"
    zipfile.ZipFile(path).extractall(folder)
    height, length, width = expected.shape
    script = tmp_path / "read.py"
    script.write_text(AMULET_SCRIPT)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    result = subprocess.run([python, str(script), str(folder), "0", str(Y), "0", str(width),
                             str(height), str(length)], capture_output=True, text=True,
                            timeout=600, env=env)
    assert result.returncode == 0, result.stderr[-2000:]
    found = json.loads(result.stdout.splitlines()[-1])
    mismatches = []
    for (name, states), wanted in zip(found, expected.ravel().tolist(), strict=True):
        wanted_name, wanted_states = states_of(wanted)
        if name.endswith("_door") and wanted_states.get("upper_block_bit") == "1":
            states.pop("minecraft:cardinal_direction", None)
            wanted_states.pop("minecraft:cardinal_direction", None)
        if (name, states) != (wanted_name, wanted_states):
            mismatches.append((name, states, wanted))
    assert mismatches == [], mismatches[:3]


def test_info_reads_the_world(tmp_path, capsys):
    path = write(["generate", "6x7", "--seed", "2", "--theme", "glass"], tmp_path, "Glass.mcworld")
    capsys.readouterr()
    assert main(["info", str(path)]) == 0
    out = capsys.readouterr().out
    assert "format: Bedrock world (.mcworld)" in out and "name: Glass" in out
    assert "generator: flat" in out and "minecraft:glass" in out
    (tmp_path / "broken.mcworld").write_bytes(path.read_bytes()[:200])
    assert main(["info", str(tmp_path / "broken.mcworld")]) == 1


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 3), st.integers(1, 3), st.integers(2, 40), st.integers(0, 2**32 - 1))
def test_the_compiled_and_numpy_forms_encode_the_same_subchunks(layers, chunks, count, seed):
    """Sub-chunks of a random row of chunks (air-only ones among them, a band of fewer rows or
    columns than the row, ground under it and air over it) are the same records from the kernel
    and from the numpy form, whatever the palette's index width, and so are the columns'
    heights."""
    rng = np.random.default_rng(seed)
    height, rows, width = int(rng.integers(1, 16 * layers + 1)), int(rng.integers(1, 17)), \
        int(rng.integers(16 * chunks - 15, 16 * chunks + 1))
    lift = int(rng.integers(0, 16 * layers - height + 1))
    palette = int(rng.integers(1, count + 1))
    indices = rng.integers(0, palette, (height, rows, width)).astype(np.uint8)
    lookup = rng.integers(0, count, palette).astype(np.uint32)
    if rng.random() < 0.5:
        lookup[rng.integers(0, palette)] = 0  # air in the maze
    base = np.zeros(16 * layers, np.uint32)
    base[:lift] = rng.integers(0, count, lift)  # the ground under the maze (air in places)
    indices[:, :, :16] = np.flatnonzero(lookup == 0)[0] if (lookup == 0).any() else indices[:, :, :16]
    entries = [bytes(rng.integers(0, 256, int(rng.integers(1, 9))).astype(np.uint8)) for _ in range(count)]
    with forced("numba"):
        compiled, compiled_heights = subchunks(indices, lookup, base, lift, entries)
    with forced("python"):
        vectorized, heights = subchunks(indices, lookup, base, lift, entries)
    assert compiled == vectorized
    assert compiled_heights.tolist() == heights.tolist()
    column = np.repeat(np.repeat(base[:, None, None], 16, axis=1), 16 * chunks, axis=2)
    column[lift:lift + height, :rows, :width] = lookup[indices]
    solid = column != 0
    assert heights.tolist() == [[max((y + 1 for y in range(column.shape[0]) if solid[y, z, x]), default=0)
                                 for x in range(column.shape[2])] for z in range(16)]
    assert [(cx, cy) for cx, cy, _ in vectorized] == [
        (cx, cy - 4) for cx in range(chunks) for cy in range(layers)
        if (column[16 * cy:16 * cy + 16, :, 16 * cx:16 * cx + 16] != 0).any()]
