"""Kill real `blockmaze` processes at random moments; count mixed or leftover files.

    python bench/bench_kill.py            # 200 kills across the multi-file and single-file runs
    python bench/bench_kill.py --quick    # 10 kills and 9 Ctrl-C, for a smoke test (a small
                                          # compile, the long build's first 5 s)
    python bench/bench_kill.py --kills 0 --window 20   # Ctrl-C only, the long build's first 20 s

Each kill restores the old set of files, starts `python -m blockmaze` writing the new set over
it, sends SIGTERM, SIGHUP or SIGINT after a random delay (half of them uniform over a whole run,
half just after the first temporary `.part` file appears, so they land while files are being
written), and checks the folder holds exactly the old set or the new set. Runs have four BLAS
threads (numpy's workers must not take the signals). One kill in five is SIGKILL, which nothing
can catch: its staged files stay, and the next run into the folder must remove them.
Then SIGINT at random moments of three phases: start-up (the first 0.2 s), a first numba compile
(an empty cache each run) and a long 3-D build (``generate 40x400x400 -g layered``; 10x100x100
with --quick): each run must stop within 1 s with exit 130, one line, no traceback, no file.
A Ctrl-C in the interpreter's own start-up, before any code of the package runs, is answered by
Python (its own traceback): counted apart, as "(Python)".
Targets: 200 kills, 0 mixed sets, 0 staged files left after the next run; 50 Ctrl-C, all within
1 s, exit 130. The run fails on a mixed set, a file left, a traceback or more than one line, not
on a time (printed as MISSED).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from test_kill import SCENARIOS, SIGNALS, restore, snapshot  # noqa: E402 - the same scenarios


# plain-Python kernels: no compiling, so a run is short and the kills land in its real work
ENV = dict(os.environ, BLOCKMAZE_KERNELS="python", OPENBLAS_NUM_THREADS="4", OMP_NUM_THREADS="4",
           MKL_NUM_THREADS="4")
LONG_BUILD = ["generate", "40x400x400", "-g", "layered", "--seed", "1", "-o", "big.schem"]
QUICK_BUILD = ["generate", "10x100x100", "-g", "layered", "--seed", "1", "-o", "big.schem"]
# --quick: a first compile of a few kernels only (a plain square maze), and the long build's
# first QUICK_WINDOW seconds, so the smoke run stays short
QUICK_COMPILE = ["generate", "400x400", "--seed", "1", "-o", "square.schem"]
QUICK_WINDOW = 5.0


def run(argv, folder) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "blockmaze", *argv], cwd=folder, env=ENV,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            preexec_fn=_interruptible)


def _interruptible() -> None:
    """Ctrl-C works in the child even when this script runs in the background (SIGINT ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def wait_for_part(folder: Path, process: subprocess.Popen, limit: float) -> None:
    """Return when a .part file shows up in ``folder`` (or the run ends, or ``limit`` passes)."""
    end = time.perf_counter() + limit
    while time.perf_counter() < end and process.poll() is None:
        if any(name.endswith(".part") for name in os.listdir(folder)):
            return
        time.sleep(0.0005)


def staged(folder: Path) -> list[str]:
    return [name for name in os.listdir(folder) if name.startswith(".blockmaze-")]


def kill_scenario(old_args, new_args, kills: int, rng: random.Random) -> dict:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        subprocess.run([sys.executable, "-m", "blockmaze", *old_args], cwd=folder, check=True,
                       capture_output=True, env=ENV)
        old = snapshot(folder)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "blockmaze", *new_args], cwd=folder, check=True,
                       capture_output=True, env=ENV)
        duration = time.perf_counter() - start
        new = snapshot(folder)
        row = {"kills": kills, "run s": duration, "finished": 0, "old set": 0, "new set": 0,
               "bad": 0, "killed -9": 0, "left": 0}
        for number in range(kills):
            restore(folder, old)
            process = run(new_args, folder)
            if number % 2:
                wait_for_part(folder, process, 2 * duration)
                time.sleep(rng.uniform(0, 0.05))
            else:
                time.sleep(rng.uniform(0, 1.1 * duration))
            if number % 5 == 4:  # SIGKILL: staged files stay; the next run must remove them
                process.kill()
                process.wait()
                row["killed -9"] += 1
                subprocess.run([sys.executable, "-m", "blockmaze", *new_args], cwd=folder,
                               check=True, capture_output=True, env=ENV)
                row["left"] += len(staged(folder))
                continue
            process.send_signal(rng.choice(SIGNALS))
            code = process.wait()
            now = snapshot(folder)
            if now not in (old, new):
                row["bad"] += 1
                print(f"  mixed or leftover after exit {code}: {sorted(now)}", file=sys.stderr)
            else:
                row["finished" if code == 0 else "old set" if now == old else "new set"] += 1
        return row


