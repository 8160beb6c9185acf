"""Dungeon pictures (blockmaze.export.dungeon_pictures): every block where the plan has it, every
entity drawn on its block, the same bytes for a seed, SVG that parses and agrees with the PNG."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from PIL import Image

from blockmaze import BlockmazeError
from blockmaze.dungeon import STYLES, generate_dungeon
from blockmaze.export import writer_for
from blockmaze.export.dungeon_pictures import (KEY_COLOUR, dungeon_svg_text, render_dungeon_image,
                                               write_dungeon_picture)
from blockmaze.materials import Material, load_theme

THEME = load_theme()
CELL = 16  # pixels a cell: a block is 8 pixels, a block of margin
BLOCK = CELL // 2
WHITE = (255, 255, 255)


def full_dungeon(seed: int = 7, style: str = "rooms-and-mazes", size=(12, 16)):
    """Two levels with stairs, a lock and its key, and every kind of spawn."""
    return generate_dungeon(size, seed, levels=2, style=style, spawns=(3, 2, 1), lock=True)


def colour(material) -> tuple[int, int, int]:
    return THEME.color(material)


def room_colour() -> tuple[int, int, int]:
    return tuple((c + 255) // 2 for c in colour(Material.FLOOR))


def expected_plan(level) -> np.ndarray:
    """(z, x, 3) the colour of each block as the module's docstring says it is drawn."""
    plan = level.plan
    rgb = np.array([colour(m) for m in range(len(Material))], dtype=np.uint8)
    rgb[Material.AIR] = colour(Material.FLOOR)
    out = rgb[plan]
    inside = np.zeros(plan.shape, dtype=bool)
    for z0, x0, z1, x1 in level.rooms.tolist():
        inside[z0:z1, x0:x1] = True
    out[inside & (plan == Material.AIR)] = room_colour()
    return out


def block_pixels(image: np.ndarray, z: int, x: int, left: int = 0) -> np.ndarray:
    y0, x0 = BLOCK + z * BLOCK, left + BLOCK + x * BLOCK
    return image[y0:y0 + BLOCK, x0:x0 + BLOCK].reshape(-1, 3)


def has(pixels: np.ndarray, rgb) -> bool:
    return bool((pixels == np.array(rgb, dtype=np.uint8)).all(axis=1).any())


def rgb_image(level_or_dungeon) -> np.ndarray:
    return np.asarray(render_dungeon_image(level_or_dungeon, cell_size=CELL).convert("RGB"))


def centres(level) -> tuple[np.ndarray, np.ndarray]:
    z, x = np.mgrid[0:level.plan.shape[0], 0:level.plan.shape[1]]
    return BLOCK + z * BLOCK + BLOCK // 2, BLOCK + x * BLOCK + BLOCK // 2


def test_every_kind_is_in_the_dungeon_under_test():
    kinds = {(e.kind, e.properties.get("direction"), bool(e.properties.get("locked")))
             for level in full_dungeon().levels for e in level.entities}
    assert {("stairs", "up", False), ("stairs", "down", False), ("door", None, True),
            ("key", None, False), ("monster", None, False), ("item", None, False),
            ("treasure", None, False)} <= kinds
    assert colour(Material.STAIRS) != WHITE and KEY_COLOUR not in {colour(m) for m in Material}


@pytest.mark.parametrize("style", STYLES)
def test_each_block_is_drawn_where_the_plan_has_it(style):
    for level in full_dungeon(style=style).levels:
        image = rgb_image(level)
        assert image.shape[:2] == ((level.plan.shape[0] + 2) * BLOCK, (level.plan.shape[1] + 2) * BLOCK)
        cy, cx = centres(level)
        marked = np.zeros(level.plan.shape, dtype=bool)
        for e in level.entities:  # a marker covers the block's centre
            marked[e.z, e.x] = True
        drawn, want = image[cy, cx], expected_plan(level)
        assert (drawn[~marked] == want[~marked]).all()
        kinds = set(np.unique(level.plan).tolist())
        assert {Material.WALL, Material.AIR} <= kinds
        # the margin is paper, the outer wall is wall
        assert (image[0] == WHITE).all() and (image[:, 0] == WHITE).all()


