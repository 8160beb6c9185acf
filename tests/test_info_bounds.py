"""blockmaze info on every format we write, and on hostile files: bounded memory, one clear error."""

import json
import os
import subprocess
import sys
import resource
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import blockmaze as bm
from blockmaze.export import FORMATS
from blockmaze.export.pictures import render_png, render_svg
from blockmaze.readers.info import inspect_bytes, inspect_file
from blockmaze.materials import Material

HERE = Path(__file__).parent
MAZE = bm.generate((3, 4), rng=2)
PLAN = bm.to_blocks(MAZE)
VOLUME = bm.extrude(PLAN, height=2)
PEAK_MB = 200


def write_every_format(folder: Path) -> dict[str, Path]:
    paths = {}
    for name, row in FORMATS.items():
        if row.source in ("maze", "bands"):  # pictures and documents below; worlds: `info` of a folder
            continue
        path = folder / f"m{row.suffixes[0]}"
        bm.write(PLAN[None] if row.source == "plan" else VOLUME, path, format=name)
        paths[name] = path
    render_png(MAZE, folder / "m.png")
    render_svg(MAZE, folder / "m.svg")
    bm.save_maze(bm.MazeDocument(MAZE, algorithm="backtracker", seed=2), folder / "doc.json")
    paths.update(png=folder / "m.png", svg=folder / "m.svg", document=folder / "doc.json")
    return paths


@pytest.fixture(scope="module")
def every_format(tmp_path_factory):
    return write_every_format(tmp_path_factory.mktemp("formats"))


def test_every_format_we_write_is_summarised(every_format):
    height, length, width = VOLUME.shape
    materials = {Material(v).name.lower(): int(c) for v, c in zip(*np.unique(PLAN, return_counts=True), strict=True)}
    for name, path in every_format.items():
        info = inspect_file(path)
        text = "\n".join(info.lines())
        if name in ("glb", "gltf", "obj", "ply"):
            assert info.size == (width, height, length), name
            assert info.details["triangles"] > 0 and info.details["vertices"] > 0
        elif name in ("stl", "3mf"):
            assert info.details["triangles"] > 0 and "mm" in info.details["extent"]
        elif name in ("tmx", "tmj", "npz"):
            assert info.details["size"].startswith(f"{width} x {length} tiles") and info.counts == materials, name
            if name != "npz":  # the terrain the Terrain Brush repaints
                assert info.details["terrain sets"] == "walls and floors (corner)"
        elif name == "ldtk":  # IntGrid values are materials + 1
            assert info.details["size"].startswith(f"{width} x {length} tiles"), name
            assert info.details["auto-layer tiles"] == f"{(width - 1) * (length - 1)} (Terrain)"
            assert info.counts == {f"value {m + 1}": c for m, c in
                                   zip(*np.unique(PLAN, return_counts=True), strict=True)}
        elif name in ("ascii", "tilemap", "xp"):
            assert info.details["size"].startswith(f"{width} x {length} tiles"), name
            assert sum(info.counts.values()) == width * length
        elif name == "png":
            image_size = bm.export.pictures.render_image(MAZE).size
            assert info.details["size"].startswith(f"{image_size[0]} x {image_size[1]} pixels")
        elif name == "svg":
            assert "pixels" in info.details["size"]
        elif name == "document":
            assert info.details["grid"] == "square 3x4" and info.details["seed"] == 2
        elif name == "mtl":
            assert "wall" in info.details["materials"]
        elif name == "datapack":
            assert "fill" in info.details["commands"]
        elif name == "vox":  # air is no voxel
            assert info.size == (width, height, length) and sum(info.counts.values()) == np.count_nonzero(VOLUME)
        else:  # Minecraft formats: every block counted
            assert info.size == (width, height, length) and sum(info.counts.values()) == VOLUME.size, name
        assert text.startswith("format: ")


def hostile_corpus():
    sys.path.insert(0, str(HERE))
    from hostile import corpus
    return corpus()


CHILD = textwrap.dedent("""
    import json, resource, sys, time
    from blockmaze.errors import BadFileError
    from blockmaze.readers.info import inspect_file

    def peak_mb():  # VmHWM: ru_maxrss can carry the forking parent's peak across exec
        try:
            with open("/proc/self/status") as status:
                for line in status:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1]) / 1024
        except OSError:
            pass
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    results = {}
    for path in sys.argv[1:]:
        started = time.perf_counter()
        try:
            inspect_file(path)
            outcome = "read"
        except BadFileError as error:
            outcome = "refused: " + str(error)
        results[path] = [outcome, time.perf_counter() - started]
    print(json.dumps(results))
    print(peak_mb())
""")


