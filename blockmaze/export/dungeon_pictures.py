"""Pictures of dungeon levels, PNG and SVG: each level's plan a square a block, and what its blocks
cannot say drawn on top of it.

What is drawn, each in its material's theme colour (``Theme.color``):

- walls (WALL), corridors (FLOOR), rooms (``level.rooms``: the FLOOR colour lightened halfway to
  white), doors (DOOR), the start (START) and goal (GOAL) blocks;
- stairs: the STAIRS block with a white triangle pointing up (north) for stairs up, down
  (south) for stairs down;
- the lock and its key in :data:`KEY_COLOUR` (no material is a key): a square of it inside the
  locked door's block, and a key (a round head and its shaft) on the key's block;
- spawn points: a monster is a disc (MONSTER), an item a square (ITEM), a treasure a diamond
  (TREASURE).

``cell_size`` counts pixels per cell of the dungeon's size, as a maze picture's ``blocks``
style does: a cell is two blocks (its floor and a wall), so a block is ``cell_size / 2`` pixels
and a 20x30 dungeon (41x61 blocks) at the default 16 is 488x328 pixels and a block of margin. A
level is one picture; a :class:`~blockmaze.dungeon.Dungeon` draws its levels side by side, the
first on the left, each in its own margin (the ``dungeon`` command writes a file a level
instead, ``NAME-1.png``, ``NAME-2.png``, as it names tile maps). The same level gives the same
bytes: a palette PNG without metadata, an SVG with one ``<path>`` per colour of the plan and one
per kind of marker (``class`` names: ``stairs-up``, ``stairs-down``, ``locks``, ``keys``,
``monsters`` (circles), ``items``, ``treasures``).

Example
-------
>>> from blockmaze.dungeon import generate_dungeon
>>> level = generate_dungeon((4, 6), rng=1, spawns=(1, 1, 1)).levels[0]
>>> render_dungeon_image(level, cell_size=8).size
(60, 44)
>>> dungeon_svg_text(level).count('class="monsters"')
1
"""

from __future__ import annotations

import math

import numpy as np

from ..dungeon.level import Dungeon, DungeonLevel
from ..errors import BlockmazeError
from ..materials import Material, Theme, as_theme
from ..support.memory import ensure_memory
from .picture_scene import (MAX_PIXELS, _compress_level_for, _draw_png, _Layer, _positive, _Scene,
                            _svg)
from .target import Target, open_target

__all__ = ["KEY_COLOUR", "check_picture_size", "dungeon_svg_text", "render_dungeon_image",
           "write_dungeon_picture"]

KEY_COLOUR = (214, 51, 168)  # a key and its lock: magenta, unlike every material's colour
PAPER = (255, 255, 255)  # the margin around each level
ARROW = (255, 255, 255)  # the stairs' triangle
# palette slots: the paper, then a slot per material (1 + its value), then these
_MATERIALS = len(Material)
ROOM, ARROW_SLOT, KEY = 1 + _MATERIALS, 2 + _MATERIALS, 3 + _MATERIALS
SPAWNS = {"monster": Material.MONSTER, "item": Material.ITEM, "treasure": Material.TREASURE}


def render_dungeon_image(dungeon: Dungeon | DungeonLevel, *, theme: Theme | str | None = None,
                         cell_size: float = 16):
    """A dungeon level (or a dungeon's levels side by side) as a PIL image (palette mode "P").

    >>> from blockmaze.dungeon import generate_dungeon
    >>> image = render_dungeon_image(generate_dungeon((3, 3), rng=2), cell_size=4)
    >>> image.size, image.convert("RGB").getpixel((2, 2)) == as_theme(None).color(Material.WALL)
    ((18, 18), True)
    """
    return _draw_png(_dungeon_scene(dungeon, theme, cell_size))


