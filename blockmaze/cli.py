"""The ``blockmaze`` command: parses options, wires the pipeline stages, reports errors in one line."""

from __future__ import annotations

import contextlib
import functools
import math
import os
import re
import sys
import traceback
import warnings
from pathlib import Path

import click

from . import __version__, progress
from .algorithms import ALGORITHMS, get_algorithm
from .cli_options import SectionedCommand, SuggestingGroup, unused_options
from .errors import BadFileError, BlockmazeError, OutputError
from .export import FORMATS, NOT_WRITTEN, writer_for
from .export.target import (STDOUT, Interrupted, block_signals_in_new_threads, restore_signals,
                            signals_raise, stop_within, take_signals_here, transaction)
from .export.minecraft.versions import DATA_VERSIONS, DEFAULT_MC_VERSION
from .dungeon import STYLES as DUNGEON_STYLES
from .grids import GRID_KINDS
from .export import PICTURE_STYLES
from .materials import DEFAULT_THEME, Material, load_theme, theme_names
from .render import STYLE_NAMES as STYLES
from .memory import MEMORY_LIMIT, set_memory_limit
from .wording import article

# sizes, thicknesses: ASCII digits only (no superscripts), at most this many of them
NUMBER = r"[0-9]{1,12}"
MAX_SEED = 2 ** 64 - 1
MAX_LEVELS = 256  # dungeon levels (each a dungeon of its own)


class Dimensions(click.ParamType):
    """``AxB`` (or a single ``N`` for ``NxN``) of whole numbers >= 1, as a (a, b) pair."""

    name = "AxB"

    def __init__(self, what: str, example: str, auto: bool = False):
        self.what = what
        self.example = example
        self.auto = auto

    def convert(self, value, param, ctx):
        if isinstance(value, tuple) or value is None:
            return value
        if self.auto and str(value).strip().lower() == "auto":
            return None
        match = re.fullmatch(rf"\s*({NUMBER})\s*(?:[xX×]\s*({NUMBER})\s*)?", str(value))
        if not match or int(match[1]) < 1 or int(match[2] or match[1]) < 1:
            self.fail(f"{self.what} must be N or AxB with whole numbers >= 1 "
                      f"(e.g. {self.example}), got {value!r}", param, ctx)
        return int(match[1]), int(match[2] or match[1])


# axis letters a size may label its numbers with: R/L rows (north-south, z), C/W columns
# (east-west, x), H height or levels; labelled numbers may come in any order
AXIS_LETTERS = {"r": 1, "l": 1, "c": 2, "w": 2, "h": 0}


class SizeValue(tuple):
    """A size's numbers in the one axis order (height or levels first, then rows, then columns);
    ``labelled`` when the user named the axes (``41Wx31L``), so the order they typed it in is moot."""

    labelled = False


class Size(click.ParamType):
    """One to three whole numbers >= 1 joined by x: ``20x30``, ``12``, ``3x10x10``; or labelled
    with axis letters in any order: ``41Wx31L`` (= ``31x41``), ``9Hx31Rx41C`` (= ``9x31x41``)."""

    name = "SIZE"

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        parts = [re.fullmatch(rf"({NUMBER})\s*([A-Za-z]?)", p)
                 for p in re.split(r"\s*[xX×]\s*", str(value).strip())]
        if not 1 <= len(parts) <= 3 or not all(p and int(p[1]) >= 1 for p in parts):
            self.fail(f"size must be whole numbers >= 1 joined by x (e.g. 20x30, or with axis "
                      f"letters 30Wx20L), got {value!r}", param, ctx)
        letters = [p[2].lower() for p in parts]
        if not any(letters):
            return SizeValue(int(p[1]) for p in parts)
        axes = [AXIS_LETTERS.get(letter) for letter in letters]
        if None in axes or len(set(axes)) != len(axes) or not {1, 2} <= set(axes):
            self.fail(f"label every number of a size with a different axis letter, R or L for "
                      f"rows (north-south), C or W for columns (east-west), H for height or "
                      f"levels (e.g. 41Wx31L), got {value!r}", param, ctx)
        size = SizeValue(int(p[1]) for _, p in sorted(zip(axes, parts), key=lambda pair: pair[0]))
        size.labelled = True
        return size


# how many size numbers each grid kind takes, and what they mean
SIZE_FORMS = {"polar": (1, "RINGS"), "layered": (3, "LEVELSxROWSxCOLS")}


def grid_shape(kind: str, size: tuple[int, ...]) -> tuple[int, ...]:
    """The constructor shape of ``kind`` from the size the user typed (N means NxN for 2-D kinds)."""
    count, form = SIZE_FORMS.get(kind, (2, "ROWSxCOLS"))
    if count == 2 and len(size) == 1:
        size = size * 2
    if len(size) != count:
        raise BlockmazeError(f"{article(kind)} grid's size is {form}, got {'x'.join(map(str, size))}")
    return size


class FilePath(click.Path):
    """click.Path that refuses a NUL character with a message (the system cannot take one); a
    missing input file is a bad input file (exit 1), as the README's rule says."""

    def convert(self, value, param, ctx):
        if isinstance(value, str) and "\0" in value:
            self.fail(f"{value!r}: a file name cannot hold a NUL character", param, ctx)
        if self.exists and isinstance(value, (str, os.PathLike)) and not os.path.lexists(value):
            where = param.get_error_hint(ctx) if param is not None else "file"
            raise BadFileError(f"Invalid value for {where}: {os.fsdecode(value)!r} does not exist")
        return super().convert(value, param, ctx)


class FormatChoice(click.Choice):
    """The output formats; one blockmaze does not write (.mcworld) is refused saying why."""

    def convert(self, value, param, ctx):
        if value in NOT_WRITTEN:
            self.fail(NOT_WRITTEN[value][1], param, ctx)
        return super().convert(value, param, ctx)


