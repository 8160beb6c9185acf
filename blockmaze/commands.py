"""Every command as a typed description: one frozen dataclass per command, each option a field
that says once its type, default, help, help group, and the outputs, grids and modes it applies
to. The ``blockmaze`` command and the studio's form are built from these classes, and
:func:`blockmaze.jobs.run` takes an instance; defaults exist here only.

Options are named by their parameter names (``mc_version`` for ``--mc-version``). A value typed
as text (``"20x30"``, ``"2"``) is parsed by the option's type, as the command line parses it.

Example
-------
>>> job = make_job("generate", size="6x8", seed=3, passage=2)
>>> job.size, job.passage, job.height, sorted(job.given)
((6, 8), (2, 2), 3, ['passage', 'seed', 'size'])
>>> [o.flag for o in options_of("dungeon") if o.group == "Pictures"]
[]
"""

from __future__ import annotations

import dataclasses
import enum
import math
import os
import re
from dataclasses import dataclass, field
from typing import Any, ClassVar
from collections.abc import Callable

import click

from .errors import BadFileError, BlockmazeError
from .export import FORMATS, MAX_BLOCK_SIZE, MIN_BLOCK_SIZE, PICTURE_STYLES
from .export.minecraft.versions import DATA_VERSIONS, DEFAULT_MC_VERSION
from .dungeon import STYLES as DUNGEON_STYLES
from .grids import FLAT_KINDS, GRID_KINDS
from .materials import DEFAULT_THEME, Material, theme_names
from .render import STYLE_NAMES as TEXT_STYLES
from .solver_methods import METHODS as SOLVERS
from .export.defaults import (BED, CELL_SIZE, CHUNK, PAGE, PICTURE_STYLE, SCHEM_VERSION, TERRAIN, TILE_ENCODING, TIME,
                              Y)

MAX_SEED = 2 ** 64 - 1
MAX_LEVELS = 256  # dungeon levels (each a dungeon of its own)
# sizes, thicknesses: ASCII digits only (no superscripts), at most this many of them
NUMBER = r"[0-9]{1,12}"

# help groups, in the order --help lists them
GROUPS = ("Batch", "Maze", "Blocks", "Output", "Minecraft", "Worlds", "Meshes", "Game engines",
          "Tile maps", "Pictures", "Paper", "Analysis", "Studio")
# grid kinds drawn by the 2n+1 converter (wall and passage) and by rasterizing (scale)
CONVERTED = frozenset({"square", "layered", "weave"})
RASTERIZED = frozenset({"hex", "upsilon", "triangle", "polar", "labyrinth"})
# -g labyrinth: a classical labyrinth drawn on a polar grid (blockmaze.mazes.labyrinths); the
# options that carve a maze do not apply to it
LABYRINTH = "labyrinth"
CARVED = frozenset(GRID_KINDS)
LABYRINTH_STYLES = ("cretan", "chartres")
# the kinds --unicursal splits (blockmaze.blocks.unicursal.UNICURSAL_KINDS): those with one flat plan
UNICURSAL = frozenset({"square", "hex", "triangle", "upsilon", "polar"})
STOPS = frozenset(FLAT_KINDS) - {"layered"}  # kinds with exits and checkpoints
CYLINDER = frozenset({"cylinder"})  # a puzzle box's


# --- the value types (text in, value out; click's ParamType, so the command uses them as they are)

def _bound(number: int) -> str:
    """A range's end as a person reads it: ``2**64-1`` rather than twenty digits.

    >>> _bound(2 ** 64 - 1), _bound(319)
    ('2**64-1', '319')
    """
    if number >= 2 ** 32 and (number + 1) & number == 0:
        return f"2**{(number + 1).bit_length() - 1}-1"
    return str(number)


class Whole(click.IntRange):
    """A whole number in a range, refused in words (click's own says a word "is not a valid
    integer range").

    >>> Whole(0, MAX_SEED).wanted(), Whole(min=1).wanted()
    ('a whole number from 0 to 2**64-1', 'a whole number from 1 up')
    """

    def wanted(self) -> str:
        """What the option takes, in words."""
        low, high = self.min, self.max
        if high is None:
            return "a whole number" if low is None else f"a whole number from {_bound(low)} up"
        if low is None:
            return f"a whole number up to {_bound(high)}"
        return f"a whole number from {_bound(low)} to {_bound(high)}"

    def convert(self, value, param, ctx):
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter:
            self.fail(f"{value!r} is not {self.wanted()}", param, ctx)


class FormatName(click.Choice):
    """An output format by its name or by its suffix (``json`` or ``.json`` is ``maze``, the
    suffix the output's name would have), as the format's name.

    >>> FormatName(["maze", "ascii", "tilemap"]).convert(".json", None, None)
    'maze'
    >>> FormatName(["maze", "ascii", "tilemap"]).convert("tilemap.json", None, None)
    'tilemap'
    """

    def convert(self, value, param, ctx):
        if isinstance(value, str) and value not in self.choices:
            suffix = "." + value.lower().lstrip(".")
            named = [name for name in self.choices if suffix in FORMATS[name].suffixes]
            if named:
                return named[0]
            if value.lower() in self.choices:
                return value.lower()
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter:
            other = ", ".join(f"{s} for {n}" for n in self.choices for s in FORMATS[n].suffixes
                              if s != f".{n}")
            self.fail(f"{value!r} is not a format: give one of {', '.join(self.choices)}, or its "
                      f"suffix ({other})", param, ctx)


def _release_key(name: str) -> tuple[int, ...]:
    """A release name as numbers, to put it among the others: ``1.21.4`` -> (1, 21, 4)."""
    return tuple(int(part) for part in name.split("."))


class ReleaseName(click.Choice):
    """A Minecraft Java release blockmaze knows, refused with the range and the nearest releases
    (not the whole list, which runs to fifty names).

    >>> ReleaseName(["1.20.4", "1.20.5", "1.21"]).nearest("1.20.7")
    ['1.20.5', '1.21']
    """

    def nearest(self, value: str) -> list[str]:
        """The known releases just below and just above ``value`` (a dotted number)."""
        key = _release_key(value)
        ordered = sorted(self.choices, key=_release_key)
        below = [name for name in ordered if _release_key(name) < key][-1:]
        above = [name for name in ordered if _release_key(name) > key][:1]
        return below + above

    def convert(self, value, param, ctx):
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter:
            ordered = sorted(self.choices, key=_release_key)
            known = f"blockmaze knows the releases from {ordered[0]} to {ordered[-1]}"
            if isinstance(value, str) and re.fullmatch(r"[0-9]{1,4}(\.[0-9]{1,4}){0,3}", value):
                near = self.nearest(value)
                near_ = f"is {near[0]}" if len(near) == 1 else f"are {' and '.join(near)}"
                self.fail(f"{value!r} is not a release blockmaze knows; the nearest {near_} "
                          f"({known})", param, ctx)
            self.fail(f"{value!r} is not a release number such as {DEFAULT_MC_VERSION}; {known}",
                      param, ctx)


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
        if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
            return value, value
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
        if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
            return SizeValue((value,))
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
        size = SizeValue(int(p[1]) for _, p in sorted(zip(axes, parts, strict=True),
                                                       key=lambda pair: pair[0]))
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


