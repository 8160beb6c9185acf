"""``blockmaze info FILE --analysis``: the measures of the maze a file holds.

A maze document (``.json``) holds the maze itself: its grid, links and start and goal, so every
measure of :func:`blockmaze.mazes.measures.analyze` and its difficulty
(:mod:`blockmaze.mazes.difficulty`) is taken from it as it was made.

Example
-------
>>> import os, tempfile, blockmaze as bm
>>> path = os.path.join(tempfile.mkdtemp(), "m.json")
>>> bm.save_maze(bm.MazeDocument(bm.generate((5, 5), rng=1)), path)
>>> facts = analyze_file(path)
>>> facts["cells"], facts["perfect"]
(25, True)
"""

from __future__ import annotations

from pathlib import Path

from ..errors import BadFileError, printable
from ..mazes.documents import load_maze


def analyze_file(path: str | Path) -> dict:
    """The measures of the maze in the file at ``path`` (BadFileError for a file that holds
    none this reads: the reason and what it reads)."""
    from ..mazes.difficulty import analyzed

    path = Path(path)
    if path.suffix.lower() != ".json":
        raise BadFileError(printable(f"{path.name}: --analysis measures the maze a maze document "
                                     "(.json, from -o maze.json or --format maze) holds; this file "
                                     "holds blocks, not the maze's passages"))
    document = load_maze(path)
    return analyzed(document.maze, document.endpoints)