class Finite(click.FloatRange):
    """A FloatRange that refuses nan and infinity."""

    def convert(self, value, param, ctx):
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return number


class AlgorithmSpec(click.ParamType):
    """An algorithm name, or NAME:OPTION."""

    name = "NAME[:OPTION]"

    def convert(self, value, param, ctx):
        try:
            get_algorithm(value)
        except BlockmazeError as error:
            self.fail(str(error), param, ctx)
        return value


EXAMPLES = """
\b
Examples:
  blockmaze generate 10x20                     print a maze in the terminal
  blockmaze generate 50x50 --seed 7 -o maze.schem
  blockmaze generate 30x30 --wall 2 --passage 3 --height 4 --roof -o big.schem
  blockmaze generate 40x40 -a wilson --braid 0.3 --entrances --solution -o maze.schem
  blockmaze generate 40x40 -a growing-tree:0.75 --seed 3 -o maze.json
  blockmaze export maze.json --schem-version 3 --mc-version 1.21.4 -o maze.schem
  blockmaze generate 5000x5000 -a eller -o MyMaze/ --format world     a world save, streamed
  blockmaze blockwise 40x30 --seed 5 -o exact.schem     exactly 40x30 blocks
  blockmaze blockwise 64x64 --mode relaxed --ordering prim -o relaxed.litematic
  blockmaze dungeon 40x60 --seed 3 --min-shortcut 20 -o level.tmx
  blockmaze dungeon 40x60 --style caves --spawns 8:4:2 --lock -o level.ldtk
  blockmaze info maze.schem
"""


def _algorithm_help() -> str:
    return "Generation algorithm (listed below), NAME or NAME:OPTION."


def _algorithm_list() -> str:
    """The algorithms, one per line with their summaries, for the end of a command's help."""
    rows = []
    for name in sorted(ALGORITHMS):
        algorithm = ALGORITHMS[name]
        spec = name + (f"[:{'|'.join(algorithm.options)}]" if algorithm.options else "")
        kinds = "" if algorithm.grid_kinds is None else f" ({'/'.join(sorted(algorithm.grid_kinds))} only)"
        rows.append(f"  {spec}\n      {algorithm.summary}{kinds}")
    return "\n\b\nAlgorithms:\n" + "\n".join(rows) + "\n"


def maze_options(command):
    """Options that decide the maze itself."""
    for option in reversed([
        click.option("-a", "--algorithm", type=AlgorithmSpec(), default="backtracker",
                     show_default=True, help=_algorithm_help()),
        click.option("-s", "--seed", type=click.IntRange(0, MAX_SEED), default=None,
                     help="Seed: the same seed gives the same maze and the same file. "
                          "Drawn at random (and reported) if omitted."),
        click.option("--braid", type=Finite(0, 1), default=0.0, show_default=True,
                     help="Share of dead ends to remove by opening a wall (0 = a perfect maze)."),
        click.option("--entrances/--no-entrances", default=False, show_default=True,
                     help="Start and goal on the outer wall, with openings cut there; "
                          "otherwise they are the two ends of the longest path."),
    ]):
        command = option(command)
    return command


def thickness_options(command, default: str = "1", auto: bool = False):
    """--wall and --passage: block thickness of walls and passages, per axis (by default ``default``;
    without ``auto`` the passage's default is left to the maze's kind, see ``passage_for``)."""
    extra = ", or auto to fit the size exactly" if auto else ""
    for option in reversed([
        click.option("--wall", type=Dimensions("wall thickness", "2 or 1x2", auto), default=default,
                     show_default=True, metavar="N|ZxX" + ("|auto" if auto else ""),
                     help="Wall thickness in blocks: N, or ZxX to differ along z (north-south) "
                          f"and x (east-west){extra}."),
        click.option("--passage", type=Dimensions("passage thickness", "3 or 2x3", auto),
                     default=default if auto else None,
                     show_default=True if auto else f"{default}, 2 for layered mazes (spiral stairs)",
                     metavar="N|ZxX" + ("|auto" if auto else ""),
                     help=f"Passage width in blocks: N, or ZxX{extra}."),
    ]):
        command = option(command)
    return command


def _memory_limit(ctx, param, value) -> None:
    """--memory-limit: the limit for this run (checked now), put back as it was when it ends."""
    if value is None:
        return
    set_memory_limit(value)  # (main puts the variable back when the run ends)


