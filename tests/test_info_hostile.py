"""Issue 37: the reader families against hostile files, each through ``blockmaze info`` in a
child process: exit 1 (2 for a bad setting) with ONE line, within the time bound, nothing a file
says reaching the terminal as a control character."""

from __future__ import annotations

import io
import os
import resource
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
from hostile import families, patched_zip  # noqa: E402 (after the path to the test helpers)

pytestmark = [pytest.mark.slow]

BOUND = "2"  # seconds: every refusal below comes within it (they hung, or ran for minutes, before)


def info(path, **env) -> tuple[int, str, list[str]]:
    """``blockmaze info PATH`` in a child (a hang or runaway allocation cannot take pytest down):
    exit code, stdout, stderr lines."""
    settings = dict(os.environ, PYTHONPATH=str(HERE.parent), BLOCKMAZE_INFO_SECONDS=BOUND)
    settings.update(env)
    result = subprocess.run([sys.executable, "-m", "blockmaze", "info", str(path)], capture_output=True,
                            text=True, timeout=60, env=settings, check=False,
                            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (1 << 31, 1 << 31)))
    return result.returncode, result.stdout, result.stderr.strip().splitlines()


def refused(path, says: str, **env) -> str:
    code, _, err = info(path, **env)
    assert code == 1 and len(err) == 1 and err[0].startswith("Error: "), (code, err)
    assert says in err[0], err
    assert "took more than" not in err[0] or "took more than" in says, err  # refused, not timed out
    return err[0]


@pytest.mark.parametrize("name", sorted(families()))
def test_each_family_is_refused_in_one_line_within_the_bound(tmp_path, name):
    file_name, data, says = families()[name]
    path = tmp_path / file_name
    path.write_bytes(data)
    refused(path, says)


# --- every loop over input is checked against the time bound -----------------------------------

def test_obj_lines_are_read_within_the_time_bound(tmp_path):
    path = tmp_path / "big.obj"
    path.write_bytes(b"v 1 2 3\n" * (4 << 20))  # 32 MiB of vertices: read whole, unchecked, before
    refused(path, "took more than 0.3 s", BLOCKMAZE_INFO_SECONDS="0.3")


def test_3mf_lines_are_read_within_the_time_bound(tmp_path):
    import zipfile

    path = tmp_path / "big.3mf"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("3D/3dmodel.model", b'<vertex x="1" y="2" z="3"/>\n' * (1 << 20))
    refused(path, "took more than 0.3 s", BLOCKMAZE_INFO_SECONDS="0.3")


# --- worlds: zips with members zipfile cannot open, palettes of the wrong NBT types ------------

@pytest.mark.parametrize("flag, method, says", [(1, None, "info reads no encrypted member"),
                                               (0, 99, "compression method 99")])
def test_a_world_zip_member_info_cannot_open_is_refused(tmp_path, flag, method, says):
    path = tmp_path / "World.zip"
    path.write_bytes(patched_zip({"World/level.dat": b"\x0a\x00\x00\x00"}, flag=flag, method=method))
    refused(path, says)


