"""Runs stopped at random moments (SIGTERM, SIGHUP, SIGINT) leave the output folder holding the
old set of files or the new set, nothing else: no mix of old and new companions, no ``.part``
files.

Each run is a forked child of this (already imported) process, so a run starts at once. The
test waits for the run to report that its work began (``BLOCKMAZE_STOPS_MARKS``: a file made as
each phase begins), then signals it at once (the first kill: the old set, always) or at a random
moment of the work that follows (carving, building, writing, renaming).
``BLOCKMAZE_KILLS`` sets the kills per scenario (default 15); ``bench/bench_kill.py`` kills
real ``python -m blockmaze`` processes 200 times.
"""

from __future__ import annotations

import os
import random
import signal
import sys
import time

import pytest

from blockmaze.__main__ import run
from blockmaze.support import kernels, stops

import terminal_signals

pytestmark = pytest.mark.slow

KILLS = int(os.environ.get("BLOCKMAZE_KILLS", "15"))
SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
# scenario -> (old run, new run): the same files, different contents
SCENARIOS = {
    "obj+mtl": (["generate", "24x24", "--seed", "1", "-o", "m.obj"],
                ["generate", "24x24", "--seed", "2", "--theme", "glass", "-o", "m.obj"]),
    "tmx+tsx+png": (["generate", "16x16", "--seed", "1", "--external-tileset", "-o", "m.tmx"],
                    ["generate", "16x16", "--seed", "2", "--external-tileset", "--theme", "hedge",
                     "-o", "m.tmx"]),
    "dungeon levels": (["dungeon", "24x30", "--levels", "3", "--seed", "1", "-o", "d.tmj"],
                       ["dungeon", "24x30", "--levels", "3", "--seed", "2", "--theme", "hedge",
                        "-o", "d.tmj"]),
    "schem": (["generate", "30x30", "--seed", "1", "-o", "m.schem"],
              ["generate", "30x30", "--seed", "2", "-o", "m.schem"]),
    "split tiles": (["generate", "30x30", "--seed", "1", "--split", "16", "-o", "t.schem"],
                    ["generate", "30x30", "--seed", "2", "--split", "16", "-o", "t.schem"]),
}


