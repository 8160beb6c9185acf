"""How fast the command starts: small jobs against `python -c "import numpy"` and mazelib.

    python bench/bench_startup.py            # 9 runs of each (about half a minute)
    python bench/bench_startup.py --quick    # 3 runs of each, for a smoke test

Each row is the best wall time of fresh processes (imports, numba and all), beside the issue's
targets: `blockmaze --help` at most 2x `import numpy`; `blockmaze generate 10x10` at most 1.5x a
mazelib script that builds and prints a 10x10 maze (mazelib from the `bench` extra; the row says
so when it is missing). Also the first kernel call with numba forced (cache warm), the cost that
small jobs now skip, and a million-cell maze written to .schem (the README's last row).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

MAZELIB = """
from mazelib import Maze
from mazelib.generate.BacktrackingGenerator import BacktrackingGenerator
m = Maze(7)
m.generator = BacktrackingGenerator(10, 10)
m.generate()
print(m)
"""


def best_wall(argv: list[str], runs: int, env: dict | None = None) -> float:
    """Best wall seconds of ``runs`` fresh runs of ``argv`` (output discarded)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       env=env, cwd=tempfile.gettempdir())
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 runs of each instead of 9")
    runs = 3 if parser.parse_args().quick else 9
    python = sys.executable
    exe = shutil.which("blockmaze", path=os.path.dirname(python)) or shutil.which("blockmaze")
    command = [exe] if exe else [python, "-m", "blockmaze"]

    numpy = best_wall([python, "-c", "import numpy"], runs)
    rows = [("python -c 'import numpy'", numpy, "")]
    helped = best_wall(command + ["--help"], runs)
    rows.append(("blockmaze --help", helped, f"<= {2 * numpy:.2f} s (2x numpy): "
                 + ("met" if helped <= 2 * numpy else "MISSED")))
    rows.append(("blockmaze generate --help", best_wall(command + ["generate", "--help"], runs), ""))
    small = best_wall(command + ["generate", "10x10", "--seed", "1"], runs)
    try:
        import mazelib  # noqa: F401

        reference = best_wall([python, "-c", MAZELIB], runs)
        rows.append(("mazelib 10x10 script (build and print)", reference, ""))
        target = f"<= {1.5 * reference:.2f} s (1.5x mazelib): " + ("met" if small <= 1.5 * reference else "MISSED")
    except ImportError:
        target = "mazelib not installed (pip install '.[bench]')"
    rows.append(("blockmaze generate 10x10", small, target))
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "m.schem")
        rows.append(("blockmaze generate 10x10 -o m.schem",
                     best_wall(command + ["generate", "10x10", "--seed", "1", "-o", out], runs), ""))
        forced = dict(os.environ, BLOCKMAZE_KERNELS="numba")
        best_wall(command + ["generate", "10x10", "--seed", "1", "-o", out], 1, forced)  # warm cache
        rows.append(("same with numba forced (warm cache)",
                     best_wall(command + ["generate", "10x10", "--seed", "1", "-o", out], runs, forced),
                     "the load cost small jobs skip"))
        big = max(1, runs // 3)
        rows.append((f"blockmaze generate 1000x1000 -o m.schem (best of {big})",
                     best_wall(command + ["generate", "1000x1000", "--seed", "1", "-o", out], big), ""))

    width = max(len(r[0]) for r in rows)
    print(f"| {'command (best of ' + str(runs) + ' fresh runs)':<{width}} | wall | target |")
    print(f"|{'-' * (width + 2)}|------|--------|")
    for name, seconds, target in rows:
        print(f"| {name:<{width}} | {seconds:.3f} s | {target} |")
    missed = [name for name, _, target in rows if "MISSED" in target]
    print(f"\nsummary: {'MISSED: ' + ', '.join(missed) if missed else 'every target met'}")


if __name__ == "__main__":
    main()
