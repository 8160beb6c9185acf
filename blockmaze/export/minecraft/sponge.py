"""Sponge schematic ``.schem``, version 2 (default, widest support) and 3 (WorldEdit 7.3's default).

Rules (docs/minecraft.md §1): v2's root tag is named ``Schematic``; v3 nests
a ``Schematic`` compound in an unnamed root. Width/Height/Length are unsigned Shorts, block data
are varint palette indices in y, z, x order (x fastest), ``PaletteMax`` (v2) is the palette size,
``DataVersion`` matches the chosen release, empty lists are typed, gzip carries no time stamp.
"""

from __future__ import annotations

import io
import os
import struct
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import BinaryIO

import nbtlib
import numpy as np
from nbtlib import Compound, Int, IntArray, List, String

from ...errors import BlockmazeError, ParameterError
from ...materials import Theme
from .. import register_writer, size_limits
from .blockdata import release_theme
from .blockentities import SPAWNS, BlockEntity, block_entities
from .nbt import GZIP_LEVEL, byte_array, unsigned_short
from .palette import minecraft_palette
from .parallel_gzip import ParallelGzip
from .placement import player_spot
from .varint import encode_varints
from .versions import DEFAULT_MC_VERSION, data_version
from ..defaults import SCHEM_VERSION

SCHEM_VERSIONS = (2, 3)
MAX_SIDE = 0xFFFF  # unsigned Short
MAX_DATA_BYTES = 0x7FFFFFFF  # a Java byte array's length


