"""The ``blockmaze`` command: parses options, wires the pipeline stages, reports errors in one line."""

from __future__ import annotations

import functools
import re
import sys
import warnings
from pathlib import Path

import click
import numpy as np

from . import __version__
from .algorithms import ALGORITHMS, get_algorithm
from .blocks import extrude, plan_shape, to_blocks, volume_height
from .blocks.lights import place_lights
from .blocks.raster import min_scale, rasterize
from .blocks.relaxed import relaxed_layout
from .blocks.stack import stack_levels
from .blocks.strict import strict_plan, strict_volume_3d
from .braid import braid as braid_maze
from .documents import MazeDocument, load_maze, save_maze
from .endpoints import place_endpoints
from .errors import BlockmazeError
from .export import WRITERS, write, writer_for
from .export.minecraft.versions import DATA_VERSIONS, DEFAULT_MC_VERSION
from .dungeon import generate_dungeon
from .generation import generate, make_grid
from .grids import GRID_KINDS
from .masks import mask_from_image, mask_from_text, masked_grid
from .info import inspect_file
from .materials import DEFAULT_THEME, Material, load_theme, theme_names
from .randomness import as_generator
from .render import maze_text, plan_text
from .export.pictures import STYLES as PICTURE_STYLES, render_png, render_svg
from .render.text import STYLES

MAZE_FORMAT = "maze"  # a maze document (.json), not a block file
PICTURES = {"png": render_png, "svg": render_svg}  # pictures of the maze itself
IMAGE_SUFFIXES = {".png", ".gif", ".bmp", ".jpg", ".jpeg", ".webp"}


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
        match = re.fullmatch(r"\s*(\d+)\s*(?:[xX×]\s*(\d+)\s*)?", str(value))
        if not match or int(match[1]) < 1 or int(match[2] or match[1]) < 1:
            self.fail(f"{self.what} must be N or AxB with whole numbers >= 1 "
                      f"(e.g. {self.example}), got {value!r}", param, ctx)
        return int(match[1]), int(match[2] or match[1])


class Size(click.ParamType):
    """One to three whole numbers >= 1 joined by x: ``20x30``, ``12``, ``3x10x10``."""

    name = "SIZE"

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        parts = re.split(r"\s*[xX×]\s*", str(value).strip())
        if not 1 <= len(parts) <= 3 or not all(p.isdigit() and int(p) >= 1 for p in parts):
            self.fail(f"size must be whole numbers >= 1 joined by x (e.g. 20x30), got {value!r}",
                      param, ctx)
        return tuple(int(p) for p in parts)


# how many size numbers each grid kind takes, and what they mean
SIZE_FORMS = {"polar": (1, "RINGS"), "layered": (3, "LEVELSxROWSxCOLS")}


def grid_shape(kind: str, size: tuple[int, ...]) -> tuple[int, ...]:
    """The constructor shape of ``kind`` from the size the user typed (N means NxN for 2-D kinds)."""
    count, form = SIZE_FORMS.get(kind, (2, "ROWSxCOLS"))
    if count == 2 and len(size) == 1:
        size = size * 2
    if len(size) != count:
        raise BlockmazeError(f"a {kind} grid's size is {form}, got {'x'.join(map(str, size))}")
    return size


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
  blockmaze blockwise 40x30 --seed 5 -o exact.schem     exactly 40x30 blocks
  blockmaze blockwise 64x64 --mode relaxed --ordering prim -o relaxed.litematic
  blockmaze dungeon 40x60 --seed 3 --min-shortcut 20 -o level.tmx
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
        click.option("-s", "--seed", type=click.IntRange(min=0), default=None,
                     help="Seed: the same seed gives the same maze and the same file. "
                          "Drawn at random (and reported) if omitted."),
        click.option("--braid", type=click.FloatRange(0, 1), default=0.0, show_default=True,
                     help="Share of dead ends to remove by opening a wall (0 = a perfect maze)."),
        click.option("--entrances/--no-entrances", default=False, show_default=True,
                     help="Start and goal on the outer wall, with openings cut there; "
                          "otherwise they are the two ends of the longest path."),
    ]):
        command = option(command)
    return command


