"""Pictures of mazes on any grid kind: PNG (through Pillow) and SVG (hand-written XML).

Three renderings of the blockwise-geometry idea, chosen with ``style``:

- ``"walls"`` (default): linewise walls. Every wall is a line along a polygon edge of
  :func:`~blockmaze.grids.geometry.cell_shapes` (an edge whose side is not linked, outer walls
  included); a wall shared by two cells is drawn once.
- ``"paths"``: linewise paths. A line joins the centroids of every two linked cells; the walls
  are what is left between the lines.
- ``"blocks"``: filled blocks. A square grid is drawn as its 2n+1 block plan
  (:func:`blockmaze.blocks.to_blocks`), one filled square per block, half a cell wide. Any other
  kind is drawn the same way in spirit: every cell polygon is filled with the wall colour, each
  cell's floor is its polygon shrunk to half size about its centroid, and each passage is the
  quadrilateral that bridges the two floors across the shared edge. Walls are the wall-coloured
  bands left between floors (inner walls as thick as a floor is wide, as in 2n+1 plans).

- ``"classic"``: the walls as they were drawn before the print look: thin lines in the theme's
  colours, the solution as straight lines between cell centres.

The other styles have the print look: with the default theme, black ink on white paper (a WCAG
contrast of 21:1; another theme gives its own colours), walls as even on slanted edges as on
straight ones (``cell_size / 6`` wide there, so lines meet in round joins), the solution along
the passages (from each cell's centre through the middle of the door to the next, along arcs on
a polar grid, beneath the bridge where a weave maze's way goes under one), the start a disc and
the goal a diamond kept clear of the walls.

Layered grids draw their levels side by side; an up or down passage, which is no polygon edge,
is marked by a small triangle in the cell pointing up (north) or down (south) of its centroid.

Options common to every style: ``cell_size`` (pixels per unit of the grid's geometry: a square
cell, a hex side, a polar ring), colours (default from the theme: background = FLOOR, wall and
passage lines = WALL, solution = PATH, start = START, goal = GOAL) for a theme of your own, the print look's for the default one), ``shade`` (each cell filled by
its BFS distance from the start on a colour ramp; unreachable and masked cells stay blank),
``solution`` (the shortest start -> goal path as a line through centroids, start and goal marked),
and ``endpoints`` (its openings leave the outer wall open).

Both formats are deterministic: the same maze and options give the same bytes. PNGs are
palette images without metadata; SVGs hold one ``<path>`` per layer (walls, passages, each
shade level, ...), coordinates in pixels with at most one decimal.

Example
-------
>>> import io
>>> from blockmaze import generate
>>> maze = generate((4, 6), rng=1)
>>> render_image(maze, cell_size=10).size
(70, 50)
>>> svg = svg_text(maze, cell_size=10)
>>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" width="70" height="50"')
True
>>> render_png(maze, io.BytesIO(), style="paths", shade=True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence


from ..errors import BlockmazeError
from ..mazes.endpoints import Endpoints
from ..materials import Material, Theme, load_theme  # noqa: F401 (Material, load_theme: the examples)
from ..maze import Maze
from ..support.memory import ensure_step_memory, estimate
from . import register_writer
from .pngbands import BAND_PIXELS, kind_can_band, write_png_bands
from .picture_scene import (  # noqa: F401 (the constants stay importable from here)
    BACKGROUND, FLOOR_SCALE, GOAL, MARGIN, MAX_PIXELS, PATH, RAMP, RAMP_STEPS, SOLUTION, START,
    STYLES, WALL, Colour, _compress_level_for, _draw_png, _svg)
from .target import Target, open_target
from .unicursal_picture import drawn_scene
from .defaults import CELL_SIZE, PICTURE_STYLE

# -- public API -------------------------------------------------------------------------------

def render_image(maze: Maze, *, style: str = "walls", cell_size: float = 16,
                 wall_width: float | None = None, endpoints: Endpoints | None = None,
                 solution: bool = False, shade: bool | Sequence[Colour] = False,
                 theme: Theme | str | None = None, background: Colour | None = None,
                 wall: Colour | None = None, path: Colour | None = None,
                 solution_color: Colour | None = None, solve: str | None = None,
                 split_from: Maze | None = None):
    """The maze as a PIL image (palette mode "P"; ``.convert("RGB")`` for colour tuples).

    Parameters
    ----------
    style : "walls", "paths", "blocks" or "classic" (see the module docstring).
    cell_size : pixels per unit of the grid geometry (>= 1).
    wall_width : line width in pixels of walls ("walls") or passages ("paths"); default
        ``cell_size / 8`` for walls, ``cell_size / 4`` for passages (at least 1).
    endpoints : start, goal and outer-wall openings (see :func:`blockmaze.place_endpoints`).
    solution : draw the shortest path from start to goal (needs ``endpoints``).
    shade : True for the built-in distance ramp, or a sequence of two or more colours
        (near -> far); distances are counted from ``endpoints.start`` (else the first enabled cell).
    theme : a Theme or theme name for the default colours.
    background, wall, path, solution_color : colours as "#rrggbb" or (r, g, b).
    solve : a solver of :data:`blockmaze.solvers.METHODS`: its path is the solution drawn, and
        (without ``shade``) the cells it visited are shaded by when it first came to them.
    split_from : for a unicursal ``maze`` split from a perfect maze of another kind than square
        (``MazeDocument.split_from``), that maze: the picture is drawn on its grid, the one
        path in lanes (:mod:`blockmaze.export.unicursal_picture`).

    >>> from blockmaze import generate
    >>> image = render_image(generate((3, 3), rng=0), cell_size=20, wall_width=2)
    >>> image.size, image.convert("RGB").getpixel((10, 10))   # black walls on white paper
    ((80, 80), (0, 0, 0))
    >>> classic = render_image(generate((3, 3), rng=0), style="classic", cell_size=20)
    >>> classic.convert("RGB").getpixel((10, 10)) == load_theme().color(Material.WALL)
    True
    """
    return _draw_png(drawn_scene(
        maze, split_from, style=style, cell_size=cell_size, wall_width=wall_width,
        endpoints=endpoints, solution=solution, shade=shade, theme=theme, background=background,
        wall=wall, path=path, solution_color=solution_color, solve=solve))


def render_png(maze: Maze, target: Target, **options) -> None:
    """Write the maze as a PNG file (a path, written atomically, or a binary file object).

    Options as for :func:`render_image`. Deterministic: no timestamps or other metadata.

    >>> import io
    >>> from blockmaze import generate
    >>> out = io.BytesIO(); render_png(generate((2, 2), rng=0), out); out.getvalue()[:8]
    b'\\x89PNG\\r\\n\\x1a\\n'
    """
    split_from = options.pop("split_from", None)  # (a unicursal maze's lanes: drawn whole)
    pixels = _pixels(maze if split_from is None else split_from, options)
    if split_from is None and _banded(maze.grid.kind, pixels, options):  # big: band by band
        with open_target(target) as file:
            write_png_bands(maze, file, **options)
        return
    ensure_step_memory("png", int(pixels), f"a picture of about {pixels:.0f} pixels")
    image = render_image(maze, split_from=split_from, **options)
    with open_target(target) as file:
        image.save(file, format="PNG", optimize=False, compress_level=_compress_level(image))


def _pixels(maze: Maze, options: dict) -> float:
    """About how many pixels a maze's picture has (cells x cell size squared; 0 for a bad cell
    size, which the option checks then refuse)."""
    return _cell_pixels(maze.grid.size, options)


def _cell_pixels(cells: int, options: dict) -> float:
    try:
        pixels = cells * float(options.get("cell_size", 16)) ** 2
    except (TypeError, ValueError, OverflowError):
        return 0.0
    return pixels if math.isfinite(pixels) else 0.0


def _png_memory(kind: str, cells: int, options: dict) -> int:
    """The bytes a PNG of a maze of ``cells`` cells of ``kind`` needs drawn whole (0: banded).

    >>> _png_memory("hex", 1000, {"cell_size": 10}) > 0, _png_memory("square", 10**6, {})
    (True, 0)
    """
    pixels = _cell_pixels(cells, options)
    return 0 if _banded(kind, pixels, options) else estimate("png", int(pixels))


def _banded(kind: str, pixels: float, options: dict) -> bool:
    """Whether a PNG of ``pixels`` pixels of a maze of ``kind`` is drawn band by band: a big
    one the banded writer can draw."""
    return pixels > BAND_PIXELS and kind_can_band(kind, options) and not options.get("solve")


def _svg_memory(kind: str, cells: int, options: dict) -> int:
    return estimate("svg", cells)


def _compress_level(image) -> int:
    return _compress_level_for(image.size[0] * image.size[1])


def svg_text(maze: Maze, **options) -> str:
    """The maze as an SVG document (a string); options as for :func:`render_image`.

    >>> from blockmaze import generate
    >>> 'class="walls"' in svg_text(generate((2, 2), rng=0))
    True
    """
    return _svg(drawn_scene(maze, **options))


def render_svg(maze: Maze, target: Target, **options) -> None:
    """Write the maze as an SVG file (UTF-8); options as for :func:`render_image`.

    >>> import io
    >>> from blockmaze import generate
    >>> out = io.BytesIO(); render_svg(generate((2, 2), rng=0), out); out.getvalue()[:4]
    b'<svg'
    """
    ensure_step_memory("svg", maze.grid.size, f"an SVG picture of {maze.grid.size} cells")
    data = svg_text(maze, **options).encode("utf-8")
    with open_target(target) as file:
        file.write(data)

# -- the output registry: pictures draw the maze itself ---------------------------------------

def _picture_writer(render):
    format = render.__name__[7:]

    def write_picture(document, file, theme, style: str = PICTURE_STYLE,
                      cell_size: float = CELL_SIZE,
                      shade: bool = False, solution: bool = False,
                      solve: str | None = None) -> None:
        from ..dungeon.level import Dungeon, DungeonLevel

        if isinstance(document, (Dungeon, DungeonLevel)):  # its blocks, rooms and entities
            from .dungeon_pictures import write_dungeon_picture

            if style != PICTURE_STYLE or shade or solution or solve:
                raise BlockmazeError("a dungeon picture is its plan: it takes no style, shade "
                                     "or solution")
            write_dungeon_picture(document, file, theme, format=format, cell_size=cell_size)
            return
        render(document.maze, file, style=style, cell_size=cell_size, shade=shade,
               endpoints=document.endpoints, solution=solution, theme=theme, solve=solve,
               split_from=document.split_from)

    write_picture.__doc__ = (f"Draw a maze document's maze, or a dungeon level "
                             f"(:mod:`~blockmaze.export.dungeon_pictures`), as {format.upper()}.")
    return write_picture


register_writer("png", _picture_writer(render_png), draws_dungeons=True,
                drawing_memory=_png_memory)
register_writer("svg", _picture_writer(render_svg), draws_dungeons=True,
                drawing_memory=_svg_memory)
