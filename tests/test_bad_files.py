"""Random and mutated files at the maze document, theme and mask loaders: a result, or one
BadFileError line naming the file and what was wrong; never a traceback."""

import io
import json
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

import blockmaze as bm
from blockmaze.mazes.masks import mask_from_image

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=True)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12)
SETTINGS = dict(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def document_json() -> dict:
    maze = bm.generate((3, 4), rng=1)
    out = io.BytesIO()
    bm.save_maze(bm.MazeDocument(maze, bm.place_endpoints(maze, "entrances"), "backtracker", 1), out)
    return json.loads(out.getvalue())


def one_clear_line(error: Exception, name: str) -> None:
    assert isinstance(error, bm.BadFileError), repr(error)
    text = str(error)
    assert "\n" not in text and name in text and len(text) < 400, text


def mutate(data: st.DataObject, value):
    """Replace one field (at any depth) of a JSON value with another JSON value."""
    if isinstance(value, dict) and value and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(sorted(value)))
        return {**value, key: mutate(data, value[key])}
    if isinstance(value, list) and value and data.draw(st.booleans()):
        i = data.draw(st.integers(0, len(value) - 1))
        return value[:i] + [mutate(data, value[i])] + value[i + 1:]
    return data.draw(JSON_VALUES)


@pytest.mark.slow
@settings(**SETTINGS)
@given(st.data())
def test_mutated_maze_documents(tmp_path, data):
    path = tmp_path / "doc.json"
    original = document_json()
    if data.draw(st.booleans()):
        text = json.dumps(mutate(data, original)).encode()
    else:
        text = bytearray(json.dumps(original).encode())
        for _ in range(data.draw(st.integers(1, 6))):
            text[data.draw(st.integers(0, len(text) - 1))] = data.draw(st.integers(0, 255))
        text = bytes(text)
    path.write_bytes(text)
    try:
        bm.load_maze(path)
    except bm.BlockmazeError as error:
        one_clear_line(error, "doc.json")


@pytest.mark.parametrize("field, value, says", [
    ("braid", 5, "braid"), ("braid", float("nan"), "braid"), ("seed", -1, "seed"),
    ("seed", 2**200, "seed"), ("grid", {"kind": "square", "shape": [3, 4, 5]}, "shape"),
    ("grid", {"kind": "polar", "shape": [3, 4]}, "shape"),
])
def test_documents_with_bad_values_are_refused(tmp_path, field, value, says):
    document = document_json()
    document[field] = value
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(document))
    with pytest.raises(bm.BadFileError, match=says) as caught:
        bm.load_maze(path)
    one_clear_line(caught.value, "doc.json")


@pytest.mark.parametrize("text", [b'{"seed": ' + b"9" * 5001 + b"}", b"[" * 100_000, b"\xff\xfe"])
def test_unusable_json_documents_are_refused(tmp_path, text):
    path = tmp_path / "doc.json"
    path.write_bytes(text)
    with pytest.raises(bm.BadFileError) as caught:
        bm.load_maze(path)
    one_clear_line(caught.value, "doc.json")


@pytest.mark.slow
@settings(**SETTINGS)
@given(st.data())
def test_mutated_themes(tmp_path, data):
    from importlib import resources

    original = json.loads((resources.files("blockmaze") / "themes" / "stone-bricks.json").read_text())
    path = tmp_path / "theme.json"
    path.write_text(json.dumps(mutate(data, original)))
    try:
        bm.load_theme(str(path))
    except bm.BlockmazeError as error:
        one_clear_line(error, "theme.json")


def png_bytes(width: int, height: int, pixels: bytes | None = None) -> bytes:
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    raw = pixels if pixels is not None else b"".join(b"\x00" + bytes(width) for _ in range(min(height, 4)))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def test_a_decompression_bomb_mask_is_refused(tmp_path):
    path = tmp_path / "bomb.png"
    path.write_bytes(png_bytes(60000, 60000))
    with pytest.raises(bm.BadFileError, match="bomb|more than") as caught:
        mask_from_image(str(path))
    one_clear_line(caught.value, "bomb.png")


@pytest.mark.slow
@settings(**SETTINGS)
@given(st.data())
def test_mutated_mask_images(tmp_path, data):
    image = Image.fromarray((np.arange(48).reshape(6, 8) % 3 == 0).astype(np.uint8) * 255)
    out = io.BytesIO()
    image.save(out, format="PNG")
    raw = bytearray(out.getvalue())
    if data.draw(st.booleans()):
        raw = raw[:data.draw(st.integers(0, len(raw)))]
    else:
        for _ in range(data.draw(st.integers(1, 6))):
            raw[data.draw(st.integers(0, len(raw) - 1))] = data.draw(st.integers(0, 255))
    path = tmp_path / "mask.png"
    path.write_bytes(bytes(raw))
    try:
        mask_from_image(str(path))
    except bm.BlockmazeError as error:
        one_clear_line(error, "mask.png")


def test_a_mask_that_is_not_a_file_is_refused():
    with pytest.raises(bm.BadFileError, match="not a regular file"):
        mask_from_image("/dev/zero")


# --- inputs given to generate and export: regular files, bounded, refused in a child ------------

def blockmaze_cli(*args, timeout: float = 60):
    """Run the command in a child with 2 GiB of address space: (exit code, stderr lines)."""
    import os
    import resource
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    result = subprocess.run([sys.executable, "-m", "blockmaze", *map(str, args)], capture_output=True,
                            text=True, timeout=timeout, env=dict(os.environ, PYTHONPATH=str(root)),
                            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (1 << 31, 1 << 31)))
    return result.returncode, result.stderr.strip().splitlines()


