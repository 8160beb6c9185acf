"""Every command as one call: what ``blockmaze generate``, ``export``, ``blockwise``,
``dungeon`` and ``info`` decide, refuse, make, write and read, so the command line and the
studio only parse options and report.

:func:`run` takes a command's typed description (:mod:`blockmaze.commands`: a
:class:`~blockmaze.commands.Generate`, say), or its name and options by their parameter names.
Everything an option names is resolved once, at the top: the output's writer, the theme, the
seed. Options the user chose that the run does not use warn (:class:`UnusedOptionWarning`);
every refusal comes before any work.

Example
-------
>>> import os, tempfile
>>> out = os.path.join(tempfile.mkdtemp(), "maze.schem")
>>> done = run("generate", size=(6, 8), seed=3, passage=2, output=out)
>>> done.volume.shape, [os.path.basename(p) for p in done.paths]
((4, 19, 25), ['maze.schem'])
>>> print(run("generate", size=(1, 2), seed=1, text_style="ascii").text)
+-------+
|       |
+-------+
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from collections.abc import Callable

from .commands import Job, Option, make_job, options_of
from .errors import BlockmazeError
from .materials import Material, Theme, load_theme
from .pipeline import (check_dungeon_output, check_fits, check_lights, check_plan_fits,
                       check_scale, check_split, dungeon_files, dungeon_parts, grid_shape,
                       level_paths, passage_for, write_output)
from .support.progress import phase
from .support.wording import counted

if TYPE_CHECKING:
    import numpy as np

    from .export import Writer

Report = Callable[[str], None]


class UnusedOptionWarning(UserWarning):
    """An option was given that the run does not use."""


@dataclass
class Outcome:
    """What a command did: the text it prints (None when it wrote files), the files it wrote
    (a streamed maze's tiles are not listed), the (y, z, x) volume written (None for printed
    mazes, pictures, maze documents and streamed mazes), and the companion files written beside
    them (an OBJ's material library, a Tiled map's tile set)."""

    text: str | None = None
    paths: list = field(default_factory=list)
    volume: np.ndarray | None = None
    companions: list = field(default_factory=list)  # files written beside (an OBJ's .mtl)


def run(job: Job | str, options: dict | None = None, *, given=None, say: Report | None = None,
        show: Report | None = None, **values) -> Outcome:
    """Do what ``blockmaze COMMAND`` does for ``job`` (see the module's docstring): refuse bad
    options before any work, make the maze, print it (``show``) or write it, and say what was
    done (``say``, one line a call). ``job`` is a command's description, or its name with the
    options as ``options`` or keywords (``given``: the options the user chose, by default those
    passed).

    >>> run("dungeon", size=(20, 30), levels=2, output="-", format_="tmx")
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: 2 levels make a file per level: give a file name, not a stream
    """
    if isinstance(job, str):
        chosen = {**(options or {}), **values}
        job = make_job(job, **chosen, given=set(chosen) if given is None else given)
    from .support.memory import limited

    with limited(getattr(job, "memory_limit", None)):
        return getattr(_Run(job, say or (lambda message: None), show), job.command)()


def writer_options(job: Job, writer: Writer) -> dict:
    """The writer's keywords that ``job``'s options set (options the writer does not take are
    left out), each value as the writer takes it.

    >>> from blockmaze.export import writer_for
    >>> writer_options(make_job("generate", size=4, raw_mesh=True), writer_for(format="glb"))["watertight"]
    False
    """
    chosen = {}
    for option in options_of(type(job)):
        if option.writer is not None and option.writer in writer.options:
            value = getattr(job, option.name)
            chosen[option.writer] = value if option.to_writer is None else option.to_writer(value)
    return chosen


def output_writer(output, format_=None) -> Writer | None:
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
    if writer.format.companion:  # the OBJ it belongs to would never be written
        raise BlockmazeError("a .mtl is the material library an .obj writes beside it: write "
                             "NAME.obj (its NAME.mtl comes with it)")
    return writer


def unused_options(job: Job, writer: Writer | None, *, kind: str | tuple[str, ...] | None = None,
                   mode: str | None = None, solid: bool = False) -> dict[str, str]:
    """The options the user chose (``job.given``) that the run does not use, each with what it
    does not apply to. ``writer`` is the output's (None: the maze is printed); ``kind`` the grid
    kind, or the kinds the run draws (an option applies if it applies to one: a unicursal hex
    maze is drawn in blocks at ``--scale``, then as a square maze), ``mode`` blockwise's mode,
    ``solid`` whether the maze is a volume already (a 3-D blockwise maze: nothing to stand up).

    >>> from blockmaze.export import writer_for
    >>> job = make_job("generate", size=3, mc_version="1.20.4", block_size=2.0, wall=2)
    >>> unused_options(job, writer_for("m.obj"), kind="square")
    {'mc_version': 'obj output'}
    >>> unused_options(make_job("generate", size=3, wall=2), writer_for("m.schem"), kind="hex")
    {'wall': 'hex mazes (they use --scale)'}
    >>> unused_options(make_job("generate", size=3, wall=2), writer_for("m.schem"),
    ...                kind=("hex", "square"))
    {}
    >>> job = make_job("blockwise", size=(9, 21, 21), height=4, lights=True)
    >>> unused_options(job, writer_for("m.schem"), mode="strict", solid=True)
    {'height': 'a 3-D blockwise maze (it is a volume already)'}
    """
    unused = {}
    for option in options_of(type(job)):
        if option.name in job.given:
            reason = _reason(option, writer, kind, mode, solid)
            if reason:
                unused[option.name] = reason
    return unused


def _reason(option: Option, writer: Writer | None, kind: str | tuple[str, ...] | None,
            mode: str | None, solid: bool = False) -> str | None:
    """What ``option`` does not apply to in this run (None: it applies), from its description."""
    if option.modes is not None and mode is not None and mode not in option.modes:
        return f"--mode {mode}"
    if option.where == "extrusion" and solid:
        return "a 3-D blockwise maze (it is a volume already)"
    if writer is None:
        printed_only = option.where in ("file", "blocks", "volume", "extrusion", "tiles") \
            or option.writer is not None
        return "a printed maze (give --output FILE)" if printed_only else None
    if option.where == "printed":
        return "a maze written to a file (it is for printed mazes)"
    output = f"{writer.name} output"
    if option.writer is not None:
        return None if option.writer in writer.options else output
    blocks = writer.source != "maze"
    if writer.name in option.not_for or (option.where == "blocks" and not blocks) \
            or (option.where in ("volume", "extrusion") and (not blocks or writer.plan)) \
            or (option.where == "tiles" and not writer.plan):
        return output
    kinds = (kind,) if isinstance(kind, str) else kind
    if option.grids is not None and kinds and not option.grids.intersection(kinds):
        return f"{kinds[0]} mazes ({option.grid_note})"
    return None


def _axes(value, count: int):
    """A thickness for ``count`` axes: None (auto), or a per-axis tuple from N or ZxX."""
    if value is None:
        return None
    value = value if isinstance(value, tuple) else (value,)
    return (value[0],) * (count - len(value)) + tuple(value)


def shape_and_mask(kind: str, size, mask):
    """A maze's grid shape from its SIZE, or else from its mask's own size (a text's rows and
    columns, a picture's pixels); the mask as given, or as read for its size.

    >>> shape_and_mask("hex", (3, 4), None)
    ((3, 4), None)
    >>> shape_and_mask("square", None, None)
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: Missing argument 'SIZE': give the maze's size, or a --mask to take it from
    """
    if size is not None:
        return grid_shape(kind, size), mask
    if mask is None:
        raise BlockmazeError("Missing argument 'SIZE': give the maze's size, or a --mask to "
                             "take it from")
    from .mazes.masks import load_mask

    cells = load_mask(mask, kind)
    return cells.shape, cells


def _shown(output) -> str:
    return "standard output" if output == "-" else str(output)


def _cells(kind: str, shape) -> str:
    """A maze's size as the command names it: ``square 10x20 cells``, ``polar 10 rings``.

    >>> _cells("square", (3, 4)), _cells("polar", (5,))
    ('square 3x4 cells', 'polar 5 rings')
    """
    unit = "rings" if kind == "polar" else "cells"
    return f"{kind} {'x'.join(map(str, shape))} {unit}"


def _beside(done: Outcome) -> str:
    """The companion files a run wrote, for its "wrote" line: `` and maze.mtl beside it``."""
    if not done.companions:
        return ""
    return f" and {', '.join(p.name for p in done.companions)} beside it"


class _Run:
    """One run of a command's job: the writer, theme and seed it resolved once, and where it
    reports."""

    def __init__(self, job: Any, say: Report, show: Report | None):
        self.job, self.say, self.show = job, say, show
        self.writer: Writer | None = None
        self.theme: Theme | None = None
        self.groove = 1  # a passage's width in blocks, for --finger's groove

    # --- the commands

    def generate(self) -> Outcome:
        j = self.job
        kind = j.kind
        if kind == "labyrinth":
            return self._labyrinth()
        if j.unicursal:
            from .blocks.unicursal import check_unicursal_kind

            check_unicursal_kind(kind)
            if kind != "square":  # drawn in corridors at --scale, whatever the output
                check_scale(kind, j.scale)
            if j.braid:
                raise BlockmazeError("--unicursal splits the passages of a perfect maze: drop "
                                     "--braid (its loops would leave more than one path)")
        shape, mask = shape_and_mask(j.kind, j.size, j.mask)
        passage = passage_for(kind, j.passage)
        wall = self._wall(kind)
        writer = self._resolve_output()
        if writer is not None:
            # a split square maze has twice the rows and columns
            built = tuple(2 * n for n in shape) if j.unicursal and kind == "square" else shape
            check_fits(writer, kind, built, wall=wall, scale=j.scale, passage=passage,
                       height=j.height, floor=j.floor, roof=j.roof)
            self._check_graph_output(writer, kind, shape[0])
        # a unicursal maze of another kind is drawn in corridors at --scale (whatever the
        # output), then square: --wall and --passage apply too
        split_in_blocks = j.unicursal and kind != "square"
        self._warn_unused(writer, kind=(kind, "square") if j.unicursal else kind,
                          used=("scale",) if split_in_blocks else ())
        seed = self._seed()
        if writer is not None and not j.unicursal and self._streams(writer, kind, shape, wall,
                                                                    passage):
            return self._write_streamed(shape, seed, writer, wall, passage)
        if j.animate and writer is None and kind != "layered":
            from .replay import carve_frames, play, recorded_maze

            document, order, _ = recorded_maze(shape, kind, j.algorithm, seed, j.braid,
                                               j.entrances, mask, j.weave)
            per_frame = max(1, -(-len(order) // (4 * j.fps)))  # about four seconds
            play(carve_frames(document, order, per_frame, j.text_style or "box",
                              self._plan_style()), j.fps)  # then the maze itself
            if j.unicursal:  # the perfect maze carved, then split into its one path
                from .pipeline import make_maze

                document = make_maze(shape, kind, j.algorithm, seed, 0.0, j.entrances, mask,
                                     unicursal=True, scale=j.scale)
        else:
            from .pipeline import make_maze

            shows_ends = writer is None or writer.source == "maze" or j.solution
            document = make_maze(shape, kind, j.algorithm, seed, j.braid, j.entrances, mask,
                                 j.weave, ends=bool(shows_ends), unicursal=j.unicursal,
                                 scale=j.scale)
        return self._emit(document, writer, wall, passage,
                          split_from=(kind, shape) if j.unicursal else None)

    def _labyrinth(self) -> Outcome:
        """A classical labyrinth (``-g labyrinth``): a polar maze from its design, no SIZE."""
        from .mazes.labyrinths import design, labyrinth

        j = self.job
        circuits = labyrinth_circuits(j.size, j.circuits)
        if j.mask is not None:
            raise BlockmazeError("a labyrinth is drawn whole: --mask does not apply to it")
        if j.unicursal:
            raise BlockmazeError("a labyrinth is unicursal already: drop --unicursal")
        design(j.style, circuits)  # a bad style or count, refused before any work
        writer = self._resolve_output()
        passage = passage_for("polar", j.passage)
        if writer is not None:
            from .mazes.labyrinths import rings_of

            check_fits(writer, "polar", (rings_of(j.style, circuits),), scale=j.scale,
                       passage=passage, height=j.height, floor=j.floor, roof=j.roof)
            self._check_graph_output(writer, "polar", 1)
        self._warn_unused(writer, kind="labyrinth")
        with phase("drawing the labyrinth"):
            document = labyrinth(circuits, j.style)
        return self._emit(document, writer, 1, passage)

    def export(self) -> Outcome:
        from .mazes.documents import load_maze

        j = self.job
        writer = self._resolve_output()
        loaded = load_maze(j.document)
        grid = loaded.maze.grid
        if writer is not None:
            self._check_graph_output(writer, grid.kind, grid.shape[0])
        self._warn_unused(writer, kind=grid.kind)
        return self._emit(loaded, writer, self._wall(grid.kind), passage_for(grid.kind, j.passage))

    def blockwise(self) -> Outcome:
        j = self.job
        size, mode = tuple(j.size), j.mode
        if len(size) not in (2, 3) or (len(size) == 3 and mode != "strict"):
            raise BlockmazeError("blockwise sizes are ROWSxCOLS blocks, or HEIGHTxROWSxCOLS for a "
                                 "strict 3-D maze")
        writer = self._resolve_output()
        if writer is not None and writer.source == "maze":
            raise BlockmazeError("a blockwise maze is blocks: choose a block format, not a maze "
                                 "document or picture")
        if writer is None and len(size) == 3:
            raise BlockmazeError("a 3-D maze cannot be printed: write it with -o FILE")
        if writer is not None and len(size) == 3:
            if writer.plan:
                raise BlockmazeError(f"a 3-D blockwise maze has {size[0]} layers and {writer.name} "
                                     f"holds one: write it to a block or mesh format (.schem, "
                                     f".litematic, .glb, .vox, ...)")
            writer.check_size(size)
        elif writer is not None:
            check_plan_fits(writer, size, height=j.height, floor=j.floor, roof=j.roof)
        self._warn_unused(writer, mode=mode, solid=len(size) == 3)
        seed = self._seed()
        blocks, what = self._blockwise_blocks(size, mode, seed)
        if writer is None:
            return self._print(_plan_text(blocks, self._plan_style()), seed)
        return self._save_blocks(blocks, writer, seed, what, f", seed {seed}")

    def dungeon(self) -> Outcome:
        from .dungeon import generate_dungeon, parse_spawns
        from .dungeon.metrics import metrics_text

        j = self.job
        size, levels = tuple(j.size), j.levels
        most = max(100_000, size[0] * size[1])  # more attempts than cells place no further room
        if j.room_attempts is not None and j.room_attempts > most:
            raise BlockmazeError(f"--room-attempts is at most {most} for a {size[0]}x{size[1]} "
                                 f"dungeon, got {j.room_attempts}")
        spawns = parse_spawns(j.spawns)
        blocks = (2 * size[0] + 1) * (2 * size[1] + 1)  # a spawn point a block at the most
        if spawns is not None and sum(spawns) > blocks:
            raise BlockmazeError(f"--spawns asks for {sum(spawns)} spawn points; a {size[0]}x{size[1]} "
                                 f"dungeon has {blocks} blocks, so at most that many")
        writer = self._resolve_output()
        if writer is not None:  # a picture, several files to a stream, or too large: refused
            check_dungeon_output(writer)  # before any work
            level_paths(j.output, dungeon_files(levels, writer), writer)
            plan_shape = (2 * size[0] + 1, 2 * size[1] + 1)  # cells and walls a block each
            check_plan_fits(writer, plan_shape, height=j.height, floor=j.floor, roof=j.roof)
        self._warn_unused(writer)
        seed = self._seed()
        with phase("generating"):
            dungeon = generate_dungeon(size, seed, algorithm=j.algorithm, room_size=j.room_size,
                                       room_attempts=j.room_attempts, extra_doors=j.extra_doors,
                                       sparseness=j.sparseness, min_shortcut=j.min_shortcut,
                                       levels=levels, style=j.style, spawns=spawns,
                                       spacing=j.spawn_spacing, lock=j.lock)
        for number, level in enumerate(dungeon.levels, 1):
            self.say(f"level {number}: {metrics_text(level.metrics)}")
        if j.lock and not any(e.kind == "key" for level in dungeon.levels for e in level.entities):
            from .errors import BlockmazeWarning

            warnings.warn("--lock placed no lock: no single door leads to the goal in this "
                          "dungeon (try another seed or style)", BlockmazeWarning, stacklevel=2)
        if writer is None:
            style = self._plan_style()
            return self._print("\n\n".join(_plan_text(level.plan, style)
                                           for level in dungeon.levels), seed)
        from .export.target import transaction

        done = Outcome()
        parts = dungeon_parts(dungeon, writer, j.height, j.floor, j.roof)
        with transaction(to_stdout=j.output == "-"):  # every file, or none
            paths = level_paths(j.output, len(parts), writer)
            for (blocks, extra, what), path in zip(parts, paths, strict=True):
                one = self._save_blocks(blocks, writer, seed, what, f", seed {seed}",
                                        output=str(path), extra=extra)
                done.paths += one.paths
                done.companions += one.companions
                done.volume = one.volume if len(parts) == 1 else None
        return done

    def info(self) -> Outcome:
        """What a file (or a world save) blockmaze wrote holds, a fact a line."""
        from .readers.info import inspect_file
        from .readers.worldinfo import is_world, summarize_world

        path = self.job.path
        lines = summarize_world(path) if is_world(path) else inspect_file(path).lines()
        return self._print("\n".join(lines), None)

    # --- what every command resolves once

    def _resolve_output(self) -> Writer | None:
        """The output's writer (None: printed) and theme, each looked up once for the run, with
        the output options checked against them before any work."""
        j = self.job
        check_lights(j.lights, j.floor)
        self.writer = writer = output_writer(j.output, j.format_)
        if writer is not None:
            check_split(writer, j.split)
            self.theme = load_theme(j.theme)
        return writer

    def _seed(self) -> int:
        """The job's seed, or one drawn (once) for the run."""
        from .support.randomness import draw_seed

        return draw_seed() if self.job.seed is None else self.job.seed

    def _wall(self, kind: str):
        """The wall thickness: the job's, or 1 block, and 4 for weave mazes (their tunnels' or
        bridges' stairs fit in the walls)."""
        if self.job.wall is not None:
            return self.job.wall
        if kind == "weave":
            from .blocks.weave import TUNNEL_WALL

            return TUNNEL_WALL
        return 1

    # --- the steps they share

    def _check_graph_output(self, writer: Writer, kind: str, levels: int) -> None:
        """Refuse, before any work, what a graph maze's output cannot be: a picture style that
        cannot draw its kind, a layered maze's tile maps (a file a level) to a stream."""
        if writer.source == "maze" and "style" in writer.options:
            from .export import check_picture_style

            check_picture_style(self.job.picture_style, kind)
        if writer.plan and kind == "layered":
            level_paths(self.job.output, levels, writer)

    def _plan_style(self) -> str:
        """Block plans print block for block ('blocks') unless a text style was chosen."""
        return self.job.text_style or "blocks"

    def _warn_unused(self, writer: Writer | None, used: tuple[str, ...] = (), **where) -> None:
        """Warn about each option the user chose that this run does not use (``used``: options
        it uses whatever their description says)."""
        for name, what in unused_options(self.job, writer, **where).items():
            if name in used:
                continue
            flag = options_of(type(self.job), name)[0].flag
            warnings.warn(f"--{flag} does not apply to {what}; ignored", UnusedOptionWarning,
                          stacklevel=2)

    def _streams(self, writer: Writer, kind: str, shape, wall, passage) -> bool:
        from .streaming import should_stream

        j = self.job
        return should_stream(writer, kind, shape, mask=j.mask, algorithm=j.algorithm,
                             braid=j.braid, entrances=j.entrances, solution=j.solution,
                             lights=j.lights, wall=wall, passage=passage, height=j.height,
                             split=j.split)

    def _print(self, text: str, seed) -> Outcome:
        if self.show is not None:
            self.show(text)
        if seed is not None:
            self.say(f"seed {seed}")
        return Outcome(text)

    def _blockwise_blocks(self, size, mode, seed):
        from .blockwise.relaxed import relaxed_layout
        from .blockwise.strict import strict_plan, strict_volume_3d

        j = self.job
        length, width = size[-2:]
        if mode == "relaxed":
            fill = None if j.fill is None else Material[j.fill.upper()]
            layout = relaxed_layout(length, width, j.ordering, seed, j.border, fill)
            self.say(f"dead solid blocks: {layout.dead_share:.1%} of solid blocks")
            return layout.plan, f"relaxed {j.ordering}"
        if len(size) == 3:
            return (strict_volume_3d(size[0], length, width, j.algorithm, seed,
                                     _axes(j.wall, 3), _axes(j.passage, 3), j.cells),
                    f"strict 3-D {j.algorithm}")
        return (strict_plan(length, width, j.algorithm, seed, j.wall, j.passage, j.cells),
                f"strict {j.algorithm}")

    def _emit(self, document, writer: Writer | None, wall, passage, split_from=None) -> Outcome:
        """Print the maze, or save it in the output's format (blocks, picture or document);
        ``split_from``: the (kind, shape) a unicursal maze was split from, for the report."""
        from .pipeline import maze_text

        j = self.job
        if writer is None:
            return self._print(maze_text(document, solution=j.solution,
                                         style=j.text_style or "box",
                                         plan_style=self._plan_style()), document.seed)
        maze = document.maze
        origin = f", {document.algorithm}" if document.algorithm else ""
        origin += f", seed {document.seed}" if document.seed is not None else ""
        what = _cells(maze.grid.kind, maze.grid.shape)
        if split_from is not None:  # the maze asked for, and the one path it became
            what = f"{_cells(*split_from)} split into one path ({what})"
        build = {"solution": j.solution, "wall": wall, "passage": passage, "scale": j.scale,
                 "bridges": j.bridges}
        self.groove = _groove_blocks(maze.grid.kind, passage, j.scale)
        if writer.source == "maze":
            done = self._save(document, writer, document.seed, build=build)
            written = (f"maze document, {what}" if writer.name == "maze"
                       else f"picture, {what}")
            self.say(f"wrote {_shown(j.output)}{_beside(done)}: {written}{origin}")
            return done
        if writer.plan and maze.grid.kind == "layered":  # a tile map a level, stairs as entities
            done = self._save(document, writer, document.seed, build=build)
            levels = len(done.paths)
            shown = _shown(str(done.paths[0])) + (f" ... {Path(done.paths[-1]).name}"
                                                  if levels > 1 else "")
            self.say(f"wrote {shown}{_beside(done)}: {counted(levels, 'level')}, {what}"
                     f"{', a file each' * (levels > 1)}{origin}")
            return done
        return self._save_blocks(document, writer, document.seed, what, origin,
                                 build=build)

    def _save(self, source, writer: Writer, seed, *, output=None, extra=None,
              build=None) -> Outcome:
        """Write ``source`` with the resolved writer and theme, the build options and the
        writer's own options."""
        from .export.target import STDOUT, transaction

        j = self.job
        output = j.output if output is None else output
        chosen = {"seed": seed, **writer_options(j, writer), **(extra or {})}
        if chosen.get("finger") is not None:  # the groove's width over the passage's blocks
            width, depth = chosen["finger"]
            chosen["finger"] = (width / self.groove, depth)
        chosen = {k: v for k, v in chosen.items() if k in writer.options and v is not None}
        with transaction(to_stdout=output == "-") as files:
            before = set(files.targets)
            written = write_output(source, STDOUT if output == "-" else output, writer,
                                   theme=self.theme, height=j.height, floor=j.floor, roof=j.roof,
                                   lights=j.lights, split=j.split, **(build or {}), **chosen)
            mains = {os.path.normcase(os.path.abspath(p)) for p in written.paths if p != STDOUT}
            beside = sorted(Path(p) for p in files.targets - before - mains)
        return Outcome(None, written.paths, written.volume, beside)

    def _save_blocks(self, source, writer: Writer, seed, what, origin, *, output=None,
                     extra=None, build=None) -> Outcome:
        """Save blocks (or a maze, built first) in a block format, and say what was written."""
        output = self.job.output if output is None else output
        done = self._save(source, writer, seed, output=output, extra=extra, build=build)
        if self.job.split is not None:
            files = done.paths
            self.say(f"wrote {len(files)} tiles {files[0].name} ... {files[-1].name}: {what}{origin}")
            return done
        y, z, x = done.volume.shape
        self.say(f"wrote {_shown(output)}{_beside(done)}: {what}, {x}x{y}x{z} blocks (width x height x length)"
                 f"{origin}")
        from .export.minecraft.placement import placement_hint

        hint = placement_hint(done.volume, writer.name, Path(output).stem.lower())
        if hint:
            self.say(f"to place it: {hint}")
        return done

    def _write_streamed(self, shape, seed, writer: Writer, wall, passage) -> Outcome:
        """A square maze generated row by row straight into a band writer (a world, a .schem)."""
        from .streaming import write_streamed

        j = self.job
        chosen = {k: v for k, v in writer_options(j, writer).items()
                  if k in ("mc_version", "schem_version", "terrain", "y", "mobs", "time")}
        layers, z, x = write_streamed(j.output, *shape, j.algorithm, seed, writer, wall,
                                      passage, j.height, j.floor, j.roof, self.theme, j.split,
                                      **chosen)
        split, output = j.split, j.output
        where = f"tiles of at most {split}x{split} blocks beside {output}" if split else output
        self.say(f"wrote {where}: square {'x'.join(map(str, shape))} cells, streamed, "
                 f"{x}x{layers}x{z} blocks (width x height x length), {j.algorithm}, seed {seed}")
        return Outcome(None, [] if split else [Path(output)], None)


def labyrinth_circuits(size, circuits: int | None) -> int | None:
    """A labyrinth's circuits: SIZE (one number) or ``--circuits``, which must agree; None
    for the style's own.

    >>> labyrinth_circuits((7,), None), labyrinth_circuits(None, 11), labyrinth_circuits(None, None)
    (7, 11, None)
    >>> labyrinth_circuits((7, 7), None)
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: a labyrinth's SIZE is its circuits, one number (3, 7, 11, ... for cretan; 11 for chartres), got 7x7
    """
    if size is None:
        return circuits
    if len(size) != 1:
        raise BlockmazeError(f"a labyrinth's SIZE is its circuits, one number (3, 7, 11, ... for "
                             f"cretan; 11 for chartres), got {'x'.join(map(str, size))}")
    if circuits is not None and circuits != size[0]:
        raise BlockmazeError(f"SIZE {size[0]} and --circuits {circuits} disagree: a labyrinth's "
                             f"SIZE is its circuits; give one of them")
    return int(size[0])


def _groove_blocks(kind: str, passage, scale: int | None) -> int:
    """How many blocks wide a passage is drawn: ``passage`` across x for the converted kinds; a
    rasterized cell's room, its scale less a block of wall on each side.

    >>> _groove_blocks("square", (2, 3), None), _groove_blocks("polar", 1, None)
    (3, 2)
    """
    if kind in ("square", "layered", "weave"):
        return int(passage[-1] if isinstance(passage, tuple) else passage)
    from .blocks.raster import min_scale

    return max(1, (scale or max(4, min_scale(kind))) - 2)


def _plan_text(blocks, style: str) -> str:
    from .render import plan_text

    return plan_text(blocks, style=style)