def start(argv: list[str], folder, marks=None, pause: str | None = None) -> int:
    """Fork a child that runs ``blockmaze ARGV`` in ``folder`` (output silenced) as the command
    does: the stop signals held from its first instruction (the package's first line holds them
    in a real launch), then ``python -m blockmaze``'s own entry; with ``marks``, it makes a file
    there as each phase begins (see :func:`reached`), and waits there at phase ``pause`` for the
    signal. Returns its pid."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)  # the child inherits the mask
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 99  # an exception escaped the command
        try:
            if marks is not None:
                os.environ[stops.MARKS] = str(marks)
            if pause is not None:
                os.environ[stops.PAUSE] = pause
            os.chdir(folder)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            terminal_signals.reset()  # whatever pytest runs under (nohup, a script's &)
            sys.argv = ["blockmaze", *argv]
            with kernels.forced("python"):
                code = run()
        finally:
            os._exit(code)
    signal.pthread_sigmask(signal.SIG_SETMASK, held)
    return pid


def finish(pid: int) -> int:
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


def reached(marks, phase: str, pid: int | None = None, process=None) -> None:
    """Wait until the run (a forked ``pid`` or a ``process``) has begun ``phase``: its mark file
    exists. Fails if the run ends first."""
    deadline = time.monotonic() + 60
    while not (marks / phase).exists():
        ended = process.poll() is not None if process is not None else \
            os.waitpid(pid, os.WNOHANG) != (0, 0)
        assert not ended and time.monotonic() < deadline, f"the run never reached {phase!r}"
        time.sleep(0.001)


def fresh(marks):
    """``marks``, emptied for the next run."""
    marks.mkdir(exist_ok=True)
    for path in marks.iterdir():
        path.unlink()
    return marks


def snapshot(folder) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def restore(folder, files: dict[str, bytes]) -> None:
    for path in folder.iterdir():
        path.unlink()
    for name, data in files.items():
        (folder / name).write_bytes(data)


def kill_runs(folder, marks, old_args, new_args, kills: int,
              rng: random.Random) -> dict[str, int]:
    """Run ``new_args`` over the files ``old_args`` wrote, ``kills`` times, each stopped as its
    work begins (the first) or at a random moment of that work; check every time that the folder
    holds the old or the new set. Returns how the runs ended (finished, stopped before writing,
    stopped after)."""
    assert finish(start(old_args, folder)) == 0
    old = snapshot(folder)
    pid = start(new_args, folder, fresh(marks))
    reached(marks, "work", pid)
    began = time.perf_counter()
    assert finish(pid) == 0
    duration = time.perf_counter() - began  # of the work, from the moment it begins
    new = snapshot(folder)
    assert old.keys() == new.keys() and all(old[n] != new[n] for n in old), "scenario too weak"
    ends = {"finished": 0, "old set": 0, "new set": 0}
    for number in range(kills):
        restore(folder, old)
        pid = start(new_args, folder, fresh(marks), pause=None if number else "work")
        reached(marks, "work", pid)
        if number:
            time.sleep(rng.uniform(0, 1.1 * duration))
        os.kill(pid, rng.choice(SIGNALS))
        code = finish(pid)
        now = snapshot(folder)
        assert now in (old, new), (f"mixed or leftover files after exit {code}: "
                                   f"{sorted(now)} (old {sorted(old)})")
        assert code in (0, 130, 128 + signal.SIGTERM, 128 + signal.SIGHUP,
                        -signal.SIGTERM, -signal.SIGHUP, -signal.SIGINT), code
        ends["finished" if code == 0 else "old set" if now == old else "new set"] += 1
        if not number:
            assert now == old and code != 0, "a stop as the work begins must leave the old set"
    return ends


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_killed_runs_leave_the_old_set_or_the_new(tmp_path, scenario):
    old_args, new_args = SCENARIOS[scenario]
    folder, marks = tmp_path / "out", tmp_path / "marks"
    folder.mkdir()
    ends = kill_runs(folder, marks, old_args, new_args, KILLS, random.Random(scenario))
    assert sum(ends.values()) == KILLS
    assert ends["old set"] > 0  # the first kill, at least


def test_real_runs_with_blas_threads_stop_cleanly_and_leftovers_go(tmp_path):
    """Real processes with four BLAS threads (a fork above has none): signals at random moments
    of a --split run's work leave the old set or the new; a SIGKILL as the run stages its first
    file leaves staged files, which the next run into the folder removes."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    folder, marks = tmp_path / "out", tmp_path / "marks"
    folder.mkdir()
    env = dict(os.environ, PYTHONPATH=str(root), BLOCKMAZE_KERNELS="python",
               OPENBLAS_NUM_THREADS="4", OMP_NUM_THREADS="4", **{stops.MARKS: str(marks)})
    old_args, new_args = SCENARIOS["split tiles"]

    def blockmaze(args, **options):
        fresh(marks)
        return subprocess.Popen([sys.executable, "-m", "blockmaze", *args], cwd=folder, env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                preexec_fn=terminal_signals.reset, **options)

    assert blockmaze(old_args).wait() == 0
    old = snapshot(folder)
    process = blockmaze(new_args)
    reached(marks, "work", process=process)
    began = time.perf_counter()
    assert process.wait() == 0
    duration = time.perf_counter() - began  # of the work, from the moment it begins
    new = snapshot(folder)
    rng = random.Random(25)
    for number in range(max(KILLS // 3, 4)):
        restore(folder, old)
        process = blockmaze(new_args)
        if number % 2:
            reached(marks, "deferred", process=process)  # its first file is being staged
            while not any(name.endswith(".part") for name in os.listdir(folder)):
                assert process.poll() is None, "the run ended before it staged a file"
                time.sleep(0.001)
            process.kill()
            process.wait()
            assert blockmaze(new_args).wait() == 0
            assert snapshot(folder) == new  # the next run removed what the killed one staged
        else:
            reached(marks, "work", process=process)
            time.sleep(rng.uniform(0, duration))
            process.send_signal(rng.choice(SIGNALS))
            process.wait()
            assert snapshot(folder) in (old, new)
