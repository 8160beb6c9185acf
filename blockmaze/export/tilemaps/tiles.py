"""Shared pieces of the tile-map writers (Tiled, ASCII, JSON tile map, tcod, REXPaint).

Every tile-map format draws the ``(z, x)`` plan: row ``z`` from the north (top), column ``x``
from the west (left). Tile maps call them ``y`` and ``x``; so ``y`` below is always the plan's
row. One tile per material: the **tile id is the material value** (AIR 0 ... LIGHT 9), so a map
decodes back to the plan exactly.

What a material means to a roguelike (the plan is what stands at walking height):

=========  ========  ===========  ==========================================
material   walkable  transparent  why
=========  ========  ===========  ==========================================
air        yes       yes          open passage (a 2n+1 plan's cells): floor, drawn so
wall       no        no
floor      yes       yes          ground (roguelike ``.``)
roof       no        no           a roof seen from above covers the tile
path       yes       yes          the solution, marked on open ground
start      yes       yes
goal       yes       yes
door       yes       no           a closed door blocks sight, not walking
stairs     yes       yes
light      yes       yes          a light set into the floor
=========  ========  ===========  ==========================================

Example
-------
>>> from blockmaze.materials import load_theme
>>> [kind.glyph for kind in tile_kinds(load_theme())][:3]
['.', '#', '.']
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import numpy as np

from ...errors import BlockmazeError
from ...materials import Material, Theme
from ...support.memory import ensure_memory
from ..target import target_path, write_sidecar
from . import terrain_sets

TILE_COUNT = len(Material)  # tile ids 0 .. TILE_COUNT - 1, one per material
# the tile set's image: the material tiles, then the terrain's (terrain_sets.FIRST == TILE_COUNT)
TILESET_COUNT = TILE_COUNT + terrain_sets.COUNT

WALKABLE = np.zeros(256, dtype=bool)
WALKABLE[[Material.AIR, Material.FLOOR, Material.PATH, Material.START, Material.GOAL,
          Material.DOOR, Material.STAIRS, Material.LIGHT, Material.MONSTER, Material.ITEM,
          Material.TREASURE, Material.CHECKPOINT, Material.EXIT]] = True
TRANSPARENT = WALKABLE.copy()
TRANSPARENT[Material.DOOR] = False

# Materials that are things on the map, not just ground: (material, entity type), in this order.
# (Dungeon levels add monsters, items, treasure and keys: see entities().)
ENTITIES = ((Material.START, "start"), (Material.GOAL, "goal"),
            (Material.DOOR, "door"), (Material.STAIRS, "stairs"),
            (Material.CHECKPOINT, "checkpoint"), (Material.EXIT, "exit"))

DEFAULT_TILE_SIZE = 16
MIN_TILE_SIZE, MAX_TILE_SIZE = 1, 256


@dataclass(frozen=True)
class TileKind:
    """One tile of the tile set: a material and how a theme and a roguelike see it."""

    id: int
    name: str
    glyph: str
    color: tuple[int, int, int]
    walkable: bool
    transparent: bool

    @property
    def hex_color(self) -> str:
        """The colour as ``#rrggbb``."""
        return "#{:02x}{:02x}{:02x}".format(*self.color)


def tile_kinds(theme: Theme) -> list[TileKind]:
    """Every tile of the tile set, ordered by id (= material value). The air tile is open ground
    at walking height, so it takes the floor's colour (not the dark of empty space).

    >>> from blockmaze.materials import load_theme
    >>> kinds = tile_kinds(load_theme())
    >>> kinds[Material.AIR].color == kinds[Material.FLOOR].color
    True
    """
    return [
        TileKind(int(m), m.name.lower(), theme.glyph(m),
                 theme.color(Material.FLOOR if m == Material.AIR else m),
                 bool(WALKABLE[m]), bool(TRANSPARENT[m]))
        for m in Material
    ]