def special_file(tmp_path, kind: str, name: str):
    import os

    path = tmp_path / name
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    return path


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["fifo", "/dev/zero"])
@pytest.mark.parametrize("option, name", [("--mask", "mask.txt"), ("--mask", "mask.png"),
                                          ("--theme", "theme.json")])
def test_masks_and_themes_that_are_not_files_are_refused(tmp_path, kind, option, name):
    path = special_file(tmp_path, kind, name)
    code, err = blockmaze_cli("generate", "5x5", option, path, "-o", tmp_path / "m.schem")
    assert code == 1 and len(err) == 1 and "not a regular file" in err[0], err
    assert not (tmp_path / "m.schem").exists()


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["fifo", "/dev/zero"])
def test_documents_that_are_not_files_are_refused(tmp_path, kind):
    path = special_file(tmp_path, kind, "maze.json")
    code, err = blockmaze_cli("export", path, "-o", tmp_path / "m.schem")
    assert code == 1 and len(err) == 1 and "not a regular file" in err[0], err


@pytest.mark.slow
def test_a_small_document_claiming_a_huge_grid_is_refused_before_allocating(tmp_path):
    data = document_json()
    data["grid"]["shape"] = [20000, 20000]
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(data))
    assert path.stat().st_size < 400
    code, err = blockmaze_cli("export", path, "-o", tmp_path / "m.schem")
    assert code == 1 and len(err) == 1 and "more cells than its links" in err[0], err


@pytest.mark.slow
def test_a_mask_template_wider_than_a_mask_may_be_is_refused(tmp_path):
    path = tmp_path / "mask.txt"
    path.write_text("." * 70_000 + "\n" + ".\n" * 1_000)
    code, err = blockmaze_cli("generate", "5x5", "--mask", path, "-o", tmp_path / "m.schem")
    assert code in (1, 2) and len(err) == 1 and "cells a mask may have" in err[0], err


@pytest.mark.slow
@pytest.mark.parametrize("option", ["--mask", "--theme", "document"])
def test_a_missing_input_file_exits_1(tmp_path, option):
    missing = tmp_path / "none.json"
    args = (["export", missing, "-o", tmp_path / "m.schem"] if option == "document" else
            ["generate", "5x5", option, missing, "-o", tmp_path / "m.schem"])
    code, err = blockmaze_cli(*args)
    assert code == 1 and len(err) == 1 and "none.json" in err[0], err


def test_a_document_field_cannot_spoof_output_lines(tmp_path):
    data = document_json()
    data["algorithm"] = "backtracker\nwrote /etc/passwd"
    with pytest.raises(bm.BadFileError, match="printable"):
        bm.load_maze(io.BytesIO(json.dumps(data).encode()))


# --- validation gaps: the API and the command refuse with one clear message --------------------

@pytest.mark.parametrize("call, says", [
    (lambda: bm.generate((3.5, 4)), "whole numbers"),
    (lambda: bm.generate("44"), "whole numbers"),
    (lambda: bm.to_trimesh(np.zeros((3, 3), np.uint8)), "3-D"),
    (lambda: bm.to_trimesh(np.zeros((0, 3, 3), np.uint8)), "not empty"),
    (lambda: bm.write(np.ones((1, 2, 2), np.uint8), io.BytesIO(), format="glb", block_size=1e308),
     "from 1e-06 to 1e"),
])
def test_bad_api_arguments_raise_blockmaze_error(call, says):
    with pytest.raises(bm.BlockmazeError, match=says):
        call()


def test_a_picture_cell_size_of_nan_is_refused():
    from blockmaze.export.pictures import render_image

    with pytest.raises(bm.BlockmazeError, match="cell_size"):
        render_image(bm.generate((3, 3), rng=1), cell_size=float("nan"))


def test_a_block_name_ending_in_a_newline_is_refused(tmp_path):
    theme = json.loads((Path(bm.__file__).parent / "themes" / "stone-bricks.json").read_text())
    theme["materials"]["wall"]["minecraft"] = "minecraft:stone\n"
    path = tmp_path / "theme.json"
    path.write_text(json.dumps(theme))
    with pytest.raises(bm.BadFileError):
        bm.load_theme(path)


@pytest.mark.parametrize("args, env, code", [
    (["generate", "5x5", "-o", "w", "--format", "world", "--time", "9223372036854775808"], {}, 2),
    (["generate", "5x5"], {"PYTHONIOENCODING": "latin-1"}, 1),
])
def test_command_gaps_give_one_line(tmp_path, args, env, code):
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    result = subprocess.run([sys.executable, "-m", "blockmaze", *args], capture_output=True, text=True,
                            cwd=tmp_path, env=dict(os.environ, PYTHONPATH=str(root), **env), timeout=120)
    lines = result.stderr.strip().splitlines()
    assert result.returncode == code and len(lines) == 1 and lines[0].startswith("Error: "), lines


def test_a_file_name_that_is_not_utf8_is_written(tmp_path, capsys):
    import os

    from blockmaze.cli import main

    name = os.fsdecode(b"\xff\xfe.schem")
    assert main(["generate", "5x5", "-o", str(tmp_path / name)]) == 0
    assert (tmp_path / name).exists()
