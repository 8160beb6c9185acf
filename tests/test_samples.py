"""Every file in samples/ is remade, byte for byte, by the command docs/gallery.md shows for it."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
_spec = importlib.util.spec_from_file_location("make_samples", SAMPLES / "make_samples.py")
make_samples = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_samples)
COMMANDS = make_samples.sample_commands()


def test_every_sample_has_a_command_in_the_gallery():
    files = {p.name for p in SAMPLES.iterdir() if p.name != "make_samples.py"
             and not p.name.startswith((".", "__"))}
    files.discard("studio.png")  # a screenshot of the studio page: tests/test_studio_browser.py takes it
    assert files == set(COMMANDS)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_gallery_command_remakes_the_sample(tmp_path, name):
    made = make_samples.make_sample(name, COMMANDS[name], tmp_path)
    assert made.read_bytes() == (SAMPLES / name).read_bytes()