def thickness_options(command, default: str = "1", auto: bool = False):
    """--wall and --passage: block thickness of walls and passages, per axis."""
    extra = ", or auto to fit the size exactly" if auto else ""
    for option in reversed([
        click.option("--wall", type=Dimensions("wall thickness", "2 or 1x2", auto), default=default,
                     show_default=True, metavar="N|ZxX" + ("|auto" if auto else ""),
                     help="Wall thickness in blocks: N, or ZxX to differ along z (north-south) "
                          f"and x (east-west){extra}."),
        click.option("--passage", type=Dimensions("passage thickness", "3 or 2x3", auto),
                     default=default, show_default=True, metavar="N|ZxX" + ("|auto" if auto else ""),
                     help=f"Passage width in blocks: N, or ZxX{extra}."),
    ]):
        command = option(command)
    return command


def output_options(command):
    """Options that decide what is written and how blocks are stood up and drawn."""
    formats = sorted(WRITERS) + [MAZE_FORMAT] + sorted(PICTURES)
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
                     help="Structure files and datapacks: leave the world's blocks where the maze "
                          "has air (default: air is placed, carving through terrain)."),
        click.option("--tile-encoding", type=click.Choice(["csv", "base64", "base64-zlib", "base64-gzip"]),
                     default="csv", show_default=True, help="Tiled maps (.tmx, .tmj): layer data encoding."),
        click.option("--external-tileset/--embedded-tileset", default=False, show_default=True,
                     help="Tiled maps: write the tile set as its own .tsx/.tsj file beside the map."),
        click.option("--block-size", type=click.FloatRange(min=0, min_open=True), default=None,
                     help="Meshes: the size of a block, in metres for .glb/.gltf/.obj/.ply "
                          "(default 1) and millimetres for .stl (default 5)."),
        click.option("--raw-mesh/--watertight-mesh", default=False, show_default=True,
                     help="Meshes: the plain greedy mesh (fewer triangles, for rendering only) "
                          "instead of a watertight, manifold one."),
        click.option("--collision/--no-collision", default=False, show_default=True,
                     help="glTF: add a collision node of merged boxes (Godot imports it by its "
                          "-colonly name)."),
        click.option("-f", "--format", "format_", type=click.Choice(formats), default=None,
                     help="Output format; by default the suffix of --output decides "
                          "(.json: a maze document)."),
        click.option("--picture-style", type=click.Choice(list(PICTURE_STYLES)), default="walls",
                     show_default=True, help="Pictures (.png, .svg): lines are walls, lines are "
                                             "paths, or filled blocks."),
        click.option("--cell-size", type=click.FloatRange(min=1), default=16, show_default=True,
                     help="Pictures: pixels per cell."),
        click.option("--shade/--no-shade", default=False, show_default=True,
                     help="Pictures: colour each cell by its distance from the start."),
        click.option("--text-style", type=click.Choice(list(STYLES)), default="box",
                     show_default=True, help="How the maze is drawn when no --output is given."),
        click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
                     help="File to write. Without it the maze is printed."),
    ]):
        command = option(command)
    return command


@click.group(context_settings={"help_option_names": ["-h", "--help"]}, epilog=EXAMPLES)
@click.version_option(__version__, prog_name="blockmaze")
def cli():
    """Make mazes and turn them into Minecraft schematics and other block files."""


@cli.command("generate", epilog=_algorithm_list() + EXAMPLES)
@click.argument("size", type=Size(), metavar="SIZE")
@click.option("-g", "--grid", "kind", type=click.Choice(sorted(GRID_KINDS)), default="square",
              show_default=True, help="Cell shape. SIZE is ROWSxCOLS, RINGS for polar, "
                                      "LEVELSxROWSxCOLS for layered.")
@click.option("--mask", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Cells to leave out: a text file (X = off) or a black-and-white picture "
                   "(black = off).")
