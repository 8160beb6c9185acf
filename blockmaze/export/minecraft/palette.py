"""From materials to a Minecraft block palette, through a theme (with its weighted variants)."""

from __future__ import annotations

import math
import re
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from nbtlib import Compound, String

from ...errors import BlockmazeError
from ...materials import Material, Theme
from ...support.kernels import COMPILED, compiled_pays, kernel
from .blockdata import check_states, for_release, substitute
from .placement import first_of
from .states import CLIMB, place_states

# States that are air: left out of files that keep terrain, and not counted as blocks.
AIR_STATES = frozenset({"minecraft:air", "minecraft:cave_air", "minecraft:void_air"})

_STATE = re.compile(r"^([^\[\]]+)(?:\[([^\[\]]*)\])?$")
# Volumes from this many blocks up draw their variants on two threads (the same draws: each
# block's comes from its own position); a world's bands stay below it, being made on a thread of
# their own already.
THREADED_DRAWS = 1 << 22
# Blocks a whole-volume pass (counts, lookups, variant hashes) takes at a time: its temporaries
# then stay in the core's cache instead of streaming through memory (a 16 M-block volume's
# lookup takes half the time; its variants a quarter).
CHUNK = 1 << 15


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
    present = present_materials(blocks)
    palette: list[str] = []
    drawn: list[tuple[int, np.ndarray, np.ndarray]] = []
    main: dict[int, int] = {}
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
        main[value] = entries[0]
        if len(entries) > 1:
            drawn.append((value, np.asarray(entries), _thresholds([w for _, w in choices])))
    table = np.zeros(256, dtype=np.uint8 if len(palette) <= 256 else np.uint16)
    for value, entry in main.items():
        table[value] = entry
    indices = lookup(table, blocks)
    if drawn and seed is not None:  # (variants are drawn only with a seed)
        _draw_variants(blocks, indices, drawn, seed, origin)
    if blocks.ndim == 3:  # doors, gates, stairs, ladders facing their way; support where needed
        floor = theme.minecraft.get(Material.FLOOR, "minecraft:stone")
        climb = CLIMB if mc_version is None else substitute(CLIMB, mc_version)
        indices, palette = place_states(blocks, indices, palette, floor, climb, present)
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


def with_next_rows(bands):
    """Each band of an iterator of (y, z, x) bands, with the next band's first row (None for
    the last): what :func:`haloed_palette` needs, one band ahead."""
    band = None
    for following in bands:
        following = np.asarray(following)
        if band is not None:
            yield band, following[:, :1]
        band = following
    if band is not None:
        yield band, None


def haloed_palette(band: np.ndarray, before: np.ndarray | None, after: np.ndarray | None, z0: int,
                   theme: Theme, seed: int | None = None, mc_version: str | None = None):
    """:func:`minecraft_palette` of a band whose first row is ``z0`` rows into the volume, the
    states that depend on neighbours (a door's facing, a stair's shape) resolved with the rows
    ``before`` and ``after`` it (None at the volume's ends), so a door on a band's edge faces as
    in the whole volume."""
    fits = [part is not None and part.ndim == 3 and band.ndim == 3
            and (part.shape[0], part.shape[2]) == (band.shape[0], band.shape[2])
            for part in (before, after)]  # (a band of another shape is refused on its own)
    before, after = (part if fit else None for part, fit in zip((before, after), fits, strict=True))
    parts = [part for part in (before, band, after) if part is not None]
    first = 0 if before is None else 1
    indices, palette = minecraft_palette(np.concatenate(parts, axis=1) if len(parts) > 1 else band,
                                         theme, seed, mc_version, origin=(0, z0 - first, 0))
    return indices[:, first:first + band.shape[1]], palette


_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15  # SplitMix64's increment
_MIX = ((30, 0xBF58476D1CE4E5B9), (27, 0x94D049BB133111EB), (31, 1))  # its finalizer: shift, multiply


