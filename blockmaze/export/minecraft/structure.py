"""Vanilla structure file ``.nbt`` (structure blocks, ``/place template``, jigsaw pieces).

Rules (docs/minecraft.md §3): gzip; ``DataVersion`` Int (a file without it is
treated as 2015's version 500 and run through every data fixer); ``size`` is a *List* of 3 Ints
(x, y, z), not an Int_Array; ``palette`` is a List of ``{Name, Properties}`` compounds; ``blocks``
is a List of ``{pos: List of 3 Ints, state: Int}``; ``entities`` is a typed empty List. Positions
that are not listed leave the world untouched, so air is listed to carve through terrain and left
out (``keep_terrain=True``) to overlay. A structure block loads at most 48x48x48 (§3.1);
``/place template`` (1.19+) has no such limit; before 1.19 the warning says so.

Speed: a 500x500-cell maze is about 4 million blocks, one compound each. Building them as nbtlib
tags would take minutes, so the ``blocks`` list is serialised here with numpy: every element has
the same 36-byte layout (:data:`BLOCK_DTYPE`), a template whose position and state Ints are
filled in by vectorised writes, 65536 elements at a time straight into the gzip stream. nbtlib
writes the rest of the file, with ``blocks`` as the last tag of the root so that the elements go
right before the root's closing End byte. The whole write takes about a second for 4 million
blocks (zlib is most of it).
"""

from __future__ import annotations

from functools import partial
import io
import warnings
from collections.abc import Iterable, Iterator
from typing import BinaryIO

import numpy as np
from nbtlib import Compound, Int, List

from ...errors import BlockmazeError, BlockmazeWarning
from ...materials import Theme
from .. import register_writer, size_limits
from .placement import placement_hint
from .blockdata import release_theme
from .blockentities import BlockEntity, block_entities
from .nbt import gzip_stream
from .palette import AIR_STATES, block_state_tag, minecraft_palette
from .versions import DEFAULT_MC_VERSION, release

STRUCTURE_BLOCK_MAX_SIDE = 48  # StructureBlockEntity.MAX_SIZE_PER_AXIS
PLACE_TEMPLATE_FROM = 3105  # 1.19 (DataVersion): the first release with /place template
MAX_LIST_LENGTH = 0x7FFFFFFF  # a Java int list length
# zlib level 1: on a 500x500-cell maze's 144 MB of near-identical entries it is twice as fast as
# level 4 (the other writers' level) and gives a smaller file (12.7 MB against 13.1 MB).
GZIP_LEVEL = 1
CHUNK_BLOCKS = 1 << 16  # block entries serialised at a time (2.4 MB)


# Tag ids (§0).
_TAG_INT, _TAG_LIST, _TAG_COMPOUND, _TAG_END = 3, 9, 10, 0


def _named(tag_id: int, name: str) -> bytes:
    """The header of a named tag inside a compound: type byte, u16 name length, name."""
    encoded = name.encode("ascii")
    return bytes([tag_id]) + len(encoded).to_bytes(2, "big") + encoded


# One element of ``blocks``: an unnamed compound {pos: [x, y, z], state: i}, 36 bytes.
BLOCK_DTYPE = np.dtype([
    ("pos_header", "V11"),  # List "pos" of 3 Ints
    ("x", ">i4"), ("y", ">i4"), ("z", ">i4"),
    ("state_header", "V8"),  # Int "state"
    ("state", ">i4"),
    ("end", "u1"),  # End of the compound
])
_POS_HEADER = _named(_TAG_LIST, "pos") + bytes([_TAG_INT]) + (3).to_bytes(4, "big")
_STATE_HEADER = _named(_TAG_INT, "state")
# The tail nbtlib writes for an empty ``blocks`` List of Compound at the end of the root:
# its header, element type Compound, count 0, then the root's End.
_EMPTY_LENGTH_AND_END = bytes(4) + bytes([_TAG_END])
_BLOCKS_TAIL = _named(_TAG_LIST, "blocks") + bytes([_TAG_COMPOUND]) + _EMPTY_LENGTH_AND_END


