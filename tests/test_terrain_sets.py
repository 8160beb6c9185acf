"""Terrain-aware tile maps: Tiled's Wang (terrain) set and LDtk's auto-layer rules.

Tiled: pytiled-parser reads the tile set's Wang set and the terrain layer of TMX and TMJ maps;
for random plans every terrain tile's Wang id has, at each corner, the terrain (wall or floor)
of the block at that corner, and the tile's picture shows it. Tiled itself (Debian's tiled)
reads the maps and writes them back with the Wang set and the terrain layer intact, and its own
WangSet API (tests/external/tiled_wang_probe.js) reads the same corners.

LDtk: ``ldtk_rules`` runs the project's auto-layer rules the way LDtk documents them over the
project's IntGrid; it paints exactly the tiles the project holds, and over a repainted IntGrid
exactly the tiles blockmaze writes for that plan.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
import pytiled_parser
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from ldtkpy.api import ldtk_json_from_dict
from PIL import Image

import blockmaze as bm
import ldtk_rules
import readers
from blockmaze.materials import Material

THEME = bm.load_theme()
PROBE = Path(__file__).with_name("external") / "tiled_wang_probe.js"
WALL_VALUE = int(Material.WALL) + 1  # LDtk's IntGrid value = material + 1
ENCODINGS = ("csv", "base64", "base64-zlib", "base64-gzip")
# Tiled's Wang id positions (top, top right, right, bottom right, bottom, bottom left, left, top left)
TOP_RIGHT, BOTTOM_RIGHT, BOTTOM_LEFT, TOP_LEFT = 1, 3, 5, 7
CORNERS = {TOP_LEFT: (0, 0), TOP_RIGHT: (0, 1), BOTTOM_LEFT: (1, 0), BOTTOM_RIGHT: (1, 1)}  # -> (dy, dx)

# plans of materials, walls most often (so every corner mix turns up)
plans = arrays(np.uint8, st.tuples(st.integers(1, 9), st.integers(1, 9)),
               elements=st.sampled_from([1, 1, 1, 0, 2, 5, 6, 7, 8]))


def terrain_name(material: int) -> str:
    return "wall" if material == Material.WALL else "floor"


def write(plan: np.ndarray, path: Path, **options) -> Path:
    bm.write(plan[None], path, **options)
    return path


def maze_plan(seed: int = 2) -> np.ndarray:
    maze = bm.generate((5, 7), rng=seed)
    return bm.to_blocks(maze, endpoints=bm.place_endpoints(maze), solution=True)


# --- Tiled ----------------------------------------------------------------------------------------


def check_tiled_terrain(path: Path, plan: np.ndarray, tile_size: int) -> None:
    """pytiled-parser's reading of the map at ``path``: its Wang set is complete and its
    terrain layer holds, at each position, the tile whose corners are the plan's blocks."""
    tiled = pytiled_parser.parse_map(path)
    ((firstgid, tileset),) = tiled.tilesets.items()
    (wangset,) = tileset.wang_sets
    assert wangset.wang_type == "corner" and [c.name for c in wangset.wang_colors] == ["wall", "floor"]
    # the tiles shown for the set and its colours: all wall, all floor
    walls = {tile for tile, w in wangset.wang_tiles.items() if w.wang_id[1::2] == [1, 1, 1, 1]}
    floors = {tile for tile, w in wangset.wang_tiles.items() if w.wang_id[1::2] == [2, 2, 2, 2]}
    assert {wangset.tile, wangset.wang_colors[0].tile} == walls and {wangset.wang_colors[1].tile} == floors
    color = {c.name: i for i, c in enumerate(wangset.wang_colors, start=1)}
    ids = {tile: w.wang_id for tile, w in wangset.wang_tiles.items()}
    assert all(len(w) == 8 and w[0::2] == [0, 0, 0, 0] for w in ids.values())  # corners only
    assert len({tuple(w) for w in ids.values()}) == len(ids) == 16  # every corner mix, once
    (terrain,) = [layer for layer in tiled.layers if layer.name == "terrain"]
    assert isinstance(terrain, pytiled_parser.TileLayer)
    assert (terrain.offset.x, terrain.offset.y) == (tile_size // 2, tile_size // 2)
    gids = np.array(terrain.data)
    height, width = plan.shape
    assert gids.shape == (height, width)
    assert not gids[-1].any() and not gids[:, -1].any()  # the last row and column: no tile
    for y in range(height - 1):
        for x in range(width - 1):
            wang = ids[int(gids[y, x]) - firstgid]
            for position, (dy, dx) in CORNERS.items():
                assert wang[position] == color[terrain_name(plan[y + dy, x + dx])], (x, y, position)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(plan=plans, format=st.sampled_from(["tmx", "tmj"]), encoding=st.sampled_from(ENCODINGS),
       tile_size=st.sampled_from([4, 16, 7]))
def test_tiled_terrain_tiles_match_their_corners(plan, format, encoding, tile_size, tmp_path_factory):
    """For random plans, each terrain tile's Wang id corners are the wall or floor of the
    blocks at its corners (pytiled-parser reads TMX and TMJ in every encoding)."""
    folder = tmp_path_factory.mktemp("terrain")
    path = write(plan, folder / f"map.{format}", encoding=encoding, tile_size=tile_size)
    check_tiled_terrain(path, plan, tile_size)


@pytest.mark.parametrize("format", ["tmx", "tmj"])
def test_tiled_external_tileset_carries_the_wang_set(format, tmp_path):
    plan = maze_plan()
    check_tiled_terrain(write(plan, tmp_path / f"map.{format}", external_tileset=True), plan, 16)


@pytest.mark.parametrize("tile_size", [16, 9])
def test_terrain_tiles_show_their_corners(tile_size, tmp_path):
    """Each Wang tile's picture: the quarter at each corner in the theme's wall or floor colour,
    as its Wang id says (so the tile set shows what the Terrain Brush paints)."""
    write(maze_plan(), tmp_path / "map.tmx", tile_size=tile_size)
    tiled = pytiled_parser.parse_map(tmp_path / "map.tmx")
    ((_, tileset),) = tiled.tilesets.items()
    (wangset,) = tileset.wang_sets
    names = [c.name for c in wangset.wang_colors]
    colors = {"wall": THEME.color(Material.WALL), "floor": THEME.color(Material.FLOOR)}
    image = Image.open(tmp_path / "map-tiles.png").convert("RGB")
    assert image.size == (tileset.image_width, tile_size) == (tileset.tile_count * tile_size, tile_size)
    for tile, wang in wangset.wang_tiles.items():
        for position, (dy, dx) in CORNERS.items():
            x = tile * tile_size + (tile_size - 1) * dx
            y = (tile_size - 1) * dy
            assert image.getpixel((x, y)) == colors[names[wang.wang_id[position] - 1]], (tile, position)


@pytest.mark.reader
def test_tiled_reads_and_keeps_the_terrain(tmp_path):
    """Debian's Tiled reads a TMX map with its external tile set (.tsx) and a TMJ map, and
    writes each in the other format (the tile set embedded): the Wang set, its tiles and the
    terrain layer come back as written."""
    tiled = readers.program("tiled", "Debian's tiled")
    plan = maze_plan(seed=5)
    extensions = tmp_path / "config" / "tiled" / "extensions" / "probe"
    extensions.mkdir(parents=True)
    (extensions / "probe.js").write_text(PROBE.read_text())
    env = {**os.environ, "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "QT_QPA_PLATFORM": "offscreen"}
    write(plan, tmp_path / "a.tmx", external_tileset=True)
    write(plan, tmp_path / "b.tmj")
    for command in (["--embed-tilesets", "--export-map", "json", "a.tmx", "a-out.tmj"],
                    ["--export-map", "tmx", "b.tmj", "b-out.tmx"],
                    ["--export-map", "wangprobe", "a.tmx", "a.wangprobe"]):
        done = subprocess.run([tiled, *command], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0 and (tmp_path / command[-1]).is_file(), done.stderr
    ours = json.loads((tmp_path / "b.tmj").read_text())
    theirs = json.loads((tmp_path / "a-out.tmj").read_text())  # read by hand
    assert "source" not in theirs["tilesets"][0]  # Tiled read the .tsx and embedded it
    (wangset,) = theirs["tilesets"][0]["wangsets"]
    assert wangset == ours["tilesets"][0]["wangsets"][0]
    layers = {layer["name"]: layer for layer in theirs["layers"]}
    terrain = {layer["name"]: layer for layer in ours["layers"]}["terrain"]
    assert (layers["terrain"]["offsetx"], layers["terrain"]["offsety"]) == (8, 8)
    assert layers["terrain"]["data"] == terrain["data"]
    check_tiled_terrain(tmp_path / "a-out.tmj", plan, 16)  # and by pytiled-parser
    check_tiled_terrain(tmp_path / "b-out.tmx", plan, 16)
    wangtiles = ET.parse(tmp_path / "b-out.tmx").getroot().findall(".//wangtile")
    assert {int(w.get("tileid")): [int(v) for v in w.get("wangid").split(",")] for w in wangtiles} == \
        {w["tileid"]: w["wangid"] for w in wangset["wangtiles"]}
    # Tiled's own WangSet API: a corner set (type 0) whose Wang ids put the plan's blocks at
    # the corners of every terrain tile of the layer as Tiled read it
    probe = json.loads((tmp_path / "a.wangprobe").read_text())
    ((read,),) = [t["wangsets"] for t in probe["tilesets"]]
    assert (read["name"], read["type"], read["colors"]) == ("walls and floors", 0, ["wall", "floor"])
    (layer,) = [layer for layer in probe["layers"] if layer["name"] == "terrain"]
    assert layer["offset"] == [8, 8]
    tiles = np.array(layer["tiles"])
    assert (tiles[-1] == -1).all() and (tiles[:, -1] == -1).all()
    color = {name: i for i, name in enumerate(read["colors"], start=1)}
    for y in range(plan.shape[0] - 1):
        for x in range(plan.shape[1] - 1):
            wang = read["ids"][str(tiles[y, x])]
            assert [wang[p] for p in CORNERS] == \
                [color[terrain_name(plan[y + dy, x + dx])] for dy, dx in CORNERS.values()], (x, y)


# --- LDtk -----------------------------------------------------------------------------------------


def ldtk_project(plan: np.ndarray, tile_size: int = 16) -> dict:
    out = io.BytesIO()
    bm.write(plan[None], out, format="ldtk", tile_size=tile_size)
    return json.loads(out.getvalue())


@settings(max_examples=40, deadline=None)
@given(plan=plans, tile_size=st.sampled_from([16, 5]))
def test_ldtk_rules_paint_the_tiles_written(plan, tile_size):
    """LDtk's rules, run by ``ldtk_rules`` over the IntGrid, paint exactly the auto-layer's tiles,
    and those are the terrain tiles whose corners are the blocks (wall = value 2)."""
    project = ldtk_project(plan, tile_size)
    read = ldtk_json_from_dict(project)  # ldtkpy (from LDtk's schema, by quicktype) reads it all
    (definition,) = [d for d in read.defs.layers if d.identifier == "Terrain"]
    assert [len(group.rules) for group in definition.auto_rule_groups] == [16]
    painted = ldtk_rules.paint(project, "Terrain")
    assert painted == ldtk_rules.written(project, "Terrain")
    definition = ldtk_rules.layer_def(project, "Terrain")
    assert definition["__type"] == "AutoLayer"
    assert (definition["pxOffsetX"], definition["pxOffsetY"]) == (tile_size // 2, tile_size // 2)
    layer = ldtk_rules.instance(project["levels"][0], definition["uid"])
    assert (layer["__pxTotalOffsetX"], layer["__pxTotalOffsetY"]) == (tile_size // 2, tile_size // 2)
    # the tile at (x, y) shows the four blocks x..x+1, y..y+1: its id is 15 + their wall bits
    height, width = plan.shape
    tiles = {(cx, cy): t for cx, cy, t, *_ in painted}
    wall = plan == Material.WALL
    assert set(tiles) == {(x, y) for y in range(height - 1) for x in range(width - 1)}
    for (x, y), t in tiles.items():
        bits = wall[y, x] + 2 * wall[y, x + 1] + 4 * wall[y + 1, x] + 8 * wall[y + 1, x + 1]
        assert t == len(Material) + bits


@settings(max_examples=25, deadline=None)
@given(first=plans, second=plans)
def test_ldtk_repainting_the_intgrid_repaints_the_tiles(first, second):
    """A designer repaints the IntGrid (here: another plan of the same size in the Plan layer):
    the first project's rules paint what blockmaze writes for the second plan."""
    second = np.resize(second, first.shape).astype(np.uint8)
    project, other = ldtk_project(first), ldtk_project(second)
    plan_uid = ldtk_rules.layer_def(project, "Plan")["uid"]
    grid = ldtk_rules.instance(project["levels"][0], plan_uid)
    grid["intGridCsv"] = ldtk_rules.instance(other["levels"][0], plan_uid)["intGridCsv"]
    assert ldtk_rules.paint(project, "Terrain") == ldtk_rules.written(other, "Terrain")


def test_ldtk_tileset_holds_the_terrain_tiles(tmp_path):
    """The tile set the rules paint from is the PNG beside the project, wide enough for them."""
    bm.write(maze_plan()[None], tmp_path / "level.ldtk")
    project = json.loads((tmp_path / "level.ldtk").read_text())
    (tileset,) = project["defs"]["tilesets"]
    image = Image.open(tmp_path / tileset["relPath"])
    assert image.size == (tileset["pxWid"], tileset["pxHei"]) == (16 * tileset["__cWid"], 16)
    tiles = {t for _, _, t, *_ in ldtk_rules.written(project, "Terrain")}
    assert tiles and max(tiles) < tileset["__cWid"]


# --- the checker itself, against LDtk's documented semantics ---------------------------------------


def rule(uid, pattern, tile, **fields):
    size = int(len(pattern) ** 0.5)
    return {"uid": uid, "active": True, "size": size, "pattern": pattern, "tileRectsIds": [[tile]],
            "alpha": 1.0, "breakOnMatch": True, "chance": 1.0, "checker": "None", "flipX": False,
            "flipY": False, "outOfBoundsValue": None, "perlinActive": False, "tileMode": "Single",
            "xModulo": 1, "yModulo": 1, "xOffset": 0, "yOffset": 0, **fields}


def project_of(grid: list[list[int]], rules: list[dict]) -> dict:
    height, width = len(grid), len(grid[0])
    return {
        "defs": {
            "layers": [{"identifier": "Grid", "uid": 1, "autoSourceLayerDefUid": None, "gridSize": 8,
                        "tilesetDefUid": 9, "autoRuleGroups": [{"active": True, "rules": rules}]}],
            "tilesets": [{"uid": 9, "__cWid": 4, "tileGridSize": 8, "spacing": 0, "padding": 0}],
        },
        "levels": [{"layerInstances": [{"layerDefUid": 1, "__cWid": width, "__cHei": height,
                                        "intGridCsv": [v for row in grid for v in row]}]}],
    }


def cells(painted) -> dict:
    return {(cx, cy): (t, f) for cx, cy, t, f, *_ in painted}


def test_checker_values_any_and_empty():
    grid = [[0, 1, 2]]
    assert cells(ldtk_rules.paint(project_of(grid, [rule(1, [2], 5)]), "Grid")) == {(2, 0): (5, 0)}
    assert cells(ldtk_rules.paint(project_of(grid, [rule(1, [-2], 5)]), "Grid")) == \
        {(0, 0): (5, 0), (1, 0): (5, 0)}  # "not 2" holds on an empty cell too
    assert set(cells(ldtk_rules.paint(project_of(grid, [rule(1, [1000001], 5)]), "Grid"))) == {(1, 0), (2, 0)}
    assert set(cells(ldtk_rules.paint(project_of(grid, [rule(1, [-1000001], 5)]), "Grid"))) == {(0, 0)}


def test_checker_out_of_bounds_and_flips():
    above_is_1 = [0, 1, 0, 0, 1, 0, 0, 0, 0]  # the cell and the one above it hold 1
    grid = [[1, 1], [1, 0]]
    assert set(cells(ldtk_rules.paint(project_of(grid, [rule(1, above_is_1, 5)]), "Grid"))) == {(0, 1)}
    assert set(cells(ldtk_rules.paint(project_of(grid, [rule(1, above_is_1, 5, outOfBoundsValue=1)]),
                                      "Grid"))) == {(0, 0), (1, 0), (0, 1)}
    left_is_2 = [0, 0, 0, 2, 1, 0, 0, 0, 0]  # the cell holds 1, its left neighbour 2
    grid = [[1, 2, 1]]
    assert cells(ldtk_rules.paint(project_of(grid, [rule(1, left_is_2, 5)]), "Grid")) == {(2, 0): (5, 0)}
    assert cells(ldtk_rules.paint(project_of(grid, [rule(1, left_is_2, 5, flipX=True)]), "Grid")) == \
        {(0, 0): (5, 1), (2, 0): (5, 0)}  # mirrored left-right: flip bit 1
    below_is_2 = [0, 0, 0, 0, 1, 0, 0, 2, 0]
    grid = [[2], [1], [2]]
    assert cells(ldtk_rules.paint(project_of(grid, [rule(1, below_is_2, 5, flipY=True)]), "Grid")) == \
        {(0, 1): (5, 0)}  # as it is first: no flip bits


def test_checker_rule_order_break_on_match_and_modulo():
    grid = [[1, 1, 1, 1]]
    both = ldtk_rules.paint(project_of(grid, [rule(1, [1], 5, breakOnMatch=False), rule(2, [1], 6)]), "Grid")
    assert sorted((cx, t) for cx, _, t, *_ in both) == [(x, t) for x in range(4) for t in (5, 6)]
    first = ldtk_rules.paint(project_of(grid, [rule(1, [1], 5), rule(2, [1], 6)]), "Grid")
    assert {t for _, _, t, *_ in first} == {5}
    every_other = ldtk_rules.paint(project_of(grid, [rule(1, [1], 5, xModulo=2, xOffset=1)]), "Grid")
    assert sorted(cx for cx, *_ in every_other) == [1, 3]
    with pytest.raises(NotImplementedError):
        ldtk_rules.paint(project_of(grid, [rule(1, [1], 5, chance=0.5)]), "Grid")
