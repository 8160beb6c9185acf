"""Outputs, found by suffix or format name, grouped by family.

``minecraft/`` (schematics, structures, datapacks), ``meshes/`` (the greedy mesher and its glTF,
OBJ, PLY, STL and 3MF writers), ``tilemaps/`` (Tiled, ASCII, JSON, tcod, REXPaint) and
``pictures`` (PNG/SVG of the maze itself). :data:`FORMATS` names every output, its suffixes,
summary and module, so help and suffix look-ups import nothing; a module is imported the first
time its writer is used, and registers its writers with :func:`register_writer` (a test checks
the table against the modules).

Example
-------
>>> writer_for("maze.schem").name
'schem'
"""

from __future__ import annotations

import importlib
import inspect
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

import numpy as np

from ..errors import BlockmazeError
from ..materials import Theme, load_theme
from ..resources import ensure_step_memory
from .target import Target, open_target


@dataclass(frozen=True)
class Format:
    """One output as the static table knows it: no import needed.

    ``source`` is what the writer takes: ``"volume"`` (a (y, z, x) block volume), ``"plan"`` (the
    (z, x) plan as a one-layer volume: tile maps) or ``"maze"`` (the maze itself: pictures and
    maze documents).
    """

    name: str
    module: str
    suffixes: tuple[str, ...]
    summary: str
    source: str = "volume"


def _formats(*rows: tuple) -> dict[str, Format]:
    return {row[0]: Format(*row) for row in rows}


FORMATS: dict[str, Format] = _formats(
    ("schem", "minecraft.sponge", (".schem",),
     "Sponge schematic v2/v3 (WorldEdit, FAWE, Litematica, Amulet)"),
    ("litematic", "minecraft.litematic", (".litematic",),
     "Litematica schematic (Version 6, or 7 from Minecraft 1.20.5)"),
    ("structure", "minecraft.structure", (".nbt",),
     "vanilla structure file (structure blocks up to 48x48x48, /place template)"),
    ("datapack", "minecraft.datapack", (".zip",),
     "datapack of /fill commands (Java 1.14+; /function blockmaze:build)"),
    ("schematic", "minecraft.legacy", (".schematic",),
     "MCEdit .schematic with numeric ids (Minecraft 1.12 and older; WorldEdit, Amulet)"),
    ("mcstructure", "minecraft.bedrock", (".mcstructure",),
     "Bedrock .mcstructure (Bedrock 1.21.90+; /structure load)"),
    ("glb", "meshes.writers", (".glb",),
     "binary glTF 2.0 scene, a node per material (Godot, Unity, Unreal, Blender)"),
    ("gltf", "meshes.writers", (".gltf",), "glTF 2.0 JSON scene with embedded buffer"),
    ("obj", "meshes.writers", (".obj",),
     "Wavefront OBJ, a group per material (materials: the mtl writer)"),
    ("mtl", "meshes.writers", (".mtl",),
     "Wavefront material library for the OBJ writer's materials"),
    ("ply", "meshes.writers", (".ply",), "binary PLY with normals, UVs and material colours"),
    ("3mf", "meshes.writers", (".3mf",),
     "3MF print file, Z-up millimetres, coloured by material (PrusaSlicer, Cura, Bambu)"),
    ("stl", "meshes.writers", (".stl",),
     "binary STL, one closed solid, Z-up millimetres (3D printing)"),
    ("tmx", "tilemaps.tiled", (".tmx",),
     "Tiled map, XML (Tiled 1.10; pytmx, pytiled-parser, game engines)", "plan"),
    ("tmj", "tilemaps.tiled", (".tmj",),
     "Tiled map, JSON (Tiled 1.10; pytiled-parser, Phaser, game engines)", "plan"),
    ("ascii", "tilemaps.asciimap", (".txt",),
     "roguelike text map with a glyph legend (# wall, . floor, S/G ends)", "plan"),
    ("tilemap", "tilemaps.tilejson", (".tilemap.json",),
     "blockmaze JSON tile map: glyph rows, legend, entities", "plan"),
    ("npz", "tilemaps.tcod", (".npz",),
     "numpy arrays for python-tcod: walkable, transparent, materials", "plan"),
    ("xp", "tilemaps.rexpaint", (".xp",),
     "REXPaint image (CP437 glyphs, theme colours; REXPaint, libtcod)", "plan"),
)


@dataclass(frozen=True)
class Writer:
    """A file format with its writing code loaded.

    ``write(blocks, file, theme, **options)`` writes a (y, z, x) volume to a binary file;
    ``check_size(shape)`` raises BlockmazeError for a volume the format cannot hold, before any
    work is done; ``plan`` is True for formats that draw the (z, x) plan rather than a volume
    (tile maps): they receive the plan as a one-layer volume.
    """

    name: str
    suffixes: tuple[str, ...]
    write: Callable
    check_size: Callable[[tuple[int, int, int]], None]
    summary: str
    plan: bool = False

    @property
    def options(self) -> tuple[str, ...]:
        """The keyword options the writer accepts beyond blocks, file and theme."""
        names = list(inspect.signature(self.write).parameters)
        return tuple(names[3:])


