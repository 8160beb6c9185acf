"""Which block states each Minecraft Java release has, and the check every theme passes first.

The table (``data/java_blocks.json``, made by ``scripts/block_data.py`` from minecraft-data) lists
every block with its properties and allowed values per release. :func:`check_state` refuses a
state its release lacks with one line naming the state, the release and, where known, the release
it first appears in; :func:`for_release` gives the theme a writer draws with: built-in themes
swap the blocks a release lacks for ones it has (``data/substitutions.json``), custom themes are
only checked.

Example
-------
>>> check_state("minecraft:deepslate_bricks", "1.16.5")
Traceback (most recent call last):
...
blockmaze.errors.BlockmazeError: minecraft:deepslate_bricks does not exist in Minecraft 1.16.5 (added in 1.17); choose --mc-version 1.17 or later or another theme
>>> for_release(load_theme("deepslate-dungeon"), "1.16.5").minecraft[Material.WALL]
'minecraft:stone_bricks'
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import replace
from functools import lru_cache, cache
from importlib import resources

from ...errors import BadFileError, BlockmazeError
from ...materials import Material, Theme, load_theme, theme_names
from .versions import release

# The .schematic writer maps states to 1.12 ids by their 1.13 names: it draws as for 1.13.
LEGACY_RELEASE = "1.13"
_STATE = re.compile(r"^([a-z0-9_.-]+:[a-z0-9_./-]+)(?:\[([^\[\]]*)\])?$")


def _read(name: str) -> dict:
    return json.loads((resources.files(__package__) / "data" / name).read_text("utf-8"))


@cache
def _table() -> dict:
    table = _read("java_blocks.json")
    table["index"] = {name: i for i, name in enumerate(table["releases"])}
    return table


def releases() -> list[str]:
    """The releases the table covers, oldest first.

    >>> releases()[0]
    '1.13'
    """
    return list(_table()["releases"])


def _position(mc_version: str) -> int:
    release(mc_version)  # an unknown name: the release table's own error
    return _table()["index"][mc_version]


@cache
def blocks(mc_version: str) -> dict[str, dict[str, tuple[str, ...]]]:
    """Every block of a release: ``{"minecraft:name": {property: allowed values}}``.

    >>> blocks("1.20.4")["minecraft:oak_log"]
    {'axis': ('x', 'y', 'z')}
    """
    table, at = _table(), _position(mc_version)
    out = {}
    for name, spans in table["blocks"].items():
        for first, end, properties in spans:
            if first <= at < end:
                out["minecraft:" + name] = {k: tuple(table["values"][v]) for k, v in properties.items()}
    return out


def appears(name: str) -> tuple[str, str] | None:
    """The first and last release (of the table) that have block ``name``, or None.

    >>> appears("minecraft:deepslate_bricks")[0], appears("minecraft:grass_path")
    ('1.17', ('1.13', '1.16.5'))
    """
    namespace, _, short = name.partition(":")
    spans = _table()["blocks"].get(short) if namespace == "minecraft" else None
    if not spans:
        return None
    names = _table()["releases"]
    return names[spans[0][0]], names[spans[-1][1] - 1]


def split_state(state: str) -> tuple[str, dict[str, str]]:
    """A block state's name and properties, or an error for text that is not a block state.

    >>> split_state("minecraft:oak_log[axis=z]")
    ('minecraft:oak_log', {'axis': 'z'})
    """
    match = _STATE.match(state) if isinstance(state, str) else None
    if not match:
        raise BlockmazeError(f"{state!r} is not a block state like 'minecraft:oak_log[axis=z]'")
    name, text = match.groups()
    properties: dict[str, str] = {}
    for pair in text.split(",") if text else ():
        key, equals, value = pair.partition("=")
        if not equals or not key or not value or key in properties:
            raise BlockmazeError(f"{state} has a property {pair!r} that is not one key=value")
        properties[key] = value
    return name, properties


def _problem(state: str, mc_version: str) -> str | None:
    """Why ``state`` is not a block state of ``mc_version`` (no advice), or None when it is."""
    name, properties = split_state(state)
    known = blocks(mc_version).get(name)
    if known is None:
        return f"{name} does not exist in Minecraft {mc_version}"
    for key, value in properties.items():
        if key not in known:
            has = f"its properties: {', '.join(known)}" if known else "it has none"
            return f"{state}: {name} has no property {key!r} in Minecraft {mc_version} ({has})"
        if value not in known[key]:
            return (f"{state}: {key}={value} is not allowed in Minecraft {mc_version} "
                    f"(allowed: {', '.join(known[key])})")
    return None


@lru_cache(maxsize=4096)
def check_state(state: str, mc_version: str | None = None) -> None:
    """Refuse a block state (name, property or value) that ``mc_version`` does not have.

    With ``mc_version=None`` the state must exist in at least one release of the table (tile
    maps and meshes, which name blocks but target no release).

    >>> check_state("minecraft:oak_fence_gate[facing=east,open=true]", "1.13")
    >>> check_state("minecraft:stone_bricks[foo=bar]", "1.20.4")
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: minecraft:stone_bricks[foo=bar]: minecraft:stone_bricks has no property 'foo' in Minecraft 1.20.4 (it has none)
    """
    names = _table()["releases"]
    if mc_version is None:
        if any(_problem(state, r) is None for r in names):
            return
        name, _ = split_state(state)
        span = appears(name)
        mc_version = span[1] if span else names[-1]  # explain against its newest release
    problem = _problem(state, mc_version)
    if problem is None:
        return
    name, _ = split_state(state)
    span = appears(name)
    if span is None:
        guess = difflib.get_close_matches(name, blocks(names[-1]), n=1)
        hint = f"; did you mean {guess[0]}?" if guess else ""
        raise BlockmazeError(f"{name} is not a block of any Minecraft release from {names[0]} "
                             f"to {names[-1]} (minecraft-data){hint}")
    later = next((r for r in names[_position(mc_version) + 1:] if _problem(state, r) is None), None)
    if problem.startswith(f"{name} does not exist") and later == span[0]:
        problem += f" (added in {later})"
    elif problem.startswith(f"{name} does not exist"):
        problem += f" (it is in {span[0]} to {span[1]})"
    if later:
        raise BlockmazeError(f"{problem}; choose --mc-version {later} or later or another theme")
    earlier = next((r for r in reversed(names[:_position(mc_version)]) if _problem(state, r) is None), None)
    advice = f"; choose --mc-version {earlier} or earlier or another theme" if earlier else ""
    raise BlockmazeError(problem + advice)


def check_states(states, mc_version: str | None = None) -> None:
    """:func:`check_state` for each state (a palette, say), the first bad one raising.

    >>> check_states(["minecraft:air", "minecraft:scaffolding"], "1.13.2")
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: minecraft:scaffolding does not exist in Minecraft 1.13.2 (added in 1.14); choose --mc-version 1.14 or later or another theme
    """
    for state in states:
        check_state(state, mc_version)


def check_theme(theme: Theme, mc_version: str | None = None) -> None:
    """Refuse a theme with any state (main or variant, every material) ``mc_version`` lacks.

    >>> check_theme(load_theme("deepslate-dungeon"), "1.16.5")
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: theme 'deepslate-dungeon' draws material wall as minecraft:deepslate_bricks: minecraft:deepslate_bricks does not exist in Minecraft 1.16.5 (added in 1.17); choose --mc-version 1.17 or later or another theme
    """
    for material in sorted(theme.minecraft):
        for state, _ in theme.minecraft_choices(material):
            try:
                check_state(state, mc_version)
            except BlockmazeError as error:
                name = Material(material).name.lower() if material in Material._value2member_map_ \
                    else str(material)
                # a theme file naming a state of no release at all is a bad input file (exit 1);
                # a state another release has is a choice of --mc-version (usage, exit 2)
                kind = BadFileError if _builtin(theme.name) != theme and not _in_any_release(state) \
                    else BlockmazeError
                raise kind(f"theme {theme.name!r} draws material {name} as {state}: {error}") from None


def _in_any_release(state: str) -> bool:
    try:
        check_state(state)
    except BlockmazeError:
        return False
    return True


@cache
def _builtin(name: str) -> Theme | None:
    return load_theme(name) if name in theme_names() else None


@cache
def substitutions() -> dict[str, tuple[str, str]]:
    """Block name -> (release that added it, state built-in themes use before that release).

    >>> substitutions()["minecraft:scaffolding"]
    ('1.14', 'minecraft:ladder[facing=north,waterlogged=false]')
    """
    return {row["block"]: (row["added"], row["instead"]) for row in _read("substitutions.json")["rows"]}


def substitute(state: str, mc_version: str) -> str:
    """The state a built-in theme draws instead of ``state`` in ``mc_version``.

    >>> substitute("minecraft:deepslate_tiles", "1.16.5"), substitute("minecraft:deepslate_tiles", "1.17")
    ('minecraft:stone_bricks', 'minecraft:deepslate_tiles')
    """
    row = substitutions().get(split_state(state)[0])
    if row and release(mc_version).data_version < release(row[0]).data_version:
        return row[1]
    return state


def substituted(theme: Theme, mc_version: str) -> Theme:
    """A built-in theme with the blocks ``mc_version`` lacks replaced; any other theme as it is.

    A theme equal to a shipped one is built-in. Replacements follow ``data/substitutions.json``;
    variants that become the same state merge their weights.

    >>> substituted(load_theme("deepslate-dungeon"), "1.16.5").minecraft[Material.STAIRS]
    'minecraft:stone_brick_stairs[facing=north,half=bottom,shape=straight,waterlogged=false]'
    """
    if theme == _builtin(theme.name):
        minecraft = {m: substitute(s, mc_version) for m, s in theme.minecraft.items()}
        variants = {}
        for material, choices in theme.variants.items():
            merged: dict[str, float] = {}
            for state, weight in choices:
                state = substitute(state, mc_version)
                merged[state] = merged.get(state, 0.0) + weight
            variants[material] = tuple(merged.items()) if len(merged) > 1 else ()
        variants = {m: v for m, v in variants.items() if v}
        if minecraft != theme.minecraft or variants != theme.variants:
            theme = replace(theme, minecraft=minecraft, variants=variants)
    return theme


def for_release(theme: Theme, mc_version: str | None) -> Theme:
    """The theme to draw release ``mc_version`` with: :func:`substituted`, then checked.

    ``mc_version=None`` substitutes nothing and checks that each state exists in some release
    (tile maps and meshes; the .schematic and .mcstructure writers, which then map the states
    to their own tables).
    """
    if mc_version is not None:
        theme = substituted(theme, mc_version)
    check_theme(theme, mc_version)
    return theme


def release_theme(theme: Theme, options) -> Theme:
    """A writer's ``prepare_theme`` for a file of one Java release: the theme for the release
    its ``mc_version`` option names (the default release when none is given).

    >>> from blockmaze.materials import load_theme
    >>> release_theme(load_theme("deepslate-dungeon"), {"mc_version": "1.16.5"}).minecraft[Material.WALL]
    'minecraft:stone_bricks'
    """
    from .versions import DEFAULT_MC_VERSION

    return for_release(theme, options.get("mc_version", DEFAULT_MC_VERSION))


def checked_theme(theme: Theme, options) -> Theme:
    """A writer's ``prepare_theme`` for a format that maps block states to its own tables
    (.schematic, Bedrock): the theme as it is, each state checked to exist in some release."""
    return for_release(theme, None)
