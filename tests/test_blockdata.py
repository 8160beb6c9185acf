"""Block states per release: every theme is checked, built-in themes substitute, files hold only
states the target release has.

The target test (every built-in theme x every release x every Minecraft format: 0 unknown
states) reads each file back with an independent reader and checks its states against
minecraft-data **itself**, not our compact table: set MINECRAFT_DATA to a folder where
``npm install minecraft-data`` was run (``scripts/install_readers.sh`` does); without it those
tests skip and say why (under CI=true they fail). The checker's own tests (messages, hypothesis mutations, the CLI) need nothing extra.
"""

from __future__ import annotations

import dataclasses
import io
import json
import re
import zipfile
from functools import cache
from pathlib import Path

import numpy as np
import pynbt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nbt import nbt

import blockmaze as bm
from blockmaze.cli import main
from blockmaze.export.minecraft import bedrock, blockdata
from blockmaze.export.minecraft.datapack import SCHEDULE_FROM
from blockmaze.export.minecraft.versions import RELEASES
from blockmaze.export.minecraft.states import CLIMB
import readers
from litematic_checker import read_litematic
from mcfunction_checker import PACK_FORMATS, parse_command, read_datapack
from schem_checker import read_schem
from structure_checker import read_structure

THEMES = bm.theme_names()
# Every material, 20 blocks each, so that every weighted variant is drawn (seed 1).
EVERY_MATERIAL = np.repeat(np.arange(len(bm.Material), dtype=np.uint8), 20).reshape(1, len(bm.Material), 20)
JAVA_FORMATS = ("schem", "litematic", "structure", "datapack")


def datapack_releases() -> list[str]:
    """Releases a datapack can target: a known pack format and /schedule (1.14+)."""
    return [r.name for r in RELEASES.values()
            if r.pack_format is not None and r.data_version >= SCHEDULE_FROM]


# --- minecraft-data itself ------------------------------------------------------------------------


@cache
def mcdata() -> Path:
    data = readers.node_package("minecraft-data", "MINECRAFT_DATA") / "node_modules" / "minecraft-data"
    data = data / "minecraft-data" / "data"
    if not (data / "dataPaths.json").is_file():
        readers.missing("npm package minecraft-data", f"{data} holds no dataPaths.json")
    return data


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in version.split("."))


@cache
def mcdata_json(relative: str):
    return json.loads((mcdata() / relative).read_text())


def mcdata_path(edition: str, version: str, kind: str) -> str:
    """minecraft-data's folder for a version's ``kind`` table: its own, else the nearest earlier
    release it has (the stand-ins our table's notes name)."""
    paths = mcdata_json("dataPaths.json")[edition]
    if version not in paths or kind not in paths[version]:
        version = max((v for v in paths if re.fullmatch(r"\d+(\.\d+)*", v) and kind in paths[v]
                       and _key(v) <= _key(version)), key=_key)
    return paths[version][kind]


@cache
def java_blocks(mc_version: str) -> dict[str, dict[str, tuple[str, ...] | int]]:
    """name -> {property: allowed values (or just a count where minecraft-data lists none)}."""
    out = {}
    for block in mcdata_json(mcdata_path("pc", mc_version, "blocks") + "/blocks.json"):
        properties = {}
        for state in block.get("states", []):
            if state["type"] == "bool":
                properties[state["name"]] = ("true", "false")
            elif "values" in state:
                properties[state["name"]] = tuple(map(str, state["values"]))
            else:
                properties[state["name"]] = state["num_values"]
        out["minecraft:" + block["name"]] = properties
    return out


def unknown_to_mcdata(state: str, mc_version: str) -> bool:
    """True unless minecraft-data's table for ``mc_version`` has this name, properties and values."""
    name, _, rest = state.partition("[")
    known = java_blocks(mc_version).get(name)
    if known is None:
        return True
    for pair in rest.rstrip("]").split(",") if rest else ():
        key, _, value = pair.partition("=")
        allowed = known.get(key)
        if allowed is None:
            return True
        if isinstance(allowed, int):  # a count only: 0..n-1 or 1..n
            if not value.isdigit() or int(value) > allowed:
                return True
        elif value not in allowed:
            return True
    return False


# --- the states in each file, as independent readers see them --------------------------------------


