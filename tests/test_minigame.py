"""The maze minigame datapack (``generate --minigame N -o maze.zip``): checked by
``mcfunction_checker``, run in its :class:`~mcfunction_checker.Game`, and every command parsed for
its release by mecha, the command parser of the beet datapack toolchain (a reader of its own venv:
``readers.mecha_python``).

flying-squid (the game server of tests/game.py) runs no datapack functions, so the bot does not
walk the minigame; the Game simulator runs the pack's commands instead.
"""

from __future__ import annotations

import functools
import io
import json
import subprocess
import tempfile
import zipfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import blockmaze as bm
from blockmaze.export.minecraft.minigame import (BEST, FINISH_PLATE, FINISH_TAG, START_PLATE,
                                                 START_TAG, layout_seed)
from blockmaze.jobs import run
from mcfunction_checker import DatapackError, Game, read_datapack
import readers

RELEASES = ["1.14", "1.16.5", "1.17", "1.20.4", "1.21", "1.21.4", "1.21.11"]
PLAYER = (10.5, 64.0, 10.5)


def pack_bytes(tmp_path: Path, seed: int = 7, layouts: int | None = 3, size=(6, 7),
               mc_version: str = "1.20.4", **options) -> bytes:
    path = tmp_path / f"maze-{seed}-{layouts}-{mc_version}.zip"
    run("generate", size=size, seed=seed, minigame=layouts, output=str(path),
        format_="datapack", mc_version=mc_version, **options)
    return path.read_bytes()


def relative(game: Game) -> dict:
    """The blocks placed, relative to the least corner of the box they fill."""
    corner = [min(p[i] for p in game.blocks) for i in range(3)]
    return {tuple(p[i] - corner[i] for i in range(3)): state for p, state in game.blocks.items()}


def built(data: bytes, mc_version: str, *functions: str) -> Game:
    """A player at PLAYER runs each function in turn, each build left to finish."""
    game = Game(read_datapack(data, mc_version))
    player = game.player("Alex", PLAYER)
    for name in functions:
        game.run(name, player)
        game.settle()
    return game


def plates(game: Game) -> dict:
    return {p: s for p, s in relative(game).items() if s in (START_PLATE, FINISH_PLATE)}


@pytest.mark.parametrize("mc_version", RELEASES)
def test_every_release_has_its_folders_and_format(tmp_path, mc_version):
    """Functions and function tags in the release's folders, pack_format as a plain pack's."""
    data = pack_bytes(tmp_path, mc_version=mc_version)
    pack = read_datapack(data, mc_version)
    plain = read_datapack(pack_bytes(tmp_path, layouts=None, mc_version=mc_version), mc_version)
    assert {k: v for k, v in pack.meta["pack"].items() if k != "description"} == \
        {k: v for k, v in plain.meta["pack"].items() if k != "description"}
    folder = "function" if mc_version >= "1.21" else "functions"
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert f"data/minecraft/tags/{folder}/tick.json" in names
    assert f"data/blockmaze/{folder}/next.mcfunction" in names
    assert pack.tags == {"minecraft:load": ["blockmaze:load"], "minecraft:tick": ["blockmaze:tick"]}
    marker = "minecraft:marker" if mc_version >= "1.17" else "minecraft:armor_stand"
    assert {e.type for e in built(data, mc_version, "blockmaze:build").entities} == \
        {"minecraft:player", marker}


@pytest.mark.parametrize("mc_version", ["1.16.5", "1.21.4"])
def test_next_twice_builds_layout_2_as_its_plain_pack(tmp_path, mc_version):
    """``next`` run first builds layout 1 (as ``build``), again builds layout 2 over it: block for
    block the maze a plain pack of layout 2's seed builds, plus the two plates."""
    seed = 11
    data = pack_bytes(tmp_path, seed, 3, mc_version=mc_version)
    game = built(data, mc_version, "blockmaze:next")
    first = built(pack_bytes(tmp_path, seed, None, mc_version=mc_version), mc_version, "blockmaze:build")
    assert game.blocks.keys() == first.blocks.keys()  # build and next place layout 1 alike
    layout1 = relative(game)
    assert {p: s for p, s in layout1.items() if p not in plates(game)} == \
        {p: s for p, s in relative(first).items() if p not in plates(game)}
    player = next(e for e in game.entities if e.name == "Alex")
    game.run("blockmaze:next", player)
    game.settle()
    plain = relative(built(pack_bytes(tmp_path, layout_seed(seed, 1), None, mc_version=mc_version),
                           mc_version, "blockmaze:build"))
    found = relative(game)
    differ = {p for p in found if found[p] != plain.get(p)}
    assert found.keys() == plain.keys()
    assert sorted(found[p] for p in differ) == sorted([START_PLATE, FINISH_PLATE])
    assert all(plain[p] == "minecraft:air" for p in differ)
    assert found != layout1
    assert sum(m.endswith("layout 2 of 3 is ready: step off the gold plate to start the clock, "
                          "reach the iron plate") for m in game.messages) == 1


