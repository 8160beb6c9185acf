"""--into WORLD: a maze built into an existing Java world folder, read back with anvil-parser2 (an
independent reader): the maze block for block equal to the .schem of the same options, everything
outside it as it was (untouched chunks and files byte-equal, blocks, biomes and block entities of
the touched chunks equal); refusals in one line; a run stopped or failing at its renames finished
by the next run; SIGKILL at random moments of --into leaves the world unchanged or wholly changed."""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import readers
from blockmaze.export.minecraft import into as into_module
from blockmaze.export.minecraft.anvil import region_records
from blockmaze.export.minecraft.world import write_world
from blockmaze.materials import Material, load_theme
from schem_checker import read_schem
from world_checker import check_world

COMMAND = [sys.executable, "-m", "blockmaze"]


def anvil():
    return readers.module("anvil", "anvil-parser2")


def run(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run([*COMMAND, *args], capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if check and done.returncode:
        raise AssertionError(f"blockmaze {' '.join(args)} exited {done.returncode}: {done.stderr}")
    return done


def state(block) -> str:
    return block.name() + ("[" + ",".join(f"{k}={v}" for k, v in sorted(block.properties.items())) + "]"
                           if block.properties else "")


def files(folder: Path, stamped: bool = True) -> dict[str, str]:
    """Every file of a world by its path: its sha256 (backups, journal, staged files and the
    lock left out: what the game reads)."""
    out = {}
    for path in sorted(folder.rglob("*")):
        name = path.relative_to(folder).as_posix()
        if (path.is_file() and not name.startswith(into_module.BACKUPS) and ".blockmaze-" not in name
                and name not in ("session.lock", into_module.JOURNAL)):
            data = path.read_bytes()
            if name.endswith(".mca") and not stamped:  # the chunks' times of saving left out
                data = data[:4096] + data[8192:]
            out[name] = hashlib.sha256(data).hexdigest()
    return out


def chunk_records(path: Path) -> dict[int, bytes]:
    return {slot: record for slot, (record, _) in region_records(path.read_bytes(), path.name).items()}


def box_of(shape, at):
    height, length, width = shape
    return at[0] - width // 2, at[1] - length // 2


def compare(before: Path, after: Path, shape, corner, y, schem: Path) -> None:
    """The maze's box in ``after`` equals the .schem block for block; outside it ``after`` equals
    ``before``: region files and chunks it does not reach byte for byte, and in the chunks it
    reaches every block, biome and block entity outside the box."""
    height, length, width = shape
    x0, z0 = corner
    expected = read_schem(schem.read_bytes()).blocks
    reached = {(cx, cz) for cz in range(z0 >> 4, ((z0 + length - 1) >> 4) + 1)
               for cx in range(x0 >> 4, ((x0 + width - 1) >> 4) + 1)}
    for path in sorted((before / "region").glob("r.*.mca")):
        rx, rz = (int(v) for v in path.name.split(".")[1:3])
        new = after / "region" / path.name
        if not any(cx >> 5 == rx and cz >> 5 == rz for cx, cz in reached):
            assert new.read_bytes() == path.read_bytes(), path.name
            continue
        old_records, new_records = chunk_records(path), chunk_records(new)
        assert set(old_records) == set(new_records)
        old_region, new_region = anvil().Region.from_file(str(path)), anvil().Region.from_file(str(new))
        for slot in old_records:
            cx, cz = rx * 32 + slot % 32, rz * 32 + slot // 32
            if (cx, cz) not in reached:
                assert old_records[slot] == new_records[slot], (cx, cz)
                continue
            old, mine = old_region.get_chunk(cx % 32, cz % 32), new_region.get_chunk(cx % 32, cz % 32)
            top = max(y + height, -64 + 16 * len([s for s in old.data["sections"] if "block_states" in s]))
            for by in range(-64, top):
                for z in range(16):
                    for x in range(16):
                        wx, wz = cx * 16 + x, cz * 16 + z
                        found = state(mine.get_block(x, by, z))
                        if x0 <= wx < x0 + width and z0 <= wz < z0 + length and y <= by < y + height:
                            assert found == expected[by - y, wz - z0, wx - x0], (wx, by, wz)
                        else:
                            assert found == state(old.get_block(x, by, z)), (wx, by, wz)
                        if by % 4 == 0 and x % 4 == 0 and z % 4 == 0 and by < -64 + 16 * 2:
                            assert mine.get_biome(x, by, z) == old.get_biome(x, by, z)

            def inside(tag):
                return (x0 <= tag["x"].value < x0 + width and z0 <= tag["z"].value < z0 + length
                        and y <= tag["y"].value < y + height)

            kept = [str(t) for t in old.tile_entities if not inside(t)]
            assert [str(t) for t in mine.tile_entities if not inside(t)] == kept
            assert int(mine.data["isLightOn"].value) == 0
            assert mine.data["DataVersion"].value == old.data["DataVersion"].value
            assert mine.data["Status"].value == old.data["Status"].value


@pytest.mark.reader
def test_a_maze_built_into_a_world_equals_its_schem_and_leaves_the_rest_as_it_was(tmp_path):
    """A world blockmaze made (a 40x40 maze on grass), a 10x10 maze built into it across four
    chunks; the replaced region file is in the backup."""
    world = tmp_path / "W"
    run("generate", "40x40", "-s", "1", "-f", "world", "-o", str(world), "--terrain", "grass")
    before = tmp_path / "before"
    shutil.copytree(world, before)
    run("generate", "10x10", "-s", "2", "-o", str(tmp_path / "m.schem"))
    done = run("generate", "10x10", "-s", "2", "--into", str(world), "--at", "30,30", "--y", "-60")
    assert "into" in done.stdout + done.stderr
    shape = read_schem((tmp_path / "m.schem").read_bytes()).blocks.shape
    compare(before, world, shape, box_of(shape, (30, 30)), -60, tmp_path / "m.schem")
    check_world(world, 3700, heightmaps=False)  # the strict checker: layout, palettes, padding
    (backup,) = (world / into_module.BACKUPS).iterdir()
    assert (backup / "region" / "r.0.0.mca").read_bytes() == (before / "region" / "r.0.0.mca").read_bytes()
    assert not (world / into_module.JOURNAL).exists()
    assert not [p for p in world.rglob(".blockmaze-*")]


@pytest.mark.reader
@pytest.mark.slow
def test_into_a_world_of_four_regions_with_block_entities_and_entities(tmp_path):
    """A dungeon with spawners and chests over four region files, an entities/ file beside; a maze
    with chests built across the corner of the four regions: the entities file and the region
    files it does not reach stay byte-equal, the dungeon's block entities outside the box stay."""
    world = tmp_path / "W"
    run("dungeon", "300x300", "-s", "4", "--spawns", "20:10:4", "-f", "world", "-o", str(world),
        "--terrain", "grass")
    regions = sorted(p.name for p in (world / "region").iterdir())
    assert len(regions) == 4, regions
    (world / "entities").mkdir()
    shutil.copy(world / "region" / "r.1.1.mca", world / "entities" / "r.0.0.mca")  # opaque to --into
    before = tmp_path / "before"
    shutil.copytree(world, before)
    options = ["dungeon", "20x20", "-s", "5", "--spawns", "4:4:2"]
    run(*options, "-o", str(tmp_path / "m.schem"))
    run(*options, "--into", str(world), "--at", "512,512", "--y", "-60", "--no-backup")
    shape = read_schem((tmp_path / "m.schem").read_bytes()).blocks.shape
    compare(before, world, shape, box_of(shape, (512, 512)), -60, tmp_path / "m.schem")
    check_world(world, 3700, heightmaps=False)
    assert (world / "entities" / "r.0.0.mca").read_bytes() == (before / "entities" / "r.0.0.mca").read_bytes()
    assert not (world / into_module.BACKUPS).exists()
    schem = read_schem((tmp_path / "m.schem").read_bytes())
    x0, z0 = box_of(shape, (512, 512))
    placed = []
    for cz in range(z0 >> 4, ((z0 + shape[1] - 1) >> 4) + 1):
        for cx in range(x0 >> 4, ((x0 + shape[2] - 1) >> 4) + 1):
            region = anvil().Region.from_file(str(world / "region" / f"r.{cx >> 5}.{cz >> 5}.mca"))
            placed += [(t["id"].value, t["x"].value - x0, t["y"].value + 60, t["z"].value - z0)
                       for t in region.get_chunk(cx % 32, cz % 32).tile_entities
                       if x0 <= t["x"].value < x0 + shape[2] and z0 <= t["z"].value < z0 + shape[1]]
    assert placed and {p[0] for p in placed} <= {"minecraft:chest", "minecraft:mob_spawner"}
    assert len(placed) == len(schem.block_entities)


def test_the_floor_lies_one_above_the_ground_without_y(tmp_path):
    """No --y: the maze's lowest layer is one above the ground (grass at y -61: the layer at -60)."""
    world = tmp_path / "W"
    write_world(np.zeros((1, 64, 64), np.uint8), world, load_theme(), terrain="grass", y=-60)
    volume = np.full((2, 5, 5), Material.WALL, np.uint8)
    into_module.write_into(volume, world, load_theme("glass"), at=(32, 32), backup=False)
    region = anvil().Region.from_file(str(world / "region" / "r.0.0.mca"))
    chunk = region.get_chunk(2, 2)
    assert chunk.get_block(0, -61, 0).name() == "minecraft:grass_block"
    assert chunk.get_block(0, -60, 0).name() != "minecraft:air"
    assert chunk.get_block(0, -59, 0).name() != "minecraft:air"
    assert chunk.get_block(0, -58, 0).name() == "minecraft:air"
    assert not chunk.data["Heightmaps"].tags  # (the game computes them again)
    # again there, before the game has opened the world: the ground found from the blocks
    into_module.write_into(volume, world, load_theme("glass"), at=(32, 32), backup=False)
    chunk = anvil().Region.from_file(str(world / "region" / "r.0.0.mca")).get_chunk(2, 2)
    assert [chunk.get_block(0, y, 0).name() != "minecraft:air" for y in range(-60, -55)] == [True] * 4 + [False]


def refusal(*args: str) -> tuple[int, str]:
    done = run("generate", "4x4", "-s", "1", *args, check=False)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return done.returncode, lines[0]


@pytest.fixture
def small_world(tmp_path) -> Path:
    world = tmp_path / "W"
    write_world(np.zeros((1, 48, 48), np.uint8), world, load_theme(), terrain="grass", y=-60)
    return world


def test_a_world_the_game_holds_is_refused_and_left_alone(small_world):
    """Another process holds session.lock as the game does (a POSIX lock): one line, exit 1."""
    (small_world / "session.lock").write_bytes("\u2603".encode())
    holder = subprocess.Popen([sys.executable, "-c", (
        "import fcntl, os, sys, time\n"
        f"fd = os.open({str(small_world / 'session.lock')!r}, os.O_RDWR)\n"
        "fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)\n"
        "print('held', flush=True)\n"
        "time.sleep(60)\n")], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        before = files(small_world)
        code, line = refusal("--into", str(small_world), "--at", "24,24")
        assert code == 1 and "open in Minecraft" in line and "session.lock" in line
        assert files(small_world) == before
    finally:
        holder.kill()
        holder.wait()
    done = run("generate", "4x4", "-s", "1", "--into", str(small_world), "--at", "24,24")
    assert "built into" in done.stderr and files(small_world) != before


@pytest.mark.parametrize("case", ["missing", "file", "bedrock", "no-level", "outside", "too-high",
                                  "with-output"])
def test_what_is_not_a_world_or_not_a_place_in_it_is_refused_in_one_line(small_world, case):
    world = small_world
    args = ["--into", str(world), "--at", "24,24"]
    expected = 2
    if case == "missing":
        args[1] = str(world.parent / "nothing")
    elif case == "file":
        args[1] = str(world / "level.dat")
    elif case == "bedrock":
        (world / "db").mkdir()
    elif case == "no-level":
        (world / "level.dat").unlink()
    elif case == "outside":
        args[3] = "5000,5000"
    elif case == "too-high":
        args += ["--y", "318"]
    elif case == "with-output":
        args += ["-o", str(world.parent / "m.schem")]
    before = files(world) if (world / "level.dat").exists() else None
    code, line = refusal(*args)
    assert code == expected and line.startswith("Error:"), line
    if before is not None:
        assert files(world) == before


def test_a_run_that_fails_at_its_renames_is_finished_by_the_next(tmp_path, monkeypatch):
    """The journal is written, then the first rename fails: the error is raised, the world's
    region file is still the old one, and recover() (what the next --into or info runs) makes
    it wholly the new one, as a clean run does."""
    theme = load_theme("glass")
    volume = np.full((3, 20, 20), Material.WALL, np.uint8)
    clean, broken = tmp_path / "clean", tmp_path / "broken"
    for world in (clean, broken):
        write_world(np.zeros((1, 64, 64), np.uint8), world, load_theme(), terrain="grass", y=-60,
                    name="W")
    into_module.write_into(volume, clean, theme, at=(32, 32), y=-60)
    from blockmaze.export import target

    real = os.replace
    calls = []

    def failing(source, final):
        calls.append(final)
        if str(final).endswith(".mca"):
            raise OSError(5, "Input/output error")
        return real(source, final)

    before = files(broken)
    monkeypatch.setattr(target.os, "replace", failing)
    with pytest.raises(OSError):
        into_module.write_into(volume, broken, theme, at=(32, 32), y=-60)
    monkeypatch.setattr(target.os, "replace", real)
    assert files(broken) == before and (broken / into_module.JOURNAL).exists()
    assert into_module.finish_unfinished(broken)
    assert files(broken, stamped=False) == files(clean, stamped=False)
    assert not [p for p in broken.rglob(".blockmaze-*")]
    (backup,) = (broken / into_module.BACKUPS).iterdir()
    assert {k: v for k, v in files(backup).items() if k != "README.txt"} == \
        {k: v for k, v in before.items() if k.startswith("region/")}


def kill_round(world: Path, args: list[str], delay: float, signum: int = signal.SIGKILL) -> str:
    """Run ``blockmaze ARGS``, send ``signum`` after ``delay`` seconds; what it said on stderr."""
    process = subprocess.Popen([*COMMAND, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               text=True)
    time.sleep(delay)
    process.send_signal(signum)
    _, said = process.communicate()
    if signum != signal.SIGKILL:  # a stop the run takes: one line, or the run had finished
        assert process.returncode in (0, 128 + signum), said
        lines = [line for line in said.splitlines() if line]
        if process.returncode:  # after the run's own lines (the world built, the run's summary),
            *before, stop = lines  # if they came first
            assert stop.startswith("Error: ") and all(
                line.startswith(("Warning: built into", "wrote ")) for line in before), said
            assert not before or "no file was changed" not in stop, said
    return said


def kill_test(tmp_path: Path, rounds: int, seed: int = 0, signum: int = signal.SIGKILL,
              ground: tuple[str, ...] = ("--y", "-60")) -> dict[str, int]:
    """SIGKILL ``--into`` at ``rounds`` random moments of its run, each on a fresh copy of a world
    of four region files; after each the next run's recovery (:func:`recover`, as ``info`` and
    ``--into`` run it) and a check: the world's files are all as before or all as a whole run
    leaves them. ``ground``: the options saying where the maze stands. Returns the counts of
    each outcome."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    source = tmp_path / "source"
    write_world(np.zeros((1, 544, 544), np.uint8), source, load_theme(), terrain="grass", y=-60)
    whole = tmp_path / "whole"
    shutil.copytree(source, whole)
    # four region files, all reached by the maze at 512,512
    args = ["generate", "30x30", "-s", "3", "--at", "512,512", *ground, "--into"]
    started = time.monotonic()
    run(*args, str(whole))
    seconds = time.monotonic() - started
    old, new = files(source), files(whole, stamped=False)
    assert old != new
    rng = random.Random(seed)
    counts = {"unchanged": 0, "changed": 0, "finished by recovery": 0, "broken or mixed": 0}
    world = tmp_path / "world"
    for _ in range(rounds):
        shutil.rmtree(world, ignore_errors=True)
        shutil.copytree(source, world)
        # half over the whole run, half over its end, where it writes and renames
        late = rng.random() < 0.5
        kill_round(world, [*args, str(world)], rng.uniform(0.7 * seconds if late else 0.0, seconds * 1.1),
                   signum)
        journaled = (world / into_module.JOURNAL).exists()
        with into_module.world_lock(world):
            into_module.recover(world)
        leftovers = [p for p in world.rglob(".blockmaze-*")]
        if files(world) == old and not leftovers:
            counts["unchanged"] += 1
        elif files(world, stamped=False) == new and not leftovers:
            counts["finished by recovery" if journaled else "changed"] += 1
        else:
            counts["broken or mixed"] += 1
    return counts


@pytest.mark.slow
def test_sigkill_at_40_random_moments_leaves_every_world_unchanged_or_wholly_changed(tmp_path):
    """40 moments here (bench/bench_into.py runs 200): 0 broken, 0 mixed."""
    counts = kill_test(tmp_path, 40)
    assert counts["broken or mixed"] == 0, counts
    assert sum(counts.values()) == 40


@pytest.mark.slow
def test_sigterm_at_20_random_moments_stops_with_one_line_and_the_world_whole(tmp_path):
    """SIGTERM (what a shutdown sends) at 20 random moments: one line and exit 143, or the run
    had finished; every world unchanged or wholly changed."""
    counts = kill_test(tmp_path, 20, seed=5, signum=signal.SIGTERM)
    assert counts["broken or mixed"] == 0, counts


@pytest.mark.parametrize("mark", ["journaled", "renamed"])
def test_a_run_killed_after_its_journal_is_finished_by_the_next(tmp_path, mark):
    """SIGKILL once the journal is written, before any rename (``journaled``: the world is the
    old one until the next run, here ``info``, finishes it), or once the region files are renamed
    but not the backup (``renamed``): either way the next run leaves it wholly changed."""
    world = tmp_path / "W"
    write_world(np.zeros((1, 544, 544), np.uint8), world, load_theme(), terrain="grass", y=-60)
    before = files(world)
    marks = tmp_path / "marks"
    marks.mkdir()
    env = {**os.environ, "BLOCKMAZE_STOPS_MARKS": str(marks), "BLOCKMAZE_STOPS_PAUSE": mark}
    process = subprocess.Popen([*COMMAND, "generate", "30x30", "-s", "3", "--at", "512,512", "--y",
                                "-60", "--into", str(world)], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not (marks / mark).exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    from blockmaze.errors import OutputError

    with pytest.raises(OutputError, match="open in Minecraft"):  # the run holds the world's lock
        with into_module.world_lock(world):
            pass
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert (world / into_module.JOURNAL).exists()
    staged = list((world / "region").glob(".blockmaze-*"))
    if mark == "journaled":
        assert files(world) == before and len(staged) == 4
    else:
        assert not staged and files(world) != before
    run("info", str(world))
    assert not (world / into_module.JOURNAL).exists()
    assert not list(world.rglob(".blockmaze-*"))
    changed = files(world)
    assert all(changed[name] != before[name] for name in before if name.startswith("region/"))
    (backup,) = (world / into_module.BACKUPS).iterdir()
    assert sorted(p.name for p in (backup / "region").iterdir()) == sorted(
        p.name for p in (world / "region").iterdir())


@pytest.mark.slow
@pytest.mark.reader
def test_the_bot_walks_from_the_worlds_spawn_into_a_maze_built_into_it(tmp_path):
    """The game's bot (tests/game.py: flying-squid opens the world folder as its world) starts
    where the game puts the player and a joining player, walks over the world's ground to the
    maze built into it and through its entrance to the goal."""
    from blockmaze import pipeline, writing
    from blockmaze.export.minecraft.into import INTO
    from game import feet_on, walk

    world = tmp_path / "W"
    write_world(np.zeros((1, 128, 128), np.uint8), world, load_theme(), terrain="grass", y=-60)
    document = pipeline.make_maze((8, 10), "square", seed=3, entrances=True)
    volume = writing.save(document, world, format=INTO, solution=True, at=(64, 64), y=-60)
    x0, z0 = box_of(volume.shape, (64, 64))
    gx, gy, gz = feet_on(volume, Material.GOAL)
    results = walk(world={"folder": world, "goal": [x0 + gx, gy - 60, z0 + gz], "route": [],
                          "starts": ["player", "spawn"]}, timeout=60, bots=2)
    failed = [f"{r['name']}: {r['why']} at {r['at']} (goal {r['goal']})" for r in results if not r["reached"]]
    assert not failed, "\n".join(failed)


@pytest.fixture
def small_disk(tmp_path):
    """A tmpfs of its own, remounted at each size asked (root only: skipped elsewhere)."""
    folder = tmp_path / "disk"
    folder.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small disk needs root")
    mounted = []

    def sized(size: int) -> Path:
        if mounted:
            subprocess.run(["umount", str(folder)], check=True)
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
                              capture_output=True, text=True)
        if done.returncode:
            pytest.skip(f"cannot mount a tmpfs: {done.stderr.strip()}")
        mounted.append(size)
        return folder

    yield sized
    if mounted:
        subprocess.run(["umount", str(folder)], check=False)


@pytest.mark.slow
@pytest.mark.parametrize("backup", [True, False])
def test_a_full_disk_at_any_moment_leaves_the_world_as_it_was_or_wholly_changed(tmp_path, small_disk, backup):
    """A world of four region files on a disk with room for it and then 0 to 5 MB more (what
    the new region files need: the disk fills while they are written): every run either fails
    with one line and exit 1, the world as it was and no staged file left, or succeeds whole."""
    source = tmp_path / "source"
    write_world(np.zeros((1, 544, 544), np.uint8), source, load_theme(), terrain="grass", y=-60)
    size = sum(p.stat().st_size for p in source.rglob("*") if p.is_file())
    whole = tmp_path / "whole"
    shutil.copytree(source, whole)
    args = ["generate", "30x30", "-s", "3", "--at", "512,512", "--y", "-60"]
    args += [] if backup else ["--no-backup"]
    run(*args, "--into", str(whole))
    old, new = files(source), files(whole, stamped=False)
    outcomes = {"refused": 0, "built": 0}
    for extra in range(0, 5_400_000, 450_000):
        disk = small_disk(size + 64 * 1024 + extra)
        world = disk / "W"
        shutil.copytree(source, world)
        done = run(*args, "--into", str(world), check=False)
        if done.returncode:
            assert done.returncode == 1 and "No space left" in done.stderr, done.stderr
            assert len(done.stderr.strip().splitlines()) == 1, done.stderr
            assert files(world) == old and not list(world.rglob(".blockmaze-*"))
            outcomes["refused"] += 1
        else:
            assert files(world, stamped=False) == new and not list(world.rglob(".blockmaze-*"))
            outcomes["built"] += 1
    assert outcomes["refused"] and outcomes["built"], outcomes


AMULET_READ = """
import json, sys
import amulet
found = []
for folder, places in json.load(sys.stdin):
    level = amulet.load_level(folder)
    names = []
    for x, y, z in places:
        block = level.get_version_block(x, y, z, "minecraft:overworld", ("java", (1, 20, 4)))[0]
        names.append(block.namespaced_name)
    level.close()
    found.append(names)
print(json.dumps(found))
"""


def amulet_names(*worlds: tuple[Path, list]) -> list[list[str]]:
    """For each (folder, places) the Java block names Amulet reads at the places (x, y, z) of the
    world in the folder (a Java or a Bedrock world: Amulet translates); one launch of Amulet."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    asked = json.dumps([[str(folder), places] for folder, places in worlds])
    done = subprocess.run([readers.amulet_python(), "-c", AMULET_READ], input=asked,
                          capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.slow
@pytest.mark.reader
def test_amulet_reads_the_edited_world_as_the_schem_says(tmp_path):
    """Amulet (amulet-core, the editor's engine: a second independent reader) opens the world a
    maze was built into and finds the .schem's block names inside the box, the world's outside."""
    world = tmp_path / "W"
    run("generate", "20x20", "-s", "1", "-f", "world", "-o", str(world), "--terrain", "grass")
    before = tmp_path / "before"
    shutil.copytree(world, before)
    run("generate", "6x6", "-s", "2", "-o", str(tmp_path / "m.schem"), "--entrances")
    run("generate", "6x6", "-s", "2", "--into", str(world), "--at", "20,20", "--y", "-60",
        "--entrances")
    blocks = read_schem((tmp_path / "m.schem").read_bytes()).blocks
    x0, z0 = box_of(blocks.shape, (20, 20))
    rng = np.random.default_rng(0)
    inside = [(int(x0 + x), int(-60 + y), int(z0 + z)) for y, z, x in
              zip(*(rng.integers(0, side, 150) for side in blocks.shape), strict=True)]
    outside = [(int(x), int(y), int(z)) for x, y, z in
               zip(rng.integers(0, 41, 150), rng.integers(-64, -50, 150), rng.integers(0, 41, 150), strict=True)
               if not (x0 <= x < x0 + blocks.shape[2] and z0 <= z < z0 + blocks.shape[1] and -60 <= y < -56)]
    found, kept = amulet_names((world, inside + outside), (before, outside))
    assert found[:len(inside)] == [blocks[y + 60, z - z0, x - x0].partition("[")[0] for x, y, z in inside]
    assert found[len(inside):] == kept


def test_a_disk_full_as_the_journal_is_written_leaves_the_world_as_it_was(tmp_path, monkeypatch):
    """The region files are staged and backed up, then the journal cannot be written: one
    OutputError naming it, the world as it was, nothing staged left behind."""
    from blockmaze.errors import OutputError

    world = tmp_path / "W"
    write_world(np.zeros((1, 64, 64), np.uint8), world, load_theme(), terrain="grass", y=-60)
    before = files(world)

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(into_module.json, "dump", full)
    with pytest.raises(OutputError, match="cannot write .*blockmaze-into.journal: No space left"):
        into_module.write_into(np.ones((2, 5, 5), np.uint8), world, load_theme(), at=(32, 32), y=-60)
    assert files(world) == before
    assert not list(world.rglob(".blockmaze-*")) and not (world / into_module.BACKUPS).exists()


def test_a_chunk_of_another_world_height_or_not_fully_generated_is_refused(small_world):
    """A chunk whose lowest section is not y -64 (a data pack's height), and one the game has not
    finished generating: refused in one line, the world as it was."""
    import io as bytes_io
    import zlib

    import nbtlib

    from blockmaze.export.minecraft.anvil import RegionWriter

    path = small_world / "region" / "r.0.0.mca"
    for field, value in (("yPos", nbtlib.Int(-8)), ("Status", nbtlib.String("minecraft:features"))):
        records = region_records(path.read_bytes(), path.name)
        out = bytes_io.BytesIO()
        region = RegionWriter(out)
        for slot, (record, _) in sorted(records.items()):
            chunk = nbtlib.File.parse(bytes_io.BytesIO(zlib.decompress(record[5:])))
            chunk[field] = value
            buffer = bytes_io.BytesIO()
            chunk.write(buffer)
            region.add(slot % 32, slot // 32, buffer.getvalue())
        region.close()
        backup = path.read_bytes()
        path.write_bytes(out.getvalue())
        before = files(small_world)
        code, line = refusal("--into", str(small_world), "--at", "24,24", "--y", "-60")
        assert code == 2 and ("another height" in line if field == "yPos" else "not fully generated" in line), line
        assert files(small_world) == before
        path.write_bytes(backup)
