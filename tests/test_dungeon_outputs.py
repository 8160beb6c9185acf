"""A dungeon level's outputs: LDtk (read by ldtkpy, checked against LDtk's JSON schema), entities
in Tiled (pytiled-parser), the JSON tile map (its schema), tcod arrays, ASCII stairs, every
format, and the ``dungeon`` command's options.
"""

from __future__ import annotations

import gzip
import io
import json
import zipfile
from pathlib import Path

import jsonschema
import numpy as np
import pytest
import pytiled_parser
from PIL import Image

import blockmaze as bm
from blockmaze.cli import main
from blockmaze.dungeon import STYLES, generate_dungeon
from blockmaze.export import FORMATS
from blockmaze.materials import Material
import readers

TILESET_COUNT = len(Material) + 16  # a tile per material, then 16 terrain tiles

DATA = Path(__file__).parent / "data"
SCHEMAS = Path(__file__).parent.parent / "schemas"
PLAN_ENTITIES = {Material.START: "start", Material.GOAL: "goal", Material.DOOR: "door",
                 Material.STAIRS: "stairs"}


def level_of(style, levels=2, seed=4):
    """The last level of a small dungeon with stairs up, a lock and spawns."""
    return generate_dungeon((8, 12), seed, style=style, levels=levels, lock=True,
                            spawns=(3, 2, 2), spacing=2).levels[-1]


def expected_entities(level):
    """{(kind, x, y): properties}: the plan's marked tiles, then the level's entities."""
    found = {(PLAN_ENTITIES[Material(int(level.plan[z, x]))], int(x), int(z)): {}
             for z, x in np.argwhere(np.isin(level.plan, list(PLAN_ENTITIES)))}
    for e in level.entities:
        found[(e.kind, e.x, e.z)] = dict(e.properties)
    return found


@pytest.mark.parametrize("style", STYLES)
def test_ldtk_project_loads_in_ldtkpy_tile_for_tile(style, tmp_path):
    level = level_of(style)
    path = tmp_path / "level.ldtk"
    bm.write(level.plan, path, entities=level.entities)
    ldtkpy = readers.module("ldtkpy.api", "ldtkpy")  # reads LDtk projects
    project = ldtkpy.ldtk_json_from_dict(json.loads(path.read_text("utf-8")))
    (only,) = project.levels
    height, width = level.plan.shape
    assert (only.px_wid, only.px_hei) == (16 * width, 16 * height)
    layers = {layer.identifier: layer for layer in only.layer_instances}
    grid = layers["Plan"]
    assert (grid.c_wid, grid.c_hei) == (width, height)
    assert np.array_equal(np.array(grid.int_grid_csv).reshape(height, width) - 1, level.plan)
    drawn = np.full(level.plan.shape, -1)
    for tile in layers["Tiles"].grid_tiles:
        x, y = tile.px[0] // 16, tile.px[1] // 16
        assert tile.src == [tile.t * 16, 0]
        drawn[y, x] = tile.t
    assert np.array_equal(drawn, level.plan)
    tileset = project.defs.tilesets[0]
    assert layers["Tiles"].tileset_rel_path == tileset.rel_path == "level-tiles.png"
    with Image.open(tmp_path / tileset.rel_path) as image:
        assert image.size == (tileset.px_wid, tileset.px_hei) == (16 * TILESET_COUNT, 16)
    values = {v.value: v.identifier for v in next(d for d in project.defs.layers if d.identifier == "Plan").int_grid_values}
    assert values[Material.WALL + 1] == "wall" and values[Material.STAIRS + 1] == "stairs"
    read = {}
    for e in layers["Entities"].entity_instances:
        assert e.px == [16 * e.grid[0], 16 * e.grid[1]]
        fields = {f.identifier: f.value for f in e.field_instances if f.value is not None}
        read[(e.identifier.lower(), e.grid[0], e.grid[1])] = fields
    assert read == expected_entities(level)
    assert any(k[0] == "stairs" and v == {"direction": "up", "level": 1} for k, v in read.items())