def interrupt(argv, moments, env, fresh_cache: bool = False) -> list[dict]:
    """SIGINT to ``blockmaze ARGV`` at each of ``moments`` (seconds after its start), with an
    empty numba cache for each run when ``fresh_cache``: for each, the exit code, the seconds from
    the signal to the exit, the files left and the traceback seen (if any)."""
    results = []
    for moment in moments:
        with tempfile.TemporaryDirectory() as folder, tempfile.TemporaryDirectory() as cache:
            run_env = dict(env, NUMBA_CACHE_DIR=cache) if fresh_cache else env
            process = subprocess.Popen([sys.executable, "-m", "blockmaze", *argv], cwd=folder,
                                       env=run_env, stdout=subprocess.DEVNULL,
                                       stderr=subprocess.PIPE, preexec_fn=_interruptible)
            time.sleep(moment)
            ended_first = process.poll() is not None  # a faster run than the timed one: no test
            sent = time.perf_counter()
            process.send_signal(signal.SIGINT)
            err = process.communicate()[1].decode(errors="replace")
            seconds = time.perf_counter() - sent
            results.append({"moment": moment, "code": process.returncode, "seconds": seconds,
                            "left": os.listdir(folder), "traceback": _traceback_kind(err),
                            "lines": len(err.strip().splitlines()), "ended first": ended_first,
                            "err": err.strip().splitlines()[-3:]})
    return results


def _traceback_kind(err: str) -> str:
    """"" (none), "interpreter" (Python's own start-up, before any code of the package ran:
    Python answers Ctrl-C there itself) or "package" (a traceback through blockmaze: a bug)."""
    if "Traceback" not in err and "Fatal Python error" not in err and "Exception ignored" not in err:
        return ""
    ours = re.search(r'File "[^"]*[/\\](blockmaze|numba|llvmlite)[/\\]', err)
    return "package" if ours or "Exception ignored" in err else "interpreter"


def timed(argv, env, fresh_cache: bool = False) -> float:
    """Seconds a whole run of ``blockmaze ARGV`` takes."""
    with tempfile.TemporaryDirectory() as folder, tempfile.TemporaryDirectory() as cache:
        run_env = dict(env, NUMBA_CACHE_DIR=cache) if fresh_cache else env
        began = time.perf_counter()
        subprocess.run([sys.executable, "-m", "blockmaze", *argv], cwd=folder, check=True,
                       capture_output=True, env=run_env)
        return time.perf_counter() - began


