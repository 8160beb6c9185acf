"""LDtk project ``.ldtk`` (LDtk 1.5 JSON; ldtkpy and LDtk's own loaders), one level per file.

The level has four layers, top first, all on a grid of ``tile_size`` pixels:

* ``Entities`` — start, goal, doors and stairs from the plan, then a dungeon level's
  ``entities`` (monsters, items, treasure, keys; see :func:`tiles.entities`), each one tile in
  size with its properties as fields (stairs: ``direction``, ``level``; a door: ``locked``,
  ``key``; a key: ``id``; spawns: ``rule``, ``distance``); fields a thing does not have are null;
* ``Terrain`` — an auto-layer that paints the walls and floors of ``Plan`` with terrain tiles,
  set half a tile right and down (a dual grid: :mod:`.terrain`). Its rule group ``walls and
  floors`` holds one 3x3 rule a terrain tile (the cell, its right, lower and lower-right cells
  must be wall or must not be: :func:`terrain_sets.rule_pattern`), ``breakOnMatch``, no flips,
  out-of-bounds cells matching nothing; ``autoLayerTiles`` holds the tiles those rules paint,
  so repainting ``Plan`` in LDtk repaints them (docs/guides/terrain-sets.md);
* ``Tiles`` — a tile layer drawn from the theme's tile set (tile id = material value), the PNG
  strip of :func:`tiles.tileset_png` written beside the project as ``<stem>-tiles.png`` (or
  ``tileset_file``; a project in memory refers to ``tiles.png`` and writes nothing else);
* ``Plan`` — an IntGrid layer: value = material value + 1 (IntGrid 0 means empty), named after
  the material (``wall``, ``floor``, ``door``, ``stairs``, ...) and coloured by the theme.

Every ``iid`` is a UUID derived from what it names (no clock, no randomness), and keys are
sorted: the same plan gives the same bytes.
"""

from __future__ import annotations

import json
import uuid
from typing import BinaryIO

import numpy as np

from ...errors import BlockmazeError
from ...materials import Material, Theme
from .. import register_writer
from ..minecraft.blockdata import checked_theme  # (its states exist in some release)
from .tiles import (
    DEFAULT_TILE_SIZE, MAX_TILE_SIZE, TILE_COUNT, TILESET_COUNT, check_plan_size, csv_text,
    entities as map_entities, map_plan, tile_kinds, tileset_beside,
)
from . import terrain_sets

JSON_VERSION = "1.5.3"
APP_BUILD_ID = 473703.0
ENTITY_LAYER, TILE_LAYER, GRID_LAYER, TERRAIN_LAYER = "Entities", "Tiles", "Plan", "Terrain"
WALL_VALUE = Material.WALL + 1  # the wall's IntGrid value (value = material + 1)
ENTITY_UID, TILE_UID, GRID_UID, TILESET_UID, LEVEL_UID = 1, 2, 3, 4, 5
# entity kind -> its fields (name, LDtk type); an entity without a field's property leaves it null
ENTITY_FIELDS = {
    "start": (), "goal": (), "checkpoint": (("order", "Int"),), "exit": (),
    "door": (("locked", "Bool"), ("key", "Int")),
    "stairs": (("direction", "String"), ("level", "Int")),
    "key": (("key", "Int"),),  # the id of the lock it opens (the door's "key")
    "monster": (("rule", "String"), ("distance", "Int")),
    "item": (("rule", "String"), ("distance", "Int")),
    "treasure": (("rule", "String"), ("distance", "Int")),
}
ENTITY_COLORS = {"start": Material.START, "goal": Material.GOAL, "door": Material.DOOR,
                 "stairs": Material.STAIRS, "checkpoint": Material.CHECKPOINT,
                 "exit": Material.EXIT}
MAX_SIDE = 0x7FFFFFFF // MAX_TILE_SIZE
_NAMESPACE = uuid.UUID("6d1f0c4e-8b7a-4f4e-9d3c-0b1a2c3d4e5f")