def test_ldtk_project_follows_ldtks_json_schema_and_is_reproducible():
    schema = json.loads(gzip.decompress((DATA / "ldtk-json-schema-1.5.3.json.gz").read_bytes()))
    validator = jsonschema.Draft7Validator(schema)
    outputs = []
    for style in ("rooms-and-mazes", "caves"):
        level = level_of(style)
        out = io.BytesIO()
        bm.write(level.plan, out, format="ldtk", entities=level.entities, theme="hedge")
        errors = [e.message for e in validator.iter_errors(json.loads(out.getvalue()))]
        assert errors == []
        outputs.append(out.getvalue())
    again = io.BytesIO()
    level = level_of("caves")
    bm.write(level.plan, again, format="ldtk", entities=level.entities, theme="hedge")
    assert again.getvalue() == outputs[1]
    broken = json.loads(outputs[0])
    del broken["levels"][0]["layerInstances"][0]["iid"]
    assert list(validator.iter_errors(broken)), "the schema check can fail"


@pytest.mark.parametrize("suffix", [".tmj", ".tmx"])
def test_tiled_objects_carry_the_entities_and_their_properties(suffix, tmp_path):
    level = level_of("digger")
    path = tmp_path / f"level{suffix}"
    bm.write(level.plan, path, entities=level.entities)
    tiled = pytiled_parser.parse_map(path)
    objects = next(layer for layer in tiled.layers if layer.name == "entities").tiled_objects
    read = {(o.class_ or o.name, int(o.coordinates.x) // 16, int(o.coordinates.y) // 16):
            dict(o.properties) for o in objects}
    assert read == expected_entities(level)


def test_json_tile_map_draws_stairs_both_ways_and_holds_entities_and_metrics():
    d = generate_dungeon((8, 12), 6, style="bsp", levels=3, lock=True, spawns=(2, 2, 2))
    schema = json.loads((SCHEMAS / "tilemap.schema.json").read_text("utf-8"))
    middle = d.levels[1]
    out = io.BytesIO()
    bm.write(middle.plan, out, format="tilemap", entities=middle.entities, metrics=middle.metrics)
    document = json.loads(out.getvalue())
    jsonschema.validate(document, schema)
    (sz, sx), (gz, gx) = middle.start, middle.goal
    assert document["grid"][sz][sx] == "<" and document["grid"][gz][gx] == ">"
    assert document["legend"]["<"]["materials"] == ["stairs"] and document["legend"]["<"]["direction"] == "up"
    assert document["metrics"] == middle.metrics
    entities = {(e["type"], e["x"], e["y"]): e.get("properties", {}) for e in document["entities"]}
    assert entities == expected_entities(middle)
    assert entities[("stairs", gx, gz)] == {"direction": "down", "level": 3}


def test_tcod_arrays_list_entities_in_both_orders():
    level = level_of("mixed")
    for order in ("C", "F"):
        out = io.BytesIO()
        bm.write(level.plan, out, format="npz", entities=level.entities, order=order)
        arrays = np.load(io.BytesIO(out.getvalue()))
        kinds = arrays["entity_kind"].tolist()
        positions = arrays["entity_position"].tolist()
        assert len(kinds) == len(positions) == len(arrays["entity_level"])
        for kind, (a, b), target in zip(kinds, positions, arrays["entity_level"].tolist(),
                                        strict=True):
            z, x = (a, b) if order == "C" else (b, a)
            assert arrays["walkable"][a, b]
            base = kind.split("-")[0]
            assert (base, x, z) in expected_entities(level)
            assert target == (1 if kind == "stairs-up" else -1)
        assert "stairs-up" in kinds and "door-locked" in kinds and "key" in kinds


def test_ascii_map_draws_stairs_up():
    level = level_of("caves")
    out = io.BytesIO()
    bm.write(level.plan, out, format="ascii", entities=level.entities)
    lines = out.getvalue().decode("utf-8").splitlines()
    assert "; < stairs walkable transparent up" in lines
    rows = [line for line in lines if not line.startswith(";")]
    z, x = level.start
    assert rows[z][x] == "<" and sum(row.count("<") for row in rows) == 1


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(n for n, f in FORMATS.items() if f.source != "maze"))
def test_a_cave_level_goes_to_every_output(name, tmp_path):
    level = generate_dungeon((6, 8), 2, style="caves").levels[0]
    blocks = level.plan if FORMATS[name].source == "plan" else bm.extrude(level.plan)
    suffixes = FORMATS[name].suffixes
    path = tmp_path / (f"cave{suffixes[0]}" if suffixes else "cave")  # worlds: a folder
    bm.write(blocks, path, format=name)
    assert path.exists() and (path.is_dir() or path.stat().st_size > 0)


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_dungeon_command_styles_spawns_lock_and_ldtk(tmp_path, capsys):
    code, out, _ = run(capsys, "dungeon", "--help")
    assert code == 0 and "--no-solution" not in out and "--style" in out and "caves" in out
    target = tmp_path / "cave.ldtk"
    code, _, err = run(capsys, "dungeon", "10x14", "--style", "caves", "--seed", "3", "--levels", "2",
                       "--spawns", "3:2:1", "--lock", "-o", str(target))
    assert code == 0, err
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "cave-1-tiles.png", "cave-1.ldtk", "cave-2-tiles.png", "cave-2.ldtk"]
    assert "level 1: walkable " in err and "longest shortest path" in err
    level = generate_dungeon((10, 14), 3, style="caves", levels=2, spawns=(3, 2, 1), lock=True).levels[1]
    direct = io.BytesIO()
    bm.write(level.plan, direct, format="ldtk", entities=level.entities, tileset_file="cave-2-tiles")
    assert (tmp_path / "cave-2.ldtk").read_bytes() == direct.getvalue()
    code, _, err = run(capsys, "dungeon", "8x8", "--style", "digger", "--seed", "1", "--levels", "2",
                       "-o", str(tmp_path / "d.tilemap.json"))
    assert code == 0 and (tmp_path / "d-2.tilemap.json").exists(), err
    assert json.loads((tmp_path / "d-2.tilemap.json").read_text())["metrics"]["rooms"] >= 1


