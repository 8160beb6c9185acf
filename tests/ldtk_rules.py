"""LDtk's auto-layer rules, run the way LDtk documents them, to check the tiles a project holds.

It shares no code with blockmaze's writer: it reads a project's JSON (a dict), takes an
auto-layer's rule groups and the IntGrid layer they read, and paints every cell as LDtk's
auto-layer docs and JSON format describe (https://ldtk.io/docs/general/auto-layers/,
https://ldtk.io/json/#ldtk-AutoRuleDef, https://ldtk.io/json/#ldtk-Tile):

* groups top down, rules top down in each; an inactive group or rule paints nothing;
* a rule applies at cells where ``(cx - xOffset) % xModulo == 0`` and likewise for y;
* the pattern (``size`` x ``size``, row-major, centred on the cell) holds per cell: 0 anything;
  ``v > 0`` the cell must hold IntGrid value v; ``v < 0`` it must not hold -v; 1000001 it must
  hold some value (not empty); -1000001 it must be empty. A cell past the level's edge holds the
  rule's ``outOfBoundsValue``; when that is null, a pattern that needs such a cell does not match;
* the pattern is tried as it is, then mirrored left-right (``flipX``), then top-bottom
  (``flipY``), then both, the first that matches painting its tile with those flip bits
  (``f``: 1 for x, 2 for y);
* a matching rule with ``breakOnMatch`` keeps the rules after it from that cell;
* a ``Single``-mode rule paints one of its ``tileRectsIds`` (or the older ``tileIds``) at the
  cell, at pixel ``[cx * gridSize, cy * gridSize]`` of the layer (a layer offset moves the whole
  layer), ``src`` its rectangle in the tile set, ``d = [rule uid, cx + cy * cWid]``.

What depends on LDtk's random numbers (``chance`` below 1, Perlin filters, several tiles to pick
from, random tile offsets) or on modes blockmaze does not use (checker, stamps, IntGrid groups)
is refused, so a project using them cannot pass unchecked.
"""

from __future__ import annotations

ANYTHING = 1000001


def layer_def(project: dict, identifier: str) -> dict:
    (found,) = [d for d in project["defs"]["layers"] if d["identifier"] == identifier]
    return found


def instance(level: dict, uid: int) -> dict:
    (found,) = [layer for layer in level["layerInstances"] if layer["layerDefUid"] == uid]
    return found


def int_grid(level: dict, uid: int) -> list[list[int]]:
    """The IntGrid values of layer ``uid`` in ``level``, as rows."""
    layer = instance(level, uid)
    width, values = layer["__cWid"], layer["intGridCsv"]
    return [values[y * width:(y + 1) * width] for y in range(layer["__cHei"])]


def matches(rule: dict, grid: list[list[int]], cx: int, cy: int, dir_x: int, dir_y: int) -> bool:
    """Whether ``rule``'s pattern, mirrored by ``dir_x``/``dir_y`` (1 or -1), holds at (cx, cy)."""
    size, pattern = rule["size"], rule["pattern"]
    assert size in (1, 3, 5, 7) and len(pattern) == size * size
    radius = size // 2
    height, width = len(grid), len(grid[0])
    for py in range(size):
        for px in range(size):
            want = pattern[px + py * size]
            if want == 0:
                continue
            x, y = cx + dir_x * (px - radius), cy + dir_y * (py - radius)
            value = grid[y][x] if 0 <= x < width and 0 <= y < height else rule["outOfBoundsValue"]
            if value is None:
                return False
            if abs(want) == ANYTHING:
                if (want > 0) != (value != 0):
                    return False
            elif abs(want) > 999:
                raise NotImplementedError("IntGrid group values in a pattern are not modelled")
            elif want > 0 and value != want or want < 0 and value == -want:
                return False
    return True


def _tile_of(rule: dict) -> int:
    for key, what in (("chance", 1), ("checker", "None"), ("tileMode", "Single"), ("perlinActive", False)):
        if rule.get(key, what) != what:
            raise NotImplementedError(f"rule {rule['uid']}: {key}={rule[key]!r} is not modelled")
    for key in ("tileRandomXMin", "tileRandomXMax", "tileRandomYMin", "tileRandomYMax",
                "tileXOffset", "tileYOffset"):
        if rule.get(key, 0):
            raise NotImplementedError(f"rule {rule['uid']}: tile offsets are not modelled")
    rects = rule.get("tileRectsIds")
    if rects is None:
        rects = [[t] for t in rule["tileIds"]]
    if len(rects) != 1 or len(rects[0]) != 1:
        raise NotImplementedError(f"rule {rule['uid']}: a random pick among tiles is not modelled")
    return rects[0][0]


def paint(project: dict, identifier: str, level_index: int = 0) -> set[tuple]:
    """The tiles the rules of auto-layer ``identifier`` paint on its level, each
    ``(cx, cy, tile id, flip bits, rule uid, px, src, alpha)``."""
    definition = layer_def(project, identifier)
    level = project["levels"][level_index]
    grid = int_grid(level, definition["autoSourceLayerDefUid"] or definition["uid"])
    (tileset,) = [t for t in project["defs"]["tilesets"] if t["uid"] == definition["tilesetDefUid"]]
    size = definition["gridSize"]
    rules = [rule for group in definition["autoRuleGroups"] if group["active"]
             for rule in group["rules"] if rule["active"]]
    tiles = {rule["uid"]: _tile_of(rule) for rule in rules}
    painted = set()
    for cy in range(len(grid)):
        for cx in range(len(grid[0])):
            for rule in rules:
                if (cx - rule["xOffset"]) % rule["xModulo"] or (cy - rule["yOffset"]) % rule["yModulo"]:
                    continue
                tries = [(1, 1, 0)] + [(-1, 1, 1)] * rule["flipX"] + [(1, -1, 2)] * rule["flipY"] \
                    + [(-1, -1, 3)] * (rule["flipX"] and rule["flipY"])
                flips = next((f for dx, dy, f in tries if matches(rule, grid, cx, cy, dx, dy)), None)
                if flips is None:
                    continue
                t = tiles[rule["uid"]]
                src = (tileset["padding"] + t % tileset["__cWid"] * (tileset["tileGridSize"] + tileset["spacing"]),
                       tileset["padding"] + t // tileset["__cWid"] * (tileset["tileGridSize"] + tileset["spacing"]))
                painted.add((cx, cy, t, flips, rule["uid"], (cx * size, cy * size), src, rule["alpha"]))
                if rule["breakOnMatch"]:
                    break
    return painted


def written(project: dict, identifier: str, level_index: int = 0) -> set[tuple]:
    """The tiles a project holds in auto-layer ``identifier``'s ``autoLayerTiles``, in the
    form :func:`paint` returns."""
    definition = layer_def(project, identifier)
    layer = instance(project["levels"][level_index], definition["uid"])
    width = layer["__cWid"]
    found = set()
    for tile in layer["autoLayerTiles"]:
        rule, coord = tile["d"]
        found.add((coord % width, coord // width, tile["t"], tile["f"], rule, tuple(tile["px"]),
                   tuple(tile["src"]), tile["a"]))
    assert len(found) == len(layer["autoLayerTiles"]), "a tile written twice"
    return found
