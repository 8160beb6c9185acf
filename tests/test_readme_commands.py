"""Every command the README shows (and those it showed before its guides moved to docs/), run
through the command line and through the library (:func:`blockmaze.jobs.run`, options as Python
values), writes the same bytes. tests/test_docs.py runs every command of the docs as a user
types it."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from blockmaze.cli import main
from blockmaze.jobs import run

README = Path(__file__).resolve().parent.parent / "README.md"
SEED = 1  # for the README's commands that draw their seed
NOT_JOBS = {"blockmaze generate --help"}  # (help, not a maze)


def readme_commands() -> list[str]:
    """The ``blockmaze`` lines of the README's shell blocks, comments and pipes left off."""
    text = README.read_text(encoding="utf-8")
    lines = []
    for block in re.findall(r"```(?:sh|bash|console)?\n(.*?)```", text, re.S):
        for line in block.splitlines():
            line = line.split(" #")[0].split(" | ")[0].strip()
            if line.startswith("blockmaze ") and line not in NOT_JOBS \
                    and not line.startswith("blockmaze plugin "):  # (tests/test_host_*.py)
                lines.append(line)
    return lines


S = "samples/"
# each command the README shows or showed -> the library call that does the same: command, options
API = {
    "blockmaze generate 20x20 --seed 7 --entrances --solution -o maze.schem":
        ("generate", dict(size=(20, 20), seed=7, entrances=True, solution=True, output="maze.schem")),
    "blockmaze generate 16x16 --seed 7 --mc-version 1.21.4 -o maze.litematic":
        ("generate", dict(size=(16, 16), seed=7, mc_version="1.21.4", output="maze.litematic")),
    "blockmaze generate 40x24 -a eller --seed 4 -o MyMaze/ --format world":
        ("generate", dict(size=(40, 24), algorithm="eller", seed=4, output="MyMaze/",
                          format_="world")),
    "blockmaze generate 16x16 --seed 7 -o maze.mcpack":
        ("generate", dict(size=(16, 16), seed=7, output="maze.mcpack")),
    "blockmaze generate 20x20 --unicursal --entrances --seed 3 -o walk.schem":
        ("generate", dict(size=(20, 20), unicursal=True, entrances=True, seed=3, output="walk.schem")),
    "blockmaze generate -g labyrinth --circuits 7 --scale 8 --finger 8x3 -o plate.stl":
        ("generate", dict(kind="labyrinth", circuits=7, scale=8, finger=(8.0, 3.0),
                          output="plate.stl")),
    "blockmaze generate 16x16 --seed 7 --entrances -o Maze.mcworld":
        ("generate", dict(size=(16, 16), seed=7, entrances=True, output="Maze.mcworld")),
    "blockmaze generate 3x6x6 -g layered --seed 5 --collision -o tower.glb":
        ("generate", dict(size=(3, 6, 6), kind="layered", seed=5, collision=True,
                          output="tower.glb")),
    "blockmaze generate 10x10 -g hex --seed 5 --solution --block-size 2.5 -o hex.3mf":
        ("generate", dict(size=(10, 10), kind="hex", seed=5, solution=True, block_size=2.5,
                          output="hex.3mf")),
    "blockmaze dungeon 20x30 --seed 3 --spawns 6:3:1 --lock -o level.tmx":
        ("dungeon", dict(size=(20, 30), seed=3, spawns="6:3:1", lock=True, output="level.tmx")),
    "blockmaze dungeon 20x30 --style caves --levels 2 --seed 3 -o cave.ldtk":
        ("dungeon", dict(size=(20, 30), style="caves", levels=2, seed=3, output="cave.ldtk")),
    "blockmaze generate 8x16 --seed 2026 > samples/maze-box.txt":
        ("generate", dict(size=(8, 16), seed=2026)),
    "blockmaze generate 8x16 --seed 2026 --text-style ascii > samples/maze-ascii.txt":
        ("generate", dict(size=(8, 16), seed=2026, text_style="ascii")),
    "blockmaze generate 8x16 --seed 2026 --passage 2 -o samples/plan-wall1-passage2.txt":
        ("generate", dict(size=(8, 16), seed=2026, passage=2, output=S + "plan-wall1-passage2.txt")),
    "blockmaze generate 8x16 --seed 2026 --passage 2 -o samples/maze-v2.schem":
        ("generate", dict(size=(8, 16), seed=2026, passage=2, output=S + "maze-v2.schem")),
    "blockmaze generate 8x16 --seed 2026 --passage 2 --schem-version 3 -o samples/maze-v3.schem":
        ("generate", dict(size=(8, 16), seed=2026, passage=2, schem_version=3,
                          output=S + "maze-v3.schem")),
    "blockmaze generate 8x16 --seed 2026 --shade --solution -o samples/maze-shaded.png":
        ("generate", dict(size=(8, 16), seed=2026, shade=True, solution=True,
                          output=S + "maze-shaded.png")),
    "blockmaze generate 8 -g polar --seed 2026 --cell-size 14 -o samples/polar.png":
        ("generate", dict(size=(8,), kind="polar", seed=2026, cell_size=14, output=S + "polar.png")),
    "blockmaze generate 8x11 -g hex --seed 2026 --picture-style blocks --cell-size 10 -o samples/hex-blocks.png":
        ("generate", dict(size=(8, 11), kind="hex", seed=2026, picture_style="blocks", cell_size=10,
                          output=S + "hex-blocks.png")),
    "blockmaze generate 8x16 --seed 2026 -o samples/maze.vox":
        ("generate", dict(size=(8, 16), seed=2026, output=S + "maze.vox")),
    "blockmaze generate 8x16 --seed 2026 -o samples/maze.mts":
        ("generate", dict(size=(8, 16), seed=2026, output=S + "maze.mts")),
    "blockmaze generate 8x16 --seed 2026 -o samples/maze.mcpack":
        ("generate", dict(size=(8, 16), seed=2026, output=S + "maze.mcpack")),
    "blockmaze generate 10x16 -g weave --weave 1 -a kruskal:weave --seed 2026 --solution --cell-size 20 -o samples/weave.png":
        ("generate", dict(size=(10, 16), kind="weave", weave=1, algorithm="kruskal:weave", seed=2026,
                          solution=True, cell_size=20, output=S + "weave.png")),
    "blockmaze generate 6x10 -g weave --weave 1 -a kruskal:weave --seed 2026 > samples/weave-box.txt":
        ("generate", dict(size=(6, 10), kind="weave", weave=1, algorithm="kruskal:weave", seed=2026)),
    "blockmaze generate 6x8 -g weave --weave 1 -a kruskal:weave --seed 2026 --solution -o samples/weave.schem":
        ("generate", dict(size=(6, 8), kind="weave", weave=1, algorithm="kruskal:weave", seed=2026,
                          solution=True, output=S + "weave.schem")),
    "blockmaze generate 10x20":
        ("generate", dict(size=(10, 20))),
    "blockmaze generate 10x20 --text-style ascii":
        ("generate", dict(size=(10, 20), text_style="ascii")),
    "blockmaze generate 50x50 --seed 7 -o maze.schem":
        ("generate", dict(size=(50, 50), seed=7, output="maze.schem")),
    "blockmaze generate 30x30 --wall 2 --passage 3 --height 4 --roof -o big.schem":
        ("generate", dict(size=(30, 30), wall=2, passage=3, height=4, roof=True, output="big.schem")),
    "blockmaze generate 40x40 --schem-version 3 --mc-version 1.21.4 -o maze.schem":
        ("generate", dict(size=(40, 40), schem_version=3, mc_version="1.21.4", output="maze.schem")),
    "blockmaze generate 40x40 -a wilson --braid 0.3 --entrances --solution -o maze.schem":
        ("generate", dict(size=(40, 40), algorithm="wilson", braid=0.3, entrances=True,
                          solution=True, output="maze.schem")),
    "blockmaze generate 40x40 -a growing-tree:0.75 --seed 3 -o maze.json":
        ("generate", dict(size=(40, 40), algorithm="growing-tree:0.75", seed=3, output="maze.json")),
    "blockmaze export maze.json --solution -o solved.schem":
        ("export", dict(document="maze.json", solution=True, output="solved.schem")),
    "blockmaze generate 20x20 -o - -f ascii":
        ("generate", dict(size=(20, 20), output="-", format_="ascii")),
    "blockmaze generate 20x30 -g weave --weave 1 -a kruskal:weave -o weave.png":
        ("generate", dict(size=(20, 30), kind="weave", weave=1, algorithm="kruskal:weave",
                          output="weave.png")),
    "blockmaze generate 20x30 -g weave --weave 0.5 --solution --lights -o weave.schem":
        ("generate", dict(size=(20, 30), kind="weave", weave=0.5, solution=True, lights=True,
                          output="weave.schem")),
    "blockmaze generate 20x30 -g weave --weave 0.5 --bridges --height 5 --roof -o weave.glb":
        ("generate", dict(size=(20, 30), kind="weave", weave=0.5, bridges=True, height=5, roof=True,
                          output="weave.glb")),
    "blockmaze blockwise 30x40 --seed 5 -o exact.schem":
        ("blockwise", dict(size=(30, 40), seed=5, output="exact.schem")),
    "blockmaze blockwise 31x41 --wall 1 --passage 1 -o m.schem":
        ("blockwise", dict(size=(31, 41), wall=1, passage=1, output="m.schem")),
    "blockmaze blockwise 64x64 --mode relaxed --ordering prim -o relaxed.litematic":
        ("blockwise", dict(size=(64, 64), mode="relaxed", ordering="prim", output="relaxed.litematic")),
    "blockmaze blockwise 21x21x21 -a wilson -o climb.schem":
        ("blockwise", dict(size=(21, 21, 21), algorithm="wilson", output="climb.schem")),
    "blockmaze blockwise 13x25x25 --passage 2 -o spiral.schem":
        ("blockwise", dict(size=(13, 25, 25), passage=2, output="spiral.schem")),
    "blockmaze dungeon 40x60 --seed 3 --min-shortcut 20 -o level.tmx":
        ("dungeon", dict(size=(40, 60), seed=3, min_shortcut=20, output="level.tmx")),
    "blockmaze dungeon 40x60 --levels 3 --sparseness 0.7 -o floor.txt":
        ("dungeon", dict(size=(40, 60), levels=3, sparseness=0.7, output="floor.txt")),
    "blockmaze dungeon 20x30 --levels 3 -o keep.schem":
        ("dungeon", dict(size=(20, 30), levels=3, output="keep.schem")),
    "blockmaze dungeon 60x90 --style bsp --spawns 8:4:2 --lock -o bsp.ldtk":
        ("dungeon", dict(size=(60, 90), style="bsp", spawns="8:4:2", lock=True, output="bsp.ldtk")),
    "blockmaze dungeon 60x90 --style mixed --levels 2 -o level.tmj":
        ("dungeon", dict(size=(60, 90), style="mixed", levels=2, output="level.tmj")),
}
# beyond the README: the jobs whose rules the command used to hold itself
MORE = {
    "blockmaze generate 30x30 --seed 1 --split 16 -o tiles.schem":
        ("generate", dict(size=(30, 30), seed=1, split=16, output="tiles.schem")),
    "blockmaze generate 40x24 -a eller --seed 4 --format world --terrain void -o World":
        ("generate", dict(size=(40, 24), algorithm="eller", seed=4, format_="world",
                          terrain="void", output="World")),
    "blockmaze dungeon 20x30 --seed 2 --levels 2 --lights --split 16 -o keep.schem":
        ("dungeon", dict(size=(20, 30), seed=2, levels=2, lights=True, split=16,
                         output="keep.schem")),
    "blockmaze generate 3x4x4 -g layered --seed 6 --solution -o stairs.tmx":
        ("generate", dict(size=(3, 4, 4), kind="layered", seed=6, solution=True,
                          output="stairs.tmx")),
}


