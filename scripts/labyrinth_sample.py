"""Remake samples/labyrinth.png: the Chartres labyrinth with its one path drawn (issue 41).

Usage: python scripts/labyrinth_sample.py [OUTPUT]   (default samples/labyrinth.png)

The picture is the command's own output, so the README's samples block can show the same
command beside it::

    blockmaze generate -g labyrinth --style chartres --solution --cell-size 12 -o samples/labyrinth.png
"""

from __future__ import annotations

import sys
from pathlib import Path

from blockmaze.cli import main

COMMAND = ["generate", "-g", "labyrinth", "--style", "chartres", "--solution", "--cell-size", "12"]

if __name__ == "__main__":
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / "samples" / "labyrinth.png"
    raise SystemExit(main(["-q", *COMMAND, "-o", str(out)]))
