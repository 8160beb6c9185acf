"""The ``blockmaze`` command: parses options, wires the pipeline stages, reports errors in one line."""

from __future__ import annotations

import re
import sys

import click
import numpy as np

from . import __version__
from .algorithms import ALGORITHMS
from .blocks import extrude, plan_shape, to_blocks, volume_height
from .errors import BlockmazeError
from .export import WRITERS, write, writer_for
from .export.versions import DATA_VERSIONS, DEFAULT_MC_VERSION
from .generation import generate
from .materials import DEFAULT_THEME, load_theme, theme_names
from .render import maze_text
from .render.text import STYLES


class Dimensions(click.ParamType):
    """``AxB`` (or a single ``N`` for ``NxN``) of whole numbers >= 1, as a (a, b) pair."""

    name = "AxB"

    def __init__(self, what: str, example: str):
        self.what = what
        self.example = example

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        match = re.fullmatch(r"\s*(\d+)\s*(?:[xX×]\s*(\d+)\s*)?", str(value))
        if not match or int(match[1]) < 1 or int(match[2] or match[1]) < 1:
            self.fail(f"{self.what} must be N or AxB with whole numbers >= 1 (e.g. {self.example}), got {value!r}",
                      param, ctx)
        return int(match[1]), int(match[2] or match[1])


EXAMPLES = """
\b
Examples:
  blockmaze generate 10x20                     print a maze in the terminal
  blockmaze generate 50x50 --seed 7 -o maze.schem
  blockmaze generate 30x30 --wall 2 --passage 3 --height 4 --roof -o big.schem
  blockmaze generate 40x40 --schem-version 3 --mc-version 1.21.4 -o maze.schem
"""


@click.group(context_settings={"help_option_names": ["-h", "--help"]}, epilog=EXAMPLES)
@click.version_option(__version__, prog_name="blockmaze")
def cli():
    """Make mazes and turn them into Minecraft schematics and other block files."""


@cli.command(epilog=EXAMPLES)
@click.argument("size", type=Dimensions("size", "20x30"), metavar="ROWSxCOLS")
@click.option("-a", "--algorithm", type=click.Choice(sorted(ALGORITHMS)), default="backtracker",
              show_default=True, help="Generation algorithm.")
@click.option("-s", "--seed", type=click.IntRange(min=0), default=None,
              help="Seed: the same seed gives the same maze and the same file. Drawn at random if omitted.")
@click.option("--wall", type=Dimensions("wall thickness", "2 or 1x2"), default="1", show_default=True,
              metavar="N|ZxX",
              help="Wall thickness in blocks: N, or ZxX to differ along z (north-south) and x (east-west).")
@click.option("--passage", type=Dimensions("passage thickness", "3 or 2x3"), default="1", show_default=True,
              metavar="N|ZxX",
              help="Passage width in blocks: N, or ZxX.")
@click.option("--height", type=click.IntRange(min=1), default=3, show_default=True,
              help="Wall height in blocks.")
@click.option("--floor/--no-floor", default=True, show_default=True, help="Lay a floor under the maze.")
@click.option("--roof/--no-roof", default=False, show_default=True, help="Put a roof over the maze.")
@click.option("--theme", default=DEFAULT_THEME, show_default=True, metavar="NAME|FILE",
              help=f"Block theme: one of {', '.join(theme_names())}, or a theme JSON file.")
@click.option("--mc-version", type=click.Choice(list(DATA_VERSIONS)), default=DEFAULT_MC_VERSION,
              show_default=True, metavar="VERSION",
              help=f"Minecraft Java release the file is for: {', '.join(DATA_VERSIONS)}.")
@click.option("--schem-version", type=click.Choice(["2", "3"]), default="2", show_default=True,
              help="Sponge schematic version: 2 loads everywhere, 3 is WorldEdit 7.3's own.")
@click.option("-f", "--format", "format_", type=click.Choice(sorted(WRITERS)), default=None,
              help="Output format; by default the suffix of --output decides.")
@click.option("--text-style", type=click.Choice(list(STYLES)), default="box", show_default=True,
              help="How the maze is drawn when no --output is given.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="File to write. Without it the maze is printed.")
def generate_command(size, algorithm, seed, wall, passage, height, floor, roof, theme, mc_version,
                     schem_version, format_, text_style, output):
    """Generate a ROWSxCOLS maze and print it or write it to a file."""
    rows, cols = size
    if output is None and format_ is not None:
        raise BlockmazeError("--format needs --output FILE")
    writer = writer_for(output, format_) if output is not None else None
    if writer is not None:
        z, x = plan_shape(rows, cols, wall, passage)
        writer.check_size((volume_height(height, floor, roof), z, x))
        theme = load_theme(theme)
    if seed is None:
        seed = int(np.random.SeedSequence().generate_state(1)[0])
    maze = generate((rows, cols), algorithm=algorithm, rng=seed)
    if writer is None:
        click.echo(maze_text(maze, style=text_style))
        return
    volume = extrude(to_blocks(maze, wall, passage), height=height, floor=floor, roof=roof)
    given = {"mc_version": mc_version, "schem_version": int(schem_version)}
    write(volume, output, format=writer.name, theme=theme,
          **{k: v for k, v in given.items() if k in writer.options})
    y, z, x = volume.shape
    click.echo(f"wrote {output}: {rows}x{cols} cells, {x}x{y}x{z} blocks (width x height x length), "
               f"{algorithm}, seed {seed}", err=True)


generate_command.name = "generate"


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit code (2 for bad input, with one ``Error:`` line)."""
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