@maze_options
@thickness_options
@output_options
def generate_command(size, kind, mask, algorithm, seed, braid, entrances, **output):
    """Generate a maze of SIZE cells and print it or write it to a file (a block file or a .json maze)."""
    shape = grid_shape(kind, size)
    if output["lights"] and not output["floor"]:
        raise BlockmazeError("--lights go into the floor: drop --no-floor")
    writer = _block_writer(output)
    blocks_out = writer is not None and writer not in PICTURES
    if blocks_out and kind not in ("square", "layered") and output["scale"] is not None:
        if output["scale"] < min_scale(kind):
            raise BlockmazeError(f"a {kind} maze needs --scale {min_scale(kind)} or more, got {output['scale']}")
    if blocks_out and kind == "square":
        rows, cols = shape
        z, x = plan_shape(rows, cols, output["wall"], output["passage"])
        layers = 1 if writer.plan else volume_height(output["height"], output["floor"], output["roof"])
        writer.check_size((layers, z, x))
        load_theme(output["theme"])
    if seed is None:
        seed = int(np.random.SeedSequence().generate_state(1)[0])
    rng = as_generator(seed)
    if mask is None:
        grid = make_grid(shape, kind)
    else:
        loader = mask_from_image if Path(mask).suffix.lower() in IMAGE_SUFFIXES else None
        try:
            cells = loader(mask, kind, shape) if loader else mask_from_text(Path(mask).read_text("utf-8"), kind, shape)
        except (OSError, UnicodeDecodeError) as error:
            raise BlockmazeError(f"cannot read mask {mask}: {error}") from None
        grid = masked_grid(kind, shape, cells)
    maze = generate(grid, algorithm=algorithm, rng=rng)
    if braid:
        maze = braid_maze(maze, braid, rng)
    ends = place_endpoints(maze, "entrances" if entrances else "longest")
    document = MazeDocument(maze, ends, algorithm, seed, braid)
    _emit(document, writer, entrances, **output)


@cli.command("export", epilog=EXAMPLES)
@click.argument("document", type=click.Path(exists=True, dir_okay=False), metavar="MAZE.json")
@thickness_options
@output_options
def export_command(document, **output):
    """Write a saved maze document (from generate -o maze.json) in any format, or print it."""
    loaded = load_maze(document)
    if loaded.endpoints is None:
        loaded = MazeDocument(loaded.maze, place_endpoints(loaded.maze), loaded.algorithm,
                              loaded.seed, loaded.braid)
    writer = _block_writer(output)
    if writer is not None:
        load_theme(output["theme"])
    _emit(loaded, writer, bool(loaded.endpoints.openings), **output)


@cli.command("info", epilog=EXAMPLES)
@click.argument("path", type=click.Path(exists=True, dir_okay=False), metavar="FILE")
def info_command(path):
    """Show what a file blockmaze wrote holds: format, size, and blocks, tiles or triangles.

    Reads every format blockmaze writes, in bounded memory and time (at most 256 MiB of
    inflated data; env BLOCKMAZE_INFO_LIMIT raises it)."""
    click.echo("\n".join(inspect_file(path).lines()))


@cli.command("blockwise", epilog=_algorithm_list() + EXAMPLES)
@click.argument("size", type=Size(), metavar="WxL[xH]")
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
@click.option("--fill", type=click.Choice([m.name.lower() for m in Material if m]), default=None,
              help="relaxed mode: material for dead solid blocks (solid on all four sides).")
@click.option("-s", "--seed", type=click.IntRange(min=0), default=None,
              help="Seed (drawn at random and reported if omitted).")
@functools.partial(thickness_options, default="auto", auto=True)
@output_options
def blockwise_command(size, mode, algorithm, ordering, cells, border, fill, seed, wall, passage,
                      scale, solution, text_style, output, picture_style, cell_size, shade,
                      **settings):
    """Generate a maze exactly WxL blocks (width along x, length along z), or WxLxH for a
    strict 3-D maze that climbs, and print it or write it to a file."""
    if len(size) not in (2, 3) or (len(size) == 3 and mode != "strict"):
        raise BlockmazeError("blockwise sizes are WxL blocks, or WxLxH for a strict 3-D maze")
    if solution:
        raise BlockmazeError("--solution marks graph mazes; use blockmaze generate for it")
    writer = _block_writer({"output": output, "format_": settings["format_"]})
    if output is not None and (writer is None or writer in PICTURES):
        raise BlockmazeError("a blockwise maze is blocks: choose a block format, not a maze document or picture")
    if seed is None:
        seed = int(np.random.SeedSequence().generate_state(1)[0])
    width, length = size[:2]
    if mode == "relaxed":
        layout = relaxed_layout(width, length, ordering, seed, border,
                                None if fill is None else Material[fill.upper()])
        blocks, what = layout.plan, f"relaxed {ordering}"
        click.echo(f"dead solid blocks: {layout.dead_share:.1%} of solid blocks", err=True)
    elif len(size) == 3:
        blocks = strict_volume_3d(width, length, size[2], algorithm, seed, _axes(wall, 3),
                                  _axes(passage, 3), cells)
        what = f"strict 3-D {algorithm}"
    else:
        blocks = strict_plan(width, length, algorithm, seed, wall, passage, cells)
        what = f"strict {algorithm}"
    if output is None:
        if blocks.ndim == 3:
            raise BlockmazeError("a 3-D maze cannot be printed: write it with -o FILE")
        click.echo(plan_text(blocks, style=_plan_style(text_style)))
        return
    _write_blocks(blocks, writer, output, seed, what, f", seed {seed}", **settings)


