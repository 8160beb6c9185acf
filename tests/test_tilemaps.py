"""Roguelike tile maps (Tiled TMX/TMJ, ASCII, JSON tile map, tcod .npz, REXPaint .xp), read back
tile for tile by readers that share no code with the writers.

Readers: pytiled-parser (TMX, TMJ, external TSX/TSJ), pytmx (TMX), ElementTree/json plus this
file's own CSV/base64 decoding, jsonschema with ``schemas/tilemap.schema.json``, numpy's
``np.load``, tcod (``console.load_xp``, ``path.Pathfinder``) and a gzip+struct .xp parser.
Expected values come from this file's own tables, not from the writers' modules.
"""

from __future__ import annotations

import base64
import gzip
import io
import json
import struct
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

import jsonschema
import numpy as np
import pytest
import pytiled_parser
import pytmx
import tcod
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from PIL import Image

import blockmaze as bm
from blockmaze import dungeon
from blockmaze.materials import Material
TILESET_COUNT = len(Material) + 16  # the tile set: a tile per material, then 16 terrain tiles

THEME = bm.load_theme()
SCHEMA = json.loads((Path(__file__).parents[1] / "schemas" / "tilemap.schema.json").read_text())
ENCODINGS = ["csv", "base64", "base64-zlib", "base64-gzip"]
TILED = ["tmx", "tmj"]
FLAG_BITS = 0xF0000000  # Tiled's flip/rotation bits on a GID

# What a roguelike may walk on and see through: this test's own statement of the contract.
def tile_color(material):
    """A tile's colour: its material's, the floor's for air (open ground at walking height)."""
    return THEME.color(Material.FLOOR if material == Material.AIR else material)


WALKABLE_NAMES = {"air", "floor", "path", "start", "goal", "door", "stairs", "light", "monster", "item",
                  "treasure", "checkpoint", "exit"}
TRANSPARENT_NAMES = WALKABLE_NAMES - {"door"}
WALKABLE = np.array([m.name.lower() in WALKABLE_NAMES for m in Material])
TRANSPARENT = np.array([m.name.lower() in TRANSPARENT_NAMES for m in Material])


# --- plans --------------------------------------------------------------------------------------


def maze_plan(rows: int = 4, cols: int = 6, seed: int = 3, solution: bool = True):
    """(maze, endpoints, plan) of a square maze with start, goal and the solution marked."""
    maze = bm.generate((rows, cols), rng=seed)
    ends = bm.place_endpoints(maze)
    return maze, ends, bm.to_blocks(maze, endpoints=ends, solution=solution)


def random_plan(shape: tuple[int, int], seed: int) -> np.ndarray:
    """Every material at random positions: no symmetry to hide a transposition."""
    rng = np.random.default_rng(seed)
    return rng.integers(0, len(Material), size=shape, dtype=np.uint8)


PLANS = {
    "maze": lambda: maze_plan()[2],
    "random-asymmetric": lambda: random_plan((5, 8), seed=11),
    "one-tile": lambda: np.array([[Material.WALL]], np.uint8),
    "one-row": lambda: random_plan((1, 9), seed=4),
    "fortran-order": lambda: np.asfortranarray(random_plan((6, 7), seed=12)),
    "strided-view": lambda: random_plan((9, 14), seed=13)[::-1, ::2],
}


def write_bytes(plan: np.ndarray, format: str, **options) -> bytes:
    out = io.BytesIO()
    bm.write(plan, out, format=format, **options)
    return out.getvalue()


def glyphs_of(plan: np.ndarray, theme: bm.Theme = THEME) -> list[str]:
    return ["".join(theme.glyph(int(v)) for v in row) for row in plan]


# --- Tiled: pytiled-parser, pytmx, and our own XML/JSON decoding --------------------------------


def pytiled_grid(path: Path) -> np.ndarray:
    """The tile ids pytiled-parser reads from the map's first layer (GID - firstgid)."""
    tiled = pytiled_parser.parse_map(path)
    layer = tiled.layers[0]
    assert isinstance(layer, pytiled_parser.TileLayer)
    gids = np.array(layer.data, dtype=np.int64) & ~FLAG_BITS
    (firstgid,) = tiled.tilesets
    return gids - firstgid


def pytmx_grid(path: Path) -> np.ndarray:
    """The tile ids pytmx reads (it renumbers GIDs internally: map back with tiledgidmap)."""
    tiled = pytmx.TiledMap(str(path))
    layer = tiled.get_layer_by_name("maze")
    firstgid = tiled.tilesets[0].firstgid
    return np.array([[tiled.tiledgidmap[g] - firstgid for g in row] for row in layer.data])


