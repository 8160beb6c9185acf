"""One call per job: a maze of any kind to the blocks the command writes, and to any output.

:func:`build` turns a maze (square, hex, upsilon, triangle, polar or layered) into the (y, z, x)
volume ``blockmaze generate`` would write; :func:`save` writes a maze, a maze document or blocks
to any output by path or format name (Minecraft, meshes, tile maps, pictures, maze documents).
Each command is one call of :func:`blockmaze.jobs.run`, built on these; the command line only
parses options and calls it, so a Python user gets the same bytes.

Example
-------
>>> import io
>>> from blockmaze import generate, place_endpoints
>>> maze = generate((6, 8), rng=3)
>>> build(maze, place_endpoints(maze), solution=True, passage=2, roof=True).shape
(5, 19, 25)
>>> save(maze, io.BytesIO(), format="schem", passage=2, seed=3).shape   # the volume written
(4, 19, 25)
"""

from __future__ import annotations

import os
from contextlib import nullcontext
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from .mazes.documents import MazeDocument
from .mazes.endpoints import Endpoints, place_endpoints
from .errors import BlockmazeError
from .export import Writer, write, writer_for
from .export.target import Target, open_target, transaction
from .materials import Theme, as_theme
from .maze import Maze
from .support.progress import phase

if TYPE_CHECKING:
    from .dungeon import Dungeon

Source = Maze | MazeDocument | np.ndarray  # and a Dungeon (its module loaded when one comes)
# save()'s own options: how a maze becomes blocks (every other option is the format's)
BUILD_OPTIONS = frozenset({"theme", "endpoints", "solution", "wall", "passage", "scale", "height",
                           "floor", "roof", "lights", "bridges", "split"})
# how many size numbers each grid kind takes, and what they mean
SIZE_FORMS = {"polar": (1, "RINGS"), "layered": (3, "LEVELSxROWSxCOLS")}


def grid_shape(kind: str, size: tuple[int, ...]) -> tuple[int, ...]:
    """The constructor shape of ``kind`` from the size the user typed (N means NxN for 2-D kinds).

    >>> grid_shape("square", (7,)), grid_shape("polar", (5,))
    ((7, 7), (5,))
    """
    from .support.wording import article

    count, form = SIZE_FORMS.get(kind, (2, "ROWSxCOLS"))
    if count == 2 and len(size) == 1:
        size = tuple(size) * 2
    if len(size) != count:
        raise BlockmazeError(f"{article(kind)} grid's size is {form}, got {'x'.join(map(str, size))}")
    return tuple(size)


def check_lights(lights: bool, floor: bool) -> None:
    """Refuse lights without a floor: they are set into it (the one rule, for every command).

    >>> check_lights(True, False)
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: --lights go into the floor: drop --no-floor
    """
    if lights and not floor:
        raise BlockmazeError("--lights go into the floor: drop --no-floor")


def check_split(writer, split: int | None) -> None:
    """Refuse ``split`` (tiles of at most split x split blocks) for a format other than .schem.

    >>> from blockmaze.export import writer_for
    >>> check_split(writer_for(format="glb"), 32)
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: --split cuts .schem files into tiles; glb does not take it
    """
    if split is not None and writer.name != "schem":
        raise BlockmazeError(f"--split cuts .schem files into tiles; {writer.name} does not take it")


def check_fits(writer, kind: str, shape, *, wall=1, passage=None, scale: int | None = None,
               height: int = 3, floor: bool = True, roof: bool = False) -> None:
    """Refuse, before any work, a square maze too large for ``writer`` (its blocks are known from
    its shape, so a size over the format's limits fails at once), and a ``scale`` too small for
    a rasterized kind.

    >>> from blockmaze.export import writer_for
    >>> check_fits(writer_for(format="schem"), "square", (40000, 10))
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: a 21x4x80001-block volume (width x height x length) is too large for .schem: each side holds at most 65535 blocks
    """
    from .blocks import plan_shape

    if writer.source != "maze":
        check_scale(kind, scale)
    if kind == "square" and writer.source != "maze":
        check_plan_fits(writer, plan_shape(*shape, wall, passage_for(kind, passage)),
                        height=height, floor=floor, roof=roof)