@cli.command("dungeon", epilog=_algorithm_list() + EXAMPLES)
@click.argument("size", type=Dimensions("size", "40x60"), metavar="ROWSxCOLS")
@click.option("-a", "--algorithm", type=AlgorithmSpec(), default="backtracker", show_default=True,
              help="Algorithm that grows the corridors between the rooms.")
@click.option("--room-size", default="2:5", show_default=True, metavar="MIN:MAX",
              help="Room side in cells, from MIN to MAX.")
@click.option("--room-attempts", type=click.IntRange(min=0), default=None,
              help="Rooms tried (overlapping ones are dropped); default fills about half the area.")
@click.option("--extra-doors", type=click.FloatRange(0, 1), default=0.0, show_default=True,
              help="Chance of each further door between regions (0 = exactly one way between them).")
@click.option("--sparseness", type=click.FloatRange(0, 1), default=1.0, show_default=True,
              help="Share of dead-end corridor removed (1 = no dead ends).")
@click.option("--min-shortcut", type=click.IntRange(min=1), default=None,
              help="Add loops, each only where it shortens a walk by at least this many blocks.")
@click.option("--levels", type=click.IntRange(min=1), default=1, show_default=True,
              help="Levels joined by stairs; with -o each level is its own file (name-1, name-2, ...).")
@click.option("-s", "--seed", type=click.IntRange(min=0), default=None,
              help="Seed (drawn at random and reported if omitted).")
@output_options
def dungeon_command(size, algorithm, room_size, room_attempts, extra_doors, sparseness,
                    min_shortcut, levels, seed, scale, solution, text_style, output, picture_style,
                    cell_size, shade, **settings):
    """Generate a roguelike dungeon: rooms, corridors grown between them, doors, stairs."""
    if solution:
        raise BlockmazeError("--solution marks graph mazes; a dungeon marks its start and goal")
    try:
        low, _, high = room_size.partition(":")
        sizes = (int(low), int(high or low))
    except ValueError:
        raise BlockmazeError(f"--room-size must be MIN:MAX cells, e.g. 2:5, got {room_size!r}") from None
    writer = _block_writer({"output": output, "format_": settings["format_"]})
    if output is not None and (writer is None or writer in PICTURES):
        raise BlockmazeError("a dungeon is blocks: choose a block or tile format, not a maze document or picture")
    if seed is None:
        seed = int(np.random.SeedSequence().generate_state(1)[0])
    dungeon = generate_dungeon(size, seed, algorithm=algorithm, room_size=sizes,
                               room_attempts=room_attempts, extra_doors=extra_doors,
                               sparseness=sparseness, min_shortcut=min_shortcut, levels=levels)
    if output is None:
        style = _plan_style(text_style)
        click.echo("\n\n".join(plan_text(level.plan, style=style) for level in dungeon.levels))
        return
    target = Path(output)
    for number, level in enumerate(dungeon.levels, 1):
        path = target if levels == 1 else target.with_name(f"{target.stem}-{number}{target.suffix}")
        _write_blocks(level.plan, writer, str(path), seed, f"level {number}, {len(level.rooms)} rooms",
                      f", seed {seed}", **settings)


def _plan_style(text_style: str) -> str:
    """Block plans print block for block ('blocks') unless --text-style was given."""
    chosen = click.get_current_context().get_parameter_source("text_style")
    return text_style if chosen == click.core.ParameterSource.COMMANDLINE else "blocks"


def _axes(value, count: int):
    """A thickness for ``count`` axes: None (auto), or a per-axis tuple from N or ZxX."""
    if value is None:
        return None
    return (value[0],) * (count - len(value)) + tuple(value)


def _block_writer(output: dict):
    """The block writer the output options ask for; None for printing or a maze document, or
    the name of a picture format ("png", "svg")."""
    path, format_ = output["output"], output["format_"]
    if path is None:
        if format_ is not None:
            raise BlockmazeError("--format needs --output FILE")
        return None
    if format_ == MAZE_FORMAT:
        return None
    picture = format_ or Path(path).suffix.lower().lstrip(".")
    if picture in PICTURES:
        return picture
    try:
        return writer_for(path, format_)
    except BlockmazeError:
        if format_ is None and Path(path).suffix.lower() == ".json":
            return None  # a maze document
        raise


