"""How the command line shows and reads its options: the option types (sizes, thicknesses,
file paths, algorithm names), help grouped by purpose, suggestions for a mistyped command, and
which options the user typed (the library warns about those a run does
not use: :func:`blockmaze.jobs.unused_options`).

Options are named by their parameter names (``mc_version`` for ``--mc-version``); an option
missing from :data:`SECTIONS` is listed under "Other options".

Example
-------
>>> SECTION_OF["mc_version"], SECTION_OF["wall"]
('Minecraft', 'Blocks')
"""

from __future__ import annotations

import math
import os
import re

import click

from .algorithms import get_algorithm
from .errors import BadFileError, BlockmazeError

# option -> help section, sections in this order
SECTIONS = {
    "Maze": ("kind", "mask", "algorithm", "seed", "braid", "entrances", "mode", "ordering",
             "cells", "border", "fill", "room_size", "room_attempts", "extra_doors",
             "sparseness", "min_shortcut", "levels", "style", "spawns", "spawn_spacing", "lock"),
    "Blocks": ("wall", "passage", "height", "floor", "roof", "scale", "lights", "solution",
               "theme"),
    "Output": ("output", "format_", "text_style", "memory_limit", "animate", "fps"),
    "Minecraft": ("mc_version", "schem_version", "keep_terrain", "split"),
    "Worlds": ("terrain", "y", "mobs", "time"),
    "Meshes": ("block_size", "raw_mesh", "collision", "chunk", "compress", "quantize", "uv"),
    "Tile maps": ("tile_encoding", "external_tileset"),
    "Pictures": ("picture_style", "cell_size", "shade"),
}
SECTION_OF = {name: title for title, names in SECTIONS.items() for name in names}

# sizes, thicknesses: ASCII digits only (no superscripts), at most this many of them
NUMBER = r"[0-9]{1,12}"


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
        from .export import NOT_WRITTEN

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


class RoomSize(click.ParamType):
    """A dungeon's room sides in cells: ``MIN:MAX`` (or ``N`` for N:N), as a (min, max) pair."""

    name = "MIN:MAX"

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        low, _, high = str(value).partition(":")
        if not all(re.fullmatch(NUMBER, n.strip()) for n in (low, high or low)) \
                or not 1 <= int(low) <= int(high or low):
            raise BlockmazeError(f"--room-size must be MIN:MAX cells with 1 <= MIN <= MAX, e.g. "
                                 f"2:5, got {value!r}")
        return int(low), int(high or low)


class AlgorithmSpec(click.ParamType):
    """An algorithm name, or NAME:OPTION."""

    name = "NAME[:OPTION]"

    def convert(self, value, param, ctx):
        try:
            get_algorithm(value)
        except BlockmazeError as error:
            self.fail(str(error), param, ctx)
        return value


class SuggestingGroup(click.Group):
    """A command group whose unknown-command error suggests what was meant: a command the word
    begins (``gen`` -> generate) before one spelt alike (``dungen`` -> dungeon), and lists them all.

    >>> group = SuggestingGroup(commands=[click.Command("generate"), click.Command("dungeon")])
    >>> group.suggest("gen"), group.suggest("dungen"), group.suggest("zzz")
    (['generate'], ['dungeon'], [])
    """

    def suggest(self, name: str) -> list[str]:
        import difflib

        name = name.lower()
        return (sorted(c for c in self.commands if c.startswith(name))
                or difflib.get_close_matches(name, sorted(self.commands)))

    def resolve_command(self, ctx, args):
        name = click.utils.make_str(args[0]) if args else ""  # (click may consume args)
        try:
            return super().resolve_command(ctx, args)
        except click.exceptions.NoSuchCommand:
            guesses = self.suggest(name)
            meant = f" Did you mean {' or '.join(map(repr, guesses))}?" if guesses else ""
            raise click.UsageError(f"No such command {name!r}.{meant} Commands: "
                                   f"{', '.join(sorted(self.commands))}.", ctx) from None


class SectionedCommand(click.Command):
    """A command whose ``--help`` lists its options in sections by purpose (:data:`SECTIONS`)."""

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        groups: dict[str, list] = {}
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is not None:
                groups.setdefault(SECTION_OF.get(param.name, "Other options"), []).append(record)
        for title in (*SECTIONS, "Other options"):
            if title in groups:
                with formatter.section(title + (" options" if title != "Other options" else "")):
                    formatter.write_dl(groups[title])


def given_options(ctx: click.Context) -> set[str]:
    """The options the user typed on the command line (not left to their defaults)."""
    return {name for name in ctx.params
            if ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE}


MOVED = ("unused_options", "WRITER_OPTIONS", "STANDING", "PRINTED_IGNORES", "MODE_OPTIONS")


def __getattr__(name: str):
    """What options a run uses is the library's rule now (:mod:`blockmaze.jobs`); the old names
    still work here, with a DeprecationWarning."""
    if name in MOVED:
        import warnings

        from . import jobs

        warnings.warn(f"blockmaze.cli_options.{name} moved to blockmaze.jobs.{name}",
                      DeprecationWarning, stacklevel=2)
        return getattr(jobs, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