@pytest.mark.slow
def test_hostile_files_are_refused_in_bounded_memory(tmp_path):
    paths = []
    for name, (file_name, data) in hostile_corpus().items():
        path = tmp_path / f"{name}-{file_name}"
        path.write_bytes(data)
        paths.append(str(path))
    result = subprocess.run([sys.executable, "-c", CHILD, *paths], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-2000:]
    report, peak = result.stdout.strip().split("\n")
    results = json.loads(report)
    for path, (outcome, _) in results.items():
        if outcome != "read":
            message = outcome.removeprefix("refused: ")
            assert "\n" not in message and message.startswith(Path(path).name + ":"), message
    refused = sum(outcome != "read" for outcome, _ in results.values())
    assert refused >= len(results) - 3  # the rest are well-formed, just large or lying harmlessly
    assert float(peak) <= PEAK_MB, f"peak {float(peak):.0f} MB"


@pytest.mark.parametrize("special", ["/dev/zero", "fifo", "folder"])
def test_non_regular_files_are_refused(tmp_path, special):
    if special == "fifo":
        path = tmp_path / "pipe.schem"
        os.mkfifo(path)
    elif special == "folder":
        path = tmp_path / "dir.schem"
        path.mkdir()
    else:
        path = Path(special)
        if not path.exists():
            pytest.skip("no /dev/zero here")
    says = "not a world folder: .* holds level.dat" if special == "folder" else "not a regular file"
    with pytest.raises(bm.BadFileError, match=says):
        inspect_file(path)


def test_streamed_block_data_counts_like_kept_data(monkeypatch):
    """Forcing every array through the streaming counters (and Litematica through a second
    pass) gives the same counts as reading them whole."""
    import io

    from blockmaze.readers import nbtread

    volume = bm.extrude(bm.to_blocks(bm.generate((6, 9), rng=4)), height=3)
    names = {"schem": ".schem", "litematic": ".litematic", "schematic": ".schematic",
             "structure": ".nbt", "mcstructure": ".mcstructure"}
    whole = {}
    for fmt, suffix in names.items():
        out = io.BytesIO()
        bm.write(volume, out, format=fmt)
        whole[fmt] = (out.getvalue(), inspect_bytes(out.getvalue(), "m" + suffix))
    monkeypatch.setattr(nbtread, "KEEP", 16)
    monkeypatch.setattr(nbtread._Reader, "compounds", nbtread._Reader.compounds)
    for fmt, (data, expected) in whole.items():
        streamed = inspect_bytes(data, "m" + names[fmt])
        if fmt == "schematic":  # ids alone once the arrays are too long to pair
            ids = {}
            for key, count in expected.counts.items():
                ids[key.split(":")[0] + ":*"] = ids.get(key.split(":")[0] + ":*", 0) + count
            assert streamed.counts == ids
        else:
            assert streamed.counts == expected.counts and streamed.size == expected.size, fmt
    monkeypatch.setattr(nbtread, "_region_layout", lambda context: None)  # palette "after" data
    data, expected = whole["litematic"]
    assert inspect_bytes(data, "m.litematic").counts == expected.counts


@pytest.mark.slow
def test_long_structure_block_lists_are_scanned_by_the_kernel():
    import io

    volume = np.ones((20, 20, 20), np.uint8)
    volume[::2] = 2
    out = io.BytesIO()
    bm.write(volume, out, format="structure")
    info = inspect_bytes(out.getvalue(), "big.nbt")
    assert sorted(info.counts.values()) == [4000, 4000] and info.details["blocks listed"] == 8000


def test_the_inflate_limit_is_a_setting(monkeypatch):
    import gzip

    monkeypatch.setenv("BLOCKMAZE_INFO_LIMIT", "1K")
    blob = gzip.compress(b"\x0a\x00\x00\x07\x00\x01a" + (5000).to_bytes(4, "big") + bytes(5000) + b"\x00")
    with pytest.raises(bm.BadFileError, match="BLOCKMAZE_INFO_LIMIT"):
        inspect_bytes(blob, "m.nbt")
    monkeypatch.setenv("BLOCKMAZE_INFO_LIMIT", "lots")
    with pytest.raises(bm.BlockmazeError, match="BLOCKMAZE_INFO_LIMIT must be a whole number"):
        inspect_bytes(blob, "m.nbt")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_damaged_files_of_every_format_give_one_clear_error(every_format, data):
    name = data.draw(st.sampled_from(sorted(every_format)))
    path = every_format[name]
    raw = bytearray(path.read_bytes())
    damage = data.draw(st.sampled_from(["truncate", "flip", "tail"]))
    if damage == "truncate":
        raw = raw[:data.draw(st.integers(0, len(raw) - 1))]
    elif damage == "flip":
        for _ in range(data.draw(st.integers(1, 8))):
            raw[data.draw(st.integers(0, len(raw) - 1))] = data.draw(st.integers(0, 255))
    else:
        raw += data.draw(st.binary(min_size=1, max_size=64))
    try:
        inspect_bytes(bytes(raw), path.name)
    except bm.BadFileError as error:
        assert "\n" not in str(error) and str(error).startswith(path.name + ":")