def written(fmt: str, theme: str, mc_version: str | None) -> bytes:
    out = io.BytesIO()
    options = {"seed": 1} | ({"mc_version": mc_version} if mc_version else {})
    bm.write(EVERY_MATERIAL, out, format=fmt, theme=theme, **options)
    return out.getvalue()


def java_states(fmt: str, data: bytes, mc_version: str) -> set[str]:
    if fmt == "schem":
        return set(read_schem(data).palette)
    if fmt == "litematic":
        return {s for region in read_litematic(data).regions.values() for s in region.palette}
    if fmt == "structure":
        return set(read_structure(data).palette)
    if mc_version in PACK_FORMATS:  # the checker knows this release's pack: it checks all of it
        commands = [c for cs in read_datapack(data, mc_version).functions.values() for c in cs]
    else:  # its command parser still reads every line
        archive = zipfile.ZipFile(io.BytesIO(data))
        commands = [parse_command(line, name) for name in archive.namelist() if name.endswith(".mcfunction")
                    for line in archive.read(name).decode("ascii").splitlines() if line and not line.startswith("#")]
    return {c.args[-1] for c in commands if c.kind == "fill"}


def legacy_pairs(data: bytes) -> set[tuple[int, int]]:
    """(id, data) pairs of a .schematic, read with twoolie's NBT."""
    root = nbt.NBTFile(fileobj=io.BytesIO(data))
    ids = np.frombuffer(bytes(root["Blocks"].value), np.uint8).astype(np.int64)
    if "AddBlocks" in root:
        add = np.frombuffer(bytes(root["AddBlocks"].value), np.uint8)
        high = np.stack([add & 0x0F, add >> 4], axis=1).ravel()[:ids.size]
        ids = ids | (high.astype(np.int64) << 8)
    values = np.frombuffer(bytes(root["Data"].value), np.uint8)
    return set(zip(ids.tolist(), values.tolist(), strict=True))


def legacy_unknown(pair: tuple[int, int]) -> bool:
    """True unless minecraft-data's 1.12 table has the id and (where it lists them) the data value."""
    table = {b["id"]: b for b in mcdata_json(mcdata_path("pc", "1.12.2", "blocks") + "/blocks.json")}
    block = table.get(pair[0])
    if block is None:
        return True
    variations = block.get("variations")
    return bool(variations) and pair[1] not in {v["metadata"] for v in variations}


BEDROCK_VERSION = "1.21.90"  # the writer's names (FORMATS: "Bedrock 1.21.90+")
_PYNBT_TYPES = {pynbt.TAG_Byte: "byte", pynbt.TAG_Int: "int", pynbt.TAG_String: "string"}


def bedrock_states(data: bytes) -> set[tuple]:
    """(name, ((state, type, value), ...), version) of each palette entry, read with PyNBT."""
    root = pynbt.NBTFile(io.BytesIO(data), little_endian=True)
    out = set()
    for entry in root["structure"]["palette"]["default"]["block_palette"]:
        states = tuple(sorted((k, _PYNBT_TYPES[type(v)], v.value) for k, v in entry["states"].items()))
        out.add((entry["name"].value, states, entry["version"].value))
    return out


@cache
def bedrock_palette() -> set[tuple]:
    """Every complete block state of Bedrock 1.21.90 as minecraft-data has it (from the game)."""
    states = mcdata_json(mcdata_path("bedrock", BEDROCK_VERSION, "blockStates") + "/blockStates.json")
    return {("minecraft:" + s["name"], tuple(sorted((k, v["type"], v["value"]) for k, v in s["states"].items())),
             s["version"]) for s in states}


# --- target 1: every built-in theme x every release x every Minecraft format --------------------------


@pytest.mark.slow
@pytest.mark.reader
@pytest.mark.parametrize("fmt", JAVA_FORMATS)
@pytest.mark.parametrize("theme", THEMES)
def test_every_release_gets_only_states_it_has(theme, fmt):
    """Target 1 (Java formats): in every release of our table, 0 block states unknown to it."""
    mcdata()
    releases = datapack_releases() if fmt == "datapack" else list(RELEASES)
    unknown = []
    for mc_version in releases:
        states = java_states(fmt, written(fmt, theme, mc_version), mc_version)
        assert len(states) >= 8, (mc_version, states)  # every material's block is there
        unknown += [(mc_version, s) for s in sorted(states) if unknown_to_mcdata(s, mc_version)]
    assert unknown == []