class Finite(click.FloatRange):
    """A FloatRange that refuses nan and infinity."""

    def convert(self, value, param, ctx):
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return number


class Groove(click.ParamType):
    """A finger labyrinth's groove: ``WIDTHxDEPTH`` millimetres (numbers > 0), as a pair."""

    name = "WIDTHxDEPTH"

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        match = re.fullmatch(r"\s*([0-9]{1,4}(?:\.[0-9]{1,3})?)\s*[xX×]\s*([0-9]{1,4}(?:\.[0-9]{1,3})?)\s*",
                             str(value))
        if not match or float(match[1]) <= 0 or float(match[2]) <= 0:
            self.fail(f"a groove is WIDTHxDEPTH in millimetres, both > 0 (e.g. 8x3), got "
                      f"{value!r}", param, ctx)
        return float(match[1]), float(match[2])


class Checked(click.ParamType):
    """A value a library function checks (:meth:`checked`, raising a BlockmazeError): its
    message is the option's usage error."""

    def checked(self, value):
        raise NotImplementedError

    def convert(self, value, param, ctx):
        try:
            return self.checked(value)
        except BlockmazeError as error:
            self.fail(str(error), param, ctx)


class PageSize(Checked):
    """A page: a name (A4, letter, ...) or ``WIDTHxHEIGHTmm`` / ``in``, kept as given (the PDF
    writer measures it)."""

    name = "A4|letter|WxHmm"

    def checked(self, value):
        from .export.paper import page_size

        page_size(value)
        return str(value).strip()


class Sheets(Checked):
    """Sheets to cut a picture over: ``COLSxROWS``, as a pair."""

    name = "COLSxROWS"

    def checked(self, value):
        from .export.paper import sheets_of

        return sheets_of(value)


class Place(click.ParamType):
    """A place on the world's map: ``X,Z`` whole blocks, as an (x, z) pair."""

    name = "X,Z"

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        match = re.fullmatch(r"\s*(-?[0-9]{1,8})\s*,\s*(-?[0-9]{1,8})\s*", str(value))
        if not match or max(abs(int(match[1])), abs(int(match[2]))) > 29_999_984:
            self.fail(f"a place is X,Z in whole blocks inside the world border (e.g. 120,-40), "
                      f"got {value!r}", param, ctx)
        return int(match[1]), int(match[2])


class Bed(Groove):
    """A print bed: ``WIDTHxDEPTH`` millimetres (numbers > 0), as a pair."""

    def convert(self, value, param, ctx):
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter:
            self.fail(f"a bed is WIDTHxDEPTH in millimetres, both > 0 (e.g. 220x220), got "
                      f"{value!r}", param, ctx)


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


class AlgorithmSpec(Checked):
    """An algorithm name, or NAME:OPTION."""

    name = "NAME[:OPTION]"

    def checked(self, value):
        from .algorithms import get_algorithm

        get_algorithm(value)
        return value


# --- records

class Record:
    """A frozen dataclass's methods, written once for every dataclass of this module.

    For each dataclass, Python writes and compiles the source of its ``__init__``, ``__repr__``,
    ``__eq__``, ``__hash__`` and (frozen) ``__setattr__`` and ``__delattr__``, over all its fields,
    inherited ones too: for these classes of up to sixty fields that was most of the command's
    start (about 15 ms of a printed 10x10 maze's 0.3 s). A subclass is a
    ``@dataclass(kw_only=True, init=False, repr=False, eq=False)`` that inherits these instead:
    the same behaviour (keyword arguments, defaults, compared and shown fields, frozen).

    >>> option = Option(name="x", default=1, help="", group="")
    >>> option == Option(name="x", default=1, help="", group=""), option.default
    (True, 1)
    >>> option.default = 2
    Traceback (most recent call last):
    ...
    dataclasses.FrozenInstanceError: cannot assign to field 'default'
    """

    def __init__(self, **values: Any) -> None:
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            if f.name in values:
                value = values.pop(f.name)
            elif f.default is not dataclasses.MISSING:
                value = f.default
            elif f.default_factory is not dataclasses.MISSING:
                value = f.default_factory()
            else:
                raise TypeError(f"{type(self).__name__} needs {f.name}")
            object.__setattr__(self, f.name, value)
        if values:
            raise TypeError(f"{type(self).__name__} has no field {', '.join(sorted(values))}")
        check = getattr(self, "__post_init__", None)  # (as a dataclass's __init__ calls it)
        if check is not None:
            check()

    def _compared(self) -> tuple:
        return tuple(getattr(self, f.name) for f in dataclasses.fields(self) if f.compare)  # type: ignore[arg-type]

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._compared() == other._compared()

    def __hash__(self) -> int:
        return hash(self._compared())

    def __repr__(self) -> str:
        shown = (f"{f.name}={getattr(self, f.name)!r}" for f in dataclasses.fields(self) if f.repr)  # type: ignore[arg-type]
        return f"{type(self).__name__}({', '.join(shown)})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")


# --- one option

class Where(str, enum.Enum):
    """Where an option applies: the outputs it is for (its value is the name the studio's page
    and the descriptions use; :attr:`text` says it in words).

    >>> Where("tiles").text, Where.BLOCKS.takes_file(False, False)
    ("tile maps and dungeon pictures (what a plan's entities show)", True)
    """

    ANY = "any"
    PRINTED = "printed"
    FILE = "file"
    BLOCKS = "blocks"
    VOLUME = "volume"
    EXTRUSION = "extrusion"
    TILES = "tiles"

    @property
    def text(self) -> str:
        return _WHERE_TEXT[self]

    @property
    def printed(self) -> bool:
        """Whether it applies to a maze printed in the terminal."""
        return self in (Where.ANY, Where.PRINTED)

    def takes_file(self, draws_maze: bool, entities: bool) -> bool:
        """Whether it applies to an output file whose writer draws the maze itself
        (``draws_maze``: a picture, a maze document) or shows a plan's ``entities`` (a tile
        map, a dungeon's picture)."""
        if self is Where.PRINTED:
            return False
        if self is Where.BLOCKS:
            return not draws_maze
        if self in (Where.VOLUME, Where.EXTRUSION):
            return not (draws_maze or entities)
        if self is Where.TILES:
            return entities
        return True


