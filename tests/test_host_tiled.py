"""The Tiled extension (``blockmaze plugin tiled``), run by Debian's Tiled 1.8.2 headless.

Tiled 1.8 has no ``--evaluate`` (1.9 added it), but ``tiled --export-map`` loads the user's
script extensions before it reads the source map. So most tests write the extension into a
temporary config folder with ``blockmaze plugin tiled -o``, run ``QT_QPA_PLATFORM=offscreen tiled
--export-map in.blockmaze out.tmx`` (the map format's ``read`` runs blockmaze, Tiled's TMX reader
reads its file, Tiled's TMX writer writes out.tmx) and compare out.tmx, tile for tile and object
for object, with the ``.tmx`` blockmaze writes itself for the same options. A request with
``"into"`` makes the level into a given map through the action's own function.

The action itself runs in Tiled's window, offscreen: a probe extension
(tests/external/tiled_probe.js) answers its prompt, triggers it on the map Tiled opened, and
writes the map after the run and after one undo.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import readers

from blockmaze.hosts import MANIFEST, write_plugin
from blockmaze.hosts.tiled import HOST, SCRIPT, user_folder

TIMEOUT = 300


def test_plugin_command_writes_the_extension_folder(tmp_path):
    folder = tmp_path / "extensions" / "blockmaze"
    done = subprocess.run([sys.executable, "-m", "blockmaze", "plugin", "tiled", "-o", str(folder)],
                          capture_output=True, text=True, timeout=120, check=True)
    assert str(folder) in done.stderr + done.stdout
    assert sorted(p.name for p in folder.iterdir()) == [SCRIPT, MANIFEST]
    manifest = json.loads((folder / MANIFEST).read_text())
    assert manifest["run"] == [sys.executable, "-m", "blockmaze"]
    assert {"dungeon", "generate"} <= set(manifest["forms"])
    script = (folder / SCRIPT).read_text()
    assert 'registerMapFormat("blockmaze"' in script and "registerAction(" in script


def test_default_folder_is_tileds_extensions_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    if sys.platform.startswith(("linux", "freebsd")):
        assert write_plugin("tiled") == tmp_path / "config" / "tiled" / "extensions" / "blockmaze"
        assert (tmp_path / "config" / "tiled" / "extensions" / "blockmaze" / SCRIPT).is_file()
    home = Path("/home/a")
    assert user_folder("linux", {}, home) == home / ".config" / "tiled" / "extensions"
    assert user_folder("win32", {"LOCALAPPDATA": "C:/Users/a/AppData/Local"}, home) == \
        Path("C:/Users/a/AppData/Local/Tiled/extensions")
    assert user_folder("darwin", {}, home) == home / "Library" / "Preferences" / "Tiled" / "extensions"
    assert HOST.packing == "folder" and HOST.name == "blockmaze"


# --- through Tiled ---------------------------------------------------------------------------

def tiled_env(tmp_path: Path) -> dict:
    """An environment whose Tiled finds the extension, written (once per test) by ``blockmaze
    plugin tiled``, and whose temporary folder is ``tmp_path/tmp``."""
    config = tmp_path / "config"
    if not config.exists():
        subprocess.run([sys.executable, "-m", "blockmaze", "plugin", "tiled", "-o",
                        str(config / "tiled" / "extensions" / "blockmaze")],
                       capture_output=True, timeout=120, check=True)
        (tmp_path / "tmp").mkdir()
    return {**os.environ, "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(config),
            "QT_QPA_PLATFORM": "offscreen", "TMPDIR": str(tmp_path / "tmp")}


def export(tmp_path: Path, request: dict | str, name: str = "in") -> subprocess.CompletedProcess:
    """``tiled --export-map NAME.blockmaze NAME-out.tmx`` for ``request`` (or the file's text)."""
    tiled = readers.program("tiled", "Debian's tiled")
    text = request if isinstance(request, str) else json.dumps(request)
    (tmp_path / f"{name}.blockmaze").write_text(text)
    return subprocess.run([tiled, "--export-map", f"{name}.blockmaze", f"{name}-out.tmx"],
                          cwd=tmp_path, env=tiled_env(tmp_path), capture_output=True, text=True,
                          timeout=TIMEOUT)


def reference(tmp_path: Path, command: str, size: str, options: dict) -> Path:
    """The .tmx blockmaze itself writes for the same options."""
    flags = []
    for key, value in options.items():
        flags += [f"--{key}"] if value is True else [f"--no-{key}"] if value is False else \
            [f"--{key}", str(value)]
    path = tmp_path / "ref" / "ref.tmx"
    path.parent.mkdir(exist_ok=True)
    subprocess.run([sys.executable, "-m", "blockmaze", command, size, *flags, "-o", str(path)],
                   capture_output=True, timeout=TIMEOUT, check=True)
    return path


def tiles(path: Path, layer_name: str = "maze") -> tuple[int, int, list]:
    """A tile layer's width, height and cells as (tile set name, tile id) or None."""
    root = ET.parse(path).getroot()
    sets = sorted(((int(t.get("firstgid")), t.get("name")) for t in root.iter("tileset")),
                  reverse=True)
    (layer,) = [layer for layer in root.iter("layer") if layer.get("name") == layer_name]
    data = layer.find("data")
    assert data.get("encoding") == "csv"
    cells = []
    for gid in (int(v) for v in data.text.replace("\n", "").split(",")):
        gid &= 0x0FFFFFFF
        cells.append(None if gid == 0 else next((name, gid - first) for first, name in sets
                                                 if gid >= first))
    return int(layer.get("width")), int(layer.get("height")), cells


def objects(path: Path, scale: float = 1) -> list:
    """The objects of layer "entities": name, type, place and size (in blockmaze's 16-pixel
    tiles) and typed properties."""
    root = ET.parse(path).getroot()
    (group,) = [g for g in root.iter("objectgroup") if g.get("name") == "entities"]
    found = []
    for o in group.iter("object"):
        props = {p.get("name"): (p.get("type", "string"), p.get("value")) for p in o.iter("property")}
        found.append((o.get("name"), o.get("type"),
                      *(float(o.get(k)) / scale for k in ("x", "y", "width", "height")),
                      sorted(props.items())))
    return found


def tile_types(path: Path) -> dict:
    """The tile set's tiles: id -> (type, properties)."""
    (tileset,) = ET.parse(path).getroot().iter("tileset")
    return {t.get("id"): (t.get("type"), sorted((p.get("name"), p.get("value")) for p in t.iter("property")))
            for t in tileset.iter("tile")}


def mismatches(a: list, b: list) -> int:
    return sum(x != y for x, y in zip(a, b, strict=True))


CASES = [
    ("dungeon", "12x20", {"seed": 3, "spawns": "3:2:1", "lock": True}),
    ("dungeon", "15x15", {"seed": 7, "style": "bsp"}),
    ("dungeon", "14x18", {"seed": 11, "style": "caves", "theme": "hedge"}),
    ("dungeon", "10x25", {"seed": 5, "style": "digger", "spawns": "4:2:1"}),
    ("dungeon", "16x16", {"seed": 8, "extra-doors": 0.2, "min-shortcut": 10, "room-size": "3:6"}),
    ("maze", "9x13", {"seed": 2, "algorithm": "prim"}),
    ("maze", "6x8", {"seed": 4, "grid": "hex", "solution": True}),
]


@pytest.mark.reader
@pytest.mark.slow
@pytest.mark.parametrize("command, size, options", CASES,
                         ids=[f"{c}-{o.get('style', o.get('grid', 'square'))}-{o['seed']}"
                              for c, _, o in CASES])
def test_tiled_exports_the_tiles_and_objects_blockmaze_writes(tmp_path, command, size, options):
    done = export(tmp_path, {"command": command, "size": size, "options": options})
    assert done.returncode == 0, done.stderr
    out = tmp_path / "in-out.tmx"
    ref = reference(tmp_path, "generate" if command == "maze" else command, size, options)
    width, height, cells = tiles(out)
    assert (width, height) == tiles(ref)[:2]
    assert mismatches(cells, tiles(ref)[2]) == 0
    assert objects(out) == objects(ref)
    assert tile_types(out) == tile_types(ref)
    # the tile set's image lasts beside the request, the temporary folder is gone
    (image,) = ET.parse(out).getroot().iter("image")
    assert image.get("source") == "in-tiles.png"
    assert (tmp_path / "in-tiles.png").read_bytes() == (ref.parent / "ref-tiles.png").read_bytes()
    assert list((tmp_path / "tmp").glob("blockmaze-tiled-*")) == []


@pytest.mark.reader
@pytest.mark.slow
def test_a_theme_file_is_found_beside_the_request(tmp_path):
    theme = json.loads((Path(__file__).parents[1] / "blockmaze" / "themes" / "hedge.json").read_text())
    theme["name"] = "my hedge"
    theme["materials"]["wall"]["color"] = "#204080"
    (tmp_path / "levels").mkdir()
    (tmp_path / "levels" / "mine.json").write_text(json.dumps(theme))
    request = {"command": "dungeon", "size": "9x9", "options": {"seed": 1, "theme": "mine.json"}}
    done = export(tmp_path, request, "levels/in")
    assert done.returncode == 0, done.stderr
    ref = reference(tmp_path, "dungeon", "9x9", {"seed": 1, "theme": tmp_path / "levels" / "mine.json"})
    out = tmp_path / "levels" / "in-out.tmx"
    assert mismatches(tiles(out)[2], tiles(ref)[2]) == 0
    assert [t.get("name") for t in ET.parse(out).getroot().iter("tileset")] == ["my hedge"]
    assert (tmp_path / "levels" / "in-tiles.png").read_bytes() == \
        (ref.parent / "ref-tiles.png").read_bytes()


BLANK = """<?xml version="1.0" encoding="UTF-8"?>
<map version="1.8" tiledversion="1.8.2" orientation="orthogonal" renderorder="right-down"
 width="{w}" height="{h}" tilewidth="32" tileheight="32" infinite="0" nextlayerid="2" nextobjectid="1">
 <layer id="1" name="ground" width="{w}" height="{h}">
  <data encoding="csv">
{data}
</data>
 </layer>
</map>
"""


@pytest.mark.reader
@pytest.mark.slow
def test_the_actions_code_makes_a_dungeon_into_a_map_twice(tmp_path):
    """``"into"``: the action's makeInto on a map of 32-pixel tiles with a layer of its own; a
    second run into the result reuses its layers and tile set."""
    w, h = 45, 27
    (tmp_path / "blank.tmx").write_text(
        BLANK.format(w=w, h=h, data=",\n".join(",".join("0" * w) for _ in range(h))))
    options = {"seed": 3, "spawns": "3:2:1", "lock": True}
    done = export(tmp_path, {"command": "dungeon", "options": options, "into": "blank.tmx"}, "first")
    assert done.returncode == 0, done.stderr
    first = tmp_path / "first-out.tmx"
    ref = reference(tmp_path, "dungeon", "13x22", options)  # the size that fits 45x27
    ref_w, ref_h, ref_cells = tiles(ref)
    width, height, cells = tiles(first)
    assert (width, height) == (w, h)
    inside = [cells[y * w + x] for y in range(ref_h) for x in range(ref_w)]
    assert mismatches(inside, ref_cells) == 0
    assert all(cells[y * w + x] is None for y in range(h) for x in range(w)
               if x >= ref_w or y >= ref_h)
    assert objects(first, scale=2) == objects(ref)
    assert tiles(first, "ground")[2] == [None] * (w * h)
    ref_terrain, terrain = tiles(ref, "terrain")[2], tiles(first, "terrain")[2]
    assert mismatches([terrain[y * w + x] for y in range(ref_h) for x in range(ref_w)], ref_terrain) == 0
    (layer,) = [layer for layer in ET.parse(first).getroot().iter("layer") if layer.get("name") == "terrain"]
    assert (layer.get("offsetx"), layer.get("offsety")) == ("16", "16")  # half the map's 32-pixel tile
    root = ET.parse(first).getroot()
    assert [p.get("name") for p in root.find("properties")] == ["blockmaze"]

    # a second level, larger than the map: the map grows to fit it
    again = {"command": "dungeon", "size": "15x25", "options": {"seed": 9, "style": "bsp"},
             "into": "first-out.tmx"}
    done = export(tmp_path, again, "second")
    assert done.returncode == 0, done.stderr
    second = tmp_path / "second-out.tmx"
    root = ET.parse(second).getroot()
    assert [t.get("name") for t in root.iter("tileset")] == ["stone-bricks"]
    assert [layer.get("name") for layer in root if layer.tag in ("layer", "objectgroup")] == \
        ["ground", "maze", "terrain", "entities"]
    ref = reference(tmp_path, "dungeon", "15x25", {"seed": 9, "style": "bsp"})
    assert (root.get("width"), root.get("height")) == ("51", "31")
    width, height, cells = tiles(second)
    assert (width, height) == tiles(ref)[:2] == (51, 31)
    assert mismatches(cells, tiles(ref)[2]) == 0
    assert mismatches(tiles(second, "terrain")[2], tiles(ref, "terrain")[2]) == 0
    assert objects(second, scale=2) == objects(ref)


PROBE = Path(__file__).with_name("external") / "tiled_probe.js"
WINDOW_SECONDS = 120


@pytest.mark.reader
@pytest.mark.slow
def test_the_action_in_tileds_window_makes_a_level_and_undoes_it_in_one_step(tmp_path):
    """Tiled's window (offscreen) opens a map; a probe extension triggers Map > Make a blockmaze
    maze or dungeon… with each line as the prompt's answer, writes the map, undoes once and
    writes it again."""
    tiled = readers.program("tiled", "Debian's tiled")
    env = tiled_env(tmp_path)
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    out = tmp_path / "out"
    out.mkdir()
    lines = ["dungeon --seed 3 --spawns 3:2:1 --lock", "dungeon --style nope",
             "maze 15x25 --seed 4 --theme hedge --solution"]
    probe = Path(env["XDG_CONFIG_HOME"]) / "tiled" / "extensions" / "probe" / "probe.js"
    probe.parent.mkdir()
    probe.write_text(f"const OUT = {json.dumps(str(out))};\nconst LINES = {json.dumps(lines)};\n"
                     + PROBE.read_text())
    w, h = 45, 27
    (tmp_path / "map.tmx").write_text(
        BLANK.format(w=w, h=h, data=",\n".join(",".join("0" * w) for _ in range(h))))
    window = subprocess.Popen([tiled, "map.tmx"], cwd=tmp_path, env={**env, "XDG_RUNTIME_DIR": str(runtime)},
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + WINDOW_SECONDS
        while not (out / "report.json").exists():
            assert window.poll() is None, f"Tiled ended with {window.returncode}"
            assert time.monotonic() < deadline, f"no report from Tiled in {WINDOW_SECONDS} s"
            time.sleep(0.2)
    finally:
        window.kill()
        window.wait()
    report = json.loads((out / "report.json").read_text())
    assert report["error"] is None
    assert [p["text"] for p in report["prompts"]] == ["dungeon --style rooms-and-mazes"] * 3
    assert "--style rooms-and-mazes|caves|bsp|digger|mixed" in report["prompts"][0]["label"]
    assert report["alerts"] == ["Invalid value for '--style': 'nope' is not one of "
                                "'rooms-and-mazes', 'caves', 'bsp', 'digger', 'mixed'."]
    # made, undone; failed (nothing to undo); made, undone
    assert report["modified"] == [True, False, False, False, True, False]

    ref = reference(tmp_path, "dungeon", "13x22", {"seed": 3, "spawns": "3:2:1", "lock": True})
    ref_w, ref_h, ref_cells = tiles(ref)
    _, _, cells = tiles(out / "run-0.tmx")
    assert mismatches([cells[y * w + x] for y in range(ref_h) for x in range(ref_w)], ref_cells) == 0
    assert objects(out / "run-0.tmx", scale=2) == objects(ref)
    root = ET.parse(out / "run-0.tmx").getroot()
    assert {p.get("name"): p.get("value") for p in root.find("properties")} == \
        {"blockmaze": lines[0]}
    assert (tmp_path / "blockmaze-stone-bricks-tiles.png").is_file()

    ref = reference(tmp_path, "generate", "15x25", {"seed": 4, "theme": "hedge", "solution": True})
    root = ET.parse(out / "run-2.tmx").getroot()
    assert (root.get("width"), root.get("height")) == ("51", "31")  # the map grew to fit
    assert mismatches(tiles(out / "run-2.tmx")[2], tiles(ref)[2]) == 0
    assert objects(out / "run-2.tmx", scale=2) == objects(ref)

    # each undo, and the failed run, leave the map as it was opened
    def layers(path):
        root = ET.parse(path).getroot()
        return (root.get("width"), root.get("height"), [t.get("name") for t in root.iter("tileset")],
                [(layer.tag, layer.get("name")) for layer in root if layer.tag in ("layer", "objectgroup")],
                root.find("properties"))
    opened = layers(tmp_path / "map.tmx")
    assert opened == ("45", "27", [], [("layer", "ground")], None)
    for name in ("undone-0", "run-1", "undone-1", "undone-2"):
        assert layers(out / f"{name}.tmx") == opened, name
        assert tiles(out / f"{name}.tmx", "ground")[2] == [None] * (w * h)