@pytest.mark.slow
@pytest.mark.reader
def test_the_minecraft_data_checks_can_fail():
    """The helpers above refuse what minecraft-data lacks (so the target tests can fail)."""
    mcdata()
    assert unknown_to_mcdata("minecraft:deepslate_bricks", "1.16.5")
    assert not unknown_to_mcdata("minecraft:deepslate_bricks", "1.17")
    assert unknown_to_mcdata("minecraft:scaffolding[bottom=false]", "1.13.2")
    assert unknown_to_mcdata("minecraft:stone_bricks[foo=bar]", "1.20.4")
    assert unknown_to_mcdata("minecraft:oak_fence_gate[facing=up]", "1.20.4")
    assert legacy_unknown((98, 7)) and legacy_unknown((4000, 0)) and not legacy_unknown((98, 2))
    assert ("minecraft:scaffolding", (), 18168865) not in bedrock_palette()


@pytest.mark.reader
@pytest.mark.parametrize("theme", THEMES)
def test_schematic_holds_only_1_12_blocks(theme):
    """Target 1 (.schematic): every (id, data) exists in minecraft-data's 1.12 table."""
    mcdata()
    pairs = legacy_pairs(written("schematic", theme, None))
    assert len(pairs) >= 8
    assert [p for p in sorted(pairs) if legacy_unknown(p)] == []


@pytest.mark.reader
@pytest.mark.parametrize("theme", THEMES)
def test_mcstructure_holds_only_bedrock_states(theme):
    """Target 1 (.mcstructure): every palette entry is a complete Bedrock 1.21.90 state, types
    and palette version included, as minecraft-data dumped them from the game."""
    mcdata()
    entries = bedrock_states(written("mcstructure", theme, None))
    assert len(entries) >= 8
    assert [e for e in sorted(entries) if e not in bedrock_palette()] == []


@pytest.mark.reader
def test_bedrock_palette_version_is_the_games():
    """Bedrock's own palette carries version 18168865 (block states 1.21.60.33) on every state
    of 1.21.90 (minecraft-data bedrock/1.21.80/blockStates.json, which 1.21.90 uses): the writer's."""
    mcdata()
    assert {version for _, _, version in bedrock_palette()} == {bedrock.BLOCK_VERSION} == {18168865}


@pytest.mark.reader
@pytest.mark.parametrize("mc_version", [
    "1.13", "1.14.2", "1.16.5", "1.17", "1.19.1", "1.20.4", "1.21.5", "1.21.11", "26.1", "26.2"])
def test_compact_table_matches_minecraft_data(mc_version):
    """Our table says what minecraft-data says: the same blocks, properties and values."""
    mcdata()
    theirs = java_blocks(mc_version)
    ours = blockdata.blocks(mc_version)
    assert set(ours) == set(theirs)
    for name, properties in theirs.items():
        assert set(ours[name]) == set(properties), name
        for key, allowed in properties.items():
            if isinstance(allowed, int):
                assert len(ours[name][key]) == allowed, (name, key)
            else:
                assert ours[name][key] == allowed, (name, key)


# --- the checker ---------------------------------------------------------------------------------


@pytest.mark.parametrize("state, release, message", [
    ("minecraft:deepslate_bricks", "1.16.5",
     "minecraft:deepslate_bricks does not exist in Minecraft 1.16.5 (added in 1.17); choose --mc-version 1.17 or later or another theme"),
    ("minecraft:grass_path", "1.17",
     "minecraft:grass_path does not exist in Minecraft 1.17 (it is in 1.13 to 1.16.5); choose --mc-version 1.16.5 or earlier or another theme"),
    ("minecraft:stone_bricks[foo=bar]", "1.20.4",
     "minecraft:stone_bricks[foo=bar]: minecraft:stone_bricks has no property 'foo' in Minecraft 1.20.4 (it has none)"),
    ("minecraft:oak_log[axis=w]", "1.20.4",
     "minecraft:oak_log[axis=w]: axis=w is not allowed in Minecraft 1.20.4 (allowed: x, y, z)"),
    ("minecraft:stone_brick", "1.20.4",
     "minecraft:stone_brick is not a block of any Minecraft release from 1.13 to 26.2 (minecraft-data); did you mean minecraft:stone_bricks?"),
    ("minecraft:oak_leaves[waterlogged=false]", "1.18.2",
     "minecraft:oak_leaves[waterlogged=false]: minecraft:oak_leaves has no property 'waterlogged' in Minecraft 1.18.2 (its properties: distance, persistent); choose --mc-version 1.19 or later or another theme"),
    ("minecraft:stone[", "1.20.4", "'minecraft:stone[' is not a block state"),
])
def test_check_state_messages(state, release, message):
    with pytest.raises(bm.BlockmazeError) as caught:
        blockdata.check_state(state, release)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_any_release_check_for_tile_maps_and_meshes():
    """Without a release a state must exist in some release: an old name passes, a typo does not."""
    blockdata.check_state("minecraft:grass_path")
    blockdata.check_state("minecraft:deepslate_bricks")
    with pytest.raises(bm.BlockmazeError, match="did you mean minecraft:oak_planks"):
        blockdata.check_state("minecraft:oak_plank")


