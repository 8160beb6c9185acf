"""The Blender extension (``blockmaze plugin blender``): the zip it writes, and Blender (PyPI's
``bpy``, tests/readers.py) installing it headless and running ``bpy.ops.mesh.blockmaze_add``.

For every grid kind, the objects the operator makes (their names, triangles and materials) and
their bounds equal those Blender's own glTF importer makes of the ``.glb`` the command writes
with the same options (given here as command-line flags, not through the add-on's code). A run
with another seed replaces the maze; a bad option is one line of error and leaves the scene as
it was; Blender's own extension validator accepts the zip.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import blockmaze
import readers
from blockmaze.cli import cli
from blockmaze.hosts import MANIFEST, manifest_bytes
from blockmaze.hosts.blender import TAGLINE
from test_mesh_blender import bpy_script

KINDS = ["square", "hex", "upsilon", "triangle", "polar", "weave", "layered", "labyrinth"]
# (the operator's options, the same as the command's flags)
CASES = {
    "square": ({"size": "6x7", "seed": "4", "solution": True, "collision": True},
               ["6x7", "--seed", "4", "--solution", "--collision"]),
    "hex": ({"size": "5x6", "kind": "hex", "seed": "2", "algorithm": "kruskal"},
            ["5x6", "-g", "hex", "--seed", "2", "-a", "kruskal"]),
    "upsilon": ({"size": "5x5", "kind": "upsilon", "seed": "3", "height": "2"},
                ["5x5", "-g", "upsilon", "--seed", "3", "--height", "2"]),
    "triangle": ({"size": "5x6", "kind": "triangle", "seed": "5", "floor": False},
                 ["5x6", "-g", "triangle", "--seed", "5", "--no-floor"]),
    "polar": ({"size": "5", "kind": "polar", "seed": "6", "entrances": True, "solution": True},
              ["5", "-g", "polar", "--seed", "6", "--entrances", "--solution"]),
    "weave": ({"size": "6x6", "kind": "weave", "seed": "7", "weave": "0.4", "bridges": True,
               "height": "5"},
              ["6x6", "-g", "weave", "--seed", "7", "--weave", "0.4", "--bridges", "--height", "5"]),
    "layered": ({"size": "2x4x4", "kind": "layered", "seed": "8", "roof": True},
                ["2x4x4", "-g", "layered", "--seed", "8", "--roof"]),
    "labyrinth": ({"size": "7", "kind": "labyrinth", "block_size": "0.5", "solution": True},
                  ["7", "-g", "labyrinth", "--block-size", "0.5", "--solution"]),
}


# what the issue asks the panel for: every grid kind, labyrinths, weave, layered, the solution
# and collision, besides the maze's own options
KIND_OPTIONS = ["kind", "style", "circuits", "weave", "bridges", "algorithm", "seed", "height",
                "wall", "passage", "solution", "collision", "entrances", "theme", "block_size"]


def plugin_zip(folder: Path) -> Path:
    result = CliRunner().invoke(cli, ["plugin", "blender", "-o", str(folder / "blockmaze.zip")])
    assert result.exit_code == 0, result.output
    return folder / "blockmaze.zip"


def test_plugin_blender_writes_an_extension_zip(tmp_path):
    tomllib = pytest.importorskip("tomllib")
    with zipfile.ZipFile(plugin_zip(tmp_path)) as archive:
        assert sorted(archive.namelist()) == ["__init__.py", "blender_manifest.toml", MANIFEST]
        toml = tomllib.loads(archive.read("blender_manifest.toml").decode())
        ours = json.loads(archive.read(MANIFEST))
        assert archive.read(MANIFEST) == manifest_bytes()
        code = archive.read("__init__.py").decode()
    project = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text())
    assert toml == {**toml, "schema_version": "1.0.0", "id": "blockmaze", "type": "add-on",
                    "version": blockmaze.__version__, "blender_version_min": "4.2.0",
                    "license": [f"SPDX:{project['project']['license']}"]}
    assert toml["name"] and toml["maintainer"] and toml["tagline"] == TAGLINE
    assert len(TAGLINE) <= 64 and not TAGLINE.endswith((".", "!"))
    assert set(toml["permissions"]) == {"files"} and 0 < len(toml["permissions"]["files"]) <= 64
    assert ours["run"] == [sys.executable, "-m", "blockmaze"]
    kinds = {f["name"]: f for f in ours["forms"]["generate"]}["kind"]["choices"]
    assert sorted(kinds) == sorted(KINDS)
    assert 'bl_idname": "mesh.blockmaze_add"' in code
    compile(code, "__init__.py", "exec")


def test_plugin_blender_without_output_goes_home(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("USERPROFILE", str(tmp_path))
    result = CliRunner().invoke(cli, ["plugin", "blender"])
    assert result.exit_code == 0, result.output
    assert zipfile.is_zipfile(tmp_path / "blockmaze.zip")
    assert "Install from Disk" in result.output and str(tmp_path / "blockmaze.zip") in result.output


def command_glb(folder: Path, name: str, flags: list[str]) -> Path:
    path = folder / f"{name}.glb"
    done = subprocess.run([sys.executable, "-m", "blockmaze", "generate", *flags, "-o", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return path


def shim(folder: Path, kind: str = "blockmaze") -> Path:
    """A program of its own for the add-on's preference to name: ``blockmaze`` (leaving a mark
    that it ran) or ``junk``, which exits 0 having written a file that is no .glb."""
    path = folder / kind
    if kind == "junk":
        path.write_text('#!/bin/sh\nfor last; do :; done\necho "no glb" > "$last"\n')
    else:
        path.write_text(f'#!/bin/sh\ntouch "{folder}/shim-ran"\n'
                        f'exec "{sys.executable}" -m blockmaze "$@"\n')
    path.chmod(0o755)
    return path


def run_in_blender(folder: Path, cases: list[dict], printed=None) -> dict:
    """Install the extension into a Blender whose HOME is ``folder`` and run ``cases``
    (tests/blender/plugin.bpy.txt)."""
    (folder / "home").mkdir(exist_ok=True)
    (folder / "cases.json").write_text(json.dumps(cases))
    env = {**os.environ, "HOME": str(folder / "home")}
    return bpy_script("plugin", plugin_zip(folder), folder / "cases.json", env=env, errors_ok=True,
                      printed=printed)


def same_scene(made: dict, imported: dict, what: str) -> None:
    assert made["error"] is None, f"{what}: {made['error']}"
    assert made["objects"] == imported["objects"], what  # names, triangles, materials
    assert made["materials"] == imported["materials"], what
    assert made["all"] == imported["all"] == made["tagged"], what
    np.testing.assert_allclose(made["min"], imported["min"], atol=1e-6, err_msg=what)
    np.testing.assert_allclose(made["max"], imported["max"], atol=1e-6, err_msg=what)


@pytest.mark.reader
@pytest.mark.slow
def test_blender_operator_makes_the_glb_of_every_grid_kind(tmp_path):
    cases = []
    for kind in KINDS:
        options, flags = CASES[kind]
        cases += [{"op": options, "clear": True}, {"glb": str(command_glb(tmp_path, kind, flags))}]
    found = run_in_blender(tmp_path, cases)["cases"]
    for index, kind in enumerate(KINDS):
        same_scene(found[2 * index], found[2 * index + 1], kind)
        assert found[2 * index]["objects"], kind
    square = found[0]
    assert {"path", "start", "goal"} <= set(square["materials"])  # the solution, its own material
    assert [o[0] for o in square["objects"] if "path" in o[2]] == ["path_0_0_0"]
    assert "collision-colonly" in square["all"]  # --collision: its own object, no material


@pytest.mark.reader
@pytest.mark.slow
def test_blender_operator_replaces_refuses_and_runs_its_preference(tmp_path):
    rerun = str(command_glb(tmp_path, "rerun", ["6x7", "--seed", "5", "--solution"]))
    cases = [
        {"op": {"size": "6x7", "seed": "4", "solution": True}, "clear": True},
        {"op": {"size": "6x7", "seed": "5", "solution": True}},  # replaces the seed-4 maze
        {"op": {"size": "zz"}},  # refused: the seed-5 maze stays as it was
        {"op": {"size": "6x7", "braid": "2"}},
        {"glb": rerun},
        {"op": {"size": "6x7", "seed": "5", "solution": True}, "clear": True},
        {"op": {"size": "6x7", "seed": "5", "solution": True, "replace": False}},
        {"op": {"size": "6x7", "seed": "5", "solution": True}, "clear": True, "cursor": [10, -2, 1]},
        {"op": {"size": "6x7", "seed": "5", "solution": True}, "clear": True,
         "command": str(shim(tmp_path))},  # the preference: another blockmaze program
        {"op": {"size": "6x7", "seed": "4"}, "command": str(tmp_path / "no-such-blockmaze")},
        {"op": {"size": "6x7", "seed": "4"}, "command": str(shim(tmp_path, "junk"))},
        {"op": {"size": "6x7", "seed": "4", "scale": "2"}, "clear": True},
    ]
    printed: list[str] = []
    found = run_in_blender(tmp_path, cases, printed)["cases"]
    first, second, bad, worse, reference, again, kept, moved, other, missing, junk, warned = found
    assert first["objects"] != second["objects"]
    same_scene(second, reference, "another seed")
    for refused, words in ((bad, "'zz'"), (worse, "--braid")):
        assert refused["error"] and words in refused["error"], refused["error"]
        assert "\n" not in refused["error"].strip() and "Traceback" not in refused["error"]
        assert {k: v for k, v in refused.items() if k not in ("error", "seconds")} == \
               {k: v for k, v in second.items() if k not in ("error", "seconds")}
    same_scene(again, reference, "again")
    assert len(kept["tagged"]) == 2 * len(again["tagged"])  # replace off: both mazes
    np.testing.assert_allclose(moved["min"], np.add(reference["min"], [10, -2, 1]), atol=1e-6)
    same_scene(other, reference, "the preference's program")
    assert (tmp_path / "shim-ran").exists()
    assert missing["error"].startswith("Error: cannot run ") and "no-such-blockmaze" in missing["error"]
    assert missing["objects"] == other["objects"]
    assert junk["error"].startswith("Error: Blender's glTF importer: "), junk["error"]
    assert "\n" not in junk["error"].strip() and junk["error"].count("Error") == 1
    assert {k: v for k, v in junk.items() if k not in ("error", "seconds")} == \
           {k: v for k, v in other.items() if k not in ("error", "seconds")}
    assert warned["error"] is None and warned["objects"]  # warned, and made
    assert "Warning: --scale does not apply to square mazes" in printed[0]  # Blender's report


@pytest.mark.reader
@pytest.mark.slow
def test_blender_fields_are_the_generate_form(tmp_path):
    """Every field of the operator and of the sidebar is a field of the generate form, with its
    kind, default and choices (so a new option of the command shows without a change here)."""
    result = run_in_blender(tmp_path, [])
    assert result["operator"] == "MESH_OT_blockmaze_add"  # Add > Mesh > Maze, the sidebar's tab
    assert result["menu"] and result["panel"] and result["settings"]
    assert result["options"] == ["REGISTER", "UNDO"]  # one undo step
    drawn = result["drawn"]  # the sidebar: a button that runs the operator with every field
    assert drawn["operator"] == "mesh.blockmaze_add"
    assert sorted(drawn["props"]) == sorted(drawn["button"]) == sorted(result["properties"])
    settings = {k: v for k, v in result["settings_properties"].items() if k != "name"}
    assert result["properties"] == settings  # the panel's, the operator's (a group has a name)
    fields = {f["name"]: f for f in json.loads(manifest_bytes())["forms"]["generate"]}
    shown = result["properties"]
    assert {"size", "replace", *KIND_OPTIONS} <= set(shown)
    for name, prop in shown.items():
        if name in ("size", "replace"):
            continue
        field = fields[name]
        kind = {"flag": "BOOLEAN", "choice": "ENUM", "text": "STRING"}[field["type"]]
        assert prop["type"] == kind, name
        if kind == "ENUM":
            assert prop["items"] == field["choices"] and prop["default"] == field["default"], name
        elif kind == "BOOLEAN":
            assert prop["default"] == bool(field["default"]), name
        else:
            assert prop["default"] == ("" if field["default"] is None else str(field["default"])), name


@pytest.mark.reader
@pytest.mark.slow
def test_blenders_validator_accepts_the_extension(tmp_path):
    """``blender_ext.py validate``, the code behind ``blender --command extension validate``
    (shipped in the bpy wheel), with the tag list that command gives it."""
    python = readers.bpy_python()
    scripts = subprocess.run([python, "-c", "import bpy; print(bpy.utils.system_resource('SCRIPTS'))"],
                             capture_output=True, text=True, timeout=120).stdout.strip().splitlines()[-1]
    validator = Path(scripts) / "addons_core" / "bl_pkg" / "cli" / "blender_ext.py"
    if not validator.is_file():
        readers.missing("Blender's extension validator", f"{validator} does not exist")
    tags = Path(scripts) / "modules" / "_bpy_internal" / "extensions" / "tags.py"  # as Blender's
    done = subprocess.run([python, str(validator), "validate", "--valid-tags", str(tags),  # own
                           str(plugin_zip(tmp_path))], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "Success" in done.stdout, done.stdout + done.stderr