def output_options(command):
    """Options that decide what is written and how blocks are stood up and drawn."""
    formats = sorted(FORMATS)
    for option in reversed([
        click.option("--height", type=click.IntRange(min=1), default=3, show_default=True,
                     help="Wall height in blocks."),
        click.option("--floor/--no-floor", default=True, show_default=True,
                     help="Lay a floor under the maze."),
        click.option("--roof/--no-roof", default=False, show_default=True,
                     help="Put a roof over the maze."),
        click.option("--scale", type=click.IntRange(min=1), default=None,
                     help="Hex, upsilon, triangle and polar mazes: blocks per unit of cell size "
                          "(at least: hex 3, upsilon 4, polar 4, triangle 5; default 4, or the "
                          "kind's least if larger; printed mazes use the least)."),
        click.option("--lights/--no-lights", default=False, show_default=True,
                     help="Set light blocks into the floor so every walkable block has block "
                          "light >= 1 (no hostile mob spawns in the passages)."),
        click.option("--solution/--no-solution", default=False, show_default=True,
                     help="Mark the path from start to goal (PATH, START and GOAL materials)."),
        click.option("--theme", default=DEFAULT_THEME, show_default=True, metavar="NAME|FILE",
                     help=f"Block theme: one of {', '.join(theme_names())}, or a theme JSON file."),
        click.option("--mc-version", type=click.Choice(list(DATA_VERSIONS)),
                     default=DEFAULT_MC_VERSION, show_default=True, metavar="VERSION",
                     help=f"Minecraft Java release the file is for: {', '.join(DATA_VERSIONS)}."),
        click.option("--schem-version", type=click.Choice(["2", "3"]), default="2",
                     show_default=True,
                     help="Sponge schematic version: 2 loads everywhere, 3 is WorldEdit 7.3's own."),
        click.option("--keep-terrain/--carve-terrain", default=False, show_default=True,
                     help="Structure files, datapacks and .mts: leave the world's blocks where "
                          "the maze has air (default: air is placed, carving through terrain)."),
        click.option("--tile-encoding", type=click.Choice(["csv", "base64", "base64-zlib", "base64-gzip"]),
                     default="csv", show_default=True, help="Tiled maps (.tmx, .tmj): layer data encoding."),
        click.option("--external-tileset/--embedded-tileset", default=False, show_default=True,
                     help="Tiled maps: write the tile set as its own .tsx/.tsj file beside the map."),
        click.option("--block-size", type=Finite(min=0, min_open=True), default=None,
                     help="Meshes: the size of a block, in metres for .glb/.gltf/.obj/.ply "
                          "(default 1) and millimetres for .stl (default 5)."),
        click.option("--raw-mesh/--watertight-mesh", default=False, show_default=True,
                     help="Meshes: the plain greedy mesh (fewer triangles, for rendering only) "
                          "instead of a watertight, manifold one."),
        click.option("--collision/--no-collision", default=False, show_default=True,
                     help="glTF: add a collision node of merged boxes (Godot imports it by its "
                          "-colonly name)."),
        click.option("--chunk", type=click.IntRange(min=0), default=128, show_default=True,
                     help="glTF: a node per chunk of this many blocks a side and material (0: none)."),
        click.option("--quantize/--no-quantize", default=None,
                     help="glTF: integer vertices, a smaller file that requires KHR_mesh_quantization: "
                          "Unity glTFast, Blender, three.js and Babylon.js read it (Unreal 5.1+ lists it), "
                          "Godot 4 refuses it. Default: plain floats, which every engine reads "
                          "(--compress meshopt quantizes unless --no-quantize)."),
        click.option("--compress", type=click.Choice(["none", "meshopt"]), default="none",
                     show_default=True, help="glTF: EXT_meshopt_compression, the smallest file, for "
                                             "three.js, Babylon.js and Unity glTFast (needs the "
                                             "meshoptimizer package: pip install meshoptimizer, "
                                             "or pip install '.[meshopt]' in a checkout)."),
        click.option("--uv/--no-uv", default=False, show_default=True,
                     help="glTF: world-space UVs in blocks, for a tiling texture."),
        click.option("-f", "--format", "format_", type=FormatChoice(formats), default=None,
                     help="Output format; by default the suffix of --output decides "
                          "(.json: a maze document)."),
        click.option("--picture-style", type=click.Choice(list(PICTURE_STYLES)), default="walls",
                     show_default=True, help="Pictures (.png, .svg): lines are walls, lines are "
                                             "paths, or filled blocks."),
        click.option("--cell-size", type=Finite(min=1), default=16, show_default=True,
                     help="Pictures: pixels per cell."),
        click.option("--shade/--no-shade", default=False, show_default=True,
                     help="Pictures: colour each cell by its distance from the start."),
        click.option("--text-style", type=click.Choice(list(STYLES)), default="box",
                     show_default=True, help="How the maze is drawn when no --output is given."),
        click.option("-o", "--output", type=FilePath(allow_dash=True),
                     default=None, help="File to write (- for standard output, with --format). "
                                        "Without it the maze is printed. A world (--format "
                                        "world) is a folder."),
        # worlds (--format world / world-zip) and split schematics
        click.option("--terrain", type=click.Choice(["void", "flat", "grass"]), default="grass",
                     show_default=True, help="Worlds: the ground around and under the maze."),
        click.option("--y", "y", type=click.IntRange(-64, 319), default=-60, show_default=True,
                     help="Worlds: the height of the maze's lowest layer (the grass is at y-1)."),
        click.option("--mobs/--no-mobs", default=False, show_default=True,
                     help="Worlds: let mobs spawn (game rule doMobSpawning)."),
        click.option("--time", type=click.IntRange(min=-1, max=2 ** 63 - 1), default=6000, show_default=True,
                     help="Worlds: fixed time of day in ticks (6000 = noon); -1 lets days pass."),
        click.option("--split", type=click.IntRange(min=16), default=None, metavar="N",
                     help=".schem: write tiles of at most NxN blocks (name_x<X>_z<Z>.schem)."),
        click.option("--memory-limit", metavar="SIZE", default=None, expose_value=False,
                     callback=_memory_limit,
                     help="Refuse, before any work, a job that needs more memory than SIZE "
                          "(e.g. 512M, 8G; default: the memory available, or the environment's "
                          "BLOCKMAZE_MEMORY_LIMIT)."),
    ]):
        command = option(command)
    return command


@click.group(cls=SuggestingGroup, context_settings={"help_option_names": ["-h", "--help"]}, epilog=EXAMPLES)
@click.version_option(__version__, "-V", "--version", prog_name="blockmaze")
@click.option("-v", "--verbose", is_flag=True, help="Say more: warnings about numba's cache, "
                                                    "a traceback for internal errors.")
@click.option("-q", "--quiet", is_flag=True, help="Say less: no progress, no summary of what "
                                                  "was written (warnings and errors still).")
