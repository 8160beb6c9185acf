"""Godot 3 as the reader: Debian's ``godot3-server`` (3.2.3) imports our files headless, as its
editor does, and a probe script (tests/external/godot3_probe.gd) walks what it made.

Checked: a plain .glb and its .obj give Godot the theme's colours (the .mtl's sRGB ``Kd`` becomes
the same albedo as the glTF's linear factor); the ``collision-colonly`` node becomes a collision
shape, not a drawn mesh; a ``--compress meshopt`` file imports as empty meshes without an error
(Godot 3 has no meshopt decoder: docs/meshes.md §4 says so). Without godot3-server these tests
skip (``apt-get install godot3-server``), except under CI=true.
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest
import readers
from test_mesh_formats import maze_volume

import blockmaze as bm

pytestmark = [pytest.mark.reader, pytest.mark.slow]

PROBE = Path(__file__).with_name("external") / "godot3_probe.gd"
IMPORT_SECONDS = 300


def godot3_import(folder: Path, probe_script: Path = PROBE) -> dict:
    """Import ``folder`` as a Godot 3 project and return the probe's report. The editor of
    3.2.3 does not quit after importing (``--quit`` is ignored with ``--editor``): it is stopped
    once every file has its import stamp."""
    godot = readers.program("godot3-server", "Debian's godot3-server")
    (folder / "project.godot").write_text('config_version=4\n\n[application]\nconfig/name="probe"\n')
    files = [p.name for p in folder.iterdir() if p.suffix in (".glb", ".obj")]
    editor = subprocess.Popen([godot, "--path", str(folder), "--editor", "--quit"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + IMPORT_SECONDS
        while not all(list((folder / ".import").glob(f"{name}-*.md5")) for name in files):
            assert time.monotonic() < deadline, f"Godot 3 did not import {files} in {IMPORT_SECONDS} s"
            try:
                editor.wait(timeout=0.2)  # the editor ending early is an answer too
                break
            except subprocess.TimeoutExpired:
                pass
    finally:
        editor.kill()
        editor.wait()
    probe = folder / "probe.gd"
    probe.write_text(probe_script.read_text())
    done = subprocess.run([godot, "--path", str(folder), "-s", "probe.gd"], capture_output=True,
                          text=True, timeout=120, check=False)
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    assert lines, done.stdout[-2000:] + done.stderr[-2000:]
    return json.loads(lines[0][len("RESULT "):])


def test_godot3_imports_our_glb_obj_collision_and_meshopt_files(tmp_path):
    volume = maze_volume(4, 5, 1, solution=True)
    bm.write(volume, tmp_path / "plain.glb")
    bm.write(volume, tmp_path / "collision.glb", collision=True)
    bm.write(volume, tmp_path / "meshopt.glb", compress="meshopt")
    bm.write(volume, tmp_path / "maze.obj")
    report = godot3_import(tmp_path)
    theme = bm.load_theme()
    expected = {name: bytes(theme.color(bm.Material[name.upper()])).hex()
                for name in ("wall", "floor", "path", "start", "goal")}
    plain = {name.split("_")[0]: mesh for name, mesh in report["plain.glb"]["meshes"].items()}
    assert {name: mesh["colours"] for name, mesh in plain.items()} == {
        name: [colour] for name, colour in expected.items()}
    assert all(mesh["vertices"] > 0 for mesh in plain.values())
    assert report["maze.obj"]["colours"] == expected  # the .mtl's Kd: the glTF's colours
    collision = report["collision.glb"]
    assert collision["collision"] == ["ConcavePolygonShape"]
    assert not any("colonly" in name for name in collision["meshes"])  # not drawn
    meshopt = report["meshopt.glb"]["meshes"]
    assert meshopt and all(mesh["vertices"] == 0 for mesh in meshopt.values())  # Godot 3: empty