def test_next_cycles_back_to_layout_1(tmp_path):
    """With 2 layouts, next after layout 2 builds layout 1 again, the same blocks."""
    data = pack_bytes(tmp_path, 5, 2)
    once = relative(built(data, "1.20.4", "blockmaze:build"))
    again = built(data, "1.20.4", "blockmaze:build", "blockmaze:next", "blockmaze:next")
    assert relative(again) == once
    assert again.score("#layout", "blockmaze_data") == 1


def marker_at(game: Game, tag: str):
    return next(e.pos for e in game.entities if tag in e.tags)


def race(game: Game, player, ticks: int) -> None:
    """``player`` stands on the start, steps off and, ``ticks`` ticks later, onto the finish."""
    start, finish = marker_at(game, START_TAG), marker_at(game, FINISH_TAG)
    player.pos = start
    game.step(3)
    assert game.score("Alex", "blockmaze_state") == 1 and game.score("Alex", "blockmaze_time") == 0
    player.pos = (start[0], start[1] + 5, start[2])  # off the plate (jumped high)
    game.step(ticks)
    player.pos = finish
    game.step(1)
    assert game.score("Alex", "blockmaze_state") == 0


def test_timer_best_time_and_message(tmp_path):
    """The clock runs from the tick the player leaves the start to the tick they reach the finish
    (20 a second); the best time is the least, shown on the sidebar; a message tells the time."""
    game = built(pack_bytes(tmp_path), "1.20.4", "blockmaze:build")
    player = next(e for e in game.entities if e.name == "Alex")
    other = game.player("Steve", (0.5, 200.0, 0.5))  # far away: never starts
    assert game.sidebar == BEST
    for ticks, best, said in [(40, 40, "2.00 s (40 ticks; best 40)"),
                              (61, 40, "3.05 s (61 ticks; best 40)"),
                              (21, 21, "1.05 s (21 ticks; best 21)")]:
        race(game, player, ticks)
        assert game.score("Alex", "blockmaze_time") == ticks
        assert game.score("Alex", BEST) == best
        assert game.messages[-1] == f"[blockmaze] Alex reached the finish in {said}"
    assert game.score(other.name, BEST) is None
    game.step(100)  # standing on the finish after the run: no time counted, nothing said
    assert game.score("Alex", "blockmaze_time") == 21
    assert game.messages[-1].endswith("best 21)")
    game.run("blockmaze:next", player)  # a new layout: the board starts over
    game.settle()
    assert game.score("Alex", BEST) is None
    race(game, player, 30)
    assert game.score("Alex", BEST) == 30


def test_finish_without_start_counts_nothing(tmp_path):
    game = built(pack_bytes(tmp_path), "1.20.4", "blockmaze:build")
    player = next(e for e in game.entities if e.name == "Alex")
    player.pos = marker_at(game, FINISH_TAG)
    game.step(5)
    assert game.score("Alex", BEST) is None and game.score("Alex", "blockmaze_time") is None


