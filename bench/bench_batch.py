"""blockmaze batch beside one-at-a-time bm.generate and maze-dataset: 17x17 mazes with their
solutions a second; prints a markdown table beside issue 53's targets.

    python bench/bench_batch.py            # 1,000,000 mazes to Parquet (the target's run)
    python bench/bench_batch.py --quick    # 5,000 mazes, a smoke run (CI's)

How each is timed (wall clock, this machine's two cores):

- **bm.generate, one at a time**: ``pipeline.make_maze`` (what ``blockmaze generate`` makes:
  grid, carve, start and goal) and the solution path, a call per maze in this process, kernels
  as the library chooses them for a maze this small (plain Python) and forced compiled.
- **blockmaze batch**: the command itself in a child process (``python -m blockmaze batch
  generate 17x17 -n N -o OUT.parquet --workers W``), its start, numba's load in each worker and
  the Parquet writing included; peak memory is the largest resident set of the command or any
  worker (``RUSAGE_CHILDREN``).
- **maze-dataset** (``pip install maze-dataset``; it needs ``muutils<0.9`` today): its own
  ``MazeDataset.from_config`` with ``gen_dfs`` at ``grid_n=17`` (the same size in cells; its
  solved mazes hold their solutions), serial and with ``gen_parallel=True`` (all cores), not
  saved; a smaller N, its rate scaled.
- **per-item overhead**: the batch's one-worker CPU time a maze (the command's and its
  worker's) less the maze's own work timed alone by CPU (carve, start and goal, solution
  through the library's compiled kernels).

The last line says which targets were met (MISSED otherwise); the run never fails on a target.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SIZE = 17
TARGET_SECONDS = 120.0  # 1,000,000 mazes
TARGET_MEMORY = 1 << 30
TARGET_RATIO = 50.0  # ours over maze-dataset's rate, both with all cores


def one_at_a_time(count: int, mode: str | None) -> float:
    """Mazes a second through make_maze and the solution, one call each."""
    from blockmaze.pipeline import make_maze
    from blockmaze.support.kernels import forced

    with forced(mode):
        make_maze((SIZE, SIZE), seed=0)
        start = time.perf_counter()
        for seed in range(count):
            document = make_maze((SIZE, SIZE), seed=seed)
            document.endpoints.route(document.maze)
        return count / (time.perf_counter() - start)


def maze_work(count: int) -> float:
    """CPU seconds a maze of the maze's own work (grid and layout made once), compiled: the one
    call a batch makes for it (:func:`blockmaze.mazes.plain.plain_maze`: its seed's Generator,
    the carve, the ends, the solution)."""
    import numpy as np

    from blockmaze.mazes.generation import make_grid
    from blockmaze.mazes.plain import PlainLayout, plain_maze
    from blockmaze.support.kernels import forced

    layout = PlainLayout.of(make_grid((SIZE, SIZE)))
    with forced("numba"):
        plain_maze(layout, np.random.default_rng(0))
        start = time.process_time()
        for seed in range(count):
            plain_maze(layout, np.random.default_rng(seed))
        return (time.process_time() - start) / count


def batch_run(count: int, workers: int, folder: Path) -> tuple[float, float, int, str]:
    """The command's wall seconds and CPU seconds (its and its workers': on a shared machine
    the wall clock counts other programs' turns), the peak resident bytes of any of them, and
    the hash it reports."""
    out = folder / f"w{workers}.parquet"
    command = [sys.executable, "-m", "blockmaze", "-q", "batch", "generate", f"{SIZE}x{SIZE}",
               "-n", str(count), "--seed", "1", "--workers", str(workers), "-o", str(out),
               "--shard-size", str(max(100, min(10_000, count // 20)))]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    if done.returncode:
        sys.exit(f"bench_batch: {' '.join(command)} failed: {done.stderr}")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    return seconds, cpu, peak, done.stderr.rsplit("hash ", 1)[-1].strip()


def maze_dataset_rate(count: int, parallel: bool) -> float | str:
    """maze-dataset's mazes a second, or why there is no figure."""
    try:
        from maze_dataset import LatticeMazeGenerators, MazeDataset, MazeDatasetConfig
    except ImportError as error:
        return f"not installed ({error.__class__.__name__})"
    config = MazeDatasetConfig(name="bench", grid_n=SIZE, n_mazes=count,
                               maze_ctor=LatticeMazeGenerators.gen_dfs)
    start = time.perf_counter()
    made = MazeDataset.from_config(config, load_local=False, save_local=False,
                                   do_download=False, gen_parallel=parallel, verbose=False)
    seconds = time.perf_counter() - start
    assert len(made) == count and made[0].solution is not None
    return count / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run")
    parser.add_argument("--count", type=int, help="mazes a batch run (default 1,000,000)")
    args = parser.parse_args()
    count = args.count or (5_000 if args.quick else 1_000_000)
    theirs_count = 50 if args.quick else 2_000
    rows = []
    missed = []

    singles = 200 if args.quick else 5_000
    python_rate = one_at_a_time(singles, None)
    compiled_rate = one_at_a_time(singles, "numba")
    rows.append(("bm.generate one at a time (library's choice)", f"{python_rate:,.0f}", "-", "-"))
    rows.append(("bm.generate one at a time (compiled kernels)", f"{compiled_rate:,.0f}", "-", "-"))

    hashes = set()
    figures = {}
    cpus = {}
    with tempfile.TemporaryDirectory() as folder:
        for workers in (1, 2):
            seconds, cpu, peak, digest = batch_run(count, workers, Path(folder))
            hashes.add(digest)
            figures[workers] = count / seconds
            cpus[workers] = cpu / count
            scaled = seconds * 1_000_000 / count
            met = "met" if scaled <= TARGET_SECONDS and peak <= TARGET_MEMORY else "MISSED"
            if workers == 2 and met == "MISSED":
                missed.append("1,000,000 in 2 minutes under 1 GiB")
            rows.append((f"blockmaze batch --workers {workers} ({count:,} mazes)",
                         f"{count / seconds:,.0f}",
                         f"{seconds:.1f} s ({scaled:.0f} s a million), {cpu:.1f} CPU s "
                         f"({cpu / count * 1e6:.0f} us a maze), peak {peak / 2**20:.0f} MiB",
                         f"<= {TARGET_SECONDS:.0f} s a million, <= 1 GiB: {met}"
                         if workers == 2 else "-"))
    if len(hashes) != 1:
        missed.append("hashes equal")
    rows.append(("hash, 1 and 2 workers", "-", "equal" if len(hashes) == 1 else "DIFFER", "all equal"))

    work = maze_work(singles)
    per_item = cpus[1]  # CPU time: on a shared machine the wall clock counts others' turns
    rows.append(("per item, CPU: the maze's own work (one compiled call)", "-", f"{work * 1e6:.0f} us",
                 "-"))
    rows.append(("per item, CPU: the rest (seeds, options, rows, Parquet, start-up)", "-",
                 f"{(per_item - work) * 1e6:.0f} us", "-"))

    for parallel in (False, True):
        rate = maze_dataset_rate(theirs_count, parallel)
        label = f"maze-dataset {'all cores' if parallel else 'one process'} ({theirs_count:,})"
        if isinstance(rate, str):
            rows.append((label, rate, "-", "-"))
            continue
        ours = figures[2 if parallel else 1]
        ratio = ours / rate
        met = "met" if ratio >= TARGET_RATIO else "MISSED"
        if met == "MISSED":
            missed.append(f"{TARGET_RATIO:.0f}x maze-dataset ({label})")
        rows.append((label, f"{rate:,.0f}", f"ours {ratio:,.0f}x theirs",
                     f">= {TARGET_RATIO:.0f}x: {met}"))

    print(f"| what | mazes a second ({SIZE}x{SIZE}, solutions) | figures | target |")
    print("|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print(f"\nsummary: {'MISSED: ' + ', '.join(missed) if missed else 'every target met'}",
          flush=True)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONWARNINGS", "ignore")
    main()
