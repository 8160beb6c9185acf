"""The ``blockmaze`` command: parses options, calls the library (:func:`blockmaze.jobs.run`, one
call a command) and reports what it did, and errors in one line."""

from __future__ import annotations

import contextlib
import errno
import io
import os
import sys
import warnings

import click

from . import __version__
from .support import progress
from .algorithms import ALGORITHMS
from .cli_options import SectionedCommand, SuggestingGroup, described_params, given_options
from .commands import BATCHED, COMMANDS, Batch, Serve, options_of
from .errors import BadFileError, BlockmazeError, OutputError, printable
from .hosts import HOSTS
from .support import stops

EXAMPLES = """
\b
Examples:
  blockmaze generate 10x20                     # print a maze in the terminal
  blockmaze generate 50x50 --seed 7 -o maze.schem
  blockmaze generate 30x30 --wall 2 --passage 3 --height 4 --roof -o big.schem
  blockmaze generate 40x40 -a wilson --braid 0.3 --entrances --solution -o maze.schem
  blockmaze generate 40x40 -a growing-tree:0.75 --seed 3 -o maze.json
  blockmaze generate 30x30 --difficulty hard --seed 2 -o hard.png --solve tremaux
  blockmaze generate 20x20 --unicursal --entrances -o walk.schem     # one path, no junction
  blockmaze generate -g labyrinth --circuits 7 -o cretan.schem        # the classical labyrinth
  blockmaze generate -g labyrinth --style chartres --scale 8 --finger 5x3 -o chartres.stl  # to print
  blockmaze export maze.json --schem-version 3 --mc-version 1.21.4 -o maze.schem
  blockmaze generate 200x200 -a eller -o MyMaze/ --format world     # a world save, streamed
  blockmaze blockwise 40x30 --seed 5 -o exact.schem     # exactly 40x30 blocks
  blockmaze blockwise 64x64 --mode relaxed --ordering prim -o relaxed.litematic
  blockmaze dungeon 40x60 --seed 3 --min-shortcut 20 -o level.tmx
  blockmaze dungeon 40x60 --style bsp --spawns 8:4:2 --lock -o level.ldtk
  blockmaze generate 30x40 -s 7 --answers -o maze.pdf      # to print, with its answer page
  blockmaze generate 80x80 --sheets 2x2 --page A4 -o wall.pdf   # over 4 sheets to tape
  blockmaze book generate 30x30 -g hex -s 1 --pages 100 --page 8.5x11in -o book.pdf
  blockmaze batch generate 17x17 -n 100000 --workers 2 -o mazes.parquet   # a dataset
  blockmaze batch dungeon 30x40 -n 50 --vary "style=bsp|caves" -o levels --format tmx  # a level pack
  blockmaze info maze.schem                    # format, size and blocks
  blockmaze info maze.json --analysis          # dead ends, the solution, loops, difficulty
  blockmaze info MyMaze/                       # a world save: release, spawn, extent
  blockmaze plugin blender -o blockmaze.zip    # Blender's Install from Disk takes it
  blockmaze plugin amulet                      # into Amulet's plugin folder, said where
  blockmaze docs usage                         # a page of the guide, in the terminal
""" + "\n\b\nDocs: blockmaze docs (the guide's pages, in the terminal); every command and option: " \
      "blockmaze docs commands"
# what each command's help says of it
SUMMARIES = {
    "generate": "Generate a maze of SIZE cells and print it or write it to a file (a block file "
                "or a .json maze).",
    "export": "Write a saved maze document (from generate -o maze.json) in any format, or print it.",
    "blockwise": "Generate a maze exactly ROWSxCOLS blocks (rows north-south along z, columns "
                 "east-west along x), or HEIGHTxROWSxCOLS for a strict 3-D maze that climbs, and "
                 "print it or write it to a file. Axis letters name the numbers in any order: "
                 "41Wx31L is 31x41.",
    "dungeon": "Generate a roguelike dungeon: rooms and mazes, caves, BSP rooms, dug rooms, or a "
               "mix.",
    "info": "Show what a file blockmaze wrote holds: format, size, and blocks, tiles or "
            "triangles.\n\nReads every format blockmaze writes, in bounded memory and time (at "
            "most 256 MiB of inflated data; env BLOCKMAZE_INFO_LIMIT raises it). A world save "
            "(folder or .zip) is summarised too: release, spawn, extent and blocks.",
}