def test_rooms_are_lighter_than_corridors():
    level = full_dungeon().levels[0]
    assert len(level.rooms) > 0
    image = rgb_image(level)
    z0, x0, z1, x1 = level.rooms[0].tolist()
    cy, cx = centres(level)
    room = image[cy[z0:z1, x0:x1], cx[z0:z1, x0:x1]].reshape(-1, 3)
    assert has(room, room_colour())
    corridor = (level.plan == Material.AIR) & (expected_plan(level) == colour(Material.FLOOR)).all(axis=2)
    for e in level.entities:
        corridor[e.z, e.x] = False
    assert corridor.any() and (image[cy[corridor], cx[corridor]] == colour(Material.FLOOR)).all()


def test_each_entity_is_drawn_on_its_block():
    dungeon = full_dungeon()
    for level in dungeon.levels:
        image = rgb_image(level)
        for e in level.entities:
            pixels = block_pixels(image, e.z, e.x)
            centre = tuple(image[BLOCK + e.z * BLOCK + BLOCK // 2, BLOCK + e.x * BLOCK + BLOCK // 2])
            if e.kind == "stairs":
                assert has(pixels, colour(Material.STAIRS)) and centre == WHITE
                square = pixels.reshape(BLOCK, BLOCK, 3)
                white = (square == WHITE).all(axis=2).sum(axis=1)
                top, bottom = white[white > 0][[0, -1]]  # a triangle's tip is narrow, its base wide
                assert (top < bottom) if e.properties["direction"] == "up" else (top > bottom), white
            elif e.kind == "door" and e.properties.get("locked"):
                assert has(pixels, colour(Material.DOOR)) and centre == KEY_COLOUR
            elif e.kind == "key":
                assert has(pixels, KEY_COLOUR)
                assert (pixels == KEY_COLOUR).all(axis=1).sum() >= BLOCK  # a shape, not a dot
            elif e.kind in ("monster", "item", "treasure"):
                assert centre == colour(Material[e.kind.upper()])
        drawn_keys = int((image == KEY_COLOUR).all(axis=2).sum())
        keyed = [e for e in level.entities if e.kind == "key" or e.properties.get("locked")]
        assert (drawn_keys > 0) == bool(keyed)


def test_levels_side_by_side_are_the_levels_pictures():
    dungeon = full_dungeon()
    both = rgb_image(dungeon)
    first, second = (rgb_image(level) for level in dungeon.levels)
    assert both.shape[1] == first.shape[1] + second.shape[1]
    assert (both[:, :first.shape[1]] == first).all()
    assert (both[:second.shape[0], first.shape[1]:] == second).all()


def test_same_seed_same_bytes_and_another_seed_differs():
    def png(seed, format="png"):
        out = io.BytesIO()
        write_dungeon_picture(full_dungeon(seed).levels[0], out, format=format)
        return out.getvalue()

    assert png(7) == png(7) and png(7) != png(8)
    assert png(7, "svg") == png(7, "svg") and png(7, "svg") != png(8, "svg")
    with Image.open(io.BytesIO(png(7))) as image:
        assert image.format == "PNG" and image.mode == "P" and not image.info.get("dpi")


def _svg_plan(root, shape) -> np.ndarray:
    """The SVG's plan rectangles (``M left top H right v height H left Z`` per run) as colours."""
    height, width = shape
    out = np.zeros((height, width, 3), dtype=np.uint8)
    ns = "{http://www.w3.org/2000/svg}"
    for path in root.iter(f"{ns}path"):
        if path.get("class") != "blocks":
            continue
        rgb = tuple(int(path.get("fill")[i:i + 2], 16) for i in (1, 3, 5))
        for left, top, right, size in re.findall(r"M([\d.]+) ([\d.]+)H([\d.]+)v([\d.]+)H", path.get("d")):
            assert float(size) == BLOCK
            z = round((float(top) - BLOCK) / BLOCK)
            x0, x1 = (round((float(v) - BLOCK) / BLOCK) for v in (left, right))
            out[z, x0:x1] = rgb
    return out


def test_svg_parses_and_agrees_with_the_plan():
    for level in full_dungeon().levels:
        text = dungeon_svg_text(level, cell_size=CELL)
        root = ET.fromstring(text)
        assert root.get("width") == str((level.plan.shape[1] + 2) * BLOCK)
        assert (_svg_plan(root, level.plan.shape) == expected_plan(level)).all()
        ns = "{http://www.w3.org/2000/svg}"
        classes = [element.get("class") for element in root.iter() if element.get("class")]
        count = {kind: sum(e.kind == kind for e in level.entities) for kind in ("monster", "item", "treasure")}
        assert classes.count("monsters") == count["monster"] == len(list(root.iter(f"{ns}circle")))
        for kind in ("item", "treasure"):
            paths = [p for p in root.iter(f"{ns}path") if p.get("class") == kind + "s"]
            assert len(paths) == 1 and paths[0].get("d").count("M") == count[kind]
        for name in ("locks", "keys"):
            assert name in classes
        direction = {e.properties["direction"] for e in level.entities if e.kind == "stairs"}
        assert {f"stairs-{d}" for d in direction} <= set(classes)


def test_the_png_and_svg_writers_draw_a_dungeon_level():
    level = full_dungeon().levels[1]
    for format in ("png", "svg"):
        by_writer, direct = io.BytesIO(), io.BytesIO()
        writer_for(format=format).write(level, by_writer, THEME)
        write_dungeon_picture(level, direct, THEME, format=format)
        assert by_writer.getvalue() == direct.getvalue()
    with pytest.raises(BlockmazeError, match="takes no style"):
        writer_for(format="png").write(level, io.BytesIO(), THEME, solution=True)


@pytest.mark.parametrize("bad, message", [
    (dict(cell_size=1), "cell_size must be a number >= 2"),
    (dict(cell_size=float("nan")), "cell_size"),
    (dict(format="gif"), "png or svg"),
])
def test_bad_options_get_one_line(bad, message):
    level = full_dungeon().levels[0]
    with pytest.raises(BlockmazeError, match=message):
        write_dungeon_picture(level, io.BytesIO(), **bad)


def test_only_a_dungeon_is_drawn():
    with pytest.raises(BlockmazeError, match="needs a Dungeon or a DungeonLevel"):
        render_dungeon_image(np.zeros((3, 3), np.uint8))


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**16), st.integers(3, 9), st.integers(3, 9), st.sampled_from(STYLES),
       st.sampled_from([4, 6, 10]))
