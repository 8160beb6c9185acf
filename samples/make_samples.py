"""Regenerate the files in samples/ (small, deterministic examples shown in the README).

    python samples/make_samples.py [FOLDER]      # default: this folder
"""

from __future__ import annotations

import sys
from pathlib import Path

import blockmaze as bm
from blockmaze.export.pictures import render_png

SEED = 2026


def make_samples(folder: Path) -> list[Path]:
    """Write every sample into ``folder``; return their paths."""
    maze = bm.generate((8, 16), rng=SEED)
    texts = {
        "maze-box.txt": bm.maze_text(maze),
        "maze-ascii.txt": bm.maze_text(maze, style="ascii"),
        "plan-wall1-passage2.txt": bm.plan_text(bm.to_blocks(maze, wall=1, passage=2)),
    }
    written = []
    for name, text in texts.items():
        (folder / name).write_text(text + "\n", encoding="utf-8")
        written.append(folder / name)
    volume = bm.extrude(bm.to_blocks(maze, wall=1, passage=2), height=3)
    for version in (2, 3):
        path = folder / f"maze-v{version}.schem"
        bm.write(volume, path, schem_version=version)
        written.append(path)
    ends = bm.place_endpoints(maze)
    pictures = {
        "maze-shaded.png": (maze, dict(shade=True, solution=True, endpoints=ends)),
        "polar.png": (bm.generate(bm.polar_grid(8), rng=SEED), dict(cell_size=14)),
        "hex-blocks.png": (bm.generate(bm.hex_grid(8, 11), rng=SEED), dict(style="blocks", cell_size=10)),
    }
    for name, (shown, options) in pictures.items():
        render_png(shown, folder / name, **options)
        written.append(folder / name)
    return written


if __name__ == "__main__":
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent
    for path in make_samples(out):
        print(path)
