"""Luanti .mts: a real Luanti server (Debian's minetest-server with minetest_game) places our
schematic over ground filled with a marker node and writes back every node; each must be the node
we meant, with its param2, and columns outside the maze must keep the marker.

The server is found as LUANTI_SERVER, luantiserver or minetestserver (Debian puts it in
/usr/games); its game as LUANTI_GAME (minetest_game). Without them these tests skip, except under
CI=true, where they fail.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import blockmaze as bm
from blockmaze.dungeon import generate_dungeon, stack_dungeon
from blockmaze.export.minecraft.palette import minecraft_palette
from blockmaze.export.voxels.mts import luanti_node
import readers
from blockmaze.materials import Material
from blockmaze.pipeline import make_maze
from blockmaze.writing import save

MOD = Path(__file__).with_name("external") / "luanti_check"
MARKER = "default:dirt"  # what the ground is before the maze is placed
GAMES = ("/usr/share/games/minetest/games", "/usr/share/luanti/games", "/usr/share/minetest/games")


def luanti() -> tuple[str, str]:
    """The server program and the minetest_game folder's parent, or a skip (a failure in CI)."""
    server = os.environ.get("LUANTI_SERVER") or next(
        (found for name in ("luantiserver", "minetestserver")
         for found in (shutil.which(name), f"/usr/games/{name}") if found and os.access(found, os.X_OK)), None)
    games = os.environ.get("LUANTI_GAME") or next(
        (g for g in GAMES if (Path(g) / "minetest_game").is_dir()), None)
    if server and games:
        return server, games
    readers.missing("a Luanti server and minetest_game", "apt-get install minetest-server minetest-data "
                    "(or set LUANTI_SERVER and LUANTI_GAME)")


def placed_nodes(data: bytes, shape, tmp_path) -> np.ndarray:
    """What the server finds in the schematic's area after placing it, as "name param2" in our
    (y, z, x) order."""
    server, _ = luanti()
    height, length, width = shape
    world = tmp_path / "world"
    (world / "worldmods").mkdir(parents=True)
    shutil.copytree(MOD, world / "worldmods" / "luanti_check")
    (world / "maze.mts").write_bytes(data)
    (world / "check.conf").write_text(f"schematic = {world / 'maze.mts'}\nx = {width}\ny = {height}\n"
                                      f"z = {length}\nmarker = {MARKER}\n")
    (world / "world.mt").write_text("gameid = minetest_game\nbackend = sqlite3\n")
    config = tmp_path / "server.conf"
    config.write_text("mg_name = singlenode\nserver_announce = false\n")
    run = subprocess.run([server, "--world", str(world), "--gameid", "minetest_game", "--config",
                          str(config), "--port", str(30000 + os.getpid() % 20000), "--quiet"],
                         capture_output=True, text=True, timeout=300,
                         env={**os.environ, "MINETEST_SUBGAME_PATH": luanti()[1]})
    lines = (world / "nodes.txt").read_text().splitlines() if (world / "nodes.txt").exists() else []
    assert lines and lines[0] == "true", run.stdout[-2000:] + run.stderr[-2000:]
    grid = np.array(lines[1:], object).reshape(length, height, width)   # Luanti's z (north), y, x
    return grid[::-1].transpose(1, 0, 2)                                # back to (y, z south, x)


def meant(blocks: np.ndarray, theme, seed=None, keep_terrain=False) -> np.ndarray:
    """The node and param2 we mean at each block: the Java state's Luanti node; the marker where
    a column holds no block (left as it was), and with ``keep_terrain`` wherever there is air."""
    indices, palette = minecraft_palette(blocks, theme, seed)
    nodes = np.array(["{} {}".format(*luanti_node(state)) for state in palette], object)
    out = nodes[indices]
    out[:, ~blocks.any(axis=0)] = f"{MARKER} 0"
    if keep_terrain:
        out[out == "air 0"] = f"{MARKER} 0"
    return out


def check(blocks: np.ndarray, tmp_path, theme="stone-bricks", seed=None, keep_terrain=False):
    theme = bm.load_theme(theme)
    out = io.BytesIO()
    bm.write(blocks, out, format="mts", theme=theme, keep_terrain=keep_terrain,
             **({"seed": seed} if seed is not None else {}))
    found = placed_nodes(out.getvalue(), blocks.shape, tmp_path)
    want = meant(blocks, theme, seed, keep_terrain)
    differ = [(tuple(int(i) for i in where), want[tuple(where)], found[tuple(where)])
              for where in np.argwhere(found != want)]
    assert not differ, f"{len(differ)} nodes differ; first at (y, z, x) {differ[0][0]}: meant " \
                       f"{differ[0][1]}, Luanti placed {differ[0][2]}"
    return want


@pytest.mark.slow
@pytest.mark.reader
def test_a_maze_is_placed_node_for_node(tmp_path):
    blocks = save(make_maze((5, 6), seed=2), io.BytesIO(), format="mts", solution=True, lights=True)
    want = check(blocks, tmp_path, seed=2)
    names = {node.split()[0] for node in want.ravel()}
    assert {"default:stonebrick", "default:meselamp", "air"} <= names


