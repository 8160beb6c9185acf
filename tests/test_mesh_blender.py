"""Blender as the reader: our meshes imported by Blender's own importers (glTF, OBJ, PLY, STL).

Blender ships on PyPI as ``bpy`` (CPython 3.11, manylinux x86_64 wheels; bpy 5.0 pins numpy
1.26), so it runs in its own interpreter: this environment's, if it has bpy, else the one named
by ``BLOCKMAZE_BPY_PYTHON`` (``python3.11 -m venv /opt/bpy && /opt/bpy/bin/pip install bpy``).
Without either the tests skip, saying so (under CI=true they fail; see tests/readers.py). Checked, per file: no import error, the expected
objects and triangle counts, one connected piece per flat region (not per rectangle), no
non-manifold edge once the parts are joined and merged by distance (Blender's "Merge by
Distance"), outward normals (positive signed volume equal to the solid blocks'), the maze flat on
the ground (Z up in Blender, lowest point at 0) at its size in metres, and one material per theme
material with its colour (the .mtl's sRGB ``Kd`` goes into Blender's linear Base Color
unconverted, docs/meshes.md §8). Blender 5.0 cannot read EXT_meshopt_compression (its importer says so),
so compressed files are checked by the Khronos validator and meshoptimizer's decoder only.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

import blockmaze as bm
import readers
from blockmaze.export.meshes import greedy_quads
from blockmaze.export.meshes.common import material_color, srgb_to_linear

pytestmark = [pytest.mark.reader, pytest.mark.slow]


def bpy_script(name: str, *args, env=None, errors_ok=False, printed=None) -> dict:
    """Run ``tests/blender/NAME.bpy.txt`` (Python for bpy, not collected) with ``args`` after
    ``--`` and return its ``RESULT`` line's JSON; no error on its stderr unless ``errors_ok``.
    ``printed``, a list, gets what Blender printed (its reports among it)."""
    script = Path(__file__).parent / "blender" / f"{name}.bpy.txt"
    done = subprocess.run([readers.bpy_python(), str(script), "--", *map(str, args)], capture_output=True,
                          text=True, timeout=600, env=env)
    lines = [line[line.index("RESULT "):] for line in done.stdout.splitlines() if "RESULT " in line]
    assert done.returncode == 0 and lines, done.stderr[-2000:]
    if printed is not None:
        printed.append(done.stdout + done.stderr)
    assert errors_ok or "Error" not in done.stderr, done.stderr[-2000:]
    return json.loads(lines[0][len("RESULT "):])


def blender(paths) -> dict:
    return bpy_script("probe", *paths)


def maze(rows, cols, seed, height=3):
    plan = bm.to_blocks(bm.generate((rows, cols), rng=seed))
    plan[1, 1] = bm.Material.START
    plan[-2, -2] = bm.Material.GOAL
    return bm.extrude(plan, height=height)


def test_blender_imports_every_mesh_format(tmp_path):
    volume = maze(5, 6, 3)
    theme = bm.load_theme()
    files = {
        "maze.glb": {"block_size": 0.5},
        "chunked.gltf": {"block_size": 0.5, "chunk": 4, "uv": True},
        "floats.glb": {"block_size": 0.5, "quantize": False},
        "quantized.glb": {"block_size": 0.5, "quantize": True},  # KHR_mesh_quantization
        "maze.obj": {"block_size": 0.5},
        "maze.ply": {"block_size": 0.5},
        "maze.stl": {"block_size": 0.5},
    }
    for name, options in files.items():
        bm.write(volume, tmp_path / name, theme=theme, **options)
    report = blender(tmp_path / name for name in files)
    height, depth, width = volume.shape
    solid = np.count_nonzero(volume)
    triangles = len(bm.export.meshes.mesh_blocks(volume).faces)
    rectangles = len(greedy_quads(volume))
    materials = {"wall", "floor", "start", "goal"}
    for name, options in files.items():
        result = report[str(tmp_path / name)]
        assert result["non_manifold"] == 0, name
        assert result["volume"] == pytest.approx(solid * 0.125, rel=1e-6), name  # outward normals
        np.testing.assert_allclose(result["min"][2], 0, atol=1e-5)  # on the ground, Z up
        size = np.subtract(result["max"], result["min"])
        np.testing.assert_allclose(size, np.array([width, depth, height]) * 0.5, atol=1e-5)
        if options.get("chunk") is None:
            assert result["triangles"] == triangles, name
        if not options.get("chunk"):
            assert result["islands"] < rectangles, name  # shared vertices: not an island per rectangle
        if name.endswith((".glb", ".gltf")):
            assert {o.split("_")[0] for o in result["objects"]} == materials
        if name.endswith((".glb", ".gltf", ".obj")):
            assert set(result["materials"]) == materials, name
            for material, color in result["materials"].items():
                expected = list(material_color(theme, bm.Material[material.upper()]))
                if not name.endswith(".obj"):  # a glTF's factor is linear; Blender takes the .mtl's
                    expected = [srgb_to_linear(c) for c in expected]  # sRGB Kd as it is
                np.testing.assert_allclose(color[:3], expected, atol=1e-4, err_msg=f"{name} {material}")


def stairway():
    """A maze corridor with a flight of two steps rising east onto a wall block."""
    volume = maze(3, 3, 1)
    volume[1, 1, 2] = volume[2, 1, 3] = bm.Material.STAIRS
    volume[1, 1, 3] = volume[1:3, 1, 4] = bm.Material.WALL
    return volume


def test_blender_sees_stair_steps_closed(tmp_path):
    volume = stairway()
    bm.write(volume, tmp_path / "steps.glb")
    result = blender([tmp_path / "steps.glb"])[str(tmp_path / "steps.glb")]
    assert result["non_manifold"] == 0
    faced = int(np.count_nonzero(bm.blocks.orientation.stair_facing(volume) != 255))
    assert result["volume"] == pytest.approx(np.count_nonzero(volume) - 0.25 * faced)
