"""blockmaze JSON tile map ``.tilemap.json`` (schema: ``schemas/tilemap.schema.json``).

One JSON object (UTF-8, keys sorted, no time stamp, so the same plan gives the same bytes)::

    {"format": "blockmaze-tilemap", "format_version": 1,
     "width": 9, "height": 7,
     "grid": ["#########", "#S**#G**#", ...],
     "legend": {"#": {"materials": ["wall"], "ids": [1], "walkable": false,
                      "transparent": false, "color": "#7a7a7a"}, ...},
     "entities": [{"type": "start", "x": 5, "y": 1}, {"type": "goal", ...}, ...],
     "metadata": {"generator": "blockmaze", "version": "0.2.0", "theme": "stone-bricks"}}

Dungeon levels add ``properties`` to entities (stairs: ``direction`` up/down and the ``level``
they lead to; a locked door and its ``key``; spawns: ``rule`` and ``distance``), further entity
types (``monster``, ``item``, ``treasure``, ``key``), draw stairs up as ``<`` (legend entry
with ``"direction": "up"``) and add ``metrics`` (see :mod:`blockmaze.dungeon.metrics`).

``grid`` holds one string per row, north (top) first; ``grid[y][x]`` is the glyph of the tile at
column ``x`` (from the west), row ``y``. ``legend`` maps each glyph on the map to the materials
it draws (names and tile ids = material values; materials share a glyph only when they are alike
to a walker), whether it can be walked on and seen through, and its theme colour. ``entities``
lists every start, goal, door and stairs tile, by type then row by row; ``x``/``y`` index
``grid`` as above.
"""

from __future__ import annotations

import json
from typing import BinaryIO

import numpy as np

from ...materials import Material, Theme
from .. import register_writer
from ..minecraft.blockdata import checked_theme  # (its states exist in some release)
from .tiles import UP_GLYPH, check_plan_size, draw_up_stairs, entities as map_entities, glyph_legend, glyph_rows, map_plan, up_stairs

FORMAT = "blockmaze-tilemap"
FORMAT_VERSION = 1


def write_tilemap(blocks: np.ndarray, file: BinaryIO, theme: Theme, entities=None,
                  metrics: dict | None = None) -> None:
    """Write a one-layer (1, z, x) plan as a blockmaze JSON tile map.

    ``entities`` (a dungeon level's: stairs with direction and level, locked door, key, spawns;
    see :func:`tiles.entities`) and ``metrics`` (a dict of numbers) are written when given.

    Example
    -------
    >>> import io
    >>> from blockmaze.materials import load_theme
    >>> out = io.BytesIO()
    >>> write_tilemap(np.array([[[1, 1, 1], [5, 0, 6]]], np.uint8), out, load_theme())
    >>> document = json.loads(out.getvalue())
    >>> document["grid"], document["entities"][1]
    (['###', 'S.G'], {'type': 'goal', 'x': 2, 'y': 1})
    """
    from ... import __version__

    plan = map_plan(blocks, "JSON tile map", 16)
    extra = entities
    height, width = plan.shape
    legend = {
        entry.glyph: {
            "materials": [kind.name for kind in entry.kinds],
            "ids": [kind.id for kind in entry.kinds],
            "walkable": entry.walkable,
            "transparent": entry.transparent,
            "color": entry.kinds[0].hex_color,
        }
        for entry in glyph_legend(theme, plan)
    }
    rows = draw_up_stairs(glyph_rows(plan, theme).decode("utf-8").split("\n")[:-1], extra)
    if up_stairs(extra):
        stairs = legend[theme.glyph(Material.STAIRS)]
        legend[UP_GLYPH] = {**stairs, "direction": "up"}
        if not (plan == Material.STAIRS).sum() > len(up_stairs(extra)):
            del legend[theme.glyph(Material.STAIRS)]  # every stairs tile goes up
    document = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "width": width,
        "height": height,
        "grid": rows,
        "legend": legend,
        "entities": [{"type": kind, "x": x, "y": y, **({"properties": p} if p else {})}
                     for kind, x, y, p in map_entities(plan, extra)],
        "metadata": {"generator": "blockmaze", "version": __version__, "theme": theme.name},
    }
    if metrics is not None:
        document["metrics"] = dict(metrics)
    text = json.dumps(document, sort_keys=True, indent=1, ensure_ascii=False) + "\n"
    file.write(text.encode("utf-8"))


def check_size(shape: tuple[int, int, int]) -> None:
    """Refuse anything but a one-layer plan, before any work is done.

    >>> check_size((1, 0, 3))
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: a JSON tile map cannot draw an empty plan (3x0 tiles)
    """
    check_plan_size(shape, "a JSON tile map")


register_writer("tilemap", write_tilemap, check_size, prepare_theme=checked_theme)