def _examples(command: str) -> str:
    """The lines of :data:`EXAMPLES` that run ``command``, for the end of its help."""
    lines = [line for line in EXAMPLES.splitlines() if line.startswith(f"  blockmaze {command} ")]
    return "\n\b\nExamples:\n" + "\n".join(lines) + "\n"


def _docs(command: str) -> str:
    """Where the documentation says more of ``command``, the last line of its help: a page the
    installed program prints (``blockmaze docs``)."""
    return f"\n\b\nDocs: blockmaze docs commands (every option; section {command}), " \
           f"blockmaze docs usage\n"


def _algorithm_list() -> str:
    """The algorithms, one per line with their summaries, for the end of a command's help."""
    rows = []
    for name in sorted(ALGORITHMS):
        algorithm = ALGORITHMS[name]
        spec = name + (f"[:{'|'.join(algorithm.options)}]" if algorithm.options else "")
        kinds = "" if algorithm.grid_kinds is None else f" ({'/'.join(sorted(algorithm.grid_kinds))} only)"
        rows.append(f"  {spec}\n      {algorithm.summary}{kinds}")
    return "\n\b\nAlgorithms:\n" + "\n".join(rows) + "\n"


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


def _job_command(name: str) -> click.Command:
    """``blockmaze NAME``, built from the command's description (:mod:`blockmaze.commands`)."""

    def callback(**options):
        from .commands import make_job
        from .jobs import run

        if "animate" in options:  # a replay only where a terminal shows it
            options["animate"] = options["animate"] and _is_terminal(sys.stdout)
        job = make_job(name, **options, given=given_options(click.get_current_context()))
        run(job, say=_info, show=click.echo)

    lists = _algorithm_list() if any(o.name == "algorithm" for o in options_of(name)) else ""
    epilog = lists + _examples(name) + _docs(name)
    return SectionedCommand(name, params=described_params(COMMANDS[name]), callback=callback,
                            help=SUMMARIES[name], epilog=epilog)


for _name in COMMANDS:
    cli.add_command(_job_command(_name))


def _serve(host, port, open_browser, max_cells, max_blocks, max_pixels, rate):
    """Start blockmaze studio, a local web page to design, watch, preview and download mazes
    (pip install 'blockmaze[web]')."""
    from .web import require_web, serve

    require_web()
    from .web.app import Settings
    from .web.jobs import Limits

    limits = Limits(cells=max_cells, blocks=max_blocks, pixels=max_pixels)
    if serve(host, port, open_browser, announce=click.echo,
             settings=Settings(limits, rate=rate)):
        _info("stopped")


def _batch_command(name: str) -> click.Command:
    """``blockmaze batch NAME``: the command's options (its -o and --seed left to the batch)
    and the batch's own (:class:`blockmaze.commands.Batch`)."""
    own = {o.name for o in options_of(Batch)}

    def callback(**values):
        from .batches import batch

        given = given_options(click.get_current_context())
        options = {k: v for k, v in values.items() if k in given and k not in own}
        settings = {k: values[k] for k in own}
        if not settings["output"]:
            raise BlockmazeError("batch needs -o OUT: a NAME.parquet or NAME.npz folder, or a "
                                 "folder with --format")
        done = batch(name, options, count=settings["count"], output=settings["output"],
                     seed=settings["seed"], vary=settings["vary"],
                     shard_size=settings["shard_size"], plan=settings["plan"],
                     measures=settings["measures"],
                     format_=values.get("format_"), workers=settings["workers"],
                     engine=settings["engine"], scheduler=settings["scheduler"], say=_info)
        _info(f"wrote {done.folder}: {done.items} items in {len(done.shards)} shards, root seed "
              f"{done.root}, hash {done.hash}")

    params = [p for p in described_params(COMMANDS[name]) if p.name not in ("output", "seed")]
    return SectionedCommand(name, params=described_params(Batch) + params, callback=callback,
                            help=f"A batch of {name}: " + SUMMARIES[name],
                            epilog=_examples("batch") + _docs("batch"))


