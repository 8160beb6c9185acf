"""The Amulet operation (issue 50): ``blockmaze plugin amulet`` writes one .py file whose
``export`` Amulet's Operations tool loads. Fast tests read the file (its options are the forms'
fields) and the default folder; the reader tests run the operation with amulet-core's own
interpreter on a Java and a Bedrock world that blockmaze wrote, save, and read the worlds back
with other readers (anvil-parser2; Mojang's LevelDB through amulet-leveldb): inside the maze's
box every block is the .schem's of the same options, every other block is as it was, and an
undo after the editor's undo point gives the world back. The game's bot walks an edited Java
world from outside the selection to the maze's goal."""

from __future__ import annotations

import ast
import io
import json
import os
import re
import struct
import subprocess
import shutil
import sys
import types
import zipfile
import zlib
from pathlib import Path

import nbtlib
import numpy as np
import pytest

import readers
from blockmaze.cli import main
from blockmaze.forms import form
from blockmaze.hosts import amulet as amulet_host
from blockmaze.hosts import manifest, write_plugin
from schem_checker import read_schem

OVERWORLD = "minecraft:overworld"
# the selection, min inclusive and max exclusive: 27 x 6 x 23 blocks over the base world's maze
LOW, HIGH = (2, -60, 3), (29, -54, 26)
# the labels of the wall and passage fields in Amulet's panel
WALL, PASSAGE = "Wall thickness (0: the grid's own)", "Passage width (0: the grid's own)"
# the options chosen in Amulet's panel (by label), and the same maze as the command makes it:
# walls 1 and passages 2 fit 8 columns in 27 blocks ((27 - 1) // 3) and 7 rows in 23
CHOSEN = {"Seed": "7", WALL: 1, PASSAGE: 2, "Wall height": 3,
          "Solution": True, "Entrances": True, "Lights": True, "Theme": "hedge"}
SAME = ["generate", "7x8", "--seed", "7", "--wall", "1", "--passage", "2", "--height", "3",
        "--solution", "--entrances", "--lights", "--theme", "hedge", "--mc-version", "1.20.4"]
Y0, Y1 = -64, -44  # the layers compared before and after (the selection and more)
# Amulet saves every property of a block state, the game's defaults too; a state that leaves one
# out means the same block (the game fills in the default), so these are dropped at these values
DEFAULTS = {"waterlogged": "false", "snowy": "false"}

DRIVER = """
import importlib.util, json, sys, time
import amulet
from amulet.api.selection import SelectionBox, SelectionGroup

plugin, folder, mode, chosen, low, high = sys.argv[1:7]
spec = importlib.util.spec_from_file_location("blockmaze_maze", plugin)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
export = module.export
assert export["operation"].__code__.co_argcount == 4
options = {label: option[1] for label, option in export["options"].items()}
options.update(json.loads(chosen))
world = amulet.load_level(folder)
selection = SelectionGroup(SelectionBox(json.loads(low), json.loads(high)))
start = time.perf_counter()
try:
    progress = list(export["operation"](world, "minecraft:overworld", selection, options))
except module.OperationError as error:  # the editor shows it and restores its undo point
    world.restore_last_undo_point()
    print(json.dumps({"error": str(error), "changed": world.changed}))
    world.close()
    sys.exit(0)
seconds = time.perf_counter() - start
assert world.create_undo_point(), "the operation changed nothing"  # as the editor does after it
if mode == "undo":
    world.undo()
world.save()
world.close()
print(json.dumps({"seconds": seconds, "steps": len(progress), "last": progress[-1]}))
"""


def make_world(tmp_path: Path, platform: str) -> Path:
    """A blockmaze world to edit: a 20 x 20 maze on grass (3 x 3 chunks), as a Java world folder
    or as a Bedrock world (the .mcworld unzipped)."""
    base = ["-q", "generate", "20x20", "--seed", "3"]
    if platform == "java":
        assert main([*base, "-f", "world", "-o", str(tmp_path / "java")]) == 0
        return tmp_path / "java"
    assert main([*base, "-o", str(tmp_path / "bedrock.mcworld")]) == 0
    zipfile.ZipFile(tmp_path / "bedrock.mcworld").extractall(tmp_path / "bedrock")
    return tmp_path / "bedrock"