_WHERE_TEXT = {
    Where.ANY: "",
    Where.PRINTED: "a maze printed in the terminal",
    Where.FILE: "any output file",
    Where.BLOCKS: "block and tile files",
    Where.VOLUME: "block files (blocks stood up: not tile maps)",
    Where.EXTRUSION: "block files of a flat plan stood up (not a 3-D blockwise maze)",
    Where.TILES: "tile maps and dungeon pictures (what a plan's entities show)",
}


@dataclass(kw_only=True, init=False, repr=False, eq=False)  # frozen: see Record
class Option(Record):
    """One option of a command: what it parses, its default, help and help group, and where it
    applies (a run that does not use a given option warns about it).

    ``writer``: the writer keyword it sets (it applies to the outputs whose writer takes that
    keyword; ``to_writer`` turns the value into the writer's); ``where``: a :class:`Where`, the
    outputs it applies to; ``not_for``: format names it never applies to; ``shown``: the default as typed on the command line, where
    it is not the value itself (``auto``); ``grids``, ``modes``: the grid kinds and blockwise modes
    it applies to (None: all). ``printed``: a writer's option that applies to a printed maze too
    (``--solve``: the terminal draws the way). ``process``: it configures the run on this machine (memory), and
    ``studio=False``: it names the server's files; the studio takes neither from a request.
    ``argument``: the command's positional argument (``required`` unless another option can
    stand for it: a mask gives a maze its size).
    """

    name: str
    default: Any
    help: str
    group: str
    type: Any = None
    flags: tuple[str, ...] = ()
    off: str | None = None
    metavar: str | None = None
    shown: str | None = None
    show_default: bool = True
    where: Where = Where.ANY
    writer: str | None = None
    to_writer: Callable[[Any], Any] | None = None
    not_for: frozenset[str] = frozenset()
    grids: frozenset[str] | None = None
    grid_note: str = ""
    modes: frozenset[str] | None = None
    printed: bool = False
    process: bool = False
    studio: bool = True
    argument: bool = False
    required: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "where", Where(self.where))  # (a name: ValueError for another)

    @property
    def flag(self) -> str:
        """The long flag without its dashes: ``mc-version``."""
        longs = [f for f in self.flags if f.startswith("--")]
        return longs[0][2:] if longs else self.name.replace("_", "-")

    @property
    def switch(self) -> bool:
        """An on/off option (``--roof/--no-roof``) or a flag."""
        return isinstance(self.default, bool) or self.off is not None

    @property
    def hint(self) -> str:
        """How an error names the option, as the command names it: ``'-a' / '--algorithm'``."""
        if self.argument:
            return f"'{self.metavar}'"
        return " / ".join(f"'{flag}'" for flag in (self.flags or (f"--{self.flag}",)))

    def parse(self, value):
        """``value`` as this option's type makes it (text is parsed; values pass through), or
        the command's one-line message.

        >>> options_of("generate", "passage")[0].parse("2x3")
        (2, 3)
        >>> options_of("generate", "braid")[0].parse("2")
        Traceback (most recent call last):
        ...
        blockmaze.errors.BlockmazeError: Invalid value for '--braid': 2.0 is not in the range 0<=x<=1.
        """
        if self.type is None or value is None or (self.switch and isinstance(value, bool)):
            return value
        try:
            return self.type.convert(value, None, None)
        except click.BadParameter as error:
            raise BlockmazeError(f"Invalid value for {self.hint}: {error.message}") from None


def option(default: Any, help: str, group: str, type: Any = None, **details) -> Any:
    """A job field described as a command option (see :class:`Option` for ``details``)."""
    return field(default=default,
                 metadata={"option": dict(default=default, help=help, group=group, type=type,
                                          **details)})


def argument(help: str, type: Any, metavar: str, required: bool = True) -> Any:
    """A job field that is the command's positional argument (None when not ``required``)."""
    return field(default=None, metadata={"option": dict(default=None, help=help, group="",
                                                        type=type, metavar=metavar,
                                                        argument=True, required=required)})


# --- the commands

FORMAT_NAMES = sorted(name for name, row in FORMATS.items() if not row.companion)
FILLS = [m.name.lower() for m in Material if m and m < Material.MONSTER]  # not spawns


@dataclass(kw_only=True, init=False, repr=False, eq=False)  # frozen: see Record
class Job(Record):
    """What every command's description shares: the options the user chose (``given``: those
    typed, or passed to :func:`make_job`; options left to their defaults are never warned of).

    >>> Generate(size=(2, 3)) == Generate(size=(2, 3), given={"size"}), Generate(size=(2, 3)).seed
    (True, None)
    """

    command: ClassVar[str] = ""
    given: frozenset[str] = field(default=frozenset(), compare=False, repr=False)