def test_info_on_a_tile_map_loads_no_numba(every_format):
    """The info modules themselves import no numba for tile maps (nor meshes, pictures). The
    package's __init__ imports the generators, and so numba: it is bypassed here, as a lazy
    package import (issue 16 item 1) will."""
    probe = textwrap.dedent("""
        import importlib.util, sys, types
        spec = importlib.util.find_spec("blockmaze")
        package = types.ModuleType("blockmaze")
        package.__path__ = list(spec.submodule_search_locations)
        sys.modules["blockmaze"] = package
        from blockmaze.readers.info import inspect_file
        for path in sys.argv[1:]:
            inspect_file(path)
        print("numba" if "numba" in sys.modules else "clean")
    """)
    names = ("tmx", "tmj", "ascii", "tilemap", "npz", "xp", "png", "svg", "obj", "glb", "stl")
    result = subprocess.run([sys.executable, "-c", probe, *(str(every_format[n]) for n in names)],
                            capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "clean"


def test_cli_exit_code_for_a_bad_file_is_1(tmp_path, capsys):
    from blockmaze.cli import main

    path = tmp_path / "m.schem"
    path.write_bytes(b"\x1f\x8b" + bytes(20))
    assert main(["info", str(path)]) == 1
    assert capsys.readouterr().err.count("\n") == 1


# --- every family bounded: worlds, zips, text, FIFOs, devices ----------------------------------

def info_cli(path, timeout: float = 30) -> tuple[int, list[str], float]:
    """``blockmaze info PATH`` in a child (so a hang or a runaway allocation cannot take pytest
    down): exit code, stderr lines, seconds."""
    started = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "blockmaze", "info", str(path)], capture_output=True,
                            text=True, timeout=timeout, env=dict(os.environ, PYTHONPATH=str(HERE.parent)),
                            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (1 << 31, 1 << 31)))
    return result.returncode, result.stderr.strip().splitlines(), time.perf_counter() - started


def refused(path, says: str) -> None:
    code, err, seconds = info_cli(path)
    assert code == 1 and len(err) == 1 and err[0].startswith("Error: "), err
    assert says in err[0], err
    assert seconds < 10, seconds  # a bound, not a benchmark: the hostile cases hung or ran for minutes


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    from blockmaze.export.minecraft.world import write_world

    folder = tmp_path_factory.mktemp("worlds") / "Maze"
    write_world(VOLUME, folder, bm.load_theme(), terrain="void", y=0)
    return folder


def copy_world(world: Path, where: Path) -> Path:
    import shutil

    return Path(shutil.copytree(world, where / "World"))


@pytest.mark.slow
@pytest.mark.parametrize("special", ["fifo", "/dev/zero"])
def test_a_world_whose_region_is_not_a_file_is_refused(world, tmp_path, special):
    copy = copy_world(world, tmp_path)
    region = next((copy / "region").glob("r.*.mca"))
    region.unlink()
    if special == "fifo":
        os.mkfifo(region)
    else:
        region.symlink_to(special)  # a link: refused as one, before what it points to
    refused(copy, "not a regular file" if special == "fifo" else "is a link")


def test_a_region_whose_slots_share_one_chunk_is_refused(world, tmp_path):
    copy = copy_world(world, tmp_path)
    region = next((copy / "region").glob("r.*.mca"))
    data = bytearray(region.read_bytes())
    first = bytes(data[0:4])
    data[0:4096] = first * 1024  # every slot aims at the first chunk's sectors
    region.write_bytes(bytes(data))
    refused(copy, "shares its sectors")


def test_a_world_zip_bomb_is_refused(tmp_path, monkeypatch):
    import zipfile

    path = tmp_path / "World.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("World/level.dat", b"\x0a\x00\x00\x00")
        archive.writestr("World/region/r.0.0.mca", bytes(3 << 20))  # 3 MiB of zeros, ~3 kB zipped
    monkeypatch.setenv("BLOCKMAZE_INFO_LIMIT", str(1 << 20))
    refused(path, "inflates to")


@pytest.mark.slow
@pytest.mark.parametrize("suffix, member", [(".3mf", "3D/3dmodel.model"), (".npz", "material.npy")])
def test_zip_bombs_in_3mf_and_npz_are_refused(tmp_path, monkeypatch, suffix, member):
    import zipfile

    path = tmp_path / f"m{suffix}"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(member, bytes(3 << 20))
    monkeypatch.setenv("BLOCKMAZE_INFO_LIMIT", str(1 << 20))
    refused(path, "inflates to")


def test_any_text_file_is_not_a_tile_map(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("#####\n#...#\n#####\n")
    refused(path, "not a file blockmaze reads")


@pytest.mark.slow
@pytest.mark.parametrize("special", ["fifo", "/dev/zero"])
def test_info_refuses_fifos_and_devices_without_blocking(tmp_path, special):
    path = tmp_path / "pipe.schem"
    if special == "fifo":
        os.mkfifo(path)
    else:
        path = Path(special)
    refused(path, "not a regular file")