def _emit(document: MazeDocument, writer, openings: bool, *, wall, passage, scale, solution,
          text_style, output, picture_style, cell_size, shade, **settings) -> None:
    """Print the maze, save its document, or write it as blocks, as the output options say."""
    maze, ends = document.maze, document.endpoints
    shown = ends if (solution or openings) else None
    if output is None:
        kind = maze.grid.kind
        if kind == "square":
            click.echo(maze_text(maze, style=text_style, endpoints=shown, solution=solution))
        elif kind == "layered":
            raise BlockmazeError("a layered maze cannot be printed: write it with -o FILE")
        else:  # its blocks, at the smallest scale that keeps it walkable
            plan = rasterize(maze, scale or min_scale(kind), endpoints=shown, solution=solution)
            click.echo(plan_text(plan, style=_plan_style(text_style)))
        return
    origin = f", {document.algorithm}" if document.algorithm else ""
    origin += f", seed {document.seed}" if document.seed is not None else ""
    if writer in PICTURES:
        PICTURES[writer](maze, output, style=picture_style, cell_size=cell_size, shade=shade,
                         endpoints=ends, solution=solution, theme=load_theme(settings["theme"]))
        click.echo(f"wrote {output}: picture of a {maze.grid.kind} "
                   f"{'x'.join(map(str, maze.grid.shape))} maze{origin}", err=True)
        return
    if writer is None:
        save_maze(document, output)
        click.echo(f"wrote {output}: maze document, {maze.grid.kind} "
                   f"{'x'.join(map(str, maze.grid.shape))} cells{origin}", err=True)
        return
    kind = maze.grid.kind
    if kind == "square":
        blocks = to_blocks(maze, wall, passage, endpoints=shown, solution=solution)
    elif kind == "layered":  # a volume already: levels stacked, shafts of STAIRS
        blocks = stack_levels(maze, settings["height"], "convert", wall, passage,
                              endpoints=shown, solution=solution, roof=settings["roof"])
    else:
        blocks = rasterize(maze, scale or max(4, min_scale(kind)), endpoints=shown, solution=solution)
    _write_blocks(blocks, writer, output, document.seed,
                  f"{kind} {'x'.join(map(str, maze.grid.shape))} cells", origin, **settings)


def _write_blocks(blocks, writer, output, seed, what, origin, *, height, floor, roof, lights, theme,
                  mc_version, schem_version, keep_terrain, tile_encoding, external_tileset,
                  block_size, raw_mesh, collision, format_) -> None:
    """Stand a plan up (unless it is a volume already or the format draws plans) and write it."""
    if writer.plan:
        volume = blocks[np.newaxis] if blocks.ndim == 2 else blocks[1:2]
    elif blocks.ndim == 2:
        volume = extrude(blocks, height=height, floor=floor, roof=roof)
        if lights:
            volume = place_lights(volume)
    else:
        volume = blocks
    given = {"mc_version": mc_version, "schem_version": int(schem_version), "seed": seed,
             "keep_terrain": keep_terrain, "encoding": tile_encoding,
             "external_tileset": external_tileset, "watertight": not raw_mesh, "collision": collision}
    if block_size is not None:
        given["block_size"] = block_size
    write(volume, output, format=writer.name, theme=load_theme(theme),
          **{k: v for k, v in given.items() if k in writer.options})
    y, z, x = volume.shape
    click.echo(f"wrote {output}: {what}, {x}x{y}x{z} blocks (width x height x length){origin}",
               err=True)


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    click.echo(f"Warning: {message}", err=True)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit code (2 for bad input, with one ``Error:`` line)."""
    warnings.showwarning = _show_warning
    try:
        result = cli.main(args=argv, prog_name="blockmaze", standalone_mode=False)
        return result if isinstance(result, int) else 0
    except click.exceptions.Exit as done:
        return done.exit_code
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        return 1
    except (click.ClickException, BlockmazeError) as error:
        message = error.format_message() if isinstance(error, click.ClickException) else str(error)
        click.echo("Error: " + " ".join(message.split()), err=True)
        return 2
    except MemoryError:
        click.echo("Error: not enough memory for a maze this large; choose a smaller size", err=True)
        return 2


if __name__ == "__main__":
    sys.exit(main())