def dungeon_svg_text(dungeon: Dungeon | DungeonLevel, *, theme: Theme | str | None = None,
                     cell_size: float = 16) -> str:
    """A dungeon level (or a dungeon's levels side by side) as an SVG document (a string).

    >>> from blockmaze.dungeon import generate_dungeon
    >>> dungeon_svg_text(generate_dungeon((3, 3), rng=2), cell_size=4).split(' viewBox')[0]
    '<svg xmlns="http://www.w3.org/2000/svg" width="18" height="18"'
    """
    return _svg(_dungeon_scene(dungeon, theme, cell_size))


def write_dungeon_picture(dungeon: Dungeon | DungeonLevel, file: Target,
                          theme: Theme | str | None = None, *, format: str = "png",
                          cell_size: float = 16) -> None:
    """Write a dungeon level (or a dungeon's levels side by side) as a PNG or SVG picture to a
    path (written atomically) or a binary file.

    >>> import io
    >>> from blockmaze.dungeon import generate_dungeon
    >>> out = io.BytesIO()
    >>> write_dungeon_picture(generate_dungeon((3, 3), rng=2).levels[0], out, format="svg")
    >>> out.getvalue()[:4]
    b'<svg'
    """
    if format not in ("png", "svg"):
        raise BlockmazeError(f"a dungeon picture is png or svg, got {format!r}")
    scene = _dungeon_scene(dungeon, theme, cell_size)
    if format == "svg":
        data = _svg(scene).encode("utf-8")
        with open_target(file) as out:
            out.write(data)
        return
    image = _draw_png(scene)
    with open_target(file) as out:
        image.save(out, format="PNG", optimize=False,
                   compress_level=_compress_level_for(image.size[0] * image.size[1]))


# -- the scene --------------------------------------------------------------------------------

def _levels(dungeon) -> tuple[DungeonLevel, ...]:
    if isinstance(dungeon, DungeonLevel):
        return (dungeon,)
    if isinstance(dungeon, Dungeon) and dungeon.levels:
        return tuple(dungeon.levels)
    raise BlockmazeError(f"a dungeon picture needs a Dungeon or a DungeonLevel, got "
                         f"{type(dungeon).__name__}")