def check_plan_fits(writer, plan: tuple[int, int], *, height: int = 3, floor: bool = True,
                    roof: bool = False) -> None:
    """Refuse, before any work, a (z, x) ``plan`` that ``writer`` cannot hold once it is stood
    up (a tile map holds the plan itself).

    >>> from blockmaze.export import writer_for
    >>> check_plan_fits(writer_for(format="schem"), (70000, 10))
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: a 10x4x70000-block volume (width x height x length) is too large for .schem: each side holds at most 65535 blocks
    """
    from .blocks import volume_height

    writer.check_size((1 if writer.plan else volume_height(height, floor, roof), *plan))


def shown_endpoints(maze: Maze, endpoints: Endpoints | None, solution: bool) -> Endpoints | None:
    """The endpoints a maze's blocks show: with ``solution`` (placed if none are given), or where
    they cut openings in the outer wall; else None.

    >>> from blockmaze import generate
    >>> shown_endpoints(generate((2, 2), rng=0), None, False) is None
    True
    """
    if solution and endpoints is None:
        endpoints = place_endpoints(maze)
    return endpoints if solution or (endpoints is not None and endpoints.openings) else None


def check_scale(kind: str, scale: int | None) -> None:
    """Refuse a ``scale`` (blocks per cell) too small to rasterize a maze of ``kind`` walkably.

    >>> check_scale("hex", 2)
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: a hex maze needs --scale 3 or more (blocks per cell), got 2
    """
    if kind in ("square", "layered") or scale is None:
        return
    from .blocks.raster import min_scale
    from .support.wording import article

    if scale < min_scale(kind):
        raise BlockmazeError(f"{article(kind)} maze needs --scale {min_scale(kind)} or more "
                             f"(blocks per cell), got {scale}")


def passage_for(kind: str, passage=None):
    """The passage width to draw a maze of ``kind`` with: ``passage``, or by default 1 block, and
    2 for layered mazes, whose cells then hold spiral stairs (:mod:`blockmaze.blocks.stairwell`)
    a player or a game engine's character walks up, instead of a shaft climbed in Minecraft only.

    >>> passage_for("square"), passage_for("layered"), passage_for("layered", 3)
    (1, 2, 3)
    """
    if passage is not None:
        return passage
    return 2 if kind == "layered" else 1


def make_maze(shape, kind: str = "square", algorithm: str = "backtracker", seed: int | None = None,
              braid: float = 0.0, entrances: bool = False, mask=None,
              weave: float = 0.0, order: np.ndarray | None = None, ends: bool = True,
              unicursal: bool = False, scale: int | None = None) -> MazeDocument:
    """A maze document as ``blockmaze generate`` makes it: a grid of ``kind`` and ``shape``
    (less the cells ``mask`` turns off: an array, or a picture or text file), carved by
    ``algorithm``, braided, with start and goal (on the outer wall with ``entrances``, else the
    ends of the longest path). Without a seed one is drawn; the document records it. A weave
    grid gets crossings at the chance ``weave`` (see :func:`blockmaze.grids.weave.place_crossings`).
    ``order`` (``algorithms.common.carve_order(grid, True)``) receives the carve order, if given.
    ``ends=False`` leaves the ends of the longest path unplaced (None) for a job that shows
    none (blocks without ``solution``; :func:`shown_endpoints` and :func:`write_output` place
    them where they are shown): two searches of the whole maze saved. ``unicursal`` splits the
    perfect maze's passages into one path (:func:`blockmaze.blocks.unicursal.unicursal`: a
    square maze of twice the rows and columns; another kind's drawn in 1-block corridors at
    ``scale``, default its least, each block a cell); start and goal are its two ends, with
    openings on ``entrances``.

    >>> doc = make_maze((4, 5), seed=7)
    >>> doc.seed, doc.maze.is_perfect(), make_maze((4, 5), seed=7, ends=False).endpoints
    (7, True, None)
    """
    from .mazes.generation import generate, make_grid
    from .mazes.masks import load_mask, masked_grid
    from .support.randomness import as_generator, draw_seed

    if seed is None:
        seed = draw_seed()
    rng = as_generator(seed)
    if mask is None:
        grid = make_grid(shape, kind)
    else:
        cells = load_mask(mask, kind, shape) if not isinstance(mask, np.ndarray) else mask
        grid = masked_grid(kind, shape, cells)
    if weave and kind != "weave":
        raise BlockmazeError(f"--weave makes crossings on a weave grid (-g weave), not a {kind} grid")
    if kind == "weave":
        from .grids.weave import place_crossings

        grid = place_crossings(grid, weave, rng)
    with phase("carving"):
        maze = generate(grid, algorithm=algorithm, rng=rng, order=order)
        if braid:
            from .mazes.braiding import braid as braid_maze

            maze = braid_maze(maze, braid, rng)
        if unicursal:
            from .blocks.unicursal import unicursal_endpoints, unicursal as split

            maze = split(maze, scale)
            return MazeDocument(maze, unicursal_endpoints(maze, entrances), algorithm, seed, braid)
        placed = place_endpoints(maze, "entrances") if entrances else place_endpoints(maze) if ends else None
    return MazeDocument(maze, placed, algorithm, seed, braid)


