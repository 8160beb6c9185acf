"""A maze as the command makes it, and its blocks: every step from options to a volume.

:func:`make_maze` makes the maze document ``blockmaze generate`` makes; :func:`build` turns a
maze of any kind (square, hex, upsilon, triangle, polar, weave or layered) into the (y, z, x)
volume it writes, with the block settings of :class:`~blockmaze.blocks.settings.BlockSettings`
(:func:`blocks_of` and :func:`stood_up` take them resolved); :func:`maze_text` draws it for the
terminal. Writing is :mod:`blockmaze.writing`'s (:func:`blockmaze.save`).

Example
-------
>>> from blockmaze import generate, place_endpoints
>>> maze = generate((6, 8), rng=3)
>>> build(maze, place_endpoints(maze), solution=True, passage=2, roof=True).shape
(5, 19, 25)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .blocks.settings import BlockSettings
from .errors import BlockmazeError, ParameterError
from .maze import Maze
from .mazes.documents import MazeDocument
from .mazes.endpoints import Endpoints, place_endpoints
from .support.progress import phase

if TYPE_CHECKING:
    from .dungeon.level import Dungeon

# how many size numbers each grid kind takes, and what they mean
SIZE_FORMS = {"polar": (1, "RINGS"), "layered": (3, "LEVELSxROWSxCOLS"), "sphere": (1, "RINGS"),
              "cube": (1, "N (a face's side)")}


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


def shown_endpoints(maze: Maze, endpoints: Endpoints | None, solution: bool) -> Endpoints | None:
    """The endpoints a maze's blocks show: with ``solution`` (placed if none are given), or where
    they cut openings in the outer wall or mark checkpoints; else None.

    >>> from blockmaze import generate
    >>> shown_endpoints(generate((2, 2), rng=0), None, False) is None
    True
    """
    if solution and endpoints is None:
        endpoints = place_endpoints(maze)
    shows = endpoints is not None and bool(endpoints.openings or endpoints.checkpoints)
    return endpoints if solution or shows else None


def is_plain(kind: str, algorithm: str, braid: float = 0.0, entrances: bool = False,
             unicursal: bool = False) -> bool:
    """Whether :func:`make_maze` makes this maze as :func:`blockmaze.mazes.plain.plain_maze`
    does (the backtracker's carve, the ends of its longest path, in one call): nothing asked but
    the grid (a weave grid's crossings draw first) and the ends of the longest path.

    >>> is_plain("hex", "backtracker"), is_plain("square", "backtracker", braid=0.5)
    (True, False)
    """
    return (algorithm == "backtracker" and kind != "weave" and not braid and not entrances
            and not unicursal)


def make_maze(shape, kind: str = "square", algorithm: str = "backtracker", seed: int | None = None,
              braid: float = 0.0, entrances: bool = False, mask=None,
              weave: float = 0.0, order: np.ndarray | None = None, ends: bool = True,
              unicursal: bool = False, scale: int | None = None, exits: int = 0,
              checkpoints: int = 0, difficulty: str | float | None = None) -> MazeDocument:
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
    openings on ``entrances``. ``exits`` cuts that many more openings in the outer wall (of a
    layered maze's bottom level) and ``checkpoints`` marks that many cells the way from start to
    goal passes in order (:func:`blockmaze.mazes.endpoints.add_exits`, ``add_checkpoints``).

    ``difficulty`` (a band name or a number, :func:`blockmaze.mazes.difficulty.parse_difficulty`)
    chooses the algorithm (``algorithm`` is not used) and the carve's seed from ``seed`` until
    the maze lands in that band (:func:`blockmaze.mazes.difficulty.search`); the document records
    the algorithm and seed that made it, and in ``extra["difficulty"]`` what was asked, the
    seed given and the difficulty measured.

    >>> doc = make_maze((4, 5), seed=7)
    >>> doc.seed, doc.maze.is_perfect(), make_maze((4, 5), seed=7, ends=False).endpoints
    (7, True, None)
    >>> make_maze((10, 10), seed=7, difficulty="hard").extra["difficulty"]["score"] >= 2 / 3
    True
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
    if difficulty is not None:
        return _to_difficulty(shape, kind, seed, difficulty, grid.enabled_count, entrances, mask,
                              weave, unicursal, braid, exits, checkpoints)
    if weave and kind != "weave":
        raise ParameterError(f"{{weave}} makes crossings on a weave grid ({{kind=weave}}), not a "
                             f"{kind} grid")
    if kind == "weave":
        from .grids.weave import place_crossings

        grid = place_crossings(grid, weave, rng)
    placed: Endpoints | None = None
    with phase("carving"):
        if is_plain(grid.kind, algorithm, braid, entrances, unicursal) and order is None \
                and (ends or exits or checkpoints):
            from .mazes.plain import PlainLayout, plain_maze

            made = plain_maze(PlainLayout.of(grid), rng)  # the carve and its ends, in one call
            maze, placed = Maze(grid, made.links, validate=False), Endpoints(made.start, made.goal)
        else:
            maze = generate(grid, algorithm=algorithm, rng=rng, order=order)
        if braid:
            from .mazes.braiding import braid as braid_maze

            maze = braid_maze(maze, braid, rng)
        split_from = None
        if unicursal:
            from .blocks.unicursal import unicursal_endpoints, unicursal as split

            # a square maze's split is drawn as it is; another kind's on its own grid
            split_from = None if kind == "square" else maze
            maze = split(maze, scale)
            placed = unicursal_endpoints(maze, entrances)
        elif entrances:
            placed = place_endpoints(maze, "entrances")
        elif placed is None and (ends or exits or checkpoints):
            placed = place_endpoints(maze)
        if placed is not None and (exits or checkpoints):
            from .mazes.endpoints import add_checkpoints, add_exits

            placed = add_exits(maze, add_checkpoints(maze, placed, checkpoints), exits)
    return MazeDocument(maze, placed, algorithm, seed, braid, split_from=split_from)


def _to_difficulty(shape, kind: str, seed: int, difficulty: str | float, cells: int,
                   entrances: bool, mask, weave: float, unicursal: bool, braid: float, exits: int,
                   checkpoints: int) -> MazeDocument:
    """make_maze's ``difficulty``: the search over recipes and seeds (see make_maze)."""
    from .mazes.difficulty import band_name, parse_difficulty, search

    band = parse_difficulty(difficulty)
    if braid:
        raise ParameterError("{difficulty} is measured on perfect mazes: leave out {braid}")
    if unicursal:
        raise ParameterError("{difficulty} has no say in a unicursal maze (one path, no choice): "
                             "leave out {unicursal}")

    def make(algorithm: str, child: int) -> MazeDocument:
        return make_maze(shape, kind, algorithm, child, 0.0, entrances, mask, weave,
                         exits=exits, checkpoints=checkpoints)

    document, value, tries = search(make, kind, cells, band, seed)
    asked = {"asked": difficulty, "seed": seed, "score": value, "band": band_name(value),
             "tries": tries}
    return MazeDocument(document.maze, document.endpoints, document.algorithm, document.seed,
                        0.0, extra={**document.extra, "difficulty": asked})


def analyze(source: Maze | MazeDocument | Dungeon, endpoints: Endpoints | None = None):
    """The measures of a maze (:func:`blockmaze.mazes.measures.analyze`, with its difficulty,
    :func:`blockmaze.mazes.difficulty.measured`) from ``endpoints`` (a document's own, else the
    ends of its longest path), or of each level of a dungeon
    (:func:`blockmaze.dungeon.metrics.level_analysis`, a list).

    >>> import blockmaze as bm
    >>> facts = bm.analyze(bm.generate((8, 8), rng=1))
    >>> facts["cells"], facts["dead_ends"] > 0, facts["difficulty"]["band"] in ("easy", "medium", "hard")
    (64, True, True)
    >>> bm.analyze(bm.generate_dungeon((10, 10), rng=1))[0]["rooms"] > 0
    True
    """
    from .dungeon.level import Dungeon
    from .mazes.difficulty import analyzed

    if isinstance(source, Dungeon):
        from .dungeon.metrics import level_analysis

        return [level_analysis(level) for level in source.levels]
    if isinstance(source, MazeDocument):
        endpoints = endpoints or source.endpoints
        source = source.maze
    if not isinstance(source, Maze):
        raise BlockmazeError(f"analyze takes a Maze, a MazeDocument or a Dungeon, got "
                             f"{type(source).__name__}")
    return analyzed(source, endpoints)


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
                wall=None, passage=None, scale: int | None = None, height: int = 3,
                floor: bool = True, roof: bool = False, bridges: bool = False) -> np.ndarray:
    """The blocks of a maze of any kind: a (z, x) plan, or a layered or weave maze's (y, z, x) volume.

    Square mazes go through the 2n+1 converter (``wall``, ``passage``), layered ones are stacked
    level on level (``height``, ``floor``, ``roof``), weave ones get tunnels under their
    crossings (:mod:`blockmaze.blocks.weave`: ``wall`` 3 or more; raised bridges with
    ``bridges``), the other kinds are rasterized at ``scale``; the defaults are
    :meth:`~blockmaze.blocks.settings.BlockSettings.resolve`'s. ``endpoints`` with openings cuts
    them; ``solution`` marks the path (start and goal from ``endpoints``, or the ends of the
    longest path).

    >>> from blockmaze import generate
    >>> maze_blocks(generate((2, 3), rng=1)).shape
    (5, 7)
    """
    return blocks_of(maze, endpoints, BlockSettings.resolve(
        maze.grid.kind, wall=wall, passage=passage, scale=scale, height=height, floor=floor,
        roof=roof, bridges=bridges, solution=solution))


def blocks_of(maze: Maze, endpoints: Endpoints | None, settings: BlockSettings) -> np.ndarray:
    """:func:`maze_blocks` with the settings resolved (for a maze of ``settings.kind``).

    >>> from blockmaze import generate
    >>> blocks_of(generate((2, 3), rng=1), None, BlockSettings(wall=2)).shape
    (8, 11)
    """
    from .blocks import rasterize, stack_levels, to_blocks

    s = settings
    shown = shown_endpoints(maze, endpoints, s.solution)
    kind = maze.grid.kind
    if kind == "square":
        return to_blocks(maze, s.wall, s.passage, endpoints=shown, solution=s.solution)
    if kind == "layered":
        return stack_levels(maze, s.height, "convert", s.wall, s.passage, endpoints=shown,
                            solution=s.solution, roof=s.roof, floor=s.floor)
    if kind == "weave":  # a volume: tunnels under the floor
        from .blocks.weave import weave_volume

        return weave_volume(maze, s.wall, s.passage, endpoints=shown, solution=s.solution,
                            height=s.height, floor=s.floor, roof=s.roof, bridges=s.bridges)
    s.check_scale()
    return rasterize(maze, s.scale, endpoints=shown, solution=s.solution)


def stop_entities(maze: Maze, endpoints: Endpoints | None, settings: BlockSettings) -> list:
    """The checkpoints of a maze's plan as entities with their ``order`` (1 first), where
    :func:`blocks_of` draws them: the first block of a converted kind's cell, a rasterized
    cell's anchor. Tile maps carry them (the plan alone says where, not in which order).

    >>> from blockmaze import generate
    >>> from blockmaze.mazes.endpoints import add_checkpoints
    >>> maze = generate((4, 4), rng=1)
    >>> [(e.kind, e.properties) for e in stop_entities(maze, add_checkpoints(
    ...     maze, place_endpoints(maze), 1), BlockSettings())]
    [('checkpoint', {'order': 1})]
    """
    from .entities import Entity

    if endpoints is None or not endpoints.checkpoints:
        return []
    cells = np.asarray(endpoints.checkpoints)
    if settings.converted:
        from .blocks.convert import per_axis

        (wz, wx), (pz, px) = per_axis(settings.wall, "wall"), per_axis(settings.passage, "passage")
        cols = maze.grid.shape[-1]
        rows, columns = cells // cols, cells % cols
        places = np.stack([(rows + 1) * wz + rows * pz, (columns + 1) * wx + columns * px], 1)
    else:
        from .blocks.raster import raster

        places = raster(maze, settings.scale).anchors[cells]
    return [Entity("checkpoint", int(z), int(x), {"order": order})
            for order, (z, x) in enumerate(places.tolist(), 1)]


def stand_up(blocks: np.ndarray, *, height: int = 3, floor: bool = True, roof: bool = False,
             lights: bool = False, hollow: bool = False) -> np.ndarray:
    """A (y, z, x) volume from blocks: a plan is extruded; a volume is kept as it is; either is
    lit with ``lights`` (layer by layer where levels are stacked) and its buried wall blocks
    taken out with ``hollow`` (:mod:`blockmaze.blocks.hollow`).

    >>> stand_up(np.array([[1, 0, 1]], np.uint8), height=2).shape
    (3, 1, 3)
    """
    return stood_up(blocks, BlockSettings.resolve(height=height, floor=floor, roof=roof,
                                                  lights=lights, hollow=hollow))


def stood_up(blocks: np.ndarray, settings: BlockSettings) -> np.ndarray:
    """:func:`stand_up` with the settings resolved."""
    from .blocks import extrude

    s = settings
    volume = extrude(blocks, height=s.height, floor=s.floor, roof=s.roof) if blocks.ndim == 2 \
        else blocks
    if s.lights:
        from .blocks.lights import place_lights

        volume = place_lights(volume)
    if s.hollow:
        from .blocks.hollow import hollow

        volume = hollow(volume)
    return volume


def plan_layer(blocks: np.ndarray) -> np.ndarray:
    """The one-layer volume a tile map draws: the plan, or a volume's walking layer.

    >>> plan_layer(np.zeros((3, 4), np.uint8)).shape
    (1, 3, 4)
    """
    return blocks[np.newaxis] if blocks.ndim == 2 else blocks[1:2]


def build(maze: Maze, endpoints: Endpoints | None = None, *, solution: bool = False, wall=None,
          passage=None, scale: int | None = None, height: int = 3, floor: bool = True,
          roof: bool = False, lights: bool = False, bridges: bool = False,
          hollow: bool = False) -> np.ndarray:
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
    height, floor, roof, lights, hollow
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
    settings = BlockSettings.resolve(maze.grid.kind, wall=wall, passage=passage, scale=scale,
                                     height=height, floor=floor, roof=roof, lights=lights,
                                     bridges=bridges, solution=solution, hollow=hollow)
    return stood_up(blocks_of(maze, endpoints, settings), settings)
