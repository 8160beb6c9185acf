"""Tiled maps: ``.tmx`` (XML) and ``.tmj`` (JSON), with a tile set drawn from the theme.

Rules (docs/tilemaps.md §1, the terrain §6): every field Tiled 1.10 itself writes
(``version`` "1.10", ``tiledversion``, orthogonal, ``renderorder`` right-down, ``infinite`` 0,
``nextlayerid``/``nextobjectid``, layer ``id``); data row-major from the top-left (north-west);
GID = ``firstgid`` (1) + tile id, 0 = empty (only on the terrain layer's last row and column:
every block is a material); CSV by
default, or base64 of little-endian uint32 GIDs, optionally zlib or gzip compressed (gzip with
no time stamp); TMJ ``version`` is a string.

Layers: tile layer 1 ``maze`` (tile id = material value, see :mod:`blockmaze.export.tiles`),
tile layer 3 ``terrain`` (the walls and floors again, as terrain tiles set half a tile off, so
Tiled's Terrain Brush repaints them: :mod:`.terrain`, docs/guides/terrain-sets.md) and
object layer 2 ``entities`` with one tile-sized rectangle per start, goal, door and stairs tile
(``name`` and ``type`` = the entity type), then a dungeon level's ``entities`` (monsters, items,
treasure, keys), each with its properties as Tiled object properties (stairs: ``direction`` and
the target ``level``; a locked door: ``locked`` and ``key``). Each tile of the tile set has ``type`` = material
name and properties ``glyph``, ``name`` (material), ``transparent`` and ``walkable`` (bools).
The tile set carries a corner Wang set (Tiled's terrain set, Tiled 1.5+) ``walls and floors``
with the colours ``wall`` (1) and ``floor`` (2): terrain tile ``FIRST + mask`` has the Wang id
:func:`terrain_sets.wang_id` of its mask.

The tile set's image is a PNG strip, one tile per material (:func:`tiles.tileset_png`). It and
the external tile set (``external_tileset=True``: ``.tsx`` beside a TMX, ``.tsj`` beside a TMJ)
are written **beside the map**, atomically, as ``<map stem>-tiles.png`` / ``-tiles.tsx`` (or the
base name ``tileset_file``), and the map refers to them by that relative name. A map written
to an in-memory file (``io.BytesIO``) refers to ``tiles.png`` (or ``tileset_file``) and nothing
else is written: save the image yourself with :func:`write_tileset_files`.
"""

from __future__ import annotations

import base64
import gzip
import json
import zlib
from pathlib import Path
from typing import BinaryIO

import numpy as np

from ...errors import BlockmazeError
from ...materials import Material, Theme
from .. import register_writer
from ..target import write_sidecar
from ..defaults import TILE_ENCODING
from ..minecraft.blockdata import checked_theme  # (its states exist in some release)
from .tiles import (
    DEFAULT_TILE_SIZE, MAX_TILE_SIZE, TILESET_COUNT, TileKind, check_plan_size, csv_text, entities,
    map_plan, property_type, tile_kinds, tileset_beside, tileset_png,
)
from . import terrain_sets

FORMAT_VERSION = "1.10"  # the TMX/TMJ format version Tiled 1.10 writes
TILED_VERSION = "1.10.2"
FIRST_GID = 1
TILE_LAYER, OBJECT_LAYER, TERRAIN_LAYER = "maze", "entities", "terrain"
ENCODINGS = ("csv", "base64", "base64-zlib", "base64-gzip")
MAX_SIDE = 0x7FFFFFFF // MAX_TILE_SIZE  # pixel sizes (side x tile size) stay inside an int32


