"""--into WORLD for Bedrock world folders (issue 51 item 1), read back with Mojang's LevelDB
(amulet-leveldb, every record byte for byte) and Amulet (amulet-core, the blocks): the maze block
for block equal to a new world of the same maze, every record outside it as it was; a world the
game's LevelDB holds refused; bad input in one line; SIGKILL at random moments leaves the world
as it was or wholly changed."""

from __future__ import annotations

import io
import os
import random
import shutil
import signal
import struct
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import nbtlib
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from unittest.mock import ANY

import readers
from test_into import COMMAND, amulet_names, kill_round, run
from test_into import small_disk as small_disk  # (a fixture)
from blockmaze.export.minecraft import into_bedrock
from blockmaze.export.minecraft.mcworld import _nbt, write_mcworld
from blockmaze.export.minecraft.subchunks import Layer, _entry, read_subchunk, write_subchunk
from blockmaze.export.minecraft.into import world_lock
from blockmaze.materials import load_theme

OTHER = {b"actorprefix\x00\x00\x00\x01\x00\x00\x00\x07": b"an entity, kept as it is",
         b"~local_player": b"a player, kept as it is"}


def leveldb():
    return readers.module("leveldb", "amulet-leveldb")


def records(folder: Path) -> dict[bytes, bytes]:
    """Every record of the world's database, as Mojang's LevelDB reads it."""
    db = leveldb().LevelDB(str(folder / "db"))
    try:
        return dict(db.iterate())
    finally:
        db.close()


def unzipped(mcworld: Path, folder: Path) -> Path:
    with zipfile.ZipFile(mcworld) as archive:
        archive.extractall(folder)
    return folder


def bedrock_world(tmp_path: Path, side: int, name: str = "W") -> Path:
    """A flat grass world of ``side`` x ``side`` blocks (as blockmaze writes one, then as the
    game leaves it: more records), unzipped into a folder."""
    path = tmp_path / f"{name}.mcworld"
    with open(path, "wb") as out:
        write_mcworld(np.zeros((1, side, side), np.uint8), out, load_theme(), terrain="grass", y=-60)
    return unzipped(path, tmp_path / name)


def chest(x: int, y: int, z: int) -> bytes:
    return _nbt(nbtlib.Compound({"id": nbtlib.String("Chest"), "x": nbtlib.Int(x),
                                 "y": nbtlib.Int(y), "z": nbtlib.Int(z), "isMovable": nbtlib.Byte(1)}))


def furnish(world: Path) -> None:
    """Records the game keeps that blockmaze does not write: entities, a player, block entities
    inside and outside the box, pending ticks, a waterlogged second layer, a sub-chunk of stone
    above the box."""
    db = leveldb().LevelDB(str(world / "db"))
    try:
        key = struct.pack("<ii", 0, 0)
        sub = key + b"/" + struct.pack("b", -4)
        _, (layer,) = read_subchunk(db.get(sub), "fixture")
        water = np.zeros(4096, np.uint32)
        water[::7] = 1  # (inside the box and outside it)
        second = Layer(water, [_entry("minecraft:air", ()), _entry("minecraft:water", (
            ("liquid_depth", nbtlib.Int(0)),))], ["minecraft:air", "minecraft:water"])
        stone = Layer(np.zeros(4096, np.uint32), [_entry("minecraft:stone", ())], ["minecraft:stone"])
        db.putBatch({**OTHER, sub: write_subchunk(-4, [layer, second]),
                     key + b"/" + struct.pack("b", 0): write_subchunk(0, [stone]),
                     key + b"1": chest(2, -60, 2) + chest(14, -59, 14),
                     key + b"3": b"pending ticks, kept as they are",
                     key + b";": b"checksums of an older release, stale once the chunk changes"})
    finally:
        db.close()


def touched(cx0: int, cx1: int, cz0: int, cz1: int, sys_: range) -> set[bytes]:
    keys = set()
    for cx in range(cx0, cx1 + 1):
        for cz in range(cz0, cz1 + 1):
            key = struct.pack("<ii", cx, cz)
            keys |= {key + b"+", key + b"1"} | {key + b"/" + struct.pack("b", s) for s in sys_}
    return keys