def _palette(theme: Theme) -> list[tuple[int, int, int]]:
    colours = [theme.color(m) for m in Material]
    floor = theme.color(Material.FLOOR)
    colours[Material.AIR] = floor  # open ground: a corridor
    room = ((floor[0] + 255) // 2, (floor[1] + 255) // 2, (floor[2] + 255) // 2)
    return [PAPER, *colours, room, ARROW, KEY_COLOUR]


def check_picture_size(plans: list[tuple[int, int]], cell_size: float = 16) -> tuple[int, int]:
    """The (width, height) in pixels of the picture of levels whose plans are ``plans`` (z, x
    blocks each, side by side), or a BlockmazeError before any work when it is too large for
    the memory limit or :data:`~blockmaze.export.picture_scene.MAX_PIXELS`.

    >>> check_picture_size([(41, 61)]), check_picture_size([(41, 61)] * 2, cell_size=4)
    ((504, 344), (252, 86))
    >>> check_picture_size([(40001, 40001)])
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: a 320024x320024-pixel picture is too large (at most 268435456 pixels); choose a smaller dungeon
    """
    block = _positive(cell_size, "cell_size", 2) / 2
    width = int(math.ceil(sum(x + 2 for _, x in plans) * block))
    height = int(math.ceil((max(z for z, _ in plans) + 2) * block))
    if width * height > MAX_PIXELS:
        raise BlockmazeError(f"a {width}x{height}-pixel picture is too large (at most "
                             f"{MAX_PIXELS} pixels); choose a smaller dungeon")
    ensure_memory(4 * width * height, f"a {width}x{height}-pixel picture")
    return width, height


def _dungeon_scene(dungeon, theme, cell_size) -> _Scene:
    """The layers of the picture: each level's plan, then its markers, levels left to right."""
    levels = _levels(dungeon)
    width, height = check_picture_size([level.plan.shape for level in levels], cell_size)
    block = _positive(cell_size, "cell_size", 2) / 2
    theme = as_theme(theme)
    margin = block
    widths = [level.plan.shape[1] * block + 2 * margin for level in levels]
    marks: dict[str, list] = {name: [] for name in
                              ("stairs-up", "stairs-down", "locks", "keys", "items", "treasures")}
    monsters: list = []
    plans = []
    left = 0.0
    for level, level_width in zip(levels, widths, strict=True):
        plans.append(_plan_layer(level, left + margin, margin, block))
        for entity in level.entities:
            cx = left + margin + (entity.x + 0.5) * block
            cy = margin + (entity.z + 0.5) * block
            if entity.kind == "stairs":
                up = entity.properties.get("direction") == "up"
                marks["stairs-up" if up else "stairs-down"].append(_triangle(cx, cy, block, up))
            elif entity.kind == "door" and entity.properties.get("locked"):
                marks["locks"].append(_square(cx, cy, 0.3 * block))
            elif entity.kind == "key":
                marks["keys"] += _key(cx, cy, block)
            elif entity.kind == "monster":
                monsters.append((cx, cy))
            elif entity.kind in ("item", "treasure"):
                shape = _square(cx, cy, 0.32 * block) if entity.kind == "item" else \
                    _diamond(cx, cy, 0.45 * block)
                marks[entity.kind + "s"].append(shape)
        left += level_width
    slot = {"stairs-up": ARROW_SLOT, "stairs-down": ARROW_SLOT, "locks": KEY, "keys": KEY,
            "items": 1 + Material.ITEM, "treasures": 1 + Material.TREASURE}
    layers = plans + [_Layer("fill", name, slot[name], items) for name, items in marks.items()]
    layers.append(_Layer("dots", "monsters", 1 + Material.MONSTER, monsters, width=0.8 * block))
    return _Scene(width, height, _palette(theme), layers)


def _plan_layer(level: DungeonLevel, x0: float, y0: float, block: float) -> _Layer:
    """The level's blocks as palette slots (rooms' open floor lighter), with pixel edges."""
    plan = np.asarray(level.plan)
    if plan.ndim != 2 or plan.size == 0 or int(plan.max()) >= _MATERIALS:
        raise BlockmazeError("a dungeon level's plan must be a (z, x) array of materials")
    ids = plan.astype(np.int64) + 1
    for z0, x0_, z1, x1 in np.asarray(level.rooms, dtype=np.int64).reshape(-1, 4).tolist():
        room = ids[z0:z1, x0_:x1]
        room[room == 1 + Material.AIR] = ROOM
    xs = x0 + np.arange(plan.shape[1] + 1) * block
    ys = y0 + np.arange(plan.shape[0] + 1) * block
    return _Layer("plan", "blocks", -1, [ids, xs, ys])


def _polygon(cx: float, cy: float, points) -> np.ndarray:
    return np.asarray(points, dtype=np.float64) + (cx, cy)


def _square(cx: float, cy: float, half: float) -> np.ndarray:
    return _polygon(cx, cy, [(-half, -half), (half, -half), (half, half), (-half, half)])


def _diamond(cx: float, cy: float, half: float) -> np.ndarray:
    return _polygon(cx, cy, [(0, -half), (half, 0), (0, half), (-half, 0)])


def _triangle(cx: float, cy: float, block: float, up: bool) -> np.ndarray:
    tip, base = (-0.36, 0.3) if up else (0.36, -0.3)
    return _polygon(cx, cy, [(0, tip * block), (0.36 * block, base * block),
                             (-0.36 * block, base * block)])


def _key(cx: float, cy: float, block: float) -> list[np.ndarray]:
    """A key lying east: a round head (an octagon) on the west, its shaft and a tooth."""
    angles = np.arange(8) * (math.pi / 4) + math.pi / 8
    head = np.column_stack([np.cos(angles), np.sin(angles)]) * (0.24 * block) + (-0.22 * block, 0)
    shaft = [(-0.05, -0.08), (0.46, -0.08), (0.46, 0.08), (-0.05, 0.08)]
    tooth = [(0.28, 0.0), (0.46, 0.0), (0.46, 0.3), (0.28, 0.3)]
    return [_polygon(cx, cy, head), _polygon(cx, cy, np.array(shaft) * block),
            _polygon(cx, cy, np.array(tooth) * block)]