@pytest.mark.parametrize("name", THEMES)
@pytest.mark.parametrize("mc_version", list(RELEASES))
def test_builtin_themes_fit_every_release_after_substitution(name, mc_version):
    """for_release makes each built-in theme valid in every release (checked by our table)."""
    theme = blockdata.for_release(bm.load_theme(name), mc_version)
    blockdata.check_theme(theme, mc_version)  # does not raise
    assert set(theme.minecraft) == set(bm.Material)


def test_substitutions_follow_the_table():
    """deepslate -> stone bricks before 1.17 (stairs too), scaffolding -> ladder before 1.14;
    variants that meet merge their weights; from the release that has the block, nothing changes."""
    dungeon = bm.load_theme("deepslate-dungeon")
    old = blockdata.for_release(dungeon, "1.16.5")
    assert old.minecraft[bm.Material.WALL] == "minecraft:stone_bricks"
    assert old.minecraft[bm.Material.FLOOR] == "minecraft:smooth_stone"
    assert old.minecraft_choices(bm.Material.WALL) == (("minecraft:stone_bricks", 8.0),
                                                      ("minecraft:cracked_stone_bricks", 2.0))
    assert old.minecraft[bm.Material.STAIRS].startswith("minecraft:stone_brick_stairs[")
    assert blockdata.substitute(CLIMB, "1.14") == CLIMB  # what shafts are climbed on
    assert blockdata.substitute(CLIMB, "1.13.2") == "minecraft:ladder[facing=north,waterlogged=false]"
    assert blockdata.for_release(dungeon, "1.17") == dungeon
    for row in blockdata.substitutions().items():
        block, (added, instead) = row
        assert blockdata.appears(block)[0] == added  # 'added' is when minecraft-data first has it
        blockdata.check_state(instead, blockdata.releases()[0])


def test_custom_themes_are_checked_not_substituted():
    """A custom theme (here a shipped one renamed) keeps its blocks and is refused where they do not exist."""
    custom = dataclasses.replace(bm.load_theme("deepslate-dungeon"), name="mine")
    with pytest.raises(bm.BlockmazeError,
                       match=r"theme 'mine' draws material wall as minecraft:deepslate_bricks: .*added in 1\.17"):
        blockdata.for_release(custom, "1.16.5")
    assert blockdata.for_release(custom, "1.17") is custom


def test_final_palette_is_checked_too():
    """States that appear only at write time (orientation added later) go through check_states."""
    door = "minecraft:oak_door[facing=east,half=upper,hinge=left,open=false,powered=false]"
    blockdata.check_states([door], "1.13")
    with pytest.raises(bm.BlockmazeError, match="half=top is not allowed in Minecraft 1.13"):
        blockdata.check_states(["minecraft:oak_door[half=top]"], "1.13")


# hypothesis: random valid states are accepted, random mutations refused

NAMES = blockdata.releases()


@st.composite
def valid_states(draw):
    release = draw(st.sampled_from(NAMES))
    table = blockdata.blocks(release)
    name = draw(st.sampled_from(sorted(table)))
    keys = draw(st.lists(st.sampled_from(sorted(table[name])), unique=True)) if table[name] else []
    pairs = [f"{k}={draw(st.sampled_from(table[name][k]))}" for k in keys]
    return release, name, pairs


def _state(name, pairs):
    return f"{name}[{','.join(pairs)}]" if pairs else name


@settings(max_examples=150, deadline=None)
@given(valid_states())
def test_valid_states_are_accepted(case):
    release, name, pairs = case
    blockdata.check_state(_state(name, pairs), release)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(valid_states(), st.from_regex(r"[a-z_]{1,12}", fullmatch=True))
