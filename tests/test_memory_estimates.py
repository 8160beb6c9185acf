"""The memory table (blockmaze.support.memory.MEASURED) against real peaks, and the limit's message.

Each check runs the step in a child process and compares the table's estimate with the peak
above the input (tests/memory_probe.py), at two sizes, within 25 %: in one of up to three runs,
since a run's peak moves with its threads' timing (memory_probe.within). A few kinds run in the
suite; all of them with BLOCKMAZE_SLOW_TESTS=1. bench/bench_memory.py prints the same for all,
and with --load it repeats the checks under a second CPU load and counts the single runs that
miss.
"""

import os
import sys
from pathlib import Path

import numpy as np
import pytest

import blockmaze as bm
from blockmaze.export import FORMATS
from blockmaze.cli import main
from blockmaze.support.memory import MEASURED, MEMORY_LIMIT, ensure_memory, limited

sys.path.insert(0, str(Path(__file__).parent))
from memory_probe import sizes, within  # noqa: E402

TOLERANCE = 0.25
QUICK = ["schem", "ascii", "document"]
# every output but the streamed worlds (memory bounded by a band) and "maze" (measured as "document")
ALL = ["generate", "document", "png", "svg",
       *(name for name, row in FORMATS.items() if row.source != "bands" and name != "maze")]
KINDS = ALL if os.environ.get("BLOCKMAZE_SLOW_TESTS") else QUICK


def test_every_output_and_generation_has_a_measured_cost():
    assert set(ALL) <= set(MEASURED)
    for unit, per_unit, fixed in MEASURED.values():
        assert unit in ("block", "tile", "cell", "pixel") and per_unit > 0 and fixed >= 0


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_the_estimate_is_within_a_quarter_of_the_real_peak(kind):
    for n in sizes(kind)[1:]:
        units, peaks, guess = within(kind, n, TOLERANCE)
        assert abs(guess - peaks[-1]) <= TOLERANCE * peaks[-1], \
            f"{kind} n={n}: table {guess}, measured {peaks}"


def test_over_the_limit_the_message_says_how_much_and_which_option(monkeypatch):
    with limited("1M"):
        with pytest.raises(bm.BlockmazeError, match=r"needs about .* MiB of memory; the limit set is 1.0 MiB.*--memory-limit SIZE"):
            bm.write(np.ones((3, 401, 401), np.uint8), "/dev/null", format="gltf")
        with pytest.raises(bm.BlockmazeError, match="--memory-limit"):
            bm.save_maze(bm.MazeDocument(bm.generate((200, 200), rng=1)), "/dev/null")
    with pytest.raises(bm.BlockmazeError, match="--memory-limit must be a whole number"):
        with limited("lots"):
            pass
    with pytest.raises(bm.BlockmazeError, match="the memory available"):
        ensure_memory(1 << 70, "a huge maze")


@pytest.mark.slow
@pytest.mark.parametrize("command", [
    ["generate", "300x300", "-o", "out.schem"],
    ["generate", "100x100", "-g", "hex", "-o", "out.glb"],
    ["blockwise", "601x601", "-o", "out.schem"],
    ["dungeon", "150x150", "-o", "out.stl"],
    ["export", "maze.json", "-o", "out.gltf"],
])
def test_every_building_command_honours_the_memory_limit(command, tmp_path, monkeypatch, capsys):
    """--memory-limit (and BLOCKMAZE_MEMORY_LIMIT) refuses a job before it writes anything, exit
    2 with the option named; a limit it fits under lets the same job through."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(MEMORY_LIMIT, raising=False)
    assert main(["-q", "generate", "100x100", "--seed", "1", "-o", "maze.json"]) == 0
    assert main([*command, "--memory-limit", "4M"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("Error: ") and "needs about" in error and "--memory-limit SIZE" in error
    assert not (tmp_path / "out.schem").exists() and MEMORY_LIMIT not in os.environ
    monkeypatch.setenv(MEMORY_LIMIT, "4M")
    assert main(command) == 2
    assert main(["-q", *command, "--memory-limit", "8G"]) == 0
    assert os.environ[MEMORY_LIMIT] == "4M"  # the option lasts one run


def test_a_bad_memory_limit_is_a_usage_error(capsys):
    assert main(["generate", "5x5", "--memory-limit", "lots"]) == 2
    assert "--memory-limit must be a whole number" in capsys.readouterr().err