def write_tmx(
    blocks: np.ndarray,
    file: BinaryIO,
    theme: Theme,
    encoding: str = TILE_ENCODING,
    external_tileset: bool = False,
    tile_size: int = DEFAULT_TILE_SIZE,
    tileset_file: str | None = None,
    entities=None,
) -> None:
    """Write a one-layer (1, z, x) plan as a Tiled TMX map (see the module notes for the files).

    Example
    -------
    >>> import io
    >>> from blockmaze.materials import load_theme
    >>> out = io.BytesIO()
    >>> write_tmx(np.array([[[1, 1, 1], [1, 0, 1]]], np.uint8), out, load_theme())
    >>> print(out.getvalue().decode().split("<data")[1].split("</data>")[0])
     encoding="csv">
    2,2,2,
    2,1,2
    <BLANKLINE>
    """
    layout = _layout(blocks, theme, encoding, tile_size, entities)
    folder, base, image = tileset_beside(file, theme, tile_size, tileset_file, (".tmx",))
    if external_tileset:
        tsx = _xml_declaration() + _tileset_xml(layout, image, "", version=True)
        write_sidecar(folder, f"{base}.tsx", tsx.encode("utf-8"))
        tileset = f' <tileset firstgid="{FIRST_GID}" source="{_attr(base + ".tsx")}"/>\n'
    else:
        tileset = _tileset_xml(layout, image, f' firstgid="{FIRST_GID}"', version=False, indent=" ")
    file.write((
        _xml_declaration()
        + f'<map version="{FORMAT_VERSION}" tiledversion="{TILED_VERSION}" orientation="orthogonal" '
        f'renderorder="right-down" width="{layout.width}" height="{layout.height}" '
        f'tilewidth="{tile_size}" tileheight="{tile_size}" infinite="0" nextlayerid="4" '
        f'nextobjectid="{len(layout.objects) + 1}">\n'
        + tileset
        + f' <layer id="1" name="{TILE_LAYER}" width="{layout.width}" height="{layout.height}">\n'
    ).encode("utf-8"))
    _write_tmx_data(file, layout.plan + FIRST_GID, encoding)
    half = terrain_sets.half_tile(tile_size)
    file.write((f' </layer>\n <layer id="3" name="{TERRAIN_LAYER}" width="{layout.width}" '
                f'height="{layout.height}" offsetx="{half}" offsety="{half}">\n').encode("ascii"))
    _write_tmx_data(file, _terrain_gids(layout.plan), encoding)
    objects = "".join(
        f'  <object id="{i}" name="{kind}" type="{kind}" x="{x * tile_size}" y="{y * tile_size}" '
        f'width="{tile_size}" height="{tile_size}"' + (_properties_xml(props) if props else "/>\n")
        for i, (kind, x, y, props) in enumerate(layout.objects, start=1)
    )
    group = (f' <objectgroup id="2" name="{OBJECT_LAYER}">\n{objects} </objectgroup>\n' if objects
             else f' <objectgroup id="2" name="{OBJECT_LAYER}"/>\n')
    file.write((" </layer>\n" + group + "</map>\n").encode("utf-8"))


def _write_tmx_data(file: BinaryIO, gids: np.ndarray, encoding: str) -> None:
    """A TMX layer's ``<data>`` element holding ``gids`` (uint8, GIDs below 256)."""
    if encoding == "csv":
        file.write(b'  <data encoding="csv">\n')
        file.write(csv_text(gids))
        file.write(b"</data>\n")
    else:
        compression = encoding.partition("-")[2]
        attribute = f' compression="{compression}"' if compression else ""
        file.write(f'  <data encoding="base64"{attribute}>\n   '.encode("ascii"))
        file.write(_base64_gids(gids, compression))
        file.write(b"\n  </data>\n")


