"""``info`` for maze documents (.json): grid kind and shape, algorithm, seed; a document of up to
``CHECK_CELLS`` cells is loaded whole too (passages, perfect, the maze a unicursal one was split
from), a bigger one only described.

Example
-------
>>> import io, blockmaze as bm
>>> out = io.BytesIO(); bm.save_maze(bm.MazeDocument(bm.generate((2, 3), rng=1), seed=1), out)
>>> maze_document_summary(bm.readers.base.load_json(out.getvalue(), "x")).details["grid"]
'square 2x3'
"""

from __future__ import annotations

from ..errors import BadFileError, BlockmazeError
from .base import FileInfo, need

CHECK_CELLS = 1 << 20


def maze_document_summary(document: object) -> FileInfo:
    """Summarise parsed JSON that says it is a maze document; BadFileError if it is not one."""
    from ..mazes.documents import (
        DOCUMENT_TYPE,
        check_links_cover,
        parse_maze,
        shape_cells,
    )

    if not isinstance(document, dict) or document.get("type") != DOCUMENT_TYPE:
        raise BadFileError(f"JSON, but not a maze document: its 'type' must be {DOCUMENT_TYPE!r}")
    grid = need(document, "grid", dict)
    kind = need(grid, "kind", str, "grid.")
    shape = need(grid, "shape", list, "grid.")
    if not shape or len(shape) > 3 or not all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v < 1 << 31
                                              for v in shape):
        raise BadFileError(f"grid.shape must be one to three whole numbers >= 1, got {str(shape)[:80]}")
    try:
        check_links_cover(shape, document.get("links"), kind)
    except BlockmazeError as error:
        raise BadFileError(str(error)) from None
    details = {"grid": f"{kind} {'x'.join(map(str, shape))}",
               "algorithm": document.get("algorithm"), "seed": document.get("seed")}
    if shape_cells(kind, shape) <= CHECK_CELLS:
        try:
            parsed = parse_maze(document)
        except BlockmazeError as error:
            raise BadFileError(str(error)) from None
        maze = parsed.maze
        details.update({"cells": f"{maze.grid.enabled_count} enabled of {maze.grid.size}",
                        "passages": maze.passage_count, "perfect": maze.is_perfect(),
                        "seed": parsed.seed, "braid": parsed.braid})
        if parsed.split_from is not None:  # a unicursal maze, drawn on the grid it was split from
            split = parsed.split_from.grid
            details["split from"] = (f"a perfect {split.kind} {'x'.join(map(str, split.shape))} "
                                     f"maze (its pictures are drawn on that grid)")
    else:
        details["checked"] = f"no: more than {CHECK_CELLS} cells (export or load it to check it)"
    return FileInfo("blockmaze maze document (.json)", None, None, {}, details)


__all__ = ["maze_document_summary"]