def blocks(values: dict[bytes, bytes], cx: int, cz: int, sy: int) -> np.ndarray:
    """A sub-chunk's blocks (layer 0) as palette entry bytes, x, z, y (16 each); air if none."""
    value = values.get(struct.pack("<ii", cx, cz) + b"/" + struct.pack("b", sy))
    if value is None:
        return np.full((16, 16, 16), _entry("minecraft:air", ()), dtype=object)
    layer = read_subchunk(value, "test")[1][0]
    return np.array(layer.entries, dtype=object)[layer.indices].reshape(16, 16, 16)


@pytest.fixture
def world(tmp_path) -> Path:
    folder = bedrock_world(tmp_path, 48)
    furnish(folder)
    return folder


@pytest.mark.slow
def test_every_record_outside_the_maze_is_kept_byte_for_byte_and_the_maze_is_as_asked(world, tmp_path):
    """A 5x5 maze (11x4x11 blocks) at 16,16, y -60: four chunks reached, sub-chunk -4 of each.
    Mojang's LevelDB reads every record: the ones not rewritten byte-equal, the rewritten ones
    the maze inside the box (as a new world of the same maze has it) and the old blocks, water,
    chests outside it."""
    before = records(world)
    run("generate", "5x5", "-s", "1", "--into", str(world), "--at", "16,16", "--y", "-60")
    after = records(world)
    run("generate", "5x5", "-s", "1", "-f", "mcworld", "-o", str(tmp_path / "New.mcworld"),
        "--y", "-60")
    new = records(unzipped(tmp_path / "New.mcworld", tmp_path / "New"))
    allowed = touched(0, 1, 0, 1, range(-4, -3))
    assert {k for k in before if before[k] != after.get(k)} <= allowed | {b"\0" * 8 + b";"}
    assert b"\0" * 8 + b";" not in after  # (stale checksums dropped)
    assert {k for k in after if k not in before} <= allowed
    assert all(after[k] == v for k, v in OTHER.items())
    x0 = z0 = 16 - 5
    for cx in (0, 1):
        for cz in (0, 1):
            old, mine = blocks(before, cx, cz, -4), blocks(after, cx, cz, -4)
            for x in range(16):
                for z in range(16):
                    wx, wz = cx * 16 + x, cz * 16 + z
                    for y in range(16):
                        wy = -64 + y
                        if x0 <= wx < x0 + 11 and z0 <= wz < z0 + 11 and -60 <= wy < -56:
                            mx, mz = wx - x0, wz - z0
                            expected = blocks(new, mx >> 4, mz >> 4, -4)[mx & 15, mz & 15, y]
                            assert mine[x, z, y] == expected, (wx, wy, wz)
                        else:
                            assert mine[x, z, y] == old[x, z, y], (wx, wy, wz)
    key = struct.pack("<ii", 0, 0)
    assert after[key + b"1"].startswith(chest(2, -60, 2)) and chest(14, -59, 14) not in after[key + b"1"]
    assert after[key + b"3"] == before[key + b"3"] and after[key + b"/\x00"] == before[key + b"/\x00"]
    water = read_subchunk(after[key + b"/\xfc"], "test")[1][1]
    names = np.array(water.names)[water.indices].reshape(16, 16, 16)
    old_water = np.zeros(4096, bool)
    old_water[::7] = True
    old_water = old_water.reshape(16, 16, 16)
    box = np.zeros((16, 16, 16), bool)
    box[11:16, 11:16, 4:8] = True
    assert ((names == "minecraft:water") == (old_water & ~box)).all()
    heights = np.frombuffer(after[key + b"+"], "<i2", 256).reshape(16, 16)
    old_heights = np.frombuffer(before[key + b"+"], "<i2", 256).reshape(16, 16)
    assert (heights[:11, :] == old_heights[:11, :]).all()  # (outside the box: as it was)
    solid = blocks(after, 0, 0, -4) != np.array(_entry("minecraft:air", ()), dtype=object)
    tops = 16 - np.argmax(solid[:, :, ::-1], axis=2)  # x, z: one above each column's top block
    assert (heights[11:, 11:] == tops[11:, 11:].T).all()  # (inside: its blocks' top)
    assert after[key + b"+"][512:] == before[key + b"+"][512:]  # the biomes
    (backup,) = (world / into_bedrock.BACKUPS).iterdir()
    assert records(backup) == before


