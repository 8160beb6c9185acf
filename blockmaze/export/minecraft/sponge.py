"""Sponge schematic ``.schem``, version 2 (default, widest support) and 3 (WorldEdit 7.3's default).

Rules (shared/reference/minecraft-formats.md §1): v2's root tag is named ``Schematic``; v3 nests
a ``Schematic`` compound in an unnamed root. Width/Height/Length are unsigned Shorts, block data
are varint palette indices in y, z, x order (x fastest), ``PaletteMax`` (v2) is the palette size,
``DataVersion`` matches the chosen release, empty lists are typed, gzip carries no time stamp.
"""

from __future__ import annotations

from typing import BinaryIO

import numpy as np
from nbtlib import Compound, Int, IntArray, List, String

from ...errors import BlockmazeError
from ...materials import Theme
from .. import register_writer, size_limits
from .nbt import byte_array, unsigned_short, write_gzipped
from .palette import minecraft_palette
from .placement import player_spot
from .varint import encode_varints
from .versions import DEFAULT_MC_VERSION, data_version

SCHEM_VERSIONS = (2, 3)
MAX_SIDE = 0xFFFF  # unsigned Short
MAX_DATA_BYTES = 0x7FFFFFFF  # a Java byte array's length


def write_schem(
    blocks: np.ndarray,
    file: BinaryIO,
    theme: Theme,
    mc_version: str = DEFAULT_MC_VERSION,
    schem_version: int = 2,
    seed: int | None = None,
) -> None:
    """Write a (y, z, x) material volume as a Sponge schematic, drawn with ``theme``.

    ``seed`` draws the theme's weighted variants (see :func:`minecraft_palette`). WorldEdit pastes
    it with the player outside, in front of the entrance (:func:`~.placement.player_spot`).

    Example
    -------
    >>> import io
    >>> from blockmaze.materials import load_theme
    >>> out = io.BytesIO()
    >>> write_schem(np.ones((1, 2, 3), np.uint8), out, load_theme())
    >>> out.getvalue()[:2] == b"\\x1f\\x8b"   # gzip
    True
    """
    indices, palette = minecraft_palette(blocks, theme, seed, mc_version)
    write_indexed(indices, palette, file, mc_version, schem_version, player_spot(blocks).offset)


def write_indexed(
    indices: np.ndarray,
    palette: list[str],
    file: BinaryIO,
    mc_version: str = DEFAULT_MC_VERSION,
    schem_version: int = 2,
    paste_offset: tuple[int, int, int] = (0, 0, 0),
) -> None:
    """Write palette indices (y, z, x) and their block-state strings as a Sponge schematic.

    ``paste_offset`` (x, y, z) is where WorldEdit pastes the min corner relative to the player:
    v2 stores it as ``Metadata.WEOffsetX/Y/Z`` (``Offset``, the copy's world position, stays 0),
    v3 as ``Offset`` (shared/reference/minecraft-formats.md, paste anchors).
    """
    if schem_version not in SCHEM_VERSIONS:
        raise BlockmazeError(f"schem version must be 2 or 3, got {schem_version!r}")
    height, length, width = indices.shape
    check_size(indices.shape)
    if indices.size and (indices.min() < 0 or indices.max() >= len(palette)):
        raise BlockmazeError("a block index is outside the palette")
    data = encode_varints(indices)
    if data.size > MAX_DATA_BYTES:
        raise BlockmazeError(f"the block data takes {data.size} bytes; a .schem holds at most {MAX_DATA_BYTES}")
    common = {
        "Version": Int(schem_version),
        "DataVersion": Int(data_version(mc_version)),
    }
    size = {
        "Width": unsigned_short(width),
        "Height": unsigned_short(height),
        "Length": unsigned_short(length),
        "Offset": IntArray(list(paste_offset) if schem_version == 3 else [0, 0, 0]),
    }
    palette_tag = Compound({state: Int(i) for i, state in enumerate(palette)})
    if schem_version == 2:
        root = Compound({
            **common,
            "Metadata": Compound({
                "Name": String("blockmaze"),
                **{f"WEOffset{axis}": Int(v) for axis, v in zip("XYZ", paste_offset)},
            }),
            **size,
            "PaletteMax": Int(len(palette)),
            "Palette": palette_tag,
            "BlockData": byte_array(data),
            "BlockEntities": List[Compound](),
            "Entities": List[Compound](),
        })
        write_gzipped(root, file, root_name="Schematic")
    else:
        schematic = Compound({
            **common,
            "Metadata": Compound({"Name": String("blockmaze")}),
            **size,
            "Blocks": Compound({
                "Palette": palette_tag,
                "Data": byte_array(data),
                "BlockEntities": List[Compound](),
            }),
            "Entities": List[Compound](),
        })
        write_gzipped(Compound({"Schematic": schematic}), file, root_name="")


check_size = size_limits(".schem", max_side=MAX_SIDE, max_blocks=MAX_DATA_BYTES)


register_writer("schem", write_schem, check_size)