def check_theme_states(blocks: np.ndarray, theme: Theme, convert, cannot: str) -> None:
    """Every block state ``theme`` may draw for the materials in ``blocks`` (whatever the seed)
    passes ``convert``; else one error naming the theme, material and state, then ``cannot``
    with ``{error}`` filled in. Materials the theme lacks are left to :func:`minecraft_palette`.

    >>> from blockmaze.materials import load_theme
    >>> check_theme_states(np.ones((1, 1, 1), np.uint8), load_theme(), str.upper, "{error}")
    """
    present = present_materials(blocks)
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


def present_materials(blocks: np.ndarray) -> np.ndarray:
    """The material values found in ``blocks``, in order. Each value between the least and the
    greatest is looked for a chunk at a time, stopping at the first chunk that has it (a
    volume's materials all show up in its first rows); a wide range is counted instead.

    >>> present_materials(np.array([[5, 0, 5], [2, 2, 0]], np.uint8)).tolist()
    [0, 2, 5]
    """
    flat = blocks.reshape(-1)
    if not flat.size:
        return np.zeros(0, dtype=np.int64)
    low, high = int(flat.min()), int(flat.max())
    if high - low > 16:
        counts = np.zeros(256, dtype=np.int64)
        for at in range(0, flat.size, CHUNK):
            counts += np.bincount(flat[at:at + CHUNK], minlength=256)
        return np.flatnonzero(counts)
    return np.array([v for v in range(low, high + 1) if v in (low, high) or first_of(flat, v) is not None],
                    dtype=np.int64)


def lookup(table: np.ndarray, blocks: np.ndarray) -> np.ndarray:
    """``table[blocks]`` for a table of 256 entries and uint8 ``blocks``, a chunk at a time (no
    index array of the whole volume's size: twice as fast on a 16 M-block volume).

    >>> lookup(np.arange(256, dtype=np.uint8)[::-1], np.array([[0, 3]], np.uint8)).tolist()
    [[255, 252]]
    """
    result = np.empty(blocks.shape, dtype=table.dtype)
    flat, out = blocks.reshape(-1), result.reshape(-1)
    for at in range(0, flat.size, CHUNK):
        np.take(table, flat[at:at + CHUNK], out=out[at:at + CHUNK], mode="clip")
    return result


def _thresholds(weights: list[float]) -> np.ndarray:
    """The 53-bit draws from which each variant after the first is chosen: a draw ``bits`` takes
    variant ``i`` where ``cumsum(p)[i - 1] <= bits / 2**53 < cumsum(p)[i]`` (p: the weights made
    to sum to 1; the last variant takes every draw past the others). Exact in integers: a float
    times 2**53 is exact, and ``c <= bits / 2**53`` holds just when ``ceil(c * 2**53) <= bits``.

    >>> _thresholds([1, 1, 2]).tolist() == [2**51, 2**52]   # a quarter, a half
    True
    """
    array = np.asarray(weights, dtype=np.float64)
    bounds = np.cumsum(array / array.sum())[:-1]
    return np.array([math.ceil(float(c) * 2.0 ** 53) for c in bounds], dtype=np.uint64)


