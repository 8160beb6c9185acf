"""From materials to a Minecraft block palette, through a theme (with its weighted variants)."""

from __future__ import annotations

import re

import numpy as np

from nbtlib import Compound, String

from ...errors import BlockmazeError
from ...materials import Material, Theme
from .blockdata import check_states, for_release, substitute
from .states import CLIMB, place_states

# States that are air: left out of files that keep terrain, and not counted as blocks.
AIR_STATES = frozenset({"minecraft:air", "minecraft:cave_air", "minecraft:void_air"})

_STATE = re.compile(r"^([^\[\]]+)(?:\[([^\[\]]*)\])?$")


def minecraft_palette(blocks: np.ndarray, theme: Theme, seed: int | None = None,
                      mc_version: str | None = None) -> tuple[np.ndarray, list[str]]:
    """Palette indices (same shape as ``blocks``) and the block-state strings they index.

    The palette lists the states of the materials present, in material order (so AIR, if
    present, is index 0); materials drawn with the same state share one entry. Where the theme
    gives a material weighted variants, each block draws one from ``seed`` (the same seed, the
    same blocks); without a seed every block takes the main state. The theme is first made fit
    for release ``mc_version`` (built-in themes substituted, every state checked: see
    :func:`~blockmaze.export.minecraft.blockdata.for_release`; None: each state must exist in
    some release). In a volume, states that depend on the neighbours (doors, gates, stairs,
    ladders, blocks needing support) are then resolved by
    :func:`~blockmaze.export.minecraft.states.place_states`, and the final palette is checked.

    Example
    -------
    >>> from blockmaze.materials import load_theme
    >>> indices, palette = minecraft_palette(np.array([[1, 0, 1]], np.uint8), load_theme("glass"))
    >>> indices.tolist(), palette
    ([[1, 0, 1]], ['minecraft:air', 'minecraft:glass'])
    """
    theme = for_release(theme, mc_version)
    present = np.flatnonzero(np.bincount(blocks.ravel(), minlength=256))
    palette: list[str] = []
    lookup = np.zeros(256, dtype=np.uint16)
    drawn: list[tuple[int, list[int], np.ndarray]] = []
    for value in present:
        value = int(value)
        if value not in theme.minecraft:
            name = Material(value).name.lower() if value in Material._value2member_map_ else str(value)
            raise BlockmazeError(f"theme {theme.name!r} has no Minecraft block for material {name}")
        choices = theme.minecraft_choices(value) if seed is not None else ((theme.minecraft[value], 1.0),)
        entries = []
        for state, _ in choices:
            if state not in palette:
                palette.append(state)
            entries.append(palette.index(state))
        lookup[value] = entries[0]
        if len(entries) > 1:
            weights = np.array([w for _, w in choices])
            drawn.append((value, entries, weights / weights.sum()))
    indices = lookup[blocks]
    if drawn:
        rng = np.random.default_rng([seed, 0x7E3A])  # its own stream: variants never shift the maze
        for value, entries, p in drawn:
            where = blocks == value
            indices[where] = np.asarray(entries, np.uint16)[weighted_choice(rng, p, int(where.sum()))]
    if blocks.ndim == 3:  # doors, gates, stairs, ladders facing their way; support where needed
        floor = theme.minecraft.get(Material.FLOOR, "minecraft:stone")
        climb = CLIMB if mc_version is None else substitute(CLIMB, mc_version)
        indices, palette = place_states(blocks, indices, palette, floor, climb)
    check_states(palette, mc_version)  # the final states, as written
    dtype = np.uint8 if len(palette) <= 256 else np.uint16
    return indices.astype(dtype, copy=False), palette


def weighted_choice(rng: np.random.Generator, p: np.ndarray, size: int) -> np.ndarray:
    """``rng.choice(len(p), size=size, p=p)``, the same draws, several times faster for a few
    choices: numpy draws one uniform a value and finds it in the cumulative weights
    (``searchsorted(side="right")``); here that search is one comparison a weight.

    >>> p = np.array([0.8, 0.1, 0.1])
    >>> a, b = np.random.default_rng(5), np.random.default_rng(5)
    >>> bool((weighted_choice(a, p, 1000) == b.choice(3, size=1000, p=p)).all())
    True
    """
    cdf = p.cumsum()
    cdf /= cdf[-1]
    uniform = rng.random(size)
    index = np.zeros(size, np.int64)
    for edge in cdf[:-1]:  # the count of weights' ends at or below each draw
        index += uniform >= edge
    return index


def block_state_tag(state: str) -> Compound:
    """A block-state string as the ``{Name, Properties}`` compound palettes hold.

    Properties are omitted when the state has none, as Minecraft does.

    >>> block_state_tag("minecraft:oak_log[axis=z]")
    Compound({'Name': String('minecraft:oak_log'), 'Properties': Compound({'axis': String('z')})})
    >>> block_state_tag("minecraft:stone")
    Compound({'Name': String('minecraft:stone')})
    """
    match = _STATE.match(state)
    if not match:
        raise BlockmazeError(f"{state!r} is not a block state like 'minecraft:oak_log[axis=z]'")
    name, properties = match.groups()
    tag = Compound({"Name": String(name)})
    if properties:
        pairs = {}
        for pair in properties.split(","):
            key, equals, value = pair.partition("=")
            if not equals or not key or not value:
                raise BlockmazeError(f"{state!r} has a property {pair!r} that is not key=value")
            pairs[key] = String(value)
        tag["Properties"] = Compound(pairs)
    return tag
