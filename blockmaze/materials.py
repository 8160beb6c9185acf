"""Materials (what a block is) and themes (what each material looks like in each world)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from enum import IntEnum
from importlib import resources
from pathlib import Path

import numpy as np

from .errors import BlockmazeError


class Material(IntEnum):
    """The values of a Blocks array. AIR is 0, so ``np.zeros`` is empty space."""

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


# A lookup table: SOLID[blocks] is True where a block stops a walker.
SOLID = np.zeros(256, dtype=bool)
SOLID[[Material.WALL, Material.FLOOR, Material.ROOF]] = True

# Materials that mark the walking surface of an open block (the floor under them shows them).
MARKERS = np.zeros(256, dtype=bool)
MARKERS[[Material.PATH, Material.START, Material.GOAL]] = True

DEFAULT_THEME = "stone-bricks"

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
    minecraft: dict[Material, str]
    variants: dict[Material, tuple[tuple[str, float], ...]] = field(default_factory=dict)

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
    folder = resources.files("blockmaze") / "themes"
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json"))


def load_theme(name_or_path: str | Path | None = None) -> Theme:
    """Load a shipped theme by name, or a theme JSON file by path (None = the default theme)."""
    name_or_path = DEFAULT_THEME if name_or_path is None else name_or_path
    if str(name_or_path) in theme_names():
        text = (resources.files("blockmaze") / "themes" / f"{name_or_path}.json").read_text("utf-8")
        source = f"theme {name_or_path!r}"
    else:
        path = Path(name_or_path)
        if not path.is_file():
            raise BlockmazeError(
                f"no theme {str(name_or_path)!r}: give a theme file or one of: {', '.join(theme_names())}"
            )
        try:
            text = path.read_text("utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise BlockmazeError(f"cannot read theme file {path}: {error}") from None
        source = f"theme file {path}"
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise BlockmazeError(f"{source} is not valid JSON: {error}") from None
    return parse_theme(document, source)


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
    minecraft, variants = {}, {}
    for key, entry in materials.items():
        if key not in known:
            raise BlockmazeError(
                f"{source}: unknown material {key!r}; materials are: {', '.join(known)}"
            )
        if not isinstance(entry, dict) or "minecraft" not in entry:
            raise BlockmazeError(f"{source}: materials.{key}.minecraft is missing")
        main = _block_state(entry["minecraft"], f"{source}: materials.{key}.minecraft")
        minecraft[known[key]] = main
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
    return Theme(document["name"], str(document.get("description", "")), minecraft, variants)


def _block_state(state: object, where: str) -> str:
    if not isinstance(state, str) or not _BLOCK_STATE.match(state):
        raise BlockmazeError(
            f"{where} must be a block state like 'minecraft:oak_log[axis=z]', got {state!r}"
        )
    return state


def _weight(value: object, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise BlockmazeError(f"{where} must be a number > 0, got {value!r}")
    return float(value)