@dataclass(kw_only=True, init=False, repr=False, eq=False)  # frozen: see Record
class Output(Job):
    """Options of every command that writes files: what is written and how blocks stand up."""

    output: str | None = option(
        None, "File to write (- for standard output, with --format). Without it the maze is "
              "printed. A world (--format world) is a folder.", "Output",
        FilePath(allow_dash=True), flags=("-o", "--output"), show_default=False, studio=False)
    format_: str | None = option(
        None, "Output format; by default the suffix of --output decides (.json: a maze "
              "document).", "Output", FormatName(FORMAT_NAMES), flags=("-f", "--format"),
        where="file", show_default=False)
    text_style: str | None = option(
        None, "How the maze is drawn when no --output is given; by default box, and blocks for "
              "block plans (blockwise, dungeons, rasterized kinds).", "Output",
        click.Choice(TEXT_STYLES), show_default=False, where="printed")
    memory_limit: str | None = option(
        None, "Refuse, before any work, a job that needs more memory than SIZE (e.g. 512M, 8G; "
              "default: the memory available, or the environment's BLOCKMAZE_MEMORY_LIMIT).",
        "Output", metavar="SIZE", show_default=False, process=True)
    height: int = option(3, "Wall height in blocks.", "Blocks", Whole(min=1),
                         where="extrusion")
    floor: bool = option(True, "Lay a floor under the maze.", "Blocks", where="extrusion")
    roof: bool = option(False, "Put a roof over the maze.", "Blocks", where="extrusion")
    lights: bool = option(False, "Set light blocks into the floor so every walkable block has "
                                 "block light >= 1 (no hostile mob spawns in the passages).",
                          "Blocks", where="volume")
    hollow: bool = option(False, "Take out wall blocks buried in solid blocks, leaving pockets "
                                 "one block tall and never 2x2 wide, where no mob spawns.",
                          "Blocks", where="volume")
    theme: str = option(DEFAULT_THEME, f"Block theme: one of {', '.join(theme_names())}, or a "
                                       f"theme JSON file.", "Blocks",
                        metavar="NAME|FILE", where="file", not_for=frozenset({"maze"}))
    mc_version: str = option(
        DEFAULT_MC_VERSION, f"Minecraft Java release the file is for: any release from "
                            f"{next(iter(DATA_VERSIONS))} to {list(DATA_VERSIONS)[-1]}.",
        "Minecraft", ReleaseName(list(DATA_VERSIONS)),
        metavar="VERSION", writer="mc_version")
    schem_version: str = option(str(SCHEM_VERSION), "Sponge schematic version: 2 loads everywhere, 3 is "
                                     "WorldEdit 7.3's own.", "Minecraft", click.Choice(("2", "3")),
                                writer="schem_version", to_writer=int)
    keep_terrain: bool = option(
        False, "Structure files, datapacks and .mts: leave the world's blocks where the maze has "
               "air (default: air is placed, carving through terrain).", "Minecraft",
        off="--carve-terrain", writer="keep_terrain")
    split: int | None = option(None, ".schem: write tiles of at most NxN blocks "
                                     "(name_x<X>_z<Z>.schem).", "Minecraft",
                               Whole(min=16), metavar="N", show_default=False,
                               where="file", studio=False)
    terrain: str = option(
        TERRAIN, "Worlds: the ground around and under the maze: void, flat or grass for a new "
                 "world; with --into, flat (the maze on one level, the default there) or follow "
                 "(each column's floor on the ground under it, steps of one block at most).",
        "Worlds", click.Choice(("void", "flat", "grass", "follow")), writer="terrain")
    clear: str | None = option(
        None, "--into --terrain follow (or --ground): clear trees, water or both (trees,water) in "
              "the maze's footprint (default: kept; the ground is found under them either way).",
        "Worlds", metavar="trees,water", show_default=False, writer="clear")
    ground: str | None = option(
        None, ".schem: follow the ground of this .schem of the place the maze goes (what the "
              "Amulet operation writes of its selection; the maze at its north-west bottom "
              "corner): --terrain follow's rules, the places kept as they are structure voids.",
        "Worlds", FilePath(), metavar="FILE.schem", show_default=False, writer="ground",
        studio=False)
    y: int = option(Y, "Worlds: the height of the maze's lowest layer (the grass is at y-1).",
                    "Worlds", Whole(-64, 319), flags=("--y",), writer="y")
    into: str | None = option(
        None, "Build the maze into this world folder, Java (1.18+) or Bedrock (level.dat and "
              "db/; close it in the game first) instead of writing a file: only the chunks it "
              "covers change, all or nothing.",
        "Worlds", FilePath(), metavar="WORLD", show_default=False, studio=False)
    at: tuple[int, int] | None = option(
        None, "--into: the maze's centre in the world, X,Z (default: the world's spawn); --y "
              "sets its lowest layer (default: one above the ground there).", "Worlds", Place(),
        show_default=False, writer="at", studio=False)
    backup: bool = option(True, "--into: keep the region files it replaces (a Bedrock "
                                "world: its database) in WORLD/blockmaze-backups/.", "Worlds", off="--no-backup",
                          writer="backup", studio=False)
    mobs: bool = option(False, "Worlds: let mobs spawn (game rule doMobSpawning).", "Worlds",
                        writer="mobs")
    time: int = option(TIME, "Worlds: fixed time of day in ticks (6000 = noon); -1 lets days "
                             "pass.", "Worlds", Whole(min=-1, max=2 ** 63 - 1),
                       writer="time", to_writer=lambda ticks: None if ticks < 0 else ticks)
    block_size: float | None = option(
        None, "Meshes: the size of a block, in metres for .glb/.gltf/.obj/.ply (default 1) and "
              "millimetres for .stl (default 5).", "Meshes", Finite(MIN_BLOCK_SIZE, MAX_BLOCK_SIZE),
        show_default=False, writer="block_size")
    raw_mesh: bool = option(
        False, "Meshes: the plain greedy mesh (fewer triangles, for rendering only) instead of a "
               "watertight, manifold one.", "Meshes", off="--watertight-mesh",
        writer="watertight", to_writer=lambda raw: not raw)
    finger: tuple[float, float] | None = option(
        None, ".stl: a finger labyrinth to print instead: a solid plate with the passages as a "
              "groove WIDTH mm wide and DEPTH mm deep (e.g. 8x3), over a 2 mm base.", "Meshes",
        Groove(), metavar="WIDTHxDEPTH", show_default=False, writer="finger")
    bed: tuple[float, float] = option(
        BED, ".stl, .3mf: the printer's bed in millimetres; a part larger than it "
                        "is written with a warning saying what --block-size (or --finger "
                        "groove) would fit.", "Meshes", Bed(), metavar="WIDTHxDEPTH",
        shown="220x220", writer="bed")
    collision: bool = option(False, "glTF: add a collision node of merged boxes (Godot imports "
                                    "it by its -colonly name).", "Meshes", writer="collision")
    chunk: int = option(CHUNK, "glTF: a node per chunk of this many blocks a side and material "
                             "(0: none).", "Meshes", Whole(min=0), writer="chunk")
    quantize: bool | None = option(
        None, "glTF: integer vertices, a smaller file that requires KHR_mesh_quantization: Unity "
              "glTFast, Blender, three.js and Babylon.js read it (Unreal 5.1+ lists it), Godot 4 "
              "refuses it. Default: plain floats, which every engine reads (--compress meshopt "
              "quantizes unless --no-quantize).", "Meshes", off="--no-quantize",
        show_default=False, writer="quantize")
    compress: str = option(
        "none", "glTF: EXT_meshopt_compression, the smallest file, for three.js, Babylon.js and "
                "Unity glTFast (needs the meshoptimizer package: pip install meshoptimizer, or "
                "pip install '.[meshopt]' in a checkout).", "Meshes", click.Choice(("none", "meshopt")),
        writer="compress", to_writer=lambda name: None if name == "none" else name)
    uv: bool = option(False, "glTF: world-space UVs in blocks, for a tiling texture.", "Meshes",
                      writer="uv")
    kit: str | None = option(
        None, "Kit scenes (.kit.glb, .tscn; with -o NAME.glb too): a .glb of your pieces, each a node named as the "
              "piece (dead-end, corridor, corner, tee, cross; see docs/guides/engines.md); "
              "default: blockmaze's voxel pieces.", "Game engines", FilePath(), metavar="KIT.glb",
        show_default=False, writer="kit", studio=False)
    instancing: bool = option(
        False, ".kit.glb: a node per piece with its cells as EXT_mesh_gpu_instancing "
               "attributes (a file that requires the extension) instead of a node a cell.",
        "Game engines", writer="instancing")
    navmesh: bool = option(
        False, ".kit.glb, .glb, .gltf: add the walkable floor as a node named floor-navmesh "
               "(Godot imports it as a navigation mesh; a voxel .glb's maze without stairs).",
        "Game engines", writer="navmesh")
    tile_encoding: str = option(TILE_ENCODING, "Tiled maps (.tmx, .tmj): layer data encoding.",
                                "Tile maps", click.Choice(("csv", "base64", "base64-zlib",
                                                     "base64-gzip")), writer="encoding")
    external_tileset: bool = option(
        False, "Tiled maps: write the tile set as its own .tsx/.tsj file beside the map.",
        "Tile maps", off="--embedded-tileset", writer="external_tileset")