def write_tmj(
    blocks: np.ndarray,
    file: BinaryIO,
    theme: Theme,
    encoding: str = TILE_ENCODING,
    external_tileset: bool = False,
    tile_size: int = DEFAULT_TILE_SIZE,
    tileset_file: str | None = None,
    entities=None,
) -> None:
    """Write a one-layer (1, z, x) plan as a Tiled JSON map (TMJ; keys sorted, as Tiled does).

    Example
    -------
    >>> import io, json
    >>> from blockmaze.materials import load_theme
    >>> out = io.BytesIO()
    >>> write_tmj(np.array([[[1, 1, 1], [1, 0, 1]]], np.uint8), out, load_theme())
    >>> json.loads(out.getvalue())["layers"][0]["data"]
    [2, 2, 2, 2, 1, 2]
    """
    layout = _layout(blocks, theme, encoding, tile_size, entities)
    folder, base, image = tileset_beside(file, theme, tile_size, tileset_file, (".tmj",))
    tileset = _tileset_json(layout, image)
    if external_tileset:
        tsj = {**tileset, "type": "tileset", "version": FORMAT_VERSION, "tiledversion": TILED_VERSION}
        write_sidecar(folder, f"{base}.tsj", _json_bytes(tsj))
        tileset = {"firstgid": FIRST_GID, "source": f"{base}.tsj"}
    else:
        tileset = {"firstgid": FIRST_GID, **tileset}
    placeholders = ("\x00gids\x00", "\x00terrain\x00")
    half = terrain_sets.half_tile(tile_size)
    layers = [{
        "data": placeholder, "height": layout.height, "id": id_, "name": name, "opacity": 1,
        "type": "tilelayer", "visible": True, "width": layout.width, "x": 0, "y": 0,
        **({"offsetx": half, "offsety": half} if name == TERRAIN_LAYER else {}),
    } for placeholder, id_, name in zip(placeholders, (1, 3), (TILE_LAYER, TERRAIN_LAYER), strict=True)]
    datas = []
    for layer, gids in zip(layers, (layout.plan + FIRST_GID, _terrain_gids(layout.plan)), strict=True):
        if encoding == "csv":
            datas.append(b"[" + csv_text(gids, newlines=False) + b"]")
        else:
            compression = encoding.partition("-")[2]
            layer["encoding"], layer["compression"] = "base64", compression  # "" = none, as Tiled writes
            datas.append(b'"' + _base64_gids(gids, compression) + b'"')
    objects = [
        {"height": tile_size, "id": i, "name": kind, "rotation": 0, "type": kind, "visible": True,
         "width": tile_size, "x": x * tile_size, "y": y * tile_size,
         **({"properties": [{"name": k, "type": property_type(v), "value": v} for k, v in props.items()]}
            if props else {})}
        for i, (kind, x, y, props) in enumerate(layout.objects, start=1)
    ]
    document = {
        "compressionlevel": -1, "height": layout.height, "infinite": False,
        "layers": [*layers, {
            "draworder": "topdown", "id": 2, "name": OBJECT_LAYER, "objects": objects,
            "opacity": 1, "type": "objectgroup", "visible": True, "x": 0, "y": 0,
        }],
        "nextlayerid": 4, "nextobjectid": len(objects) + 1, "orientation": "orthogonal",
        "renderorder": "right-down", "tiledversion": TILED_VERSION, "tileheight": tile_size,
        "tilesets": [tileset], "tilewidth": tile_size, "type": "map", "version": FORMAT_VERSION,
        "width": layout.width,
    }
    head, _, rest = _json_bytes(document).partition(json.dumps(placeholders[0]).encode("ascii"))
    middle, _, tail = rest.partition(json.dumps(placeholders[1]).encode("ascii"))
    for piece in (head, datas[0], middle, datas[1], tail):
        file.write(piece)


