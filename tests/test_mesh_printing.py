"""Printed sizes (blockmaze.export.meshes.printing): the STL and 3MF writers warn in one line
when a part is larger than the bed, and what they suggest fits; the size the command can report
is the file's own, measured; every printing example of the README and docs/ fits a 220 x 220 mm
bed."""

from __future__ import annotations

import io
import re
import shlex
import warnings
import zipfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from blockmaze import BlockmazeError, BlockmazeWarning
from blockmaze.cli import main
from blockmaze.export.meshes.printing import (DEFAULT_BED, bed_fit, print_size, printed_size,
                                              size_text, solid_shape, warn_if_too_large)
from blockmaze.export.meshes.stl import write_stl
from blockmaze.export.meshes.threemf import write_3mf
from blockmaze.materials import load_theme

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
THEME = load_theme()
PRINTS = re.compile(r"-o (\S+\.(?:stl|3mf))\b")


def stl_extent(data: bytes) -> np.ndarray:
    """(width, depth, height) mm of a binary STL's vertices, read from the bytes."""
    count = int(np.frombuffer(data, "<u4", 1, 80)[0])
    records = np.frombuffer(data, np.dtype([("n", "<f4", 3), ("v", "<f4", (3, 3)), ("a", "<u2")]),
                            count, 84)
    points = records["v"].reshape(-1, 3)
    return points.max(axis=0) - points.min(axis=0)


def threemf_extent(data: bytes) -> np.ndarray:
    """(width, depth, height) mm of every vertex of a 3MF's model."""
    model = zipfile.ZipFile(io.BytesIO(data)).read("3D/3dmodel.model").decode()
    assert 'unit="millimeter"' in model
    points = np.array(re.findall(r'<vertex x="([^"]+)" y="([^"]+)" z="([^"]+)"/>', model), float)
    return points.max(axis=0) - points.min(axis=0)


def extent(path: Path) -> np.ndarray:
    data = path.read_bytes()
    return stl_extent(data) if path.suffix == ".stl" else threemf_extent(data)


def fits(size, bed=DEFAULT_BED) -> bool:
    (w, d), (bw, bd) = size[:2], bed
    return (w <= bw + 1e-6 and d <= bd + 1e-6) or (d <= bw + 1e-6 and w <= bd + 1e-6)


def bed_warnings(caught) -> list[str]:
    return [str(w.message) for w in caught
            if issubclass(w.category, BlockmazeWarning) and "bed" in str(w.message)]


def write(writer, blocks, **options) -> tuple[bytes, list[str]]:
    out = io.BytesIO()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        writer(blocks, out, THEME, **options)
    return out.getvalue(), bed_warnings(caught)


def slab(width: int, length: int, height: int = 2) -> np.ndarray:
    blocks = np.zeros((height, length, width), np.uint8)
    blocks[0] = 2  # a floor
    blocks[1:, 0] = blocks[1:, :, 0] = 1  # two walls
    return blocks


# --- the sizes and the warning ---------------------------------------------------------------

@pytest.mark.parametrize("writer, measure", [(write_stl, stl_extent), (write_3mf, threemf_extent)])
def test_a_part_larger_than_the_bed_warns_once_and_the_advice_fits(writer, measure):
    blocks = slab(64, 75, 4)  # the hex.3mf of the guide: 320 x 375 x 20 mm at 5 mm a block
    data, said = write(writer, blocks)
    assert measure(data).tolist() == pytest.approx([320, 375, 20])
    assert len(said) == 1 and "\n" not in said[0]
    assert said[0].startswith("the print is 320 x 375 x 20 mm, larger than the 220 x 220 mm bed")
    suggested = float(re.search(r"--block-size ([\d.]+) would fit", said[0])[1])
    data, again = write(writer, blocks, block_size=suggested)
    assert not again and fits(measure(data)) and suggested > 2.8  # and not needlessly small
    assert not write(writer, blocks, bed=None)[1]  # no bed: not checked
    assert not write(writer, blocks, bed=(400, 330))[1]  # fits turned a quarter turn


@pytest.mark.parametrize("writer", [write_stl, write_3mf])
def test_a_part_that_fits_says_nothing(writer):
    assert write(writer, slab(44, 44))[1] == []  # 220 x 220 mm: just fits


def test_a_finger_plate_larger_than_the_bed_says_how_much_narrower_a_groove_fits():
    blocks = slab(82, 82, 4)
    data, said = write(write_stl, blocks, finger=(4.0, 3.0))  # an 8 mm groove over 2 blocks
    assert stl_extent(data).tolist() == pytest.approx([328, 328, 5])
    assert len(said) == 1 and said[0].startswith("the print is 328 x 328 x 5 mm")
    factor = float(re.search(r"groove at most ([\d.]+) times as wide", said[0])[1])
    data, again = write(write_stl, blocks, finger=(4.0 * factor, 3.0))
    assert not again and fits(stl_extent(data)) and factor >= 0.66


@pytest.mark.parametrize("bad", [(0, 220), (220,), (float("nan"), 1), "220x220", (True, 5)])
def test_a_bad_bed_is_refused(bad):
    for writer in (write_stl, write_3mf):
        with pytest.raises(BlockmazeError, match="bed must be"):
            writer(slab(3, 3), io.BytesIO(), THEME, bed=bad)


