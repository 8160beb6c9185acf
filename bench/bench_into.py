"""--into WORLD against a new world, and the kill test, Java and Bedrock; prints Markdown tables.

    python bench/bench_into.py            # a 200x200 maze into a 1001x1001-block world, 3 runs each,
                                          # and SIGKILL at 200 random moments of --into
    python bench/bench_into.py --kills 40 --runs 1   # quicker
    python bench/bench_into.py --quick    # CI smoke run: one run each, 10 kills
    python bench/bench_into.py --edition bedrock   # the Bedrock world folder alone

The existing world is ``blockmaze generate 500x500 -f world --terrain grass`` (1001x1001 blocks,
63x63 chunks in 4 region files). Each timed run is the whole command in a fresh process, on a fresh
copy of that world (copying it is not timed): ``generate 200x200 --seed 1 --into W --at 500,500
--y -60`` against ``generate 200x200 --seed 1 -f world -o New``, and ``--into`` without ``--y``
with ``--terrain flat`` against ``--terrain follow --clear trees,water`` (issue 51, item 2: the
ground read block by block under the footprint, the volume made to follow it). The kill test is
tests/test_into.py's: a world of four region files, a 30x30 maze reaching all four, SIGKILL at a
random moment (half over the whole run, half over its last 30 %), then the next run's recovery,
then the world's files compared with the world before and with a whole run's. The same for a
Bedrock world folder (``-f mcworld`` unzipped; against ``-f mcworld``), its kill test
tests/test_into_bedrock.py's (records read with Mojang's LevelDB). Benches print; they never
fail on a time.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

COMMAND = [sys.executable, "-m", "blockmaze"]


def timed(args: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run([*COMMAND, *args], check=True, capture_output=True, stdin=subprocess.DEVNULL)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--quick", action="store_true", help="one run each, 10 kills")
    parser.add_argument("--edition", choices=("java", "bedrock", "both"), default="both")
    options = parser.parse_args()
    if options.quick:
        options.runs, options.kills = 1, 10
    maze = ["generate", "200x200", "--seed", "1"]
    with tempfile.TemporaryDirectory(prefix="bench-into-") as scratch:
        scratch_path = Path(scratch)
        if options.edition in ("java", "both"):
            edition(scratch_path / "java", maze, options, java_world, "world", "")
        if options.edition in ("bedrock", "both"):
            edition(scratch_path / "bedrock", maze, options, bedrock_world, "mcworld", " (Bedrock)")


def java_world(folder: Path) -> tuple[Path, str]:
    """``generate 500x500 -f world --terrain grass``: the world, what it is, and its kill test."""
    source = folder / "source"
    made = timed(["generate", "500x500", "--seed", "7", "-f", "world", "-o", str(source),
                  "--terrain", "grass"])
    return source, (f"existing world: 1001x1001 blocks, {len(list((source / 'region').iterdir()))} "
                    f"region files, made in {made:.1f} s")


def bedrock_world(folder: Path) -> tuple[Path, str]:
    """``generate 500x500 -f mcworld --terrain grass`` unzipped (1001x1001 blocks, 63x63 chunks)."""
    import zipfile

    archive = folder / "source.mcworld"
    made = timed(["generate", "500x500", "--seed", "7", "-f", "mcworld", "-o", str(archive),
                  "--terrain", "grass"])
    source = folder / "source"
    with zipfile.ZipFile(archive) as opened:
        opened.extractall(source)
    size = sum(p.stat().st_size for p in (source / "db").iterdir()) / 1e6
    return source, f"existing Bedrock world: 1001x1001 blocks, its db {size:.0f} MB, made in {made:.1f} s"


def edition(folder: Path, maze: list[str], options, make, new_format: str, label: str) -> None:
    """One edition's tables: the maze into a copy of the world ``make`` writes against written as
    a new world of ``new_format``, then the kill test (tests/test_into.py's for Java,
    tests/test_into_bedrock.py's for Bedrock)."""
    folder.mkdir()
    source, said = make(folder)
    suffix = ".mcworld" if new_format == "mcworld" else ""
    into, new, flat, follow = [], [], [], []
    for run in range(options.runs):
        world = folder / f"W{run}"
        shutil.copytree(source, world)
        into.append(timed([*maze, "--into", str(world), "--at", "500,500", "--y", "-60"]))
        for ground, times in ((["--terrain", "flat"], flat),
                              (["--terrain", "follow", "--clear", "trees,water"], follow)):
            if new_format != "world":  # (follow is for Java worlds)
                break
            shutil.rmtree(world)
            shutil.copytree(source, world)
            times.append(timed([*maze, "--into", str(world), "--at", "500,500", *ground]))
        new.append(timed([*maze, "-f", new_format, "-o", str(folder / f"New{run}{suffix}"),
                          "--terrain", "grass"]))
    print(f"{said}\n")
    print(f"| 200x200 maze (401x4x401 blocks){label} | median s | runs |")
    print("|---|---|---|")
    print(f"| --into the existing world | {statistics.median(into):.2f} | "
          f"{', '.join(f'{t:.2f}' for t in into)} |")
    print(f"| as a new world (-f {new_format}) | {statistics.median(new):.2f} | "
          f"{', '.join(f'{t:.2f}' for t in new)} |")
    print(f"| ratio | {statistics.median(into) / statistics.median(new):.2f} | |")
    if flat:
        print(f"| --into, no --y: --terrain flat (on the ground's median) | "
              f"{statistics.median(flat):.2f} | {', '.join(f'{t:.2f}' for t in flat)} |")
        print(f"| --into --terrain follow --clear trees,water | {statistics.median(follow):.2f} | "
              f"{', '.join(f'{t:.2f}' for t in follow)} |")
        print(f"| follow / flat | {statistics.median(follow) / statistics.median(flat):.2f} | |")
    print()
    if new_format == "mcworld":
        from test_into_bedrock import kill_test
    else:
        from test_into import kill_test

    started = time.perf_counter()
    counts = kill_test(folder / "kills", options.kills, seed=51)
    print(f"| SIGKILL at {options.kills} random moments of --into{label} | worlds |")
    print("|---|---|")
    for outcome, count in counts.items():
        print(f"| {outcome} | {count} |")
    print(f"\n({time.perf_counter() - started:.0f} s)\n")


if __name__ == "__main__":
    main()
