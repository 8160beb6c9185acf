"""Every generation algorithm's speed, beside mazelib's where mazelib has the algorithm.

    python bench/bench_algorithms.py            # 100², 300², 1000², 3000² (a few minutes)
    python bench/bench_algorithms.py --quick    # 100² and 300² only, mazelib once a size
                                                # (15 s limit): a smoke run, not the README figures

Both libraries are timed the same way: warm (blockmaze's kernels compiled, mazelib imported and
run once on a small maze first), the grid built inside the timer (``bm.generate((n, n))``,
mazelib's ``generate()``), best of the same number of runs. mazelib is measured only if installed
in this environment (``pip install '.[bench]'``), in a child process with a time limit, because
several of its generators take minutes at 300² and do not finish at 1000². The last line gives
the backtracker's time for a million cells, the figure the README states.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

import blockmaze as bm
from blockmaze.algorithms import ALGORITHMS, algorithm_specs

# our spec -> mazelib generator class (module and class share the name)
MAZELIB = {
    "backtracker": "BacktrackingGenerator",
    "hunt-and-kill": "HuntAndKill",
    "aldous-broder": "AldousBroder",
    "wilson": "Wilsons",
    "kruskal": "Kruskal",
    "prim-simplified": "Prims",
    "growing-tree": "GrowingTree",
    "eller": "Ellers",
    "binary-tree": "BinaryTree",
    "sidewinder": "Sidewinder",
    "recursive-division": "Division",
}
MAZELIB_RUN = """
import sys, time
from importlib import import_module
from mazelib import Maze
name, side, repeats = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
generator = getattr(import_module("mazelib.generate." + name), name)
warm = Maze()
warm.generator = generator(4, 4)
warm.generate()  # imports and first-call costs, as blockmaze's kernels are compiled first
for _ in range(repeats):
    maze = Maze()
    maze.generator = generator(side, side)
    start = time.perf_counter()
    maze.generate()  # builds its grid, as bm.generate((side, side)) does
    print(time.perf_counter() - start, flush=True)
"""
MAZELIB_LIMIT = 60.0  # seconds per run
QUICK_MAZELIB_LIMIT = 15.0  # --quick (a smoke run): one mazelib run per size, stopped sooner


def has_mazelib() -> bool:
    try:
        import mazelib  # noqa: F401
    except ImportError:
        return False
    return True


def repeats_for(side: int) -> int:
    return 3 if side <= 1000 else 1


def ours(spec: str, side: int) -> float:
    """Best seconds of a few runs after compilation, the grid built inside the timer."""
    bm.generate((4, 4), algorithm=spec, rng=0)  # compile / load from cache
    best = float("inf")
    for seed in range(repeats_for(side)):
        start = time.perf_counter()
        bm.generate((side, side), algorithm=spec, rng=seed)
        best = min(best, time.perf_counter() - start)
    return best


def theirs(name: str, side: int, repeats: int, limit: float) -> float | str:
    """mazelib's best seconds of ``repeats`` runs (those done within ``limit`` seconds); "timeout"
    if none finished, "fails" if it raises."""
    try:
        out = subprocess.run([sys.executable, "-c", MAZELIB_RUN, name, str(side), str(repeats)],
                             capture_output=True, text=True, timeout=limit, check=True).stdout
    except subprocess.TimeoutExpired as stopped:
        out = stopped.stdout.decode() if isinstance(stopped.stdout, bytes) else (stopped.stdout or "")
        if not out.split():
            return "timeout"
    except subprocess.CalledProcessError:
        return "fails"
    return min(float(line) for line in out.split())


def rate(cells: int, seconds: float | str, limit: float = MAZELIB_LIMIT) -> str:
    if seconds == "timeout":
        return f"> {limit:.0f} s"
    if seconds == "fails":
        return "raises an error"
    return f"{cells / seconds / 1e6:.2f} M/s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100² and 300² only")
    quick = parser.parse_args().quick
    sides = [100, 300] if quick else [100, 300, 1000, 3000]
    mazelib_sides = [100, 300]
    limit = QUICK_MAZELIB_LIMIT if quick else MAZELIB_LIMIT
    compare = has_mazelib()
    header = ["algorithm"] + [f"{s}²" for s in sides]
    if compare:
        header += [f"mazelib {s}²" for s in mazelib_sides] + ["ours / mazelib at 300²"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for spec in algorithm_specs():
        row = [spec]
        times = {side: ours(spec, side) for side in sides}
        row += [rate(side * side, times[side]) for side in sides]
        if compare:
            name = MAZELIB.get(spec)
            if name is None:
                row += ["-"] * (len(mazelib_sides) + 1)
            else:
                theirs_times = {side: theirs(name, side, 1 if quick else repeats_for(side), limit)
                                for side in mazelib_sides}
                row += [rate(side * side, theirs_times[side], limit) for side in mazelib_sides]
                t300 = theirs_times[300]
                row.append(f"> {limit / times[300]:.0f}x" if t300 == "timeout"
                           else "-" if t300 == "fails" else f"{t300 / times[300]:.0f}x")
        print("| " + " | ".join(row) + " |", flush=True)
    if not compare:
        print("\nmazelib is not installed here: pip install '.[bench]' to compare with it.")
    million = ours("backtracker", 1000)
    print(f"\nbacktracker, a million cells (1000x1000), grid built in the timer: {million * 1000:.0f} ms")
    kinds = {name: sorted(a.grid_kinds) if a.grid_kinds else "any" for name, a in ALGORITHMS.items()}
    print("\nGrid kinds:", ", ".join(f"{n} ({k if k == 'any' else '/'.join(k)})" for n, k in kinds.items()))


if __name__ == "__main__":
    main()