@pytest.mark.parametrize("suffix", ["tmx", "ldtk", "txt", "schem", "glb", "mcworld"])
def test_save_writes_a_dungeon_as_the_command_does(suffix, tmp_path, capsysbinary):
    """One call, the command's bytes: a file a level for tile maps, the levels stacked in one
    volume for blocks (and that one file may go to standard output)."""
    assert main(["-q", "dungeon", "10x12", "--seed", "5", "--levels", "2", "--spawns", "2:1:1",
                 "--lock", "-o", str(tmp_path / f"cli.{suffix}")]) == 0
    dungeon = bm.generate_dungeon((10, 12), 5, levels=2, spawns=(2, 1, 1), lock=True)
    takes_seed = "seed" in bm.writer_for(f"x.{suffix}").options  # (blocks drawn from a theme)
    bm.save(dungeon, tmp_path / f"api.{suffix}", **({"seed": 5} if takes_seed else {}))
    made = sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("cli"))
    assert made == sorted(p.name.replace("api", "cli") for p in tmp_path.iterdir()
                          if p.name.startswith("api"))
    assert len([n for n in made if not n.endswith(".png")]) == (1 if suffix in ("schem", "glb", "mcworld") else 2)
    for name in made:  # the same bytes but for the names the files give each other
        ours, theirs = tmp_path / name, tmp_path / name.replace("cli", "api")
        if name.endswith(".mcworld"):  # (its level.dat and levelname.txt hold its name)
            with zipfile.ZipFile(ours) as a, zipfile.ZipFile(theirs) as b:
                kept = [n for n in a.namelist() if n not in ("level.dat", "levelname.txt")]
                assert [a.read(n) for n in kept] == [b.read(n) for n in kept]
        else:
            assert ours.read_bytes().replace(b"cli", b"api") == theirs.read_bytes(), name
    if suffix == "schem":
        assert main(["-q", "dungeon", "10x12", "--seed", "5", "--levels", "2", "--spawns", "2:1:1",
                     "--lock", "-o", "-", "-f", "schem"]) == 0
        assert capsysbinary.readouterr().out == (tmp_path / "cli.schem").read_bytes()