def cli(verbose, quiet):
    """Make mazes and turn them into Minecraft schematics and other block files."""
    _settings.update(verbose=verbose, quiet=quiet and not verbose)
    if not verbose:
        warnings.filterwarnings("ignore", message="numba cannot cache")
    if not _settings["quiet"] and _is_terminal(sys.stderr):
        click.get_current_context().with_resource(progress.show_progress(sys.stderr))


@cli.command("generate", cls=SectionedCommand, epilog=_algorithm_list() + EXAMPLES)
@click.argument("size", type=Size(), metavar="SIZE")
@click.option("-g", "--grid", "kind", type=click.Choice(sorted(GRID_KINDS)), default="square",
              show_default=True, help="Cell shape. SIZE is ROWSxCOLS, RINGS for polar, "
                                      "LEVELSxROWSxCOLS for layered; axis letters name the "
                                      "numbers in any order (30Cx20R, 3Hx20Rx30C).")
@click.option("--mask", type=FilePath(exists=True, dir_okay=False), default=None,
              help="Cells to leave out: a text file (X = off) or a black-and-white picture "
                   "(black = off).")
@click.option("--weave", type=Finite(0, 1), default=0.0, show_default=True,
              help="With -g weave: the chance that a cell is a crossing, where a passage may go "
                   "under it (0 = none; -a kruskal:weave uses most of them). Blocks need --wall 4 "
                   "or more (the default there; 3 with --bridges): stairs fit in the walls.")
@click.option("--animate/--no-animate", default=False, show_default=True,
              help="Printed mazes: replay the carve in the terminal first (plain output when "
                   "standard output is not a terminal).")
@click.option("--fps", type=click.IntRange(1, 240), default=30, show_default=True,
              help="--animate: frames a second.")
@maze_options
@thickness_options
@output_options
@click.option("--bridges/--tunnels", default=False, show_default=True,
              help="Weave mazes in blocks: raise each crossing as a bridge over the passage "
                   "below (walls --height 5 or more), or dig that passage as a tunnel under it.")