@dataclass(kw_only=True, init=False, repr=False, eq=False)  # frozen: see Record
class GraphMaze(Output):
    """Options of the commands that write a graph maze (generate, export): how its cells become
    blocks, and pictures of it."""

    wall: tuple[int, int] | None = option(
        None, "Wall thickness in blocks: N, or ZxX to differ along z (north-south) and x "
                "(east-west); by default 1, and 4 for weave mazes (their stairs fit in the walls).",
        "Blocks", Dimensions("wall thickness", "2 or 1x2"),
        metavar="N|ZxX", show_default=False, where="blocks", grids=CONVERTED,
        grid_note="they use --scale")
    passage: tuple[int, int] | None = option(
        None, "Passage width in blocks: N, or ZxX; by default 1, and 2 for layered mazes (their "
              "cells hold spiral stairs).", "Blocks",
        Dimensions("passage thickness", "3 or 2x3"), metavar="N|ZxX",
        show_default=False, where="blocks", grids=CONVERTED,
        grid_note="they use --scale")
    scale: int | None = option(
        None, "Hex, upsilon, triangle and polar mazes: blocks per unit of cell size (at least: "
              "hex 3, upsilon 4, polar 4, triangle 5; default 4, or the kind's least if larger; "
              "printed mazes use the least). With --unicursal: the corridors the maze is drawn "
              "in to be split (default the least), in every output.", "Blocks",
        Whole(min=1),
        show_default=False, where="blocks", grids=RASTERIZED,
        grid_note="they use --wall and --passage")
    bridges: bool = option(
        False, "Weave mazes in blocks: raise each crossing as a bridge over the passage below "
               "(walls --height 5 or more), or dig that passage as a tunnel under it.", "Blocks",
        off="--tunnels", where="blocks", grids=frozenset({"weave"}),
        grid_note="only weave mazes have crossings")
    solution: bool = option(False, "Mark the path from start to goal (PATH, START and GOAL "
                                   "materials).", "Blocks", not_for=frozenset({"maze"}))
    picture_style: str = option(PICTURE_STYLE, "Pictures (.png, .svg): lines are walls, lines are "
                                         "paths, or filled blocks.", "Pictures",
                                click.Choice(PICTURE_STYLES), writer="style")
    cell_size: float = option(CELL_SIZE, "Pictures: pixels per cell.", "Pictures", Finite(min=1, max=1000),
                              writer="cell_size")
    shade: bool = option(False, "Pictures: colour each cell by its distance from the start.",
                         "Pictures", writer="shade")
    solve: str | None = option(None, "Pictures: draw the way this solver finds from start to "
                                     "goal, the cells it visited shaded by when it came to them "
                                     "(without --shade). Printed mazes: draw the way (as "
                                     "--solution does); with --animate, replay the solver's walk "
                                     "after the carve.", "Pictures", click.Choice(SOLVERS),
                               writer="solve", printed=True, show_default=False)
    page: str = option(PAGE, ".pdf: the page size, A4, A3, A5, letter, legal or WIDTHxHEIGHTmm "
                             "(or in); the maze is turned to landscape where it is drawn larger.",
                       "Paper", PageSize(), metavar="A4|letter|WxHmm", writer="page")
    answers: bool = option(False, ".pdf: add an answer page, the maze with its solution.",
                           "Paper", writer="answers")
    sheets: tuple[int, int] = option(
        (1, 1), ".pdf: cut the maze over COLSxROWS pages that overlap by 15 mm, labelled A1, "
                "B1, ... with alignment marks where they meet, to tape together.", "Paper",
        Sheets(), metavar="COLSxROWS", shown="1x1", writer="sheets")


ALGORITHM_HELP = "Generation algorithm (listed below), NAME or NAME:OPTION."
SEED_HELP = "Seed: the same seed gives the same maze and the same file. Drawn at random (and " \
            "reported) if omitted."


def _seed() -> Any:
    return option(None, SEED_HELP, "Maze", Whole(0, MAX_SEED), flags=("-s", "--seed"),
                  show_default=False)