def decode_data(encoding: str, compression: str | None, text: str, width: int, height: int) -> np.ndarray:
    """GIDs from a TMX <data> text or TMJ base64 string, decoded here from the format's rules."""
    if encoding == "csv":
        gids = [int(v) for v in text.replace("\n", "").split(",")]
        return np.array(gids, dtype=np.int64).reshape(height, width)
    raw = base64.b64decode(text.strip(), validate=True)
    if compression == "zlib":
        raw = zlib.decompress(raw)
    elif compression == "gzip":
        raw = gzip.decompress(raw)
    else:
        assert compression is None
    assert len(raw) == 4 * width * height
    return np.frombuffer(raw, "<u4").astype(np.int64).reshape(height, width)


def write_tiled(plan, tmp_path, format: str, **options) -> Path:
    path = tmp_path / f"level.{format}"
    bm.write(plan, path, **options)
    return path


@pytest.mark.slow
@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("format", TILED)
@pytest.mark.parametrize("kind", PLANS)
def test_pytiled_parser_reads_plan(kind, format, encoding, tmp_path):
    """pytiled-parser reads every tile of a TMX and a TMJ, in every encoding, as the plan."""
    plan = PLANS[kind]()
    path = write_tiled(plan, tmp_path, format, encoding=encoding)
    tiled = pytiled_parser.parse_map(path)
    assert (tiled.map_size.width, tiled.map_size.height) == (plan.shape[1], plan.shape[0])
    assert tiled.orientation == "orthogonal" and tiled.render_order == "right-down"
    assert not tiled.infinite
    np.testing.assert_array_equal(pytiled_grid(path), plan)


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("kind", PLANS)
def test_pytmx_reads_plan(kind, encoding, tmp_path):
    """pytmx reads every tile of a TMX, in every encoding, as the plan."""
    plan = PLANS[kind]()
    np.testing.assert_array_equal(pytmx_grid(write_tiled(plan, tmp_path, "tmx", encoding=encoding)), plan)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_tmx_fields_and_data_decoded_by_hand(encoding):
    """Every map/layer/tileset field Tiled writes is there; the <data> decodes to GID = 1 + material."""
    plan = random_plan((7, 10), seed=5)
    root = ET.fromstring(write_bytes(plan, "tmx", encoding=encoding))
    assert root.tag == "map"
    assert root.attrib == {
        "version": "1.10", "tiledversion": "1.10.2", "orientation": "orthogonal",
        "renderorder": "right-down", "width": "10", "height": "7", "tilewidth": "16",
        "tileheight": "16", "infinite": "0", "nextlayerid": "4",
        "nextobjectid": str(1 + np.isin(plan, [5, 6, 7, 8, 13, 14]).sum()),
    }
    tileset = root.find("tileset")
    assert {k: tileset.get(k) for k in ("firstgid", "tilewidth", "tileheight", "tilecount", "columns")} == {
        "firstgid": "1", "tilewidth": "16", "tileheight": "16", "tilecount": str(TILESET_COUNT),
        "columns": str(TILESET_COUNT)}  # a tile per material, then the 16 terrain tiles
    image = tileset.find("image")
    assert (image.get("source"), image.get("width"), image.get("height")) == ("tiles.png", str(16 * TILESET_COUNT), "16")
    layer = root.find("layer")
    assert layer.attrib == {"id": "1", "name": "maze", "width": "10", "height": "7"}
    data = layer.find("data")
    expected_compression = {"csv": None, "base64": None, "base64-zlib": "zlib", "base64-gzip": "gzip"}[encoding]
    assert data.get("encoding") == encoding.split("-")[0]
    assert data.get("compression") == expected_compression
    gids = decode_data(data.get("encoding"), expected_compression, data.text, 10, 7)
    np.testing.assert_array_equal(gids, plan.astype(np.int64) + 1)


