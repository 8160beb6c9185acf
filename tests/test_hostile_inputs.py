"""Inputs found in the adversarial pass that still slipped through: each refused with the exit
code the README's rule gives (1 for an input file blockmaze cannot use, 2 for bad usage)."""

from __future__ import annotations

import io
import json

import pytest

import blockmaze as bm
from blockmaze.cli import main


def theme_file(tmp_path, wall: str):
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"name": "mine", "materials": {"wall": {"minecraft": wall}}}))
    return str(path)


def test_a_theme_file_naming_a_block_of_no_release_is_a_bad_file(tmp_path, capsys):
    theme = theme_file(tmp_path, "minecraft:no_such_block")
    assert main(["generate", "4x4", "--theme", theme, "-o", str(tmp_path / "m.schem")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no_such_block is not a block of any Minecraft release" in err[0]
    assert not (tmp_path / "m.schem").exists()


def test_a_theme_file_block_of_a_later_release_is_a_usage_error(tmp_path, capsys):
    theme = theme_file(tmp_path, "minecraft:deepslate_bricks")
    assert main(["generate", "4x4", "--theme", theme, "--mc-version", "1.16.5",
                 "-o", str(tmp_path / "m.schem")]) == 2
    assert "choose --mc-version 1.17 or later" in capsys.readouterr().err


@pytest.mark.parametrize("size", [float("nan"), float("inf"), -1.0])
def test_a_picture_cell_size_that_is_no_number_is_refused(size):
    with pytest.raises(bm.BlockmazeError, match="cell_size must be a number"):
        bm.save(bm.generate((3, 3), rng=1), io.BytesIO(), "png", cell_size=size)


def test_info_refuses_a_small_document_claiming_a_huge_grid(tmp_path, capsys):
    path = tmp_path / "huge.json"
    bm.save_maze(bm.MazeDocument(bm.generate((3, 3), rng=1), seed=1), path)
    document = json.loads(path.read_text())
    document["grid"]["shape"] = [20000, 20000]
    path.write_text(json.dumps(document))
    assert main(["info", str(path)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "has more cells than its links" in err[0], err
