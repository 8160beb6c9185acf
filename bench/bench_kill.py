"""Kill real `blockmaze` processes at random moments; count mixed or leftover files.

    python bench/bench_kill.py            # 200 kills across four multi-file and single-file runs
    python bench/bench_kill.py --quick    # 8 kills, for a smoke test

Each kill restores the old set of files, starts `python -m blockmaze` writing the new set over
it, sends SIGTERM, SIGHUP or SIGINT after a random delay (half of them uniform over a whole run,
half just after the first temporary `.part` file appears, so they land while files are being
written), and checks the folder holds exactly the old set or the new set. Target (issue 16):
200 kills, 0 mixed or leftover files.
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
ENV = dict(os.environ, BLOCKMAZE_KERNELS="python")


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
               "bad": 0}
        for number in range(kills):
            restore(folder, old)
            process = run(new_args, folder)
            if number % 2:
                wait_for_part(folder, process, 2 * duration)
                time.sleep(rng.uniform(0, 0.05))
            else:
                time.sleep(rng.uniform(0, 1.1 * duration))
            process.send_signal(rng.choice(SIGNALS))
            code = process.wait()
            now = snapshot(folder)
            if now not in (old, new):
                row["bad"] += 1
                print(f"  mixed or leftover after exit {code}: {sorted(now)}", file=sys.stderr)
            else:
                row["finished" if code == 0 else "old set" if now == old else "new set"] += 1
        return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="8 kills instead of 200")
    total = 8 if parser.parse_args().quick else 200
    rng = random.Random(16)
    print(f"{'scenario':<16}{'kills':>6}{'run s':>7}{'finished':>9}{'old set':>8}{'new set':>8}"
          f"{'mixed/leftover':>15}")
    bad = 0
    for name, (old_args, new_args) in SCENARIOS.items():
        row = kill_scenario(old_args, new_args, total // len(SCENARIOS), rng)
        bad += row["bad"]
        print(f"{name:<16}{row['kills']:>6}{row['run s']:>7.2f}{row['finished']:>9}"
              f"{row['old set']:>8}{row['new set']:>8}{row['bad']:>15}")
    print(f"target: 0 mixed or leftover files; got {bad}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