@cli.group("batch", cls=SuggestingGroup, epilog=_examples("batch") + _docs("batch"))
def batch_group():
    """Make many items of one command (generate, blockwise, dungeon): a Parquet or .npz dataset
    of mazes, or a level pack of files in any format; the same bytes on any number of workers,
    local, on Dask or on Ray. blockmaze batch COMMAND --help lists the command's options."""


for _name in BATCHED:
    batch_group.add_command(_batch_command(_name))


cli.add_command(SectionedCommand("serve", params=described_params(Serve), callback=_serve,
                                 help=_serve.__doc__, epilog=_docs("serve")))


@cli.command("plugin", epilog=_examples("plugin") + _docs("plugin"))
@click.argument("host", type=click.Choice(HOSTS))
@click.option("-o", "--output", type=click.Path(dir_okay=True, writable=True),
              help="Where to write the plugin (its .py file, the extension's .zip, the "
                   "extension's folder); without it, where the host looks for its plugins.")
def plugin_command(host, output):
    """Put blockmaze inside HOST: an operation in Amulet's Operations tool, Add > Mesh > Maze in
    Blender 4.2+, a map format and an action in Tiled. The plugin runs this blockmaze, so the
    host needs nothing else installed."""
    from .hosts import host as host_named
    from .hosts import write_plugin

    where = write_plugin(host, output)
    _info(f"wrote {where}: {host_named(host).how}")


@cli.command("book", epilog=_examples("book") + _docs("book"),
             context_settings={"ignore_unknown_options": True})
@click.argument("command", type=click.Choice(("generate",)))
@click.argument("arguments", nargs=-1, type=click.UNPROCESSED, metavar="[SIZE] [OPTIONS]")
@click.option("--pages", type=click.IntRange(1, 1000), required=True,
              help="How many mazes (a page each), the sizes rising to SIZE on the last.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), required=True,
              help="The book's PDF.")
@click.option("--page", "page", default="letter", show_default=True, metavar="A4|letter|WxHmm|WxHin",
              help="The trim size (e.g. 6x9in, 8.5x11in: KDP paperback trims).")
@click.option("--bleed", is_flag=True, help="Add a print shop's bleed (KDP: 0.125 in outside, "
                                            "top and bottom) to every page.")
@click.option("--answers/--no-answers", default=True, show_default=True,
              help="The solutions at the back, four to a page.")
@click.option("--rise", type=click.Choice(("size", "difficulty", "none")), default="size",
              show_default=True, help="How the mazes rise page by page: size (from a third of "
              "SIZE), difficulty (every maze SIZE, from easy to hard), or none.")
def book_command(command, arguments, pages, output, page, bleed, answers, rise):
    """Make a puzzle book: PAGES mazes from COMMAND's options (its SIZE the last maze's, page k
    with the seed SEED + k), one a page with page numbers, the answers at the back, as a PDF
    (pip install 'blockmaze[pdf]')."""
    from .book import make_book

    inner = cli.commands[command]
    context = inner.make_context(command, list(arguments), parent=click.get_current_context())
    chosen = given_options(context)
    options = {name: value for name, value in context.params.items() if name in chosen}
    make_book(command, options, pages, output, page=page, bleed=bleed, answers=answers,
              rise=rise, say=_info)