@settings(max_examples=60, deadline=None)
@given(st.floats(1, 5000), st.floats(1, 5000), st.floats(10, 500), st.floats(10, 500))
def test_the_fit_scale_makes_a_part_just_fit(width, depth, bed_width, bed_depth):
    scale = bed_fit((width, depth, 1.0), (bed_width, bed_depth))
    assert fits((width * scale, depth * scale), (bed_width, bed_depth))
    assert not fits((width * scale * 1.001, depth * scale * 1.001), (bed_width, bed_depth))


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 400), st.integers(1, 400), st.floats(0.5, 10))
def test_the_warning_comes_exactly_when_the_part_does_not_fit(width, length, block):
    size = printed_size((3, length, width), block)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warn_if_too_large(size, DEFAULT_BED, block_size=block)
    said = bed_warnings(caught)
    assert bool(said) == (not fits(size))
    if said:
        suggested = float(re.search(r"--block-size ([\d.e-]+) would", said[0])[1])
        assert fits(printed_size((3, length, width), suggested))


# --- the size for the "wrote" line is the file's own --------------------------------------------

@pytest.mark.parametrize("writer, name", [(write_stl, "stl"), (write_3mf, "3mf")])
@pytest.mark.parametrize("block", [None, 2.5])
def test_print_size_is_the_measured_size(writer, name, block):
    blocks = slab(13, 21, 3)
    options = {} if block is None else {"block_size": block}
    data, _ = write(writer, blocks, **options)
    measured = (stl_extent if name == "stl" else threemf_extent)(data)
    assert print_size(blocks.shape, name, block) == size_text(tuple(measured.tolist()))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**16), st.integers(1, 6), st.integers(1, 9), st.integers(1, 9))
def test_the_writers_judge_the_solid_blocks_they_print(seed, height, length, width):
    rng = np.random.default_rng(seed)
    blocks = (rng.random((height, length, width)) < 0.3).astype(np.uint8)
    if not blocks.any():
        blocks[0, 0, 0] = 1
    bed = (14.0, 14.0)  # 5 mm blocks: a part of up to 2 x 2 blocks fits
    for writer, measure in ((write_stl, stl_extent), (write_3mf, threemf_extent)):
        data, said = write(writer, blocks, bed=bed)
        size = measure(data)
        assert size.tolist() == pytest.approx(printed_size(solid_shape(blocks), 5.0))
        assert bool(said) == (not fits(size, bed)), (size, said)


def test_print_size_of_a_finger_plate_and_of_formats_not_printed():
    blocks = slab(20, 30, 4)
    data, _ = write(write_stl, blocks, finger=(3.0, 2.5))
    assert print_size(blocks.shape, "stl", finger=(3.0, 2.5)) == size_text(tuple(stl_extent(data).tolist()))
    assert print_size(blocks.shape, "stl", finger=(3.0, 2.5)) == "60 x 90 x 4.5 mm"
    assert print_size(blocks.shape, "glb") is None and print_size(blocks.shape, "schem") is None


# --- the command ---------------------------------------------------------------------------------

def test_the_command_warns_of_a_print_larger_than_its_bed(tmp_path, capsys):
    out = str(tmp_path / "hex.3mf")
    assert main(["generate", "10x10", "-g", "hex", "--seed", "5", "-o", out]) == 0
    err = capsys.readouterr().err
    assert err.count("Warning:") == 1 and "320 x 375 x 20 mm" in err and "--block-size 2.9" in err
    assert main(["generate", "10x10", "-g", "hex", "--seed", "5", "--bed", "400x400", "-o", out]) == 0
    assert "Warning" not in capsys.readouterr().err
    assert main(["generate", "4x4", "--bed", "0x3", "-o", out]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a bed is WIDTHxDEPTH in millimetres" in err


# --- every printing example of the docs fits ----------------------------------------------------

def printing_examples() -> list[tuple[str, str]]:
    """(page, command) for each ``blockmaze`` line of a fenced block of the README or docs/ that
    writes an .stl or .3mf (prose after two spaces or a ``#`` left off)."""
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for block in re.findall(r"^```\w*\n(.*?)^```$", text, re.S | re.M):
            for line in block.splitlines():
                line = line.removeprefix("$ ")
                command = re.split(r"\s{2,}|\s#", line)[0].strip()
                if command.startswith("blockmaze ") and PRINTS.search(command):
                    found.append((page.relative_to(ROOT).as_posix(), command))
    return found


def test_the_docs_show_printing_examples():
    pages = {page for page, _ in printing_examples()}
    assert {"README.md", "docs/guides/engines.md", "docs/labyrinths.md"} <= pages


@pytest.mark.slow
@pytest.mark.parametrize("page, command", printing_examples())
def test_every_documented_printing_example_fits_the_default_bed(page, command, tmp_path,
                                                               monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(shlex.split(command)[1:]) == 0, f"{page}: {command}"
    assert "bed" not in capsys.readouterr().err
    size = extent(tmp_path / PRINTS.search(command)[1])
    assert fits(size), f"{page}: {command} prints {size.round(1).tolist()} mm"


def test_the_wrote_line_says_the_printed_size(tmp_path, capsys):
    plate = tmp_path / "plate.stl"
    assert main(["generate", "-g", "labyrinth", "--circuits", "7", "--scale", "8", "--finger", "8x3",
                 "-o", str(plate)]) == 0
    out = capsys.readouterr().err  # the report is on standard error
    assert f"printed {size_text(tuple(stl_extent(plate.read_bytes()).tolist()))}" in out
    assert "printed 216 x 216 x 5 mm" in out
    assert main(["generate", "10x10", "-g", "hex", "--seed", "5", "--block-size", "2.5", "-o",
                 str(tmp_path / "hex.3mf")]) == 0
    assert "printed 160 x 187.5 x 10 mm" in capsys.readouterr().err
    assert main(["generate", "4x4", "-o", str(tmp_path / "m.glb")]) == 0
    assert "printed" not in capsys.readouterr().err