def generate_command(size, kind, mask, weave, animate, fps, algorithm, seed, braid, entrances,
                     **output):
    """Generate a maze of SIZE cells and print it or write it to a file (a block file or a .json maze)."""
    from .pipeline import check_fits, make_maze, passage_for
    from .randomness import draw_seed
    from .streaming import should_stream

    shape = grid_shape(kind, size)
    output["passage"] = passage_for(kind, output["passage"])
    _weave_wall(kind, output)
    if output["lights"] and not output["floor"]:
        raise BlockmazeError("--lights go into the floor: drop --no-floor")
    writer = _writer(output)
    if writer is not None:
        check_fits(writer, kind, shape, wall=output["wall"], scale=output["scale"],
                   passage=output["passage"], height=output["height"], floor=output["floor"],
                   roof=output["roof"])
        load_theme(output["theme"])
    _warn_unused(writer, kind=kind)
    if seed is None:
        seed = draw_seed()
    if writer is not None and should_stream(
            writer, kind, shape, mask=mask, algorithm=algorithm, braid=braid, entrances=entrances,
            solution=output["solution"], lights=output["lights"], wall=output["wall"],
            passage=output["passage"], height=output["height"], split=output["split"]):
        return _write_streamed(shape, algorithm, seed, writer, **output)
    if animate and writer is None and kind != "layered" and _is_terminal(sys.stdout):
        from .replay import carve_frames, play, recorded_maze

        document, order, _ = recorded_maze(shape, kind, algorithm, seed, braid, entrances, mask,
                                           weave)
        style = output["text_style"]
        play(carve_frames(document, order, max(1, -(-len(order) // (4 * fps))), style,
                          _plan_style(style)), fps)  # about four seconds, then the maze itself
    else:
        document = make_maze(shape, kind, algorithm, seed, braid, entrances, mask, weave)
    _emit(document, writer, **output)


def _weave_wall(kind: str, output: dict) -> None:
    """Weave mazes' walls default to 4 blocks: their tunnels' (or bridges') stairs fit in them."""
    if kind == "weave" and click.get_current_context().get_parameter_source("wall").name == "DEFAULT":
        from .blocks.weave import TUNNEL_WALL

        output["wall"] = TUNNEL_WALL


@cli.command("export", cls=SectionedCommand, epilog=EXAMPLES)
@click.argument("document", type=FilePath(exists=True, dir_okay=False), metavar="MAZE.json")
@thickness_options
@output_options
@click.option("--bridges/--tunnels", default=False, show_default=True,
              help="Weave mazes in blocks: raise each crossing as a bridge over the passage "
                   "below (walls --height 5 or more), or dig that passage as a tunnel under it.")
def export_command(document, **output):
    """Write a saved maze document (from generate -o maze.json) in any format, or print it."""
    from .documents import load_maze

    writer = _writer(output)
    if writer is not None:
        load_theme(output["theme"])
    loaded = load_maze(document)
    _weave_wall(loaded.maze.grid.kind, output)
    _warn_unused(writer, kind=loaded.maze.grid.kind)
    _emit(loaded, writer, **output)


@cli.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; any other than 127.0.0.1 lets other machines in.")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True,
              help="Port to listen on.")
@click.option("--open/--no-open", "open_browser", default=False, show_default=True,
              help="Open the page in the default browser.")
@click.option("--max-cells", type=click.IntRange(min=1), default=250_000, show_default=True,
              help="Most maze cells one request may ask for.")
@click.option("--max-blocks", type=click.IntRange(min=1), default=20_000_000, show_default=True,
              help="Most blocks one request may build.")
@click.option("--rate", type=click.IntRange(min=1), default=1200, show_default=True,
              help="Most requests a client may make a minute.")
def serve_command(host, port, open_browser, max_cells, max_blocks, rate):
    """Start blockmaze studio, a local web page to design, watch, preview and download mazes
    (pip install 'blockmaze[web]')."""
    from .web import require_web, serve

    require_web()
    from .web.app import Settings
    from .web.jobs import Limits

    serve(host, port, open_browser, announce=click.echo,
          settings=Settings(Limits(cells=max_cells, blocks=max_blocks), rate=rate))


@cli.command("info", cls=SectionedCommand, epilog=EXAMPLES)
@click.argument("path", type=FilePath(exists=True), metavar="FILE|WORLD")
def info_command(path):
    """Show what a file blockmaze wrote holds: format, size, and blocks, tiles or triangles.

    Reads every format blockmaze writes, in bounded memory and time (at most 256 MiB of
    inflated data; env BLOCKMAZE_INFO_LIMIT raises it). A world save (folder or .zip) is
    summarised too: release, spawn, extent and blocks."""
    from .readers.worldinfo import is_world, summarize_world
    from .info import inspect_file

    if is_world(path):
        click.echo("\n".join(summarize_world(path)))
        return

    click.echo("\n".join(inspect_file(path).lines()))


@cli.command("blockwise", cls=SectionedCommand, epilog=_algorithm_list() + EXAMPLES)
@click.argument("size", type=Size(), metavar="[HEIGHTx]ROWSxCOLS")
@click.option("--mode", type=click.Choice(["strict", "relaxed"]), default="strict", show_default=True,
              help="strict: cells on odd blocks, passages carved between (any algorithm); relaxed: "
                   "every block may be a cell, 1-block passages that never touch.")
@click.option("-a", "--algorithm", type=AlgorithmSpec(), default="backtracker", show_default=True,
              help="strict mode: " + _algorithm_help())
@click.option("--ordering", default="backtracker", show_default=True,
              help="relaxed mode: backtracker, prim, or growing-tree[:R|newest|random|oldest].")
@click.option("--cells", type=Dimensions("cells", "10x20"), default=None, metavar="ROWSxCOLS",
              help="strict mode: how many cells (otherwise as many as fit).")
@click.option("--border/--no-border", default=True, show_default=True,
              help="relaxed mode: keep a solid outer ring.")
@click.option("--fill", type=click.Choice([m.name.lower() for m in Material
                                           if m and m < Material.MONSTER]), default=None,  # not spawns
              help="relaxed mode: material for dead solid blocks (solid on all four sides).")
@click.option("-s", "--seed", type=click.IntRange(0, MAX_SEED), default=None,
              help="Seed (drawn at random and reported if omitted).")
@functools.partial(thickness_options, default="auto", auto=True)
@output_options
def blockwise_command(size, mode, algorithm, ordering, cells, border, fill, seed, wall, passage,
                      scale, solution, text_style, output, picture_style, cell_size, shade,
                      **settings):
    """Generate a maze exactly ROWSxCOLS blocks (rows north-south along z, columns east-west
    along x), or HEIGHTxROWSxCOLS for a strict 3-D maze that climbs, and print it or write it to
    a file. Axis letters name the numbers in any order: 41Wx31L is 31x41."""
    from .blockwise.relaxed import relaxed_layout
    from .blockwise.strict import strict_plan, strict_volume_3d
    from .randomness import draw_seed
    from .render import plan_text

    if len(size) not in (2, 3) or (len(size) == 3 and mode != "strict"):
        raise BlockmazeError("blockwise sizes are ROWSxCOLS blocks, or HEIGHTxROWSxCOLS for a "
                             "strict 3-D maze")
    if solution:
        raise BlockmazeError("--solution marks graph mazes; use blockmaze generate for it")
    writer = _writer({"output": output, "format_": settings["format_"]})
    if writer is not None and writer.source == "maze":
        raise BlockmazeError("a blockwise maze is blocks: choose a block format, not a maze document or picture")
    _warn_unused(writer, command="blockwise", mode=mode)
    if seed is None:
        seed = draw_seed()
    length, width = size[-2:]
    if mode == "relaxed":
        layout = relaxed_layout(length, width, ordering, seed, border,
                                None if fill is None else Material[fill.upper()])
        blocks, what = layout.plan, f"relaxed {ordering}"
        _info(f"dead solid blocks: {layout.dead_share:.1%} of solid blocks")
    elif len(size) == 3:
        blocks = strict_volume_3d(size[0], length, width, algorithm, seed, _axes(wall, 3),
                                  _axes(passage, 3), cells)
        what = f"strict 3-D {algorithm}"
    else:
        blocks = strict_plan(length, width, algorithm, seed, wall, passage, cells)
        what = f"strict {algorithm}"
    if output is None:
        if blocks.ndim == 3:
            raise BlockmazeError("a 3-D maze cannot be printed: write it with -o FILE")
        click.echo(plan_text(blocks, style=_plan_style(text_style)))
        _info(f"seed {seed}")
    else:
        _save_blocks(blocks, writer, output, seed, what, f", seed {seed}", **settings)
    _note_size_order(size)  # (after the work: an error stays one line)


@cli.command("dungeon", cls=SectionedCommand, epilog=_algorithm_list() + EXAMPLES)
@click.argument("size", type=Dimensions("size", "40x60"), metavar="ROWSxCOLS")
@click.option("-a", "--algorithm", type=AlgorithmSpec(), default="backtracker", show_default=True,
              help="Algorithm that grows the corridors between the rooms.")
@click.option("--room-size", default="2:5", show_default=True, metavar="MIN:MAX",
              help="Room side in cells, from MIN to MAX.")
@click.option("--room-attempts", type=click.IntRange(min=0), default=None,
              help="Rooms tried (overlapping ones are dropped); default fills about half the area.")
@click.option("--extra-doors", type=Finite(0, 1), default=0.0, show_default=True,
              help="Chance of each further door between regions (0 = exactly one way between them).")
@click.option("--sparseness", type=Finite(0, 1), default=1.0, show_default=True,
              help="Share of dead-end corridor removed (1 = no dead ends).")
@click.option("--min-shortcut", type=click.IntRange(min=1), default=None,
              help="Add loops, each only where it shortens a walk by at least this many blocks.")
@click.option("--levels", type=click.IntRange(1, MAX_LEVELS), default=1, show_default=True,
              help="Levels joined by stairs: one stacked volume in block formats; in tile maps each "
                   "level is its own file (name-1, name-2, ...).")
# issue 18: level styles, spawns, lock and key
@click.option("--style", type=click.Choice(DUNGEON_STYLES), default="rooms-and-mazes", show_default=True,
              help="Level style (the corridor options above shape rooms-and-mazes only).")
@click.option("--spawns", default=None, metavar="MONSTERS:ITEMS:TREASURE",
              help="Mark spawn points: monsters by distance from the start, items in room centres, treasure in dead ends.")
@click.option("--spawn-spacing", type=click.IntRange(min=1), default=5, show_default=True,
              help="Least distance in blocks between spawn points.")
@click.option("--lock/--no-lock", default=False, show_default=True,
              help="A locked door on the only way to the goal, its key on the near side.")
@click.option("-s", "--seed", type=click.IntRange(0, MAX_SEED), default=None,
              help="Seed (drawn at random and reported if omitted).")
@output_options
def dungeon_command(size, algorithm, room_size, room_attempts, extra_doors, sparseness,
                    min_shortcut, levels, style, spawns, spawn_spacing, lock, seed, scale, text_style,
                    output, picture_style, cell_size, shade, solution=False, **settings):
    """Generate a roguelike dungeon: rooms and mazes, caves, BSP rooms, dug rooms, or a mix."""
    from .dungeon import generate_dungeon, parse_spawns
    from .dungeon.metrics import metrics_text
    from .randomness import draw_seed
    from .render import plan_text

    low, _, high = room_size.partition(":")
    if not all(re.fullmatch(NUMBER, n.strip()) for n in (low, high or low)) \
            or not 1 <= int(low) <= int(high or low):
        raise BlockmazeError(f"--room-size must be MIN:MAX cells with 1 <= MIN <= MAX, e.g. 2:5, "
                             f"got {room_size!r}")
    sizes = (int(low), int(high or low))
    most = max(100_000, size[0] * size[1])  # more attempts than cells place no further room
    if room_attempts is not None and room_attempts > most:
        raise BlockmazeError(f"--room-attempts is at most {most} for a {size[0]}x{size[1]} "
                             f"dungeon, got {room_attempts}")
    writer = _writer({"output": output, "format_": settings["format_"]})
    if writer is not None and writer.source == "maze":
        raise BlockmazeError("a dungeon is blocks: choose a block or tile format, not a maze document or picture")
    if writer is not None:  # several levels to a stream: refused before any work
        from .pipeline import level_paths

        level_paths(output, levels, writer)
    _warn_unused(writer, command="dungeon")
    if seed is None:
        seed = draw_seed()
    with progress.phase("generating"):
        dungeon = generate_dungeon(size, seed, algorithm=algorithm, room_size=sizes,
                                   room_attempts=room_attempts, extra_doors=extra_doors,
                                   sparseness=sparseness, min_shortcut=min_shortcut, levels=levels,
                                   style=style, spawns=parse_spawns(spawns), spacing=spawn_spacing,
                                   lock=lock)
    for number, level in enumerate(dungeon.levels, 1):
        _info(f"level {number}: {metrics_text(level.metrics)}")
    if output is None:
        shown = _plan_style(text_style)
        click.echo("\n\n".join(plan_text(level.plan, style=shown) for level in dungeon.levels))
        _info(f"seed {seed}")
        return
    if levels > 1 and not writer.plan:  # one volume: the levels stacked, joined by their stairs
        from .blocks import stack_dungeon

        blocks = stack_dungeon(dungeon, settings["height"], settings["floor"], settings["roof"])
        _save_blocks(blocks, writer, output, seed, f"{levels} levels", f", seed {seed}", **settings)
        return
    _save_levels([(level.plan if writer.plan else level.marked_plan, f"level {number}, {len(level.rooms)} rooms",
                   {"entities": level.entities, "metrics": level.metrics})
                  for number, level in enumerate(dungeon.levels, 1)], writer, output, seed, **settings)


def _save_levels(levels, writer, output, seed, **settings) -> None:
    """Write ``(plan, what, extra)`` levels, one file each (see ``pipeline.level_paths``), all or none."""
    from .pipeline import level_paths

    with transaction(to_stdout=output == "-"):  # every level, or none
        for (plan, what, extra), path in zip(levels, level_paths(output, len(levels), writer)):
            _save_blocks(plan, writer, str(path), seed, what, f", seed {seed}", extra=extra, **settings)


dungeon_command.params = [p for p in dungeon_command.params if p.name != "solution"]


def _plan_style(text_style: str) -> str:
    """Block plans print block for block ('blocks') unless --text-style was given."""
    chosen = click.get_current_context().get_parameter_source("text_style")
    return text_style if chosen == click.core.ParameterSource.COMMANDLINE else "blocks"


def _axes(value, count: int):
    """A thickness for ``count`` axes: None (auto), or a per-axis tuple from N or ZxX."""
    if value is None:
        return None
    return (value[0],) * (count - len(value)) + tuple(value)


def _writer(output: dict):
    """The writer the output options ask for (None when the maze is printed)."""
    if output["output"] is None:
        if output["format_"] is not None:
            raise BlockmazeError("--format needs --output FILE")
        return None
    if output["output"] == "-" and output["format_"] is None:
        raise BlockmazeError("-o - (standard output) needs --format NAME: the format cannot "
                             "be told from a file name")
    writer = writer_for(output["output"], output["format_"])
    if writer.name == "mtl":  # a companion file alone: the OBJ it belongs to is never written
        raise BlockmazeError("a .mtl is the material library an .obj writes beside it: write "
                             "NAME.obj (its NAME.mtl comes with it)")
    return writer


def _warn_unused(writer, **where) -> None:
    """Warn about each option given on the command line that this run does not use."""
    ctx = click.get_current_context()
    given = {name for name in ctx.params
             if ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE}
    flags = {p.name: max(p.opts, key=len) for p in ctx.command.params}
    for name, what in unused_options(given, writer, **where).items():
        warnings.warn(f"{flags.get(name, name)} does not apply to {what}; ignored", UnusedOptionWarning)


class UnusedOptionWarning(UserWarning):
    """An option was given that the run does not use."""


def _note_size_order(size) -> None:
    """Say once, where it matters, that an unlabelled blockwise size is read in the one axis order
    (it was WxL[xH], x first, before 0.2)."""
    if not getattr(size, "labelled", False) and size[0] != size[-1]:
        typed = "x".join(map(str, size))
        old = "x".join(f"{n}{a}" for n, a in zip(size, "WLH"))
        _info(f"note: blockwise sizes are [HEIGHTx]ROWSxCOLS, as for generate (they were WxL[xH] "
              f"before 0.2): {typed} is read so; for the old reading write {old}")


def _info(message: str) -> None:
    """Say what was done on stderr (not under -q)."""
    if not _settings["quiet"]:
        progress.clear()
        click.echo(message, err=True)


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _emit(document, writer, *, wall, passage, scale, solution, text_style, output,
          picture_style, cell_size, shade, **settings) -> None:
    """Print the maze, or save it in the output's format (blocks, picture or document)."""
    from .pipeline import maze_text

    if output is None:
        click.echo(maze_text(document, solution=solution, style=text_style,
                             plan_style=_plan_style(text_style)))
        if document.seed is not None:
            _info(f"seed {document.seed}")
        return
    maze = document.maze
    origin = f", {document.algorithm}" if document.algorithm else ""
    origin += f", seed {document.seed}" if document.seed is not None else ""
    what = f"{maze.grid.kind} {'x'.join(map(str, maze.grid.shape))}"
    if writer.source == "maze":
        _save(document, writer, output, solution=solution, style=picture_style,
              cell_size=cell_size, shade=shade, theme=settings["theme"])
        written = f"maze document, {what} cells" if writer.name == "maze" else f"picture of a {what} maze"
        _info(f"wrote {_shown(output)}: {written}{origin}")
        return
    if writer.plan and maze.grid.kind == "layered":  # a tile map a level, stairs as entities
        from .pipeline import level_paths

        levels = len(_save(document, writer, output, wall=wall, passage=passage, solution=solution,
                           **settings))
        paths = level_paths(output, levels, writer)
        written = _shown(str(paths[0])) + (f" ... {Path(paths[-1]).name}" if levels > 1 else "")
        _info(f"wrote {written}: {levels} level{'s' * (levels > 1)} of a {what} maze"
              f"{', a file each' * (levels > 1)}{origin}")
        return
    _save_blocks(document, writer, output, document.seed, f"{what} cells", origin, wall=wall,
                 passage=passage, scale=scale, solution=solution, **settings)


def _write_streamed(shape, algorithm, seed, writer, *, output, wall, passage, height, floor, roof,
                    theme, mc_version, schem_version, terrain, y, mobs, time, split, **ignored) -> None:
    """A square maze generated row by row straight into a band writer (a world, a .schem)."""
    from .streaming import write_streamed

    given = {"mc_version": mc_version, "terrain": terrain, "y": y, "mobs": mobs,
             "time": None if time < 0 else time, "schem_version": int(schem_version)}
    layers, z, x = write_streamed(output, *shape, algorithm, seed, writer.name, wall, passage, height,
                                  floor, roof, theme, split,
                                  **{k: v for k, v in given.items() if k in writer.options})
    where = f"tiles of at most {split}x{split} blocks beside {output}" if split else output
    _info(f"wrote {where}: square {'x'.join(map(str, shape))} cells, streamed, {x}x{layers}x{z} "
          f"blocks (width x height x length), {algorithm}, seed {seed}")


def _save_blocks(source, writer, output, seed, what, origin, *, height, floor, roof, lights,
                 theme, mc_version, schem_version, keep_terrain, tile_encoding, external_tileset,
                 block_size, raw_mesh, collision, chunk, quantize, compress, uv, format_, terrain,
                 y, mobs, time, split, extra=None, **build) -> None:
    """Save blocks (or a maze, built first) in a block format, and say what was written.
    ``extra``: options only some writers take (a dungeon level's entities and metrics)."""
    given = {"mc_version": mc_version, "schem_version": int(schem_version), "seed": seed,
             "keep_terrain": keep_terrain, "encoding": tile_encoding,
             "external_tileset": external_tileset, "watertight": not raw_mesh,
             "collision": collision, "block_size": block_size, "terrain": terrain, "y": y,
             "mobs": mobs, "time": None if time < 0 else time, "chunk": chunk,
             "quantize": quantize, "compress": None if compress == "none" else compress, "uv": uv,
             **(extra or {})}
    if split is not None:
        if writer.name != "schem":
            raise BlockmazeError(f"--split cuts .schem files into tiles; {writer.name} does not take it")
        from .export.minecraft.sponge import write_schem_tiles
        from .pipeline import build as build_volume, stand_up

        volume = (build_volume(source.maze, source.endpoints, height=height, floor=floor, roof=roof,
                               lights=lights, **build)
                  if hasattr(source, "maze") else stand_up(source, height=height, floor=floor,
                                                           roof=roof, lights=lights))
        files = write_schem_tiles(volume, output, load_theme(theme), split, mc_version,
                                  int(schem_version), seed)
        _info(f"wrote {len(files)} tiles {files[0].name} ... {files[-1].name}: {what}{origin}")
        return
    volume = _save(source, writer, output, height=height, floor=floor, roof=roof, lights=lights,
                   theme=theme, **build, **given)
    y, z, x = volume.shape
    _info(f"wrote {_shown(output)}: {what}, {x}x{y}x{z} blocks (width x height x length){origin}")
    from .export.minecraft.placement import placement_hint

    hint = placement_hint(volume, writer.name, Path(output).stem.lower())
    if hint:
        _info(f"to place it: {hint}")


def _save(source, writer, output, **given):
    """pipeline.save with the options this writer takes (build options always pass)."""
    from .pipeline import BUILD_OPTIONS, save

    options = {k: v for k, v in given.items()
               if (k in BUILD_OPTIONS or k in writer.options) and v is not None}
    return save(source, STDOUT if output == "-" else output, writer.name, **options)


def _shown(output: str) -> str:
    return "standard output" if output == "-" else output


_settings = {"verbose": False, "quiet": False}


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    progress.clear()
    click.echo(f"Warning: {message}", err=True)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit code, with one ``Error:`` line on failure:
    2 for bad usage, 1 for a bad input file or an output that could not be written, 130 (or
    128 + the signal) when stopped, 0 otherwise."""
    _settings.update(verbose=False, quiet=False)
    # numpy's BLAS threads start at its import: they inherit a mask holding the stop signals,
    # so only the main thread takes them (and a run's renames can defer them)
    before = block_signals_in_new_threads()
    with contextlib.suppress(AttributeError, ValueError):  # messages never fail on a file name
        sys.stderr.reconfigure(errors="backslashreplace")
    limit = os.environ.get(MEMORY_LIMIT)  # --memory-limit is for this run only, even one refused
    try:
        with warnings.catch_warnings(), signals_raise(), stop_within():
            warnings.showwarning = _show_warning
            code = _run(argv, before)
    finally:
        restore_signals(before)
        if limit is None:
            os.environ.pop(MEMORY_LIMIT, None)
        else:
            os.environ[MEMORY_LIMIT] = limit
    try:
        sys.stdout.flush()
    except OSError as error:
        _silence_stdout()
        if code == 0:
            code = _fail(f"cannot write to standard output: {error.strerror or error}", 1)
    return code


def _run(argv, before=None) -> int:
    try:
        args = sys.argv[1:] if argv is None else list(argv)
        if args and not {"--help", "-h", "--version"} & set(args):  # help stays fast
            import numpy  # noqa: F401 (its threads start here, with the stop signals held)
        take_signals_here(before)
        result = cli.main(args=argv, prog_name="blockmaze", standalone_mode=False)
        sys.stdout.flush()
        return result if isinstance(result, int) else 0
    except click.exceptions.Exit as done:
        return done.exit_code
    except click.exceptions.NoArgsIsHelpError as error:  # no arguments: the help, as --help
        click.echo(error.ctx.get_help())
        return 0
    except (KeyboardInterrupt, click.exceptions.Abort) as stop:
        stop = stop.__cause__ or stop  # click turns Ctrl-C into Abort
        if isinstance(stop, Interrupted) and stop.written:
            names = ", ".join(str(path) for path in stop.written[:3])
            more = f" and {len(stop.written) - 3} more" if len(stop.written) > 3 else ""
            return _fail(f"stopped by signal {stop.signum} after the renames finished: wrote "
                         f"{names}{more}", 128 + stop.signum)
        if isinstance(stop, Interrupted):
            return _fail(f"stopped by signal {stop.signum}; no file was changed",
                         128 + stop.signum)
        return _fail("interrupted; no file was changed", 130)
    except (BadFileError, OutputError) as error:
        return _fail(str(error), 1)
    except UnicodeEncodeError as error:  # a maze's box drawing to a latin-1 standard output
        return _fail(f"standard output's encoding ({error.encoding}) cannot show these characters: "
                     "use --text-style ascii, or set PYTHONIOENCODING=utf-8", 1)
    except click.ClickException as error:
        return _fail(error.format_message(), error.exit_code)
    except BlockmazeError as error:
        return _fail(str(error), 2)
    except MemoryError:
        return _fail("not enough memory for a maze this large; choose a smaller size", 1)
    except OSError as error:  # standard output closed or full, mostly
        where = f" {error.filename}" if error.filename else " to standard output"
        _silence_stdout()
        return _fail(f"cannot write{where}: {error.strerror or error}", 1)
    except RecursionError:
        return _fail("the input is nested too deeply", 1)
    except Exception as error:  # a bug: still one line, and the traceback under -v
        if isinstance(error, SystemError) and isinstance(error.__cause__ or error.__context__,
                                                          KeyboardInterrupt):
            return _fail("interrupted; no file was changed", 130)  # Ctrl-C inside a kernel's call
        if _settings["verbose"]:
            traceback.print_exc()
        return _fail(f"internal error ({type(error).__name__}: {error}); please report it "
                     "with the command line (-v shows the traceback)", 1)


def _fail(message: str, code: int) -> int:
    progress.clear()
    try:
        click.echo("Error: " + " ".join(str(message).split()), err=True)
    except OSError:
        pass
    return code


def _silence_stdout() -> None:
    """Point a broken standard output at /dev/null, so Python's exit does not fail on it."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # io.UnsupportedOperation is both
        pass


if __name__ == "__main__":
    sys.exit(main())