@dataclass(kw_only=True, init=False, repr=False, eq=False)  # frozen: see Record
class Generate(GraphMaze):
    """``blockmaze generate SIZE``: a maze of SIZE cells, printed or written."""

    command: ClassVar[str] = "generate"
    size: tuple[int, ...] | None = argument("", Size(), "[SIZE]", required=False)
    kind: str = option("square", "Cell shape. SIZE is ROWSxCOLS, RINGS for polar and sphere "
                                 "(pole to pole), N for cube (a face's side), LEVELSxROWSxCOLS "
                                 "for layered; cylinder, torus, moebius, cube and sphere lie on "
                                 "surfaces (pictures draw their nets); axis letters name the numbers in "
                                 "any order (30Cx20R, 3Hx20Rx30C). labyrinth: a classical "
                                 "labyrinth (--style), SIZE its circuits (or --circuits).", "Maze",
                       click.Choice(sorted([*GRID_KINDS, LABYRINTH])), flags=("-g", "--grid"))
    style: str = option("cretan", "-g labyrinth: cretan (the classical labyrinth, from its seed "
                                  "pattern) or chartres (the medieval 11-circuit one).", "Maze",
                        click.Choice(LABYRINTH_STYLES), grids=frozenset({LABYRINTH}),
                        grid_note="only -g labyrinth has a style")
    circuits: int | None = option(None, "-g labyrinth: how many circuits round the centre: 3, 7, "
                                        "11, 15, ... for cretan (default 7); 11 for chartres.",
                                  "Maze", Whole(3, 199), show_default=False,
                                  grids=frozenset({LABYRINTH}),
                                  grid_note="only -g labyrinth has circuits")
    unicursal: bool = option(False, "Split every passage lengthwise (Pullen): one path with no "
                                    "junction through every cell, on a square grid (a square "
                                    "maze's cells split 2x2; another kind is first drawn in "
                                    "1-block corridors at --scale, each block a cell). Not for "
                                    "layered or weave grids.", "Maze", grids=UNICURSAL,
                             grid_note="levels and crossings have no one plan to split")
    fit: tuple[int, ...] | None = option(None, "In place of SIZE: the most cells whose plan fits "
                                               "ROWSxCOLS blocks (north-south x east-west), at "
                                               "the walls, passages or scale given; "
                                               "HEIGHTxROWSxCOLS for a layered maze, its levels "
                                               "from the height.", "Blocks", Size(),
                                         metavar="[HEIGHTx]ROWSxCOLS", show_default=False,
                                         studio=False, grids=CARVED,
                                         grid_note="a labyrinth's size is its circuits")
    mask: str | None = option(None, "Cells to leave out: a text file (X = off) or a "
                                    "black-and-white picture (black = off).", "Maze",
                              FilePath(exists=True, dir_okay=False), show_default=False,
                              studio=False)
    algorithm: str = option("backtracker", ALGORITHM_HELP, "Maze", AlgorithmSpec(),
                            flags=("-a", "--algorithm"), grids=CARVED,
                            grid_note="a labyrinth's path is its design")
    seed: int | None = _seed()
    braid: float = option(0.0, "Share of dead ends to remove by opening a wall (0 = a perfect "
                               "maze).", "Maze", Finite(0, 1), grids=CARVED,
                          grid_note="a labyrinth's path is its design")
    difficulty: str | None = option(
        None, "How hard the maze is to solve: easy, medium, hard (a third of mazes each) or a "
              "number from 0 to 1 (within 0.1 of it); the algorithm and its mix are chosen to "
              "land there (from the seed), and the measured difficulty is printed. See "
              "blockmaze docs analysis.", "Maze", metavar="easy|medium|hard|0..1",
        show_default=False, grids=CARVED, grid_note="a labyrinth's path is its design")
    prefab: str | None = option(None, "A structure to place in the maze: a .schem (Sponge v2, "
                                      "v3), .nbt (structure) or one-region .litematic; @center "
                                      "(the default), @goal (in the far corner, the goal at its "
                                      "door) or @dead-ends (one that fits in a cell, in every dead "
                                      "end). The maze stays perfect around it and reaches it "
                                      "through one door. Java block files only.", "Blocks",
                                metavar="FILE[@center|goal|dead-ends]", show_default=False, studio=False,
                                where="volume", grids=frozenset({"square"}),
                                grid_note="a prefab's footprint is square cells")
    entrances: bool = option(False, "Start and goal on the outer wall, with openings cut there; "
                                    "otherwise they are the two ends of the longest path.", "Maze",
                             grids=CARVED, grid_note="a labyrinth has its entrance")
    exits: int = option(0, "Cut N more openings in the outer wall besides start's and goal's, "
                           "spread around the maze (each the border cell farthest along the "
                           "passages from the openings before it), marked EXIT.", "Maze",
                        Whole(0, 1000), metavar="N", grids=STOPS,
                        grid_note="a layered maze's levels do not show them yet")
    checkpoints: int = option(0, "Mark N cells the way from start to goal passes, in order, "
                                 "spread evenly along it (CHECKPOINT); --solution marks the way "
                                 "through them.", "Maze", Whole(0, 1000), metavar="N",
                              grids=STOPS,
                              grid_note="a layered maze's levels do not show them yet")
    weave: float = option(0.0, "With -g weave: the chance that a cell is a crossing, where a "
                               "passage may go under it (0 = none; -a kruskal:weave uses most of "
                               "them). Blocks need --wall 4 or more (the default there; 3 with "
                               "--bridges): stairs fit in the walls.", "Maze", Finite(0, 1),
                          grids=frozenset({"weave"}), grid_note="only weave grids have crossings")
    minigame: int | None = option(
        None, "Datapacks: a maze minigame of N layouts of this size (layout 1 from the seed, the "
              "others from the seed and their number): /function blockmaze:next builds the next "
              "over the last, a timer runs from the start plate to the finish plate, the best "
              "times are on the sidebar.", "Minecraft", Whole(1, 64), metavar="N",
        show_default=False, studio=False, grids=CARVED, grid_note="a labyrinth's path is its design",
        # the datapack writer takes the layouts themselves, which the job makes (jobs.generate)
        writer="layouts", to_writer=lambda layouts: None)
    puzzle_box: bool = option(
        False, "A cylinder puzzle box to print (-g cylinder, -o NAME.3mf): the maze cut round the "
               "inner part (ROWSxCOLS: COLS are one nub's share of the way round), a sleeve whose "
               "nubs walk it from the rim to the park, a lid and a base; NAME-PART.stl and "
               "NAME.box.json (the nub's path) beside it.", "Meshes", grids=CYLINDER,
        grid_note="a puzzle box is a cylinder's", studio=False)
    diameter: float = option(40.0, "--puzzle-box: the inner part's diameter in mm (the maze's "
                                   "surface).", "Meshes", Finite(5, 1000), grids=CYLINDER,
                             grid_note="a puzzle box is a cylinder's", studio=False)
    clearance: float = option(0.3, "--puzzle-box: the gap between the parts in mm, round the "
                                   "nubs in the grooves and the sleeve over the inner part.",
                              "Meshes", Finite(0, 5), grids=CYLINDER,
                              grid_note="a puzzle box is a cylinder's", studio=False)
    nubs: int = option(1, "--puzzle-box: the nubs round the sleeve, the maze repeated as many "
                          "times round.", "Meshes", Whole(1, 12), grids=CYLINDER,
                       grid_note="a puzzle box is a cylinder's", studio=False)
    animate: bool = option(False, "Printed mazes: replay the carve in the terminal first (plain "
                                  "output when standard output is not a terminal).", "Output",
                           where="printed")
    fps: int = option(30, "--animate: frames a second.", "Output", Whole(1, 240),
                      where="printed")


