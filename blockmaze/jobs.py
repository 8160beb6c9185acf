"""Every command as one call: what ``blockmaze generate``, ``export``, ``blockwise``,
``dungeon`` and ``info`` decide, refuse, make, write and read, so the command line and the
studio only parse options and report.

:func:`run` takes a command's name and its options by their parameter names (``mc_version``
for ``--mc-version``, ``format_`` for ``--format``); options left out take the command's
defaults (:data:`DEFAULTS`). ``given`` names the options the user chose (by default every one
passed): an option left to its default may depend on the maze (a weave maze's walls are 4
blocks) and is never warned about. Every refusal comes before any work.

Example
-------
>>> import os, tempfile
>>> out = os.path.join(tempfile.mkdtemp(), "maze.schem")
>>> done = run("generate", {"size": (6, 8), "seed": 3, "passage": (2, 2), "output": out})
>>> done.volume.shape, [os.path.basename(p) for p in done.paths]
((4, 19, 25), ['maze.schem'])
>>> print(run("generate", {"size": (1, 2), "seed": 1, "text_style": "ascii"}).text)
+-------+
|       |
+-------+
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from .errors import BlockmazeError
from .export.minecraft.versions import DEFAULT_MC_VERSION
from .materials import DEFAULT_THEME, Material, load_theme
from .pipeline import (BUILD_OPTIONS, check_fits, check_lights, check_plan_fits, check_split,
                       grid_shape, level_paths, passage_for, write_output)
from .support.progress import phase

if TYPE_CHECKING:
    import numpy as np

Report = Callable[[str], None]

# the options every command that writes takes, and their defaults
OUTPUT_DEFAULTS = {
    "height": 3, "floor": True, "roof": False, "scale": None, "lights": False, "solution": False,
    "theme": DEFAULT_THEME, "mc_version": DEFAULT_MC_VERSION, "schem_version": "2",
    "keep_terrain": False, "tile_encoding": "csv", "external_tileset": False,
    "block_size": None, "raw_mesh": False, "collision": False, "chunk": 128, "quantize": None,
    "compress": "none", "uv": False, "format_": None, "picture_style": "walls", "cell_size": 16,
    "shade": False, "text_style": "box", "output": None, "terrain": "grass", "y": -60,
    "mobs": False, "time": 6000, "split": None,
}
MAZE_DEFAULTS = {"algorithm": "backtracker", "seed": None, "braid": 0.0, "entrances": False}
DEFAULTS = {
    "generate": {"kind": "square", "mask": None, "weave": 0.0, "animate": False, "fps": 30,
                 **MAZE_DEFAULTS, "wall": (1, 1), "passage": None, **OUTPUT_DEFAULTS,
                 "bridges": False},
    "export": {"wall": (1, 1), "passage": None, **OUTPUT_DEFAULTS, "bridges": False},
    "blockwise": {"mode": "strict", "algorithm": "backtracker", "ordering": "backtracker",
                  "cells": None, "border": True, "fill": None, "seed": None, "wall": None,
                  "passage": None, **OUTPUT_DEFAULTS},
    "dungeon": {"algorithm": "backtracker", "room_size": (2, 5), "room_attempts": None,
                "extra_doors": 0.0, "sparseness": 1.0, "min_shortcut": None, "levels": 1,
                "style": "rooms-and-mazes", "spawns": None, "spawn_spacing": 5, "lock": False,
                "seed": None, **{k: v for k, v in OUTPUT_DEFAULTS.items() if k != "solution"}},
    "info": {},
}
ARGUMENTS = {"generate": "size", "export": "document", "blockwise": "size", "dungeon": "size",
             "info": "path"}

# command option -> the writer option it sets (a writer that lacks it ignores the option)
WRITER_OPTIONS = {
    "mc_version": "mc_version", "schem_version": "schem_version", "keep_terrain": "keep_terrain",
    "tile_encoding": "encoding", "external_tileset": "external_tileset",
    "block_size": "block_size", "raw_mesh": "watertight", "collision": "collision",
    "picture_style": "style", "cell_size": "cell_size", "shade": "shade",
    "chunk": "chunk", "quantize": "quantize", "compress": "compress", "uv": "uv",
    "terrain": "terrain", "y": "y", "mobs": "mobs", "time": "time",
}
# how a command option's value becomes the writer option's
WRITER_VALUES = {"raw_mesh": lambda raw: not raw, "schem_version": int,
                 "compress": lambda name: None if name == "none" else name,
                 "time": lambda ticks: None if ticks < 0 else ticks}
STANDING = ("height", "floor", "roof", "lights")  # how a plan is stood up into a volume
PRINTED_IGNORES = (*WRITER_OPTIONS, *STANDING, "theme", "wall", "passage", "scale")
# blockwise options by the mode that uses them
MODE_OPTIONS = {"strict": ("algorithm", "cells", "wall", "passage"),
                "relaxed": ("ordering", "border", "fill")}
FLAGS = {"kind": "--grid", "format_": "--format"}  # options whose flag is not their name


class UnusedOptionWarning(UserWarning):
    """An option was given that the run does not use."""


@dataclass
class Outcome:
    """What a command did: the text it prints (None when it wrote files), the files it wrote
    (a streamed maze's tiles are not listed), and the (y, z, x) volume written (None for printed
    mazes, pictures, maze documents and streamed mazes)."""

    text: str | None = None
    paths: list = field(default_factory=list)
    volume: np.ndarray | None = None


def run(command: str, options: dict, *, given=None, say: Report | None = None,
        show: Report | None = None) -> Outcome:
    """Do what ``blockmaze COMMAND`` does with ``options`` (see the module's docstring): refuse
    bad options before any work, make the maze, print it (``show``) or write it, and say what
    was done (``say``, one line a call). Options that do not apply warn
    (:class:`UnusedOptionWarning`).

    >>> run("dungeon", {"size": (20, 30), "levels": 2, "output": "-", "format_": "tmx"})
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: 2 levels make a file per level: give a file name, not a stream
    """
    if command not in DEFAULTS:
        raise BlockmazeError(f"unknown command {command!r}; choose one of: {', '.join(DEFAULTS)}")
    unknown = set(options) - set(DEFAULTS[command]) - {ARGUMENTS[command]}
    if unknown:
        raise BlockmazeError(f"{command} has no option {', '.join(sorted(unknown))}")
    if ARGUMENTS[command] not in options:
        raise BlockmazeError(f"{command} needs its {ARGUMENTS[command]}")
    job = _Job({**DEFAULTS[command], **options}, set(options if given is None else given),
               say or (lambda message: None), show)
    return getattr(job, command)()


def writer_options(options: dict, writer) -> dict:
    """The writer options a command's ``options`` set for ``writer`` (through
    :data:`WRITER_OPTIONS`); options the writer does not take are left out.

    >>> from blockmaze.export import writer_for
    >>> writer_options({"raw_mesh": True, "mc_version": "1.20.4"}, writer_for(format="glb"))
    {'watertight': False}
    """
    chosen = {}
    for name, value in options.items():
        if name in WRITER_OPTIONS and WRITER_OPTIONS[name] in writer.options:
            chosen[WRITER_OPTIONS[name]] = WRITER_VALUES.get(name, lambda v: v)(value)
    return chosen


def output_writer(output, format_=None):
    """The writer ``output`` and ``format_`` ask for (None when the maze is printed).

    >>> output_writer("m.glb").name, output_writer(None)
    ('glb', None)
    """
    from .export import writer_for

    if output is None:
        if format_ is not None:
            raise BlockmazeError("--format needs --output FILE")
        return None
    if output == "-" and format_ is None:
        raise BlockmazeError("-o - (standard output) needs --format NAME: the format cannot "
                             "be told from a file name")
    writer = writer_for(output, format_)
    if writer.name == "mtl":  # a companion file alone: the OBJ it belongs to is never written
        raise BlockmazeError("a .mtl is the material library an .obj writes beside it: write "
                             "NAME.obj (its NAME.mtl comes with it)")
    return writer


def unused_options(given, writer=None, *, kind: str | None = None, command: str = "generate",
                   mode: str | None = None) -> dict[str, str]:
    """The options in ``given`` the run does not use, each with what it does not apply to.

    ``writer`` is the output's writer (None: the maze is printed); ``kind`` the grid kind
    (generate, export); ``command`` and ``mode`` for blockwise and dungeon.

    >>> from blockmaze.export import writer_for
    >>> unused_options({"mc_version", "block_size", "wall"}, writer_for("m.obj"), kind="square")
    {'mc_version': 'obj output'}
    >>> unused_options({"wall", "scale"}, writer_for("m.schem"), kind="hex")
    {'wall': 'hex mazes (they use --scale)'}
    """
    unused = {}
    for name in sorted(given):
        reason = _reason(name, writer, kind, command, mode)
        if reason:
            unused[name] = reason
    return unused


def _reason(name, writer, kind, command, mode) -> str | None:
    if command == "blockwise" and mode is not None:
        other = "relaxed" if mode == "strict" else "strict"
        if name in MODE_OPTIONS[other] and name not in MODE_OPTIONS[mode]:
            return f"--mode {mode}"
    if command in ("blockwise", "dungeon") and name == "scale":
        return f"{command} mazes (they are blocks already)"
    if writer is None:
        if name in PRINTED_IGNORES and not (command == "blockwise" and name in ("wall", "passage")):
            return "a printed maze (give --output FILE)"
        return None
    if name == "text_style":
        return "a maze written to a file (it is for printed mazes)"
    output = f"{writer.name} output"
    if name in WRITER_OPTIONS:
        return None if WRITER_OPTIONS[name] in writer.options else output
    maze_output = writer.source == "maze"
    if name in STANDING and (maze_output or writer.plan):
        return output
    if name in ("wall", "passage", "scale") and maze_output:
        return output
    if name == "theme" and writer.name == "maze":
        return output
    if name == "solution" and maze_output and "solution" not in writer.options:
        return output
    if kind is not None and name in ("wall", "passage") and kind not in ("square", "layered", "weave"):
        return f"{kind} mazes (they use --scale)"
    if kind is not None and name == "scale" and kind in ("square", "layered", "weave"):
        return f"{kind} mazes (they use --wall and --passage)"
    return None


def _axes(value, count: int):
    """A thickness for ``count`` axes: None (auto), or a per-axis tuple from N or ZxX."""
    if value is None:
        return None
    value = value if isinstance(value, tuple) else (value,)
    return (value[0],) * (count - len(value)) + tuple(value)


def _shown(output) -> str:
    return "standard output" if output == "-" else str(output)


class _Job:
    """One run of a command: its options (defaults filled in), the ones the user chose, and
    where it reports."""

    def __init__(self, options: dict, given: set, say: Report, show: Report | None):
        self.options, self.given, self.say, self.show = options, given, say, show

    # --- the commands

    def generate(self) -> Outcome:
        from .support.randomness import draw_seed

        o = self.options
        kind = o["kind"]
        shape = grid_shape(kind, o["size"])
        o["passage"] = passage_for(kind, o["passage"])
        self._weave_wall(kind)
        check_lights(o["lights"], o["floor"])
        writer = self._writer()
        if writer is not None:
            check_fits(writer, kind, shape, wall=o["wall"], scale=o["scale"], passage=o["passage"],
                       height=o["height"], floor=o["floor"], roof=o["roof"])
            self._check_level_files(writer, kind, shape[0])
        self._warn_unused(writer, kind=kind)
        seed = draw_seed() if o["seed"] is None else o["seed"]
        if writer is not None and self._streams(writer, kind, shape):
            return self._write_streamed(shape, seed, writer)
        if o["animate"] and writer is None and kind != "layered":
            from .replay import carve_frames, play, recorded_maze

            document, order, _ = recorded_maze(shape, kind, o["algorithm"], seed, o["braid"],
                                               o["entrances"], o["mask"], o["weave"])
            per_frame = max(1, -(-len(order) // (4 * o["fps"])))  # about four seconds
            play(carve_frames(document, order, per_frame, o["text_style"], self._plan_style()),
                 o["fps"])  # then the maze itself
        else:
            from .pipeline import make_maze

            shows_ends = writer is None or writer.source == "maze" or o["solution"]
            document = make_maze(shape, kind, o["algorithm"], seed, o["braid"], o["entrances"],
                                 o["mask"], o["weave"], ends=bool(shows_ends))
        return self._emit(document, writer)

    def export(self) -> Outcome:
        from .mazes.documents import load_maze

        o = self.options
        check_lights(o["lights"], o["floor"])
        writer = self._writer()
        loaded = load_maze(o["document"])
        grid = loaded.maze.grid
        if writer is not None:
            self._check_level_files(writer, grid.kind, grid.shape[0])
        self._weave_wall(grid.kind)
        self._warn_unused(writer, kind=loaded.maze.grid.kind)
        return self._emit(loaded, writer)

    def blockwise(self) -> Outcome:
        from .support.randomness import draw_seed

        o = self.options
        size, mode = tuple(o["size"]), o["mode"]
        if len(size) not in (2, 3) or (len(size) == 3 and mode != "strict"):
            raise BlockmazeError("blockwise sizes are ROWSxCOLS blocks, or HEIGHTxROWSxCOLS for a "
                                 "strict 3-D maze")
        if o["solution"]:
            raise BlockmazeError("--solution marks graph mazes; use blockmaze generate for it")
        writer = self._writer()
        if writer is not None and writer.source == "maze":
            raise BlockmazeError("a blockwise maze is blocks: choose a block format, not a maze "
                                 "document or picture")
        if writer is None and len(size) == 3:
            raise BlockmazeError("a 3-D maze cannot be printed: write it with -o FILE")
        check_lights(o["lights"], o["floor"])
        if writer is not None and len(size) == 3:
            writer.check_size(size)
        elif writer is not None:
            check_plan_fits(writer, size, height=o["height"], floor=o["floor"], roof=o["roof"])
        self._warn_unused(writer, command="blockwise", mode=mode)
        seed = draw_seed() if o["seed"] is None else o["seed"]
        blocks, what = self._blockwise_blocks(size, mode, seed)
        if writer is None:
            return self._print(_plan_text(blocks, self._plan_style()), seed)
        return self._save_blocks(blocks, writer, seed, what, f", seed {seed}")

    def dungeon(self) -> Outcome:
        from .dungeon import generate_dungeon, parse_spawns
        from .dungeon.metrics import metrics_text
        from .support.randomness import draw_seed

        o = self.options
        size, levels = tuple(o["size"]), o["levels"]
        most = max(100_000, size[0] * size[1])  # more attempts than cells place no further room
        if o["room_attempts"] is not None and o["room_attempts"] > most:
            raise BlockmazeError(f"--room-attempts is at most {most} for a {size[0]}x{size[1]} "
                                 f"dungeon, got {o['room_attempts']}")
        spawns = parse_spawns(o["spawns"])
        writer = self._writer()
        if writer is not None and writer.source == "maze":
            raise BlockmazeError("a dungeon is blocks: choose a block or tile format, not a maze "
                                 "document or picture")
        if writer is not None:  # several levels to a stream, or too large: refused before any work
            level_paths(o["output"], levels, writer)
            plan_shape = (2 * size[0] + 1, 2 * size[1] + 1)  # cells and walls a block each
            check_plan_fits(writer, plan_shape, height=o["height"], floor=o["floor"], roof=o["roof"])
        check_lights(o["lights"], o["floor"])
        self._warn_unused(writer, command="dungeon")
        seed = draw_seed() if o["seed"] is None else o["seed"]
        with phase("generating"):
            dungeon = generate_dungeon(size, seed, algorithm=o["algorithm"],
                                       room_size=o["room_size"], room_attempts=o["room_attempts"],
                                       extra_doors=o["extra_doors"], sparseness=o["sparseness"],
                                       min_shortcut=o["min_shortcut"], levels=levels,
                                       style=o["style"], spawns=spawns,
                                       spacing=o["spawn_spacing"], lock=o["lock"])
        for number, level in enumerate(dungeon.levels, 1):
            self.say(f"level {number}: {metrics_text(level.metrics)}")
        if writer is None:
            style = self._plan_style()
            return self._print("\n\n".join(_plan_text(level.plan, style)
                                           for level in dungeon.levels), seed)
        if levels > 1 and not writer.plan:  # one volume: the levels stacked, joined by their stairs
            from .dungeon import stack_dungeon

            blocks = stack_dungeon(dungeon, o["height"], o["floor"], o["roof"])
            return self._save_blocks(blocks, writer, seed, f"{levels} levels", f", seed {seed}")
        from .export.target import transaction

        done = Outcome()
        with transaction(to_stdout=o["output"] == "-"):  # every level, or none
            paths = level_paths(o["output"], levels, writer)
            for number, (level, path) in enumerate(zip(dungeon.levels, paths), 1):
                plan = level.plan if writer.plan else level.marked_plan
                what = f"level {number}, {len(level.rooms)} rooms"
                one = self._save_blocks(plan, writer, seed, what, f", seed {seed}", output=str(path),
                                        extra={"entities": level.entities, "metrics": level.metrics})
                done.paths += one.paths
        return done

    def info(self) -> Outcome:
        """What a file (or a world save) blockmaze wrote holds, a fact a line."""
        from .readers.worldinfo import is_world, summarize_world
        from .readers.info import inspect_file

        path = self.options["path"]
        lines = summarize_world(path) if is_world(path) else inspect_file(path).lines()
        return self._print("\n".join(lines), None)

    # --- the steps they share

    def _writer(self):
        """The output's writer (None: printed), with the output options checked against it."""
        o = self.options
        writer = output_writer(o["output"], o["format_"])
        if writer is not None:
            check_split(writer, o["split"])
            load_theme(o["theme"])
        return writer

    def _check_level_files(self, writer, kind: str, levels: int) -> None:
        """A layered maze in a tile map is a file a level: refuse a stream before any work."""
        if writer.plan and kind == "layered":
            level_paths(self.options["output"], levels, writer)

    def _weave_wall(self, kind: str) -> None:
        """Weave mazes' walls default to 4 blocks: their tunnels' (or bridges') stairs fit in them."""
        if kind == "weave" and "wall" not in self.given:
            from .blocks.weave import TUNNEL_WALL

            self.options["wall"] = TUNNEL_WALL

    def _plan_style(self) -> str:
        """Block plans print block for block ('blocks') unless a text style was chosen."""
        return self.options["text_style"] if "text_style" in self.given else "blocks"

    def _warn_unused(self, writer, **where) -> None:
        """Warn about each option the user chose that this run does not use."""
        for name, what in unused_options(self.given, writer, **where).items():
            flag = FLAGS.get(name, "--" + name.replace("_", "-"))
            warnings.warn(f"{flag} does not apply to {what}; ignored", UnusedOptionWarning)

    def _streams(self, writer, kind, shape) -> bool:
        from .streaming import should_stream

        o = self.options
        return should_stream(writer, kind, shape, mask=o["mask"], algorithm=o["algorithm"],
                             braid=o["braid"], entrances=o["entrances"], solution=o["solution"],
                             lights=o["lights"], wall=o["wall"], passage=o["passage"],
                             height=o["height"], split=o["split"])

    def _print(self, text: str, seed) -> Outcome:
        if self.show is not None:
            self.show(text)
        if seed is not None:
            self.say(f"seed {seed}")
        return Outcome(text)

    def _blockwise_blocks(self, size, mode, seed):
        from .blockwise.relaxed import relaxed_layout
        from .blockwise.strict import strict_plan, strict_volume_3d

        o = self.options
        length, width = size[-2:]
        if mode == "relaxed":
            fill = None if o["fill"] is None else Material[o["fill"].upper()]
            layout = relaxed_layout(length, width, o["ordering"], seed, o["border"], fill)
            self.say(f"dead solid blocks: {layout.dead_share:.1%} of solid blocks")
            return layout.plan, f"relaxed {o['ordering']}"
        if len(size) == 3:
            return (strict_volume_3d(size[0], length, width, o["algorithm"], seed,
                                     _axes(o["wall"], 3), _axes(o["passage"], 3), o["cells"]),
                    f"strict 3-D {o['algorithm']}")
        return (strict_plan(length, width, o["algorithm"], seed, o["wall"], o["passage"],
                            o["cells"]), f"strict {o['algorithm']}")

    def _emit(self, document, writer) -> Outcome:
        """Print the maze, or save it in the output's format (blocks, picture or document)."""
        from .pipeline import maze_text

        o = self.options
        if writer is None:
            return self._print(maze_text(document, solution=o["solution"], style=o["text_style"],
                                         plan_style=self._plan_style()), document.seed)
        maze = document.maze
        origin = f", {document.algorithm}" if document.algorithm else ""
        origin += f", seed {document.seed}" if document.seed is not None else ""
        what = f"{maze.grid.kind} {'x'.join(map(str, maze.grid.shape))}"
        if writer.source == "maze":
            done = self._save(document, writer, document.seed)
            written = (f"maze document, {what} cells" if writer.name == "maze"
                       else f"picture of a {what} maze")
            self.say(f"wrote {_shown(o['output'])}: {written}{origin}")
            return done
        if writer.plan and maze.grid.kind == "layered":  # a tile map a level, stairs as entities
            done = self._save(document, writer, document.seed)
            levels = len(done.paths)
            shown = _shown(str(done.paths[0])) + (f" ... {Path(done.paths[-1]).name}"
                                                  if levels > 1 else "")
            self.say(f"wrote {shown}: {levels} level{'s' * (levels > 1)} of a {what} maze"
                     f"{', a file each' * (levels > 1)}{origin}")
            return done
        return self._save_blocks(document, writer, document.seed, f"{what} cells", origin)

    def _save(self, source, writer, seed, *, output=None, extra=None) -> Outcome:
        """Write ``source`` with the options this writer takes (build options always pass)."""
        from .export.target import STDOUT

        o = self.options
        output = o["output"] if output is None else output
        chosen = {**{k: o[k] for k in BUILD_OPTIONS if k in o}, "seed": seed,
                  **writer_options(o, writer), **(extra or {})}
        chosen = {k: v for k, v in chosen.items()
                  if (k in BUILD_OPTIONS or k in writer.options) and v is not None}
        written = write_output(source, STDOUT if output == "-" else output, writer.name, **chosen)
        return Outcome(None, written.paths, written.volume)

    def _save_blocks(self, source, writer, seed, what, origin, *, output=None,
                     extra=None) -> Outcome:
        """Save blocks (or a maze, built first) in a block format, and say what was written."""
        output = self.options["output"] if output is None else output
        done = self._save(source, writer, seed, output=output, extra=extra)
        if self.options["split"] is not None:
            files = done.paths
            self.say(f"wrote {len(files)} tiles {files[0].name} ... {files[-1].name}: {what}{origin}")
            return done
        y, z, x = done.volume.shape
        self.say(f"wrote {_shown(output)}: {what}, {x}x{y}x{z} blocks (width x height x length)"
                 f"{origin}")
        from .export.minecraft.placement import placement_hint

        hint = placement_hint(done.volume, writer.name, Path(output).stem.lower())
        if hint:
            self.say(f"to place it: {hint}")
        return done

    def _write_streamed(self, shape, seed, writer) -> Outcome:
        """A square maze generated row by row straight into a band writer (a world, a .schem)."""
        from .streaming import write_streamed

        o = self.options
        chosen = {k: v for k, v in writer_options(o, writer).items()
                  if k in ("mc_version", "schem_version", "terrain", "y", "mobs", "time")}
        layers, z, x = write_streamed(o["output"], *shape, o["algorithm"], seed, writer.name,
                                      o["wall"], o["passage"], o["height"], o["floor"], o["roof"],
                                      o["theme"], o["split"], **chosen)
        split, output = o["split"], o["output"]
        where = f"tiles of at most {split}x{split} blocks beside {output}" if split else output
        self.say(f"wrote {where}: square {'x'.join(map(str, shape))} cells, streamed, "
                 f"{x}x{layers}x{z} blocks (width x height x length), {o['algorithm']}, seed {seed}")
        return Outcome(None, [] if split else [Path(output)], None)


def _plan_text(blocks, style: str) -> str:
    from .render import plan_text

    return plan_text(blocks, style=style)
