"""Remake the files in samples/ with the commands docs/gallery.md shows for them.

    python samples/make_samples.py [FOLDER]      # default: this folder

The commands are read from the gallery's samples block (lines ``blockmaze ... -o samples/NAME``
or ``blockmaze ... > samples/NAME``), so the gallery, this script and tests/test_samples.py
(which remakes every sample and compares bytes) can never disagree.
"""

from __future__ import annotations

import contextlib
import io
import shlex
import sys
from pathlib import Path

from blockmaze.cli import main

GALLERY = Path(__file__).resolve().parent.parent / "docs" / "gallery.md"  # its samples block


def sample_commands(page: Path = GALLERY) -> dict[str, list[str]]:
    """Sample file name -> the blockmaze arguments that make it, from the gallery's block."""
    text = page.read_text(encoding="utf-8")
    block = text.split("<!-- samples -->", 2)[1]
    commands = {}
    for line in block.splitlines():
        if not line.startswith("blockmaze "):
            continue
        words = shlex.split(line)[1:]
        name = words[words.index(">" if ">" in words else "-o") + 1]
        commands[Path(name).name] = words
    return commands


def make_sample(name: str, words: list[str], folder: Path) -> Path:
    """Run one sample's command with its output aimed into ``folder``."""
    target = folder / name
    if ">" in words:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = main(["-q", *words[: words.index(">")]])
        target.write_text(out.getvalue(), encoding="utf-8")
    else:
        words = [str(target) if w.endswith("samples/" + name) else w for w in words]
        code = main(["-q", *words])
    if code != 0:
        raise SystemExit(f"blockmaze {' '.join(words)} failed with exit code {code}")
    return target


def make_samples(folder: Path) -> list[Path]:
    """Write every sample into ``folder``; return their paths."""
    return [make_sample(name, words, folder) for name, words in sample_commands().items()]


if __name__ == "__main__":
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent
    for path in make_samples(out):
        print(path)