def _draw_variants(blocks: np.ndarray, indices: np.ndarray, drawn, seed: int,
                   origin: tuple[int, int, int]) -> None:
    """Change ``indices`` (each drawn material at its first variant) to the variants each block
    draws: row chunks of each layer, on two threads for big volumes (or, once numba is loaded or
    the volume is big, :func:`_draw_compiled`). A chunk adds to each
    block of a drawn material the step from its first variant's index to the one it draws
    (uint arithmetic wraps), all in buffers each thread keeps: no allocation a chunk."""
    layers: np.ndarray = blocks.reshape((1,) * (3 - blocks.ndim) + blocks.shape)  # (y, z, x)
    chosen = indices.reshape(layers.shape)
    height, length, width = layers.shape
    step = max(1, CHUNK // max(width, 1))
    xs = np.arange(origin[2], origin[2] + width, dtype=np.int64).astype(np.uint64)
    wrap = 1 << (8 * chosen.dtype.itemsize)
    # past each threshold, the step to the next variant's palette index
    steps = [(value, [chosen.dtype.type((int(b) - int(a)) % wrap) for a, b in zip(entries, entries[1:], strict=False)],
              thresholds) for value, entries, thresholds in drawn]
    if compiled_pays(layers.size, THREADED_DRAWS):  # numba loaded, or a big volume: one pass a block
        _draw_compiled(layers, chosen, steps, seed, origin, xs, wrap)
        return
    scratch = threading.local()

    def draw(y: int, z: int) -> None:  # writes chosen[y, z:z + step] only
        layer, out = layers[y, z:z + step], chosen[y, z:z + step]
        found = [(layer == value, moves, thresholds) for value, moves, thresholds in steps]
        found = [item for item in found if item[0].any()]
        if not found:
            return
        if not hasattr(scratch, "cells"):
            shape = (step, width)
            scratch.cells, scratch.shifted = np.empty(shape, np.uint64), np.empty(shape, np.uint64)
            scratch.above = np.empty(shape, bool)
            scratch.delta, scratch.move = np.empty(shape, chosen.dtype), np.empty(shape, chosen.dtype)
        rows = layer.shape[0]
        cells, shifted, above, delta, move = (buffer[:rows] for buffer in (
            scratch.cells, scratch.shifted, scratch.above, scratch.delta, scratch.move))
        zs = np.arange(origin[1] + z, origin[1] + z + rows, dtype=np.int64).astype(np.uint64)
        _variant_bits(seed, origin[0] + y, zs, xs, cells, shifted)
        for where, moves, thresholds in found:
            delta.fill(0)
            # each threshold passed: one variant on
            for threshold, size in zip(thresholds, moves, strict=True):
                np.greater_equal(cells, threshold, out=above)
                np.multiply(above, size, out=move)
                delta += move
            delta *= where
            out += delta

    tasks = [(y, z) for y in range(height) for z in range(0, length, step)]
    if layers.size >= THREADED_DRAWS and len(tasks) > 1:  # numpy releases the GIL: two cores
        with ThreadPoolExecutor(2) as pool:
            list(pool.map(lambda task: draw(*task), tasks))
    else:
        for task in tasks:
            draw(*task)


def _draw_compiled(layers, chosen, steps, seed, origin, xs, wrap) -> None:
    """:func:`_draw_variants` by :func:`_draw_layers`: the layers in two halves on two threads
    for big volumes (the kernel holds no GIL)."""
    height, length, _ = layers.shape
    zs = np.arange(origin[1], origin[1] + length, dtype=np.int64).astype(np.uint64)
    row_hashes = np.stack([_row_hashes(seed, origin[0] + y, zs) for y in range(height)])
    most = max(len(moves) for _, moves, _ in steps)
    values = np.array([value for value, _, _ in steps], np.uint8)
    counts = np.array([len(moves) for _, moves, _ in steps], np.int64)
    moves = np.zeros((len(steps), most), np.int64)
    thresholds = np.zeros((len(steps), most), np.uint64)
    for j, (_, step_moves, step_thresholds) in enumerate(steps):
        moves[j, :len(step_moves)] = [int(move) for move in step_moves]
        thresholds[j, :len(step_thresholds)] = step_thresholds
    tables = (row_hashes, xs, values, moves, thresholds, counts, wrap)
    if layers.size >= THREADED_DRAWS and height > 1:
        half = height // 2
        with ThreadPoolExecutor(2) as pool:
            list(pool.map(lambda span: _draw_layers(layers, chosen, *span, *tables),
                          [(0, half), (half, height)]))
    else:
        _draw_layers(layers, chosen, 0, height, *tables)


@kernel(nogil=True)
def _draw_layers(layers, chosen, first, last, row_hashes, xs, values, moves, thresholds, counts,
                 wrap):
    """The variant draws of layers ``[first, last)`` one block at a time: a block of drawn
    material ``values[j]`` moves its palette index on by ``moves[j, t]`` (modulo ``wrap``) for
    each of the first ``counts[j]`` thresholds its draw reaches; ``row_hashes[y, z]`` as
    :func:`_row_hashes` makes them, ``xs`` the columns. The same draws as the numpy form,
    which hashes every block of a row chunk."""
    _, length, width = layers.shape
    for y in range(first, last):
        for z in range(length):
            row = row_hashes[y, z]
            for x in range(width):
                block = layers[y, z, x]
                for j in range(values.shape[0]):
                    if block == values[j]:
                        bits = _draw_bits(row ^ xs[x])
                        delta = 0
                        for t in range(counts[j]):
                            if bits >= thresholds[j, t]:
                                delta += moves[j, t]
                        chosen[y, z, x] = (int(chosen[y, z, x]) + delta) % wrap
                        break


@kernel(inline="always")
def _draw_bits(value):
    """One block's 53-bit draw: SplitMix64's finalizer of ``value`` (uint64), its top 53 bits."""
    if COMPILED:  # (_MIX's steps, written out: numba wraps uint64 products as the hash wants)
        value = (value ^ (value >> np.uint64(_MIX[0][0]))) * np.uint64(_MIX[0][1])
        value = (value ^ (value >> np.uint64(_MIX[1][0]))) * np.uint64(_MIX[1][1])
        return (value ^ (value >> np.uint64(_MIX[2][0]))) >> np.uint64(11)
    return _mix(int(value)) >> 11  # as Python: exact ints, masked (numpy scalars warn on wrapping)


def _mix(value, shifted=None):
    """SplitMix64's finalizer: a 64-bit integer (Python int, or uint64 array mixed in place, with
    ``shifted`` a buffer of its shape if given) to a well-spread one."""
    if isinstance(value, int):
        for shift, factor in _MIX:
            value = (value ^ (value >> shift)) * factor & _MASK
        return value
    shifted = np.empty_like(value) if shifted is None else shifted
    for shift, factor in _MIX:
        np.right_shift(value, np.uint64(shift), out=shifted)
        value ^= shifted
        if factor != 1:
            value *= np.uint64(factor)  # wraps modulo 2**64, as the hash wants
    return value


def _variant_bits(seed: int, y: int, zs: np.ndarray, xs: np.ndarray, out: np.ndarray | None = None,
                  shifted: np.ndarray | None = None) -> np.ndarray:
    """The 53-bit variant draws (uint64, rows ``zs`` by columns ``xs``) of layer ``y``: SplitMix64's
    finalizer chained over seed, y, z, x (into ``out``, with ``shifted`` as scratch, if given)."""
    out = np.empty((len(zs), len(xs)), np.uint64) if out is None else out
    np.bitwise_xor(_row_hashes(seed, y, zs)[:, None], xs[None, :], out=out)
    _mix(out, shifted)
    out >>= np.uint64(11)
    return out


def _row_hashes(seed: int, y: int, zs: np.ndarray) -> np.ndarray:
    """SplitMix64's finalizer chained over seed, y and each of ``zs`` (uint64): a row's part of
    its blocks' draws, which go on with each block's x."""
    level = _mix((_mix((int(seed) + _GOLDEN) & _MASK) ^ (int(y) & _MASK)) + _GOLDEN & _MASK)
    rows = zs ^ np.uint64(level)
    rows += np.uint64(_GOLDEN)
    return _mix(rows)


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
    zs = np.arange(z0, z0 + height, dtype=np.int64).astype(np.uint64)
    xs = np.arange(x0, x0 + width, dtype=np.int64).astype(np.uint64)
    return _variant_bits(seed, y, zs, xs).astype(np.float64) * (1.0 / (1 << 53))


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