def write_tileset_files(folder: str | Path, theme: Theme | None = None, base: str = "tiles",
                        tile_size: int = DEFAULT_TILE_SIZE) -> list[Path]:
    """Write ``<base>.png``, ``<base>.tsx`` and ``<base>.tsj`` into ``folder``; return their paths.

    For maps written to memory, which refer to ``tiles.png`` (or ``tiles.tsx``/``.tsj``).

    Example
    -------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     [p.name for p in write_tileset_files(folder)]
    ['tiles.png', 'tiles.tsx', 'tiles.tsj']
    """
    from ...materials import as_theme

    theme = as_theme(theme)
    folder = Path(folder)
    layout = _Layout(np.zeros((1, 1), np.uint8), tile_kinds(theme), [], tile_size, theme.name)
    image = f"{base}.png"
    write_sidecar(folder, image, tileset_png(theme, tile_size))
    write_sidecar(folder, f"{base}.tsx",
                  (_xml_declaration() + _tileset_xml(layout, image, "", version=True)).encode("utf-8"))
    tsj = {**_tileset_json(layout, image), "type": "tileset", "version": FORMAT_VERSION,
           "tiledversion": TILED_VERSION}
    write_sidecar(folder, f"{base}.tsj", _json_bytes(tsj))
    return [folder / f"{base}{suffix}" for suffix in (".png", ".tsx", ".tsj")]


def check_size(shape: tuple[int, int, int]) -> None:
    """Refuse anything but a one-layer plan, before any work is done.

    >>> check_size((1, 3, 0))
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: a Tiled map cannot draw an empty plan (0x3 tiles)
    """
    check_plan_size(shape, "a Tiled map", MAX_SIDE)


# --- the pieces ---------------------------------------------------------------------------------


class _Layout:
    """What both formats draw: the plan, the tile set's tiles, the objects."""

    def __init__(self, plan: np.ndarray, kinds: list[TileKind], objects: list, tile_size: int, name: str):
        self.plan, self.kinds, self.objects, self.tile_size, self.name = plan, kinds, objects, tile_size, name
        self.height, self.width = plan.shape

    def terrain_colors(self) -> dict[str, str]:
        """The Wang colours' ``#rrggbb`` by name: the wall and floor tiles' colours."""
        return {"wall": self.kinds[Material.WALL].hex_color, "floor": self.kinds[Material.FLOOR].hex_color}


def _layout(blocks: np.ndarray, theme: Theme, encoding: str, tile_size: int, extra=None) -> _Layout:
    if encoding not in ENCODINGS:
        raise BlockmazeError(f"unknown Tiled encoding {encoding!r}; choose one of: {', '.join(ENCODINGS)}")
    plan = map_plan(blocks, "Tiled map", 16, tile_size)
    return _Layout(plan, tile_kinds(theme), entities(plan, extra), int(tile_size), theme.name)


def _terrain_gids(plan: np.ndarray) -> np.ndarray:
    """The terrain layer's GIDs (uint8): ``FIRST_GID`` + terrain tile id, 0 where none goes."""
    tiles = terrain_sets.terrain_tiles(plan)
    return np.where(tiles < 0, 0, tiles + FIRST_GID).astype(np.uint8)


def _base64_gids(gids: np.ndarray, compression: str) -> bytes:
    raw = gids.astype("<u4").tobytes()
    if compression == "zlib":
        raw = zlib.compress(raw, 6)
    elif compression == "gzip":
        raw = gzip.compress(raw, 6, mtime=0)
    return base64.b64encode(raw)


def _attr(value: object) -> str:
    """``value`` escaped for a double-quoted XML attribute."""
    text = str(value)
    for plain, escaped in (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ('"', "&quot;"),
                           ("\n", "&#10;"), ("\r", "&#13;"), ("\t", "&#9;")):
        text = text.replace(plain, escaped)
    return text


def _xml_declaration() -> str:
    return '<?xml version="1.0" encoding="UTF-8"?>\n'