def maze_text(source: Maze | MazeDocument, *, solution: bool = False, style: str = "box",
              plan_style: str = "blocks") -> str:
    """A maze of any planar kind as terminal text, as ``blockmaze generate`` prints it.

    Parameters
    ----------
    source : Maze or MazeDocument
        A maze of any kind but layered (a document's openings are shown).
    solution : bool
        Show the path from start to goal (the ends of the longest path without endpoints).
    style : str
        How square and weave mazes are drawn (a name of ``blockmaze.render.text.STYLES``).
    plan_style : str
        How the other kinds are drawn: their blocks at the least scale that keeps them walkable,
        in this style.

    Returns
    -------
    str
        The lines of the picture, openings included.

    Examples
    --------
    >>> print(maze_text(make_maze((1, 2), seed=1), style="ascii"))
    +-------+
    |       |
    +-------+
    """
    from .render import plan_text, square_text

    document = source if isinstance(source, MazeDocument) else MazeDocument(source)
    maze = document.maze
    shown = shown_endpoints(maze, document.endpoints, solution)
    kind = maze.grid.kind
    if kind == "square":
        return square_text(maze, style=style, endpoints=shown, solution=solution)
    if kind == "layered":
        raise BlockmazeError("a layered maze cannot be printed: write it to a file")
    if kind == "weave":
        from .render.text import weave_text

        return weave_text(maze, style=style, endpoints=shown, solution=solution)
    from .blocks import rasterize  # (here: a printed square maze needs none of it)
    from .blocks.raster import min_scale

    return plan_text(rasterize(maze, min_scale(kind), endpoints=shown, solution=solution),
                     style=plan_style)


def maze_blocks(maze: Maze, endpoints: Endpoints | None = None, *, solution: bool = False,
                wall=1, passage=None, scale: int | None = None, height: int = 3,
                floor: bool = True, roof: bool = False, bridges: bool = False) -> np.ndarray:
    """The blocks of a maze of any kind: a (z, x) plan, or a layered or weave maze's (y, z, x) volume.

    Square mazes go through the 2n+1 converter (``wall``, ``passage``: see :func:`passage_for`
    for its default), layered ones are stacked
    level on level (``height``, ``floor``, ``roof``), weave ones get tunnels under their
    crossings (:mod:`blockmaze.blocks.weave`: ``wall`` 3 or more; raised bridges with
    ``bridges``), the other kinds are rasterized at ``scale`` (default
    4, or the kind's least). ``endpoints`` with openings cuts them; ``solution`` marks the path
    (start and goal from ``endpoints``, or the ends of the longest path).

    >>> from blockmaze import generate
    >>> maze_blocks(generate((2, 3), rng=1)).shape
    (5, 7)
    """
    from .blocks import rasterize, stack_levels, to_blocks
    from .blocks.raster import min_scale

    shown = shown_endpoints(maze, endpoints, solution)
    kind = maze.grid.kind
    passage = passage_for(kind, passage)
    if kind == "square":
        return to_blocks(maze, wall, passage, endpoints=shown, solution=solution)
    if kind == "layered":
        return stack_levels(maze, height, "convert", wall, passage, endpoints=shown,
                            solution=solution, roof=roof, floor=floor)
    if kind == "weave":  # a volume: tunnels under the floor
        from .blocks.weave import weave_volume

        return weave_volume(maze, wall, passage, endpoints=shown, solution=solution,
                            height=height, floor=floor, roof=roof, bridges=bridges)
    check_scale(kind, scale)
    return rasterize(maze, scale or max(4, min_scale(kind)), endpoints=shown, solution=solution)