@dataclass(kw_only=True, init=False, repr=False, eq=False)  # frozen: see Record
class Export(GraphMaze):
    """``blockmaze export MAZE.json``: a saved maze document, printed or written."""

    command: ClassVar[str] = "export"
    document: str = argument("", FilePath(exists=True, dir_okay=False), "MAZE.json")


@dataclass(kw_only=True, init=False, repr=False, eq=False)  # frozen: see Record
class Blockwise(Output):
    """``blockmaze blockwise [HEIGHTx]ROWSxCOLS``: a maze exactly that many blocks."""

    command: ClassVar[str] = "blockwise"
    size: tuple[int, ...] = argument("", Size(), "[HEIGHTx]ROWSxCOLS")
    mode: str = option("strict", "strict: cells on odd blocks, passages carved between (any "
                                 "algorithm); relaxed: every block may be a cell, 1-block passages "
                                 "that never touch.", "Maze", click.Choice(("strict", "relaxed")))
    algorithm: str = option("backtracker", "strict mode: " + ALGORITHM_HELP, "Maze",
                            AlgorithmSpec(), flags=("-a", "--algorithm"),
                            modes=frozenset({"strict"}))
    ordering: str = option("backtracker", "relaxed mode: backtracker, prim, or "
                                          "growing-tree[:R|newest|random|oldest].", "Maze",
                           modes=frozenset({"relaxed"}))
    cells: tuple[int, int] | None = option(None, "strict mode: how many cells (otherwise as many "
                                                 "as fit).", "Maze", Dimensions("cells", "10x20"),
                                           metavar="ROWSxCOLS", show_default=False,
                                           modes=frozenset({"strict"}))
    border: bool = option(True, "relaxed mode: keep a solid outer ring.", "Maze",
                          modes=frozenset({"relaxed"}))
    fill: str | None = option(None, "relaxed mode: material for dead solid blocks (solid on all "
                                    "four sides).", "Maze", click.Choice(FILLS), show_default=False,
                              modes=frozenset({"relaxed"}))
    seed: int | None = _seed()
    wall: tuple[int, int] | None = option(
        None, "Wall thickness in blocks: N, or ZxX to differ along z (north-south) and x "
                "(east-west), or auto to fit the size exactly.", "Maze",
        Dimensions("wall thickness", "2 or 1x2", auto=True), metavar="N|ZxX|auto",
        shown="auto",
        modes=frozenset({"strict"}))
    passage: tuple[int, int] | None = option(
        None, "Passage width in blocks: N, or ZxX, or auto to fit the size exactly.", "Maze",
        Dimensions("passage thickness", "3 or 2x3", auto=True), metavar="N|ZxX|auto",
        shown="auto",
        modes=frozenset({"strict"}))


@dataclass(kw_only=True, init=False, repr=False, eq=False)  # frozen: see Record
class Dungeon(Output):
    """``blockmaze dungeon ROWSxCOLS``: a roguelike level of that many cells."""

    command: ClassVar[str] = "dungeon"
    size: tuple[int, int] = argument("", Dimensions("size", "40x60"), "ROWSxCOLS")
    style: str = option("rooms-and-mazes", "Level style (the corridor options below shape "
                                           "rooms-and-mazes only).", "Maze",
                        click.Choice(DUNGEON_STYLES))
    algorithm: str = option("backtracker", "Algorithm that grows the corridors between the "
                                           "rooms.", "Maze", AlgorithmSpec(),
                            flags=("-a", "--algorithm"))
    room_size: tuple[int, int] = option((2, 5), "Room side in cells, from MIN to MAX.", "Maze",
                                        RoomSize(), metavar="MIN:MAX", shown="2:5")
    room_attempts: int | None = option(None, "Rooms tried (overlapping ones are dropped); default "
                                             "fills about half the area.", "Maze",
                                       Whole(min=0), show_default=False)
    extra_doors: float = option(0.0, "Chance of each further door between regions (0 = exactly "
                                     "one way between them).", "Maze", Finite(0, 1))
    sparseness: float = option(1.0, "Share of dead-end corridor removed (1 = no dead ends).",
                               "Maze", Finite(0, 1))
    min_shortcut: int | None = option(None, "Add loops, each only where it shortens a walk by at "
                                            "least this many blocks.", "Maze",
                                      Whole(min=1), show_default=False)
    levels: int = option(1, "Levels joined by stairs: one stacked volume in block formats; in "
                            "tile maps each level is its own file (name-1, name-2, ...).", "Maze",
                         Whole(1, MAX_LEVELS))
    spawns: str | None = option(None, "Mark spawn points: monsters by distance from the start, "
                                      "items in room centres, treasure in dead ends.", "Maze",
                                metavar="MONSTERS:ITEMS:TREASURE", show_default=False)
    spawn_spacing: int = option(5, "Least distance in blocks between spawn points.", "Maze",
                                Whole(min=1))
    lock: bool = option(False, "A locked door on the only way to the goal, its key on the near "
                               "side (entities: tile maps and text maps show them).", "Maze",
                        where="tiles")
    prefab: str | None = option(None, "A vault for the rooms: a .schem (Sponge v2, v3), .nbt "
                                      "(structure) or one-region .litematic, a copy in the middle "
                                      "of every room it fits with a block to walk round it "
                                      "(@rooms, the only place). Java block files only.", "Blocks",
                                metavar="FILE[@rooms]", show_default=False, studio=False,
                                where="volume")
    seed: int | None = _seed()


@dataclass(kw_only=True, init=False, repr=False, eq=False)  # frozen: see Record
class Info(Job):
    """``blockmaze info FILE|WORLD``: what a file blockmaze wrote holds."""

    command: ClassVar[str] = "info"
    path: str = argument("", FilePath(exists=True), "FILE|WORLD")
    analysis: bool = option(False, "Also measure the maze a maze document (.json) or text map "
                                   "(.txt) holds: dead ends, junctions, corridors, the solution "
                                   "and its decision points, branches, loops and its difficulty "
                                   "(see blockmaze docs analysis).", "Analysis")
    json: bool = option(False, "Print what info finds as one JSON object.", "Analysis")


