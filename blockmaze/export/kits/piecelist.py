"""The piece list: every enabled cell's piece, turn, place, level and flags, as JSON or CSV.

JSON (``.pieces.json``): a header (``type`` ``"blockmaze-pieces"``, ``version``, the ``grid`` as
a maze document names it, ``cell_size`` and ``level_height`` in engine units, start, goal and
openings), ``fields`` and ``pieces``, one array a cell in the order of ``fields``. CSV
(``.pieces.csv``): the same header as JSON on a first line that starts ``#``, then a row of
the field names and a row a cell. ``mask`` holds a cell's open directions as bits of the grid's
direction order, so the list rebuilds the maze's passages exactly
(:func:`blockmaze.readers.pieces.load_pieces`).

Example
-------
>>> import io
>>> from blockmaze import MazeDocument, generate
>>> out = io.BytesIO(); write_pieces_csv(MazeDocument(generate((1, 2), rng=1)), out, None)
>>> out.getvalue().decode().splitlines()[1:]
['cell,level,row,col,piece,mask,rotation,mirror,x,y,z,start,goal,solution', '0,0,0,0,dead-end,2,90,0,2.5,0,2.5,0,0,0', '1,0,0,1,dead-end,8,270,0,7.5,0,2.5,0,0,0']
"""

from __future__ import annotations

import json

import numpy as np

from ...mazes.documents import MazeDocument
from ...mazes.pieces import Pieces, maze_pieces
from ...support.memory import ensure_step_memory
from .. import register_writer
from ..target import write_all

PIECES_TYPE, PIECES_VERSION = "blockmaze-pieces", 1
FIELDS = ("cell", "level", "row", "col", "piece", "mask", "rotation", "mirror", "x", "y", "z",
          "start", "goal", "solution")
ROW_BYTES = 120  # a generous row of either file, for the memory check


def pieces_header(pieces: Pieces) -> dict:
    """What a piece list says before its rows: the grid, the units and the endpoints.

    >>> from blockmaze import generate
    >>> pieces_header(maze_pieces(generate((2, 2), rng=1)))["grid"]["directions"]
    ['north', 'east', 'south', 'west']
    """
    from ...mazes.documents import _crossings_field

    grid, ends = pieces.maze.grid, pieces.endpoints
    return {
        "type": PIECES_TYPE, "version": PIECES_VERSION,
        "grid": {"kind": grid.kind, "shape": list(grid.shape), "directions": list(grid.directions),
                 "disabled": np.flatnonzero(~grid.enabled).tolist(), **_crossings_field(grid)},
        "cell_size": pieces.cell_size, "level_height": pieces.level_height,
        "units": "metres", "up": "+Y", "north": "-Z",
        "rotation": "degrees clockwise seen from above, after the mirror (x -> -x) if mirror",
        "start": None if ends is None else ends.start,
        "goal": None if ends is None else ends.goal,
        "openings": [] if ends is None else [[c, grid.directions[d]] for c, d in ends.openings],
    }


def _number(value: float) -> str:
    return f"{value:.9g}"


def _rows(pieces: Pieces, quote: str) -> list[str]:
    """Each cell's fields as text, in :data:`FIELDS` order (piece names quoted by ``quote``)."""
    ensure_step_memory("pieces", len(pieces) * ROW_BYTES, f"a piece list of {len(pieces)} cells")
    numbers = [[_number(v) for v in column] for column in
               (pieces.rotation.tolist(), *pieces.position.T.tolist())]
    columns = (pieces.cells.tolist(), pieces.level.tolist(), pieces.row.tolist(),
               pieces.col.tolist(), [f"{quote}{n}{quote}" for n in pieces.names],
               pieces.masks.tolist(), *numbers[:1], pieces.mirror.astype(int).tolist(),
               *numbers[1:], pieces.start.astype(int).tolist(), pieces.goal.astype(int).tolist(),
               pieces.solution.astype(int).tolist())
    return [",".join(map(str, row)) for row in zip(*columns, strict=True)]


def document_pieces(document: MazeDocument, block_size: float | None,
                    solution: bool = False) -> Pieces:
    """The pieces of a maze document (``block_size``: the default kit's block, 1 m), the
    ``solution`` flags set where asked."""
    from dataclasses import replace

    pieces = maze_pieces(document.maze, document.endpoints, 1.0 if block_size is None else block_size)
    return pieces if solution else replace(pieces, solution=np.zeros(len(pieces), bool))


def write_pieces_json(document: MazeDocument, file, theme, block_size: float | None = None,
                      solution: bool = False) -> None:
    """Write the piece list as JSON (see the module docstring; ``solution``: flag the way from
    start to goal)."""
    pieces = document_pieces(document, block_size, solution)
    head = json.dumps(pieces_header(pieces))[:-1]
    rows = _rows(pieces, '"')
    text = f'{head}, "fields": {json.dumps(list(FIELDS))}, "pieces": [\n[' + "],\n[".join(rows)
    write_all(file.write, (text + ("]\n]}\n" if rows else "]}\n")).encode("utf-8"))


def write_pieces_csv(document: MazeDocument, file, theme, block_size: float | None = None,
                     solution: bool = False) -> None:
    """Write the piece list as CSV, its header as JSON on a first ``#`` line."""
    pieces = document_pieces(document, block_size, solution)
    lines = ["# " + json.dumps(pieces_header(pieces)), ",".join(FIELDS), *_rows(pieces, "")]
    write_all(file.write, ("\n".join(lines) + "\n").encode("utf-8"))


register_writer("pieces", write_pieces_json)
register_writer("pieces-csv", write_pieces_csv)