def test_the_floor_lies_one_above_the_ground_without_y(world):
    """Without y the maze stands on the ground its heightmap says: the grass at y -61, the
    maze's two layers of wall at -60 and -59, air above; no backup with backup=False."""
    from blockmaze.errors import BlockmazeWarning
    from blockmaze.materials import Material

    with pytest.warns(BlockmazeWarning, match="y -60..-59"):
        into_bedrock.write_into_bedrock(np.full((2, 3, 3), Material.WALL, np.uint8), world,
                                        load_theme(), at=(24, 24), backup=False)
    assert not (world / into_bedrock.BACKUPS).exists()
    mine = blocks(records(world), 1, 1, -4)
    wall, air = mine[8, 8, 4], _entry("minecraft:air", ())
    assert wall != air and mine[8, 8, 5] == wall and mine[8, 8, 6] == air
    assert mine[8, 8, 3] == mine[0, 0, 3] != air  # (the grass under it, as around it)


@pytest.mark.slow
@pytest.mark.parametrize("holder", ["leveldb", "fcntl"])
def test_a_world_the_game_holds_is_refused_and_left_alone(world, holder):
    """Another process holds db/LOCK: Mojang's LevelDB with the database open (what the game
    and a server run), or a bare POSIX lock on the file. One line, exit 1, the world unchanged."""
    site = str(Path(leveldb().__file__).parent.parent)
    hold = (f"import sys; sys.path.insert(0, {site!r}); from leveldb import LevelDB\n"
            f"db = LevelDB({str(world / 'db')!r})\n" if holder == "leveldb" else
            f"import fcntl, os\nfd = os.open({str(world / 'db' / 'LOCK')!r}, os.O_RDWR | os.O_CREAT)\n"
            "fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)\n")
    process = subprocess.Popen([sys.executable, "-c", hold + "import time\nprint('held', flush=True)\n"
                                "time.sleep(60)\n"], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout.readline().strip() == "held"
        files = {p.name: p.read_bytes() for p in (world / "db").iterdir()}
        done = run("generate", "4x4", "-s", "1", "--into", str(world), "--at", "16,16", check=False)
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 1 and len(lines) == 1, done.stderr
        assert "open in Minecraft" in lines[0] and "db/LOCK" in lines[0]
        assert {p.name: p.read_bytes() for p in (world / "db").iterdir()} == files
        assert not (world / into_bedrock.BACKUPS).exists()
    finally:
        process.kill()
        process.wait()
    assert "built into" in run("generate", "4x4", "-s", "1", "--into", str(world), "--at", "16,16").stderr


@pytest.mark.slow
@pytest.mark.parametrize("case", ["mcworld", "no-current", "no-level", "outside", "too-high",
                                  "with-output", "bad-level", "old-chunk", "follow"])
def test_what_is_not_a_bedrock_world_or_not_a_place_in_it_is_refused_in_one_line(world, tmp_path, case):
    args = ["--into", str(world), "--at", "16,16", "--y", "-60"]
    expected = 2
    if case == "mcworld":
        args[1] = str(tmp_path / "W.mcworld")
    elif case == "no-current":
        (world / "db" / "CURRENT").unlink()
    elif case == "no-level":
        (world / "level.dat").unlink()
    elif case == "outside":
        args[3] = "5000,5000"
    elif case == "too-high":
        args[5] = "318"
    elif case == "with-output":
        args += ["-o", str(tmp_path / "m.mcstructure")]
    elif case == "bad-level":
        (world / "level.dat").write_bytes(b"\x0a\x00\x00\x00\x05\x00\x00\x00junk!")
        expected = 1
    elif case == "follow":
        args = args[:4] + ["--terrain", "follow"]
    elif case == "old-chunk":
        db = leveldb().LevelDB(str(world / "db"))
        db.put(struct.pack("<ii", 1, 1) + b",", bytes([22]))
        db.close()
    before = records(world) if (world / "db" / "CURRENT").exists() else None
    done = run("generate", "4x4", "-s", "1", *args, check=False)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == expected and len(lines) == 1 and lines[0].startswith("Error:"), done.stderr
    if before is not None:
        assert records(world) == before


@pytest.mark.slow
@pytest.mark.reader
def test_amulet_reads_the_edited_world_as_a_new_world_of_the_maze(world, tmp_path):
    """Amulet (amulet-core, the editor's engine) opens the world the maze was built into and
    finds, block for block, the maze of a new world of the same options inside the box and the
    world as it was outside it (the stone above, the ground below, the rest of the chunks)."""
    before = tmp_path / "before"
    shutil.copytree(world, before)
    run("generate", "6x6", "-s", "2", "--into", str(world), "--at", "20,20", "--y", "-60", "--entrances")
    run("generate", "6x6", "-s", "2", "-f", "mcworld", "-o", str(tmp_path / "New.mcworld"), "--y", "-60",
        "--entrances")
    new = unzipped(tmp_path / "New.mcworld", tmp_path / "New")
    x0 = z0 = 20 - 6
    inside = [(x, y, z) for x in range(13) for z in range(13) for y in range(-60, -56)]
    outside = [(x, y, z) for x in range(0, 48, 3) for z in range(0, 48, 3) for y in range(-64, 4, 4)
               if not (x0 <= x < x0 + 13 and z0 <= z < z0 + 13 and -60 <= y < -56)]
    found, maze, kept = amulet_names((world, [(x0 + x, y, z0 + z) for x, y, z in inside] + outside),
                                     (new, inside), (before, outside))
    assert found[:len(inside)] == maze and len(set(maze) - {"minecraft:air"}) >= 2
    assert found[len(inside):] == kept
    assert "minecraft:stone" in found[len(inside):]  # (the sub-chunk above, kept)


def kill_test(tmp_path: Path, rounds: int, seed: int = 0, signum: int = signal.SIGKILL) -> dict[str, int]:
    """SIGKILL ``--into`` at ``rounds`` random moments of its run, each on a fresh copy of a
    Bedrock world (a 20x20 maze, 41x41 blocks, over nine chunks); after each the next run's
    cleanup of staged files, then Mojang's LevelDB opens the world as the game would: its records
    all as before or all as a whole run leaves them (and then its backup all as before)."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    source = bedrock_world(tmp_path, 96, "source")
    furnish(source)
    whole = tmp_path / "whole"
    shutil.copytree(source, whole)
    args = ["generate", "20x20", "-s", "3", "--at", "48,48", "--y", "-60", "--into"]
    started = time.monotonic()
    run(*args, str(whole))
    seconds = time.monotonic() - started
    old, new = records(source), records(whole)
    assert old != new
    rng = random.Random(seed)
    counts = {"unchanged": 0, "changed": 0, "broken or mixed": 0}
    world = tmp_path / "world"
    for _ in range(rounds):
        shutil.rmtree(world, ignore_errors=True)
        shutil.copytree(source, world)
        late = rng.random() < 0.5  # half over the whole run, half over its end, where it writes
        kill_round(world, [*args, str(world)], rng.uniform(0.7 * seconds if late else 0.0, seconds * 1.1),
                   signum)
        with world_lock(world, into_bedrock.DB_LOCK):  # what the next run does first
            into_bedrock.recover(world)
        try:
            found = records(world)
        except Exception:  # LevelDB cannot open it: broken
            counts["broken or mixed"] += 1
            continue
        leftovers = list(world.rglob(".blockmaze-*"))
        backups = list((world / into_bedrock.BACKUPS).glob("*")) if (world / into_bedrock.BACKUPS).exists() else []
        if found == old and not leftovers:
            counts["unchanged"] += 1
        elif found == new and not leftovers and len(backups) == 1 and records(backups[0]) == old:
            counts["changed"] += 1
        else:
            counts["broken or mixed"] += 1
            print(f"broken or mixed: records {'as before' if found == old else 'as after' if found == new else 'mixed'}, "
                  f"leftovers {leftovers}, backups {backups}")
    return counts


@pytest.mark.slow
def test_sigkill_at_12_random_moments_leaves_every_world_unchanged_or_wholly_changed(tmp_path):
    """12 moments here (bench/bench_into.py runs 200): 0 broken, 0 mixed, each world opened."""
    assert kill_test(tmp_path, 12) == {"unchanged": ANY, "changed": ANY, "broken or mixed": 0}


@pytest.mark.slow
def test_sigterm_at_6_random_moments_stops_with_one_line_and_the_world_whole(tmp_path):
    """SIGTERM (what a shutdown sends): one line and exit 143, or the run had finished (a stop
    while the batch is written waits for it); every world as it was or wholly changed."""
    assert kill_test(tmp_path, 6, seed=5, signum=signal.SIGTERM)["broken or mixed"] == 0


def test_a_full_disk_as_the_batch_is_written_leaves_the_records_as_they_were(world, monkeypatch):
    """LevelDB refuses the batch (a full disk): one line, every record as it was."""
    before = records(world)
    real = leveldb().LevelDB

    class Full:
        def __init__(self, path):
            self.db = real(path)

        def get(self, key):
            return self.db.get(key)

        def putBatch(self, batch):
            raise leveldb().LevelDBException("IO error: db/000012.log: No space left on device")

        def close(self):
            self.db.close()

    monkeypatch.setattr(leveldb(), "LevelDB", Full)
    from blockmaze.errors import OutputError

    with pytest.raises(OutputError, match="No space left"):
        into_bedrock.write_into_bedrock(np.ones((2, 3, 4), np.uint8), world, load_theme(),
                                        at=(16, 16), y=-60)
    monkeypatch.undo()
    assert records(world) == before


def test_a_subchunk_read_and_written_back_keeps_its_entries_and_blocks():
    """Format 9 with two layers, read back: the same blocks and the same entry bytes."""
    rng = np.random.default_rng(1)
    entries = [_entry(name, ()) for name in ("minecraft:air", "minecraft:stone", "minecraft:dirt")]
    layers = [Layer(rng.integers(0, 3, 4096).astype(np.uint32), entries, ["a", "b", "c"]),
              Layer(np.zeros(4096, np.uint32), entries[:1], ["minecraft:air"])]
    cy, back = read_subchunk(write_subchunk(-3, layers), "test")
    assert cy == -3 and len(back) == 2
    for mine, theirs in zip(back, layers, strict=True):
        assert (np.array(mine.entries, dtype=object)[mine.indices]
                == np.array(theirs.entries, dtype=object)[theirs.indices]).all()
    with pytest.raises(Exception, match="format 07"):
        read_subchunk(b"\x07" + bytes(10), "here")


@pytest.mark.slow
def test_the_change_is_one_record_of_the_log_a_torn_write_of_it_drops_it_whole(world, tmp_path):
    """The batch lands in LevelDB's log as one record: the log cut at 24 random bytes of it (a
    kill or a power cut while it is written) opens, in Mojang's LevelDB, as the world before;
    whole, as the world after."""
    before = records(world)
    run("generate", "5x5", "-s", "1", "--into", str(world), "--at", "16,16", "--y", "-60", "--no-backup")
    left = tmp_path / "left"  # the world as the run left it, before any reader opens it
    shutil.copytree(world, left)
    after = records(world)
    assert after != before
    log = max((left / "db").glob("*.log"), key=lambda p: int(p.stem))
    rng = random.Random(2)
    for size in sorted(rng.randrange(1, log.stat().st_size) for _ in range(24)):
        cut = tmp_path / f"cut{size}"
        shutil.copytree(left, cut)
        with open(cut / "db" / log.name, "r+b") as handle:
            handle.truncate(size)
        assert records(cut) == before, size
        shutil.rmtree(cut)
    assert records(left) == after


def test_without_at_the_maze_stands_around_the_worlds_spawn(world):
    """level.dat's SpawnX and SpawnZ, read from its little-endian NBT after the 8-byte header."""
    from blockmaze.errors import BlockmazeWarning

    data = (world / "level.dat").read_bytes()
    root = nbtlib.File.parse(io.BytesIO(data[8:]), byteorder="little")
    root["SpawnX"], root["SpawnZ"] = nbtlib.Int(30), nbtlib.Int(20)
    body = _nbt(root)
    (world / "level.dat").write_bytes(data[:4] + struct.pack("<i", len(body)) + body)
    with pytest.warns(BlockmazeWarning, match=r"x 29\.\.31, y -60\.\.-60, z 19\.\.21"):
        into_bedrock.write_into_bedrock(np.ones((1, 3, 3), np.uint8), world, load_theme(), y=-60)


