"""The ``blockmaze`` command: parses options, calls the library (:func:`blockmaze.jobs.run`, one
call a command) and reports what it did, and errors in one line."""

from __future__ import annotations

import contextlib
import functools
import os
import sys
import traceback
import warnings

import click

from . import __version__
from .support import progress
from .algorithms import ALGORITHMS
from .cli_options import (NUMBER, AlgorithmSpec, Dimensions, FilePath, Finite,  # noqa: F401
                          FormatChoice, RoomSize, SectionedCommand, Size, SizeValue,
                          SuggestingGroup, given_options)
from .errors import BadFileError, BlockmazeError, OutputError
from .export import FORMATS, PICTURE_STYLES
from .export.minecraft.versions import DATA_VERSIONS, DEFAULT_MC_VERSION
from .dungeon import STYLES as DUNGEON_STYLES
from .grids import GRID_KINDS
from .materials import DEFAULT_THEME, Material, theme_names
from .render import STYLE_NAMES as STYLES
from .support import stops
from .support.memory import MEMORY_LIMIT, set_memory_limit

MAX_SEED = 2 ** 64 - 1
MAX_LEVELS = 256  # dungeon levels (each a dungeon of its own)


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
def generate_command(size, **options):
    """Generate a maze of SIZE cells and print it or write it to a file (a block file or a .json maze)."""
    options["animate"] = options["animate"] and _is_terminal(sys.stdout)
    _call("generate", size=size, **options)


@cli.command("export", cls=SectionedCommand, epilog=EXAMPLES)
@click.argument("document", type=FilePath(exists=True, dir_okay=False), metavar="MAZE.json")
@thickness_options
@output_options
@click.option("--bridges/--tunnels", default=False, show_default=True,
              help="Weave mazes in blocks: raise each crossing as a bridge over the passage "
                   "below (walls --height 5 or more), or dig that passage as a tunnel under it.")
def export_command(document, **options):
    """Write a saved maze document (from generate -o maze.json) in any format, or print it."""
    _call("export", document=document, **options)


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
    _call("info", path=path)


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
def blockwise_command(size, **options):
    """Generate a maze exactly ROWSxCOLS blocks (rows north-south along z, columns east-west
    along x), or HEIGHTxROWSxCOLS for a strict 3-D maze that climbs, and print it or write it to
    a file. Axis letters name the numbers in any order: 41Wx31L is 31x41."""
    _call("blockwise", size=size, **options)
    _note_size_order(size)  # (after the work: an error stays one line)


@cli.command("dungeon", cls=SectionedCommand, epilog=_algorithm_list() + EXAMPLES)
@click.argument("size", type=Dimensions("size", "40x60"), metavar="ROWSxCOLS")
@click.option("-a", "--algorithm", type=AlgorithmSpec(), default="backtracker", show_default=True,
              help="Algorithm that grows the corridors between the rooms.")
@click.option("--room-size", type=RoomSize(), default="2:5", show_default=True, metavar="MIN:MAX",
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
def dungeon_command(size, **options):
    """Generate a roguelike dungeon: rooms and mazes, caves, BSP rooms, dug rooms, or a mix."""
    _call("dungeon", size=size, **options)


dungeon_command.params = [p for p in dungeon_command.params if p.name != "solution"]


def _call(command: str, **options) -> None:
    """Run ``command`` with the parsed options through the library, saying what it did."""
    from .jobs import run

    run(command, options, given=given_options(click.get_current_context()), say=_info,
        show=click.echo)


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


_settings = {"verbose": False, "quiet": False}


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    progress.clear()
    click.echo(f"Warning: {message}", err=True)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit code, with one ``Error:`` line on failure:
    2 for bad usage, 1 for a bad input file or an output that could not be written, 130 (or
    128 + the signal) when stopped, 0 otherwise."""
    _settings.update(verbose=False, quiet=False)
    with contextlib.suppress(AttributeError, ValueError):  # messages never fail on a file name
        sys.stderr.reconfigure(errors="backslashreplace")
    limit = os.environ.get(MEMORY_LIMIT)  # --memory-limit is for this run only, even one refused
    try:
        with warnings.catch_warnings(), stops.command_stops() as take_stops:
            warnings.showwarning = _show_warning
            code = _run(argv, take_stops)
    finally:
        if limit is None:
            os.environ.pop(MEMORY_LIMIT, None)
        else:
            os.environ[MEMORY_LIMIT] = limit
    if code == 0 and stops.stop_seen():  # a Ctrl-C numba's compiler swallowed, seen as the run ended
        code = _stopped(None)
    try:
        sys.stdout.flush()
    except OSError as error:
        _silence_stdout()
        if code == 0:
            code = _fail(f"cannot write to standard output: {error.strerror or error}", 1)
    return code


def _run(argv, take_stops=lambda: None) -> int:
    try:
        args = sys.argv[1:] if argv is None else list(argv)
        if args and not {"--help", "-h", "--version"} & set(args):  # help stays fast
            import numpy  # noqa: F401 (its threads start here, with the stop signals held)
        take_stops()  # in this thread only
        result = cli.main(args=argv, prog_name="blockmaze", standalone_mode=False)
        sys.stdout.flush()
        return result if isinstance(result, int) else 0
    except click.exceptions.Exit as done:
        return done.exit_code
    except click.exceptions.NoArgsIsHelpError as error:  # no arguments: the help, as --help
        click.echo(error.ctx.get_help())
        return 0
    except (KeyboardInterrupt, click.exceptions.Abort) as stop:  # click turns Ctrl-C into Abort
        return _stopped(stop)
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
        if stops.is_stop(error):  # a stop inside a kernel or numba's compiler
            return _stopped(error)
        if _settings["verbose"]:
            traceback.print_exc()
        return _fail(f"internal error ({type(error).__name__}: {error}); please report it "
                     "with the command line (-v shows the traceback)", 1)


def _stopped(error: BaseException | None) -> int:
    """One line for a run a stop signal ended (``error``: what ended it, None if it returned);
    returns 128 + the signal. The wording is ``support.stops``'s."""
    return _fail(*stops.answer(error))


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


MOVED = {"grid_shape": "blockmaze.pipeline", "SIZE_FORMS": "blockmaze.pipeline",
         "UnusedOptionWarning": "blockmaze.jobs"}


def __getattr__(name: str):
    """Names that moved to the library, still found here with a DeprecationWarning."""
    if name in MOVED:
        import importlib

        warnings.warn(f"blockmaze.cli.{name} moved to {MOVED[name]}.{name}", DeprecationWarning,
                      stacklevel=2)
        return getattr(importlib.import_module(MOVED[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if __name__ == "__main__":
    sys.exit(main())
