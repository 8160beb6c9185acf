"""One writing path: a resolved :class:`Plan` and what it writes, as parts, in one transaction.

A :class:`Plan` holds everything decided about a run's output, once: its destination (the file,
standard output or folder ``-o`` names, with its writer and tiles), the block settings with every
default applied, the theme prepared for the writer, the seed its theme's variants are drawn
from (where the format takes one) and the writer's own options. :func:`write_plan` turns a
source (a maze document, a dungeon, blocks or a maze streamed row by row) into the parts to
write, each a volume, bands or a document with its path, its options and what it is, and writes
them all or none; it returns what was written, companion files included. The command
(:mod:`blockmaze.jobs`), the studio and :func:`save` all build a plan and call it.

Example
-------
>>> import io
>>> from blockmaze import generate
>>> written = write_plan(plan(io.BytesIO(), "schem"), generate((2, 3), rng=1))
>>> written.volume.shape, written.parts[0].label
((4, 5, 7), '')
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np

from .blocks.settings import BlockSettings
from .errors import BlockmazeError
from .export import Writer, write_blocks
from .export.destination import Destination, destination
from .export.target import Target, open_target, transaction
from .materials import Theme, as_theme
from .maze import Maze
from .mazes.documents import MazeDocument
from .mazes.endpoints import Endpoints, place_endpoints
from .pipeline import blocks_of, plan_layer, shown_endpoints, stood_up
from .support.progress import phase

if TYPE_CHECKING:
    from .blocks.prefab import Placement, RoomVaults
    from .dungeon import Dungeon


@dataclass(frozen=True)
class Plan:
    """Everything decided about what a run writes (see the module docstring): build one with
    :func:`plan`."""

    destination: Destination
    blocks: BlockSettings
    theme: Theme
    seed: int | None = None
    options: Mapping[str, Any] = field(default_factory=dict)  # the writer's own
    prefab: Placement | RoomVaults | None = None  # a prefab in a maze, or a dungeon's vaults

    @property
    def writer(self) -> Writer:
        return self.destination.writer


def plan(target: Target | Destination, format: str | Writer | None = None, *,
         blocks: BlockSettings | None = None, theme: Theme | str | None = None,
         seed: int | None = None, split: int | None = None, prefab: Placement | RoomVaults | None = None,
         **options) -> Plan:
    """The plan of writing ``target`` (a path, ``"-"`` with a format, an open file, or a
    :class:`~blockmaze.export.destination.Destination`) in ``format`` (by default its suffix's),
    with ``blocks`` (default settings for a square maze), ``theme``, ``seed`` (where the format
    takes one; a maze document's own by default) and the writer's own ``options``, checked
    against what the writer takes; ``prefab``: where a prefab goes in the maze, its states added
    to the theme (for a writer of Java block states only).

    >>> plan("maze.glb", chunk=16).options["chunk"]
    16
    >>> plan("maze.glb", colour="red")
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: glb does not take colour; its options are: block_size, watertight, collision, chunk, quantize, compress, uv, navmesh
    """
    where = target if isinstance(target, Destination) else destination(target, format, split)
    writer = where.writer
    writer.check_options(options)
    prepared = writer.themed(as_theme(theme), options)
    if prefab is not None:
        check_prefab_writer(writer)
        prepared = writer.themed(prefab.themed(prepared), options)  # its states checked
    return Plan(where, blocks or BlockSettings(), prepared, seed, MappingProxyType(dict(options)),
                prefab)


def check_prefab_writer(writer: Writer) -> None:
    """Refuse a prefab in a file that does not write Java block states (see :class:`Writer`).

    >>> from blockmaze.export import writer_for
    >>> check_prefab_writer(writer_for(format="glb"))
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: --prefab places Minecraft blocks: write a Java block file (.schem, .litematic, .nbt or a world), not glb
    """
    if not writer.java_states:
        raise BlockmazeError(f"--prefab places Minecraft blocks: write a Java block file "
                             f"(.schem, .litematic, .nbt or a world), not {writer.name}")


@dataclass(frozen=True)
class Part:
    """One file of a plan: ``source`` (a (y, z, x) volume, a maze document, or a function that
    starts a streamed maze's bands over), ``target``, the writer's ``options`` for it, and
    ``label``, what it is for the run's report (a dungeon's ``level 2, 3 rooms``)."""

    source: Any
    target: Target
    options: Mapping[str, Any]
    label: str = ""


@dataclass
class WrittenPart:
    """What one part became: its files (the target, or its tiles), the volume written (None for
    documents, pictures and streamed mazes), its label, and the companion files beside it."""

    paths: list
    volume: np.ndarray | None
    label: str = ""
    companions: list = field(default_factory=list)


@dataclass
class Written:
    """What :func:`write_plan` wrote, part by part."""

    parts: list[WrittenPart]

    @property
    def paths(self) -> list:
        return [p for part in self.parts for p in part.paths]

    @property
    def companions(self) -> list:
        return [p for part in self.parts for p in part.companions]

    @property
    def volume(self) -> np.ndarray | None:
        """The volume written: one part's, or a file per level's plans stacked (None when a
        part has none)."""
        volumes = [part.volume for part in self.parts if part.volume is not None]
        if len(volumes) < len(self.parts) or not volumes:
            return None
        return volumes[0] if len(volumes) == 1 else np.concatenate(volumes)


@dataclass(frozen=True)
class Streamed:
    """A square maze that exists only as it is generated row by row: ``rows`` x ``cols``
    cells carved by a row-local ``algorithm`` from ``seed`` (see :mod:`blockmaze.streaming`)."""

    rows: int
    cols: int
    algorithm: str
    seed: int | None


@dataclass(frozen=True)
class Layouts:
    """A minigame's mazes of one size, each with its start and goal (datapacks: ``--minigame``);
    each is built as the plan builds a maze, the first with the plan's seed if it has one."""

    documents: tuple[MazeDocument, ...]


Source = Maze | MazeDocument | np.ndarray | Streamed | Layouts  # or a Dungeon


def write_plan(plan: Plan, source: Source | Dungeon,
               endpoints: Endpoints | None = None) -> Written:
    """Write ``source`` as ``plan`` says, every file or none (see the module docstring);
    ``endpoints`` replace a maze's own.

    >>> import io
    >>> from blockmaze import generate
    >>> write_plan(plan(io.BytesIO(), "png"), generate((2, 2), rng=0)).volume is None
    True
    """
    with transaction(to_stdout=plan.destination.to_stdout) as run:
        written = []
        for part in parts(plan, source, endpoints):
            before = len(run.companions)
            written.append(_write_part(plan, part))
            written[-1].companions = sorted(run.companions[before:])
        return Written(written)


def parts(plan: Plan, source: Source | Dungeon,
          endpoints: Endpoints | None = None) -> Iterator[Part]:
    """The parts ``source`` is written as in ``plan``'s format, in order (built as they are
    asked for: a dungeon's levels one at a time)."""
    writer, options = plan.writer, dict(plan.options)
    if isinstance(source, Streamed):
        yield _streamed_part(plan, source, {**writer.taken(seed=source.seed), **options})
        return
    if isinstance(source, Layouts):
        yield _layouts_part(plan, source, options)
        return
    if not isinstance(source, (Maze, MazeDocument)):
        options = {**writer.taken(seed=plan.seed), **options}
        if isinstance(source, np.ndarray):
            yield Part(_stood(plan, np.asarray(source)), plan.destination.target, options)
        else:
            yield from _dungeon_parts(plan, source, options)
        return
    document = _document(source, endpoints)
    seed = document.seed if plan.seed is None else plan.seed
    options = {**writer.taken(seed=seed), **options}
    if writer.draws_maze:
        yield _drawn_part(plan, document, options)
    elif writer.plan and document.maze.grid.kind == "layered":
        yield from _level_parts(plan, document, options)
    else:
        if writer.plan:  # a tile map: its checkpoints in order
            from .pipeline import stop_entities

            shown = shown_endpoints(document.maze, document.endpoints, plan.blocks.solution)
            stops = stop_entities(document.maze, shown, plan.blocks)
            options = {**options, **(writer.taken(entities=stops) if stops else {})}
        yield Part(_maze_volume(plan, document), plan.destination.target, options)


def _layouts_part(plan: Plan, source: Layouts, options: dict) -> Part:
    """A minigame: the first layout's volume, and every layout's volume, seed, start and goal
    (the blocks a player stands in on them) as the writer's ``layouts``."""
    if not plan.writer.taken(layouts=()):  # a writer that holds several mazes takes them
        raise BlockmazeError(f"{plan.writer.name} holds one maze: a minigame is a datapack "
                             f"(--format datapack)")
    from .materials import Material

    layouts = []
    for document in source.documents:
        volume = _maze_volume(plan, document)
        marked = stood_up(blocks_of(document.maze, document.endpoints,
                                    replace(plan.blocks, solution=True)), plan.blocks)
        ends = [np.argwhere(marked == m) for m in (Material.START, Material.GOAL)]
        if not all(len(e) for e in ends):
            raise BlockmazeError("a minigame's maze needs a start and a goal")
        # the block a player stands in: over the marked floor, or the marked block itself
        start, goal = ((int(y) + int(volume[y, z, x] != Material.AIR), int(z), int(x))
                       for y, z, x in (e[0] for e in ends))
        layouts.append((volume, document.seed, start, goal))
    seed = source.documents[0].seed if plan.seed is None else plan.seed
    options = {**plan.writer.taken(seed=seed), **options,
               **plan.writer.taken(layouts=tuple(layouts))}
    return Part(layouts[0][0], plan.destination.target, options)


def _document(source: Maze | MazeDocument, endpoints: Endpoints | None) -> MazeDocument:
    if isinstance(source, Maze):
        return MazeDocument(source, endpoints)
    if endpoints is not None:
        return replace(source, endpoints=endpoints)
    return source


def _drawn_part(plan: Plan, document: MazeDocument, options: dict) -> Part:
    """A picture or a maze document: the maze itself, its start and goal placed if it has none."""
    if document.endpoints is None:
        document = replace(document, endpoints=place_endpoints(document.maze))
    options = {**options, **plan.writer.taken(solution=plan.blocks.solution)}
    return Part(document, plan.destination.target, options)


def _level_parts(plan: Plan, document: MazeDocument, options: dict) -> Iterator[Part]:
    """A layered maze's tile maps, a file a level, its stairs as entities."""
    from .blocks.stack import level_tiles

    settings = plan.blocks
    with phase("building blocks"):
        levels = level_tiles(document.maze, wall=settings.wall, passage=settings.passage,
                             endpoints=shown_endpoints(document.maze, document.endpoints,
                                                       settings.solution),
                             solution=settings.solution)
    paths = plan.destination.paths(len(levels))
    for (level, entities), path in zip(levels, paths, strict=True):
        yield Part(plan_layer(level), path, {**options, "entities": entities})


def _maze_volume(plan: Plan, document: MazeDocument) -> np.ndarray:
    """The volume (or a tile map's one layer) of a maze, as the plan's settings build it."""
    with phase("building blocks"):
        blocks = blocks_of(document.maze, document.endpoints, plan.blocks)
        if plan.prefab is not None and hasattr(plan.prefab, "resolved"):  # its room and door
            prefab = plan.prefab.resolved(document.maze, document.endpoints)
            volume = stood_up(prefab.carve(blocks), plan.blocks)
            return prefab.stamp(volume, plan.blocks.floor)
        if plan.writer.plan and document.maze.grid.kind == "weave":
            from .blocks.weave import tile_plan

            blocks = tile_plan(blocks, plan.blocks.bridges)[0]  # from above, stairs as a legend
        return _stood(plan, blocks)


def _stood(plan: Plan, blocks: np.ndarray) -> np.ndarray:
    """Blocks as the writer takes them: a tile map's one layer, or a volume stood up."""
    return plan_layer(blocks) if plan.writer.plan else stood_up(blocks, plan.blocks)


def _dungeon_parts(plan: Plan, dungeon: Dungeon, options: dict) -> Iterator[Part]:
    """A dungeon: a tile map a level (its entities and metrics with it), or its levels stacked
    in one volume of blocks, joined by their stairs."""
    from .dungeon import stack_dungeon
    from .support.wording import counted

    writer, settings, levels = plan.writer, plan.blocks, dungeon.levels
    paths = plan.destination.paths(dungeon_files(len(levels), writer))
    if len(paths) < len(levels):
        volume = _stood(plan, stack_dungeon(dungeon, settings.height, settings.floor, settings.roof))
        label = f"{len(levels)} levels"
        if plan.prefab is not None and hasattr(plan.prefab, "stamp_rooms"):  # vaults in its rooms
            volume, vaults = plan.prefab.stamp_rooms(volume, levels, settings.height, settings.floor)
            label += f", {counted(vaults, 'vault')}"
        yield Part(volume, paths[0], options, label)
        return
    for number, (level, path) in enumerate(zip(levels, paths, strict=True), 1):
        label = f"level {number}, {counted(len(level.rooms), 'room')}"
        if writer.draws_dungeons:  # a picture draws the level itself
            yield Part(level, path, options, label)
            continue
        extra = writer.taken(entities=level.entities, metrics=level.metrics)
        blocks = _stood(plan, level.plan if writer.plan else level.marked_plan)
        if plan.prefab is not None and hasattr(plan.prefab, "stamp_rooms"):  # vaults in its rooms
            blocks, vaults = plan.prefab.stamp_rooms(blocks, [level], settings.height, settings.floor)
            label += f", {counted(vaults, 'vault')}"
        yield Part(blocks, path, {**options, **extra}, label)


def dungeon_files(levels: int, writer: Writer) -> int:
    """How many files a dungeon of ``levels`` makes in ``writer``'s format: a tile map's plan a
    level, or one volume of blocks, its levels stacked and joined by their stairs.

    >>> from blockmaze.export import writer_for
    >>> dungeon_files(3, writer_for(format="tmx")), dungeon_files(3, writer_for(format="schem"))
    (3, 1)
    """
    return levels if writer.plan or writer.draws_dungeons else 1


def _streamed_part(plan: Plan, maze: Streamed, options: dict) -> Part:
    """A square maze generated row by row, written band by band (see :mod:`blockmaze.streaming`)."""
    from .streaming import check_streamable, volume_bands
    from .support.randomness import as_generator

    check_streamable(maze.algorithm)
    writer, settings = plan.writer, plan.blocks
    if not writer.streams:
        raise BlockmazeError(f"{writer.name} cannot be written band by band; streamed mazes go to: "
                             "world, world-zip, schem")
    if plan.destination.split is None:
        writer.check_volume(settings.volume_shape(settings.plan_shape((maze.rows, maze.cols))))

    def bands() -> Iterator[np.ndarray]:
        made = volume_bands(maze.rows, maze.cols, maze.algorithm, as_generator(maze.seed),
                            settings.wall, settings.passage, settings.height, settings.floor,
                            settings.roof)
        if settings.hollow:
            from .blocks.hollow import hollow_bands

            return hollow_bands(made)
        return made

    return Part(bands, plan.destination.target, options)


def _write_part(plan: Plan, part: Part) -> WrittenPart:
    writer, theme, split = plan.writer, plan.theme, plan.destination.split
    options = dict(part.options)
    with phase("writing"):
        if writer.draws_maze:  # a maze document, or a picture of a maze or a dungeon level
            with open_target(part.target) as file:
                writer.write(part.source, file, theme, **options)
            return WrittenPart([part.target], None, part.label)
        if split is not None:
            if not isinstance(part.target, (str, os.PathLike)):
                raise BlockmazeError("--split writes its tiles beside a file: give -o NAME.schem, "
                                     "not a stream")
            source = part.source() if callable(part.source) else part.source
            tiles = writer.write_tiles(source, part.target, theme, split, **options)  # type: ignore[misc]
            return WrittenPart(tiles, None if callable(part.source) else part.source, part.label)
        if callable(part.source):
            _write_bands(writer, part.source, part.target, theme, options)
            return WrittenPart([part.target], None, part.label)
        write_blocks(writer, part.source, part.target, theme, options)
        return WrittenPart([part.target], part.source, part.label)


def _write_bands(writer: Writer, bands: Callable[[], Iterator[np.ndarray]], target: Target,
                 theme: Theme, options: dict) -> None:
    """A streamed maze: into a writer of bands (a world), or one that starts the bands over
    for each pass it makes (a whole .schem)."""
    if writer.folder:
        writer.write(bands(), target, theme, **options)
        return
    with open_target(target) as file:
        if writer.bands:
            writer.write(bands(), file, theme, **options)
        else:
            writer.write_bands(bands, file, theme, **options)  # type: ignore[misc]


def save(source: Source | Dungeon, target: Target, format: str | Writer | None = None, *,
         theme: Theme | str | None = None, endpoints: Endpoints | None = None,
         solution: bool = False, wall=None, passage=None, scale: int | None = None,
         height: int = 3, floor: bool = True, roof: bool = False, lights: bool = False,
         bridges: bool = False, hollow: bool = False, seed: int | None = None,
         split: int | None = None, **options) -> np.ndarray | None:
    """Write a maze, a maze document, a dungeon or blocks to ``target`` in the format its suffix
    (or ``format``) names, as ``blockmaze generate -o FILE`` (``dungeon -o FILE``) does.

    A maze is built as :func:`~blockmaze.pipeline.build` does (block formats) or drawn
    (pictures) or saved whole (maze documents, ``.json``).

    Parameters
    ----------
    source : Maze, MazeDocument, Dungeon or numpy.ndarray
        What to write: a maze, a document (its endpoints and seed used), a dungeon (a tile map
        a level, ``NAME-1.tmx`` ...; its levels stacked in one volume of blocks), or blocks.
    target : str, os.PathLike or binary file
        Where; a path is written to a temporary file and renamed into place.
    format : str, optional
        A name of :data:`~blockmaze.export.FORMATS`; by default the suffix picks it.
    theme : Theme or str, optional
        What each material looks like.
    endpoints, solution, wall, passage, scale, height, floor, roof, lights, bridges, hollow
        How a maze becomes blocks, as for :func:`~blockmaze.pipeline.build`.
    seed : int, optional
        Where the format takes one (the theme's variants are drawn from it): by default a
        document's own.
    split : int, optional
        ``.schem`` only: cut the volume into tiles of at most split x split blocks beside
        ``target`` (``NAME_x<X>_z<Z>.schem``).
    **options
        The format's own (``writer_for(...).options``: e.g. ``mc_version``, ``schem_version``,
        ``style``).

    Returns
    -------
    numpy.ndarray or None
        The (y, z, x) volume written; None for pictures and maze documents.

    Examples
    --------
    >>> import io
    >>> from blockmaze import generate
    >>> save(generate((3, 4), rng=1), io.BytesIO(), format="png", style="paths") is None
    True
    """
    kind = _kind(source)
    settings = BlockSettings.resolve(kind, wall=wall, passage=passage, scale=scale,
                                     height=height, floor=floor, roof=roof, lights=lights,
                                     bridges=bridges, solution=solution, hollow=hollow)
    chosen = plan(target, format, blocks=settings, theme=theme, seed=seed, split=split, **options)
    check_source(chosen.writer, source)
    return write_plan(chosen, source, endpoints).volume


def check_source(writer: Writer, source: Source | Dungeon | None) -> None:
    """Refuse, before any work, a source ``writer`` cannot write: blocks to a format that draws
    a maze's graph (a picture, a maze document), or a dungeon (None) to one that draws no
    dungeon (a maze document).

    >>> from blockmaze.export import writer_for
    >>> check_source(writer_for(format="png"), None)
    >>> check_source(writer_for(format="maze"), None)
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: a dungeon is blocks: choose a block, tile or picture format, not a maze document
    """
    if not writer.draws_maze or isinstance(source, (Maze, MazeDocument)):
        return
    if source is None or not isinstance(source, np.ndarray):
        if not writer.draws_dungeons:
            raise BlockmazeError("a dungeon is blocks: choose a block, tile or picture format, "
                                 "not a maze document")
        return
    raise BlockmazeError(f"{writer.name} draws a maze, not blocks: pass a Maze or MazeDocument")


def _kind(source) -> str:
    """The grid kind a source's blocks are drawn for ('square' for blocks and dungeons)."""
    if isinstance(source, Maze):
        return source.grid.kind
    if isinstance(source, MazeDocument):
        return source.maze.grid.kind
    return "square"


def write_streamed(target, rows: int, cols: int, algorithm: str = "eller",
                   seed: int | None = None, format: str | Writer = "world", wall=1, passage=1,
                   height: int = 3, floor: bool = True, roof: bool = False,
                   theme: Theme | str | None = None, split: int | None = None,
                   hollow: bool = False, **options) -> tuple[int, int, int]:
    """Generate a rows x cols square maze row by row and write it band by band, in memory bounded
    by a band whatever the size (see :mod:`blockmaze.streaming`).

    ``format`` is a writer that takes bands (``world``, ``world-zip``, ``mcworld``), or
    ``schem``: one .schem (the maze is generated again for each layer) or, with ``split``, tiles
    of at most split x split blocks. ``options`` are the writer's own (``terrain``, ``y``...).
    Returns the (y, z, x) shape of the volume written.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp()) / "Maze"
    >>> write_streamed(folder, 20, 30, "eller", seed=1, terrain="void", y=0)
    (4, 41, 61)
    """
    settings = BlockSettings.resolve("square", wall=wall, passage=passage, height=height,
                                     floor=floor, roof=roof, hollow=hollow)
    chosen = plan(target, format, blocks=settings, theme=theme, seed=seed, split=split, **options)
    write_plan(chosen, Streamed(rows, cols, algorithm, seed))
    return settings.volume_shape(settings.plan_shape((rows, cols)))
