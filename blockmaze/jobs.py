"""Every command as one call: what ``blockmaze generate``, ``export``, ``blockwise``,
``dungeon`` and ``info`` decide, refuse, make, write and read, so the command line and the
studio only parse options and report.

:func:`run` takes a command's typed description (:mod:`blockmaze.commands`: a
:class:`~blockmaze.commands.Generate`, say), or its name and options by their parameter names.
Each command is a plain function of the job: it refuses what the options cannot make before any
work, resolves one :class:`~blockmaze.writing.Plan` (the destination with its writer, the block
settings with every default applied, the theme, the seed, the writer's options), makes the maze
and hands both to :func:`~blockmaze.writing.write_plan`; what was written becomes the lines the
command says. Options the user chose that the run does not use warn
(:class:`UnusedOptionWarning`, by :func:`blockmaze.applies.why_not`).

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

import warnings
from collections.abc import Callable
import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .applies import Context, unused
from .blocks.settings import BlockSettings
from .commands import Blockwise, Dungeon, Export, Generate, Info, Job, make_job, options_of
from .errors import BlockmazeError, ParameterError, printable
from .export.destination import Destination, destination
from .materials import Theme, load_theme
from .pipeline import grid_shape
from .support.progress import phase
from .support.wording import counted
from .writing import (Layouts, Plan, Streamed, Written, check_source, dungeon_files, plan,
                      write_plan)

if TYPE_CHECKING:
    import numpy as np

    from .blocks.prefab import Placement, RoomVaults

    from .export import Writer
    from .mazes.documents import MazeDocument

Report = Callable[[str], None]
KIT_SCENE = "kit"  # the writer --kit asks for when -o names a .glb
GRID_BYTES = 32  # a grid's cell: its neighbours, links and flags (grids/*.py: 26 to 46)


class UnusedOptionWarning(UserWarning):
    """An option was given that the run does not use."""


@dataclass(repr=False)
class Outcome:
    """What a command did: the text it prints (None when it wrote files), the files it wrote
    (a streamed maze's tiles are not listed), the (y, z, x) volume written (None for printed
    mazes, pictures, maze documents and streamed mazes), and the companion files written beside
    them (an OBJ's material library, a Tiled map's tile set).

    >>> Outcome(None, ["m.schem"])
    Outcome(paths=['m.schem'], volume=None)
    """

    text: str | None = None
    paths: list = field(default_factory=list)
    volume: np.ndarray | None = None
    companions: list = field(default_factory=list)

    def __repr__(self) -> str:
        if self.text is not None:
            return f"Outcome(text={self.text[:40]!r}{'...' * (len(self.text) > 40)})"
        volume = None if self.volume is None else f"<{'x'.join(map(str, self.volume.shape))} blocks>"
        return f"Outcome(paths={[str(p) for p in self.paths]}, volume={volume})"


@dataclass(frozen=True)
class Voice:
    """Where a run reports: ``say`` one line a call (what was done), ``show`` the maze printed."""

    say: Report
    show: Report | None = None


def run(job: Job | str, options: dict | None = None, *, given=None, say: Report | None = None,
        show: Report | None = None, **values) -> Outcome:
    """Do what ``blockmaze COMMAND`` does for ``job`` (see the module's docstring): refuse bad
    options before any work, make the maze, print it (``show``) or write it, and say what was
    done (``say``, one line a call). ``job`` is a command's description, or its name with the
    options as ``options`` or keywords (``given``: the options the user chose, by default those
    passed). Messages name the command's flags.

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
        try:
            return RUNNERS[job.command](job, Voice(say or (lambda message: None), show))
        except ParameterError as error:
            raise BlockmazeError(error.worded(_flags(job))) from None


def _flags(job: Job) -> Callable[[str, str | None], str]:
    """How the command names a parameter of a library message: ``floor=False`` is
    ``--no-floor``, ``scale=3`` is ``--scale 3``."""
    described = {o.name: o for o in options_of(type(job))}

    def flag(name: str, value: str | None) -> str:
        option = described.get(name)
        long = f"--{option.flag}" if option is not None else f"--{name.replace('_', '-')}"
        if value is None or value == "True":
            return long
        if value == "False":
            return option.off if option is not None and option.off else f"--no-{long[2:]}"
        return f"{long} {value}"

    return flag


# --- what every command resolves once

def _output(job: Any) -> tuple[Destination | None, Theme | None]:
    """Where ``job`` writes (None: the maze is printed), parsed once from ``-o``, and its theme:
    both refused before any work."""
    into = getattr(job, "into", None)
    if into is not None:
        from .export.minecraft.into import INTO
        from .export.minecraft.into_bedrock import INTO_BEDROCK, is_bedrock

        if job.output is not None or job.format_ is not None or job.split is not None:
            raise BlockmazeError("--into builds into the world it names: leave out -o, --format "
                                 "and --split")
        return Destination(into, INTO_BEDROCK if is_bedrock(into) else INTO), load_theme(job.theme)
    where = _destination(job.output, job.format_, job.split, getattr(job, "kit", None))
    return where, None if where is None else load_theme(job.theme)


def _destination(output, format_=None, split=None, kit=None) -> Destination | None:
    """Where the run writes (None: the maze is printed), parsed once from ``-o``; ``--kit`` with
    a ``.glb`` file and no ``--format`` asks for the kit scene, not the voxel mesh.

    >>> _destination("maze.glb", kit="tiles.glb").writer.name
    'kit'
    """
    if output is None:
        if format_ is not None:
            raise BlockmazeError("--format needs --output FILE")
        return None
    if kit is not None and format_ is None and isinstance(output, (str, Path)) \
            and str(output).lower().endswith(".glb"):
        format_ = KIT_SCENE
    where = destination(output, format_, split)
    if where.writer.format.companion:  # the OBJ it belongs to would never be written
        raise BlockmazeError("a .mtl is the material library an .obj writes beside it: write "
                             "NAME.obj (its NAME.mtl comes with it)")
    return where


def writer_options(job: Job, writer: Writer) -> dict:
    """The writer's keywords that ``job``'s options set, each value as the writer takes it;
    an option left unset (None) is left out, so the writer's own default holds.

    >>> from blockmaze.export import writer_for
    >>> writer_options(make_job("generate", size=4, raw_mesh=True), writer_for(format="glb"))["watertight"]
    False
    """
    chosen = {}
    for option in options_of(type(job)):
        if option.writer is not None and option.writer in writer.options:
            value = getattr(job, option.name)
            if value is None and option.default is None:
                continue
            chosen[option.writer] = value if option.to_writer is None else option.to_writer(value)
    if getattr(job, "into", None) is not None:  # --into: on the ground there, at one level,
        for name in ("y", "terrain"):          # unless --y or --terrain says otherwise
            if name not in job.given:
                chosen.pop(name, None)
    return chosen


def _plan(job: Any, where: Destination, theme: Theme | None, settings: BlockSettings,
          seed: int | None, prefab: Placement | RoomVaults | None = None) -> Plan:
    """The run's plan: ``where`` with ``theme``, ``settings``, ``seed`` and the writer's
    options (a finger labyrinth's groove is given over the passage's blocks)."""
    options = writer_options(job, where.writer)
    if options.get("finger") is not None:
        width, depth = options["finger"]
        options["finger"] = (width / settings.groove, depth)
    return plan(where, blocks=settings, theme=theme, seed=seed, prefab=prefab, **options)


def block_settings(job: Any, kind: str, **fixed) -> BlockSettings:
    """The job's block settings for a maze of ``kind`` (``fixed``: settings the command sets
    itself), every default applied once."""
    chosen = {name: getattr(job, name) for name in ("wall", "passage", "scale", "bridges",
                                                    "solution") if hasattr(job, name)}
    return BlockSettings.resolve(kind, **{**chosen, **fixed}, height=job.height, floor=job.floor,
                                 roof=job.roof, lights=job.lights, hollow=job.hollow)


def _seed(job: Any) -> int:
    """The job's seed, or one drawn (once) for the run."""
    from .support.randomness import draw_seed

    return draw_seed() if job.seed is None else job.seed


def run_context(job: Any, where: Destination | Writer | None, kind: str | None = None) -> Context:
    """What decides whether each of ``job``'s options applies to its run (see
    :mod:`blockmaze.applies`): the output's writer (None: printed) and what the run draws. A
    unicursal maze is drawn as a square maze too (and one of another kind in blocks at
    ``--scale`` first, whatever the output); ``kind``: an exported document's grid kind.

    >>> from blockmaze.export import writer_for
    >>> run_context(make_job("generate", size=3, kind="hex", unicursal=True), writer_for("m.png")).kinds
    ('hex', 'square')
    """
    writer = where.writer if isinstance(where, Destination) else where
    if isinstance(job, Blockwise):
        return Context(writer, mode=job.mode, solid=len(job.size) == 3)
    if isinstance(job, Dungeon):
        return Context(writer)
    kind = kind or job.kind
    if getattr(job, "unicursal", False) and kind != "labyrinth":
        return Context(writer, (kind, "square"),
                       uses=frozenset({"scale"}) if kind != "square" else frozenset())
    return Context(writer, (kind,))


def _warn_unused(job: Job, context: Context) -> None:
    """Warn about each option the user chose that this run does not use."""
    for name, what in unused(job, context).items():
        flag = options_of(type(job), name)[0].flag
        warnings.warn(f"--{flag} does not apply to {what}; ignored", UnusedOptionWarning,
                      stacklevel=3)


def _print(voice: Voice, text: str, seed) -> Outcome:
    if voice.show is not None:
        voice.show(text)
    if seed is not None:
        voice.say(f"seed {seed}")
    return Outcome(text)


def _plan_style(job: Any) -> str:
    """Block plans print block for block ('blocks') unless a text style was chosen."""
    return job.text_style or "blocks"


# --- generate and export: graph mazes

def generate(job: Generate, voice: Voice) -> Outcome:
    """``blockmaze generate``: a maze of SIZE cells (or a classical labyrinth)."""
    if job.kind == "labyrinth":
        return _labyrinth(job, voice)
    if job.puzzle_box:
        return _puzzle_box(job, voice)
    kind = job.kind
    if job.unicursal:
        _check_unicursal(job)
    # a unicursal maze is built square: one of another kind is drawn in corridors at --scale
    # first (whatever the output), so --wall and --passage apply too
    built = "square" if job.unicursal else kind
    where, theme = _output(job)
    _check_surface(kind, where)
    settings = block_settings(job, built, **({"scale": None} if job.unicursal else {}))
    shape, mask = _shape_and_mask(job, settings)
    prefab = _prefab(job, shape, mask, settings, where)
    if prefab is not None:
        mask = prefab.mask() if mask is None else _cells_mask(mask, shape) & prefab.mask()
    if where is not None:
        # a split square maze has twice the rows and columns
        cells = tuple(2 * n for n in shape) if job.unicursal and kind == "square" else shape
        _check_fits(where.writer, settings, kind, cells)
        where = _check_graph_output(job, where, kind, shape[0])
    _warn_unused(job, run_context(job, where))
    seed = _seed(job)
    if job.difficulty is not None:
        _check_difficulty(job)
    if where is not None and job.minigame and where.writer.taken(layouts=()):
        _check_memory(job, where, settings, kind, shape)
        return _minigame(job, voice, where, theme, settings, kind, shape, mask, seed)
    if where is not None and not job.unicursal and prefab is None \
            and job.difficulty is None and _streams(job, where, shape, settings):
        return _write_streamed(job, voice, where, theme, shape, seed, settings)
    _check_memory(job, where, settings, kind, shape)
    document = carved(job, where, kind, shape, mask, seed)
    if job.difficulty is not None:
        measured = document.extra["difficulty"]
        voice.say(f"difficulty {measured['score']:.2f} ({measured['band']}; asked "
                  f"{job.difficulty}): {document.algorithm}, carve seed {document.seed}")
    if prefab is not None and prefab.place == "goal":  # the goal at its door
        from .mazes.documents import MazeDocument
        from .mazes.endpoints import Endpoints

        document = MazeDocument(document.maze, Endpoints(*prefab.ends(document.maze)),
                                document.algorithm, document.seed, document.braid)
    return _emit(job, voice, document, where, theme, settings,
                 split_from=(kind, shape) if job.unicursal else None, prefab=prefab)


def _puzzle_box(job: Generate, voice: Voice) -> Outcome:
    """``--puzzle-box``: a cylinder maze's puzzle box, its parts in a 3MF, STLs and the nub's
    path beside it (:mod:`blockmaze.export.surfaces.box`)."""
    if job.kind != "cylinder":
        raise BlockmazeError(f"--puzzle-box cuts a cylinder's maze: give -g cylinder ROWSxCOLS "
                             f"(not -g {job.kind})")
    from .export.surfaces.box import puzzle_box
    from .export.surfaces.boxfile import box_paths, write_box
    from .pipeline import make_maze

    if job.output is None:
        raise BlockmazeError("--puzzle-box writes its parts as one 3MF (with an STL of each and "
                             "NAME.box.json beside it): give -o NAME.3mf")
    paths = box_paths(job.output)  # (a path not NAME.3mf refused before any work)
    _warn_unused(job, run_context(job, None))
    shape, mask = shape_and_mask("cylinder", job.size, job.mask)
    seed = _seed(job)
    document = make_maze(shape, kind="cylinder", algorithm=job.algorithm, seed=seed,
                         braid=job.braid, mask=mask, difficulty=job.difficulty)
    with phase("cutting the puzzle box"):
        box = puzzle_box(document, diameter=job.diameter, clearance=job.clearance, nubs=job.nubs)
    written = write_box(box, job.output)
    voice.say(f"wrote {job.output}: a puzzle box of a cylinder {'x'.join(map(str, shape))} maze, "
              f"{job.nubs} nub{'s' * (job.nubs > 1)}, {job.diameter:g} mm across (inner, sleeve, "
              f"lid, base; their STLs and {paths['json'].name} beside it), seed {seed}")
    return Outcome(None, written)


def _check_difficulty(job: Generate) -> None:
    """``--difficulty`` chooses the algorithm and the carve's seed: refused beside what would
    choose them too (the band itself is checked by make_maze)."""
    from .mazes.difficulty import parse_difficulty

    parse_difficulty(job.difficulty or "")
    for name in ("algorithm", "minigame", "animate", "prefab"):
        if name in job.given and getattr(job, name):
            raise ParameterError(f"{{difficulty}} chooses the algorithm and the carve itself: "
                                 f"leave out {{{name}}}")


def _prefab(job: Generate, shape, mask, settings: BlockSettings,
            where: Destination | None) -> Placement | None:
    """Where ``--prefab``'s structure goes in the maze (None without it), read and placed
    before any carving; refused in one line where it cannot go."""
    if job.prefab is None:
        return None
    from .blocks.prefab import parse_prefab, place_prefab
    from .readers.prefab import read_prefab
    from .writing import check_prefab_writer

    if job.kind != "square" or job.unicursal:
        raise BlockmazeError("--prefab goes in a square maze (-g square, not unicursal): its "
                             "footprint is a block of cells")
    if where is None:
        raise BlockmazeError("--prefab places Minecraft blocks: give -o FILE.schem (or .litematic, "
                             ".nbt, a world)")
    check_prefab_writer(where.writer)
    path, place = parse_prefab(job.prefab)
    if place == "goal" and job.entrances:
        raise BlockmazeError("--prefab FILE@goal puts the goal at its door: drop --entrances")
    cells = None if mask is None else _cells_mask(mask, shape)
    return place_prefab(read_prefab(path), shape, place, settings.wall, settings.passage,
                        settings.height, settings.roof, cells)


def _cells_mask(mask, shape):
    """A mask as an array of the maze's cells (a file read)."""
    import numpy as np

    from .mazes.masks import load_mask

    return mask if isinstance(mask, np.ndarray) else load_mask(mask, "square", shape)


def _shape_and_mask(job: Generate, settings: BlockSettings):
    """The grid's shape from SIZE (or the mask's), or the most cells whose plan fits ``--fit``'s
    blocks at these settings."""
    if job.fit is None:
        return shape_and_mask(job.kind, job.size, job.mask)
    if job.size is not None or job.mask is not None or job.unicursal:
        raise BlockmazeError("--fit is the maze's size in blocks: give it without SIZE, --mask "
                             "or --unicursal")
    from .blocks.fit import fitting_shape

    return fitting_shape(job.kind, tuple(job.fit), settings), None


def _check_unicursal(job: Generate) -> None:
    from .blocks.unicursal import check_unicursal_kind

    check_unicursal_kind(job.kind)
    if job.kind != "square" and job.scale is not None:  # drawn in corridors at --scale
        BlockSettings(job.kind, scale=job.scale).check_scale()
    if job.braid:
        raise BlockmazeError("--unicursal splits the passages of a perfect maze: drop "
                             "--braid (its loops would leave more than one path)")


def carved(job: Generate, where: Destination | None, kind: str, shape, mask,
            seed: int, ends: bool = False) -> MazeDocument:
    """The maze ``job`` asks for, replayed in the terminal first with ``--animate``; its start
    and goal placed where they are shown, or ``ends`` asks for them."""
    from .pipeline import make_maze

    weave = job.weave if kind == "weave" else 0.0  # (elsewhere it was warned of as ignored)
    if job.animate and where is None and kind != "layered":
        from .replay import carve_frames, play, recorded_maze

        document, order, _ = recorded_maze(shape, kind, job.algorithm, seed, job.braid,
                                           job.entrances, mask, weave)
        per_frame = max(1, -(-len(order) // (4 * job.fps)))  # about four seconds
        play(carve_frames(document, order, per_frame, job.text_style or "box",
                          _plan_style(job)), job.fps)  # then the maze itself
        if job.unicursal:
            document = make_maze(shape, kind, job.algorithm, seed, 0.0, job.entrances, mask,
                                 unicursal=True, scale=job.scale)  # the perfect maze, split
        if job.solve:  # then the solver's walk in the maze printed, in about four seconds more
            _play_solver(job, document, job.solve)
        return document
    shows_ends = ends or where is None or where.writer.draws_maze or job.solution
    stops = kind != "layered"  # (there they were warned of as ignored)
    return make_maze(shape, kind, job.algorithm, seed, job.braid, job.entrances, mask, weave,
                     ends=bool(shows_ends), unicursal=job.unicursal, scale=job.scale,
                     exits=job.exits * stops, checkpoints=job.checkpoints * stops,
                     difficulty=job.difficulty)


def _play_solver(job: Generate, document: MazeDocument, method: str) -> None:
    """``--animate --solve METHOD`` on a printed maze: the solver's walk from start to goal
    replayed in the terminal (:func:`blockmaze.replay.solve_frames`), over the carve's last frame."""
    from .mazes.endpoints import place_endpoints
    from .replay import play, solve_frames
    from .solvers import solve

    if document.endpoints is None:
        document = dataclasses.replace(document, endpoints=place_endpoints(document.maze))
    ends = document.endpoints
    assert ends is not None
    visits = len(solve(document.maze, method, ends.start, ends.goal, rng=document.seed or 0).visits)
    per_frame = max(1, -(-visits // (4 * job.fps)))
    play(solve_frames(document, method, per_frame, job.text_style or "box", _plan_style(job),
                      rng=document.seed or 0), job.fps)


def _minigame(job: Generate, voice: Voice, where: Destination, theme: Theme | None,
              settings: BlockSettings, kind: str, shape, mask, seed: int) -> Outcome:
    """``--minigame N``: N mazes of one size, layout k's seed drawn from the seed and k alone
    (:func:`~blockmaze.export.minecraft.minigame.layout_seed`), in one datapack."""
    from .export.minecraft.minigame import layout_seed

    count = job.minigame or 1
    documents = tuple(carved(job, where, kind, shape, mask, layout_seed(seed, k), ends=True)
                      for k in range(count))
    chosen = _plan(job, where, theme, settings, seed)
    written = write_plan(chosen, Layouts(documents))
    what = f"{_cells(kind, documents[0].maze.grid.shape)}, a minigame of " \
           f"{counted(count, 'layout')}"
    _say_blocks(voice, chosen, written, what, f", {job.algorithm}, seed {seed}")
    voice.say("then: /function blockmaze:next builds the next layout over the last")
    return _outcome(written)


def _labyrinth(job: Generate, voice: Voice) -> Outcome:
    """A classical labyrinth (``-g labyrinth``): a polar maze from its design, no SIZE."""
    from .mazes.labyrinths import design, labyrinth, rings_of

    circuits = labyrinth_circuits(job.size, job.circuits)
    if job.mask is not None:
        raise BlockmazeError("a labyrinth is drawn whole: --mask does not apply to it")
    if job.unicursal:
        raise BlockmazeError("a labyrinth is unicursal already: drop --unicursal")
    design(job.style, circuits)  # a bad style or count, refused before any work
    settings = block_settings(job, "polar", wall=1)
    where, theme = _output(job)
    if where is not None:
        _check_fits(where.writer, settings, "polar", (rings_of(job.style, circuits),))
        where = _check_graph_output(job, where, "polar", 1)
    _warn_unused(job, run_context(job, where))
    _check_memory(job, where, settings, "polar", (rings_of(job.style, circuits),))
    with phase("drawing the labyrinth"):
        document = labyrinth(circuits, job.style)
    return _emit(job, voice, document, where, theme, settings)


def export(job: Export, voice: Voice) -> Outcome:
    """``blockmaze export``: a maze document, printed or written."""
    from .mazes.documents import load_maze

    where, theme = _output(job)
    loaded = load_maze(job.document)
    grid = loaded.maze.grid
    _check_surface(grid.kind, where)
    settings = block_settings(job, grid.kind)
    if where is not None:
        where = _check_graph_output(job, where, grid.kind, grid.shape[0])
    _warn_unused(job, run_context(job, where, grid.kind))
    return _emit(job, voice, loaded, where, theme, settings)


def _check_surface(kind: str, where: Destination | None) -> None:
    """Refuse, before any work, to write a maze on a surface (a cylinder, a cube, ...) where
    the writer draws none (the writer says: ``draws_surfaces``); printed, it would be blocks."""
    from .grids import SURFACE_KINDS

    if kind in SURFACE_KINDS and (where is None or not where.writer.draws_surfaces):
        from .export import FORMATS

        takes = sorted(s for f in FORMATS.values() if f.surfaces for s in f.suffixes)
        raise BlockmazeError(f"a {kind} maze lies on a surface: write it as {', '.join(takes)} "
                             f"(a picture draws its net); blocks, meshes and tile maps are flat")


def _check_fits(writer: Writer, settings: BlockSettings, kind: str, cells) -> None:
    """Refuse, before any work, too small a scale for a rasterized kind, or a square maze too
    large for ``writer`` (its blocks are known from its shape)."""
    if writer.draws_maze:
        return
    settings.check_scale()
    if kind == "square":
        _check_plan_fits(writer, settings, settings.plan_shape(cells))


def _check_plan_fits(writer: Writer, settings: BlockSettings, plan_shape) -> None:
    """Refuse, before any work, a (z, x) plan ``writer`` cannot hold once stood up (a tile map
    holds the plan itself)."""
    writer.check_volume((1, *plan_shape) if writer.plan else settings.volume_shape(plan_shape))


def _check_memory(job: Any, where: Destination | None, settings: BlockSettings, kind: str,
                  shape: tuple[int, ...]) -> None:
    """Refuse, from arithmetic alone and before any work, a maze whose steps need more memory
    than the limit: the grid's cells, a unicursal maze's drawing in corridors and its split
    cells, the rasterized plan, the volume and the writer's own (:mod:`blockmaze.blocks.least`;
    each step checks the same figure again when it runs)."""
    from .blocks.least import RASTER_BYTES, least_cells, least_plan_blocks
    from .grids.base import check_cell_count
    from .blocks.raster import min_scale
    from .support.memory import ensure_memory, estimate

    cells = least_cells(kind, shape)
    check_cell_count(cells, f"a {'x'.join(map(str, shape))} {kind} grid")  # before its memory
    unicursal = getattr(job, "unicursal", False)
    steps = {"its grid": GRID_BYTES * cells}
    if unicursal:
        if kind != "square":
            scale = job.scale or min_scale(kind)
            steps["its drawing in corridors"] = RASTER_BYTES * least_plan_blocks(kind, shape, scale)
        steps["its split into one path"] = GRID_BYTES * 4 * cells
    if where is not None and not where.writer.draws_maze:
        plan, height = None, settings.volume_height
        if kind in ("square", "weave"):
            rows, cols = (2 * shape[0], 2 * shape[1]) if unicursal else (shape[0], shape[1])
            z, x = settings.plan_shape((rows, cols))
            plan = z * x
        elif kind == "layered":  # a plan a level, stacked (blocks/stack.py), the bottom floor
            levels, rows, cols = shape  # perhaps left out
            z, x = settings.plan_shape((rows, cols))
            plan, height = levels * z * x, 1
            if not where.writer.plan:
                plan = z * x
                height = levels * (settings.height + 1) + settings.roof - 1
        elif not unicursal and not settings.converted:
            plan = least_plan_blocks(kind, shape, settings.scale)
            steps["its plan"] = RASTER_BYTES * plan
        if plan is not None:
            blocks = plan * (1 if where.writer.plan else height)
            steps[f"its {where.writer.name} file"] = blocks + estimate(where.writer.name, blocks)
    if where is not None and where.writer.drawing_memory is not None:
        steps[f"its {where.writer.name} picture"] = where.writer.drawing_memory(
            kind, cells, writer_options(job, where.writer))
    what, need = max(steps.items(), key=lambda step: step[1])
    ensure_memory(need, f"this maze ({what})")


def _check_graph_output(job: Any, where: Destination, kind: str, levels: int) -> Destination:
    """Refuse, before any work, what a graph maze's output cannot be: a picture style that
    cannot draw its kind, a layered maze's tile maps (a file a level) to a stream; the
    destination with its levels' files."""
    if where.writer.draws_maze and "style" in where.writer.options:
        from .export import check_picture_style

        check_picture_style(job.picture_style, kind)
    return where.for_levels(levels) if where.writer.plan and kind == "layered" else where


def _streams(job: Generate, where: Destination, shape, settings: BlockSettings) -> bool:
    from .streaming import should_stream, stream_blockers

    blockers = stream_blockers(settings.kind, job.mask, job.algorithm, job.braid, job.entrances,
                               job.solution, job.lights, job.exits, job.checkpoints)
    return should_stream(where.writer, shape, settings, blockers, where.split)


def _write_streamed(job: Generate, voice: Voice, where: Destination, theme: Theme | None, shape,
                    seed: int, settings: BlockSettings) -> Outcome:
    """A square maze generated row by row straight into a band writer (a world, a .schem)."""
    rows, cols = shape
    write_plan(_plan(job, where, theme, settings, seed), Streamed(rows, cols, job.algorithm, seed))
    layers, z, x = settings.volume_shape(settings.plan_shape(shape))
    shown = f"tiles of at most {where.split}x{where.split} blocks beside {where.shown}" \
        if where.split else where.shown
    voice.say(f"wrote {shown}: square {'x'.join(map(str, shape))} cells, streamed, "
              f"{x}x{layers}x{z} blocks (width x height x length), {job.algorithm}, seed {seed}")
    return Outcome(None, [] if where.split else [Path(where.target)], None)  # type: ignore[arg-type]


def _emit(job: Any, voice: Voice, document: MazeDocument, where: Destination | None,
          theme: Theme | None, settings: BlockSettings, split_from=None,
          prefab: Placement | None = None) -> Outcome:
    """Print the maze, or write it in the output's format (blocks, picture or document);
    ``split_from``: the (kind, shape) a unicursal maze was split from, for the report."""
    if where is None:
        from .pipeline import maze_text

        return _print(voice, maze_text(document, solution=job.solution or bool(getattr(job, "solve", None)),
                                       style=job.text_style or "box",
                                       plan_style=_plan_style(job)), document.seed)
    maze = document.maze
    origin = f", {document.algorithm}" if document.algorithm else ""
    origin += f", seed {document.seed}" if document.seed is not None else ""
    what = _cells(maze.grid.kind, maze.grid.shape)
    if split_from is not None:  # the maze asked for, and the one path it became
        what = f"{_cells(*split_from)} split into one path ({_split_drawn(job, where, document, what)})"
    chosen = _plan(job, where, theme, settings, document.seed, prefab)
    written = write_plan(chosen, document)
    done = _outcome(written)
    if where.writer.draws_maze:
        voice.say(f"wrote {where.shown}{_beside(done.companions)}: {where.writer.format.noun}, {what}{origin}")
    elif where.writer.plan and maze.grid.kind == "layered":  # a tile map a level
        _say_files(voice, where, done, what, ", a file each", origin)
    else:
        _say_blocks(voice, chosen, written, what, origin)
    return done


def _split_drawn(job: Any, where: Destination, document: MazeDocument, what: str) -> str:
    """What a unicursal maze became, as the output shows it: a picture of a kind split in
    blocks is drawn in lanes on that grid (:mod:`blockmaze.export.unicursal_picture`), else
    the square maze ``what``."""
    from .export.unicursal_picture import LANE_STYLES

    style = writer_options(job, where.writer).get("style")
    if document.split_from is not None and style in LANE_STYLES:
        return f"drawn in lanes on its {document.split_from.grid.kind} grid"
    return what


def _say_files(voice: Voice, where: Destination, done: Outcome, what: str, each: str,
               origin: str) -> None:
    """The line of a file a level: ``wrote d-1.tmx ... d-3.tmx: 3 levels, WHAT, a file each``."""
    levels = len(done.paths)
    shown = _shown(where, done.paths[0]) + (f" ... {Path(done.paths[-1]).name}"
                                            if levels > 1 else "")
    voice.say(f"wrote {shown}{_beside(done.companions)}: {counted(levels, 'level')}"
              f"{', ' + what if what else ''}{each * (levels > 1)}{origin}")


def _outcome(written: Written) -> Outcome:
    return Outcome(None, written.paths, written.volume, written.companions)


def _printed(plan: Plan, volume) -> str:
    """``, printed 320 x 375 x 20 mm`` for a file to print (STL, 3MF), else nothing."""
    if plan.writer.print_size is None:
        return ""
    size = plan.writer.print_size(volume.shape, block_size=plan.options.get("block_size"),
                                  finger=plan.options.get("finger"))
    return f", printed {size}"


def _say_blocks(voice: Voice, plan: Plan, written: Written, what: str,
                origin: str) -> None:
    """The lines of blocks written: a line a file (its size in blocks), or the tiles, and how
    to place it where the format does not say."""
    where = plan.destination
    for part in written.parts:
        label = f"{what}, {part.label}" if what and part.label else what or part.label
        if where.split is not None:
            files = part.paths
            voice.say(f"wrote {len(files)} tiles {files[0].name} ... {files[-1].name}: "
                      f"{label}{origin}")
            continue
        y, z, x = part.volume.shape  # type: ignore[union-attr]
        voice.say(f"wrote {_shown(where, part.paths[0])}{_beside(part.companions)}: {label}, "
                  f"{x}x{y}x{z} blocks (width x height x "
                  f"length){_printed(plan, part.volume)}{origin}")
        if where.writer.hint is not None:
            name = Path(part.paths[0]).stem.lower() if where.is_path else "-"
            hint = where.writer.hint(part.volume, name=name, release=plan.options.get("mc_version"))
            if hint:
                voice.say(f"to place it: {hint}")


# --- blockwise and dungeon: mazes of blocks

def blockwise(job: Blockwise, voice: Voice) -> Outcome:
    """``blockmaze blockwise``: a maze exactly SIZE blocks."""
    size, mode = tuple(job.size), job.mode
    if len(size) not in (2, 3) or (len(size) == 3 and mode != "strict"):
        raise BlockmazeError("blockwise sizes are ROWSxCOLS blocks, or HEIGHTxROWSxCOLS for a "
                             "strict 3-D maze")
    settings = BlockSettings.resolve(height=job.height, floor=job.floor, roof=job.roof,
                                     lights=job.lights, hollow=job.hollow)
    where, theme = _output(job)
    _check_blockwise_output(where, settings, size)
    _warn_unused(job, run_context(job, where))
    seed = _seed(job)
    blocks, what = _blockwise_blocks(job, voice, size, seed)
    if where is None:
        return _print(voice, _plan_text(blocks, _plan_style(job)), seed)
    chosen = _plan(job, where, theme, settings, seed)
    written = write_plan(chosen, blocks)
    _say_blocks(voice, chosen, written, what, f", seed {seed}")
    return _outcome(written)


def _check_blockwise_output(where: Destination | None, settings: BlockSettings, size) -> None:
    if where is not None and where.writer.draws_maze:
        raise BlockmazeError("a blockwise maze is blocks: choose a block format, not a maze "
                             "document or picture")
    if where is None:
        if len(size) == 3:
            raise BlockmazeError("a 3-D maze cannot be printed: write it with -o FILE")
        return
    if len(size) == 3:
        if where.writer.plan:
            raise BlockmazeError(f"a 3-D blockwise maze has {size[0]} layers and "
                                 f"{where.writer.name} holds one: write it to a block or mesh "
                                 f"format (.schem, .litematic, .glb, .vox, ...)")
        where.writer.check_writing(size)
    else:  # (its volume made whole, then written: its memory known from its shape)
        where.writer.check_writing((1, *size) if where.writer.plan else settings.volume_shape(size))


def _blockwise_blocks(job: Blockwise, voice: Voice, size, seed):
    from .blockwise.relaxed import relaxed_layout
    from .blockwise.strict import strict_plan, strict_volume_3d
    from .materials import Material

    length, width = size[-2:]
    if job.mode == "relaxed":
        fill = None if job.fill is None else Material[job.fill.upper()]
        layout = relaxed_layout(length, width, job.ordering, seed, job.border, fill)
        voice.say(f"dead solid blocks: {layout.dead_share:.1%} of solid blocks")
        return layout.plan, f"relaxed {job.ordering}"
    if len(size) == 3:
        return (strict_volume_3d(size[0], length, width, job.algorithm, seed,
                                 _axes(job.wall, 3), _axes(job.passage, 3), job.cells),
                f"strict 3-D {job.algorithm}")
    return (strict_plan(length, width, job.algorithm, seed, job.wall, job.passage, job.cells),
            f"strict {job.algorithm}")


def dungeon(job: Dungeon, voice: Voice) -> Outcome:
    """``blockmaze dungeon``: a roguelike level of SIZE cells, its levels joined by stairs."""
    from .dungeon import generate_dungeon

    size = tuple(job.size)
    spawns = _check_dungeon(job, size)
    settings = BlockSettings.resolve(height=job.height, floor=job.floor, roof=job.roof,
                                     lights=job.lights, hollow=job.hollow)
    where, theme = _output(job)
    if where is not None:  # a picture, several files to a stream, or too large: refused
        check_source(where.writer, None)  # before any work
        where = where.for_levels(dungeon_files(job.levels, where.writer))
        plan_shape = (2 * size[0] + 1, 2 * size[1] + 1)  # cells and walls a block each
        if where.writer.draws_dungeons:
            from .export.dungeon_pictures import check_picture_size

            check_picture_size([plan_shape] * job.levels)
        else:
            _check_plan_fits(where.writer, settings, plan_shape)
    _warn_unused(job, run_context(job, where))
    vaults = _vaults(job, where)
    seed = _seed(job)
    with phase("generating"):
        made = generate_dungeon(size, seed, algorithm=job.algorithm, room_size=job.room_size,
                                room_attempts=job.room_attempts, extra_doors=job.extra_doors,
                                sparseness=job.sparseness, min_shortcut=job.min_shortcut,
                                levels=job.levels, style=job.style, spawns=spawns,
                                spacing=job.spawn_spacing, lock=job.lock)
    _say_levels(job, voice, made)
    if where is None:
        style = _plan_style(job)
        return _print(voice, "\n\n".join(_plan_text(level.plan, style) for level in made.levels),
                      seed)
    chosen = _plan(job, where, theme, settings, seed, vaults)
    written = write_plan(chosen, made)
    done = _outcome(written)
    if where.writer.draws_maze:  # a picture a level
        _say_files(voice, where, done, "", ", a picture each", f", seed {seed}")
    else:
        _say_blocks(voice, chosen, written, "", f", seed {seed}")
    if len(written.parts) > 1:
        done.volume = None
    return done


def _vaults(job: Dungeon, where: Destination | None) -> RoomVaults | None:
    """``--prefab FILE[@rooms]``: the vaults of a dungeon's rooms (None without it)."""
    if job.prefab is None:
        return None
    from .blocks.prefab import RoomVaults, parse_prefab
    from .readers.prefab import read_prefab
    from .writing import check_prefab_writer

    if where is None:
        raise BlockmazeError("--prefab places Minecraft blocks: give -o FILE.schem (or .litematic, "
                             ".nbt, a world)")
    check_prefab_writer(where.writer)
    path, _ = parse_prefab(job.prefab, ("rooms",))
    return RoomVaults(read_prefab(path))


def _check_dungeon(job: Dungeon, size) -> list[int] | None:
    """Refuse, before any work, more room attempts or spawn points than the dungeon can take;
    the spawn counts asked for."""
    from .dungeon import parse_spawns

    most = max(100_000, size[0] * size[1])  # more attempts than cells place no further room
    if job.room_attempts is not None and job.room_attempts > most:
        raise BlockmazeError(f"--room-attempts is at most {most} for a {size[0]}x{size[1]} "
                             f"dungeon, got {job.room_attempts}")
    spawns = parse_spawns(job.spawns)
    blocks = (2 * size[0] + 1) * (2 * size[1] + 1)  # a spawn point a block at the most
    if spawns is not None and sum(spawns) > blocks:
        raise BlockmazeError(f"--spawns asks for {sum(spawns)} spawn points; a {size[0]}x{size[1]} "
                             f"dungeon has {blocks} blocks, so at most that many")
    return spawns


def _say_levels(job: Dungeon, voice: Voice, made) -> None:
    from .dungeon.metrics import metrics_text

    for number, level in enumerate(made.levels, 1):
        voice.say(f"level {number}: {metrics_text(level.metrics)}")
    if job.lock and not any(e.kind == "key" for level in made.levels for e in level.entities):
        from .errors import BlockmazeWarning

        warnings.warn("--lock placed no lock: no single door leads to the goal in this "
                      "dungeon (try another seed or style)", BlockmazeWarning, stacklevel=3)


def info(job: Info, voice: Voice) -> Outcome:
    """``blockmaze info``: what a file (or a world save) blockmaze wrote holds, a fact a line."""
    from .readers.info import inspect_file
    from .readers.worldinfo import is_world, summarize_world

    path = job.path
    if job.json or job.analysis:
        return _print(voice, _info_report(job), None)
    lines = summarize_world(path) if is_world(path) else inspect_file(path).lines()
    return _print(voice, "\n".join(printable(line) for line in lines), None)  # a file's text


def _info_report(job: Info) -> str:
    """``info --analysis`` and ``--json``: the file's summary, and the measures of the maze it
    holds (:func:`blockmaze.readers.analysis.analyze_file`), as lines or one JSON object."""
    import json

    from .mazes.measures import analysis_lines
    from .readers.analysis import analyze_file
    from .readers.info import inspect_file
    from .readers.worldinfo import is_world

    if is_world(job.path):
        raise ParameterError(f"{{analysis}} and {{json}} read a file, not a world folder "
                             f"({printable(job.path)})")
    summary = inspect_file(job.path)
    facts = analyze_file(job.path) if job.analysis else None
    if job.json:
        report = {"format": summary.format, "size": summary.size, "unit": summary.unit,
                  "data_version": summary.data_version, "details": summary.details,
                  "counts": summary.counts}
        if facts is not None:
            report["analysis"] = facts
        return json.dumps(report, indent=2, default=str)
    lines = summary.lines() + ([] if facts is None else ["analysis:"] + [
        f"  {line}" for line in analysis_lines(facts)])
    return "\n".join(printable(line) for line in lines)


RUNNERS: dict[str, Callable[[Any, Voice], Outcome]] = {
    "generate": generate, "export": export, "blockwise": blockwise, "dungeon": dungeon,
    "info": info}


# --- sizes and words

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


def _axes(value, count: int):
    """A thickness for ``count`` axes: None (auto), or a per-axis tuple from N or ZxX."""
    if value is None:
        return None
    value = value if isinstance(value, tuple) else (value,)
    return (value[0],) * (count - len(value)) + tuple(value)


def _shown(where: Destination, path) -> str:
    return where.shown if where.to_stdout else str(path)


def _cells(kind: str, shape) -> str:
    """A maze's size as the command names it: ``square 10x20 cells``, ``polar 10 rings``.

    >>> _cells("square", (3, 4)), _cells("polar", (5,))
    ('square 3x4 cells', 'polar 5 rings')
    """
    unit = "rings" if kind == "polar" else "cells"
    return f"{kind} {'x'.join(map(str, shape))} {unit}"


def _beside(companions: list) -> str:
    """The companion files a run wrote, for its "wrote" line: `` and maze.mtl beside it``."""
    if not companions:
        return ""
    return f" and {', '.join(p.name for p in companions)} beside it"


def _plan_text(blocks, style: str) -> str:
    from .render import plan_text

    return plan_text(blocks, style=style)
