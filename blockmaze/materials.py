"""Materials (what a block is) and themes (what each material looks like in each world)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from enum import IntEnum
from pathlib import Path


from .errors import BadFileError, BlockmazeError, shown


class Material(IntEnum):
    """The values of a Blocks array. AIR is 0, so ``np.zeros`` is empty space.

    Examples
    --------
    >>> Material.WALL, Material(0).name
    (<Material.WALL: 1>, 'AIR')
    """

    AIR = 0
    WALL = 1
    FLOOR = 2
    ROOF = 3
    PATH = 4
    START = 5
    GOAL = 6
    DOOR = 7
    STAIRS = 8
    LIGHT = 9
    MONSTER = 10  # a dungeon's spawn points (``--spawns``): in Minecraft a mob spawner,
    ITEM = 11     # a chest of dungeon loot,
    TREASURE = 12  # a chest of treasure (see blockmaze.export.minecraft.blockentities)
    CHECKPOINT = 13  # a cell the way passes through, in order (``--checkpoints``)
    EXIT = 14        # a cell with an opening in the outer wall besides start and goal (``--exits``)


# Lookup tables, built on first use (so naming a material needs no numpy):
# SOLID[blocks] is True where a block stops a walker; MARKERS[blocks] where a material marks the
# walking surface of an open block (the floor under it shows it).
_TABLES = {"SOLID": (Material.WALL, Material.FLOOR, Material.ROOF),
           "MARKERS": (Material.PATH, Material.START, Material.GOAL, Material.MONSTER, Material.ITEM,
                       Material.TREASURE, Material.CHECKPOINT, Material.EXIT)}


def __getattr__(name: str):
    if name not in _TABLES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import numpy as np

    table = np.zeros(256, dtype=bool)
    table[list(_TABLES[name])] = True
    globals()[name] = table
    return table

DEFAULT_THEME = "stone-bricks"
# the shipped themes, read by path as the studio's pages are (importlib.resources and the zipfile
# it imports would add about 5 ms to every start)
THEMES = Path(__file__).with_name("themes")
MAX_THEME_BYTES = 1 << 20  # a theme file is a few kB; more is refused unread

# What a material looks like where a theme does not say: a tile glyph (roguelike convention) and
# an sRGB colour (pictures, meshes, tile sets).
DEFAULT_GLYPHS: dict[int, str] = {
    Material.AIR: ".", Material.WALL: "#", Material.FLOOR: ".", Material.ROOF: "^",
    Material.PATH: "*", Material.START: "S", Material.GOAL: "G", Material.DOOR: "+",
    Material.STAIRS: ">", Material.LIGHT: "!", Material.MONSTER: "M", Material.ITEM: "?",
    Material.TREASURE: "$", Material.CHECKPOINT: "C", Material.EXIT: "E",
}
DEFAULT_COLORS: dict[int, str] = {
    Material.AIR: "#1a1a1a", Material.WALL: "#7f7f7f", Material.FLOOR: "#c8c3b4",
    Material.ROOF: "#5a4a3a", Material.PATH: "#e6b422", Material.START: "#2e9e4f",
    Material.GOAL: "#c0392b", Material.DOOR: "#8b5a2b", Material.STAIRS: "#4f86c6",
    Material.LIGHT: "#fff2a8", Material.MONSTER: "#3b3b4f", Material.ITEM: "#a0702a",
    Material.TREASURE: "#e0b030", Material.CHECKPOINT: "#dcdcdc", Material.EXIT: "#62dbd5",
}
# What a spawn point is where a theme does not say: a spawner, a chest (facing the default way;
# see blockmaze.export.minecraft.blockentities for what they hold); checkpoints and exits, which
# a theme written before them does not name.
DEFAULT_MINECRAFT = {
    Material.MONSTER: "minecraft:spawner",
    Material.ITEM: "minecraft:chest[facing=north,type=single,waterlogged=false]",
    Material.TREASURE: "minecraft:chest[facing=north,type=single,waterlogged=false]",
    Material.CHECKPOINT: "minecraft:iron_block", Material.EXIT: "minecraft:diamond_block",
}
_COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")

_BLOCK_STATE = re.compile(
    r"^[a-z0-9_.-]+:[a-z0-9_./-]+(\[[a-z0-9_]+=[a-z0-9_]+(,[a-z0-9_]+=[a-z0-9_]+)*\])?$"
)


@dataclass(frozen=True)
class Theme:
    """How each material looks: ``minecraft[m]`` is a Java block state string.

    Example
    -------
    >>> theme = load_theme()
    >>> theme.minecraft[Material.WALL]
    'minecraft:stone_bricks'
    """

    name: str
    description: str
    # keyed by Material members, looked up by any int (a volume's values)
    minecraft: dict[int, str]
    variants: dict[int, tuple[tuple[str, float], ...]] = field(default_factory=dict)
    colors: dict[int, str] = field(default_factory=dict)
    glyphs: dict[int, str] = field(default_factory=dict)

    def color(self, material: int) -> tuple[int, int, int]:
        """The material's colour as (r, g, b) 0..255: the theme's, else the default.

        >>> load_theme().color(Material.WALL), load_theme().color(Material.DOOR)
        ((122, 122, 122), (139, 90, 43))
        """
        text = self.colors.get(material, DEFAULT_COLORS.get(material, "#ff00ff"))
        red, green, blue = (int(text[i:i + 2], 16) for i in (1, 3, 5))
        return red, green, blue

    def glyph(self, material: int) -> str:
        """The material's one-character tile glyph: the theme's, else the default.

        >>> load_theme().glyph(Material.DOOR)
        '+'
        """
        return self.glyphs.get(material, DEFAULT_GLYPHS.get(material, "?"))

    def minecraft_choices(self, material: int) -> tuple[tuple[str, float], ...]:
        """Every block state a material may take, with its weight (the main state first).

        >>> load_theme().minecraft_choices(Material.FLOOR)
        (('minecraft:smooth_stone', 1.0),)
        """
        return self.variants.get(material, ((self.minecraft[material], 1.0),))


def theme_names() -> list[str]:
    """Names of the themes shipped with blockmaze.

    >>> "stone-bricks" in theme_names()
    True
    """
    return sorted(name[:-5] for name in os.listdir(THEMES) if name.endswith(".json"))


def as_theme(theme: Theme | str | Path | None) -> Theme:
    """A theme as it is, else loaded by :func:`load_theme` (a name, a file, None: the default):
    what every function that takes ``theme`` calls once.

    >>> as_theme(None) is not None, as_theme(load_theme("glass")).name
    (True, 'glass')
    """
    return theme if isinstance(theme, Theme) else load_theme(theme)


def load_theme(name_or_path: str | Path | None = None) -> Theme:
    """Load a shipped theme by name, or a theme JSON file by path (None = the default theme)."""
    name_or_path = DEFAULT_THEME if name_or_path is None else name_or_path
    if str(name_or_path) in theme_names():
        text = (THEMES / f"{name_or_path}.json").read_text("utf-8")
        source = f"theme {name_or_path!r}"
    else:
        from .support.files import read_regular

        path = Path(name_or_path)
        if not os.path.lexists(path):
            looks_like_file = path.suffix or os.sep in str(path)
            raise (BadFileError if looks_like_file else BlockmazeError)(
                f"no theme {str(name_or_path)!r}: give a theme file or one of: {', '.join(theme_names())}"
            )
        raw = read_regular(path, "theme file", MAX_THEME_BYTES)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise BadFileError(f"cannot read theme file {path}: {error}") from None
        source = f"theme file {path}"
    import json  # (here: a printed maze loads no theme)

    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise BadFileError(f"{source} is not valid JSON: {error}") from None
    except (ValueError, RecursionError) as error:
        raise BadFileError(f"{source} is not usable JSON: "
                           f"{'nested too deeply' if isinstance(error, RecursionError) else error}") from None
    try:
        return parse_theme(document, source)
    except BadFileError:
        raise
    except BlockmazeError as error:
        raise BadFileError(str(error)) from None
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError) as error:
        raise BadFileError(f"{source}: malformed theme ({type(error).__name__}: {error})") from None


def parse_theme(document: object, source: str = "theme") -> Theme:
    """Check a theme document (see schemas/theme.schema.json) and build the Theme.

    >>> parse_theme({"name": "x", "materials": {"wall": {}}})
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: theme: materials.wall.minecraft is missing
    """
    if not isinstance(document, dict) or not isinstance(document.get("name"), str):
        raise BlockmazeError(f"{source}: must be a JSON object with a string 'name'")
    materials = document.get("materials")
    if not isinstance(materials, dict):
        raise BlockmazeError(f"{source}: 'materials' must be an object keyed by material name")
    known = {m.name.lower(): m for m in Material}
    minecraft: dict[int, str] = {}
    variants: dict[int, tuple[tuple[str, float], ...]] = {}
    colors: dict[int, str] = {}
    glyphs: dict[int, str] = {}
    for key, entry in materials.items():
        if key not in known:
            raise BlockmazeError(
                f"{source}: unknown material {shown(key)}; materials are: {', '.join(known)}"
            )
        if not isinstance(entry, dict) or "minecraft" not in entry:
            raise BlockmazeError(f"{source}: materials.{key}.minecraft is missing")
        main = _block_state(entry["minecraft"], f"{source}: materials.{key}.minecraft")
        minecraft[known[key]] = main
        if "color" in entry:
            if not isinstance(entry["color"], str) or not _COLOR.fullmatch(entry["color"]):
                raise BlockmazeError(f"{source}: materials.{key}.color must be like '#7f7f7f', got {shown(entry['color'])}")
            colors[known[key]] = entry["color"]
        if "glyph" in entry:
            glyph = entry["glyph"]
            if not isinstance(glyph, str) or len(glyph) != 1 or not glyph.isprintable():
                raise BlockmazeError(f"{source}: materials.{key}.glyph must be one printable character, got {shown(glyph)}")
            glyphs[known[key]] = glyph
        extra = entry.get("variants", [])
        if not isinstance(extra, list):
            raise BlockmazeError(f"{source}: materials.{key}.variants must be a list")
        if extra:
            choices = [(main, _weight(entry.get("weight", 1), f"{source}: materials.{key}.weight"))]
            for i, variant in enumerate(extra):
                where = f"{source}: materials.{key}.variants[{i}]"
                if not isinstance(variant, dict):
                    raise BlockmazeError(f"{where} must be an object with minecraft and weight")
                choices.append((_block_state(variant.get("minecraft"), f"{where}.minecraft"),
                                _weight(variant.get("weight", 1), f"{where}.weight")))
            variants[known[key]] = tuple(choices)
    if Material.AIR not in minecraft:
        minecraft[Material.AIR] = "minecraft:air"
    for material, state in DEFAULT_MINECRAFT.items():
        minecraft.setdefault(material, state)
    return Theme(document["name"], str(document.get("description", "")), minecraft, variants,
                 colors, glyphs)


def _block_state(state: object, where: str) -> str:
    if not isinstance(state, str) or not _BLOCK_STATE.fullmatch(state):  # "$" lets "\n" end it
        raise BlockmazeError(
            f"{where} must be a block state like 'minecraft:oak_log[axis=z]', got {shown(state)}"
        )
    return state


def _weight(value: object, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise BlockmazeError(f"{where} must be a number > 0, got {shown(value)}")
    return float(value)