def write_ldtk(
    blocks: np.ndarray,
    file: BinaryIO,
    theme: Theme,
    tile_size: int = DEFAULT_TILE_SIZE,
    tileset_file: str | None = None,
    entities=None,
) -> None:
    """Write a one-layer (1, z, x) plan as an LDtk project (see the module notes).

    Example
    -------
    >>> import io
    >>> from blockmaze.materials import load_theme
    >>> out = io.BytesIO()
    >>> write_ldtk(np.array([[[1, 1, 1], [5, 0, 6]]], np.uint8), out, load_theme())
    >>> level = json.loads(out.getvalue())["levels"][0]
    >>> [layer["__identifier"] for layer in level["layerInstances"]]
    ['Entities', 'Terrain', 'Tiles', 'Plan']
    >>> level["layerInstances"][3]["intGridCsv"]
    [2, 2, 2, 6, 1, 7]
    >>> [tile["t"] for tile in level["layerInstances"][1]["autoLayerTiles"]]  # 15 + a mask
    [18, 18]
    """
    plan = map_plan(blocks, "LDtk project", 16, tile_size)
    found = map_entities(plan, entities)
    unknown = sorted({kind for kind, *_ in found} - set(ENTITY_FIELDS))
    if unknown:
        raise BlockmazeError(f"LDtk entities are {', '.join(ENTITY_FIELDS)}; got {', '.join(unknown)}")
    _, _, image = tileset_beside(file, theme, tile_size, tileset_file, (".ldtk",))
    size = int(tile_size)
    height, width = plan.shape
    kinds = tile_kinds(theme)
    entity_defs, field_uids, terrain_uid = _entity_defs(theme, size, LEVEL_UID + 1)
    rule_uids = [terrain_uid + 2 + mask for mask in range(terrain_sets.COUNT)]
    next_uid = rule_uids[-1] + 1
    half = terrain_sets.half_tile(size)
    level_iid = _iid("level", 0)
    layers = [
        _layer_instance(ENTITY_LAYER, "Entities", ENTITY_UID, width, height, size, level_iid,
                        entityInstances=[_entity(kind, x, y, props, i, size, entity_defs, field_uids,
                                                 level_iid, theme)
                                         for i, (kind, x, y, props) in enumerate(found)]),
        _layer_instance(TERRAIN_LAYER, "AutoLayer", terrain_uid, width, height, size, level_iid,
                        autoLayerTiles="\x00terrain\x00", __tilesetDefUid=TILESET_UID,
                        __tilesetRelPath=image, __pxTotalOffsetX=half, __pxTotalOffsetY=half),
        _layer_instance(TILE_LAYER, "Tiles", TILE_UID, width, height, size, level_iid,
                        gridTiles="\x00tiles\x00", __tilesetDefUid=TILESET_UID,
                        __tilesetRelPath=image),
        _layer_instance(GRID_LAYER, "IntGrid", GRID_UID, width, height, size, level_iid,
                        intGridCsv="\x00grid\x00"),
    ]
    background = theme.color(Material.AIR)
    level = {
        "__bgColor": _hex(background), "__bgPos": None, "__neighbours": [],
        "__smartColor": _hex(theme.color(Material.WALL)), "bgColor": None, "bgPivotX": 0.5,
        "bgPivotY": 0.5, "bgPos": None, "bgRelPath": None, "externalRelPath": None,
        "fieldInstances": [], "identifier": "Level_0", "iid": level_iid,
        "layerInstances": layers, "pxHei": height * size, "pxWid": width * size,
        "uid": LEVEL_UID, "useAutoIdentifier": True, "worldDepth": 0, "worldX": 0, "worldY": 0,
    }
    defs = {
        "entities": list(entity_defs.values()), "enums": [], "externalEnums": [],
        "layers": [_layer_def(ENTITY_LAYER, "Entities", ENTITY_UID, size),
                   _layer_def(TERRAIN_LAYER, "AutoLayer", terrain_uid, size, tilesetDefUid=TILESET_UID,
                              autoSourceLayerDefUid=GRID_UID, autoTilesetDefUid=TILESET_UID,
                              pxOffsetX=half, pxOffsetY=half,
                              autoRuleGroups=[_terrain_rules(terrain_uid + 1, rule_uids, size)]),
                   _layer_def(TILE_LAYER, "Tiles", TILE_UID, size, tilesetDefUid=TILESET_UID),
                   _layer_def(GRID_LAYER, "IntGrid", GRID_UID, size, intGridValues=[
                       {"color": kind.hex_color, "groupUid": 0, "identifier": kind.name,
                        "tile": None, "value": kind.id + 1} for kind in kinds])],
        "levelFields": [],
        "tilesets": [{
            "__cHei": 1, "__cWid": TILESET_COUNT, "cachedPixelData": None, "customData": [],
            "embedAtlas": None, "enumTags": [], "identifier": "Materials", "padding": 0,
            "pxHei": size, "pxWid": size * TILESET_COUNT, "relPath": image, "savedSelections": [],
            "spacing": 0, "tags": [], "tagsSourceEnumUid": None, "tileGridSize": size,
            "uid": TILESET_UID,
        }],
    }
    project = {
        "__header__": {"app": "LDtk", "appAuthor": "Sebastien 'deepnight' Benard",
                       "appVersion": JSON_VERSION, "doc": "https://ldtk.io/json",
                       "fileType": "LDtk Project JSON", "schema": "https://ldtk.io/files/JSON_SCHEMA.json",
                       "url": "https://ldtk.io"},
        "appBuildId": APP_BUILD_ID, "backupLimit": 10, "backupOnSave": False, "backupRelPath": None,
        "bgColor": _hex(background), "customCommands": [], "defaultEntityHeight": size,
        "defaultEntityWidth": size, "defaultGridSize": size, "defaultLevelBgColor": _hex(background),
        "defaultLevelHeight": height * size, "defaultLevelWidth": width * size, "defaultPivotX": 0.0,
        "defaultPivotY": 0.0, "defs": defs, "dummyWorldIid": _iid("world", 0), "exportLevelBg": True,
        "exportTiled": False, "externalLevels": False, "flags": [], "identifierStyle": "Free",
        "iid": _iid("project", 0), "imageExportMode": "None", "jsonStyle": "Compact",
        "jsonVersion": JSON_VERSION, "levelNamePattern": "Level_%idx", "levels": [level],
        "minifyJson": False, "nextUid": next_uid, "pngFilePattern": None, "simplifiedExport": False,
        "toc": [], "tutorialDesc": None, "worldGridHeight": height * size,
        "worldGridWidth": width * size, "worldLayout": "Free", "worlds": [],
    }
    text = json.dumps(project, sort_keys=True, indent=1, ensure_ascii=False) + "\n"
    head, _, rest = text.partition('"\\u0000terrain\\u0000"')
    between, _, rest = rest.partition('"\\u0000tiles\\u0000"')
    middle, _, tail = rest.partition('"\\u0000grid\\u0000"')
    file.write(head.encode("utf-8"))
    for chunk in _terrain_tiles(plan, size, rule_uids):
        file.write(chunk)
    file.write(between.encode("utf-8"))
    for chunk in _grid_tiles(plan, size):
        file.write(chunk)
    file.write(middle.encode("utf-8"))
    file.write(b"[" + csv_text(plan, 1, newlines=False) + b"]")
    file.write(tail.encode("utf-8"))


