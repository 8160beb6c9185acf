"""Themes: shipped files valid against the schema; user themes checked with clear errors."""

import json
from importlib import resources
from pathlib import Path

import jsonschema
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


@pytest.mark.slow
@pytest.mark.parametrize("form", ["numpy", "kernel compiled", "kernel as Python"])
@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(0.01, 100), min_size=2, max_size=5), st.integers(0, 2**63),
       st.sampled_from([np.uint8, np.uint16]), st.integers(1, 3), st.integers(1, 40),
       st.integers(1, 70), st.tuples(st.integers(0, 300), st.integers(0, 300), st.integers(0, 300)))
def test_drawn_variants_follow_the_cumulative_weights_exactly(form, weights, seed, dtype, height,
                                                               length, width, origin):
    """Each block takes the variant whose share of the cumulative weights holds its draw
    (:func:`variant_draws`), whatever the palette indices of the variants and their width, in
    the numpy form (row chunks) and in the kernel's (a block at a time), compiled or not."""
    from blockmaze.export.minecraft import palette
    from blockmaze.support.kernels import forced

    top = np.iinfo(dtype).max
    entries = np.array([top - 3 * i if i % 2 else 5 * i for i in range(len(weights))])
    blocks = np.zeros((height, length, width), np.uint8)
    blocks[:, ::2] = 1  # drawn material on every other row
    blocks[:, 1::4] = 2  # and a material drawn from one variant only (not drawn: no change)
    indices = np.where(blocks == 1, entries[0], 0).astype(dtype)
    mode = {"numpy": "python", "kernel compiled": "numba", "kernel as Python": "python"}[form]
    with forced(mode), pytest.MonkeyPatch.context() as patch:
        if form == "kernel as Python":
            patch.setattr(palette, "compiled_pays", lambda size, small: True)
        palette._draw_variants(blocks, indices, [(1, entries, palette._thresholds(weights))],
                               seed, origin)
    p = np.asarray(weights) / np.sum(weights)
    for y in range(height):
        u = palette.variant_draws(seed, (length, width), (origin[0] + y, origin[1], origin[2]))
        pick = np.minimum(np.searchsorted(np.cumsum(p), u, side="right"), len(entries) - 1)
        expected = np.where(blocks[y] == 1, entries[pick], 0)
        assert np.array_equal(indices[y], expected.astype(dtype))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 255), min_size=1, max_size=6), st.integers(0, 200_000), st.integers(0, 2**32))
def test_present_materials_are_the_values_found(values, size, seed):
    """Found by chunks that stop early, or counted for a wide range: the same as np.unique."""
    from blockmaze.export.minecraft.palette import present_materials

    blocks = np.random.default_rng(seed).choice(np.array(values, np.uint8), size)
    blocks[size // 2:] = values[0]  # late chunks without most values
    assert present_materials(blocks).tolist() == np.unique(blocks).tolist()