def write_schem(
    blocks: np.ndarray,
    file: BinaryIO,
    theme: Theme,
    mc_version: str = DEFAULT_MC_VERSION,
    schem_version: int = SCHEM_VERSION,
    seed: int | None = None,
    ground: str | os.PathLike | None = None,
    clear: str | None = None,
) -> None:
    """Write a (y, z, x) material volume as a Sponge schematic, drawn with ``theme``.

    ``seed`` draws the theme's weighted variants (see :func:`minecraft_palette`). WorldEdit pastes
    it with the player outside, in front of the entrance (:func:`~.placement.player_spot`).
    Spawn points carry their block entities (:mod:`~.blockentities`). ``ground``: a .schem of the
    place the maze goes (what the Amulet operation writes of its selection); the maze then
    follows its ground from its bottom up, what ``clear`` names cleared, and the places the world
    keeps are structure voids (:func:`~.terrain.followed_schem`).

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
    entities = list(block_entities(blocks, indices, palette, seed, mc_version))
    if ground is not None:
        from ...readers.prefab import read_prefab
        from .terrain import followed_schem

        from ...materials import Material

        indices, palette, entities = followed_schem(indices, palette, entities, read_prefab(ground, "ground"),
                                                    clear, theme.minecraft.get(Material.STAIRS))
    elif clear:
        raise ParameterError("{clear} clears trees and water where the maze follows the ground: "
                             "give {ground} with it")
    write_indexed(indices, palette, file, mc_version, schem_version, player_spot(blocks).offset,
                  entities)


def write_indexed(
    indices: np.ndarray,
    palette: list[str],
    file: BinaryIO,
    mc_version: str = DEFAULT_MC_VERSION,
    schem_version: int = SCHEM_VERSION,
    paste_offset: tuple[int, int, int] = (0, 0, 0),
    entities: Iterable[BlockEntity] = (),
) -> None:
    """Write palette indices (y, z, x) and their block-state strings as a Sponge schematic.

    ``paste_offset`` (x, y, z) is where WorldEdit pastes the min corner relative to the player:
    v2 stores it as ``Metadata.WEOffsetX/Y/Z`` (``Offset``, the copy's world position, stays 0),
    v3 as ``Offset`` (docs/minecraft.md §12). ``entities`` are the block entities (v2
    ``BlockEntities``, fields beside ``Pos`` and ``Id``; v3 ``Blocks.BlockEntities``, fields in
    ``Data``). The varint block data is encoded and compressed a slice at a time (never a second
    copy of the volume).
    """
    if schem_version not in SCHEM_VERSIONS:
        raise BlockmazeError(f"schem version must be 2 or 3, got {schem_version!r}")
    height, length, width = indices.shape
    check_size(indices.shape)
    top = int(indices.max()) if indices.size else 0
    if indices.size and (top >= len(palette) or (indices.dtype.kind == "i" and indices.min() < 0)):
        raise BlockmazeError("a block index is outside the palette")
    size = indices.size  # a byte an index, two from 0x80, three from 0x4000 (palettes stay below 0x200000)
    size += int(np.count_nonzero(indices >= 0x80)) if top >= 0x80 else 0
    size += int(np.count_nonzero(indices >= 0x4000)) if top >= 0x4000 else 0
    flat = indices.reshape(-1)
    step = 1 << 22
    pieces = (encode_varints(flat[at:at + step]) for at in range(0, flat.size, step))
    write_streamed_data(pieces, size, palette, indices.shape, file, mc_version, schem_version,
                        paste_offset, entities)


def write_streamed_data(pieces, size: int, palette: list[str], shape: tuple[int, int, int],
                        file: BinaryIO, mc_version: str = DEFAULT_MC_VERSION, schem_version: int = SCHEM_VERSION,
                        paste_offset: tuple[int, int, int] = (0, 0, 0),
                        entities: Iterable[BlockEntity] = ()) -> None:
    """Write a Sponge schematic whose varint block data (``size`` bytes in all, y-z-x order)
    arrives as ``pieces`` (uint8 arrays): memory holds one piece and the compressors' blocks
    (:mod:`~.parallel_gzip`: deflated on every core, the same bytes for any thread count).

    The NBT around the data is nbtlib's, cut where the data goes, so the bytes equal those of
    one document written in one go.

    >>> import io
    >>> out = io.BytesIO()
    >>> write_streamed_data([np.zeros(4, np.uint8), np.ones(2, np.uint8)], 6, ["minecraft:air", "minecraft:stone"],
    ...                     (1, 2, 3), out)
    >>> out.getvalue()[:2] == b"\\x1f\\x8b"
    True
    """
    if schem_version not in SCHEM_VERSIONS:
        raise BlockmazeError(f"schem version must be 2 or 3, got {schem_version!r}")
    check_size(shape)
    if size > MAX_DATA_BYTES:
        raise BlockmazeError(f"the block data takes {size} bytes; a .schem holds at most {MAX_DATA_BYTES}")
    prefix, suffix = _around_data(palette, shape, mc_version, schem_version, paste_offset, entities)
    written = 0
    with ParallelGzip(file, GZIP_LEVEL) as stream:
        stream.write(prefix + struct.pack(">i", size))
        for piece in pieces:
            piece = np.ascontiguousarray(piece, dtype=np.uint8)
            written += piece.size
            stream.write(piece.data)
        stream.write(suffix)
    if written != size:
        raise ValueError(f"block data of {written} bytes written where {size} were announced")


def _around_data(palette: list[str], shape: tuple[int, int, int], mc_version: str,
                 schem_version: int, paste_offset: tuple[int, int, int],
                 entities: Iterable[BlockEntity] = ()) -> tuple[bytes, bytes]:
    """The schematic's NBT before its block data's length, and after the data."""
    height, length, width = shape
    placed = []
    for entity in entities:
        y, z, x = entity.position
        where = {"Pos": IntArray([x, y, z]), "Id": String(entity.id)}
        placed.append(Compound({**where, **entity.data} if schem_version == 2 else {**where, "Data": entity.data}))
    common = {
        "Version": Int(schem_version),
        "DataVersion": Int(data_version(mc_version)),
    }
    size = {
        "Width": unsigned_short(width),
        "Height": unsigned_short(height),
        "Length": unsigned_short(length),
        "Offset": IntArray([int(v) for v in paste_offset] if schem_version == 3 else [0, 0, 0]),
    }
    palette_tag = Compound({state: Int(i) for i, state in enumerate(palette)})
    empty = byte_array(np.zeros(0, np.uint8))
    if schem_version == 2:
        root = Compound({
            **common,
            "Metadata": Compound({
                "Name": String("blockmaze"),
                **{f"WEOffset{axis}": Int(int(v))
                   for axis, v in zip("XYZ", paste_offset, strict=True)},
            }),
            **size,
            "PaletteMax": Int(len(palette)),
            "Palette": palette_tag,
            "BlockData": empty,
            "BlockEntities": List[Compound](placed),
            "Entities": List[Compound](),
        })
        root_name, data_name = "Schematic", b"BlockData"
    else:
        root = Compound({"Schematic": Compound({
            **common,
            "Metadata": Compound({"Name": String("blockmaze")}),
            **size,
            "Blocks": Compound({
                "Palette": palette_tag,
                "Data": empty,
                "BlockEntities": List[Compound](placed),
            }),
            "Entities": List[Compound](),
        })})
        root_name, data_name = "", b"Data"
    buffer = io.BytesIO()
    nbtlib.File(root, root_name=root_name).write(buffer)
    raw = buffer.getvalue()
    marker = b"\x07" + struct.pack(">H", len(data_name)) + data_name + bytes(4)
    at = raw.rfind(marker) + len(marker)
    return raw[:at - 4], raw[at:]


def write_schem_bands(make_bands: Callable[[], Iterable[np.ndarray]], file: BinaryIO, theme: Theme,
                      mc_version: str = DEFAULT_MC_VERSION, schem_version: int = SCHEM_VERSION,
                      seed: int | None = None, ground: str | os.PathLike | None = None,
                      clear: str | None = None) -> tuple[int, int, int]:
    """A .schem of a maze that exists only as bands (y, z<=16, x): ``make_bands()`` starts the
    bands over (a streamed maze is generated again, the same for its seed).

    The block data runs layer by layer (y slowest), so the bands are read once for the palette and
    once per layer; memory holds one band. Theme variants are drawn from ``seed`` and each block's
    position, as in the whole-volume writer. Returns the (y, z, x) shape.

    >>> import io
    >>> from blockmaze.materials import load_theme
    >>> volume = np.ones((2, 20, 3), np.uint8)
    >>> write_schem_bands(lambda: (volume[:, z:z + 16] for z in (0, 16)), io.BytesIO(), load_theme("glass"))
    (2, 20, 3)
    """
    _whole_for_ground(ground, clear, "a maze this large is written in bands")
    present = np.zeros(256, dtype=bool)
    height = length = width = 0
    first = None
    entities: list[BlockEntity] = []
    for band in make_bands():
        first = band if first is None else first
        height, width = band.shape[0], band.shape[2]
        if SPAWNS[band].any():  # spawn points: their block entities, placed in the whole maze
            origin = (0, length, 0)
            indices, states = minecraft_palette(band, theme, seed, mc_version, origin)
            entities += [replace(e, position=(e.position[0], e.position[1] + length, e.position[2]))
                         for e in block_entities(band, indices, states, seed, mc_version, origin)]
        length += band.shape[1]
        present[np.unique(band)] = True
    if first is None:
        raise BlockmazeError("a .schem needs at least one band of blocks")
    shape = (height, length, width)
    spot = player_spot(first, length)  # a streamed maze has no entrance: it lies by the first band
    check_size(shape)
    _, palette = minecraft_palette(np.flatnonzero(present).astype(np.uint8), theme, seed, mc_version)
    if len(palette) > 0x7F:
        raise BlockmazeError(f"a streamed .schem takes at most 127 block states, the theme gives {len(palette)}")
    index = {state: i for i, state in enumerate(palette)}

    def pieces():
        for layer in range(height):
            z0 = 0
            for band in make_bands():
                indices, states = minecraft_palette(band[layer], theme, seed, mc_version, (layer, z0, 0))
                z0 += band.shape[1]
                yield np.array([index[state] for state in states], dtype=np.uint8)[indices]

    write_streamed_data(pieces(), height * length * width, palette, shape, file, mc_version, schem_version,
                        spot.offset, entities)
    return shape


def tile_name(path: str | os.PathLike, x: int, z: int) -> Path:
    """The file of the tile whose north-west corner is block (x, z) of the maze.

    >>> tile_name("out/maze.schem", 256, 0).as_posix()
    'out/maze_x256_z0.schem'
    """
    path = Path(path)
    return path.with_name(f"{path.stem}_x{x}_z{z}{path.suffix}")


def write_schem_tiles(bands: Iterable[np.ndarray], path: str | os.PathLike, theme: Theme, split: int,
                      mc_version: str = DEFAULT_MC_VERSION, schem_version: int = SCHEM_VERSION,
                      seed: int | None = None, ground: str | os.PathLike | None = None,
                      clear: str | None = None) -> list[Path]:
    """Cut a maze (bands of (y, z, x), or a volume) into .schem tiles of at most ``split`` x
    ``split`` blocks, written beside ``path`` as ``<stem>_x<X>_z<Z>.schem``, each pasting at
    [X, 0, Z] from the player (v2 ``WEOffset``, v3 ``Offset``), so pasting every tile from one
    spot assembles the maze; memory holds one row of tiles. Returns the files, row by row.

    >>> import tempfile, os
    >>> from blockmaze.materials import load_theme
    >>> folder = tempfile.mkdtemp()
    >>> files = write_schem_tiles(np.ones((2, 40, 30), np.uint8), os.path.join(folder, "m.schem"), load_theme(), 16)
    >>> [f.name for f in files][:3], len(files)
    (['m_x0_z0.schem', 'm_x16_z0.schem', 'm_x0_z16.schem'], 6)
    """
    from .. import volume_slices
    from ..target import derived_base, transaction

    if isinstance(split, bool) or not isinstance(split, (int, np.integer)) or split < 1:
        raise ParameterError(f"{{split}} must be a whole number of blocks >= 1, got {split!r}")
    _whole_for_ground(ground, clear, "--split cuts it into tiles")
    path = derived_base(path, "--split tiles")
    if isinstance(bands, np.ndarray):
        bands = volume_slices(bands)
    with transaction():  # every tile, or none
        return _write_tiles(bands, path, theme, split, mc_version, schem_version, seed)


def _whole_for_ground(ground, clear, why: str) -> None:
    """Refuse ``ground`` (or ``clear``) for a .schem not written whole: following the ground
    needs the whole maze."""
    if ground is not None or clear:
        raise ParameterError(f"{{ground}}: the maze follows the ground as one volume, and {why}; "
                             "leave out {ground} (or make the maze smaller)")


def _write_tiles(bands, path, theme, split, mc_version, schem_version, seed) -> list[Path]:
    from ..target import open_target

    written: list[Path] = []
    pending: list[np.ndarray] = []
    held = z0 = 0

    def row(block: np.ndarray) -> None:
        for x0 in range(0, block.shape[2], split):
            tile = np.ascontiguousarray(block[:, :, x0:x0 + split])
            indices, palette = minecraft_palette(tile, theme, seed, mc_version, (0, z0, x0))
            entities = block_entities(tile, indices, palette, seed, mc_version, (0, z0, x0))
            target = tile_name(path, x0, z0)
            with open_target(target) as file:
                write_indexed(indices, palette, file, mc_version, schem_version, (x0, 0, z0), entities)
            written.append(target)

    for band in bands:
        pending.append(np.asarray(band))
        held += band.shape[1]
        while held >= split:
            block = np.concatenate(pending, axis=1)
            row(block[:, :split])
            z0 += split
            pending, held = [block[:, split:]], held - split
    if held:
        row(np.concatenate(pending, axis=1))
    return written


check_size = size_limits(".schem", max_side=MAX_SIDE, max_blocks=MAX_DATA_BYTES)


register_writer("schem", write_schem, check_size,
                prepare_theme=release_theme, write_bands=write_schem_bands, write_tiles=write_schem_tiles,
                java_states=True)