def test_save_draws_a_dungeon_as_a_picture_and_refuses_it_as_a_maze_document(tmp_path):
    with pytest.raises(bm.BlockmazeError, match="a dungeon is blocks"):
        bm.save(bm.generate_dungeon((6, 6), 1), tmp_path / "d.json")
    assert not list(tmp_path.iterdir())
    bm.save(bm.generate_dungeon((6, 6), 1, levels=2), tmp_path / "d.png")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d-1.png", "d-2.png"]


@pytest.mark.parametrize("args, message", [
    (["8x8", "--spawns", "3:x"], "--spawns is MONSTERS:ITEMS:TREASURE"),
    (["8x8", "--style", "bsp", "--min-shortcut", "4"], "min_shortcut shape rooms-and-mazes levels only"),
    (["8x8", "--style", "hexes"], "'hexes' is not one of"),
    (["8x8", "--solution"], "No such option '--solution'"),
])
def test_dungeon_command_errors(capsys, args, message):
    code, _, err = run(capsys, "dungeon", *args)
    assert code == 2 and message in err and err.count("\n") == 1


def test_every_glyph_on_a_text_map_is_in_its_legend_on_every_level(tmp_path):
    d = generate_dungeon((6, 9), 8, style="digger", levels=3)
    for level in d.levels:
        out = io.BytesIO()
        bm.write(level.plan, out, format="tilemap", entities=level.entities)
        document = json.loads(out.getvalue())
        assert set("".join(document["grid"])) == set(document["legend"])
        out = io.BytesIO()
        bm.write(level.plan, out, format="ascii", entities=level.entities)
        lines = out.getvalue().decode("utf-8").splitlines()
        legend = {line[2] for line in lines[3:] if line.startswith("; ")}
        assert set("".join(line for line in lines if not line.startswith(";"))) == legend


def test_rexpaint_draws_stairs_up(tmp_path):
    import tcod

    level = level_of("bsp", levels=3)
    path = tmp_path / "level.xp"
    bm.write(level.plan, path, entities=level.entities)
    (console,) = tcod.console.load_xp(path, order="C")
    z, x = level.start
    assert chr(console.ch[z, x]) == "<"
    assert (console.ch == ord("<")).sum() == 1


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("fmt", ["ascii", "xp"])
def test_text_maps_show_every_spawn_the_key_and_the_lock(tmp_path, style, fmt):
    """Text maps have no entity layer: spawns, the key and the locked door are drawn as glyphs
    (the ASCII legend names each), never dropped."""
    level = level_of(style, levels=1)
    out = io.BytesIO()
    bm.write(level.plan[None], out, format=fmt, entities=level.entities)
    if fmt == "ascii":
        text = out.getvalue().decode()
        rows = [line for line in text.splitlines() if not line.startswith(";")]
        legend = {line[2] for line in text.splitlines() if line.startswith("; ") and line[3:4] == " "}
    else:
        raw = gzip.decompress(out.getvalue())
        width, height = np.frombuffer(raw[8:16], "<i4")
        glyphs = np.frombuffer(raw[16:], dtype=[("g", "<i4"), ("c", "u1", 6)])["g"].reshape(width, height)
        rows = ["".join(chr(g) for g in glyphs[:, y]) for y in range(height)]
        legend = None
    theme = bm.load_theme()
    wanted = {"monster": theme.glyph(Material.MONSTER), "item": theme.glyph(Material.ITEM),
              "treasure": theme.glyph(Material.TREASURE), "key": "k"}
    for entity in level.entities:
        glyph = wanted.get(entity.kind, "L" if entity.properties.get("locked") else None)
        if glyph is not None:
            assert rows[entity.z][entity.x] == glyph, (entity, rows[entity.z])
            assert legend is None or glyph in legend
    kinds = {e.kind for e in level.entities} | {"locked" for e in level.entities
                                                if e.properties.get("locked")}
    assert {"monster", "item", "treasure"} <= kinds  # (a lock only where one way leads on)
    assert style == "caves" or {"key", "locked"} <= kinds
