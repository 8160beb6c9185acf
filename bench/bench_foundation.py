"""Benchmark of the foundation pipeline; prints a Markdown table.

    python bench/bench_foundation.py            # full run (about a minute)
    python bench/bench_foundation.py --quick    # smaller sizes, for a smoke test

Measures the backtracker kernel (cells/s after compilation, and the first call apart: cold
compile and warm cache, each in a fresh process), the 2n+1 conversion and extrusion, the .schem
writers, and the whole command `blockmaze generate 1000x1000 -o m.schem` (wall time, peak memory).
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

import blockmaze as bm
from blockmaze.algorithms.backtracker import carve
from timing import best

FIRST_CALL = """
import time, numpy as np
t = time.perf_counter()
from blockmaze.algorithms.backtracker import carve
from blockmaze.grids import square_grid
imported = time.perf_counter()
carve(square_grid(10, 10), np.random.default_rng(0))
print(imported - t, time.perf_counter() - imported)
"""


def first_call_seconds(cache_dir: str) -> tuple[float, float]:
    """(import seconds, first kernel call seconds) in a fresh interpreter using ``cache_dir``."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir, BLOCKMAZE_KERNELS="numba")
    out = subprocess.run([sys.executable, "-c", FIRST_CALL], env=env, capture_output=True,
                         text=True, check=True).stdout.split()
    return float(out[0]), float(out[1])


# Runs the command from a small wrapper process: a child forked straight from this benchmark would
# count this process's pages (before exec) in its peak memory.
MEASURE = """
import resource, subprocess, sys, time
start = time.perf_counter()
subprocess.run(sys.argv[1:], check=True, stderr=subprocess.DEVNULL)
print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def command_run(args: list[str], cwd: str) -> tuple[float, float]:
    """(wall seconds, peak RSS in MiB) of one run of the blockmaze command in a fresh process."""
    exe = shutil.which("blockmaze", path=os.path.dirname(sys.executable)) or shutil.which("blockmaze")
    argv = [exe] + args if exe else [sys.executable, "-m", "blockmaze"] + args
    out = subprocess.run([sys.executable, "-c", MEASURE] + argv, cwd=cwd, capture_output=True,
                         text=True, check=True).stdout.split()
    return float(out[0]), float(out[1]) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes only")
    quick = parser.parse_args().quick
    sides = [100, 300] if quick else [100, 1000, 3000]
    big = 300 if quick else 1000
    rows = []

    with tempfile.TemporaryDirectory() as cache:
        imported, cold = first_call_seconds(cache)
        _, warm = first_call_seconds(cache)
    rows.append(("import blockmaze (fresh process)", f"{imported:.2f} s", ""))
    rows.append(("backtracker first call, cold (compile)", f"{cold:.2f} s", ""))
    rows.append(("backtracker first call, warm cache", f"{warm:.3f} s", ""))

    for side in sides:
        grid = bm.square_grid(side, side)
        rng = np.random.default_rng(1)
        bm.generate(grid, rng=rng)
        for what, run in (("kernel", lambda: carve(grid, rng)), ("generate()", lambda: bm.generate(grid, rng=rng))):
            seconds = best(run, 5 if side < 3000 else 3).wall
            target = ">= 25 M/s" if side == 1000 else ""
            rows.append((f"backtracker {what} {side}x{side}", f"{side * side / seconds / 1e6:.1f} M cells/s "
                         f"({seconds * 1000:.1f} ms)", target))

    maze = bm.generate((big, big), rng=1)
    seconds = best(lambda: bm.to_blocks(maze), 3).wall
    rows.append((f"2n+1 conversion {big}x{big}", f"{seconds * 1000:.1f} ms", ""))
    seconds = best(lambda: bm.to_blocks(maze, wall=2, passage=3), 3).wall
    rows.append((f"2n+1 conversion {big}x{big}, wall 2 passage 3", f"{seconds * 1000:.1f} ms", ""))
    volume = bm.extrude(bm.to_blocks(maze), height=3)
    seconds = best(lambda: bm.extrude(bm.to_blocks(maze), height=3), 3).wall
    rows.append((f"conversion + extrusion {big}x{big} (height 3)", f"{seconds * 1000:.1f} ms", ""))
    for version in (2, 3):
        seconds = best(lambda: bm.write(volume, io.BytesIO(), format="schem",
                                        schem_version=version), 3).wall
        rows.append((f".schem v{version} write {big}x{big} ({volume.size / 1e6:.0f} M blocks)",
                     f"{seconds:.2f} s", ""))

    with tempfile.TemporaryDirectory() as folder:
        args = ["generate", f"{big}x{big}", "--seed", "1", "-o", "m.schem"]
        command_run(args, folder)  # warms the numba cache
        runs = [command_run(args, folder) for _ in range(3)]
    wall = min(r[0] for r in runs)
    peak = max(r[1] for r in runs)
    rows.append((f"`blockmaze generate {big}x{big} -o m.schem`", f"{wall:.2f} s", "< 4 s"))
    rows.append(("peak memory of that command", f"{peak:.0f} MiB", "< 1024 MiB"))

    width = max(len(r[0]) for r in rows)
    print(f"| {'measure':<{width}} | result | target |")
    print(f"|{'-' * (width + 2)}|--------|--------|")
    for name, result, target in rows:
        print(f"| {name:<{width}} | {result} | {target} |")


if __name__ == "__main__":
    main()