def check_plan_size(shape: tuple[int, int, int], format_name: str, max_side: int | None = None) -> None:
    """Refuse anything but a one-layer (1, z, x) volume, before any work is done.

    >>> check_plan_size((3, 5, 5), "TMX")
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: TMX draws a 2-D plan (z, x); got a volume 3 blocks high: pass the plan, not the extruded volume
    """
    if len(shape) != 3:
        raise BlockmazeError(f"{format_name} draws a 2-D plan (z, x); got an array of shape {shape}")
    layers, height, width = shape
    if layers != 1:
        raise BlockmazeError(
            f"{format_name} draws a 2-D plan (z, x); got a volume {layers} blocks high: "
            "pass the plan, not the extruded volume"
        )
    if height < 1 or width < 1:
        raise BlockmazeError(f"{format_name} cannot draw an empty plan ({width}x{height} tiles)")
    if max_side is not None and max(height, width) > max_side:
        raise BlockmazeError(
            f"a {width}x{height}-tile plan is too large for {format_name}: "
            f"each side holds at most {max_side} tiles"
        )


def plan_of(blocks: np.ndarray) -> np.ndarray:
    """The (z, x) plan of a one-layer volume, checked to hold only known materials.

    >>> plan_of(np.full((1, 2, 2), 42, np.uint8))
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: the plan holds 42 at x=0, y=0, which is not a material (0..14)
    """
    plan = np.ascontiguousarray(blocks[0])
    if plan.size and int(plan.max()) >= TILE_COUNT:
        y, x = np.argwhere(plan >= TILE_COUNT)[0]
        raise BlockmazeError(
            f"the plan holds {plan[y, x]} at x={x}, y={y}, which is not a material (0..{TILE_COUNT - 1})"
        )
    return plan


def map_plan(blocks: np.ndarray, what: str, bytes_per_tile: int, tile_size=None) -> np.ndarray:
    """The (z, x) plan a tile-map writer draws, after the checks every one makes before any work:
    the tile size (formats with tile images), known materials only (:func:`plan_of`) and memory
    for ``bytes_per_tile`` bytes a tile (``what`` names the map in the message).

    >>> map_plan(np.ones((1, 2, 3), np.uint8), "test map", 8, tile_size=16).shape
    (2, 3)
    >>> map_plan(np.ones((1, 2, 3), np.uint8), "test map", 8, tile_size=0)
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: tile_size must be a whole number of pixels from 1 to 256, got 0
    """
    if tile_size is not None:
        check_tile_size(tile_size)
    plan = plan_of(blocks)
    ensure_memory(bytes_per_tile * plan.size, f"a {plan.shape[1]}x{plan.shape[0]}-tile {what}")
    return plan


def entities(plan: np.ndarray, extra=None) -> list[tuple[str, int, int, dict]]:
    """``(type, x, y, properties)`` of every start, goal, door and stairs tile, by type then
    row-major, then the ``extra`` entities.

    ``extra`` holds things a plan cannot say (a dungeon level's
    :class:`~blockmaze.entities.Entity` values: anything with ``kind``, ``z``, ``x`` and a
    ``properties`` dict): one of the plan's own kind and tile gives that tile its properties
    (stairs: ``direction``, target ``level``; a locked door: ``locked``, ``key``); the others
    (monsters, items, treasure, keys) follow in their order.

    >>> entities(np.array([[5, 0], [7, 6]], np.uint8))
    [('start', 0, 0, {}), ('goal', 1, 1, {}), ('door', 0, 1, {})]
    """
    given = {(e.kind, int(e.x), int(e.z)): dict(e.properties) for e in extra or ()}
    found = []
    for material, kind in ENTITIES:
        for y, x in np.argwhere(plan == material).tolist():
            found.append((kind, int(x), int(y), given.pop((kind, int(x), int(y)), {})))
    found += [(kind, x, y, properties) for (kind, x, y), properties in given.items()]
    return found


def up_stairs(extra) -> list[tuple[int, int]]:
    """``(x, y)`` of the stairs going up among ``extra`` entities (drawn ``UP_GLYPH``)."""
    return [(int(e.x), int(e.z)) for e in extra or ()
            if e.kind == "stairs" and e.properties.get("direction") == "up"]