def test_tmx_csv_is_tiled_layout():
    """CSV rows as Tiled writes them: a newline first, ``,`` after every row but the last."""
    text = write_bytes(np.array([[1, 9, 1], [0, 1, 2]], np.uint8), "tmx").decode()
    assert '<data encoding="csv">\n2,10,2,\n1,2,3\n</data>' in text


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_tmj_fields_and_data_decoded_by_hand(encoding):
    """The TMJ holds every key Tiled writes (string version, typed layers) and decodes to the plan."""
    plan = random_plan((6, 4), seed=6)
    document = json.loads(write_bytes(plan, "tmj", encoding=encoding))
    required = {"compressionlevel", "height", "infinite", "layers", "nextlayerid", "nextobjectid",
                "orientation", "renderorder", "tiledversion", "tileheight", "tilewidth", "type",
                "version", "width"}
    assert required <= set(document)
    assert document["type"] == "map" and document["version"] == "1.10" and document["infinite"] is False
    assert (document["width"], document["height"]) == (4, 6)
    layer, terrain_layer, objects = document["layers"]
    assert {"height", "id", "name", "opacity", "type", "visible", "width", "x", "y"} <= set(layer)
    assert layer["type"] == terrain_layer["type"] == "tilelayer" and objects["type"] == "objectgroup"
    (tileset,) = document["tilesets"]
    assert {"columns", "firstgid", "image", "imageheight", "imagewidth", "margin", "name", "spacing",
            "tilecount", "tileheight", "tilewidth"} <= set(tileset)
    if encoding == "csv":
        assert "encoding" not in layer
        gids = np.array(layer["data"]).reshape(6, 4)
    else:
        assert layer["encoding"] == "base64"
        assert layer["compression"] == {"base64": "", "base64-zlib": "zlib", "base64-gzip": "gzip"}[encoding]
        gids = decode_data("base64", layer["compression"] or None, layer["data"], 4, 6)
    np.testing.assert_array_equal(gids, plan.astype(np.int64) + 1)


@pytest.mark.parametrize("format", TILED)
def test_tile_properties(format, tmp_path):
    """Each tile names its material and says whether it is walkable and transparent."""
    tiled = pytiled_parser.parse_map(write_tiled(maze_plan()[2], tmp_path, format))
    tiles = tiled.tilesets[1].tiles
    assert sorted(tiles) == list(range(len(Material)))
    for material in Material:
        properties = tiles[int(material)].properties
        assert properties["name"] == material.name.lower()
        assert properties["walkable"] is bool(WALKABLE[material])
        assert properties["transparent"] is bool(TRANSPARENT[material])
        assert properties["glyph"] == THEME.glyph(material)
        assert tiles[int(material)].class_ == material.name.lower()


def test_pytmx_tile_properties(tmp_path):
    tiled = pytmx.TiledMap(str(write_tiled(maze_plan()[2], tmp_path, "tmx")))
    for material in Material:
        gid = tiled.map_gid(1 + int(material))[0][0]
        properties = tiled.get_tile_properties_by_gid(gid)
        assert properties["name"] == material.name.lower()
        assert properties["walkable"] is bool(WALKABLE[material])