def write_structure(
    blocks: np.ndarray,
    file: BinaryIO,
    theme: Theme,
    mc_version: str = DEFAULT_MC_VERSION,
    seed: int | None = None,
    keep_terrain: bool = False,
) -> None:
    """Write a (y, z, x) material volume as a vanilla structure file, drawn with ``theme``.

    Air is listed, so placing the structure carves through terrain; with ``keep_terrain=True``
    air is left out and whatever is in the world there stays. ``seed`` draws the theme's
    weighted variants (see :func:`minecraft_palette`). Warns (BlockmazeWarning) when a side is
    longer than the 48 blocks a structure block loads.

    Example
    -------
    >>> import io
    >>> from blockmaze.materials import load_theme
    >>> out = io.BytesIO()
    >>> write_structure(np.ones((1, 2, 3), np.uint8), out, load_theme())
    >>> out.getvalue()[:2] == b"\\x1f\\x8b"   # gzip
    True
    """
    indices, palette = minecraft_palette(blocks, theme, seed, mc_version)
    write_indexed(indices, palette, file, mc_version, keep_terrain,
                  block_entities(blocks, indices, palette, seed, mc_version))


def write_indexed(
    indices: np.ndarray,
    palette: list[str],
    file: BinaryIO,
    mc_version: str = DEFAULT_MC_VERSION,
    keep_terrain: bool = False,
    entities: Iterable[BlockEntity] = (),
) -> None:
    """Write palette indices (y, z, x) and their block-state strings as a structure file.

    Each of ``entities`` (block entities) is listed with its ``nbt`` (``id`` and fields, no
    position), after the other blocks."""
    check_size(indices.shape)
    data_version = release(mc_version).data_version
    if len(set(palette)) != len(palette):
        raise BlockmazeError("the palette lists a block state twice")
    if indices.size and (indices.min() < 0 or indices.max() >= len(palette)):
        raise BlockmazeError("a block index is outside the palette")
    palette_tags = [block_state_tag(state) for state in palette]  # validates every state
    height, length, width = indices.shape
    if max(indices.shape) > STRUCTURE_BLOCK_MAX_SIDE:
        warnings.warn(BlockmazeWarning(
            f"the structure is {width}x{height}x{length} blocks (width x height x length); a "
            f"structure block loads at most {STRUCTURE_BLOCK_MAX_SIDE}x{STRUCTURE_BLOCK_MAX_SIDE}x"
            f"{STRUCTURE_BLOCK_MAX_SIDE}, so {_placing_hint(mc_version, data_version)}"
        ), stacklevel=2)

    flat = np.asarray(indices).reshape(-1)  # y, z, x order (a copy only for a non-contiguous view)
    states = np.arange(len(palette), dtype=np.int32)  # palette index -> state written
    listed = None  # palette index -> listed?; None lists every block
    if keep_terrain:
        listed = np.array([state not in AIR_STATES for state in palette], dtype=bool)
        kept = np.flatnonzero(listed)
        states[kept] = np.arange(kept.size, dtype=np.int32)  # renumbered without air, order kept
        palette_tags = [palette_tags[i] for i in kept]
    count = flat.size if listed is None else int(np.count_nonzero(listed[flat]))
    entities = list(entities)
    with_nbt = np.array([(y * length + z) * width + x for y, z, x in (e.position for e in entities)],
                        dtype=np.int64)
    count -= int(np.count_nonzero(listed[flat[with_nbt]])) if listed is not None else with_nbt.size
    count += len(entities)

    root = Compound({
        "DataVersion": Int(data_version),
        "size": List[Int]([Int(width), Int(height), Int(length)]),
        "palette": List[Compound](palette_tags),
        "entities": List[Compound](),
        "blocks": List[Compound](),  # last: its elements are written after it by hand
    })
    head = io.BytesIO()
    root.write(head)  # the root's payload; the named-root header is written by hand
    payload = head.getvalue()
    if not payload.endswith(_BLOCKS_TAIL):
        raise AssertionError("nbtlib did not end the root with the empty blocks list")
    with gzip_stream(file, GZIP_LEVEL) as stream:
        stream.write(_named(_TAG_COMPOUND, ""))  # unnamed root, as vanilla writes
        stream.write(payload[:-len(_EMPTY_LENGTH_AND_END)])  # up to the blocks list's element type
        stream.write(count.to_bytes(4, "big"))
        for chunk in _block_elements(flat, (length, width), states, listed, with_nbt):
            stream.write(chunk.view(np.uint8).data)
        for entity, at in zip(entities, with_nbt, strict=True):
            y, z, x = entity.position
            element = Compound({"pos": List[Int]([Int(x), Int(y), Int(z)]),
                                "state": Int(states[flat[at]]), "nbt": entity.tag()})
            buffer = io.BytesIO()
            element.write(buffer)
            stream.write(buffer.getvalue())
        stream.write(bytes([_TAG_END]))  # the root's End


