"""Measuring the memory a step really takes: in a child process, the peak resident memory (VmHWM,
reset just before the step through /proc/self/clear_refs) above what was resident before it.

Used by ``bench/bench_memory.py`` (which derives the table in :mod:`blockmaze.support.memory`) and by
``tests/test_memory_estimates.py`` (which checks the table against new measurements).
"""

from __future__ import annotations

import json
import subprocess
import sys

CHILD = r"""
import json, os, sys, tempfile, warnings
import numpy as np
import blockmaze as bm
from blockmaze.export import FORMATS
from blockmaze.support.memory import units_of

warnings.simplefilter("ignore")
kind, n = sys.argv[1], int(sys.argv[2])

def status(field):
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) * 1024 for l in f if l.startswith(field + ":"))

def reset_peak():
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")

from blockmaze.support import kernels
warm = kernels.forced("numba")  # compile (or load) every kernel on the warm-up calls, not in the step
warm.__enter__()
bm.generate((4, 4), rng=0)  # JIT and imports first
folder = tempfile.mkdtemp()
if kind == "generate":
    step = lambda: bm.generate((n, n), rng=1)
    units = n * n
else:
    maze = bm.generate((n, n), rng=1)
    if kind == "document":
        step = lambda: bm.save_maze(bm.MazeDocument(maze, seed=1), os.path.join(folder, "m.json"))
        units = n * n
    elif kind == "pdf":
        from blockmaze.export.pdf import write_pdf
        step = lambda: write_pdf(bm.MazeDocument(maze, seed=1), os.path.join(folder, "m.pdf"), None)
        write_pdf(bm.MazeDocument(bm.generate((3, 3), rng=0)), os.path.join(folder, "w.pdf"), None)
        units = n * n
    elif kind in ("png", "svg"):
        from blockmaze.export.pictures import render_png, render_svg
        writer = render_png if kind == "png" else render_svg
        step = lambda: writer(maze, os.path.join(folder, "m." + kind), cell_size=2)
        units = units_of(kind, maze=maze, cell_size=2)
    elif FORMATS[kind].source == "maze":  # a writer of the maze itself (piece lists, kit scenes)
        path = os.path.join(folder, "m" + FORMATS[kind].suffixes[0])
        step = lambda: bm.save(bm.MazeDocument(maze, seed=1), path, format=kind)
        bm.save(bm.MazeDocument(bm.generate((3, 3), rng=0), seed=1), path, format=kind)  # warm
        units = n * n
    else:
        row = FORMATS[kind]
        plan = bm.to_blocks(maze)
        data = plan[None] if row.source == "plan" else bm.extrude(plan, height=3)
        step = lambda: bm.write(data, os.path.join(folder, "m" + row.suffixes[0]), format=kind)
        units = data.size
        if kind in ("tmx", "tmj"):  # warm the tile set image and imports on a tiny map
            bm.write(plan[None, :3, :3], os.path.join(folder, "w" + row.suffixes[0]), format=kind)
        else:
            bm.write(data[:, :3, :3], os.path.join(folder, "w" + row.suffixes[0]), format=kind)
warm.__exit__(None, None, None)
before = status("VmRSS")
reset_peak()
step()
print(json.dumps({"units": units, "peak": status("VmHWM") - before}))
"""


def measure(kind: str, n: int) -> tuple[int, int]:
    """(units, peak bytes above the input) for ``kind`` ("generate", "document", "png", "svg", "pdf" or
    a format name) on an n x n square maze."""
    out = subprocess.run([sys.executable, "-c", CHILD, kind, str(n)], capture_output=True, text=True)
    if out.returncode:
        raise RuntimeError(out.stderr[-2000:])
    result = json.loads(out.stdout.strip().splitlines()[-1])
    return result["units"], result["peak"]


def within(kind: str, n: int, tolerance: float, attempts: int = 3) -> tuple[int, list[int], int]:
    """Whether the table's estimate is within ``tolerance`` of the step's peak, measured up to
    ``attempts`` times: (units, the peaks measured, the estimate); the last peak is within
    tolerance, or every attempt missed.

    One run's peak depends on its threads' timing as well as on its work: blocks a writer
    deflates on worker threads are in flight or done, and a busy machine changes which
    (``test_memory_estimates[schem]`` once measured 9.4 MB where the step's usual peak is 10.7
    MB). The step reaches the estimate's peak in one run of a few; ``bench/bench_memory.py
    --load`` counts how often one run misses under a second CPU load.
    """
    from blockmaze.support.memory import estimate

    peaks: list[int] = []
    for _ in range(attempts):
        units, peak = measure(kind, n)
        peaks.append(peak)
        if abs(estimate(kind, units) - peak) <= tolerance * peak:
            break
    return units, peaks, estimate(kind, units)


# n for each kind: (fit, check, check); big enough that the peak is tens of MB (tile maps and
# cells cost few bytes each), small enough to run in seconds
_BIG = (1200, 800, 1680)
SIZES = {"default": (300, 200, 420), "generate": _BIG, "document": _BIG,
         **{name: _BIG for name in ("tmx", "tmj", "ascii", "tilemap", "npz", "xp")}}


def sizes(kind: str) -> tuple[int, int, int]:
    return SIZES.get(kind, SIZES["default"])