@pytest.mark.parametrize("format", TILED)
def test_entity_objects(format, tmp_path):
    """The object layer holds one tile-sized rectangle per start, goal, door and stairs tile."""
    plan = maze_plan()[2]
    plan[1, 3] = Material.DOOR
    plan[3, 1] = Material.STAIRS
    tiled = pytiled_parser.parse_map(write_tiled(plan, tmp_path, format, tile_size=8))
    (layer,) = [layer for layer in tiled.layers if layer.name == "entities"]
    assert isinstance(layer, pytiled_parser.ObjectLayer)
    found = sorted((o.name, int(o.coordinates.x) // 8, int(o.coordinates.y) // 8) for o in layer.tiled_objects)
    expected = sorted((Material(v).name.lower(), int(x), int(y))
                      for (y, x), v in np.ndenumerate(plan) if v in (5, 6, 7, 8, 13, 14))
    assert found == expected
    assert all((o.size.width, o.size.height) == (8, 8) for o in layer.tiled_objects)
    assert tiled.next_object_id == len(expected) + 1
    if format == "tmx":
        objects = pytmx.TiledMap(str(tmp_path / "level.tmx")).get_layer_by_name("entities")
        assert sorted((o.type, int(o.x) // 8, int(o.y) // 8) for o in objects) == expected


@pytest.mark.parametrize("format", TILED)
def test_tileset_image_beside_map(format, tmp_path):
    """``<stem>-tiles.png`` is written beside the map: one tile per material in its theme colour."""
    path = write_tiled(maze_plan()[2], tmp_path, format, tile_size=12)
    tiled = pytiled_parser.parse_map(path)
    image_path = tmp_path / "level-tiles.png"
    assert Path(tiled.tilesets[1].image).name == "level-tiles.png"
    with Image.open(image_path) as image:
        assert image.size == (12 * TILESET_COUNT, 12) and image.mode == "RGB"
        for material in Material:
            assert image.getpixel((12 * int(material), 0)) == tile_color(material)  # a corner
            assert image.getpixel((12 * int(material) + 11, 11)) == tile_color(material)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([path.name, "level-tiles.png"])


def test_tileset_image_draws_glyphs(tmp_path):
    """Each tile shows its glyph in black or white over the theme colour (Latin-1 glyphs)."""
    write_tiled(maze_plan()[2], tmp_path, "tmx", tile_size=32)
    with Image.open(tmp_path / "level-tiles.png") as image:
        pixels = np.asarray(image)
    for material in Material:
        tile = pixels[:, 32 * int(material): 32 * int(material) + 32].reshape(-1, 3)
        colours = {tuple(int(c) for c in p) for p in tile}
        assert colours == {tile_color(material), black_or_white(tile_color(material))}


@pytest.mark.parametrize("format", TILED)
def test_names_needing_escapes(format, tmp_path):
    """A theme name and glyphs with XML/JSON specials survive both readers."""
    name = 'odd "name" <&> \u00e9'
    theme = bm.Theme(name, "", {Material.AIR: "minecraft:air"},
                     glyphs={Material.WALL: "<", Material.AIR: "&", Material.PATH: '"'})
    plan = maze_plan()[2]
    path = tmp_path / f"level.{format}"
    bm.write(plan, path, theme=theme)
    tiled = pytiled_parser.parse_map(path)
    assert tiled.tilesets[1].name == name
    assert [tiled.tilesets[1].tiles[m].properties["glyph"] for m in (1, 0, 4)] == ["<", "&", '"']
    np.testing.assert_array_equal(pytiled_grid(path), plan)
    if format == "tmx":
        np.testing.assert_array_equal(pytmx_grid(path), plan)


@pytest.mark.parametrize("format", TILED)
def test_external_tileset(format, tmp_path):
    """``external_tileset=True``: a .tsx/.tsj beside the map that both readers resolve."""
    plan = random_plan((5, 6), seed=8)
    path = write_tiled(plan, tmp_path, format, external_tileset=True)
    suffix = ".tsx" if format == "tmx" else ".tsj"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [path.name, "level-tiles.png", f"level-tiles{suffix}"])
    tiled = pytiled_parser.parse_map(path)
    assert tiled.tilesets[1].tile_count == TILESET_COUNT
    assert tiled.tilesets[1].tiles[int(Material.DOOR)].properties["walkable"] is True
    np.testing.assert_array_equal(pytiled_grid(path), plan)
    if format == "tmx":
        np.testing.assert_array_equal(pytmx_grid(path), plan)
        tsx = ET.parse(tmp_path / "level-tiles.tsx").getroot()
        assert (tsx.tag, tsx.get("version"), tsx.get("tilecount")) == ("tileset", "1.10", str(TILESET_COUNT))
    else:
        tsj = json.loads((tmp_path / "level-tiles.tsj").read_text())
        assert (tsj["type"], tsj["version"], tsj["image"]) == ("tileset", "1.10", "level-tiles.png")


def test_tileset_file_option_and_open_file(tmp_path):
    """A named tile set, and a map written to a file opened by the caller: sidecars beside it."""
    plan = maze_plan()[2]
    with open(tmp_path / "first.tmx", "wb") as file:
        bm.write(plan, file, format="tmx", tileset_file="dungeon")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dungeon.png", "first.tmx"]
    assert pytiled_parser.parse_map(tmp_path / "first.tmx").tilesets[1].image.name == "dungeon.png"
    with pytest.raises(bm.BlockmazeError, match="plain file name"):
        bm.write(plan, tmp_path / "second.tmx", tileset_file="../escape")


@pytest.mark.parametrize("format", TILED)
def test_in_memory_map_writes_no_sidecar(format, tmp_path, monkeypatch):
    """A map written to memory refers to ``tiles.png`` and writes no file anywhere."""
    monkeypatch.chdir(tmp_path)
    data = write_bytes(maze_plan()[2], format, external_tileset=True)
    assert list(tmp_path.iterdir()) == []
    assert (b'source="tiles.tsx"' if format == "tmx" else b'"source": "tiles.tsj"') in data
    from blockmaze.export.tilemaps.tiled import write_tileset_files

    paths = write_tileset_files(tmp_path)
    (tmp_path / f"level.{format}").write_bytes(data)
    tiled = pytiled_parser.parse_map(tmp_path / f"level.{format}")
    assert tiled.tilesets[1].image.name == "tiles.png" and all(p.exists() for p in paths)


# --- ASCII ----------------------------------------------------------------------------------------


def load_ascii(text: str, comment: str = ";"):
    """A roguelike loader: map rows are the lines not starting with the comment character;
    the legend is ``<comment> <glyph> <materials> <walkable|blocked> <transparent|opaque>``."""
    lines = text.split("\n")
    assert lines[-1] == ""  # every line ends in a newline
    rows = [line for line in lines[:-1] if not line.startswith(comment)]
    legend = {}
    for line in lines:
        if line.startswith(comment) and len(line) > 2 and line.split()[-1] in ("transparent", "opaque"):
            names, walk, see = line[4:].split(" ")
            legend[line[2]] = (names.split(","), walk == "walkable", see == "transparent")
    return rows, legend


@pytest.mark.parametrize("kind", PLANS)
def test_ascii_rows_and_legend(kind):
    plan = PLANS[kind]()
    rows, legend = load_ascii(write_bytes(plan, "ascii").decode("utf-8"))
    assert rows == glyphs_of(plan)
    present = {int(v) for v in np.unique(plan)}
    assert {THEME.glyph(m) for m in present} == set(legend)
    for material in present:
        names, walkable, transparent = legend[THEME.glyph(material)]
        assert Material(material).name.lower() in names
        assert (walkable, transparent) == (WALKABLE[material], TRANSPARENT[material])


def test_ascii_header_and_options():
    plan = maze_plan(2, 3)[2]
    text = write_bytes(plan, "ascii").decode()
    assert text.startswith("; blockmaze ascii map 7x5 (width x height), theme stone-bricks\n")
    assert write_bytes(plan, "ascii", legend=False).decode() == "".join(r + "\n" for r in glyphs_of(plan))
    rows, legend = load_ascii(write_bytes(plan, "ascii", comment="%").decode(), comment="%")
    assert rows == glyphs_of(plan) and "#" in legend
    with pytest.raises(bm.BlockmazeError, match="comment"):
        write_bytes(plan, "ascii", comment="#")  # the wall glyph
    with pytest.raises(bm.BlockmazeError, match="one printable character"):
        write_bytes(plan, "ascii", comment="--")


def test_ascii_refuses_glyph_shared_by_unlike_materials():
    """A theme drawing wall and floor alike would make a map a walker cannot read."""
    theme = bm.Theme("same", "", {Material.AIR: "minecraft:air"}, glyphs={Material.FLOOR: "#"})
    plan = np.array([[Material.WALL, Material.FLOOR]], np.uint8)
    for format in ("ascii", "tilemap"):
        out = io.BytesIO()
        with pytest.raises(bm.BlockmazeError, match="same glyph '#'"):
            bm.write(plan, out, format=format, theme=theme)
    out = io.BytesIO()  # without the floor on the map there is no clash
    bm.write(plan[:, :1], out, format="ascii", theme=theme)


# --- JSON tile map -------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", PLANS)
def test_tilemap_json_schema_and_content(kind):
    plan = PLANS[kind]()
    document = json.loads(write_bytes(plan, "tilemap"))
    jsonschema.Draft202012Validator(SCHEMA).validate(document)
    assert (document["width"], document["height"]) == (plan.shape[1], plan.shape[0])
    assert document["grid"] == glyphs_of(plan)
    for material in np.unique(plan):
        entry = document["legend"][THEME.glyph(material)]
        assert int(material) in entry["ids"]
        assert entry["materials"][entry["ids"].index(int(material))] == Material(material).name.lower()
        assert (entry["walkable"], entry["transparent"]) == (WALKABLE[material], TRANSPARENT[material])
    expected = sorted((Material(v).name.lower(), int(x), int(y))
                      for (y, x), v in np.ndenumerate(plan) if v in (5, 6, 7, 8, 13, 14))
    assert sorted((e["type"], e["x"], e["y"]) for e in document["entities"]) == expected
    assert document["metadata"] == {"generator": "blockmaze", "version": bm.__version__, "theme": THEME.name}


def test_tilemap_schema_rejects_broken_documents():
    """The schema is not vacuous: it rejects a missing field, a bad entity and a bad legend."""
    document = json.loads(write_bytes(maze_plan()[2], "tilemap"))
    validator = jsonschema.Draft202012Validator(SCHEMA)
    broken = [
        {k: v for k, v in document.items() if k != "legend"},
        {**document, "entities": [{"type": "dragon", "x": 0, "y": 0}]},
        {**document, "legend": {"##": document["legend"]["#"]}},
        {**document, "metadata": {**document["metadata"], "generator": "other"}},
    ]
    for case in broken:
        assert not validator.is_valid(case)


# --- tcod .npz ------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", PLANS)
def test_npz_arrays(kind):
    plan = PLANS[kind]()
    with np.load(io.BytesIO(write_bytes(plan, "npz")), allow_pickle=False) as arrays:
        assert str(arrays["order"]) == "C" and str(arrays["axes"]) == "y,x"
        np.testing.assert_array_equal(arrays["material"], plan)
        assert arrays["walkable"].dtype == bool and arrays["transparent"].dtype == bool
        np.testing.assert_array_equal(arrays["walkable"], WALKABLE[plan])
        np.testing.assert_array_equal(arrays["transparent"], TRANSPARENT[plan])
        assert arrays["start"].tolist() == np.argwhere(plan == Material.START).tolist()
        assert list(arrays["materials"]) == [m.name.lower() for m in Material]


def test_npz_fortran_order_is_x_y():
    """order="F": arrays indexed [x, y] as in the tcod tutorial's GameMap.tiles."""
    plan = random_plan((4, 7), seed=2)
    with np.load(io.BytesIO(write_bytes(plan, "npz", order="F"))) as arrays:
        assert str(arrays["order"]) == "F" and str(arrays["axes"]) == "x,y"
        assert arrays["walkable"].shape == (7, 4)
        for y, x in np.ndindex(*plan.shape):
            assert arrays["material"][x, y] == plan[y, x]
            assert arrays["walkable"][x, y] == WALKABLE[plan[y, x]]
        for x, y in arrays["goal"]:
            assert plan[y, x] == Material.GOAL
    with pytest.raises(bm.BlockmazeError, match="order"):
        write_bytes(plan, "npz", order="K")


def tcod_path_steps(walkable: np.ndarray, start, goal) -> int:
    graph = tcod.path.SimpleGraph(cost=walkable.astype(np.int8), cardinal=1, diagonal=0)
    finder = tcod.path.Pathfinder(graph)
    finder.add_root(tuple(int(v) for v in start))
    path = finder.path_to(tuple(int(v) for v in goal))
    assert tuple(path[0]) == tuple(start) and tuple(path[-1]) == tuple(goal)
    return len(path) - 1


@settings(max_examples=25)
@given(rows=st.integers(1, 9), cols=st.integers(1, 9), seed=st.integers(0, 2**32 - 1),
       braid=st.booleans())
def test_tcod_path_matches_solver(rows, cols, seed, braid):
    """tcod's path finder on the exported walkable array takes as many steps as blockmaze's
    solver: one cell step is 2 tiles in the 2n+1 plan."""
    assume(rows * cols > 1)  # one cell: start and goal share it, and GOAL covers START
    maze = bm.generate((rows, cols), rng=seed)
    if braid:
        maze = bm.braid(maze, 1.0, rng=seed)
    ends = bm.place_endpoints(maze)
    plan = bm.to_blocks(maze, endpoints=ends, solution=True)
    with np.load(io.BytesIO(write_bytes(plan, "npz"))) as arrays:
        walkable, (start,), (goal,) = arrays["walkable"], arrays["start"], arrays["goal"]
    cells = maze.shortest_path(ends.start, ends.goal)
    assert tcod_path_steps(walkable, start, goal) == 2 * (len(cells) - 1)


# --- REXPaint .xp ---------------------------------------------------------------------------------


def parse_xp(data: bytes):
    """(glyphs, fg, bg) as [y, x] arrays, parsed from the format's rules with gzip + struct."""
    raw = gzip.decompress(data)
    version, layers = struct.unpack_from("<ii", raw, 0)
    assert (version, layers) == (-1, 1)
    width, height = struct.unpack_from("<ii", raw, 8)
    cells = raw[16:]
    assert len(cells) == 10 * width * height
    glyphs = np.zeros((height, width), np.int64)
    fg = np.zeros((height, width, 3), np.uint8)
    bg = np.zeros((height, width, 3), np.uint8)
    for i in range(width * height):
        x, y = divmod(i, height)  # column-major
        (glyphs[y, x],) = struct.unpack_from("<i", cells, 10 * i)
        fg[y, x] = tuple(cells[10 * i + 4: 10 * i + 7])
        bg[y, x] = tuple(cells[10 * i + 7: 10 * i + 10])
    return glyphs, fg, bg


def black_or_white(color):
    r, g, b = color
    return (0, 0, 0) if 0.299 * r + 0.587 * g + 0.114 * b >= 128 else (255, 255, 255)


@pytest.mark.parametrize("kind", PLANS)
def test_xp_read_by_tcod_and_by_hand(kind, tmp_path):
    plan = PLANS[kind]()
    path = tmp_path / "level.xp"
    bm.write(plan, path)
    glyph_codes = np.array([ord(THEME.glyph(m)) for m in Material])
    colors = np.array([tile_color(m) for m in Material], np.uint8)
    contrast = np.array([black_or_white(tile_color(m)) for m in Material], np.uint8)
    (console,) = tcod.console.load_xp(path, order="C")
    assert (console.width, console.height) == (plan.shape[1], plan.shape[0])
    np.testing.assert_array_equal(console.ch, glyph_codes[plan])
    np.testing.assert_array_equal(console.bg[..., :3], colors[plan])
    np.testing.assert_array_equal(console.fg[..., :3], contrast[plan])
    glyphs, fg, bg = parse_xp(path.read_bytes())
    np.testing.assert_array_equal(glyphs, glyph_codes[plan])
    np.testing.assert_array_equal(fg, contrast[plan])
    np.testing.assert_array_equal(bg, colors[plan])


def test_xp_refuses_glyph_outside_cp437():
    theme = bm.Theme("snow", "", {Material.AIR: "minecraft:air"}, glyphs={Material.WALL: "\u2603"})
    with pytest.raises(bm.BlockmazeError, match="CP437"):
        write_bytes(np.array([[Material.WALL]], np.uint8), "xp", theme=theme)
    write_bytes(np.array([[Material.AIR]], np.uint8), "xp", theme=theme)  # no wall, no problem


def test_xp_glyphs_are_cp437_codes(tmp_path):
    """Glyphs beyond ASCII are stored as CP437 codes, which tcod's CP437 table maps back."""
    theme = bm.Theme("latin", "", {Material.AIR: "minecraft:air"},
                     glyphs={Material.WALL: "\u00e9", Material.AIR: "\u2591"})
    path = tmp_path / "level.xp"
    bm.write(np.array([[Material.WALL, Material.AIR]], np.uint8), path, theme=theme)
    (console,) = tcod.console.load_xp(path, order="C")
    assert console.ch.tolist() == [[0x82, 0xB0]]
    assert [chr(tcod.tileset.CHARMAP_CP437[c]) for c in console.ch[0]] == ["\u00e9", "\u2591"]


# --- every format: determinism, bad input ---------------------------------------------------------

FORMATS = ["tmx", "tmj", "ascii", "tilemap", "npz", "xp"]


@pytest.mark.parametrize("format", FORMATS)
def test_same_input_same_bytes(format, tmp_path):
    plan = maze_plan(5, 7, seed=21)[2]
    assert write_bytes(plan, format) == write_bytes(plan.copy(), format)
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir(), second.mkdir()
    suffix = {"ascii": "txt", "tilemap": "json", "npz": "npz", "xp": "xp"}.get(format, format)
    options = {"external_tileset": True} if format in TILED else {}
    for folder in (first, second):
        bm.write(plan, folder / f"level.{suffix}", format=format, **options)
    assert sorted(p.name for p in first.iterdir()) == sorted(p.name for p in second.iterdir())
    for file in first.iterdir():
        assert file.read_bytes() == (second / file.name).read_bytes(), file.name


@settings(max_examples=20)
@given(rows=st.integers(1, 7), cols=st.integers(1, 7), seed=st.integers(0, 2**32 - 1))
def test_random_mazes_round_trip_every_format(rows, cols, seed):
    """Random small mazes: every format reads back as the plan (via readers that need no files)."""
    plan = maze_plan(rows, cols, seed)[2]
    tmj = json.loads(write_bytes(plan, "tmj", encoding="base64-zlib"))
    layer = tmj["layers"][0]
    gids = decode_data("base64", "zlib", layer["data"], plan.shape[1], plan.shape[0])
    np.testing.assert_array_equal(gids - 1, plan)
    data = ET.fromstring(write_bytes(plan, "tmx")).find("layer/data")
    np.testing.assert_array_equal(decode_data("csv", None, data.text, plan.shape[1], plan.shape[0]) - 1, plan)
    assert load_ascii(write_bytes(plan, "ascii").decode())[0] == glyphs_of(plan)
    assert json.loads(write_bytes(plan, "tilemap"))["grid"] == glyphs_of(plan)
    with np.load(io.BytesIO(write_bytes(plan, "npz"))) as arrays:
        np.testing.assert_array_equal(arrays["walkable"], WALKABLE[plan])
    assert np.array_equal(parse_xp(write_bytes(plan, "xp"))[0], np.array([ord(THEME.glyph(m)) for m in Material])[plan])


@pytest.mark.parametrize("format", FORMATS)
def test_volume_refused_before_any_file(format, tmp_path):
    """Tile maps draw plans: an extruded volume is refused and nothing is written."""
    volume = bm.extrude(maze_plan()[2], height=2)
    with pytest.raises(bm.BlockmazeError, match="2-D plan"):
        bm.write(volume, tmp_path / "level.out", format=format)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("format", FORMATS)
def test_unknown_material_refused(format):
    plan = maze_plan()[2]
    plan[2, 3] = 200
    with pytest.raises(bm.BlockmazeError, match="200 at x=3, y=2"):
        write_bytes(plan, format)


@pytest.mark.parametrize("options, message", [
    ({"encoding": "base64-zstd"}, "unknown Tiled encoding"),
    ({"tile_size": 0}, "tile_size"),
    ({"tile_size": 16.0}, "tile_size"),
    ({"tile_size": True}, "tile_size"),
    ({"colour": "red"}, "does not take colour"),
])
@pytest.mark.parametrize("format", TILED)
def test_bad_tiled_options(format, options, message):
    with pytest.raises(bm.BlockmazeError, match=message):
        write_bytes(maze_plan()[2], format, **options)


def test_registry_names_and_suffixes():
    assert bm.writer_for("level.tmx").name == "tmx"
    assert bm.writer_for("level.tmj").name == "tmj"
    assert bm.writer_for("level.txt").name == "ascii"
    assert bm.writer_for("level.npz").name == "npz"
    assert bm.writer_for("level.xp").name == "xp"
    assert bm.writer_for(format="tilemap").suffixes == (".tilemap.json",)
    assert all(bm.WRITERS[name].plan for name in FORMATS)


def test_dungeon_levels_doors_and_stairs():
    """A roguelike dungeon (rooms, doors, stairs): doors and stairs become entities, and tcod
    walks from any open tile to every other through the exported walkable array."""
    levels = dungeon.generate_dungeon((9, 13), rng=5, extra_doors=0.1, levels=2).levels
    for level in levels:
        plan = np.asarray(level.plan)
        assert (plan == Material.DOOR).any()
        document = json.loads(write_bytes(plan, "tilemap"))
        jsonschema.Draft202012Validator(SCHEMA).validate(document)
        for kind, material in (("door", Material.DOOR), ("stairs", Material.STAIRS)):
            found = sorted((e["y"], e["x"]) for e in document["entities"] if e["type"] == kind)
            assert found == sorted(map(tuple, np.argwhere(plan == material).tolist()))
        with np.load(io.BytesIO(write_bytes(plan, "npz"))) as arrays:
            walkable = arrays["walkable"]
        distance = tcod.path.maxarray(walkable.shape, dtype=np.int32)
        distance[tuple(np.argwhere(walkable)[0])] = 0
        tcod.path.dijkstra2d(distance, walkable.astype(np.int32), 1, 0, out=distance)
        assert (distance[walkable] < np.iinfo(np.int32).max).all()
    assert any((np.asarray(level.plan) == Material.STAIRS).any() for level in levels)


def test_doors_stairs_and_open_ground_are_told_apart():
    """Open ground (air at walking height) looks like floor, not like empty space; doors and
    stairs have colours of their own."""
    from blockmaze.export.tilemaps.tiles import tile_kinds

    for name in bm.theme_names():
        kinds = tile_kinds(bm.load_theme(name))
        assert kinds[Material.AIR].color == kinds[Material.FLOOR].color
        door, stairs = (np.array(kinds[m].color, float) for m in (Material.DOOR, Material.STAIRS))
        assert np.abs(door - stairs).sum() > 150


def test_a_layered_maze_is_a_tile_map_a_level_with_its_stairs(tmp_path, capsys):
    """Every level reaches the tile maps: NAME-1.tmx (bottom) ... with '<' where a cell climbs up and
    '>' where one leads down, each a stairs object whose properties say the level it leads to."""
    from blockmaze.cli import main
    from blockmaze.grids import layered_grid

    assert main(["generate", "3x3x4", "-g", "layered", "--seed", "4", "-o", str(tmp_path / "m.tmx")]) == 0
    assert main(["generate", "3x3x4", "-g", "layered", "--seed", "4", "-o", str(tmp_path / "m.txt")]) == 0
    maze = bm.generate(layered_grid(3, 3, 4), rng=4)
    ups = [int(np.count_nonzero(maze.links[level * 12:(level + 1) * 12, 4])) for level in range(3)]
    for level in range(3):
        tiled = pytmx.TiledMap(str(tmp_path / f"m-{level + 1}.tmx"))
        stairs = [o for o in tiled.get_layer_by_name("entities") if o.type == "stairs"]
        found = sorted((o.properties["direction"], o.properties["level"]) for o in stairs)
        downs = ups[level - 1] if level else 0
        assert found == sorted([("down", level)] * downs + [("up", level + 2)] * ups[level])
        text = (tmp_path / f"m-{level + 1}.txt").read_text()
        rows = [line for line in text.splitlines() if not line.startswith(";")]
        assert sum(row.count("<") for row in rows) == ups[level]
        assert sum(row.count(">") for row in rows) == downs
    assert not (tmp_path / "m-4.tmx").exists() and not (tmp_path / "m.tmx").exists()
    out = io.BytesIO()
    with pytest.raises(bm.BlockmazeError, match="3 levels make a file per level"):
        bm.save(maze, out, format="tmx")