UP_GLYPH = "<"  # stairs up; stairs down (and stairs of unknown way) keep the theme's glyph
KEY_GLYPH, LOCKED_GLYPH = "k", "L"  # a lock's key, and the door it opens
# entity kinds a spawn material draws (text maps have no entity layer: they show the glyph)
SPAWNS = {"monster": Material.MONSTER, "item": Material.ITEM, "treasure": Material.TREASURE}


def entity_marks(theme: Theme, extra) -> list[tuple[int, int, str, str]]:
    """``(x, y, glyph, legend)`` of what a text map draws over the plan for a level's ``extra``
    entities: stairs up (``UP_GLYPH``), monsters, items and treasure (the theme's glyphs for
    their materials), a lock's key (``KEY_GLYPH``) and the door it opens (``LOCKED_GLYPH``).

    >>> from blockmaze.dungeon import Entity
    >>> from blockmaze.materials import load_theme
    >>> entity_marks(load_theme(), [Entity("monster", 1, 2), Entity("key", 0, 0, {"key": 1})])
    [(2, 1, 'M', 'monster walkable transparent'), (0, 0, 'k', 'key walkable transparent')]
    """
    marks = []
    for e in extra or ():
        x, y, kind = int(e.x), int(e.z), e.kind
        if kind == "stairs" and e.properties.get("direction") == "up":
            marks.append((x, y, UP_GLYPH, "stairs walkable transparent up"))
        elif kind in SPAWNS:
            marks.append((x, y, theme.glyph(SPAWNS[kind]), f"{kind} walkable transparent"))
        elif kind == "key":
            marks.append((x, y, KEY_GLYPH, "key walkable transparent"))
        elif kind == "door" and e.properties.get("locked"):
            marks.append((x, y, LOCKED_GLYPH, "door blocked opaque locked (its key opens it)"))
    return marks


def draw_marks(rows: list[str], marks) -> list[str]:
    """``rows`` (glyph strings) with each mark's glyph drawn at its ``(x, y)``.

    >>> draw_marks([">.>"], [(2, 0, "<", "stairs up")])
    ['>.<']
    """
    for x, y, glyph, _ in marks:
        rows[y] = rows[y][:x] + glyph + rows[y][x + 1:]
    return rows


def draw_up_stairs(rows: list[str], extra) -> list[str]:
    """``rows`` (glyph strings) with the up stairs of ``extra`` drawn as ``UP_GLYPH``.

    >>> from blockmaze.entities import Entity
    >>> draw_up_stairs([">.>"], [Entity("stairs", 0, 2, {"direction": "up", "level": 1})])
    ['>.<']
    """
    for x, y in up_stairs(extra):
        rows[y] = rows[y][:x] + UP_GLYPH + rows[y][x + 1:]
    return rows


def property_type(value) -> str:
    """Tiled's and LDtk's name for a property value's type.

    >>> [property_type(v) for v in (True, 2, 0.5, "up")]
    ['bool', 'int', 'float', 'string']
    """
    if isinstance(value, (bool, np.bool_)):
        return "bool"
    if isinstance(value, (int, np.integer)):
        return "int"
    if isinstance(value, (float, np.floating)):
        return "float"
    return "string"


@dataclass(frozen=True)
class LegendEntry:
    """One glyph of a character map and the materials it stands for (all alike to a walker)."""

    glyph: str
    kinds: tuple[TileKind, ...]

    @property
    def walkable(self) -> bool:
        return self.kinds[0].walkable

    @property
    def transparent(self) -> bool:
        return self.kinds[0].transparent