def test_same_seed_same_bytes_and_layouts_differ(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a, b = pack_bytes(tmp_path / "a"), pack_bytes(tmp_path / "b")
    assert a == b
    files = zipfile.ZipFile(io.BytesIO(a))
    parts = [files.read(f"data/blockmaze/functions/layout_{k}/part_1.mcfunction") for k in (1, 2, 3)]
    assert len(set(parts)) == 3
    assert pack_bytes(tmp_path, seed=8) != a


def test_layout_1_is_the_plain_maze_of_the_seed(tmp_path):
    """Layout 1's fills are those of the plain pack of the same seed, from the min corner."""
    files = zipfile.ZipFile(io.BytesIO(pack_bytes(tmp_path, 9)))
    plain = zipfile.ZipFile(io.BytesIO(pack_bytes(tmp_path, 9, None)))
    ours = files.read("data/blockmaze/functions/layout_1/part_1.mcfunction").decode().splitlines()
    theirs = plain.read("data/blockmaze/functions/part_1.mcfunction").decode().splitlines()
    assert len(ours) == len(theirs) and [line.rsplit(" ", 1)[1] for line in ours] == \
        [line.rsplit(" ", 1)[1] for line in theirs]


@pytest.mark.parametrize("options, message", [
    ({"keep_terrain": True}, "drop --keep-terrain"),
    ({"size": (130, 10)}, "at most 240x240 blocks"),
    ({"mc_version": "1.13.2"}, "/schedule"),
])
def test_refusals(tmp_path, options, message):
    with pytest.raises(bm.BlockmazeError, match=message):
        pack_bytes(tmp_path, **options)
    assert not list(tmp_path.glob("*.zip"))


def test_cli_minigame_and_other_formats_warn(tmp_path, capsys):
    from blockmaze.cli import main

    out = tmp_path / "m.zip"
    assert main(["generate", "5x5", "--seed", "1", "--minigame", "2", "-o", str(out)]) == 0
    said = "".join(capsys.readouterr())
    assert "a minigame of 2 layouts" in said and "blockmaze:next" in said
    read_datapack(out.read_bytes(), "1.20.4")
    assert main(["generate", "5x5", "--seed", "1", "--minigame", "2", "-o", str(tmp_path / "m.schem")]) == 0
    assert "--minigame" in "".join(capsys.readouterr())


def test_checker_rejects_a_broken_game(tmp_path):
    data = pack_bytes(tmp_path)

    def edit(files, name, text, renamed=None):
        out = io.BytesIO()
        entries = {(renamed if entry == name and renamed else entry):
                   (text if entry == name else files.read(entry)) for entry in files.namelist()}
        with zipfile.ZipFile(out, "w") as new:
            for entry in sorted(entries):
                new.writestr(zipfile.ZipInfo(entry, date_time=(1980, 1, 1, 0, 0, 0)), entries[entry])
        return out.getvalue()

    files = zipfile.ZipFile(io.BytesIO(data))
    tick = "data/minecraft/tags/functions/tick.json"
    with pytest.raises(DatapackError, match="does not exist"):
        read_datapack(edit(files, tick, json.dumps({"values": ["blockmaze:nothing"]})), "1.20.4")
    with pytest.raises(DatapackError, match="malformed"):
        read_datapack(edit(files, "data/blockmaze/functions/on_start.mcfunction",
                           b"scoreboard players sett @s blockmaze_state 1\n"), "1.20.4")
    with pytest.raises(DatapackError, match="reads function tags from data/minecraft/tags/functions/"):
        read_datapack(edit(files, tick, files.read(tick), tick.replace("functions", "function")),
                      "1.20.4")


MECHA = """
import json, sys, zipfile
from mecha import Mecha
path, version = sys.argv[1], sys.argv[2]
mc = Mecha(version=version)
commands = errors = 0
first = None
for name in zipfile.ZipFile(path).namelist():
    if not name.endswith(".mcfunction"):
        continue
    text = zipfile.ZipFile(path).read(name).decode()
    try:
        commands += len(mc.parse(text).commands)
    except Exception as error:
        errors += 1
        first = first or f"{name}: {error}"
print(json.dumps({"commands": commands, "errors": errors, "first": first}))
"""

# releases by mecha's grammar families (it has 1.16 to 1.21; 1.14 and 1.15 none), one a family
# where the functions change (1.17.1's are 1.18.2's and 1.21.11's are 1.21's, only pack.mcmeta
# differing: each parsed with 0 errors once, left out to keep CI short)
MECHA_FAMILIES = {"1.16.5": "1.16", "1.18.2": "1.18", "1.19.4": "1.19", "1.20.4": "1.20",
                  "1.21": "1.21"}


@pytest.mark.reader
@pytest.mark.slow
@pytest.mark.parametrize("mc_version", MECHA_FAMILIES)
def test_mecha_parses_every_command(tmp_path, mc_version):
    """mecha parses every command of a 5-layout 30x30 minigame for its release: 0 errors."""
    python = readers.mecha_python()
    pack_bytes(tmp_path, 7, 5, size=(30, 30), mc_version=mc_version)
    path = next(tmp_path.glob("*.zip"))
    done = subprocess.run([python, "-c", MECHA, str(path), MECHA_FAMILIES[mc_version]],
                          capture_output=True, text=True, timeout=600, check=True)
    found = json.loads(done.stdout)
    print(f"mecha {MECHA_FAMILIES[mc_version]}: {mc_version}: {found['commands']} commands, "
          f"{found['errors']} errors, {path.stat().st_size} bytes")
    assert found["errors"] == 0, found["first"]
    lines = sum(1 for name in zipfile.ZipFile(path).namelist() if name.endswith(".mcfunction")
                for line in zipfile.ZipFile(path).read(name).decode().splitlines()
                if not line.startswith("#"))
    assert found["commands"] == lines


@functools.lru_cache
def small_pack() -> bytes:
    with tempfile.TemporaryDirectory() as folder:
        return pack_bytes(Path(folder), 3, 2, size=(4, 4))


@settings(max_examples=40, deadline=None)
@given(runs=st.lists(st.integers(1, 2000), min_size=1, max_size=4))
def test_any_runs_time_and_best(runs):
    """Any run times: each is counted to the tick, said in seconds with two decimals, and the
    best is the least so far."""
    game = built(small_pack(), "1.20.4", "blockmaze:build")
    player = next(e for e in game.entities if e.name == "Alex")
    for number, ticks in enumerate(runs, 1):
        race(game, player, ticks)
        best = min(runs[:number])
        assert game.score("Alex", BEST) == best
        assert game.messages[-1] == (f"[blockmaze] Alex reached the finish in {ticks // 20}."
                                     f"{ticks % 20 * 5:02d} s ({ticks} ticks; best {best})")
