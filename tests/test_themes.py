"""Themes: shipped files valid against the schema; user themes checked with clear errors."""

import json
from importlib import resources
from pathlib import Path

import jsonschema
import numpy as np
import pytest

import blockmaze as bm
from blockmaze.materials import parse_theme

SCHEMA = json.loads((Path(__file__).parents[1] / "schemas" / "theme.schema.json").read_text())


@pytest.mark.parametrize("name", bm.theme_names())
def test_shipped_themes_match_the_schema_and_load(name):
    document = json.loads((resources.files("blockmaze") / "themes" / f"{name}.json").read_text())
    jsonschema.Draft202012Validator(SCHEMA).validate(document)
    theme = bm.load_theme(name)
    assert set(theme.minecraft) == set(bm.Material)  # every material has a block
    assert all(state.isascii() for state in theme.minecraft.values())


def test_theme_from_file(tmp_path):
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"name": "mine", "materials": {
        "wall": {"minecraft": "minecraft:oak_log[axis=z]"}, "floor": {"minecraft": "minecraft:dirt"}}}))
    theme = bm.load_theme(path)
    assert theme.minecraft[bm.Material.WALL] == "minecraft:oak_log[axis=z]"
    assert theme.minecraft[bm.Material.AIR] == "minecraft:air"


@pytest.mark.parametrize("document, match", [
    ([], "JSON object"),
    ({"name": "x"}, "'materials' must be an object"),
    ({"name": "x", "materials": {"lava": {"minecraft": "minecraft:lava"}}}, "unknown material 'lava'"),
    ({"name": "x", "materials": {"wall": {"minecraft": "Stone Bricks"}}}, "materials.wall.minecraft must be"),
    ({"name": "x", "materials": {"wall": {"minecraft": "minecraft:caf\u00e9"}}}, "materials.wall.minecraft must be"),
])
def test_bad_theme_documents(document, match):
    with pytest.raises(bm.BlockmazeError, match=match):
        parse_theme(document)
    schema_accepts = jsonschema.Draft202012Validator(SCHEMA).is_valid(document)
    assert not schema_accepts


def test_missing_and_malformed_theme_files(tmp_path):
    with pytest.raises(bm.BlockmazeError, match="no theme 'nope'"):
        bm.load_theme("nope")
    broken = tmp_path / "broken.json"
    broken.write_text("{ not json")
    with pytest.raises(bm.BlockmazeError, match="not valid JSON"):
        bm.load_theme(broken)


def test_material_missing_from_theme_is_a_clear_writer_error(tmp_path):
    theme = parse_theme({"name": "bare", "materials": {"wall": {"minecraft": "minecraft:stone"}}})
    volume = bm.extrude(bm.to_blocks(bm.generate((2, 2), rng=0)))  # has a FLOOR layer
    with pytest.raises(bm.BlockmazeError, match="theme 'bare' has no Minecraft block for material floor"):
        bm.write(volume, tmp_path / "m.schem", theme=theme)
    assert list(tmp_path.iterdir()) == []


def test_variants_follow_weights_and_seed():
    from blockmaze.export.minecraft.palette import minecraft_palette
    theme = bm.load_theme("stone-bricks")
    blocks = np.full((1, 200, 200), bm.Material.WALL, np.uint8)
    indices, palette = minecraft_palette(blocks, theme, seed=5)
    counts = {state: int((indices == i).sum()) for i, state in enumerate(palette)}
    assert set(counts) == {"minecraft:stone_bricks", "minecraft:mossy_stone_bricks",
                           "minecraft:cracked_stone_bricks"}
    assert abs(counts["minecraft:stone_bricks"] / blocks.size - 0.8) < 0.01
    assert abs(counts["minecraft:mossy_stone_bricks"] / blocks.size - 0.1) < 0.01
    again, _ = minecraft_palette(blocks, theme, seed=5)
    other, _ = minecraft_palette(blocks, theme, seed=6)
    assert np.array_equal(indices, again) and not np.array_equal(indices, other)
    plain, plain_palette = minecraft_palette(blocks, theme)  # no seed: the main block only
    assert plain_palette == ["minecraft:stone_bricks"] and not plain.any()


def test_variants_drawn_on_threads_are_the_same(monkeypatch):
    """Big volumes draw their layers' variants on two threads: the same blocks as one thread."""
    from blockmaze.export.minecraft import palette

    volume = bm.extrude(bm.to_blocks(bm.generate((20, 30), rng=3)), height=4, roof=True)
    theme = bm.load_theme("stone-bricks")
    found = {}
    for threaded in (False, True):
        monkeypatch.setattr(palette, "THREADED_DRAWS", 0 if threaded else volume.size + 1)
        found[threaded] = palette.minecraft_palette(volume, theme, seed=9, origin=(2, 16, 0))
    assert found[True][1] == found[False][1]
    assert np.array_equal(found[True][0], found[False][0])
    assert len(found[True][1]) >= 3  # the variants were drawn


@pytest.mark.parametrize("variants, match", [
    ("mossy", "variants must be a list"),
    (["mossy"], r"variants\[0\] must be an object"),
    ([{"minecraft": "minecraft:mossy_stone_bricks", "weight": 0}], r"variants\[0\].weight must be a number > 0"),
    ([{"minecraft": "Mossy"}], r"variants\[0\].minecraft must be a block state"),
])
def test_bad_variants(variants, match):
    document = {"name": "x", "materials": {"wall": {"minecraft": "minecraft:stone", "variants": variants}}}
    with pytest.raises(bm.BlockmazeError, match=match):
        parse_theme(document)
