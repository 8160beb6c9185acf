"""Java world saves: read back by anvil-parser2 (an independent reader) and a strict checker,
compared block for block with the .schem of the same maze; streamed mazes; level.dat; errors."""

from __future__ import annotations

import zipfile
from pathlib import Path

import nbtlib
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import blockmaze as bm
from blockmaze.cli import main
from blockmaze.errors import BlockmazeError
from blockmaze.export.minecraft.packing import pack_longs, unpack_longs
from blockmaze.export.minecraft.world import write_world
from blockmaze.readers.worldinfo import is_world, summarize_world
from blockmaze.streaming import maze_rows
from blockmaze.writing import write_streamed
import readers
from schem_checker import read_schem
from world_checker import WorldError, check_region, check_world, unpack



def anvil():
    """anvil-parser2, the independent world reader (the test extra)."""
    return readers.module("anvil", "anvil-parser2")

GLASS = bm.load_theme("glass")  # no weighted variants: every block is its material's one state


def anvil_blocks(folder: Path, shape: tuple[int, int, int], y: int) -> np.ndarray:
    """The world's blocks over the maze's box, (y, z, x) block-state names, read by anvil-parser2."""
    height, length, width = shape
    out = np.empty(shape, dtype=object)
    regions = {}
    for cz in range(-(-length // 16)):
        for cx in range(-(-width // 16)):
            key = (cx >> 5, cz >> 5)
            if key not in regions:
                regions[key] = anvil().Region.from_file(str(folder / "region" / f"r.{key[0]}.{key[1]}.mca"))
            chunk = regions[key].get_chunk(cx, cz)
            for layer in range(height):
                for z in range(16):
                    if cz * 16 + z >= length:
                        break
                    for x in range(16):
                        if cx * 16 + x < width:
                            block = chunk.get_block(x, y + layer, z)
                            out[layer, cz * 16 + z, cx * 16 + x] = block.name() + (
                                "[" + ",".join(f"{k}={v}" for k, v in sorted(block.properties.items())) + "]"
                                if block.properties else "")
    return out


def schem_blocks(volume: np.ndarray, tmp_path: Path, theme=GLASS) -> np.ndarray:
    path = tmp_path / "same.schem"
    bm.write(volume, path, theme=theme)
    return read_schem(path.read_bytes()).blocks


def test_world_equals_schem_of_the_same_maze_block_for_block(tmp_path):
    """A 30x30 maze (61x61 blocks, 4x4 chunks) written as a world and as a .schem."""
    volume = bm.extrude(bm.to_blocks(bm.generate((30, 30), "backtracker", 5), 1, 1), roof=True)
    bm.write(volume, tmp_path / "W", format="world", theme=GLASS, y=10, terrain="flat")
    expected = schem_blocks(volume, tmp_path)
    found = anvil_blocks(tmp_path / "W", volume.shape, 10)
    assert (found == expected).all()
    chunk = anvil().Region.from_file(str(tmp_path / "W/region/r.0.0.mca")).get_chunk(0, 0)
    assert chunk.get_block(0, 9, 0).name() == "minecraft:stone"  # the flat terrain under the maze
    assert chunk.get_block(0, -64, 0).name() == "minecraft:bedrock"
    assert chunk.get_block(0, 10 + volume.shape[0], 0).name() == "minecraft:air"


@pytest.mark.slow
@pytest.mark.parametrize("algorithm", ["eller", "sidewinder", "binary-tree"])
def test_streamed_world_equals_in_memory_schem(algorithm, tmp_path):
    """A streamed maze is the in-memory maze of the same seed: its world equals that .schem."""
    shape = write_streamed(tmp_path / "W", 20, 9, algorithm, seed=11, wall=(1, 2), passage=2,
                           theme=GLASS, terrain="void", y=0)
    maze = bm.generate((20, 9), algorithm, 11)
    volume = bm.extrude(bm.to_blocks(maze, (1, 2), 2))
    assert shape == volume.shape
    assert (anvil_blocks(tmp_path / "W", volume.shape, 0) == schem_blocks(volume, tmp_path)).all()


def test_variants_are_drawn_from_the_theme(tmp_path):
    """With a themed seed every block is one of its material's states."""
    theme = bm.load_theme()
    volume = bm.extrude(bm.to_blocks(bm.generate((8, 8), rng=2)))
    bm.write(volume, tmp_path / "W", format="world", theme=theme, seed=4)
    found = anvil_blocks(tmp_path / "W", volume.shape, -60)
    for material in np.unique(volume):
        states = {s for s, _ in theme.minecraft_choices(int(material))}
        assert set(found[volume == material]) <= states


@pytest.mark.slow
def test_strict_checker_passes_worlds_spanning_regions(tmp_path):
    """Region files across x and z (a 513-block-wide maze, then a 513-block-long one)."""
    write_streamed(tmp_path / "wide", 3, 256, "binary-tree", seed=1, mc_version="1.18")
    write_streamed(tmp_path / "long", 256, 2, "eller", seed=1, mc_version="1.21.10", roof=True)
    wide = check_world(tmp_path / "wide", 2860)
    long = check_world(tmp_path / "long", 4556)
    assert {p.name for p in (tmp_path / "wide/region").iterdir()} == {"r.0.0.mca", "r.1.0.mca"}
    assert {p.name for p in (tmp_path / "long/region").iterdir()} == {"r.0.0.mca", "r.0.1.mca"}
    assert set(wide) == {(cx, 0) for cx in range(33)}
    assert set(long) == {(0, cz) for cz in range(33)}


def test_strict_checker_catches_damage(tmp_path):
    write_streamed(tmp_path / "W", 4, 4, "eller", seed=1)
    path = tmp_path / "W/region/r.0.0.mca"
    data = bytearray(path.read_bytes())
    data[8192 + 4] = 1  # the compression byte: gzip instead of zlib
    path.write_bytes(bytes(data))
    with pytest.raises(WorldError, match="compression 1"):
        check_region(path, 3700)
    with pytest.raises(WorldError, match="longs"):
        unpack([0] * 3, 4, 64)


def test_level_dat_spawn_rules_and_terrain(tmp_path):
    write_streamed(tmp_path / "W", 6, 7, "sidewinder", seed=3, y=20, terrain="grass", mobs=False,
                   time=1000, mc_version="1.21.4")
    level = nbtlib.load(tmp_path / "W/level.dat")["Data"]
    # no entrance (written without --entrances): no way in from outside, so the player arrives
    # inside, on the floor (y = 20) of the first open cell, facing south
    assert (int(level["SpawnX"]), int(level["SpawnY"]), int(level["SpawnZ"])) == (1, 21, 1)
    assert list(level["spawn"]["pos"]) == [1, 21, 1] and float(level["SpawnAngle"]) == 0
    player = level["Player"]
    assert [float(v) for v in player["Pos"]] == [1.5, 21.0, 1.5] and float(player["Rotation"][0]) == 0
    assert player["Dimension"] == "minecraft:overworld" and int(player["DataVersion"]) == 4189
    assert int(level["DataVersion"]) == 4189 and level["Version"]["Name"] == "1.21.4"
    assert level["GameRules"]["doMobSpawning"] == "false" and level["GameRules"]["doDaylightCycle"] == "false"
    assert int(level["DayTime"]) == 1000 and int(level["initialized"]) == 1
    layers = level["WorldGenSettings"]["dimensions"]["minecraft:overworld"]["generator"]["settings"]["layers"]
    assert [(str(layer["block"]), int(layer["height"])) for layer in layers] == [
        ("minecraft:bedrock", 1), ("minecraft:dirt", 82), ("minecraft:grass_block", 1)]
    chunk = anvil().Region.from_file(str(tmp_path / "W/region/r.0.0.mca")).get_chunk(0, 0)
    assert chunk.get_block(3, 19, 3).name() == "minecraft:grass_block"  # the generator's top layer


def test_same_seed_same_bytes(tmp_path):
    for run in ("1", "2"):
        (tmp_path / run).mkdir()
        write_streamed(tmp_path / run / "m.zip", 10, 12, "eller", seed=8, format="world-zip")
    assert (tmp_path / "1/m.zip").read_bytes() == (tmp_path / "2/m.zip").read_bytes()
    with zipfile.ZipFile(tmp_path / "1/m.zip") as archive:
        assert sorted(archive.namelist()) == ["m/level.dat", "m/region/r.0.0.mca"]


@pytest.mark.slow
def test_threads_change_no_byte(tmp_path, monkeypatch):
    """Bands made and turned into chunk records on a thread ahead of the writer: the same files,
    byte for byte, as all in the writing thread (a world over two region rows and columns)."""
    from blockmaze.export.minecraft import world

    files = {}
    for ahead in (0, 1, 3):
        monkeypatch.setattr(world, "AHEAD", ahead)
        folder = tmp_path / f"{ahead}" / "w"  # one name: level.dat holds it
        folder.parent.mkdir()
        write_streamed(folder, 300, 270, "eller", seed=3, format="world")
        files[ahead] = {p.relative_to(folder): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}
    assert len(files[0]) == 5  # level.dat and regions 0,0 1,0 0,1 1,1
    for key, found in files.items():
        assert found == files[0], key


@pytest.mark.parametrize("options, message", [
    ({"mc_version": "1.17.1"}, "1.18 to 1.21.10"),
    ({"mc_version": "1.21.11"}, "1.18 to 1.21.10"),
    ({"y": 318}, "height"),
    ({"y": -64, "terrain": "grass"}, "y >= -62"),
    ({"terrain": "lava"}, "unknown terrain"),
])
def test_bad_world_options_are_refused(options, message, tmp_path):
    with pytest.raises(BlockmazeError, match=message):
        write_world(np.ones((4, 3, 3), np.uint8), tmp_path / "W", GLASS, **options)
    assert not (tmp_path / "W").exists() and not list(tmp_path.iterdir())


@pytest.mark.parametrize("suffix", ["W/", "W.mcworld"])
def test_a_maze_taller_than_the_world_is_refused_by_its_height(suffix, tmp_path, capsys):
    """Not by a range of --y that cannot be (Java and Bedrock worlds: one check)."""
    assert main(["generate", "3x3", "--height", "400", "-o", f"{tmp_path}/{suffix}"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == ("Error: a maze 401 blocks high (its floor and roof included) is taller than the "
                   "world's 384 blocks (-64 to 319): lower --height")
    assert not list(tmp_path.iterdir())


def test_a_world_is_never_written_over(tmp_path):
    (tmp_path / "W").mkdir()
    (tmp_path / "W" / "keep.txt").write_text("mine")
    with pytest.raises(BlockmazeError, match="exists already"):
        write_world(np.ones((1, 1, 1), np.uint8), tmp_path / "W", GLASS)
    assert (tmp_path / "W" / "keep.txt").read_text() == "mine"


@settings(max_examples=25)
@given(st.integers(1, 12), st.integers(1, 12), st.sampled_from(["eller", "sidewinder", "binary-tree"]),
       st.integers(0, 2**32), st.integers(1, 5))
def test_streamed_rows_are_the_in_memory_maze(rows, cols, algorithm, seed, at_once):
    links = bm.generate((rows, cols), algorithm, seed).links.reshape(rows, cols, 4)
    parts = list(maze_rows(rows, cols, algorithm, seed, at_once=at_once))
    assert (np.concatenate([n for n, _ in parts]) == links[..., 0]).all()
    assert (np.concatenate([e for _, e in parts]) == links[..., 1]).all()


@given(st.integers(1, 16), st.data())
def test_packing_round_trips_without_spanning(bits, data):
    values = np.array(data.draw(st.lists(st.integers(0, (1 << bits) - 1), max_size=300)), dtype=np.int64)
    longs = pack_longs(values, bits)
    assert unpack_longs(longs, bits, values.size).tolist() == values.tolist()
    assert unpack([int(v) for v in longs], bits, values.size) == values.tolist()


def test_info_summary_of_a_world(tmp_path):
    write_streamed(tmp_path / "W", 3, 3, "eller", seed=2, theme=GLASS, terrain="void", y=0)
    lines = summarize_world(tmp_path / "W")
    assert lines[:3] == ["format: Java world (W)", "minecraft: 1.20.4 (DataVersion 3700)", "spawn: 1, 1, 1"]
    assert "extent: 1 x 1 chunks (x 0..0, z 0..0): 16 x 16 blocks" in lines
    volume = bm.extrude(bm.to_blocks(bm.generate((3, 3), "eller", 2)))
    walls = int((volume == bm.Material.WALL).sum())
    assert any(line.split() == ["minecraft:glass", str(walls)] for line in lines)
    write_streamed(tmp_path / "w.zip", 3, 3, "eller", seed=2, theme=GLASS, terrain="void", y=0, format="world-zip")
    assert is_world(tmp_path / "W") and is_world(tmp_path / "w.zip") and not is_world(tmp_path / "W/level.dat")
    assert summarize_world(tmp_path / "w.zip")[1:] == lines[1:]
    (tmp_path / "W/region/r.0.0.mca").write_bytes(b"short")
    with pytest.raises(BlockmazeError, match="shorter than a region header"):
        summarize_world(tmp_path / "W")


def test_cli_streams_a_world_and_refuses_what_needs_the_whole_maze(tmp_path, monkeypatch, capsys):
    assert main(["generate", "12x10", "-a", "eller", "-s", "4", "-o", str(tmp_path / "W"), "--format", "world",
                 "--theme", "glass", "--terrain", "void", "--y", "0"]) == 0
    assert "streamed" in capsys.readouterr().err
    volume = bm.extrude(bm.to_blocks(bm.generate((12, 10), "eller", 4)))
    assert (anvil_blocks(tmp_path / "W", volume.shape, 0) == schem_blocks(volume, tmp_path)).all()
    monkeypatch.setattr("blockmaze.support.memory.available_memory", lambda: 1000)
    assert main(["generate", "100x100", "-a", "eller", "--solution", "-o", str(tmp_path / "X"),
                 "--format", "world"]) == 2
    assert "cannot be streamed because of --solution" in capsys.readouterr().err


# -- streamed Sponge schematics and tiles ------------------------------------------------------

@pytest.mark.parametrize("schem_version", [2, 3])
def test_streamed_schem_is_the_in_memory_file_byte_for_byte(schem_version, tmp_path):
    """Without theme variants a streamed .schem (data written layer by layer from regenerated
    bands) is exactly the whole-volume writer's file."""
    write_streamed(tmp_path / "s.schem", 21, 13, "eller", seed=6, format="schem", theme=GLASS, roof=True,
                   schem_version=schem_version)
    volume = bm.extrude(bm.to_blocks(bm.generate((21, 13), "eller", 6)), roof=True)
    bm.write(volume, tmp_path / "m.schem", theme=GLASS, schem_version=schem_version)
    assert (tmp_path / "s.schem").read_bytes() == (tmp_path / "m.schem").read_bytes()


def test_streamed_schem_draws_variants_from_the_theme(tmp_path):
    theme = bm.load_theme()
    write_streamed(tmp_path / "s.schem", 9, 9, "sidewinder", seed=2, format="schem", theme=theme)
    volume = bm.extrude(bm.to_blocks(bm.generate((9, 9), "sidewinder", 2)))
    found = read_schem((tmp_path / "s.schem").read_bytes()).blocks
    for material in np.unique(volume):
        assert set(found[volume == material]) <= {s for s, _ in theme.minecraft_choices(int(material))}


@pytest.mark.parametrize("streamed", [True, False])
def test_schem_tiles_cover_the_maze_with_their_offsets(streamed, tmp_path):
    volume = bm.extrude(bm.to_blocks(bm.generate((20, 14), "binary-tree", 3)))
    if streamed:
        write_streamed(tmp_path / "m.schem", 20, 14, "binary-tree", seed=3, format="schem", theme=GLASS, split=24)
    else:
        from blockmaze.export.minecraft.sponge import write_schem_tiles
        write_schem_tiles(volume, tmp_path / "m.schem", GLASS, 24)
    (tmp_path / "whole").mkdir()
    expected = schem_blocks(volume, tmp_path / "whole")
    rebuilt = np.empty(volume.shape, dtype=object)
    names = sorted(p.name for p in tmp_path.glob("m_x*_z*.schem"))
    assert len(names) == 2 * 2  # 29 x 41 blocks in tiles of 24
    for name in names:
        tile = read_schem((tmp_path / name).read_bytes())
        meta = tile.metadata  # where WorldEdit pastes it from the player: v2 WEOffset, v3 Offset
        x, _, z = (meta["WEOffsetX"], meta["WEOffsetY"], meta["WEOffsetZ"]) if tile.version == 2 else tile.offset
        assert name == f"m_x{x}_z{z}.schem" and tile.width <= 24 and tile.length <= 24
        rebuilt[:, z:z + tile.length, x:x + tile.width] = tile.blocks
    assert (rebuilt == expected).all()


def test_split_is_for_schematics_only(tmp_path, capsys):
    assert main(["generate", "5x5", "-a", "backtracker", "-o", str(tmp_path / "m.litematic"), "--split", "16"]) == 2
    assert "--split cuts .schem files" in capsys.readouterr().err


@pytest.mark.slow
@settings(max_examples=10)
@given(st.tuples(st.integers(1, 4), st.integers(1, 40), st.integers(1, 40)), st.integers(0, 2**32),
       st.sampled_from(["void", "flat", "grass"]), st.integers(-62, 300))
def test_any_volume_reads_back_block_for_block(shape, seed, terrain, y):
    """Random blocks of every material the glass theme draws, anywhere in the world's height."""
    import tempfile

    volume = np.random.default_rng(seed).integers(0, 4, size=shape).astype(np.uint8)
    y = min(y, 319 - shape[0] + 1)
    with tempfile.TemporaryDirectory() as folder:
        bm.write(volume, Path(folder) / "W", format="world", theme=GLASS, terrain=terrain, y=y)
        found = anvil_blocks(Path(folder) / "W", volume.shape, y)
        (Path(folder) / "s").mkdir()
        assert (found == schem_blocks(volume, Path(folder) / "s")).all()
        check_world(Path(folder) / "W", 3700)


@pytest.mark.parametrize("states", [2, 16, 17, 300])
def test_sections_with_many_states_pack_at_the_release_bit_width(states, tmp_path):
    """Sections of 2..300 states (4, 4, 5, 9 bits) read back by the checker's own unpacking."""
    import io as _io

    from nbt import nbt as twoolie

    from blockmaze.export.minecraft.anvil import ChunkBuilder
    from world_checker import check_chunk, check_section

    builder = ChunkBuilder(3700, "minecraft:plains")
    ids = [builder.id_of(f"minecraft:block_{i}") for i in range(states - 1)]
    rng = np.random.default_rng(states)
    grid = np.array([builder.air] + ids, dtype=np.uint16)[rng.integers(0, states, size=(32, 16, 32))]
    for cx, raw in builder.row(grid, 5):
        root = check_chunk(twoolie.NBTFile(buffer=_io.BytesIO(raw)), cx, 5, 3700, "chunk")
        for section in root["sections"]:
            y = section["Y"].value
            if y > -3:
                continue
            found = np.array(check_section(section, "section"), dtype=object).reshape(16, 16, 16)
            want = np.array(builder.states, dtype=object)[grid[(y + 4) * 16:(y + 5) * 16, :, cx * 16:cx * 16 + 16]]
            assert (found == want).all()


def test_spawn_is_outside_in_front_of_the_entrance(tmp_path):
    """The world spawn and the single player's record: on the ground just outside the opening
    nearest START, facing in, where the player who pastes the maze stands (issue 23)."""
    from blockmaze.export.minecraft.placement import YAW, player_spot

    maze = bm.generate((9, 7), "wilson", 4)
    ends = bm.place_endpoints(maze, "entrances")
    for name, solution in (("open", False), ("solved", True)):
        volume = bm.extrude(bm.to_blocks(maze, endpoints=ends, solution=solution))
        bm.write(volume, tmp_path / name, format="world", theme=GLASS, y=0, terrain="flat")
        level = nbtlib.load(tmp_path / name / "level.dat")["Data"]
        x, y, z = int(level["SpawnX"]), int(level["SpawnY"]), int(level["SpawnZ"])
        spot = player_spot(volume)
        depth, width = volume.shape[1:]
        assert (x, y, z) == (spot.x, 0, spot.z) and not (0 <= x < width and 0 <= z < depth)
        inside = (z + (spot.facing == "south") - (spot.facing == "north"),
                  x + (spot.facing == "east") - (spot.facing == "west"))
        assert volume[1][inside] == bm.Material.AIR  # the way in, one step up onto the floor
        assert float(level["SpawnAngle"]) == YAW[spot.facing] == float(level["Player"]["Rotation"][0])
        assert [float(v) for v in level["Player"]["Pos"]] == [x + 0.5, 0.0, z + 0.5]


def test_a_row_of_chunks_is_the_same_compiled_and_as_python():
    """The row assembly's two ways (byte loops compiled, slice copies as Python: see
    kernels.COMPILED) give the same bytes, empty sections and block entities included."""
    from blockmaze.export.minecraft.anvil import ChunkBuilder
    from blockmaze.support.kernels import forced

    rng = np.random.default_rng(5)
    for empty_sections in (False, True):
        builder = ChunkBuilder(3700, "minecraft:plains", empty_sections=empty_sections)
        states = [builder.air] + [builder.id_of(f"minecraft:block_{i}") for i in range(20)]
        ids = np.array(states, dtype=np.uint16)[rng.integers(0, 21, size=(32, 16, 48))]
        ids[16:] = builder.air  # an all-air section in every chunk
        entities = {1: [b"\x08\x00\x02id\x00\x01x\x00"]}
        with forced("python"):
            slow = builder.row_bytes(ids, 3, entities)
        with forced("numba"):
            fast = builder.row_bytes(ids, 3, entities)
        assert bytes(slow[0]) == bytes(fast[0]) and slow[1].tolist() == fast[1].tolist()


@pytest.mark.parametrize("states", [1, 2, 17, 300])
def test_sections_encode_the_same_with_numpy_and_compiled(states):
    """Small worlds encode their sections with numpy (no numba to load); big ones compiled: the
    same palettes (first appearance order), longs and lengths, all-air and one-state sections too."""
    from blockmaze.export.minecraft import anvil
    from blockmaze.support.kernels import forced

    ids = np.random.default_rng(states).integers(0, states, size=(32, 16, 48)).astype(np.uint16)
    ids[:, :, :16] = 0
    ids[16:, :, 16:32] = states - 1
    with forced("python"):
        slow = anvil.encode_sections(ids, 0)
    with forced("numba"):
        fast = anvil.encode_sections(ids, 0)
    for mine, theirs in zip(slow, fast, strict=True):
        assert mine.dtype == theirs.dtype and (mine == theirs).all()