class _Writers(Mapping):
    """Name -> Writer; a writer's module is imported on first look-up, names need no import."""

    def __init__(self) -> None:
        self.loaded: dict[str, Writer] = {}

    def __getitem__(self, name: str) -> Writer:
        if name not in self.loaded:
            if name not in FORMATS:
                raise KeyError(name)
            importlib.import_module(f"{__name__}.{FORMATS[name].module}")
        return self.loaded[name]

    def __iter__(self) -> Iterator[str]:
        return iter(FORMATS)

    def __len__(self) -> int:
        return len(FORMATS)


WRITERS: Mapping[str, Writer] = _Writers()


def size_limits(what: str, max_side: int | None = None, max_blocks: int | None = None):
    """A ``check_size`` for a format: every side at least 1 block and at most ``max_side``, and
    at most ``max_blocks`` blocks in all.

    >>> size_limits(".schem", max_side=65535)((4, 70001, 21))
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: a 21x4x70001-block volume (width x height x length) is too large for .schem: each side holds at most 65535 blocks
    """

    def check_size(shape: tuple[int, int, int]) -> None:
        height, length, width = shape
        volume = f"a {width}x{height}x{length}-block volume"
        if min(shape) < 1:
            raise BlockmazeError(f"{volume} is empty; every side needs at least one block")
        if max_side is not None and max(shape) > max_side:
            raise BlockmazeError(f"{volume} (width x height x length) is too large for {what}: "
                                 f"each side holds at most {max_side} blocks")
        if max_blocks is not None and width * height * length > max_blocks:
            raise BlockmazeError(f"{volume} has {width * height * length} blocks; {what} holds "
                                 f"at most {max_blocks}")

    check_size.__doc__ = f"Refuse a (y, z, x) volume {what} cannot hold, before any work is done."
    return check_size


def register_writer(writer: Writer) -> None:
    """Called by a writer's module: the loaded form of a :data:`FORMATS` row."""
    WRITERS.loaded[writer.name] = writer


def writer_for(path: str | os.PathLike | None = None, format: str | None = None) -> Writer:
    """The writer for a format name, or else for the (longest matching) suffix of ``path``."""
    if format is not None:
        try:
            return WRITERS[format]
        except KeyError:
            raise BlockmazeError(
                f"unknown format {format!r}; choose one of: {', '.join(sorted(WRITERS))}"
            ) from None
    name = Path(path).name.lower() if path is not None else ""
    matches = [(len(s), f.name) for f in FORMATS.values() for s in f.suffixes if name.endswith(s)]
    if matches:  # the longest suffix wins: ".tilemap.json" before ".json"
        return WRITERS[max(matches)[1]]
    known = ", ".join(s for f in FORMATS.values() for s in f.suffixes)
    raise BlockmazeError(
        f"cannot tell the format of {str(path)!r} from its suffix; use one of {known} or give a format"
    )


def write(
    blocks: np.ndarray,
    target: Target,
    format: str | None = None,
    theme: Theme | str | None = None,
    **options,
) -> None:
    """Write Blocks (a (y, z, x) volume, or a (z, x) plan as one layer) to a path or binary file.

    Example
    -------
    >>> import io
    >>> from blockmaze import generate, to_blocks, extrude
    >>> out = io.BytesIO()
    >>> write(extrude(to_blocks(generate((3, 4), rng=1))), out, format="schem", schem_version=3)
    """
    writer = writer_for(None if hasattr(target, "write") else target, format)
    unknown = set(options) - set(writer.options)
    if unknown:
        raise BlockmazeError(
            f"{writer.name} does not take {', '.join(sorted(unknown))}; "
            f"its options are: {', '.join(writer.options) or 'none'}"
        )
    blocks = np.asarray(blocks)
    if blocks.ndim == 2:
        blocks = blocks[np.newaxis]
    if blocks.ndim != 3 or blocks.dtype != np.uint8:
        raise BlockmazeError(f"blocks must be a uint8 array (y, z, x), got {blocks.dtype} {blocks.shape}")
    writer.check_size(blocks.shape)
    height, length, width = blocks.shape
    ensure_step_memory(writer.name, blocks.size, f"writing a {width}x{height}x{length}-block {writer.name} file")
    theme = theme if isinstance(theme, Theme) else load_theme(theme)
    with open_target(target) as file:
        writer.write(blocks, file, theme, **options)