def patched_world(folder: Path, change) -> Path:
    """A one-chunk world whose chunk NBT ``change`` edits (the chunk is appended to its region)."""
    import nbtlib

    from blockmaze.export.minecraft.world import write_world
    from blockmaze.materials import load_theme

    folder.mkdir()
    write_world(np.ones((2, 3, 4), np.uint8), folder / "World", load_theme(), terrain="void", y=0)
    region = next((folder / "World" / "region").glob("r.*.mca"))
    data = bytearray(region.read_bytes())
    slot = next(i for i in range(1024) if struct.unpack_from(">I", data, 4 * i)[0])
    start = (struct.unpack_from(">I", data, 4 * slot)[0] >> 8) * 4096
    length = struct.unpack_from(">I", data, start)[0]
    root = nbtlib.File.parse(io.BytesIO(zlib.decompress(bytes(data[start + 5:start + 4 + length]))))
    change(root)
    out = io.BytesIO()
    root.write(out)
    packed = zlib.compress(out.getvalue())
    body = struct.pack(">IB", len(packed) + 1, 2) + packed
    body += bytes(-len(body) % 4096)
    struct.pack_into(">I", data, 4 * slot, ((len(data) // 4096) << 8) | (len(body) // 4096))
    region.write_bytes(bytes(data) + body)
    return folder / "World"


def _palette(root):
    return root["sections"][0]["block_states"]


def _string_entries(root):
    import nbtlib

    _palette(root)["palette"] = nbtlib.List[nbtlib.String](["minecraft:stone"])


def _listed_properties(root):
    import nbtlib

    _palette(root)["palette"][0]["Properties"] = nbtlib.List[nbtlib.Int]([1, 2])


def _escaping_name(root):
    import nbtlib

    _palette(root)["palette"][0]["Name"] = nbtlib.String("minecraft:\x1b]0;owned\x07stone")


@pytest.mark.parametrize("change, says", [(_string_entries, "palette entry Name is missing"),
                                          (_listed_properties, "Properties must be a Compound")])
def test_a_world_palette_of_the_wrong_nbt_types_is_refused(tmp_path, change, says):
    refused(patched_world(tmp_path / "w", change), says)


# --- nothing a file says reaches the terminal as a control character ---------------------------

SPOOF = "\x1b]0;owned\x07\x1b[2J\nError: fake\u202e\u2028"


def _clean(text: str) -> bool:
    return not any(c in text for c in "\x1b\x07\u202e\u2028") and "\nError: fake" not in text


def test_names_in_a_file_are_printed_escaped(tmp_path):
    import json

    name = SPOOF.encode()
    mts = tmp_path / "m.mts"
    mts.write_bytes(b"MTSM" + struct.pack(">H3h", 4, 1, 1, 1) + b"\x7f" + struct.pack(">H", 1)
                    + struct.pack(">H", len(name)) + name + zlib.compress(bytes(5)))
    gltf = tmp_path / "m.gltf"
    gltf.write_text(json.dumps({"asset": {"version": "2.0"}, "accessors": [{"count": 3}],
                                "meshes": [{"name": f"stone{SPOOF}_0_0_0",
                                            "primitives": [{"attributes": {"POSITION": 0}}]}],
                                "extensionsUsed": [SPOOF]}))
    mtl = tmp_path / "m.mtl"
    mtl.write_bytes(b"newmtl " + name.replace(b"\n", b" ") + b"\n")
    for path in (mts, gltf, mtl):
        code, out, _ = info(path)
        assert code == 0 and _clean(out) and "\\x1b]0;owned\\x07" in out, out


def test_a_world_name_and_palette_are_printed_escaped(tmp_path):
    world = patched_world(tmp_path / "w", _escaping_name)
    import nbtlib

    level = nbtlib.load(world / "level.dat")
    level["Data"]["LevelName"] = nbtlib.String(SPOOF)
    level.save()
    code, out, _ = info(world)
    assert code == 0 and _clean(out) and out.count("\\x1b]0;owned\\x07") == 2, out


def test_refusals_quoting_a_file_escape_it(tmp_path):
    import zipfile

    path = tmp_path / "World.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("World/level.dat", b"\x0a\x00\x00\x00")
        archive.writestr(f"World/region/{SPOOF}.mca", bytes(1 << 16))
    line = refused(path, "inflates to", BLOCKMAZE_INFO_LIMIT="4K")
    assert _clean(line) and "\\x1b]0;owned\\x07" in line, line


# --- bad settings are usage errors of their own -----------------------------------------------

@pytest.mark.parametrize("setting, value", [("BLOCKMAZE_INFO_SECONDS", "abc"), ("BLOCKMAZE_INFO_LIMIT", "lots")])
def test_a_bad_setting_is_a_usage_error_for_a_file_and_a_world(tmp_path, setting, value):
    file = tmp_path / "m.json"
    file.write_text("{}")
    world = patched_world(tmp_path / "w", lambda root: None)
    for path in (file, world):
        code, _, err = info(path, **{setting: value})
        assert code == 2 and len(err) == 1 and err[0].startswith(f"Error: {setting} must be"), (path, err)