def test_any_dungeon_any_cell_size_shows_its_walls(seed, rows, cols, style, cell):
    level = generate_dungeon((rows, cols), seed, style=style).levels[0]
    image = np.asarray(render_dungeon_image(level, cell_size=cell).convert("RGB"))
    block = cell / 2
    z, x = np.mgrid[0:level.plan.shape[0], 0:level.plan.shape[1]]
    cy = np.rint(block + (z + 0.5) * block - 0.01).astype(int)
    cx = np.rint(block + (x + 0.5) * block - 0.01).astype(int)
    marked = np.zeros(level.plan.shape, dtype=bool)
    for e in level.entities:
        marked[e.z, e.x] = True
    wall = (level.plan == Material.WALL) & ~marked
    assert (image[cy[wall], cx[wall]] == colour(Material.WALL)).all()
    assert not (image[cy[~wall & ~marked], cx[~wall & ~marked]] == colour(Material.WALL)).all(axis=1).any()


# --- the command (blockmaze dungeon ... -o level.png) ----------------------------------------

def test_the_command_draws_a_picture_a_level(tmp_path, capsys):
    from blockmaze.cli import main

    args = ["dungeon", "20x30", "--seed", "7", "--levels", "2", "--spawns", "3:2:1", "--lock"]
    dungeon = generate_dungeon((20, 30), 7, levels=2, spawns=(3, 2, 1), lock=True)
    for format in ("png", "svg"):
        assert main([*args, "-o", str(tmp_path / f"level.{format}")]) == 0
        err = capsys.readouterr().err  # the report is on standard error
        assert f"wrote {tmp_path / f'level-1.{format}'} ... level-2.{format}: 2 levels, a picture each" in err
        assert "Warning" not in err  # --spawns and --lock are drawn
        for number, level in enumerate(dungeon.levels, 1):
            expected = io.BytesIO()
            write_dungeon_picture(level, expected, format=format)
            assert (tmp_path / f"level-{number}.{format}").read_bytes() == expected.getvalue()
    assert main(["dungeon", "20x30", "--seed", "7", "-o", str(tmp_path / "one.png")]) == 0
    assert (tmp_path / "one.png").is_file()
    assert main([*args, "-o", "-", "-f", "png"]) == 2  # two levels, one stream
    assert main(["dungeon", "8x8", "-o", str(tmp_path / "d.json")]) == 2
    assert "not a maze document" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["level-1.png", "level-1.svg", "level-2.png",
                                                         "level-2.svg", "one.png"]