_NO_CELLS = np.empty(0, np.int64)  # the default: no block skipped


def _block_elements(flat: np.ndarray, plane: tuple[int, int], states: np.ndarray,
                    listed: np.ndarray | None, skipped: np.ndarray = _NO_CELLS
                    ) -> Iterator[np.ndarray]:
    """Serialised ``{pos, state}`` compounds, in y, z, x order, a chunk at a time.

    ``flat`` holds the palette index of every block in y, z, x order, ``plane`` is (length,
    width), ``states[i]`` is the state written for palette index i, and ``listed[i]`` says
    whether blocks of index i are written at all (None: all are); blocks at the flat positions
    ``skipped`` are not written (block entities, listed apart). Chunks of CHUNK_BLOCKS keep
    memory flat and the buffer warm: a 4-million-block list would be 144 MB at once.
    """
    length, width = plane
    buffer = np.empty(min(CHUNK_BLOCKS, flat.size), dtype=BLOCK_DTYPE)
    buffer["pos_header"] = np.void(_POS_HEADER)
    buffer["state_header"] = np.void(_STATE_HEADER)
    buffer["end"] = _TAG_END
    for start in range(0, flat.size, CHUNK_BLOCKS):
        part = flat[start:start + CHUNK_BLOCKS]
        chunk = buffer[:part.size]
        position = np.arange(start, start + part.size, dtype=np.int64)
        layer, x = np.divmod(position, width)
        y, z = np.divmod(layer, length)
        chunk["x"], chunk["y"], chunk["z"] = x, y, z
        chunk["state"] = states[part]
        keep = None if listed is None else listed[part]
        if skipped.size and ((skipped >= start) & (skipped < start + part.size)).any():
            keep = ~np.isin(position, skipped) & (True if keep is None else keep)
        yield chunk if keep is None else chunk[keep]


def _placing_hint(mc_version: str, data_version: int) -> str:
    """How to place a structure over 48 blocks: /place template exists only from 1.19.

    >>> _placing_hint("1.18.2", 2975)
    'Minecraft 1.18.2 cannot load it whole (it has no /place template, added in 1.19): load it in pieces of at most 48 with structure blocks, or choose --mc-version 1.19 or later or a .schem'
    """
    if data_version >= PLACE_TEMPLATE_FROM:
        return "place it with /place template (Minecraft 1.19+)"
    return (f"Minecraft {mc_version} cannot load it whole (it has no /place template, added in "
            f"1.19): load it in pieces of at most {STRUCTURE_BLOCK_MAX_SIDE} with structure blocks, "
            "or choose --mc-version 1.19 or later or a .schem")


# Sides over 48 are allowed (/place template loads them); writing one warns.
check_size = size_limits("a structure file", max_blocks=MAX_LIST_LENGTH)


register_writer("structure", write_structure, check_size,
                prepare_theme=release_theme, hint=partial(placement_hint, format_name="structure"),
                java_states=True)