def _tileset_xml(layout: _Layout, image: str, firstgid: str, version: bool, indent: str = "") -> str:
    size = layout.tile_size
    versions = f' version="{FORMAT_VERSION}" tiledversion="{TILED_VERSION}"' if version else ""
    lines = [
        f'<tileset{versions}{firstgid} name="{_attr(layout.name)}" tilewidth="{size}" '
        f'tileheight="{size}" tilecount="{TILESET_COUNT}" columns="{TILESET_COUNT}">',
        f' <image source="{_attr(image)}" width="{size * TILESET_COUNT}" height="{size}"/>',
    ]
    for kind in layout.kinds:
        lines += [
            f' <tile id="{kind.id}" type="{kind.name}">',
            "  <properties>",
            f'   <property name="glyph" value="{_attr(kind.glyph)}"/>',
            f'   <property name="name" value="{kind.name}"/>',
            f'   <property name="transparent" type="bool" value="{_bool(kind.transparent)}"/>',
            f'   <property name="walkable" type="bool" value="{_bool(kind.walkable)}"/>',
            "  </properties>",
            " </tile>",
        ]
    wall, floor = (layout.terrain_colors()[name] for name in terrain_sets.COLOR_NAMES)
    lines += [
        " <wangsets>",
        f'  <wangset name="{terrain_sets.TERRAIN_NAME}" type="corner" tile="{terrain_sets.ALL_WALL}">',
        f'   <wangcolor name="wall" color="{wall}" tile="{terrain_sets.ICONS["wall"]}" probability="1"/>',
        f'   <wangcolor name="floor" color="{floor}" tile="{terrain_sets.ICONS["floor"]}" probability="1"/>',
    ]
    lines += [f'   <wangtile tileid="{terrain_sets.FIRST + mask}" wangid="{",".join(map(str, terrain_sets.wang_id(mask)))}"/>'
              for mask in range(terrain_sets.COUNT)]
    lines += ["  </wangset>", " </wangsets>", "</tileset>"]
    return "".join(f"{indent}{line}\n" for line in lines)


def _tileset_json(layout: _Layout, image: str) -> dict:
    size = layout.tile_size
    tiles = [
        {"id": kind.id, "type": kind.name, "properties": [
            {"name": "glyph", "type": "string", "value": kind.glyph},
            {"name": "name", "type": "string", "value": kind.name},
            {"name": "transparent", "type": "bool", "value": kind.transparent},
            {"name": "walkable", "type": "bool", "value": kind.walkable},
        ]}
        for kind in layout.kinds
    ]
    wangset = {
        "colors": [{"color": layout.terrain_colors()[name], "name": name, "probability": 1,
                    "tile": terrain_sets.ICONS[name]}
                   for name in terrain_sets.COLOR_NAMES],
        "name": terrain_sets.TERRAIN_NAME, "tile": terrain_sets.ALL_WALL, "type": "corner",
        "wangtiles": [{"tileid": terrain_sets.FIRST + mask, "wangid": terrain_sets.wang_id(mask)}
                      for mask in range(terrain_sets.COUNT)],
    }
    return {
        "columns": TILESET_COUNT, "image": image, "imageheight": size,
        "imagewidth": size * TILESET_COUNT, "margin": 0, "name": layout.name, "spacing": 0,
        "tilecount": TILESET_COUNT, "tileheight": size, "tiles": tiles, "tilewidth": size,
        "wangsets": [wangset],
    }


def _properties_xml(properties: dict) -> str:
    """The rest of an ``<object`` tag holding ``properties``."""
    lines = "".join(
        f'    <property name="{_attr(k)}"'
        + ("" if property_type(v) == "string" else f' type="{property_type(v)}"')
        + f' value="{_attr(_bool(v) if property_type(v) == "bool" else v)}"/>\n'
        for k, v in properties.items()
    )
    return f">\n   <properties>\n{lines}   </properties>\n  </object>\n"


def _bool(value: bool) -> str:
    return "true" if value else "false"


def _json_bytes(document: dict) -> bytes:
    return (json.dumps(document, sort_keys=True, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


register_writer("tmx", write_tmx, check_size, prepare_theme=checked_theme)
register_writer("tmj", write_tmj, check_size, prepare_theme=checked_theme)