def test_unknown_property_is_refused(case, key):
    release, name, pairs = case
    if key in blockdata.blocks(release)[name]:
        key += "_x"  # a name the block's properties cannot hold: none ends so
    with pytest.raises(bm.BlockmazeError, match=f"no property '{key}' in Minecraft {re.escape(release)}"):
        blockdata.check_state(_state(name, pairs + [f"{key}=true"]), release)


@settings(max_examples=150, deadline=None)
@given(valid_states(), st.from_regex(r"[a-z0-9_]{1,8}", fullmatch=True))
def test_unknown_value_is_refused(case, value):
    release, name, pairs = case
    properties = blockdata.blocks(release)[name]
    if not pairs:
        return
    key = pairs[0].partition("=")[0]
    if value in properties[key]:
        value += "_x"
    mutated = [f"{key}={value}"] + pairs[1:]
    with pytest.raises(bm.BlockmazeError, match=f"{key}={value} is not allowed in Minecraft {re.escape(release)}"):
        blockdata.check_state(_state(name, mutated), release)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)  # each refusal looks for the nearest name (difflib)
@given(valid_states(), st.sampled_from(["s", "_block", "x"]), st.booleans())
def test_misspelt_block_is_refused(case, extra, drop):
    release, name, pairs = case
    mutated = name[:-1] if drop else name + extra
    if mutated in blockdata.blocks(release) or mutated.endswith(":"):
        return  # the mutation happens to name another block of that release
    with pytest.raises(bm.BlockmazeError, match=re.escape(mutated)):
        blockdata.check_state(_state(mutated, pairs), release)


# --- the command line ----------------------------------------------------------------------------


def custom_theme(tmp_path, wall: str) -> Path:
    path = tmp_path / "bad-theme.json"
    path.write_text(json.dumps({"name": "bad", "materials": {
        "wall": {"minecraft": wall}, "floor": {"minecraft": "minecraft:stone"},
        "roof": {"minecraft": "minecraft:stone"}}}))
    return path


@pytest.mark.slow
@pytest.mark.parametrize("suffix", [
    ".schem", ".litematic", ".nbt", ".zip", ".schematic", ".mcstructure", ".tmx", ".glb"])
@pytest.mark.parametrize("wall, message", [
    ("minecraft:stone_bricks[foo=bar]", "no property 'foo'"),
    ("minecraft:stone_brick", "did you mean minecraft:stone_bricks?"),
])
def test_cli_refuses_a_bad_custom_theme(tmp_path, capsys, suffix, wall, message):
    """Exit 1 (a theme file naming a state of no release is a bad input file), one 'Error:' line
    naming the state, and no file written."""
    out = tmp_path / f"maze{suffix}"
    theme = str(custom_theme(tmp_path, wall))
    code = main(["generate", "3x3", "--seed", "1", "--theme", theme, "-o", str(out)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1
    assert len(err) == 1 and err[0].startswith("Error: ") and message in err[0] and wall in err[0]
    assert not out.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["bad-theme.json"]


def test_cli_custom_theme_names_the_release_it_needs(tmp_path, capsys):
    out = tmp_path / "maze.schem"
    code = main(["generate", "3x3", "--theme", str(custom_theme(tmp_path, "minecraft:deepslate_bricks")),
                 "--mc-version", "1.16.5", "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and not out.exists()
    assert "minecraft:deepslate_bricks does not exist in Minecraft 1.16.5 (added in 1.17)" in err


def test_cli_builtin_theme_substitutes(tmp_path):
    """deepslate-dungeon for 1.16.5 writes stone bricks (read back with the schem checker)."""
    out = tmp_path / "maze.schem"
    assert main(["generate", "3x3", "--seed", "2", "--theme", "deepslate-dungeon", "--mc-version", "1.16.5",
                 "-o", str(out)]) == 0
    palette = set(read_schem(out.read_bytes()).palette)
    assert "minecraft:stone_bricks" in palette and not any("deepslate" in s for s in palette)


def test_datapack_reader_sees_the_fill_states():
    """The datapack's fill states are read from the zip's functions (a sanity check of the reader)."""
    data = written("datapack", "glass", "1.20.4")
    assert zipfile.ZipFile(io.BytesIO(data)).testzip() is None
    assert "minecraft:glass" in java_states("datapack", data, "1.20.4")
