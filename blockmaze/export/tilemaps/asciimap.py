"""Plain-text roguelike map ``.txt``: one line per plan row, one theme glyph per tile.

Layout (UTF-8, ``\\n`` line ends)::

    ; blockmaze ascii map 9x7 (width x height), theme stone-bricks
    ; rows run north (top) to south, columns west (left) to east
    ; legend: glyph at column 2, then material names, walkable|blocked, transparent|opaque
    ; # wall blocked opaque
    ; . air walkable transparent
    ;
    #########
    #S**#G**#
    ...

The header is a block of comment lines, each starting with ``comment`` (``;`` by default, a
character no glyph on the map uses, so no map line can be mistaken for it). A loader keeps the
lines that do not start with it: ``rows = [l for l in text.splitlines() if not l.startswith(";")]``;
every row then has the same length and ``rows[y][x]`` is the tile at column x, row y. A legend
line holds the glyph at column 2 (a space glyph too), the comma-separated names of the materials
it stands for, then whether a walker can enter and see through it. Only glyphs on the map are
listed. ``legend=False`` writes the map lines alone. Glyphs are the theme's
(:meth:`Theme.glyph`: ``#`` wall, ``.`` floor and air, ``+`` door, ``>`` stairs, ``S``/``G``
start and goal, ``*`` the solution path; a dungeon level's stairs up are ``<``); materials sharing a glyph must be alike to a walker.
"""

from __future__ import annotations

from typing import BinaryIO

import numpy as np

from ...errors import BlockmazeError
from ...materials import Theme
from ...support.memory import ensure_memory
from .. import register_writer
from ..minecraft.blockdata import checked_theme  # (its states exist in some release)
from .tiles import check_plan_size, draw_marks, entity_marks, glyph_legend, glyph_rows, plan_of

DEFAULT_COMMENT = ";"


def write_ascii(
    blocks: np.ndarray,
    file: BinaryIO,
    theme: Theme,
    legend: bool = True,
    comment: str = DEFAULT_COMMENT,
    entities=None,
) -> None:
    """Write a one-layer (1, z, x) plan as text: a legend header, then one line per row.

    ``entities`` (a dungeon level's, see :func:`tiles.entities`) are drawn over the plan, each
    with its legend line: stairs going up ``<`` (stairs down keep the theme's glyph), monsters,
    items and treasure with the theme's glyphs, a lock's key ``k`` and its door ``L``
    (:func:`tiles.entity_marks`).

    Example
    -------
    >>> import io
    >>> from blockmaze.materials import load_theme
    >>> out = io.BytesIO()
    >>> write_ascii(np.array([[[1, 1, 1], [5, 0, 6]]], np.uint8), out, load_theme())
    >>> print(out.getvalue().decode(), end="")
    ; blockmaze ascii map 3x2 (width x height), theme stone-bricks
    ; rows run north (top) to south, columns west (left) to east
    ; legend: glyph at column 2, then material names, walkable|blocked, transparent|opaque
    ; . air walkable transparent
    ; # wall blocked opaque
    ; S start walkable transparent
    ; G goal walkable transparent
    ;
    ###
    S.G
    """
    plan = plan_of(blocks)
    entries = glyph_legend(theme, plan)
    marks = entity_marks(theme, entities)
    if not isinstance(comment, str) or len(comment) != 1 or not comment.isprintable() or comment.isspace():
        raise BlockmazeError(f"comment must be one printable character other than a space, got {comment!r}")
    if legend and any(entry.glyph == comment for entry in entries):
        raise BlockmazeError(
            f"the glyph {comment!r} is on the map, so the legend cannot use it to mark comment lines: "
            "choose another comment character"
        )
    ensure_memory(8 * plan.size, f"a {plan.shape[1]}x{plan.shape[0]}-tile text map")
    height, width = plan.shape
    rows = draw_marks(glyph_rows(plan, theme).decode("utf-8").split("\n")[:-1], marks)
    if legend:
        lines = [
            f"blockmaze ascii map {width}x{height} (width x height), theme {' '.join(theme.name.split())}",
            "rows run north (top) to south, columns west (left) to east",
            "legend: glyph at column 2, then material names, walkable|blocked, transparent|opaque",
        ]
        shown = set("".join(rows))
        for entry in entries:
            if entry.glyph in shown:  # (a glyph whose every tile an entity covers is not)
                names = ",".join(kind.name for kind in entry.kinds)
                lines.append(f"{entry.glyph} {names} {'walkable' if entry.walkable else 'blocked'} "
                             f"{'transparent' if entry.transparent else 'opaque'}")
        lines += list(dict.fromkeys(f"{glyph} {legend}" for _, _, glyph, legend in marks))
        file.write("".join(f"{comment} {line}\n" for line in lines).encode("utf-8"))
        file.write(f"{comment}\n".encode())
    file.write("".join(row + "\n" for row in rows).encode("utf-8"))


def check_size(shape: tuple[int, int, int]) -> None:
    """Refuse anything but a one-layer plan, before any work is done.

    >>> check_size((2, 3, 3))
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: a text map draws a 2-D plan (z, x); got a volume 2 blocks high: pass the plan, not the extruded volume
    """
    check_plan_size(shape, "a text map")


register_writer("ascii", write_ascii, check_size, prepare_theme=checked_theme)
