"""The project's promises about itself: README commands, CI, samples."""

import re
from pathlib import Path

import sys

ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(ROOT / "samples"))

from make_samples import make_samples  # noqa: E402


def readme_commands():
    return re.findall(r"```sh\n(python3 -m venv[^\n]*)\n```", (ROOT / "README.md").read_text())


def test_readme_has_exactly_two_setup_commands_and_ci_runs_the_second():
    commands = readme_commands()
    assert len(commands) == 2
    install_and_run, install_and_test = commands
    assert "blockmaze generate" in install_and_run and "pytest" in install_and_test
    ci_lines = (ROOT / ".ci" / "run").read_text().splitlines()
    assert install_and_run in ci_lines and install_and_test in ci_lines


def test_samples_are_up_to_date(tmp_path):
    for path in make_samples(tmp_path):
        committed = ROOT / "samples" / path.name
        assert committed.read_bytes() == path.read_bytes(), f"run samples/make_samples.py ({path.name})"


def test_readme_picture_is_the_sample():
    picture = (ROOT / "samples" / "maze-box.txt").read_text().strip()
    assert picture in (ROOT / "README.md").read_text()