def interrupt_phases(count: int, rng: random.Random, quick: bool, window: float | None):
    """Ctrl-C at ``count`` random moments spread over three phases: start-up (the first 0.2 s),
    a first numba compile (an empty cache each run) and a long 3-D build (cache warm; the moments
    over the whole build, or its first ``window`` seconds). Prints one row a phase; returns the
    runs that missed the target (not exit 130 within 1 s, a package traceback, a file left)."""
    env = dict(ENV)
    env.pop("BLOCKMAZE_KERNELS")
    compiled = dict(env, BLOCKMAZE_KERNELS="numba")
    long_build = QUICK_BUILD if quick else LONG_BUILD
    compile_build = QUICK_COMPILE if quick else QUICK_BUILD
    if not quick:
        timed(compile_build, compiled)  # warms the shared cache for the long-build phase
    compile_s = timed(compile_build, compiled, fresh_cache=True)
    build_s = window or (QUICK_WINDOW if quick else timed(long_build, env))
    share = [count // 3, count // 3, count - 2 * (count // 3)]
    phases = [
        ("start-up", long_build, [rng.uniform(0, 0.2) for _ in range(share[0])], env, False),
        ("first compile", compile_build, [rng.uniform(0.2, compile_s) for _ in range(share[1])],
         compiled, True),
        ("long 3-D build", long_build, [rng.uniform(0.2, build_s) for _ in range(share[2])], env,
         False),
    ]
    print(f"\nCtrl-C at random moments (compile build `{' '.join(compile_build[:4])}` {compile_s:.1f} s "
          f"with an empty cache; long build `{' '.join(long_build[:4])}` over "
          f"{'its first ' if window else ''}{build_s:.1f} s)")
    print(f"{'phase':<16}{'moments':>8}{'exit 130':>9}{'(SIGINT)':>9}{'max stop s':>11}"
          f"{'median s':>9}{'tracebacks':>11}{'(Python)':>9}{'files left':>11}")
    missed, broken = [], []
    for name, argv, moments, run_env, fresh in phases:
        results = [r for r in interrupt(argv, moments, run_env, fresh) if not r["ended first"]]
        stops = sorted(r["seconds"] for r in results)
        answered = [r for r in results if r["code"] in (130, -signal.SIGINT)]
        python_own = [r for r in results if r["traceback"] == "interpreter"]
        ours = [r for r in results if r["traceback"] == "package"]
        print(f"{name:<16}{len(results):>8}{len(answered):>9}"
              f"{sum(r['code'] == -signal.SIGINT for r in results):>9}{stops[-1]:>11.2f}"
              f"{stops[len(stops) // 2]:>9.2f}{len(ours):>11}{len(python_own):>9}"
              f"{sum(bool(r['left']) for r in results):>11}")
        missed += [(name, r) for r in results
                   if r not in python_own and (r["code"] not in (130, -signal.SIGINT)
                                               or r["seconds"] > 1.0 or r["traceback"] or r["left"]
                                               or r["lines"] > 1)]
        # broken, not only late: a traceback of ours, more than one line, or a file left by a run
        # that stopped (a run that answered before the signal took effect wrote all its files)
        broken += [(name, r) for r in results
                   if r not in python_own and (r["traceback"] or r["lines"] > 1
                                               or (r["left"] and r["code"] != 0))]
    print("exit 130 counts deaths by SIGINT too (the shell shows them as 130); tracebacks "
          "(Python): Ctrl-C before any code of the package ran, answered by Python itself; "
          "runs that ended before their moment are left out")
    for name, r in missed:
        print(f"  MISSED ({name}): signal at {r['moment']:.2f} s: exit {r['code']} after "
              f"{r['seconds']:.2f} s, traceback {r['traceback'] or 'none'}, left {r['left']}: "
              f"{' | '.join(r['err'])[:300]}")
    return missed, broken


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10 kills and 9 Ctrl-C")
    parser.add_argument("--kills", type=int, default=None, help="kills in all (default 200)")
    parser.add_argument("--interrupts", type=int, default=None, help="Ctrl-C in all (50)")
    parser.add_argument("--window", type=float, default=None,
                        help="Ctrl-C within the build's first SECONDS (default: the whole build)")
    args = parser.parse_args()
    total = args.kills if args.kills is not None else 10 if args.quick else 200
    interrupts = args.interrupts if args.interrupts is not None else 9 if args.quick else 50
    rng = random.Random(16)
    print(f"{'scenario':<16}{'kills':>6}{'run s':>7}{'finished':>9}{'old set':>8}{'new set':>8}"
          f"{'mixed/leftover':>15}{'kill -9':>8}{'staged left':>12}")
    bad = left = 0
    for name, (old_args, new_args) in SCENARIOS.items():
        row = kill_scenario(old_args, new_args, total // len(SCENARIOS), rng)
        bad += row["bad"]
        left += row["left"]
        print(f"{name:<16}{row['kills']:>6}{row['run s']:>7.2f}{row['finished']:>9}"
              f"{row['old set']:>8}{row['new set']:>8}{row['bad']:>15}{row['killed -9']:>8}"
              f"{row['left']:>12}")
    print(f"target: 0 mixed sets and 0 staged files left after the next run; got {bad} and {left}")
    broken = 0
    if interrupts:
        missed, wrong = interrupt_phases(interrupts, rng, args.quick, args.window)
        broken = len(wrong)
        print(f"target: every run stops within 1 s with exit 130, one line, no file; missed "
              f"{len(missed)}, of them broken (a traceback, more lines, a file left) {broken}")
    # the run fails on what is wrong (mixed sets, files left, tracebacks), never on a time: on a
    # loaded machine a stop taking 1.2 s, or a signal landing as the run answers, is a figure
    sys.exit(1 if bad or left or broken else 0)


if __name__ == "__main__":
    main()