@dataclass(kw_only=True, init=False, repr=False, eq=False)  # frozen: see Record
class Serve(Job):
    """``blockmaze serve``: the studio, a local web page (not a job: it runs until stopped, and
    its limits bound each request it runs)."""

    command: ClassVar[str] = "serve"
    host: str = option("127.0.0.1", "Address to listen on; any other than 127.0.0.1 lets other "
                                    "machines in.", "Studio")
    port: int = option(8000, "Port to listen on.", "Studio", click.IntRange(1, 65535))
    open_browser: bool = option(False, "Open the page in the default browser.", "Studio",
                                flags=("--open",), off="--no-open")
    max_cells: int = option(250_000, "Most maze cells one request may ask for.", "Studio",
                            click.IntRange(min=1))
    max_blocks: int = option(20_000_000, "Most blocks one request may build.", "Studio",
                             click.IntRange(min=1))
    max_pixels: int = option(40_000_000, "Most pixels one request's picture may have.", "Studio",
                             click.IntRange(min=1))
    rate: int = option(1200, "Most requests a client may make a minute.", "Studio",
                       click.IntRange(min=1))


@dataclass(kw_only=True, init=False, repr=False, eq=False)  # frozen: see Record
class Batch(Job):
    """``blockmaze batch COMMAND [its options] --count N -o OUT``: many items of generate,
    blockwise or dungeon (:func:`blockmaze.batches.batch`); the command's own options follow it,
    and these are the batch's (its ``--seed`` is the root seed, its ``-o`` the folder)."""

    command: ClassVar[str] = "batch"
    count: int = option(100, "How many items to make.", "Batch", Whole(min=1), flags=("-n", "--count"))
    output: str = option("", "The folder: NAME.parquet (a Parquet dataset, a row per maze), "
                             "NAME.npz (.npz shards), or any other name with --format (a level "
                             "pack: a file per item, and index.json). A stopped batch given the "
                             "same options resumes.", "Batch", FilePath(), flags=("-o", "--output"),
                         show_default=False, studio=False)
    seed: int | None = option(None, "Root seed: item i's seed comes from it and i alone, so any "
                                    "number of workers gives the same bytes. Drawn (and recorded "
                                    "in the folder) if omitted.", "Batch", Whole(0, MAX_SEED),
                              flags=("-s", "--seed"), show_default=False)
    vary: str | None = option(None, "Options drawn for each item from ranges, words "
                                    "NAME=LOW:HIGH or NAME=A|B (e.g. \"size=9x9:31x31 "
                                    "braid=0:0.5 algorithm=prim|kruskal\").", "Batch",
                              metavar="NAME=RANGE ...", show_default=False)
    shard_size: int | None = option(None, "Items a shard (a file, a task); default 10000 for "
                                          "datasets, 100 for level packs.", "Batch",
                                    Whole(min=1), metavar="N", show_default=False)
    plan: bool = option(False, "Datasets: add each maze's block plan (plan, plan_shape: the "
                               "blocks generate writes, a byte each).", "Batch")
    measures: bool = option(False, "Datasets: add each maze's measures (info --analysis's: a "
                                   "measure_NAME column each).", "Batch")
    workers: int = option(1, "Processes (or Dask and Ray tasks at once).", "Batch", Whole(1, 4096),
                          metavar="N")
    engine: str = option("local", "Where the shards run: local processes, dask (pip install "
                                  "'blockmaze[dask]') or ray (pip install 'blockmaze[ray]').",
                         "Batch", click.Choice(("local", "dask", "ray")))
    scheduler: str | None = option(None, "--engine dask: a scheduler's address (default: a "
                                         "LocalCluster of --workers processes).", "Batch",
                                   metavar="ADDRESS", show_default=False)


# the commands that run a job (blockmaze.jobs.run); serve is described beside them
COMMANDS: dict[str, type[Job]] = {c.command: c for c in (Generate, Export, Blockwise, Dungeon,
                                                          Info)}
DESCRIBED: dict[str, type[Job]] = {**COMMANDS, "serve": Serve, "batch": Batch}
# the commands a batch makes items of
BATCHED = ("generate", "blockwise", "dungeon")


def options_of(command: str | type[Job], *names: str) -> tuple[Option, ...]:
    """The options of ``command`` (its argument first), or those of ``names`` in that order.

    >>> [o.name for o in options_of("info")], options_of("generate", "height")[0].default
    (['path', 'analysis', 'json'], 3)
    """
    cls = DESCRIBED[command] if isinstance(command, str) else command
    found = _described(cls)
    if names:
        by_name = {o.name: o for o in found}
        return tuple(by_name[name] for name in names)
    return found


_DESCRIBED: dict[type, tuple[Option, ...]] = {}


def _described(cls: type[Job]) -> tuple[Option, ...]:
    if cls not in _DESCRIBED:
        described = [Option(name=f.name, **f.metadata["option"]) for f in dataclasses.fields(cls)
                     if "option" in f.metadata]
        _DESCRIBED[cls] = tuple(sorted(described, key=lambda o: not o.argument))
    return _DESCRIBED[cls]


def make_job(command: str, **values) -> Job:
    """The job ``blockmaze COMMAND`` runs for ``values`` (by parameter name; text is parsed as
    the command parses it); the names given are the options the user chose, unless ``given``
    says otherwise.

    >>> make_job("dungeon", size="20x30", levels="2").levels
    2
    >>> make_job("generate", size=(3, 3), colour="red")
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: generate has no option colour
    """
    if command not in COMMANDS:
        raise BlockmazeError(f"unknown command {command!r}; choose one of: {', '.join(COMMANDS)}")
    cls = COMMANDS[command]
    described = {o.name: o for o in options_of(cls)}
    given = values.pop("given", None)
    unknown = set(values) - set(described)
    if unknown:
        raise BlockmazeError(f"{command} has no option {', '.join(sorted(unknown))}")
    argument = next((o for o in described.values() if o.argument), None)
    if argument is not None and argument.required and values.get(argument.name) is None:
        raise BlockmazeError(f"{command} needs its {argument.name}")
    parsed = {name: described[name].parse(value) for name, value in values.items()}
    chosen = frozenset(values if given is None else given)
    return cls(**parsed, given=chosen)