def _grid_tiles(plan: np.ndarray, size: int):
    """The tile layer's ``gridTiles`` array, one row of blocks at a time (bytes): one tile per
    block, tile id = material value."""
    yield from _tiles_json(plan.tolist(), size, {t: '{"a":1,"d":[' for t in range(TILE_COUNT)})


def _terrain_tiles(plan: np.ndarray, size: int, rule_uids: list[int]):
    """The terrain layer's ``autoLayerTiles``, one row at a time (bytes): the tile the rule of
    each cell's terrain mask paints there (``d`` = the rule's uid and the cell's index)."""
    heads = {terrain_sets.FIRST + mask: f'{{"a":1,"d":[{uid},' for mask, uid in enumerate(rule_uids)}
    yield from _tiles_json(terrain_sets.terrain_tiles(plan).tolist(), size, heads)


def _tiles_json(rows: list[list[int]], size: int, heads: dict[int, str]):
    """A JSON array of LDtk tiles, a row of cells at a time (bytes): for each cell of ``rows``
    holding a tile id (-1: none), ``heads[t]`` (the start of the tile and of its ``d``), the
    cell's index, then ``f`` 0, ``px``, ``src`` and ``t``; the pieces made once, not a tile.

    >>> b"".join(_tiles_json([[2, -1]], 16, {2: '{"a":1,"d":[7,'}))
    b'[{"a":1,"d":[7,0],"f":0,"px":[0,0],"src":[32,0],"t":2}]'
    """
    width = len(rows[0]) if rows else 0
    tails = {t: f'],"src":[{t * size},0],"t":{t}}}' for t in heads}
    columns = [f'],"f":0,"px":[{x * size},' for x in range(width)]
    yield b"["
    first = True
    for y, row in enumerate(rows):
        start, top = y * width, str(y * size)
        text = ",".join(heads[t] + str(start + x) + columns[x] + top + tails[t]
                        for x, t in enumerate(row) if t >= 0)
        if text:
            yield (("" if first else ",") + text).encode("ascii")
            first = False
    yield b"]"


