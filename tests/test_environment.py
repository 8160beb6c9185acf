"""A hostile environment ends a run in one line with nothing half-written: standard output
closed, an address-space limit too small to start, a file-size limit (tests/test_plan.py has the
Bedrock world's)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

RUN = "import sys; from blockmaze.cli import main; sys.exit(main(sys.argv[1:]))"


def _run(args, tmp_path, before: str = "", **kwargs):
    return subprocess.run([sys.executable, "-c", before + RUN, *args], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120, **kwargs)


@pytest.mark.parametrize("args", [["generate", "3", "--seed", "1"],
                                  ["generate", "3", "--seed", "1", "-o", "-", "--format", "svg"],
                                  ["dungeon", "6x8", "--seed", "1"]])
def test_standard_output_closed_is_one_line(args, tmp_path):
    done = _run(args, tmp_path, stdin=subprocess.DEVNULL, preexec_fn=lambda: os.close(1))
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines()[-1] == ("Error: cannot write to standard output: standard "
                                            "output is closed"), done.stderr
    assert "Traceback" not in done.stderr and list(tmp_path.iterdir()) == []


def test_a_file_is_written_with_standard_output_closed(tmp_path):
    done = _run(["generate", "3", "--seed", "1", "-o", "m.schem"], tmp_path,
                preexec_fn=lambda: os.close(1))
    assert done.returncode == 0, done.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["m.schem"]


def test_too_small_an_address_space_is_one_line(tmp_path):
    limit = ("import resource; resource.setrlimit(resource.RLIMIT_AS, (100_000_000, "
             "100_000_000)); ")
    done = _run(["generate", "3", "--seed", "1", "-o", "m.glb"], tmp_path, before=limit)
    assert done.returncode == 1, done.stderr
    assert done.stderr.count("\n") == 1 and "ulimit -v" in done.stderr, done.stderr
    assert list(tmp_path.iterdir()) == []
