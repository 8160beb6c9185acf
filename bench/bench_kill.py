"""Kill real `blockmaze` processes at random moments; count mixed or leftover files.

    python bench/bench_kill.py            # 200 kills across the multi-file and single-file runs
    python bench/bench_kill.py --quick    # 10 kills and 5 Ctrl-C, for a smoke test

Each kill restores the old set of files, starts `python -m blockmaze` writing the new set over
it, sends SIGTERM, SIGHUP or SIGINT after a random delay (half of them uniform over a whole run,
half just after the first temporary `.part` file appears, so they land while files are being
written), and checks the folder holds exactly the old set or the new set. Runs have four BLAS
threads (numpy's workers must not take the signals). One kill in five is SIGKILL, which nothing
can catch: its staged files stay, and the next run into the folder must remove them.
Then SIGINT at random moments of a long 3-D build (``generate 40x400x400 -g layered``): each run
must stop within 1 s with exit 130.
Targets: 200 kills, 0 mixed sets, 0 staged files left after the next run; 50 Ctrl-C, all within
1 s, exit 130.
"""

from __future__ import annotations

import argparse
import os
import random
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


def interrupt_long_builds(count: int, rng: random.Random, window: float | None = None):
    """SIGINT at ``count`` random moments of a long 3-D build (compiled kernels): for each, the
    moment, the exit code and the seconds from the signal to the exit. The moments fall over the
    whole build, or over its first ``window`` seconds (a busy machine makes a whole build long)."""
    env = dict(ENV)
    env.pop("BLOCKMAZE_KERNELS")
    with tempfile.TemporaryDirectory() as name:
        duration = window
        if duration is None:
            began = time.perf_counter()
            subprocess.run([sys.executable, "-m", "blockmaze", *LONG_BUILD], cwd=name, check=True,
                           capture_output=True, env=env)
            duration = time.perf_counter() - began
        results = []
        for _ in range(count):
            process = subprocess.Popen([sys.executable, "-m", "blockmaze", *LONG_BUILD], cwd=name,
                                       env=env, stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL, preexec_fn=_interruptible)
            moment = rng.uniform(0, duration)
            time.sleep(moment)
            sent = time.perf_counter()
            process.send_signal(signal.SIGINT)
            code = process.wait()
            results.append((moment, code, time.perf_counter() - sent))
            print(f"  Ctrl-C at {moment:6.2f} s of {duration:.1f} s: exit {code} after "
                  f"{results[-1][2]:.2f} s", file=sys.stderr, flush=True)
        return results, duration


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10 kills and 5 Ctrl-C")
    parser.add_argument("--kills", type=int, default=None, help="kills in all (default 200)")
    parser.add_argument("--interrupts", type=int, default=None, help="Ctrl-C of a long build (50)")
    parser.add_argument("--window", type=float, default=None,
                        help="Ctrl-C within the build's first SECONDS (default: the whole build)")
    args = parser.parse_args()
    total = args.kills if args.kills is not None else 10 if args.quick else 200
    interrupts = args.interrupts if args.interrupts is not None else 5 if args.quick else 50
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
    late = 0
    if interrupts:
        results, duration = interrupt_long_builds(interrupts, rng, args.window)
        slow = [r for r in results if r[1] != 130 or r[2] > 1.0]
        late = len(slow)
        worst = max(r[2] for r in results)
        print(f"Ctrl-C of `blockmaze {' '.join(LONG_BUILD)}` ({duration:.1f} s): {len(results)} "
              f"at random moments, slowest stop {worst:.2f} s, "
              f"median {sorted(r[2] for r in results)[len(results) // 2]:.2f} s")
        for moment, code, seconds in slow:
            print(f"  MISSED: signal at {moment:.2f} s: exit {code} after {seconds:.2f} s")
        print(f"target: every run stops within 1 s with exit 130; missed {late}")
    sys.exit(1 if bad or left or late else 0)


if __name__ == "__main__":
    main()