@cli.command("docs", epilog=_examples("docs") + _docs("docs"))
@click.argument("page", required=False)
def docs_command(page):
    """Print a page of the documentation in the terminal, as Markdown (the same pages as the
    site, shipped with the program); without PAGE, list the pages. A page is named by its path
    without .md (usage, guides/minecraft) or, where that is unique, its last part (roguelike)."""
    from .support.pages import page_names, page_text

    if page is None:
        click.echo("\n".join(f"{name:<22} {title}" for name, title in page_names().items()))
        return
    click.echo(page_text(page, _generated))


def _generated(part: str) -> str:
    """A generated part of a page, for the terminal: every command's help (``commands``), or
    each public name of ``import blockmaze`` with its first docstring line (``api``)."""
    if part == "commands":
        parts = []
        for name, command in cli.commands.items():
            context = click.Context(command, info_name=f"blockmaze {name}", parent=None)
            parts += [f"## {name}", "", "```text", command.get_help(context), "```", ""]
        return "\n".join(parts)
    import blockmaze

    lines = []
    for name in blockmaze.__all__:
        value = getattr(blockmaze, name)
        own = callable(value) and getattr(value, "__module__", "").startswith("blockmaze")
        summary = (value.__doc__ or "").strip().split("\n")[0] if own else \
            f"a table ({type(value).__name__}) by name: `blockmaze.{name}` in Python"
        lines.append(f"- `{name}`: {summary}")
    return "\n".join(lines)


def _info(message: str) -> None:
    """Say what was done on stderr (not under -q)."""
    if not _settings["quiet"]:
        progress.clear()
        click.echo(printable(message), err=True)


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


_settings = {"verbose": False, "quiet": False}


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    progress.clear()
    click.echo(f"Warning: {printable(str(message))}", err=True)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit code, with one ``Error:`` line on failure:
    2 for bad usage, 1 for a bad input file or an output that could not be written, 130 (or
    128 + the signal) when stopped, 0 otherwise."""
    _settings.update(verbose=False, quiet=False)
    if sys.stdout is None:  # started with standard output closed: a maze printed there fails
        sys.stdout = _Closed()
    too_small = _address_space()
    if too_small:
        return _fail(too_small, 1)
    with contextlib.suppress(AttributeError, ValueError):  # messages never fail on a file name
        sys.stderr.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]  # (a TextIOWrapper's; another stream: AttributeError)
    with warnings.catch_warnings(), stops.command_stops() as take_stops:
        warnings.showwarning = _show_warning
        code = _run(argv, take_stops)
    if code == 0 and stops.stop_seen():  # a Ctrl-C numba's compiler swallowed, seen as the run ended
        code = _stopped(None)
    try:
        sys.stdout.flush()
    except OSError as error:
        _silence_stdout()
        if code == 0:
            code = _fail(f"cannot write to standard output: {error.strerror or error}", 1)
    return code


LEAST_ADDRESS_SPACE = 128 << 20  # numpy and its libraries mapped: below this, its import spins


def _address_space() -> str | None:
    """Under an address-space limit (``ulimit -v``): one BLAS thread (numpy's starts one a core,
    each mapping its stack and buffers; blockmaze needs none), and a message when the limit is
    too small to start at all (None: it is not)."""
    import resource

    soft = resource.getrlimit(resource.RLIMIT_AS)[0]
    if soft == resource.RLIM_INFINITY:
        return None
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
        os.environ.setdefault(name, "1")
    if soft < LEAST_ADDRESS_SPACE:
        return (f"the process may map at most {soft >> 20} MiB (ulimit -v); blockmaze needs "
                f"{LEAST_ADDRESS_SPACE >> 20} MiB or more to start: raise that limit")
    return None


class _Closed(io.TextIOBase):
    """Standard output when the program started with it closed: writing to it fails as writing to
    a closed descriptor does (one line, exit 1), and a run that writes files needs it not.

    >>> _Closed().write("maze")
    Traceback (most recent call last):
    ...
    OSError: [Errno 9] standard output is closed
    """

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")

    def isatty(self) -> bool:
        return False


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
            import traceback  # (only here: its import costs a small job's start)

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
        click.echo("Error: " + printable(" ".join(str(message).split())), err=True)
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
