"""Piece lists (.pieces.json, .pieces.csv) read back: the maze they describe and a summary.

Read from the file alone: the header's grid and each row's ``mask`` (a cell's open directions)
make the maze's passages again, checked as a maze document's are
(:func:`blockmaze.mazes.documents.parse_maze`: both sides of every passage open).

Example
-------
>>> import io, blockmaze as bm
>>> maze = bm.generate((3, 4), rng=1)
>>> out = io.BytesIO(); bm.save(maze, out, format="pieces")
>>> load_pieces(out.getvalue()).maze == maze
True
>>> pieces_summary(out.getvalue()).details["pieces"]
'corner 6, corridor 4, dead-end 2'
"""

from __future__ import annotations

import csv
import io
from collections import Counter

from ..errors import BadFileError, BlockmazeError
from .base import FileInfo, load_json, need

PIECES_TYPE = "blockmaze-pieces"


def _parsed(data: bytes) -> tuple[dict, list[str], list[list]]:
    """The header, the field names and the rows of a piece list in either form."""
    text = data.lstrip(b"\xef\xbb\xbf")
    if text.startswith(b"#"):  # CSV: the header on its first line
        first, _, rest = text.partition(b"\n")
        header = load_json(first[1:], "a piece list's header")
        try:
            rows = list(csv.reader(io.StringIO(rest.decode("utf-8"))))
        except (UnicodeDecodeError, csv.Error) as error:
            raise BadFileError(f"a piece list's rows are not CSV: {error}") from None
        if not rows:
            raise BadFileError("a piece list with no row of field names")
        return header, rows[0], rows[1:]
    document = load_json(text, "a piece list")
    fields = need(document, "fields", list)
    return document, fields, need(document, "pieces", list)


def _header(document: object) -> dict:
    if not isinstance(document, dict) or document.get("type") != PIECES_TYPE:
        raise BadFileError(f"not a piece list: its 'type' must be {PIECES_TYPE!r}")
    if document.get("version") != 1:
        raise BadFileError(f"piece list version {str(document.get('version'))[:20]} is not "
                           "supported (this blockmaze reads 1)")
    return document


def _column(fields: list[str], rows: list[list], name: str) -> list[int]:
    if name not in fields:
        raise BadFileError(f"a piece list without a {name!r} field")
    at = fields.index(name)
    try:
        return [int(row[at]) for row in rows]
    except (IndexError, TypeError, ValueError):
        raise BadFileError(f"a piece list's {name!r} must be a whole number in every row") from None


def load_pieces(data: bytes):
    """The :class:`~blockmaze.mazes.documents.MazeDocument` a piece list describes (its grid,
    passages, start, goal and openings); BadFileError where the file does not hold one."""
    import numpy as np

    from ..mazes.documents import encode_links, parse_maze

    header, fields, rows = _parsed(data)
    header = _header(header)
    grid = need(header, "grid", dict, "grid.")
    directions = need(grid, "directions", list, "grid.")
    cells, masks = _column(fields, rows, "cell"), _column(fields, rows, "mask")
    shape = need(grid, "shape", list, "grid.")
    document = {"type": "blockmaze-maze", "version": 1,
                "grid": {key: grid[key] for key in ("kind", "shape", "disabled", "crossings")
                         if key in grid},
                **{key: header.get(key) for key in ("start", "goal", "openings")}}
    from ..mazes.documents import shape_cells

    try:
        size = shape_cells(str(grid.get("kind")), shape)
    except (BlockmazeError, TypeError, ValueError) as error:
        raise BadFileError(f"a piece list's grid: {error}") from None
    degree = len(directions)
    if not all(0 <= c < size for c in cells) or not all(0 <= m < 1 << degree for m in masks):
        raise BadFileError(f"a piece list's cells must be 0..{size - 1} and masks 0..{(1 << degree) - 1}")
    links = np.zeros((size, degree), bool)
    links[cells] = (np.asarray(masks, np.int64)[:, None] >> np.arange(degree)) & 1
    document["links"] = encode_links(links)
    try:
        parsed = parse_maze(document)
    except BlockmazeError as error:
        raise BadFileError(f"a piece list: {str(error).removeprefix('maze document: ')}") from None
    if parsed.maze.grid.directions != tuple(directions):
        raise BadFileError("a piece list's grid.directions are not its kind's")
    if sorted(cells) != np.flatnonzero(parsed.maze.grid.enabled).tolist():
        raise BadFileError("a piece list must hold one row for every enabled cell")
    return parsed


def pieces_summary(data: bytes) -> FileInfo:
    """``blockmaze info`` for a piece list: its grid, pieces by name and the maze checked."""
    document = load_pieces(data)
    header, fields, rows = _parsed(data)
    names = Counter(str(row[fields.index("piece")]) for row in rows) if "piece" in fields else {}
    grid = document.maze.grid
    form = "CSV" if data.lstrip(b"\xef\xbb\xbf").startswith(b"#") else "JSON"
    return FileInfo(f"blockmaze piece list ({form})", None, None, {}, {
        "grid": f"{grid.kind} {'x'.join(map(str, grid.shape))}",
        "cells": len(rows), "pieces": ", ".join(f"{name} {count}" for name, count in sorted(names.items())),
        "cell size": f"{header.get('cell_size')} m, a level {header.get('level_height')} m",
        "perfect": document.maze.is_perfect()})


__all__ = ["load_pieces", "pieces_summary"]
