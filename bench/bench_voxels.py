"""The voxel-format writers (.vox, .mts, .mcpack) against .schem on a 1000x1000-cell maze, 3 high
on a floor; prints a Markdown table.

    python bench/bench_voxels.py            # 1000x1000 (the target: each within 1.5x .schem)
    python bench/bench_voxels.py --quick    # 100x100

Best of three runs each, writing to a real file, theme variants drawn from the seed. The runs
go round the formats in turn (schem, vox, ..., schem, vox, ...), so a busy machine slows every
format alike and the ratios hold.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

import blockmaze as bm

# .mcstructure is what .mcpack wraps (then deflates): shown for comparison, no target of its own
FORMATS = {"schem": ".schem", "vox": ".vox", "mts": ".mts", "mcstructure": ".mcstructure",
           "mcpack": ".mcpack"}
TARGET = 1.5  # times the .schem writer's


def seconds(volume, path, fmt, theme) -> float:
    options = {"seed": 1} if "seed" in bm.WRITERS[fmt].options else {}
    start = time.perf_counter()
    bm.write(volume, path, format=fmt, theme=theme, **options)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100x100 only")
    side = 100 if parser.parse_args().quick else 1000
    volume = bm.extrude(bm.to_blocks(bm.generate((side, side), rng=1, algorithm="eller")), height=3)
    theme = bm.load_theme()
    print(f"{side}x{side} cells -> {volume.shape[2]}x{volume.shape[0]}x{volume.shape[1]} blocks "
          f"({volume.size / 1e6:.1f} M)\n")
    print("| format | seconds | x .schem | size | target |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        paths = {fmt: os.path.join(folder, "maze" + suffix) for fmt, suffix in FORMATS.items()}
        for fmt, path in paths.items():  # compile kernels, load tables
            seconds(volume[:, :5, :5], path, fmt, theme)
        best = dict.fromkeys(FORMATS, float("inf"))
        for _ in range(3):
            for fmt, path in paths.items():
                best[fmt] = min(best[fmt], seconds(volume, path, fmt, theme))
        for fmt, path in paths.items():
            ratio = best[fmt] / best["schem"]
            verdict = "" if fmt in ("schem", "mcstructure") else (f"<= {TARGET}x: " + ("met" if ratio <= TARGET else "MISSED"))
            print(f"| {fmt} | {best[fmt]:.2f} | {ratio:.2f} | {os.path.getsize(path) / 1e6:.1f} MB | {verdict} |")


if __name__ == "__main__":
    main()