def _terrain_rules(group_uid: int, rule_uids: list[int], size: int) -> dict:
    """The terrain's rule group: one rule a mask, in mask order (see the module notes)."""
    rules = [{
        "active": True, "alpha": 1.0, "breakOnMatch": True, "chance": 1.0, "checker": "None",
        "flipX": False, "flipY": False, "invalidated": False, "outOfBoundsValue": None,
        "pattern": terrain_sets.rule_pattern(mask, WALL_VALUE), "perlinActive": False,
        "perlinOctaves": 2, "perlinScale": 0.2, "perlinSeed": uid, "pivotX": 0.0,
        "pivotY": 0.0, "size": 3, "tileIds": [terrain_sets.FIRST + mask],
        "tileRectsIds": [[terrain_sets.FIRST + mask]], "tileMode": "Single", "tileRandomXMax": 0,
        "tileRandomXMin": 0, "tileRandomYMax": 0, "tileRandomYMin": 0, "tileXOffset": 0,
        "tileYOffset": 0, "uid": uid, "xModulo": 1, "xOffset": 0, "yModulo": 1, "yOffset": 0,
    } for mask, uid in enumerate(rule_uids)]
    return {"active": True, "biomeRequirementMode": 0, "collapsed": False, "color": None,
            "icon": None, "isOptional": False, "name": terrain_sets.TERRAIN_NAME,
            "requiredBiomeValues": [], "rules": rules, "uid": group_uid, "usesWizard": False}


def _layer_def(name, kind, uid, size, tilesetDefUid=None, intGridValues=(), autoRuleGroups=(),
               autoSourceLayerDefUid=None, autoTilesetDefUid=None, pxOffsetX=0, pxOffsetY=0):
    return {
        "__type": kind, "autoRuleGroups": list(autoRuleGroups),
        "autoSourceLayerDefUid": autoSourceLayerDefUid, "autoTilesetDefUid": autoTilesetDefUid, "canSelectWhenInactive": True, "displayOpacity": 1.0,
        "doc": None, "excludedTags": [], "gridSize": size, "guideGridHei": 0, "guideGridWid": 0,
        "hideFieldsWhenInactive": True, "hideInList": False, "identifier": name,
        "inactiveOpacity": 1.0, "intGridValues": list(intGridValues), "intGridValuesGroups": [],
        "parallaxFactorX": 0.0, "parallaxFactorY": 0.0, "parallaxScaling": True,
        "pxOffsetX": pxOffsetX, "pxOffsetY": pxOffsetY, "renderInWorldView": True, "requiredTags": [], "tilePivotX": 0.0,
        "tilePivotY": 0.0, "tilesetDefUid": tilesetDefUid, "type": kind, "uiColor": None,
        "uiFilterTags": [], "uid": uid, "useAsyncRender": False,
    }


def _layer_instance(name, kind, uid, width, height, size, level_iid, **content):
    layer = {
        "__cHei": height, "__cWid": width, "__gridSize": size, "__identifier": name,
        "__opacity": 1.0, "__pxTotalOffsetX": 0, "__pxTotalOffsetY": 0, "__tilesetDefUid": None,
        "__tilesetRelPath": None, "__type": kind, "autoLayerTiles": [], "entityInstances": [],
        "gridTiles": [], "iid": _iid(f"layer:{level_iid}", uid), "intGridCsv": [], "layerDefUid": uid,
        "levelId": LEVEL_UID, "optionalRules": [], "overrideTilesetUid": None, "pxOffsetX": 0,
        "pxOffsetY": 0, "seed": 0, "visible": True,
    }
    layer.update(content)
    return layer


