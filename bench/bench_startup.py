"""How fast the command starts: small jobs against `python -c "import numpy"` and mazelib, and
every output family's first run (empty caches) and next runs.

    python bench/bench_startup.py            # 9 runs of each (a few minutes)
    python bench/bench_startup.py --quick    # 3 runs of each, for a smoke test

Each row is the best wall time of fresh processes (imports, numba and all), beside the issue's
targets: `blockmaze --help` at most 2x `import numpy`. `blockmaze generate 10x10` is shown beside
a mazelib script that builds and prints a 10x10 maze (mazelib from the `test` extra); its target
(at most 1.0x, in paired runs) is bench_peers.py's. Also the first kernel call with numba forced (cache warm), the cost that
small jobs now skip, and a million-cell maze written to .schem (the README's last row).

The second table runs each output family twice per maze size: *cold* is the first run after an
install, with empty caches (every ``__pycache__`` under the package removed, so no bytecode and no
numba cache, and ``NUMBA_CACHE_DIR`` a fresh folder), *warm* the best of the runs after it.
Targets: 30x30, every output cold <= 3 s; 100x100 warm .schem .glb .tmx .png .litematic <= 4x
`import numpy`; 1000x1000 .schem <= 1.5 s. Last, `blockmaze info` on a 500x500 world: <= 2 s.
"""

from __future__ import annotations

import argparse
import os
import resource
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


FAMILIES = {  # output family -> the -o name that picks it
    "Sponge .schem": "m.schem", "Litematica .litematic": "m.litematic",
    "structure .nbt": "m.nbt", "datapack .zip": "m.zip", "Java world (folder)": "world/",
    "glTF .glb": "m.glb", "Tiled .tmx": "m.tmx", "picture .png": "m.png",
}


def empty_caches(env: dict) -> dict:
    """``env`` with a fresh numba cache folder, after removing the package's ``__pycache__``s."""
    import blockmaze

    for root in blockmaze.__path__:
        for folder, subfolders, _ in os.walk(root):
            if "__pycache__" in subfolders:
                shutil.rmtree(os.path.join(folder, "__pycache__"), ignore_errors=True)
    return dict(env, NUMBA_CACHE_DIR=tempfile.mkdtemp(prefix="numba-cold-"))


def timed(argv: list[str], env: dict | None = None) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of one fresh run of ``argv``: on a shared machine the
    CPU time is the steadier of the two."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = best_wall(argv, 1, env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def cold_and_warm(command: list[str], size: str, name: str, runs: int) -> tuple[tuple, tuple]:
    """(wall, CPU) seconds of the first run on empty caches, and the best of ``runs`` runs after it."""
    env = empty_caches(dict(os.environ))
    times = []
    try:
        for _ in range(1 + runs):
            with tempfile.TemporaryDirectory() as folder:  # a new one each run: worlds never overwrite
                argv = command + ["-q", "generate", size, "--seed", "1", "-o", os.path.join(folder, name)]
                times.append(timed(argv, env))
    finally:
        shutil.rmtree(env["NUMBA_CACHE_DIR"], ignore_errors=True)
    return times[0], min(times[1:])


def family_table(command: list[str], numpy: float, runs: int) -> list[tuple]:
    """Rows (output, size, cold, warm, target) of every output family at the target sizes."""
    rows = []
    for family, name in FAMILIES.items():
        cold, warm = cold_and_warm(command, "30x30", name, runs)
        rows.append((family, "30x30", cold, warm, f"cold <= 3 s: {'met' if cold[0] <= 3 else 'MISSED'}"))
    limit = 4 * numpy[0]
    for family, name in FAMILIES.items():
        if name in ("m.schem", "m.glb", "m.tmx", "m.png", "m.litematic"):
            cold, warm = cold_and_warm(command, "100x100", name, runs)
            rows.append((family, "100x100", cold, warm, f"warm <= {limit:.2f} s (4x numpy): "
                         + ("met" if warm[0] <= limit else "MISSED") + f"; CPU {warm[1] / numpy[1]:.1f}x numpy's"))
    cold, warm = cold_and_warm(command, "1000x1000", "m.schem", min(runs, 3))
    rows.append(("Sponge .schem", "1000x1000", cold, warm,
                 f"warm <= 1.5 s: {'met' if warm[0] <= 1.5 else 'MISSED'}"))
    return rows


def world_info(command: list[str], runs: int) -> tuple[float, float]:
    """(wall, CPU) seconds of the best of ``runs`` runs of ``blockmaze info`` on a 500x500 world."""
    with tempfile.TemporaryDirectory() as folder:
        world = os.path.join(folder, "world")
        subprocess.run(command + ["-q", "generate", "500x500", "--seed", "1", "-o", world + "/"], check=True,
                       stdout=subprocess.DEVNULL)
        return min(timed(command + ["info", world]) for _ in range(runs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 runs of each instead of 9")
    runs = 3 if parser.parse_args().quick else 9
    # as installed: bytecode cached after the first run (pip writes it at install time)
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
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
        target = f"{small / reference:.2f}x mazelib (the target: bench_peers.py, paired)"
    except ImportError:
        target = "mazelib not installed (pip install '.[test]')"
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
    print()
    numpy_times = min(timed([python, "-c", "import numpy"]) for _ in range(runs))
    print(f"`import numpy`: {numpy_times[0]:.2f} s wall, {numpy_times[1]:.2f} s CPU (best of {runs})")
    print()
    print(f"| output (blockmaze generate SIZE -o ...) | size | cold (empty caches): wall / CPU "
          f"| warm (best of {runs}): wall / CPU | target |")
    print("|---|---|---|---|---|")
    families = family_table(command, numpy_times, runs)
    for family, size, cold, warm, target in families:
        print(f"| {family} | {size} | {cold[0]:.2f} / {cold[1]:.2f} s | {warm[0]:.2f} / {warm[1]:.2f} s | {target} |")
    info = world_info(command, runs)
    print(f"\n`blockmaze info` on a 500x500 world (best of {runs}): {info[0]:.2f} s wall, {info[1]:.2f} s CPU; "
          f"target <= 2 s: {'met' if info[0] <= 2 else 'MISSED'}")
    missed = [name for name, _, target in rows if "MISSED" in target]
    missed += [f"{family} {size}" for family, size, _, _, target in families if "MISSED" in target]
    missed += ["info on a 500x500 world"] if info[0] > 2 else []
    print(f"\nsummary: {'MISSED: ' + ', '.join(missed) if missed else 'every target met'}")


if __name__ == "__main__":
    main()
