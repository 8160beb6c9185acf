"""Outputs, found by suffix or format name, grouped by family.

``minecraft/`` (schematics, structures, datapacks, Bedrock packs), ``voxels/`` (MagicaVoxel,
Luanti), ``meshes/`` (the greedy mesher and its glTF, OBJ, PLY, STL and 3MF writers), ``tilemaps/`` (Tiled, ASCII, JSON, tcod, REXPaint, LDtk) and
``pictures`` (PNG/SVG of the maze itself), and maze documents (``.json``). :data:`FORMATS`
names every output, its suffixes,
summary and module, so help and suffix look-ups import nothing; a module is imported the first
time its writer is used, and registers its writers with :func:`register_writer` (a test checks
the table against the modules).

Example
-------
>>> writer_for("maze.schem").name
'schem'
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, cast

from ..errors import BlockmazeError
from ..support.lazy import Registry
from ..support.memory import ensure_step_memory
from .target import PathLike, Target, is_file_object, open_target

if TYPE_CHECKING:  # annotations only: looking up a format imports neither
    import numpy as np

    from ..materials import Theme


@dataclass(frozen=True)
class Format:
    """One output as the static table knows it: no import needed.

    ``source`` is what the writer takes: ``"volume"`` (a (y, z, x) block volume), ``"plan"`` (the
    (z, x) plan as a one-layer volume: tile maps), ``"maze"`` (the maze itself: pictures and
    maze documents) or ``"bands"`` (the volume as an iterator of 16-row bands along z, so a
    streamed maze never exists whole: worlds). ``folder``: the output is a folder, not a file.
    ``companion``: a file another format writes beside its own (an OBJ's .mtl), never asked
    for alone. ``noun``: what a run that draws the maze (``source == "maze"``) says it wrote.
    ``surfaces``: it takes a maze on a surface (a cylinder, a cube, ...: its document, or a
    picture of its net).
    """

    name: str
    module: str  # relative to the blockmaze package
    suffixes: tuple[str, ...]
    summary: str
    source: str = "volume"
    folder: bool = False
    companion: bool = False
    noun: str = ""
    surfaces: bool = False


def _formats(*rows: tuple) -> dict[str, Format]:
    return {row[0]: Format(*row) for row in rows}


FORMATS: dict[str, Format] = _formats(
    ("schem", "export.minecraft.sponge", (".schem",),
     "Sponge schematic v2/v3 (WorldEdit, FAWE, Litematica, Amulet)"),
    ("litematic", "export.minecraft.litematic", (".litematic",),
     "Litematica schematic (Version 5, 6 from Minecraft 1.18, 7 from 1.20.5)"),
    ("structure", "export.minecraft.structure", (".nbt",),
     "vanilla structure file (structure blocks up to 48x48x48, /place template)"),
    ("datapack", "export.minecraft.datapack", (".zip",),
     "datapack of /fill commands (Java 1.14+; /function blockmaze:build)"),
    ("schematic", "export.minecraft.legacy", (".schematic",),
     "MCEdit .schematic with numeric ids (Minecraft 1.12 and older; WorldEdit, Amulet)"),
    ("mcstructure", "export.minecraft.bedrock", (".mcstructure",),
     "Bedrock .mcstructure (Bedrock 1.21.90+; /structure load)"),
    ("glb", "export.meshes.gltf", (".glb",),
     "binary glTF 2.0 scene, a node per material and chunk (Godot, Unity, Unreal, Blender)"),
    ("gltf", "export.meshes.gltf", (".gltf",), "glTF 2.0 JSON scene with embedded buffer"),
    ("obj", "export.meshes.obj", (".obj",),
     "Wavefront OBJ, a group per material (materials: the mtl writer)"),
    ("mtl", "export.meshes.obj", (".mtl",),
     "Wavefront material library, written beside its .obj", "volume", False, True),
    ("ply", "export.meshes.ply", (".ply",),
     "binary PLY, Z-up, shared vertices with normals, UVs and material colours"),
    ("3mf", "export.meshes.threemf", (".3mf",),
     "3MF print file, Z-up millimetres, an object per material (PrusaSlicer, Cura, Bambu)"),
    ("stl", "export.meshes.stl", (".stl",),
     "binary STL, one closed solid, Z-up millimetres (3D printing)"),
    ("tmx", "export.tilemaps.tiled", (".tmx",),
     "Tiled map, XML, with a terrain set (Tiled 1.10; pytmx, pytiled-parser, game engines)", "plan"),
    ("tmj", "export.tilemaps.tiled", (".tmj",),
     "Tiled map, JSON, with a terrain set (Tiled 1.10; pytiled-parser, Phaser, game engines)", "plan"),
    ("ascii", "export.tilemaps.asciimap", (".txt",),
     "roguelike text map with a glyph legend (# wall, . floor, S/G ends)", "plan"),
    ("tilemap", "export.tilemaps.tilejson", (".tilemap.json",),
     "blockmaze JSON tile map: glyph rows, legend, entities", "plan"),
    ("npz", "export.tilemaps.tcod", (".npz",),
     "numpy arrays for python-tcod: walkable, transparent, materials", "plan"),
    ("xp", "export.tilemaps.rexpaint", (".xp",),
     "REXPaint image (CP437 glyphs, theme colours; REXPaint, libtcod)", "plan"),
    ("png", "export.pictures", (".png",), "picture of the maze (walls, paths or blocks)", "maze",
     False, False, "picture", True),
    ("svg", "export.pictures", (".svg",), "vector picture of the maze (walls, paths or blocks)",
     "maze", False, False, "picture", True),
    ("pdf", "export.pdf", (".pdf",),
     "PDF to print: the maze to a page size, its seed, an answer page, sheets to tape together "
     "(needs the pdf extra)", "maze", False, False, "PDF", True),
    ("maze", "export.maze_document", (".json",),
     "maze document: grid, passages, endpoints, algorithm and seed (blockmaze export)", "maze",
     False, False, "maze document", True),
    ("pieces", "export.kits.piecelist", (".pieces.json",),
     "piece list: each cell's kit piece, turn, place and flags (game engines' modular kits)",
     "maze", False, False, "piece list"),
    ("pieces-csv", "export.kits.piecelist", (".pieces.csv",),
     "piece list as CSV, its header on a first # line (Unreal data tables, spreadsheets)",
     "maze", False, False, "piece list"),
    ("kit", "export.kits.scene", (".kit.glb",),
     "glTF scene of a kit's pieces, one instance a cell (--kit KIT.glb; default: voxel pieces)",
     "maze", False, False, "kit scene"),
    ("tscn", "export.kits.tscn", (".tscn",),
     "Godot 3 scene: the kit's pieces a cell, collision and a navigation mesh", "maze", False,
     False, "Godot scene"),
    ("ldtk", "export.tilemaps.ldtk", (".ldtk",),
     "LDtk project: IntGrid, auto-layer, tile and entity layers (LDtk 1.5, ldtkpy)", "plan"),
    ("world", "export.minecraft.world", (),
     "Java world folder: level.dat + region/*.mca, opens from Singleplayer (1.18-1.21.10)",
     "bands", True),
    ("world-zip", "export.minecraft.world", (),
     "the Java world folder as one .zip (unzip into .minecraft/saves)", "bands"),
    ("vox", "export.voxels.vox", (".vox",),
     "MagicaVoxel .vox, theme colours, split into 256-voxel models (MagicaVoxel, Goxel, three.js)"),
    ("mts", "export.voxels.mts", (".mts",),
     "Luanti (Minetest) schematic, minetest_game nodes (place_schematic, WorldEdit //mtschemplace)"),
    ("mcpack", "export.minecraft.mcpack", (".mcpack",),
     "Bedrock behaviour pack: the .mcstructure and /function blockmaze/build (opens with a tap)"),
    ("mcworld", "export.minecraft.mcworld", (".mcworld",),
     "Bedrock world, the maze on flat ground, opens with a tap (Bedrock 1.21.90+; needs the "
     "bedrock extra)", "bands"),
)


# how pictures (png, svg, pdf) draw a maze: export.picture_scene implements each; "classic" is
# the walls as they were drawn before the print look (thin, in the theme's colours)
PICTURE_STYLES = ("walls", "paths", "blocks", "classic")


def check_picture_style(style: str, kind: str) -> None:
    """Refuse a picture style that cannot draw a maze of ``kind`` (before any work).

    >>> check_picture_style("blocks", "weave")
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: the blocks picture style cannot show a weave maze's crossings (a passage under another); draw it with --picture-style walls or paths
    """
    if style not in PICTURE_STYLES:
        raise BlockmazeError(f"unknown picture style {style!r}; choose one of: "
                             f"{', '.join(PICTURE_STYLES)}")
    if style == "blocks" and kind == "weave":
        raise BlockmazeError("the blocks picture style cannot show a weave maze's crossings (a "
                             "passage under another); draw it with --picture-style walls or paths")
# a mesh block's size (--block-size): from a micrometre, which a file's 32-bit floats still tell
# apart, to where a 100,000-block side's vertices stay finite floats (float32 to 3.4e38)
MIN_BLOCK_SIZE, MAX_BLOCK_SIZE = 1e-6, 1e6


@dataclass(frozen=True)
class Writer:
    """A :data:`FORMATS` row with its writing code loaded.

    ``write(source, file, theme, **options)`` writes to a binary file: a (y, z, x) volume (tile
    maps get the (z, x) plan as a one-layer volume), or for ``source == "maze"`` a
    :class:`~blockmaze.mazes.documents.MazeDocument`. ``check_size(shape)`` raises BlockmazeError for a
    volume the format cannot hold, before any work is done (None for maze outputs). ``bands``:
    ``write`` takes an iterator of (y, z<=16, x) bands instead of the volume; ``folder``: ``write``
    takes the output folder's path instead of a file (and writes it atomically itself).

    What else a writer can do it declares when it registers (:func:`register_writer`), so shared
    code asks the writer, never its name: ``write_bands(make_bands, file, theme, **options)``
    writes a maze that exists only as bands, started over as often as it needs (a streamed
    .schem); ``write_tiles(bands, path, theme, split, **options)`` cuts it into tiles beside
    ``path`` and returns their paths; ``prepare_theme(theme, options)`` gives the theme the file
    is drawn with (a Minecraft release's block states, checked); ``hint(volume, name)`` says how
    to place the file in the game (None where the file says it itself);
    ``print_size(shape, block_size=, finger=)`` the size a file to print comes out at
    (``"320 x 375 x 20 mm"``); ``draws_dungeons``: ``write`` draws a dungeon level as it is
    (rooms, doors, stairs and spawns: pictures); ``drawing_memory(kind, cells, options)`` the
    bytes its drawing of a maze of ``cells`` cells of ``kind`` needs, so a run refuses a picture
    too large before making the maze (0 where it is drawn in bands); ``java_states``: each
    material is written as the Java block state its theme names, so materials of a run's own (a
    prefab's states, :mod:`blockmaze.blocks.prefab`) reach the file as they are.
    """

    format: Format
    write: Callable
    check_size: Callable[[tuple[int, int, int]], None] | None = None
    write_bands: Callable | None = None
    write_tiles: Callable | None = None
    prepare_theme: Callable | None = None
    hint: Callable | None = None
    print_size: Callable | None = None
    draws_dungeons: bool = False
    drawing_memory: Callable[[str, int, dict], int] | None = None
    java_states: bool = False

    name = property(lambda self: self.format.name)
    suffixes = property(lambda self: self.format.suffixes)
    summary = property(lambda self: self.format.summary)
    source = property(lambda self: self.format.source)
    plan = property(lambda self: self.format.source == "plan")
    bands = property(lambda self: self.format.source == "bands")
    folder = property(lambda self: self.format.folder)
    draws_maze = property(lambda self: self.format.source == "maze")
    draws_surfaces = property(lambda self: self.format.surfaces)
    # a maze generated row by row can be written to it: as bands, or started over per pass
    streams = property(lambda self: self.bands or self.write_bands is not None)
    tiles = property(lambda self: self.write_tiles is not None)

    def themed(self, theme: Theme, options) -> Theme:
        """The theme this writer draws with for its ``options`` (see the class docstring)."""
        return theme if self.prepare_theme is None else self.prepare_theme(theme, options)

    @cached_property
    def options(self) -> tuple[str, ...]:
        """The keyword options the writer accepts beyond source, file and theme."""
        names = list(inspect.signature(self.write).parameters)
        return tuple(names[3:])

    def check_volume(self, shape: tuple[int, int, int]) -> None:
        """Refuse a (y, z, x) volume this format cannot hold, before any work (a maze output
        holds no volume: nothing to refuse)."""
        if self.check_size is not None:
            self.check_size(shape)

    def check_writing(self, shape: tuple[int, int, int]) -> None:
        """:meth:`check_volume`, and the memory writing a (y, z, x) volume of ``shape`` takes:
        what :func:`write_blocks` checks, asked before a volume is made too."""
        self.check_volume(shape)
        height, length, width = shape
        ensure_step_memory(self.name, height * length * width,
                           f"writing a {width}x{height}x{length}-block {self.name} file")

    def taken(self, **values) -> dict:
        """Those of ``values`` this writer takes, as keywords of its ``write``.

        >>> writer_for(format="schem").taken(seed=3, solution=True)
        {'seed': 3}
        """
        return {name: value for name, value in values.items() if name in self.options}

    def check_options(self, options) -> None:
        """Refuse options this format does not take, naming those it does."""
        unknown = set(options) - set(self.options)
        if unknown:
            raise BlockmazeError(f"{self.name} does not take {', '.join(sorted(unknown))}; "
                                 f"its options are: {', '.join(self.options) or 'none'}")


WRITERS: Registry[Writer] = Registry({name: f"blockmaze.{row.module}"
                                     for name, row in FORMATS.items()})


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


def register_writer(name: str, write: Callable, check_size: Callable | None = None,
                    **abilities) -> None:
    """Called by a writer's module for each :data:`FORMATS` row that names it, with what else
    the writer can do (``write_bands``, ``write_tiles``, ``prepare_theme``, ``hint``,
    ``print_size``, ``draws_dungeons``, ``drawing_memory``, ``java_states``: see :class:`Writer`)."""
    WRITERS.loaded[name] = Writer(FORMATS[name], write, check_size, **abilities)


def writer_for(path: str | os.PathLike | None = None, format: str | Writer | None = None) -> Writer:
    """The writer for a format name, or else for the (longest matching) suffix of ``path`` (a
    path ending in a slash is a folder: a world save); a writer already looked up (``format``)
    is the answer itself, so a run looks its writer up once and passes it down.

    >>> writer_for("MyMaze/").name
    'world'
    >>> writer_for("Maze.mcworld").name
    'mcworld'
    """
    if isinstance(format, Writer):
        return format
    name = Path(path).name.lower() if path is not None else ""
    if format is not None:
        try:
            return WRITERS[format]
        except KeyError:
            raise BlockmazeError(
                f"unknown format {format!r}; choose one of: {', '.join(sorted(WRITERS))}"
            ) from None
    if path is not None and str(path).endswith(("/", os.sep)):
        return WRITERS["world"]  # "MyMaze/": a folder, so a world save
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
    format: str | Writer | None = None,
    theme: Theme | str | None = None,
    **options,
) -> None:
    """Write Blocks (a (y, z, x) volume, or a (z, x) plan as one layer) to a path or binary file.

    Parameters
    ----------
    blocks : numpy.ndarray
        ``uint8`` materials, ``(y, z, x)`` or ``(z, x)``.
    target : str, os.PathLike or binary file
        Where to write; a path is written to a temporary file and renamed into place.
    format : str or Writer, optional
        A name of :data:`FORMATS` (or its writer); by default the target's suffix picks it.
    theme : Theme or str, optional
        What each material looks like (a theme, a shipped theme's name or a JSON file's path).
    **options
        The format's own options (``writer_for(...).options``), e.g. ``mc_version``.

    Returns
    -------
    None
        A block the format cannot hold raises BlockmazeError before anything is written.

    Examples
    --------
    >>> import io
    >>> from blockmaze import generate, to_blocks, extrude
    >>> out = io.BytesIO()
    >>> write(extrude(to_blocks(generate((3, 4), rng=1))), out, format="schem", schem_version=3)
    """
    writer = writer_for(None if is_file_object(target) else cast(PathLike, target), format)
    if writer.draws_maze:
        raise BlockmazeError(f"{writer.name} draws a maze, not blocks: use blockmaze.save(maze, ...)")
    from ..materials import as_theme

    writer.check_options(options)
    theme = writer.themed(as_theme(theme), options)  # checked before any work
    write_blocks(writer, blocks, target, theme, options)


def write_blocks(writer: Writer, blocks: np.ndarray, target: Target, theme: Theme,
                 options) -> None:
    """:func:`write` for a writer looked up, a theme it has prepared and options it takes:
    the volume's size checked (and the memory its writing takes) before anything is written.

    >>> import io, numpy as np
    >>> from blockmaze.materials import load_theme
    >>> write_blocks(writer_for(format="vox"), np.ones((2, 3, 4), np.uint8), io.BytesIO(), load_theme(), {})
    """
    import numpy as np

    blocks = np.asarray(blocks)
    if blocks.ndim == 2:
        blocks = blocks[np.newaxis]
    if blocks.ndim != 3 or blocks.dtype != np.uint8:
        raise BlockmazeError(f"blocks must be a uint8 array (y, z, x), got {blocks.dtype} {blocks.shape}")
    writer.check_writing(blocks.shape)
    source = volume_slices(blocks) if writer.bands else blocks
    if writer.folder:
        if is_file_object(target):
            raise BlockmazeError(f"{writer.name} writes a folder: give its path, not a file")
        writer.write(source, target, theme, **options)
        return
    with open_target(target) as file:
        writer.write(source, file, theme, **options)


def volume_slices(volume: np.ndarray, rows: int = 16) -> Iterator[np.ndarray]:
    """Views of a (y, z, x) volume, ``rows`` z-rows at a time (the last band may be shorter).

    >>> import numpy as np
    >>> [band.shape for band in volume_slices(np.zeros((2, 20, 3), np.uint8))]
    [(2, 16, 3), (2, 4, 3)]
    """
    for z in range(0, volume.shape[1], rows):
        yield volume[:, z:z + rows]