def glyph_legend(theme: Theme, plan: np.ndarray) -> list[LegendEntry]:
    """The glyphs drawing the materials present in ``plan``, in material order.

    Materials a theme draws with the same glyph share one entry (the default theme draws air and
    floor as ``.``); that is refused when they differ to a walker, since a reader of the map could
    not tell them apart.

    >>> from blockmaze.materials import load_theme
    >>> [(e.glyph, [k.name for k in e.kinds]) for e in glyph_legend(load_theme(), np.array([[1, 0, 2]], np.uint8))]
    [('.', ['air', 'floor']), ('#', ['wall'])]
    """
    kinds = tile_kinds(theme)
    present = np.flatnonzero(np.bincount(plan.ravel(), minlength=TILE_COUNT))
    groups: dict[str, list[TileKind]] = {}
    for material in present:
        kind = kinds[material]
        group = groups.setdefault(kind.glyph, [])
        if group and (group[0].walkable, group[0].transparent) != (kind.walkable, kind.transparent):
            raise BlockmazeError(
                f"theme {theme.name!r} draws {group[0].name} and {kind.name} with the same glyph "
                f"{kind.glyph!r}, but a walker cannot treat them alike: give one of them its own glyph"
            )
        group.append(kind)
    return [LegendEntry(glyph, tuple(group)) for glyph, group in groups.items()]


def glyph_table(theme: Theme) -> np.ndarray:
    """``table[material]`` = the material's glyph, as a one-character unicode array of 256."""
    table = np.full(256, "?", dtype="<U1")
    for kind in tile_kinds(theme):
        table[kind.id] = kind.glyph
    return table


def glyph_rows(plan: np.ndarray, theme: Theme) -> bytes:
    """The plan drawn in theme glyphs, one ``\\n``-ended line per row, as UTF-8 (whole-array, fast).

    >>> from blockmaze.materials import load_theme
    >>> glyph_rows(np.array([[1, 1], [5, 6]], np.uint8), load_theme())
    b'##\\nSG\\n'
    """
    codes = np.array([ord(g) for g in glyph_table(theme)], dtype="<u4")
    text = np.empty((plan.shape[0], plan.shape[1] + 1), dtype="<u4")
    text[:, :-1] = codes[plan]
    text[:, -1] = ord("\n")
    return text.tobytes().decode("utf-32-le").encode("utf-8")


def contrast(color: tuple[int, int, int]) -> tuple[int, int, int]:
    """Black or white, whichever reads better on ``color`` (sRGB luma).

    >>> contrast((255, 242, 168)), contrast((26, 26, 26))
    ((0, 0, 0), (255, 255, 255))
    """
    r, g, b = color
    return (0, 0, 0) if 299 * r + 587 * g + 114 * b >= 128_000 else (255, 255, 255)