def test_a_world_last_opened_in_a_release_older_than_the_mazes_blocks_is_refused(world):
    from blockmaze.errors import BlockmazeError

    data = (world / "level.dat").read_bytes()
    root = nbtlib.File.parse(io.BytesIO(data[8:]), byteorder="little")
    root["lastOpenedWithVersion"] = nbtlib.List[nbtlib.Int]([nbtlib.Int(v) for v in (1, 20, 80, 5, 0)])
    body = _nbt(root)
    (world / "level.dat").write_bytes(data[:4] + struct.pack("<i", len(body)) + body)
    before = records(world)
    with pytest.raises(BlockmazeError, match=r"last opened in Minecraft 1\.20\.80\.5; the maze's "
                       r"blocks are those of 1\.21\.60"):
        into_bedrock.write_into_bedrock(np.ones((1, 3, 3), np.uint8), world, load_theme(), at=(16, 16))
    assert records(world) == before


@pytest.mark.slow
def test_a_full_disk_at_any_moment_leaves_the_world_as_it_was_or_wholly_changed(tmp_path, small_disk):
    """A Bedrock world on a disk with room for it and then 0 to 256 KiB more (LevelDB replaying
    its log into a table, the backup's copies and the change fill it): every run fails with one
    line and exit 1 with the world's records as they were and no staged file left, or succeeds
    whole."""
    source = bedrock_world(tmp_path, 96, "source")
    furnish(source)
    whole = tmp_path / "whole"
    shutil.copytree(source, whole)
    args = ["generate", "20x20", "-s", "3", "--at", "48,48", "--y", "-60"]  # (with its backup)
    run(*args, "--into", str(whole))
    old, new = records(source), records(whole)  # (opened: the source's files as the copies' now)
    size = sum(-(-p.stat().st_size // 4096) * 4096 + 4096 for p in source.rglob("*"))  # (pages)
    outcomes = {"refused": 0, "built": 0}
    for extra in (0, 24 << 10, 64 << 10, 256 << 10):
        disk = small_disk(size + extra)
        world = disk / "W"
        shutil.copytree(source, world)
        done = run(*args, "--into", str(world), check=False)
        copy = tmp_path / f"copy{extra}"
        shutil.copytree(world, copy)  # (read where LevelDB has room to open it)
        if done.returncode:
            assert done.returncode == 1 and "No space left" in done.stderr, done.stderr
            assert len(done.stderr.strip().splitlines()) == 1, done.stderr
            assert records(copy) == old and not list(world.rglob(".blockmaze-*"))
            outcomes["refused"] += 1
        else:
            assert records(copy) == new and not list(world.rglob(".blockmaze-*"))
            outcomes["built"] += 1
        shutil.rmtree(copy)
    assert outcomes["refused"] and outcomes["built"], outcomes


@pytest.mark.slow
@pytest.mark.parametrize("mark", ["backing-up", "backed-up"])
def test_a_run_killed_while_it_backs_up_or_before_its_batch_leaves_the_world_as_it_was(world, tmp_path, mark):
    """SIGKILL with the backup half made (its staged folder in blockmaze-backups/) or made but
    the batch not written: the world's records as they were; the next run removes the half-made
    backup, keeps a whole one, and builds."""
    before = records(world)
    marks = tmp_path / "marks"
    marks.mkdir()
    env = {**os.environ, "BLOCKMAZE_STOPS_MARKS": str(marks), "BLOCKMAZE_STOPS_PAUSE": mark}
    args = ["generate", "5x5", "-s", "1", "--into", str(world), "--at", "16,16", "--y", "-60"]
    process = subprocess.Popen([*COMMAND, *args], env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not (marks / mark).exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    from blockmaze.errors import OutputError

    with pytest.raises(OutputError, match="open in Minecraft"):  # the run holds db/LOCK
        with world_lock(world, into_bedrock.DB_LOCK):
            pass
    process.send_signal(signal.SIGKILL)
    process.wait()
    staged = list((world / into_bedrock.BACKUPS).glob(".blockmaze-*"))
    assert len(staged) == (mark == "backing-up")
    run(*args)
    assert records(world) != before and not list(world.rglob(".blockmaze-*"))
    backups = sorted((world / into_bedrock.BACKUPS).iterdir())
    assert len(backups) == 1 + (mark == "backed-up")
    assert all(records(backup) == before for backup in backups)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 300), st.integers(0, 2**32 - 1)), min_size=1, max_size=3),
       st.integers(-4, 19))
def test_any_subchunk_written_reads_back_block_for_block(layers, cy):
    """Any layers (palettes of 1 to 300 entries: every index width from 1 to 16 bits), written
    and read back: the same entry at every position, only the entries used, its y."""
    made = []
    for size, seed in layers:
        rng = np.random.default_rng(seed)
        entries = [_entry(f"minecraft:b{i}", ()) for i in range(size)]
        made.append(Layer(rng.integers(0, size, 4096).astype(np.uint32), entries,
                          [f"minecraft:b{i}" for i in range(size)]))
    back_y, back = read_subchunk(write_subchunk(cy, made), "test")
    assert back_y == cy and len(back) == len(made)
    for mine, theirs in zip(back, made, strict=True):
        assert (np.array(mine.entries, dtype=object)[mine.indices]
                == np.array(theirs.entries, dtype=object)[theirs.indices]).all()
        assert len(mine.entries) == len(np.unique(theirs.indices))
