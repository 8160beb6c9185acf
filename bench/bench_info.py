"""``blockmaze info`` on hostile files and on big real ones: wall time, CPU time and peak memory
of each run, each in its own process (targets: hostile files <= 2 s and <= 200 MB; a 4-million
block structure .nbt < 5 s).

The hostile files come from ``tests/hostile.py`` (made by code); the real ones are written by our
own writers (a 160**3 volume, 4.1 million blocks; 40**3 with ``--quick``).

    python bench/bench_info.py [--quick] [--side 160]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

HOSTILE_SECONDS, HOSTILE_MB, REAL_SECONDS = 2.0, 200, 5.0
CHILD = """
import resource, sys
from blockmaze.errors import BadFileError
from blockmaze.readers.info import inspect_file
try:
    info = inspect_file(sys.argv[1]); print("read", info.format)
except BadFileError as error:
    print("refused:", str(error).split(": ", 1)[1][:60])
with open("/proc/self/status") as status:
    print(next(int(l.split()[1]) for l in status if l.startswith("VmHWM:")) // 1024)
"""


def measure(path: str) -> tuple[float, int, str]:
    """Wall seconds, peak MB (the child's VmHWM) and the outcome of ``info path``."""
    started = time.perf_counter()
    child = subprocess.run([sys.executable, "-c", CHILD, path], capture_output=True, text=True)
    wall = time.perf_counter() - started
    lines = child.stdout.strip().split("\n")
    if child.returncode or len(lines) < 2:
        return wall, -1, "CRASH " + child.stderr.strip().split("\n")[-1][:60]
    return wall, int(lines[-1]), lines[0][:70]


def real_files(folder: Path, side: int) -> list[tuple[str, Path]]:
    import blockmaze as bm

    volume = np.ones((side, side, side), np.uint8)
    volume[::2] = 2
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for fmt, suffix in (("structure", ".nbt"), ("schem", ".schem"), ("litematic", ".litematic"),
                            ("mcstructure", ".mcstructure"), ("schematic", ".schematic")):
            path = folder / f"real-{side}{suffix}"
            bm.write(volume, path, format=fmt)
            out.append((f"{fmt} {side}^3 = {side ** 3} blocks", path))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: small real files, few hostile ones")
    parser.add_argument("--side", type=int, default=160)
    args = parser.parse_args()
    from hostile import corpus

    folder = Path(tempfile.mkdtemp(prefix="bench-info-"))
    files = corpus()
    if args.quick:
        args.side = 40
        files = {k: v for k, v in list(files.items())[::6]}
    rows = []
    for name, (file_name, data) in files.items():
        path = folder / f"{name}-{file_name}"
        path.write_bytes(data)
        rows.append((name, path, True))
    rows += [(name, path, False) for name, path in real_files(folder, args.side)]
    print(f"blockmaze info, one process per file (targets: hostile <= {HOSTILE_SECONDS:g} s and "
          f"<= {HOSTILE_MB} MB; real .nbt < {REAL_SECONDS:g} s)")
    print(f"{'file':<38} {'size kB':>9} {'wall s':>7} {'peak MB':>8}  ok  outcome")
    for name, path, hostile in rows:
        wall, peak, outcome = measure(str(path))
        ok = (wall <= HOSTILE_SECONDS and 0 < peak <= HOSTILE_MB) if hostile else wall < REAL_SECONDS
        print(f"{name:<38} {path.stat().st_size / 1e3:>9.0f} {wall:>7.2f} {peak:>8}  {'yes' if ok else 'NO':<3} {outcome}")
        path.unlink()


if __name__ == "__main__":
    main()