@pytest.mark.slow
@pytest.mark.reader
def test_a_layered_maze_with_its_stairs_is_placed_node_for_node(tmp_path):
    blocks = save(make_maze((2, 4, 4), kind="layered", seed=1), io.BytesIO(), format="mts")
    want = check(blocks, tmp_path, theme="hedge")
    stairs = [node for node in want.ravel() if node.startswith("stairs:")]
    assert stairs and len(set(stairs)) > 1   # flights facing different ways


@pytest.mark.reader
def test_a_dungeon_with_doors_is_placed_node_for_node(tmp_path):
    blocks = stack_dungeon(generate_dungeon((8, 12), 4, levels=2, lock=True), 3, True, False)
    assert (blocks == Material.DOOR).any()
    want = check(blocks, tmp_path, theme="deepslate-dungeon")
    names = {node.split()[0] for node in want.ravel()}
    assert {"doors:door_wood_a", "doors:hidden"} <= names


@pytest.mark.reader
def test_outside_a_round_maze_the_ground_stays(tmp_path):
    blocks = save(make_maze((4,), kind="polar", seed=3), io.BytesIO(), format="mts", floor=False)
    assert (~blocks.any(axis=0)).any()    # corners outside the circle (no floor under them)
    want = check(blocks, tmp_path, theme="glass")
    assert f"{MARKER} 0" in set(want.ravel())


@pytest.mark.reader
def test_keep_terrain_leaves_the_ground_wherever_the_maze_is_open(tmp_path):
    blocks = save(make_maze((4, 4), seed=5), io.BytesIO(), format="mts")
    want = check(blocks, tmp_path, keep_terrain=True)
    assert "air 0" not in set(want.ravel()) and (blocks == 0).any()


def test_header_and_tables_follow_the_format():
    blocks = save(make_maze((3, 3), seed=1), io.BytesIO(), format="mts")
    out = io.BytesIO()
    bm.write(blocks, out, format="mts")
    data = out.getvalue()
    height, length, width = blocks.shape
    assert data[:4] == b"MTSM" and struct.unpack_from(">4H", data, 4) == (4, width, height, length)
    assert data[12:12 + height] == bytes([127]) * height
    (count,), offset, names = struct.unpack_from(">H", data, 12 + height), 14 + height, []
    for _ in range(count):
        (size,) = struct.unpack_from(">H", data, offset)
        names.append(data[offset + 2:offset + 2 + size].decode())
        offset += 2 + size
    body = zlib.decompress(data[offset:])
    assert len(body) == blocks.size * 4 and "air" in names
    out2 = io.BytesIO()
    bm.write(blocks.copy(), out2, format="mts")
    assert out2.getvalue() == data


def test_a_block_without_a_luanti_node_is_refused():
    with pytest.raises(bm.BlockmazeError, match="no Luanti node"):
        luanti_node("minecraft:bedrock")


def decode(data: bytes):
    """Our own reading of the format (the server tests above are the real check): size, names,
    and the (name index, param1, param2) arrays in Luanti's (z, y, x) order."""
    assert data[:4] == b"MTSM"
    version, width, height, length = struct.unpack_from(">4H", data, 4)
    (count,), offset, names = struct.unpack_from(">H", data, 12 + height), 14 + height, []
    for _ in range(count):
        (size,) = struct.unpack_from(">H", data, offset)
        names.append(data[offset + 2:offset + 2 + size].decode())
        offset += 2 + size
    body, n = zlib.decompress(data[offset:]), width * height * length
    shape = (length, height, width)
    return (names, np.frombuffer(body[:2 * n], ">u2").reshape(shape),
            np.frombuffer(body[2 * n:3 * n], np.uint8).reshape(shape), np.frombuffer(body[3 * n:], np.uint8).reshape(shape))


@settings(max_examples=40)
@given(st.integers(1, 4), st.integers(1, 12), st.integers(1, 12), st.integers(0, 2**32 - 1))
def test_any_volume_of_plain_blocks_decodes_to_its_nodes(height, length, width, seed):
    rng = np.random.default_rng(seed)
    blocks = rng.choice(np.array([0, 0, 0, 1, 2, 3, 5, 6, 9], np.uint8), (height, length, width))
    theme = bm.load_theme("glass")
    out = io.BytesIO()
    bm.write(blocks, out, format="mts", theme=theme)
    names, ids, probability, param2 = decode(out.getvalue())
    found = np.array(names, object)[ids][::-1].transpose(1, 0, 2)          # back to (y, z, x)
    want = np.array([luanti_node(theme.minecraft[m])[0] if m in theme.minecraft else "?"
                     for m in range(10)], object)[blocks]
    outside = ~blocks.any(axis=0)
    want[:, outside] = "ignore"
    assert (found == want).all()
    assert (probability[::-1].transpose(1, 0, 2) == np.where(want == "ignore", 0, 127)).all()
    assert not param2.any()


def test_a_theme_block_without_a_luanti_node_is_refused_before_any_work(tmp_path):
    theme = json.loads(Path(bm.materials.__file__).with_name("themes").joinpath("glass.json").read_text())
    theme["materials"]["wall"]["minecraft"] = "minecraft:bedrock"
    path = tmp_path / "t.json"
    path.write_text(json.dumps(theme))
    with pytest.raises(bm.BlockmazeError, match="draws material wall as minecraft:bedrock.*Luanti"):
        bm.write(np.ones((1, 2, 2), np.uint8), tmp_path / "m.mts", theme=str(path))
    assert not (tmp_path / "m.mts").exists()
