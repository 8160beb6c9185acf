"""From materials to a Minecraft block palette, through a theme (with its weighted variants)."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from nbtlib import Compound, String

from ...errors import BlockmazeError
from ...materials import Material, Theme
from .blockdata import check_states, for_release, substitute
from .states import CLIMB, place_states

# States that are air: left out of files that keep terrain, and not counted as blocks.
AIR_STATES = frozenset({"minecraft:air", "minecraft:cave_air", "minecraft:void_air"})

_STATE = re.compile(r"^([^\[\]]+)(?:\[([^\[\]]*)\])?$")
# Volumes from this many blocks up draw their layers' variants on two threads (the same draws:
# each block's comes from its own position); a world's bands stay below it, being made on a
# thread of their own already.
THREADED_DRAWS = 1 << 22


def minecraft_palette(blocks: np.ndarray, theme: Theme, seed: int | None = None,
                      mc_version: str | None = None,
                      origin: tuple[int, int, int] = (0, 0, 0)) -> tuple[np.ndarray, list[str]]:
    """Palette indices (same shape as ``blocks``) and the block-state strings they index.

    The palette lists the states of the materials present, in material order (so AIR, if
    present, is index 0); materials drawn with the same state share one entry. Where the theme
    gives a material weighted variants, each block draws one from ``seed`` and its own position
    alone (:func:`variant_draws`), so any part of a maze (a band, a layer, a tile) gets the
    blocks the whole maze gets there: ``origin`` is the (y, z, x) of ``blocks[0, 0, 0]`` in the
    maze (a 2-D ``blocks`` is one layer at height ``origin[0]``, a 1-D one a row). Without a seed every block
    takes the main state. The theme is first made fit
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
        layers = blocks.reshape((1,) * (3 - blocks.ndim) + blocks.shape)
        chosen = indices.reshape(layers.shape)

        def draw_layer(y: int) -> None:  # writes chosen[y] only
            layer, u = layers[y], None
            for value, entries, p in drawn:
                where = layer == value
                if not where.any():
                    continue
                if u is None:
                    u = variant_draws(seed, layer.shape, (origin[0] + y, origin[1], origin[2]))
                pick = np.minimum(np.searchsorted(np.cumsum(p), u[where], side="right"), len(entries) - 1)
                chosen[y][where] = np.asarray(entries, np.uint16)[pick]

        if layers.size >= THREADED_DRAWS and len(layers) > 1:  # numpy releases the GIL: layers on two cores
            with ThreadPoolExecutor(2) as pool:
                list(pool.map(draw_layer, range(len(layers))))
        else:
            for y in range(len(layers)):
                draw_layer(y)
    if blocks.ndim == 3:  # doors, gates, stairs, ladders facing their way; support where needed
        floor = theme.minecraft.get(Material.FLOOR, "minecraft:stone")
        climb = CLIMB if mc_version is None else substitute(CLIMB, mc_version)
        indices, palette = place_states(blocks, indices, palette, floor, climb)
    check_states(palette, mc_version)  # the final states, as written
    dtype = np.uint8 if len(palette) <= 256 else np.uint16
    return indices.astype(dtype, copy=False), palette


def translated_palette(blocks: np.ndarray, theme: Theme, seed: int | None, translate, cannot: str,
                       mc_version: str | None = None) -> tuple[np.ndarray, list[str], list]:
    """:func:`minecraft_palette` for a game that names blocks its own way (Bedrock, Minecraft
    1.12, Luanti): every state the theme may draw for a present material is first checked with
    ``translate`` (:func:`check_theme_states`, so a missing block fails the same way whatever the
    seed), then the palette is drawn and each of its states translated.

    Returns the palette indices, the Java states and their translations, index for index.

    >>> from blockmaze.materials import load_theme
    >>> _, states, upper = translated_palette(np.array([[1, 0]], np.uint8), load_theme("glass"), None,
    ...                                       str.upper, "{error}")
    >>> upper == [state.upper() for state in states]
    True
    """
    check_theme_states(blocks, theme, translate, cannot)
    indices, palette = minecraft_palette(blocks, theme, seed, mc_version)
    return indices, palette, [translate(state) for state in palette]


_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15  # SplitMix64's increment


def check_theme_states(blocks: np.ndarray, theme: Theme, convert, cannot: str) -> None:
    """Every block state ``theme`` may draw for the materials in ``blocks`` (whatever the seed)
    passes ``convert``; else one error naming the theme, material and state, then ``cannot``
    with ``{error}`` filled in. Materials the theme lacks are left to :func:`minecraft_palette`.

    >>> from blockmaze.materials import load_theme
    >>> check_theme_states(np.ones((1, 1, 1), np.uint8), load_theme(), str.upper, "{error}")
    """
    present = np.flatnonzero(np.bincount(blocks.ravel(), minlength=256))
    for value in present:
        if int(value) not in theme.minecraft:
            continue
        for state, _ in theme.minecraft_choices(int(value)):
            try:
                convert(state)
            except BlockmazeError as error:
                material = Material(int(value)).name.lower() if int(value) in Material._value2member_map_ \
                    else str(int(value))
                raise BlockmazeError(f"theme {theme.name!r} draws material {material} as {state}, "
                                     f"which {cannot.format(error=error)}") from None


def _mix(value):
    """SplitMix64's finalizer: a 64-bit integer (Python int or uint64 array) to a well-spread one."""
    if isinstance(value, int):
        value = (value ^ (value >> 30)) * 0xBF58476D1CE4E5B9 & _MASK
        value = (value ^ (value >> 27)) * 0x94D049BB133111EB & _MASK
        return value ^ (value >> 31)
    value = (value ^ (value >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    value = (value ^ (value >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return value ^ (value >> np.uint64(31))


def variant_draws(seed: int, shape: tuple[int, int], origin: tuple[int, int, int]) -> np.ndarray:
    """Uniform draws in [0, 1) for one layer of ``shape`` (z, x) at ``origin`` (y, z, x): each a
    hash of the seed and the block's own (y, z, x) alone (SplitMix64's finalizer, chained over
    seed, y, z, x), so every writer, band and tile draws the same value for a block.

    >>> a = variant_draws(7, (4, 5), (2, 0, 0))
    >>> bool((a[1:, 2:] == variant_draws(7, (3, 3), (2, 1, 2))).all()), bool(0 <= a.min() <= a.max() < 1)
    (True, True)
    """
    y, z0, x0 = (int(v) for v in origin)
    height, width = shape
    level = _mix((_mix((int(seed) + _GOLDEN) & _MASK) ^ (y & _MASK)) + _GOLDEN & _MASK)
    zs = np.arange(z0, z0 + height, dtype=np.int64).astype(np.uint64)
    xs = np.arange(x0, x0 + width, dtype=np.int64).astype(np.uint64)
    with np.errstate(over="ignore"):
        rows = _mix((np.uint64(level) ^ zs) + np.uint64(_GOLDEN))
        cells = _mix(rows[:, None] ^ xs[None, :])
    return (cells >> np.uint64(11)).astype(np.float64) * (1.0 / (1 << 53))


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