def tileset_png(theme: Theme, tile_size: int = DEFAULT_TILE_SIZE) -> bytes:
    """A PNG strip of ``TILESET_COUNT`` square tiles, tile id ``i`` at ``x = i * tile_size``:
    one a material, then the 16 terrain tiles (:mod:`.terrain`).

    Each material tile is filled with the material's theme colour, with its glyph drawn in black or white
    in Pillow's built-in bitmap font (no font files, so the same bytes everywhere; scaled up
    by whole pixels on tiles of 32 pixels and more) when the tile is large enough and the font
    has the character (Latin-1). The same theme gives the same bytes.

    >>> from blockmaze.materials import load_theme
    >>> tileset_png(load_theme())[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    """
    check_tile_size(tile_size)
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError:  # pragma: no cover - Pillow is installed wherever tile maps are tested
        raise BlockmazeError("writing a tile set image needs Pillow: pip install pillow") from None
    image = Image.new("RGB", (tile_size * TILESET_COUNT, tile_size))
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default_imagefont()  # the bitmap font (Pillow >= 10.1)
    scale = max(1, tile_size // 16)  # the font's cells are 6x11 pixels: grow them with the tile
    for kind in tile_kinds(theme):
        left = kind.id * tile_size
        draw.rectangle((left, 0, left + tile_size - 1, tile_size - 1), fill=kind.color)
        try:
            x0, y0, x1, y1 = font.getbbox(kind.glyph)
        except (UnicodeEncodeError, ValueError):  # the bitmap font holds Latin-1 only
            continue
        if x1 <= x0 or y1 <= y0:
            continue
        mask = Image.new("L", (x1 - x0, y1 - y0))
        ImageDraw.Draw(mask).text((-x0, -y0), kind.glyph, font=font, fill=255)
        mask = mask.resize((mask.width * scale, mask.height * scale), Image.Resampling.NEAREST)
        if mask.width <= tile_size and mask.height <= tile_size:
            image.paste(contrast(kind.color), (left + (tile_size - mask.width) // 2,
                                               (tile_size - mask.height) // 2), mask)
    terrain_sets.draw_terrain_tiles(draw, terrain_sets.FIRST * tile_size, tile_size,
                               theme.color(Material.WALL), theme.color(Material.FLOOR))
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False, compress_level=9)
    return out.getvalue()


def check_tile_size(tile_size: object) -> None:
    """Refuse a tile size that is not a whole number of pixels in 1..256."""
    if isinstance(tile_size, bool) or not isinstance(tile_size, (int, np.integer)) or not (
        MIN_TILE_SIZE <= tile_size <= MAX_TILE_SIZE
    ):
        raise BlockmazeError(
            f"tile_size must be a whole number of pixels from {MIN_TILE_SIZE} to {MAX_TILE_SIZE}, "
            f"got {tile_size!r}"
        )


def sidecar_base(file: BinaryIO, chosen: str | None, suffixes: tuple[str, ...]) -> tuple[Path | None, str]:
    """Where the map's companion files go and their base name (no suffix).

    ``chosen`` (a plain file name without folder) wins; else ``<map stem>-tiles`` beside the
    map; else, for an in-memory map, ``tiles`` and no folder (nothing gets written).
    """
    if chosen is not None:
        if not isinstance(chosen, str) or not chosen or chosen != Path(chosen).name or chosen in (".", ".."):
            raise BlockmazeError(f"tileset_file must be a plain file name without a folder, got {chosen!r}")
    path = target_path(file)
    if path is None:
        return None, chosen or "tiles"
    stem = path.name
    for suffix in suffixes:
        if stem.lower().endswith(suffix):
            stem = stem[: -len(suffix)]
            break
    return path.parent, chosen or f"{stem}-tiles"


def tileset_beside(file: BinaryIO, theme: Theme, tile_size: int, tileset_file: str | None,
                   suffixes: tuple[str, ...]) -> tuple[Path | None, str, str]:
    """Write the tile set's PNG strip beside the map ``file`` (see :func:`sidecar_base`; an
    in-memory map gets none); return the folder, the base name and the image name the map
    refers to.

    >>> import io
    >>> from blockmaze.materials import load_theme
    >>> tileset_beside(io.BytesIO(), load_theme(), 16, None, (".tmx",))
    (None, 'tiles', 'tiles.png')
    """
    folder, base = sidecar_base(file, tileset_file, suffixes)
    image = f"{base}.png"
    if folder is not None:
        write_sidecar(folder, image, tileset_png(theme, tile_size))
    return folder, base, image


def csv_text(plan: np.ndarray, first: int = 0, newlines: bool = True) -> bytes:
    """``first + plan`` as decimal text, comma-separated, row-major, fast for millions of tiles.

    With ``newlines`` each row ends in ``,\\n`` and the last in ``\\n`` (Tiled's CSV); without,
    the numbers are one comma-separated run (a JSON array's inside).

    >>> csv_text(np.array([[1, 2], [3, 9]], np.uint8), first=1)
    b'2,3,\\n4,10\\n'
    >>> csv_text(np.array([[1, 2], [3, 9]], np.uint8), newlines=False)
    b'1,2,3,9'
    """
    texts = [str(first + v).encode("ascii") for v in range(256)]
    cell = max(len(t) for t in texts) + 2
    tables = np.zeros((2, 256, cell), dtype=np.uint8)
    lengths = np.zeros((2, 256), dtype=np.intp)
    for end, tail in enumerate((b",", b",\n" if newlines else b",")):
        for value, text in enumerate(texts):
            piece = text + tail
            tables[end, value, : len(piece)] = np.frombuffer(piece, np.uint8)
            lengths[end, value] = len(piece)
    cells = tables[0][plan]
    size = lengths[0][plan]
    cells[:, -1] = tables[1][plan[:, -1]]
    size[:, -1] = lengths[1][plan[:, -1]]
    text = cells[np.arange(cell) < size[..., None]].tobytes()
    # drop the comma after the very last number
    return text[:-2] + b"\n" if newlines else text[:-1]