def stand_up(blocks: np.ndarray, *, height: int = 3, floor: bool = True, roof: bool = False,
             lights: bool = False) -> np.ndarray:
    """A (y, z, x) volume from blocks: a plan is extruded; a volume is kept as it is; either is
    lit with ``lights`` (layer by layer where levels are stacked).

    >>> stand_up(np.array([[1, 0, 1]], np.uint8), height=2).shape
    (3, 1, 3)
    """
    from .blocks import extrude

    check_lights(lights, floor)
    volume = extrude(blocks, height=height, floor=floor, roof=roof) if blocks.ndim == 2 else blocks
    if lights:
        from .blocks.lights import place_lights

        volume = place_lights(volume)
    return volume


def check_dungeon_output(writer) -> None:
    """Refuse a format that draws a maze's graph for a dungeon, which is blocks.

    >>> from blockmaze.export import writer_for
    >>> check_dungeon_output(writer_for(format="png"))
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: a dungeon is blocks: choose a block or tile format, not a maze document or picture
    """
    if writer.source == "maze":
        raise BlockmazeError("a dungeon is blocks: choose a block or tile format, not a maze "
                             "document or picture")


def dungeon_files(levels: int, writer) -> int:
    """How many files a dungeon of ``levels`` makes in ``writer``'s format: a tile map's plan a
    level, or one volume of blocks, its levels stacked and joined by their stairs.

    >>> from blockmaze.export import writer_for
    >>> dungeon_files(3, writer_for(format="tmx")), dungeon_files(3, writer_for(format="schem"))
    (3, 1)
    """
    return levels if writer.plan else 1


def dungeon_parts(dungeon, writer, height: int = 3, floor: bool = True,
                  roof: bool = False) -> list[tuple[np.ndarray, dict, str]]:
    """What a dungeon is written as in ``writer``'s format (see :func:`dungeon_files`), a
    (blocks, the writer's entities and metrics, what it is) for each file: each level's plan
    (in a block format, marked with its entities), or the levels stacked in one volume.

    >>> from blockmaze.dungeon import generate_dungeon
    >>> from blockmaze.export import writer_for
    >>> d = generate_dungeon((6, 8), rng=4, levels=2)
    >>> [(b.shape, what) for b, _, what in dungeon_parts(d, writer_for(format="schem"))]
    [((8, 13, 17), '2 levels')]
    >>> [what for _, _, what in dungeon_parts(d, writer_for(format="tmx"))]
    ['level 1, 1 room', 'level 2, 1 room']
    """
    from .support.wording import counted

    levels = dungeon.levels
    if dungeon_files(len(levels), writer) < len(levels):
        from .dungeon import stack_dungeon

        return [(stack_dungeon(dungeon, height, floor, roof), {}, f"{len(levels)} levels")]
    return [(level.plan if writer.plan else level.marked_plan,
             {"entities": level.entities, "metrics": level.metrics},
             f"level {number}, {counted(len(level.rooms), 'room')}")
            for number, level in enumerate(levels, 1)]


def level_paths(target: Target, count: int, writer) -> list:
    """Where ``count`` levels go: ``target`` itself for one, else ``NAME-1.tmx``, ``NAME-2.tmx``
    ... beside it (the whole suffix kept: ``NAME-2.tilemap.json``).

    >>> from blockmaze.export import writer_for
    >>> [p.name for p in level_paths("out/d.tilemap.json", 2, writer_for(format="tilemap"))]
    ['d-1.tilemap.json', 'd-2.tilemap.json']
    """
    if count == 1:
        return [target]
    if hasattr(target, "write") or str(target) == "-":
        raise BlockmazeError(f"{count} levels make a file per level: give a file name, not a stream")
    from .export.target import derived_base

    target = derived_base(target, f"{count} levels (a file per level)")
    suffix = max((x for x in writer.suffixes if target.name.lower().endswith(x)), key=len,
                 default=target.suffix)
    stem = target.name[:len(target.name) - len(suffix)]
    return [target.with_name(f"{stem}-{number}{suffix}") for number in range(1, count + 1)]