def run_operation(tmp_path: Path, folder: Path, mode: str = "save", chosen: dict = CHOSEN,
                  low=LOW, high=HIGH) -> dict:
    """Run the written operation on ``folder`` in Amulet's interpreter; what the driver said."""
    python = readers.amulet_python()
    plugin = write_plugin("amulet", tmp_path / "plugin" / "blockmaze_maze.py")
    (tmp_path / "driver.py").write_text(DRIVER)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    done = subprocess.run([python, str(tmp_path / "driver.py"), str(plugin), str(folder), mode,
                           json.dumps(chosen), json.dumps(low), json.dumps(high)],
                          capture_output=True, text=True, timeout=900, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


def expected_blocks(tmp_path: Path, args=SAME) -> np.ndarray:
    """The (y, z, x) blocks of the .schem of the same options (without a property of
    :data:`DEFAULTS` at its default)."""
    out = tmp_path / "same.schem"
    assert main(["-q", *args, "-o", str(out)]) == 0
    blocks = read_schem(out.read_bytes()).blocks
    return np.vectorize(plain, otypes=[object])(blocks)


def plain(state: str) -> str:
    """``state`` without a property of :data:`DEFAULTS` at its default value."""
    name, _, rest = state.partition("[")
    pairs = [p for p in rest.rstrip("]").split(",") if p and DEFAULTS.get(p.split("=")[0]) != p.split("=")[1]]
    return name + (f"[{','.join(sorted(pairs))}]" if pairs else "")


# --- the Java world, read by anvil-parser2 ------------------------------------------------------


def java_blocks(folder: Path) -> np.ndarray:
    """Every block of the world's 3 x 3 chunks from Y0 to Y1, (y, z, x), as
    ``name[property=value,...]`` (without a property of :data:`DEFAULTS` at its default), read
    by anvil-parser2."""
    anvil = readers.module("anvil", "anvil-parser2")
    region = anvil.Region.from_file(str(folder / "region" / "r.0.0.mca"))
    out = np.empty((Y1 - Y0, 48, 48), dtype=object)
    for cz in range(3):
        for cx in range(3):
            chunk = region.get_chunk(cx, cz)
            for y in range(Y0, Y1):
                for z in range(16):
                    for x in range(16):
                        block = chunk.get_block(x, y, z)
                        states = sorted((k, str(v)) for k, v in block.properties.items()
                                        if DEFAULTS.get(k) != str(v))
                        out[y - Y0, cz * 16 + z, cx * 16 + x] = block.name() + (
                            "[" + ",".join(f"{k}={v}" for k, v in states) + "]" if states else "")
    return out


def compare(before: np.ndarray, after: np.ndarray, expected: np.ndarray, low=LOW) -> tuple[int, int]:
    """Blocks in the maze's box unlike the .schem's, and blocks elsewhere that changed."""
    height, length, width = expected.shape
    box = (slice(low[1] - Y0, low[1] - Y0 + height), slice(low[2], low[2] + length),
           slice(low[0], low[0] + width))
    mismatches = int((after[box] != expected).sum())
    outside = np.ones(after.shape, bool)
    outside[box] = False
    changed = int((after[outside] != before[outside]).sum())
    return mismatches, changed


@pytest.mark.reader
@pytest.mark.slow
def test_the_operation_fills_a_java_world_with_the_schems_blocks(tmp_path):
    folder = make_world(tmp_path, "java")
    before = java_blocks(folder)
    said = run_operation(tmp_path, folder)
    assert said["last"][0] == pytest.approx(1.0) and said["steps"] > 2
    expected = expected_blocks(tmp_path)
    assert expected.shape == (4, 22, 25)
    after = java_blocks(folder)
    assert compare(before, after, expected) == (0, 0)
    assert (after != before).sum() > 100  # the maze is not the maze that was there


@pytest.mark.reader
@pytest.mark.slow
def test_a_weave_maze_fills_a_java_world_with_the_schems_blocks(tmp_path):
    """The weave grid (walls 4, passages 1: 4 columns in 27 blocks, 3 rows in 23), its tunnels
    under the crossings below its floor: 7 blocks high, in an 8-block selection."""
    folder = make_world(tmp_path, "java")
    before = java_blocks(folder)
    chosen = {"Grid": "weave", "Seed": "7", WALL: 4, PASSAGE: 1,
              "Weave crossings": 0.5}
    run_operation(tmp_path, folder, chosen=chosen, high=(HIGH[0], LOW[1] + 8, HIGH[2]))
    expected = expected_blocks(tmp_path, ["generate", "3x4", "--grid", "weave", "--seed", "7",
                                          "--wall", "4", "--passage", "1", "--weave", "0.5",
                                          "--mc-version", "1.20.4"])
    assert expected.shape == (7, 19, 24)
    assert compare(before, java_blocks(folder), expected) == (0, 0)


@pytest.mark.reader
@pytest.mark.slow
@pytest.mark.parametrize("grid, high_y", [("hex", HIGH[1]), ("polar", HIGH[1]),
                                          ("layered", LOW[1] + 12)])
def test_a_maze_of_another_grid_fills_the_selection_as_its_fit(tmp_path, grid, high_y):
    """Any grid: the command's --fit makes the most cells the selection's blocks hold (a
    layered maze's levels from its height: 12 blocks, three levels of 3 with their floors), at
    the grid's own walls and passages (a layered maze's 2 wide), and the world holds that
    .schem block for block."""
    folder = make_world(tmp_path, "java")
    before = java_blocks(folder)
    high = (HIGH[0], high_y, HIGH[2])
    size = [b - a for a, b in zip(LOW, high, strict=True)]
    run_operation(tmp_path, folder, chosen={"Grid": grid, "Seed": "7"}, high=high)
    fit = f"{size[2]}x{size[0]}" if grid != "layered" else f"{size[1]}x{size[2]}x{size[0]}"
    expected = expected_blocks(tmp_path, ["generate", "--fit", fit, "--grid", grid, "--seed",
                                          "7", "--mc-version", "1.20.4"])
    assert all(e <= s for e, s in zip(expected.shape, (size[1], size[2], size[0]), strict=True))
    assert compare(before, java_blocks(folder), expected) == (0, 0)


@pytest.mark.reader
@pytest.mark.slow
def test_an_undo_after_the_operation_gives_the_java_world_back(tmp_path):
    folder = make_world(tmp_path, "java")
    before = java_blocks(folder)
    run_operation(tmp_path, folder, mode="undo")
    assert (java_blocks(folder) != before).sum() == 0


@pytest.mark.reader
@pytest.mark.slow
def test_an_error_is_one_line_and_leaves_the_world_as_it_was(tmp_path):
    """A selection too low for the maze: blockmaze's maze is 4 blocks high, the selection 2."""
    folder = make_world(tmp_path, "java")
    before = java_blocks(folder)
    said = run_operation(tmp_path, folder, low=LOW, high=(HIGH[0], LOW[1] + 2, HIGH[2]))
    assert "the maze is 4 blocks high and the selection 2" in said["error"]
    assert "\n" not in said["error"] and said["changed"] is False
    bad = run_operation(tmp_path, folder, chosen={**CHOSEN, "Algorithm": "no-such"})
    assert bad["error"].startswith("blockmaze: ") and "no-such" in bad["error"]
    assert (java_blocks(folder) != before).sum() == 0


# --- the Bedrock world, read by Mojang's LevelDB (amulet-leveldb) -------------------------------


def bedrock_key(entry) -> str:
    """One comparable string for a Bedrock block: name and states (as text), sorted."""
    states = ",".join(f"{k}={v if isinstance(v, nbtlib.String) else int(v)}"
                      for k, v in sorted(entry["states"].items()))
    return f"{entry['name']}{{{states}}}"


def subchunk_blocks(value: bytes) -> np.ndarray:
    """The first storage of a sub-chunk (format 8 or 9) as (16 y, 16 z, 16 x) block keys."""
    assert value[0] in (8, 9), value[0]
    at = 3 if value[0] == 9 else 2
    bits = value[at] >> 1
    per_word = 32 // bits
    words = -(-4096 // per_word)
    packed = np.frombuffer(value[at + 1:at + 1 + 4 * words], "<u4")
    shifts = np.arange(per_word, dtype=np.uint32) * bits
    indices = ((packed[:, None] >> shifts) & ((1 << bits) - 1)).ravel()[:4096]
    at += 1 + 4 * words
    count = struct.unpack("<i", value[at:at + 4])[0]
    stream = io.BytesIO(value[at + 4:])
    palette = [bedrock_key(nbtlib.File.parse(stream, byteorder="little")) for _ in range(count)]
    # sub-chunk order is x, then z, then y (y fastest)
    return np.array(palette, dtype=object)[indices].reshape(16, 16, 16).transpose(2, 1, 0)


def bedrock_blocks(folder: Path) -> np.ndarray:
    """Every block of the world's 3 x 3 chunks from Y0 to Y1, (y, z, x) Bedrock keys (a missing
    sub-chunk is air), read from the world's LevelDB."""
    leveldb = readers.module("leveldb", "amulet-leveldb")
    out = np.full((Y1 - Y0, 48, 48), "minecraft:air{}", dtype=object)
    db = leveldb.LevelDB(str(folder / "db"))
    try:
        for key, value in db.items():
            if len(key) == 10 and key[8:9] == b"/":
                cx, cz = struct.unpack("<ii", key[:8])
                cy = struct.unpack("b", key[9:10])[0]
                if not (0 <= cx < 3 and 0 <= cz < 3):
                    continue
                part = subchunk_blocks(value)
                for layer in range(16):
                    if Y0 <= cy * 16 + layer < Y1:
                        out[cy * 16 + layer - Y0, cz * 16:cz * 16 + 16, cx * 16:cx * 16 + 16] = part[layer]
    finally:
        db.close()
    return out


def bedrock_expected(tmp_path: Path) -> np.ndarray:
    """The maze of the same options as Bedrock blocks: the .schem's blocks, each Java state
    turned into its Bedrock block by Amulet's translator (PyMCTranslate), one lookup a state."""
    states = sorted(set(expected_blocks(tmp_path).ravel().tolist()))
    script = (
        "import json, sys\nimport PyMCTranslate\nfrom amulet.api.block import Block\n"
        "manager = PyMCTranslate.new_translation_manager()\n"
        "java = manager.get_version('java', (1, 20, 4))\n"
        "bedrock = manager.get_version('bedrock', (1, 21, 90))\n"
        "out = {}\n"
        "for state in json.loads(sys.argv[1]):\n"
        "    universal = java.block.to_universal(Block.from_string_blockstate(state))[0]\n"
        "    block = bedrock.block.from_universal(universal)[0]\n"
        "    out[state] = [block.namespaced_name, {k: str(v.py_data) for k, v in block.properties.items()}]\n"
        "print(json.dumps(out))\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    done = subprocess.run([readers.amulet_python(), "-c", script, json.dumps(states)],
                          capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    table = json.loads(done.stdout.splitlines()[-1])
    keys = {state: name + "{" + ",".join(f"{k}={v}" for k, v in sorted(props.items())) + "}"
            for state, (name, props) in table.items()}
    blocks = expected_blocks(tmp_path)
    return np.vectorize(keys.__getitem__, otypes=[object])(blocks)


@pytest.mark.reader
@pytest.mark.slow
def test_the_operation_fills_a_bedrock_world_with_the_schems_blocks(tmp_path):
    folder = make_world(tmp_path, "bedrock")
    before = bedrock_blocks(folder)
    run_operation(tmp_path, folder)
    after = bedrock_blocks(folder)
    expected = bedrock_expected(tmp_path)
    assert compare(before, after, expected) == (0, 0)
    assert (after != before).sum() > 100
    # and Amulet's translation of each state is blockmaze's own Bedrock block (its .mcstructure)
    from test_mcstructure import read_mcstructure

    assert main(["-q", *SAME[:-2], "-o", str(tmp_path / "same.mcstructure")]) == 0
    ours, *_ = read_mcstructure((tmp_path / "same.mcstructure").read_bytes())
    untyped = np.vectorize(lambda key: re.sub(r":(byte|int|string):", "=", key), otypes=[object])
    assert (untyped(ours) == expected).all()


# --- without Amulet: the file, its options and the folder --------------------------------------


def load_written(path: Path) -> types.ModuleType:
    """The written operation, run as Amulet imports it (with no Amulet module to import)."""
    module = types.ModuleType("blockmaze_maze")
    exec(compile(path.read_text(), str(path), "exec"), module.__dict__)
    return module


def test_the_plugin_file_exports_an_operation_with_the_forms_options(tmp_path):
    out = tmp_path / "op.py"
    assert main(["plugin", "amulet", "-o", str(out)]) == 0
    ast.parse(out.read_text())
    module = load_written(out)
    export = module.export
    assert export["name"] == "Maze (blockmaze)"
    assert export["operation"].__code__.co_argcount == 4
    from blockmaze.grids import SURFACE_KINDS

    fields = {f["name"]: f for f in form("generate")}
    options = export["options"]
    # every grid kind but the surfaces' (a world holds flat mazes) and the labyrinth
    assert options["Grid"] == ["str_choice", "square", *sorted(
        set(fields["kind"]["choices"]) - {"square", "labyrinth", *SURFACE_KINDS})]
    assert options["Algorithm"][:2] == ["str_choice", fields["algorithm"]["default"]]
    assert sorted(options["Algorithm"][1:]) == sorted(fields["algorithm"]["choices"])
    assert options["Theme"][1] == fields["theme"]["default"]
    assert sorted(options["Theme"][1:]) == sorted(fields["theme"]["choices"])
    assert options["Wall height"] == ["int", fields["height"]["default"], 1, 384]
    assert options[WALL] == options[PASSAGE] == ["int", 0, 0, 64]
    for name, label in [("solution", "Solution"), ("lights", "Lights"), ("entrances", "Entrances"),
                        ("floor", "Floor"), ("roof", "Roof")]:
        assert options[label] == ["bool", fields[name]["default"]]
    assert options["Seed"] == ["str", ""]
    assert json.loads(module.MANIFEST_JSON) == json.loads(json.dumps(manifest()))
    assert all(isinstance(v, list) and isinstance(v[0], str) for v in options.values())


def test_the_command_line_is_built_from_the_fields(tmp_path):
    out = write_plugin("amulet", tmp_path / "op.py")
    module = load_written(out)
    chosen = module.values({"Seed": "7", "Floor": False, "Solution": True, WALL: 2})
    box = types.SimpleNamespace(size_x=27, size_z=23, size_y=6)
    args = module.command(module.fit(box, chosen), chosen, "1.20.4", "m.schem")
    assert args[:6] == [sys.executable, "-m", "blockmaze", "generate", "--fit", "23x27"]
    assert args[args.index("--seed") + 1] == "7" and "--no-floor" in args and "--solution" in args
    assert "--roof" not in args and "--no-roof" not in args  # a switch at its default is left out
    assert args[-4:] == ["--mc-version", "1.20.4", "-o", "m.schem"]
    assert module.fit(box, {"kind": "layered"}) == "6x23x27"
    # and the command takes it: the maze fills 7 x 8 cells of 2 blocks of wall and 1 of passage
    assert main(["-q", *args[3:-2], "-o", str(tmp_path / "m.schem")]) == 0
    assert read_schem((tmp_path / "m.schem").read_bytes()).width == 8 * (2 + 1) + 2


def test_the_template_refuses_until_the_manifest_is_set(tmp_path):
    path = Path(amulet_host.__file__).parent / "payload" / "amulet" / "blockmaze_maze.py"
    module = load_written(path)
    assert module.export["options"] == {}
    with pytest.raises(module.OperationError, match="blockmaze plugin amulet"):
        next(module.operation(None, OVERWORLD, None, {}))


def test_the_default_folder_is_amulets_operations_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    assert amulet_host.user_folder() == tmp_path / "data" / "plugins" / "operations"
    monkeypatch.delenv("DATA_DIR")
    data = amulet_host.data_dir
    assert data({}, "linux", "/h") == Path("/h/.local/share/AmuletMapEditor")
    assert data({"XDG_DATA_HOME": "/x"}, "linux", "/h") == Path("/x/AmuletMapEditor")
    assert data({}, "darwin", "/Users/u") == Path("/Users/u/Library/Application Support/AmuletMapEditor")
    assert str(data({"LOCALAPPDATA": r"C:\Users\u\AppData\Local"}, "win32", r"C:\Users\u")) == \
        r"C:\Users\u\AppData\Local\AmuletTeam\AmuletMapEditor"
    assert str(data({}, "win32", r"C:\Users\u")) == r"C:\Users\u\AppData\Local\AmuletTeam\AmuletMapEditor"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr(sys, "platform", "linux")
    assert main(["plugin", "amulet"]) == 0
    assert (tmp_path / "xdg" / "AmuletMapEditor" / "plugins" / "operations" / "blockmaze_maze.py").is_file()


# --- the game: a bot walks the edited world -----------------------------------------------------


def without_bare_sections(region: bytes) -> bytes:
    """A region file with every chunk's bare sections (a ``Y`` and nothing else, as Amulet saves
    a section of air once it dropped the light) left out. The game reads such a section as air;
    the bot's server (prismarine-provider-anvil) fails on one, so the world it walks goes without.
    Nothing else changes: each chunk is parsed and written back by nbtlib, zlib-compressed."""
    out, table = bytearray(8192), bytearray(8192)
    for index in range(1024):
        offset, count = int.from_bytes(region[4 * index:4 * index + 3], "big"), region[4 * index + 3]
        if not count:
            continue
        at = offset * 4096
        length, kind = int.from_bytes(region[at:at + 4], "big"), region[at + 4]
        assert kind == 2, f"chunk {index}: compression {kind}, not zlib"
        chunk = nbtlib.File.parse(io.BytesIO(zlib.decompress(region[at + 5:at + 4 + length])))
        chunk["sections"] = nbtlib.List[nbtlib.Compound](
            [section for section in chunk["sections"] if len(section) > 1])
        buffer = io.BytesIO()
        chunk.write(buffer)
        data = zlib.compress(buffer.getvalue())
        record = (len(data) + 1).to_bytes(4, "big") + b"\x02" + data
        record += bytes(-len(record) % 4096)
        table[4 * index:4 * index + 4] = (len(out) // 4096).to_bytes(3, "big") + bytes([len(record) // 4096])
        out += record
    out[:4096] = table[:4096]
    out[4096:8192] = region[4096:8192]  # the timestamps
    return bytes(out)


@pytest.mark.reader
@pytest.mark.slow
def test_the_bot_walks_the_edited_java_world_from_outside_the_selection_to_the_goal(tmp_path):
    """The base world is one walled room (a 1-cell maze with a 40-block passage, inside x and z
    1 to 40); the operation fills all of it but a corridor 3 blocks wide along its west side,
    where the player spawns (1, -59, 1). The maze (seed 7: 13 x 12 cells of walls 1 and passages
    2, 40 x 37 blocks) has its start opening on the west, facing the corridor, and its goal's on
    the north, against the room's wall: the goal is reached through the maze or not at all. A
    mineflayer bot on a Minecraft server (tests/game.py) walks from the spawn to the goal."""
    from game import walk

    folder = tmp_path / "room"
    assert main(["-q", "generate", "1x1", "--passage", "40", "--seed", "1", "-f", "world",
                 "-o", str(folder)]) == 0
    low, high = (4, -60, 1), (41, -54, 41)
    run_operation(tmp_path, folder, low=low, high=high)
    blocks = expected_blocks(tmp_path, ["generate", "13x12", *SAME[2:]])
    assert blocks.shape == (4, 40, 37)
    (_, start_z, start_x), *_ = np.argwhere(blocks == "minecraft:lime_wool")
    (y, z, x), *_ = np.argwhere(blocks == "minecraft:red_wool")
    assert start_x == 1 and z == 1  # the start by the west wall, the goal by the north one
    goal = [low[0] + int(x), low[1] + int(y) + 1, low[2] + int(z)]  # the feet on the goal block
    walked = tmp_path / "walked"
    shutil.copytree(folder, walked)
    for region in (walked / "region").glob("*.mca"):
        region.write_bytes(without_bare_sections(region.read_bytes()))
    results = walk(world={"folder": walked, "goal": goal, "starts": ["player"], "route": []},
                   timeout=90)
    failed = [f"{r['name']}: {r['why']} at {r['at']} (goal {r['goal']})" for r in results
              if not r["reached"]]
    assert not failed, "\n".join(failed)


def test_the_release_is_the_worlds_own_as_far_as_amulet_translates(tmp_path):
    """A Java world's .schem is for the world's release (no newer than Amulet's translator
    knows, as one of the command's releases); a Bedrock world's is the command's default."""
    module = load_written(write_plugin("amulet", tmp_path / "op.py"))
    field = {f["name"]: f for f in form("generate")}["mc_version"]

    def world(platform, release, newest=(1, 21, 4)):
        manager = types.SimpleNamespace(
            version_numbers=lambda _platform: [(1, 16, 5), newest],
            get_version=lambda _platform, _version: types.SimpleNamespace(version_number=release))
        return types.SimpleNamespace(translation_manager=manager, level_wrapper=types.SimpleNamespace(
            platform=platform, version=release))

    choices, default = field["choices"], field["default"]
    assert module.release(world("java", (1, 20, 4)), choices, default) == "1.20.4"
    assert module.release(world("java", (1, 19, 0)), choices, default) == "1.19"
    assert module.release(world("java", (1, 21, 9)), choices, default) == "1.21.4"  # the newest known
    assert module.release(world("bedrock", (1, 21, 90)), choices, default) == default
    assert module.release(world("bedrock", (1, 21, 90), newest=(1, 18, 2)), choices, default) == "1.18.2"