def _entity_defs(theme: Theme, size: int, uid: int):
    """Entity definitions by kind, the uid of each (kind, field), and the next free uid."""
    defs, field_uids = {}, {}
    for kind, fields in ENTITY_FIELDS.items():
        entity_uid = uid
        uid += 1
        field_defs = []
        for name, type_ in fields:
            field_uids[kind, name] = uid
            field_defs.append(_field_def(name, type_, uid))
            uid += 1
        defs[kind] = {
            "allowOutOfBounds": False, "color": _hex(_entity_color(kind, theme)), "doc": None,
            "exportToToc": False, "fieldDefs": field_defs, "fillOpacity": 0.5, "height": size,
            "hollow": False, "identifier": kind.capitalize(), "keepAspectRatio": True,
            "limitBehavior": "MoveLastOne", "limitScope": "PerLevel", "lineOpacity": 1.0,
            "maxCount": 0, "maxHeight": None, "maxWidth": None, "minHeight": None, "minWidth": None,
            "nineSliceBorders": [], "pivotX": 0.0, "pivotY": 0.0, "renderMode": "Rectangle",
            "resizableX": False, "resizableY": False, "showName": True, "tags": [], "tileId": None,
            "tileOpacity": 1.0, "tileRect": None, "tileRenderMode": "FitInside", "tilesetId": None,
            "uiTileRect": None, "uid": entity_uid, "width": size,
        }
    return defs, field_uids, uid


def _field_def(name: str, type_: str, uid: int) -> dict:
    return {
        "__type": type_, "acceptFileTypes": None, "allowOutOfLevelRef": True,
        "allowedRefTags": [], "allowedRefs": "Any", "allowedRefsEntityUid": None,
        "arrayMaxLength": None, "arrayMinLength": None, "autoChainRef": True, "canBeNull": True,
        "defaultOverride": None, "doc": None, "editorAlwaysShow": False, "editorCutLongValues": True,
        "editorDisplayColor": None, "editorDisplayMode": "NameAndValue", "editorDisplayPos": "Above",
        "editorDisplayScale": 1.0, "editorLinkStyle": "StraightArrow", "editorShowInWorld": True,
        "editorTextPrefix": None, "editorTextSuffix": None, "exportToToc": False,
        "identifier": name, "isArray": False, "max": None, "min": None, "regex": None,
        "searchable": False, "symmetricalRef": False, "textLanguageMode": None, "tilesetUid": None,
        "type": "F_" + type_, "uid": uid, "useForSmartColor": False,
    }


def _entity(kind, x, y, props, index, size, defs, field_uids, level_iid, theme) -> dict:
    fields = [{
        "__identifier": name, "__tile": None, "__type": type_, "__value": props.get(name),
        "defUid": field_uids[kind, name], "realEditorValues": [],
    } for name, type_ in ENTITY_FIELDS[kind]]
    return {
        "__grid": [x, y], "__identifier": defs[kind]["identifier"], "__pivot": [0.0, 0.0],
        "__smartColor": defs[kind]["color"], "__tags": [], "__tile": None,
        "__worldX": x * size, "__worldY": y * size, "defUid": defs[kind]["uid"],
        "fieldInstances": fields, "height": size, "iid": _iid(f"entity:{level_iid}", index),
        "px": [x * size, y * size], "width": size,
    }


def _entity_color(kind: str, theme: Theme):
    material = ENTITY_COLORS.get(kind)
    if material is not None:
        return theme.color(material)
    return {"key": (230, 200, 40), "monster": (200, 40, 40), "item": (60, 120, 220),
            "treasure": (240, 170, 20)}[kind]


def _iid(what: str, index: int) -> str:
    return str(uuid.uuid5(_NAMESPACE, f"blockmaze:{what}:{index}"))


def _hex(color) -> str:
    return "#{:02X}{:02X}{:02X}".format(*color)


def check_size(shape: tuple[int, int, int]) -> None:
    """Refuse anything but a one-layer plan, before any work is done.

    >>> check_size((1, 0, 2))
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: an LDtk project cannot draw an empty plan (2x0 tiles)
    """
    check_plan_size(shape, "an LDtk project", MAX_SIDE)


register_writer("ldtk", write_ldtk, check_size, prepare_theme=checked_theme)
