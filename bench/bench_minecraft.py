"""Every Minecraft writer on a 500x500-cell maze, 3 high on a floor; prints a Markdown table.

    python bench/bench_minecraft.py            # 500x500 (the issue's target: each under 3 s)
    python bench/bench_minecraft.py --quick    # 100x100

Times include theme variants drawn from the seed; best of three runs, writing to a real file.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
import warnings

import blockmaze as bm

FORMATS = ["schem", "structure", "litematic", "datapack", "schematic", "mcstructure"]
SUFFIX = {"schem": ".schem", "structure": ".nbt", "litematic": ".litematic", "datapack": ".zip",
          "schematic": ".schematic", "mcstructure": ".mcstructure"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100x100 only")
    side = 100 if parser.parse_args().quick else 500
    volume = bm.extrude(bm.to_blocks(bm.generate((side, side), rng=1)), height=3)
    theme = bm.load_theme("hedge")  # a theme every format can draw (no scaffolding is present)
    print(f"{side}x{side} cells -> {volume.shape[2]}x{volume.shape[0]}x{volume.shape[1]} blocks "
          f"({volume.size / 1e6:.1f} M)\n")
    print("| format | seconds | size | target |")
    print("|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for fmt in (f for f in FORMATS if f in bm.WRITERS):
            path = os.path.join(folder, "maze" + SUFFIX[fmt])
            options = {"seed": 1} if "seed" in bm.WRITERS[fmt].options else {}
            bm.write(volume[:, :5, :5], path, format=fmt, theme=theme, **options)  # compile
            best = float("inf")
            for _ in range(3):
                start = time.perf_counter()
                bm.write(volume, path, format=fmt, theme=theme, **options)
                best = min(best, time.perf_counter() - start)
            size = os.path.getsize(path)
            print(f"| {fmt} | {best:.2f} | {size / 1e6:.1f} MB | < 3 s |", flush=True)


if __name__ == "__main__":
    warnings.simplefilter("ignore", bm.BlockmazeWarning)  # the structure block size note
    main()
