"""A big maze as a datapack, replayed: are all fills in forceloaded chunks? Prints a Markdown table.

    python bench/bench_datapack_chunks.py            # 2000x2000 cells (the issue's target: 0 outside)
    python bench/bench_datapack_chunks.py --quick    # 150x150

The pack is checked and replayed by the independent checker (tests/mcfunction_checker.py) from a
player position that does not line up with chunk borders: every fill must lie in chunks
forceloaded on an earlier tick, and no forceload may be left behind.
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from pathlib import Path

import blockmaze as bm

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from mcfunction_checker import read_datapack, replay  # noqa: E402

MC_VERSION = "1.20.4"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="150x150 only")
    side = 150 if parser.parse_args().quick else 2000
    volume = bm.extrude(bm.to_blocks(bm.generate((side, side), rng=1)), height=3)
    started = time.perf_counter()
    out = io.BytesIO()
    bm.write(volume, out, format="datapack", mc_version=MC_VERSION)
    written = time.perf_counter() - started
    started = time.perf_counter()
    pack = read_datapack(out.getvalue(), MC_VERSION)
    result = replay(pack, position=(7.3, 64.0, -5.6))
    checked = time.perf_counter() - started
    print(f"{side}x{side} cells -> {volume.shape[2]}x{volume.shape[0]}x{volume.shape[1]} blocks\n")
    print("| write s | zip MB | fills | fills outside loaded chunks | most chunks forceloaded "
          "| left forceloaded | game ticks | check s |")
    print("|---|---|---|---|---|---|---|---|")
    print(f"| {written:.1f} | {len(out.getvalue()) / 1e6:.1f} | {result.fills} | {result.unloaded} "
          f"| {result.most_chunks} | {result.left} | {result.ticks} | {checked:.1f} |")
    if result.unloaded or result.left:
        sys.exit("fills outside forceloaded chunks, or forceloads left behind")


if __name__ == "__main__":
    main()
