"""Ctrl-C answers from the first moment of a real ``python -m blockmaze`` process: during its
imports (the signal already waiting when the package's first line runs, and as the package's
first line has held it) and during a first numba compile (an empty cache): one ``Error:`` line,
exit 130, no traceback, no file.

Each run is stopped at a phase it reports (``BLOCKMAZE_STOPS_MARKS``: the run makes a file named
after each phase as it begins), never after a guessed sleep. How fast each run stops is
measured by ``bench/bench_kill.py`` (start-up, compile and long-build phases), not asserted here.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from blockmaze.support import stops

import terminal_signals

ROOT = Path(__file__).resolve().parent.parent
BUILD = ["generate", "10x100x100", "-g", "layered", "--seed", "1", "-o", "m.schem"]
HANG = 60  # seconds: a run still going after this ignored the signal (or never reached a phase)


def blockmaze(args, folder, env=None, signal_first=None, marks=None) -> subprocess.Popen:
    """Start ``python -m blockmaze ARGS`` in ``folder``; with ``signal_first``, that signal is
    already waiting (held) when the interpreter starts; with ``marks``, the run makes a file
    there as each phase begins (see :func:`reached`)."""

    def prepare():
        terminal_signals.reset()  # whatever pytest runs under (nohup, a script's &)
        if signal_first is not None:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal_first})
            os.kill(os.getpid(), signal_first)

    environment = dict(env or os.environ, PYTHONPATH=str(ROOT))
    if marks is not None:
        environment[stops.MARKS] = str(marks)
    return subprocess.Popen([sys.executable, "-m", "blockmaze", *args], cwd=folder,
                            env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=prepare)


def reached(marks: Path, phase: str, process: subprocess.Popen) -> None:
    """Wait until the run has begun ``phase`` (its mark file exists); fail if it ends first."""
    deadline = time.monotonic() + HANG
    while not (marks / phase).exists():
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            _, err = process.communicate()
            pytest.fail(f"the run never reached {phase!r}: exit {process.returncode}, {err!r}")
        time.sleep(0.001)


def stopped(process: subprocess.Popen) -> tuple[int, str]:
    try:
        _, err = process.communicate(timeout=HANG)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        pytest.fail(f"still running {HANG} s after the signal")
    return process.returncode, err.decode(errors="replace")


@pytest.mark.parametrize("signum, code, line", [
    (signal.SIGINT, 130, "Error: interrupted; no file was changed"),
    (signal.SIGTERM, 143, "Error: stopped by signal 15; no file was changed"),
])
def test_a_signal_waiting_at_start_gets_one_line(tmp_path, signum, code, line):
    returncode, err = stopped(blockmaze(BUILD, tmp_path, signal_first=signum))
    assert (returncode, err.splitlines()) == (code, [line])
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
@pytest.mark.parametrize("phase", ["held", "work"])
def test_ctrl_c_during_start_up_is_one_line(tmp_path, phase):
    """``held``: the package's first line has held the signals, the command is still importing;
    ``work``: the command has taken them back and starts the job."""
    out, marks = tmp_path / "out", tmp_path / "marks"
    out.mkdir()
    marks.mkdir()
    process = blockmaze(BUILD, out, env=dict(os.environ, BLOCKMAZE_KERNELS="python"), marks=marks)
    reached(marks, phase, process)
    process.send_signal(signal.SIGINT)
    returncode, err = stopped(process)
    assert (returncode, err.split()) == (130, "Error: interrupted; no file was changed".split())
    assert list(out.iterdir()) == []


@pytest.mark.slow
@pytest.mark.parametrize("after", [0.0, 0.3, 1.0])
def test_ctrl_c_during_a_first_compile_stops_with_one_line(tmp_path, after):
    """Each run compiles anew (an empty numba cache); the signal comes ``after`` seconds into the
    compile phase (numba's import, then the compiling): never a traceback of llvmlite, never a
    run that goes on to exit 0."""
    cache, out, marks = tmp_path / "cache", tmp_path / "out", tmp_path / "marks"
    for folder in (cache, out, marks):
        folder.mkdir()
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), BLOCKMAZE_KERNELS="numba")
    process = blockmaze(BUILD, out, env=env, marks=marks)
    reached(marks, "compile", process)
    time.sleep(after)  # (a moment inside the phase the run reported: any one must answer so)
    process.send_signal(signal.SIGINT)
    returncode, err = stopped(process)
    assert returncode == 130, (returncode, err)
    assert err.split() == "Error: interrupted; no file was changed".split(), err
    assert list(out.iterdir()) == []


def test_only_the_command_holds_the_stop_signals(monkeypatch):
    """``import blockmaze`` in a program of one's own leaves its signals alone."""
    monkeypatch.setattr(sys, "argv", ["-m"])
    monkeypatch.setattr(sys, "orig_argv", ["python", "-m", "blockmaze", "info"], raising=False)
    assert stops.is_command()
    monkeypatch.setattr(sys, "orig_argv", ["python", "-m", "blockmaze.cli"], raising=False)
    assert not stops.is_command()
    monkeypatch.setattr(sys, "orig_argv", ["python", "-Im", "blockmaze"], raising=False)
    assert stops.is_command()
    script = str(Path(sys.executable).parent / "blockmaze")
    monkeypatch.setattr(sys, "argv", [script, "info"])
    monkeypatch.setitem(sys.modules, "__main__", type(sys)("__main__"))
    sys.modules["__main__"].__file__ = script
    assert stops.is_command()
    elsewhere = "/tmp/not-the-environment/blockmaze"
    monkeypatch.setattr(sys, "argv", [elsewhere])
    sys.modules["__main__"].__file__ = elsewhere
    assert not stops.is_command()
    monkeypatch.setattr(sys, "argv", ["my_script.py"])
    assert not stops.is_command()


@pytest.fixture
def a_stop_was_seen(monkeypatch):
    """As if the stop watcher had seen Ctrl-C arrive, while numba's compiler swallowed it."""
    monkeypatch.setattr(stops, "stop_seen", lambda: signal.SIGINT)


def test_the_stop_watcher_records_a_signal_the_run_did_not_raise():
    from blockmaze.support.stops import _watched, stop_seen

    with _watched(5):
        before = signal.signal(signal.SIGINT, lambda *_: None)  # swallowed, as numba's finalizers do
        try:
            os.kill(os.getpid(), signal.SIGINT)
            deadline = time.monotonic() + HANG
            while stop_seen() is None and time.monotonic() < deadline:  # the watcher reads it
                time.sleep(0.001)
        finally:
            signal.signal(signal.SIGINT, before)
    assert stop_seen() == signal.SIGINT
    with _watched():
        pass
    assert stop_seen() is None  # the next run starts clean


def test_an_error_after_a_swallowed_ctrl_c_is_the_stop_not_a_bug(a_stop_was_seen, monkeypatch, capsys):
    from blockmaze import jobs
    from blockmaze.cli import main

    def cut_short(*args, **kwargs):
        raise RuntimeError("no compiled object yet")  # what numba says after a cut compile

    monkeypatch.setattr(jobs, "run", cut_short)
    assert main(["generate", "5x5"]) == 130
    assert capsys.readouterr().err.strip() == "Error: interrupted; no file was changed"


def test_a_run_that_ends_after_a_swallowed_ctrl_c_still_answers_it(a_stop_was_seen, tmp_path, capsys):
    from blockmaze.cli import main

    assert main(["generate", "5x5", "-o", str(tmp_path / "m.schem")]) == 130
    said = capsys.readouterr().err.strip().splitlines()
    assert said[-1] == "Error: interrupted as the run ended; its files were written"
    assert (tmp_path / "m.schem").exists()


def test_finalizers_a_stop_cut_short_fail_quietly(monkeypatch, capsys):
    """After a stop, a half-built object's finalizer (llvmlite's, when Ctrl-C landed in a
    compile) prints no "Exception ignored" below the one line; with no stop, it is printed."""
    from types import SimpleNamespace

    failure = SimpleNamespace(exc_type=AttributeError, exc_value=AttributeError("_as_parameter_"),
                              exc_traceback=None, err_msg="Exception ignored in", object=None)
    shown = []
    monkeypatch.setattr(sys, "__unraisablehook__", shown.append)
    monkeypatch.setattr(stops, "_seen", [signal.SIGINT])
    stops._stop_not_swallowed(failure)
    assert shown == []
    monkeypatch.setattr(stops, "_seen", [])
    stops._stop_not_swallowed(failure)
    assert shown == [failure]


def test_a_stop_as_the_run_hands_back_its_code_is_one_line(capfd):
    """A signal landing after the command's own handling (as ``main()`` returns) ends the run
    with one line and 128 + the signal, not a traceback; once ``main()`` has answered, the stop
    signals are ignored: the answer stands."""
    before = {stop: signal.getsignal(stop) for stop in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    try:
        def stopped_by(error):
            def main():
                raise error
            return main

        assert stops._to_the_end(stopped_by(KeyboardInterrupt())) == 130
        assert stops._to_the_end(stopped_by(stops.Interrupted(signal.SIGTERM))) == 143
        lines = capfd.readouterr().err.splitlines()
        assert lines == [
            "Error: interrupted as the run ended; its files are all written or all as they were",
            "Error: stopped by signal 15 as the run ended; its files are all written or all as they were"]
        assert stops._to_the_end(lambda: 0) == 0
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        for stop, handler in before.items():
            signal.signal(stop, handler)