def plan_layer(blocks: np.ndarray) -> np.ndarray:
    """The one-layer volume a tile map draws: the plan, or a volume's walking layer.

    >>> plan_layer(np.zeros((3, 4), np.uint8)).shape
    (1, 3, 4)
    """
    return blocks[np.newaxis] if blocks.ndim == 2 else blocks[1:2]


def build(maze: Maze, endpoints: Endpoints | None = None, *, solution: bool = False, wall=1,
          passage=None, scale: int | None = None, height: int = 3, floor: bool = True,
          roof: bool = False, lights: bool = False, bridges: bool = False) -> np.ndarray:
    """The (y, z, x) volume of a maze of any kind, as ``blockmaze generate -o FILE`` writes it.

    Parameters
    ----------
    maze : Maze
        A maze of any grid kind.
    endpoints : Endpoints, optional
        Openings to cut; with ``solution``, the start and goal of the path.
    solution : bool
        Mark the path (from ``endpoints``, else the ends of the longest path).
    wall, passage, scale, bridges
        How the maze becomes blocks, as for :func:`maze_blocks`.
    height, floor, roof, lights
        How a plan stands up, as for :func:`stand_up`.

    Returns
    -------
    numpy.ndarray
        The ``uint8`` ``(y, z, x)`` volume of materials.

    Examples
    --------
    >>> from blockmaze import generate
    >>> build(generate((3, 4), rng=1), height=2, roof=True).shape
    (4, 7, 9)
    """
    blocks = maze_blocks(maze, endpoints, solution=solution, wall=wall, passage=passage,
                         scale=scale, height=height, floor=floor, roof=roof, bridges=bridges)
    return stand_up(blocks, height=height, floor=floor, roof=roof, lights=lights)


