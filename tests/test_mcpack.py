"""Bedrock .mcpack: a behaviour pack laid out as Bedrock reads it (manifest at the root,
structures/<namespace>/<name>.mcstructure, functions/<path>.mcfunction), its manifest valid
against schemas/mcpack-manifest.schema.json (the published manifest rules, docs/voxels.md), the
structure the checked .mcstructure writer's bytes, the function placing it with the player at
the entrance; one seed, the same bytes."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import uuid
import zipfile
from pathlib import Path

import jsonschema
import pytest

import blockmaze as bm
from blockmaze.export.minecraft.placement import YAW, placement_hint
from blockmaze.pipeline import make_maze
from blockmaze.writing import save
from test_mcstructure import assert_same, expected_blocks, read_mcstructure

SCHEMA = json.loads((Path(__file__).parent.parent / "schemas" / "mcpack-manifest.schema.json").read_text())


def pack(blocks, **options) -> bytes:
    out = io.BytesIO()
    bm.write(blocks, out, format="mcpack", **options)
    return out.getvalue()


def maze(seed=3):
    return save(make_maze((4, 5), seed=seed), io.BytesIO(), format="mcpack")


def test_layout_manifest_and_structure():
    blocks = maze()
    archive = zipfile.ZipFile(io.BytesIO(pack(blocks, seed=3)))
    assert sorted(archive.namelist()) == ["functions/blockmaze/build.mcfunction", "manifest.json",
                                          "structures/blockmaze/maze.mcstructure"]
    document = json.loads(archive.read("manifest.json"))
    jsonschema.Draft202012Validator(SCHEMA).validate(document)
    ids = [document["header"]["uuid"], document["modules"][0]["uuid"]]
    assert len(set(ids)) == 2 and all(uuid.UUID(i).version == 4 for i in ids)
    structure = archive.read("structures/blockmaze/maze.mcstructure")
    out = io.BytesIO()
    bm.write(blocks, out, format="mcstructure", seed=3)
    assert structure == out.getvalue()
    unseeded = zipfile.ZipFile(io.BytesIO(pack(blocks))).read("structures/blockmaze/maze.mcstructure")
    assert_same(read_mcstructure(unseeded)[0], expected_blocks(blocks, bm.load_theme()))


def test_the_function_loads_the_structure_where_the_player_stands_outside_the_entrance():
    blocks = maze()
    text = zipfile.ZipFile(io.BytesIO(pack(blocks))).read("functions/blockmaze/build.mcfunction").decode()
    commands = [line for line in text.splitlines() if line and not line.startswith("#")]
    hint = placement_hint(blocks, "mcstructure")
    facing = hint.split("facing ", 1)[1].split(" ", 1)[0]
    assert commands == [f"tp @s ~ ~ ~ {YAW[facing]} 0", hint.split(" and run /", 1)[1]]


def test_one_seed_the_same_bytes_another_seed_or_maze_another_pack():
    blocks = maze()
    assert pack(blocks, seed=5) == pack(blocks.copy(), seed=5)
    ids = {json.loads(zipfile.ZipFile(io.BytesIO(data)).read("manifest.json"))["header"]["uuid"]
           for data in (pack(blocks, seed=5), pack(blocks, seed=6), pack(maze(4), seed=5))}
    assert len(ids) == 3


def test_the_schema_refuses_what_bedrock_refuses():
    document = json.loads(zipfile.ZipFile(io.BytesIO(pack(maze()))).read("manifest.json"))
    for broken in ({**document, "format_version": 1},
                   {**document, "modules": [{**document["modules"][0], "type": "script"}]},
                   {**document, "header": {**document["header"], "uuid": "not-a-uuid"}}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.Draft202012Validator(SCHEMA).validate(broken)


@pytest.mark.slow
@pytest.mark.parametrize("args, name", [(["-o", "maze.mcworld"], "maze.mcworld"),
                                        (["-o", "MAZE.McWorld"], "MAZE.McWorld"),
                                        (["--format", "mcworld", "-o", "maze.bin"], "maze.bin")])
def test_a_bedrock_world_is_written_by_suffix_or_format(args, name, tmp_path):
    """A Bedrock world beside the pack: by its suffix in any case, or by --format."""
    run = subprocess.run([sys.executable, "-m", "blockmaze", "-q", "generate", "3x3", *args],
                         capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "level.dat" in zipfile.ZipFile(tmp_path / name).namelist()