def test_every_readme_command_has_its_library_call():
    assert set(readme_commands()) <= set(API)


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _prerequisite(line: str, folder: Path) -> None:
    """Files a command reads (a maze document written by an earlier README command)."""
    (folder / "samples").mkdir(parents=True, exist_ok=True)
    if line.startswith("blockmaze export "):
        document = shlex.split(line)[2]
        maker = next(c for c in API if c.endswith(f"-o {document}"))
        assert main(["-q", *shlex.split(maker)[1:], "-o", str(folder / document)]) == 0


@pytest.mark.slow
@pytest.mark.parametrize("line", [*API, *MORE])
def test_the_library_writes_what_the_command_writes(line, tmp_path, monkeypatch, capsysbinary):
    command, options = {**API, **MORE}[line]
    words = shlex.split(line)[1:]
    redirected = ">" in words
    if redirected:
        words = words[:words.index(">")]
    if command != "export" and "--seed" not in words:
        words += ["--seed", str(SEED)]
        options = {**options, "seed": SEED}
    printed, new = {}, {}
    for side in ("cli", "api"):
        folder = tmp_path / side
        folder.mkdir()
        _prerequisite(line, folder)
        before = set(_files(folder))
        monkeypatch.chdir(folder)
        if side == "cli":
            assert main(["-q", *words]) == 0
        else:
            done = run(command, options)
            if done.text is not None:
                print(done.text)
        printed[side] = capsysbinary.readouterr().out
        new[side] = _files(folder)
        new[side] = {name: data for name, data in new[side].items() if name not in before}
    assert printed["api"] == printed["cli"]
    written = "-o" in words and words[words.index("-o") + 1] != "-"
    assert bool(new["cli"]) == written and bool(printed["cli"]) != written
    assert sorted(new["api"]) == sorted(new["cli"])
    for name, data in new["cli"].items():
        assert new["api"][name] == data, name
