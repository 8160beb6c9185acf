"""``blockmaze info FILE --analysis`` on the files blockmaze writes, read back as their block plan
(issue 54, item 1): wall time and peak memory of each read, in its own process, per format,
beside the maze document's (the same maze, read whole). No target is set in the issue; the
column beside says whether the measures equal the document's.

    python bench/bench_analysis_files.py            # a 150x150 maze (301x301 blocks, 5 high)
    python bench/bench_analysis_files.py --size 60  # another size
    python bench/bench_analysis_files.py --quick    # CI smoke run: 20x20

Benches print; they never fail on a time.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = """
import json, sys, time
from blockmaze.errors import BadFileError
from blockmaze.readers.analysis import analyze_file
started = time.perf_counter()
try:
    facts = analyze_file(sys.argv[1]); facts.pop("measured_as")
except BadFileError as error:
    facts = {"refused": str(error)[:70]}
seconds = time.perf_counter() - started
with open("/proc/self/status") as status:
    peak = next(int(l.split()[1]) for l in status if l.startswith("VmHWM:")) // 1024
print(json.dumps({"seconds": seconds, "peak": peak, "facts": facts}))
"""


def measure(path: Path) -> dict:
    """Seconds of ``analyze_file`` (the import not counted), peak MB and the measures."""
    done = subprocess.run([sys.executable, "-c", CHILD, str(path)], check=True, capture_output=True,
                          text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=150)
    parser.add_argument("--quick", action="store_true", help="a 20x20 maze")
    options = parser.parse_args()
    size = 20 if options.quick else options.size
    import blockmaze as bm
    from blockmaze.readers.plans import SUFFIXES

    maze = bm.braid(bm.generate((size, size), rng=1), 0.2, rng=1)
    with tempfile.TemporaryDirectory(prefix="bench-analysis-") as scratch:
        document = Path(scratch) / "m.json"
        bm.save_maze(bm.MazeDocument(maze), document)
        measure(document)  # (once first: numba's cache of the measures' kernels, then warm)
        reference = measure(document)
        print(f"{size}x{size} maze, braided 0.2: {2 * size + 1}x{2 * size + 1} blocks a layer\n")
        print("| file | seconds | peak MB | measures |")
        print("|---|---:|---:|---|")
        print(f"| .json (the document) | {reference['seconds']:.3f} | {reference['peak']} | - |")
        for suffix in SUFFIXES:
            path = Path(scratch) / f"m{suffix}"
            bm.save(maze, path)
            found = measure(path)
            same = found["facts"] == reference["facts"] if "refused" not in found["facts"] \
                else found["facts"]["refused"]
            print(f"| {suffix} | {found['seconds']:.3f} | {found['peak']} | "
                  f"{'equal' if same is True else same} |")


if __name__ == "__main__":
    main()