def save(source: Source | Dungeon, target: Target, format: str | Writer | None = None, *,
         theme: Theme | str | None = None, endpoints: Endpoints | None = None,
         solution: bool = False, wall=1, passage=None, scale: int | None = None, height: int = 3,
         floor: bool = True, roof: bool = False, lights: bool = False, bridges: bool = False,
         split: int | None = None, **options) -> np.ndarray | None:
    """Write a maze, a maze document, a dungeon or blocks to ``target`` in the format its suffix
    (or ``format``) names, as ``blockmaze generate -o FILE`` (``dungeon -o FILE``) does.

    A maze is built as :func:`build` does (block formats) or drawn (pictures) or saved whole
    (maze documents, ``.json``).

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
    endpoints, solution, wall, passage, scale, height, floor, roof, lights, bridges
        How a maze becomes blocks, as for :func:`build`.
    split : int, optional
        ``.schem`` only: cut the volume into tiles of at most split x split blocks beside
        ``target`` (``NAME_x<X>_z<Z>.schem``).
    **options
        The format's own (``writer_for(...).options``: e.g. ``mc_version``, ``schem_version``,
        ``seed``, ``style``); a document's seed is used where the format takes one and none is
        given.

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
    return write_output(source, target, format, theme=theme, endpoints=endpoints,
                        solution=solution, wall=wall, passage=passage, scale=scale, height=height,
                        floor=floor, roof=roof, lights=lights, bridges=bridges, split=split,
                        **options).volume


def _is_dungeon(source) -> bool:
    from .dungeon import Dungeon

    return isinstance(source, Dungeon)


class Written(NamedTuple):
    """What :func:`write_output` wrote: the volume (None for pictures and maze documents) and
    the files (the target itself, a file per level, or the tiles of a split .schem)."""

    volume: np.ndarray | None
    paths: list


def write_output(source: Source | Dungeon, target: Target, format: str | Writer | None = None, *,
                 theme: Theme | str | None = None, endpoints: Endpoints | None = None,
                 solution: bool = False, wall=1, passage=None, scale: int | None = None,
                 height: int = 3, floor: bool = True, roof: bool = False, lights: bool = False,
                 bridges: bool = False, split: int | None = None, **options) -> Written:
    """:func:`save`, returning the volume and the files written.

    >>> import io
    >>> from blockmaze import generate
    >>> written = write_output(generate((2, 3), rng=1), io.BytesIO(), format="schem")
    >>> written.volume.shape
    (4, 5, 7)
    """
    writer = writer_for(None if hasattr(target, "write") else target, format)
    theme = as_theme(theme)
    check_split(writer, split)
    check_lights(lights, floor)
    if not isinstance(source, (Maze, MazeDocument, np.ndarray)) and _is_dungeon(source):
        check_dungeon_output(writer)
        parts = dungeon_parts(source, writer, height, floor, roof)
        paths = level_paths(target, len(parts), writer)
        volumes: list = []
        with transaction() if len(parts) > 1 else nullcontext():  # every level, or none
            for (blocks, extra, _), path in zip(parts, paths, strict=True):
                chosen = {k: v for k, v in extra.items() if k in writer.options}
                volumes.append(write_output(blocks, path, writer, theme=theme, height=height,
                                            floor=floor, roof=roof, lights=lights, split=split,
                                            **chosen, **options).volume)
        return Written(np.concatenate(volumes), paths)
    if isinstance(source, Maze):
        source = MazeDocument(source, endpoints)
    elif isinstance(source, MazeDocument) and endpoints is not None:
        source = MazeDocument(source.maze, endpoints, source.algorithm, source.seed, source.braid)
    if isinstance(source, MazeDocument) and "seed" in writer.options and options.get("seed") is None:
        options["seed"] = source.seed
    if writer.source == "maze":
        if not isinstance(source, MazeDocument):
            raise BlockmazeError(f"{writer.name} draws a maze, not blocks: pass a Maze or MazeDocument")
        if source.endpoints is None:
            source = MazeDocument(source.maze, place_endpoints(source.maze), source.algorithm,
                                  source.seed, source.braid)
        if "solution" in writer.options:
            options["solution"] = solution
        writer.check_options(options)
        with phase("writing"), open_target(target) as file:
            writer.write(source, file, theme, **options)
        return Written(None, [target])
    if writer.plan and isinstance(source, MazeDocument) and source.maze.grid.kind == "layered":
        from .blocks.stack import level_tiles

        with phase("building blocks"):
            levels = level_tiles(source.maze, wall=wall, passage=passage_for("layered", passage),
                                 endpoints=shown_endpoints(source.maze, source.endpoints, solution),
                                 solution=solution)
        paths = level_paths(target, len(levels), writer)
        with phase("writing"), (transaction() if len(levels) > 1 else nullcontext()):  # all or none
            for (plan, entities), path in zip(levels, paths, strict=True):
                write(plan_layer(plan), path, format=writer, theme=theme, entities=entities,
                      **options)
        return Written(np.stack([plan for plan, _ in levels]), paths)
    with phase("building blocks"):
        if isinstance(source, MazeDocument):
            blocks = maze_blocks(source.maze, source.endpoints, solution=solution, wall=wall,
                                 passage=passage, scale=scale, height=height, floor=floor,
                                 roof=roof, bridges=bridges)
        else:
            blocks = np.asarray(source)
        if writer.plan and isinstance(source, MazeDocument) and source.maze.grid.kind == "weave":
            from .blocks.weave import tile_plan

            blocks = tile_plan(blocks, bridges)[0]  # the maze from above, its stairs as a legend
        volume = plan_layer(blocks) if writer.plan else stand_up(blocks, height=height,
                                                                 floor=floor, roof=roof,
                                                                 lights=lights)
    with phase("writing"):
        if split is not None:
            from .export.minecraft.sponge import write_schem_tiles

            if not isinstance(target, (str, os.PathLike)):
                raise BlockmazeError("--split writes its tiles beside a file: give -o NAME.schem, "
                                     "not a stream")
            tiles = {k: options[k] for k in ("mc_version", "schem_version", "seed") if k in options}
            return Written(volume, write_schem_tiles(volume, target, theme, split, **tiles))
        write(volume, target, format=writer, theme=theme, **options)
    return Written(volume, [target])
