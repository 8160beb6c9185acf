"""PDF: a maze on paper, in vector, through ReportLab (the ``pdf`` extra: pip install
'blockmaze[pdf]').

The page holds the maze's picture (the same scene a PNG or SVG is drawn from,
:mod:`blockmaze.export.picture_scene`, so the same walls), fitted between the margins of the
page size (``page``: A4, letter, ``WIDTHxHEIGHTmm``; turned to landscape where the maze is
drawn larger), a title above it and in small print below it the grid, algorithm and seed it
can be made again from. ``answers`` adds a page with the solution drawn; ``sheets`` (COLS, ROWS)
cuts a big maze over several pages that overlap by 15 mm, each labelled (A1, B1, ...) with
alignment marks in its margins where it meets its neighbours: cut one sheet at its marks, lay
it on the next so the marks meet, tape (:mod:`blockmaze.export.paper` lays them out).
:func:`write_book` puts many mazes in one book: page numbers, the answers at the back.

Text is set in Bitstream Vera (shipped with ReportLab), embedded as print shops ask; the file
is the same bytes for the same maze and options (no dates, no random ids).

>>> import io
>>> from blockmaze import generate
>>> from blockmaze.mazes.documents import MazeDocument
>>> out = io.BytesIO()
>>> write_pdf(MazeDocument(generate((4, 6), rng=1), seed=1), out, None, answers=True)
>>> out.getvalue()[:5], out.getvalue().count(b"/Type /Page\\n")
(b'%PDF-', 2)
"""

from __future__ import annotations

from collections.abc import Sequence
import numpy as np

from ..errors import BlockmazeError
from ..mazes.documents import MazeDocument
from ..mazes.endpoints import place_endpoints
from . import register_writer
from .defaults import PAGE, PICTURE_STYLE
from .paper import MM, Sheet, book_page, layout, page_size, sheets_of
from .picture_scene import BACKGROUND, _Scene
from .unicursal_picture import drawn_scene
from ..support.memory import ensure_step_memory, estimate
from .target import Target, open_target

FONT = "BlockmazeVera"
SCENE_CELL = 16.0  # the scene's units per cell (a PDF is vector: only the proportions count)
MARK = 3 * MM  # an alignment mark's arm


def _canvas(file, size: tuple[float, float], title: str):
    try:
        from reportlab.pdfbase import pdfmetrics
        from reportlab.pdfbase.ttfonts import TTFont
        from reportlab.pdfgen.canvas import Canvas
    except ImportError:
        raise BlockmazeError("PDF output needs ReportLab: pip install 'blockmaze[pdf]' (or "
                             "pip install reportlab)") from None
    from reportlab import rl_config

    rl_config.useA85 = 0  # binary streams: a fifth smaller, and no slow text encoding of them
    if FONT not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(FONT, "Vera.ttf"))
    canvas = Canvas(file, pagesize=size, invariant=1, pageCompression=1)
    canvas.setTitle(title)
    canvas.setAuthor("blockmaze")
    canvas.setCreator("blockmaze")
    return canvas


def _maze_scene(document: MazeDocument, style: str, solution: bool, shade: bool, theme) -> _Scene:
    endpoints = document.endpoints or place_endpoints(document.maze)
    return drawn_scene(document.maze, document.split_from, style=style, cell_size=SCENE_CELL,
                       endpoints=endpoints, solution=solution, shade=shade, theme=theme,
                       marks=True)


def describe(document: MazeDocument, seed: int | None = None) -> tuple[str, str]:
    """A maze's title and the small print it can be made again from.

    >>> from blockmaze import generate
    >>> describe(MazeDocument(generate((4, 6), rng=1), algorithm="wilson", seed=7))
    ('A square maze, 4x6 cells', 'square 4x6 · wilson · seed 7 · made with blockmaze')
    >>> from blockmaze.pipeline import make_maze
    >>> describe(make_maze((3,), "polar", seed=2, unicursal=True))[0]
    'A unicursal polar maze, 3 rings'
    """
    split = document.split_from is not None  # a unicursal maze: named by the grid it is drawn on
    grid = document.split_from.grid if document.split_from is not None else document.maze.grid
    size = "x".join(str(n) for n in grid.shape)
    unit = "rings" if grid.kind == "polar" else "cells"
    seed = document.seed if seed is None else seed
    parts = [f"{grid.kind} {size}" + " unicursal" * split, document.algorithm or "",
             "" if seed is None else f"seed {seed}", "made with blockmaze"]
    kind = f"unicursal {grid.kind}" if split else grid.kind
    article = "An" if kind[0] in "aeiou" and not split else "A"  # (a "you"-nicursal)
    return f"{article} {kind} maze, {size} {unit}", " · ".join(p for p in parts if p)


def _rgb(scene: _Scene, slot: int) -> tuple[float, float, float]:
    red, green, blue = scene.palette[slot]
    return red / 255, green / 255, blue / 255


def draw_scene(canvas, scene: _Scene, sheet: Sheet) -> None:
    """Draw ``scene`` (pixel units) into ``sheet``'s box, clipped to it."""
    width, height = sheet.page
    left, top, box_w, box_h = sheet.box
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(left, height - top - box_h, box_w, box_h)
    canvas.clipPath(clip, stroke=0, fill=0)
    x0, y0 = sheet.to_page(0, 0)
    canvas.transform(sheet.scale, 0, 0, -sheet.scale, x0, height - y0)  # scene pixels, y down
    canvas.setFillColorRGB(*_rgb(scene, BACKGROUND))
    canvas.rect(0, 0, scene.width, scene.height, stroke=0, fill=1)
    canvas.setLineCap(1)
    canvas.setLineJoin(1)
    for layer in scene.layers:
        if not layer.items:
            continue
        if layer.kind == "plan":
            _plan(canvas, scene, layer.items)
            continue
        if layer.kind == "lines":
            canvas.setStrokeColorRGB(*_rgb(scene, layer.colour))
            canvas.setLineWidth(layer.width)
            canvas.addLiteral(_path_operators(layer.items, close=False) + "S")
        elif layer.kind == "fill":
            canvas.setFillColorRGB(*_rgb(scene, layer.colour))
            canvas.addLiteral(_path_operators(layer.items, close=True) + "f")
        elif layer.kind == "dots":
            canvas.setFillColorRGB(*_rgb(scene, layer.colour))
            path = canvas.beginPath()
            for x, y in np.asarray(layer.items, dtype=np.float64).tolist():
                path.circle(x, y, layer.width / 2)
            canvas.drawPath(path, stroke=0, fill=1)
    canvas.restoreState()


def _path_operators(lines, close: bool) -> str:
    """Polylines as PDF path operators (``x y m`` then ``x y l``; ``h`` closes), numbers to two
    decimals of a scene pixel: one numpy formatting pass instead of a call a point.

    >>> _path_operators([np.array([[0, 0], [1.5, 2]])], close=True)
    '0 0 m 1.5 2 l h '
    """
    points = np.concatenate([np.asarray(line, dtype=np.float64).reshape(-1, 2) for line in lines])
    text = np.char.mod("%.2f", np.round(points, 2).ravel())
    text = np.char.rstrip(np.char.rstrip(text, "0"), ".").reshape(-1, 2)
    ops = np.full(len(points), "l", dtype="<U1")
    starts = np.cumsum([0] + [len(line) for line in lines[:-1]])
    ops[starts] = "m"
    joined = np.char.add(np.char.add(np.char.add(np.char.add(text[:, 0], " "), text[:, 1]), " "), ops)
    if not close:
        return " ".join(joined.tolist()) + " "
    out, k = [], 0
    for line in lines:
        n = len(line)
        out.append(" ".join(joined[k:k + n].tolist()) + " h")
        k += n
    return " ".join(out) + " "


def _plan(canvas, scene: _Scene, items) -> None:
    """A block plan: each row's runs of one colour as rectangles, a path per colour."""
    ids, xs, ys = items
    start = np.ones(ids.shape, dtype=bool)
    start[:, 1:] = ids[:, 1:] != ids[:, :-1]
    z, x0 = np.nonzero(start)
    x1 = np.append(x0[1:], ids.shape[1])
    x1[np.append(z[1:] != z[:-1], True)] = ids.shape[1]
    values = ids[z, x0]
    for value in np.unique(values).tolist():
        if value == BACKGROUND:
            continue
        pick = values == value
        path = canvas.beginPath()
        for a, b, row in zip(xs[x0[pick]].tolist(), xs[x1[pick]].tolist(), z[pick].tolist(),
                             strict=True):
            path.rect(a, ys[row], b - a, ys[row + 1] - ys[row])
        canvas.setFillColorRGB(*_rgb(scene, value))
        canvas.drawPath(path, stroke=0, fill=1)


def _text(canvas, sheet: Sheet, head: str, foot: str, right: str = "") -> None:
    """The title above the box, the small print and ``right`` (a page number) below it."""
    width, height = sheet.page
    left, top, box_w, box_h = sheet.box
    canvas.setFillColorRGB(0, 0, 0)
    canvas.setFont(FONT, 12)
    canvas.drawString(left, height - top + 4 * MM, head)
    canvas.setFont(FONT, 7)
    canvas.drawString(left, height - top - box_h - 4.5 * MM, foot)
    if right:
        canvas.setFont(FONT, 9)
        canvas.drawRightString(left + box_w, height - top - box_h - 4.5 * MM, right)


def _marks(canvas, sheet: Sheet) -> None:
    """Alignment marks in the margins of a sheet, on the middle lines of its overlaps with its
    neighbours (the same lines of the drawing on both sheets): crosses at the box's corners of
    those lines, and a thin line across the margin."""
    from .paper import OVERLAP

    width, height = sheet.page
    left, top, box_w, box_h = sheet.box
    cols, rows = sheet.grid
    xs = ([left + OVERLAP / 2] if sheet.column > 0 else []) + \
         ([left + box_w - OVERLAP / 2] if sheet.column < cols - 1 else [])
    ys = ([top + OVERLAP / 2] if sheet.row > 0 else []) + \
         ([top + box_h - OVERLAP / 2] if sheet.row < rows - 1 else [])
    canvas.saveState()
    canvas.setStrokeColorRGB(0, 0, 0)
    canvas.setLineWidth(0.5)
    for x in xs:  # above and below the box
        for y, sign in ((top, -1), (top + box_h, 1)):
            canvas.line(x, height - y, x, height - (y + sign * MARK))
            canvas.line(x - MARK / 2, height - (y + sign * MARK / 2), x + MARK / 2,
                        height - (y + sign * MARK / 2))
    for y in ys:  # left and right of the box
        for x, sign in ((left, -1), (left + box_w, 1)):
            canvas.line(x, height - y, x + sign * MARK, height - y)
            canvas.line(x + sign * MARK / 2, height - (y - MARK / 2), x + sign * MARK / 2,
                        height - (y + MARK / 2))
    canvas.restoreState()


def write_pdf(document: MazeDocument, file: Target, theme, style: str = PICTURE_STYLE,
              shade: bool = False, solution: bool = False, seed: int | None = None,
              page: str = PAGE, answers: bool = False,
              sheets: str | tuple[int, int] = (1, 1)) -> None:
    """Write a maze document's maze as a PDF (see the module docstring)."""
    from ..dungeon.level import Dungeon, DungeonLevel

    if isinstance(document, (Dungeon, DungeonLevel)):
        raise BlockmazeError("a dungeon is drawn as a picture (.png, .svg), not yet as a PDF")
    size, grid = page_size(page), sheets_of(sheets)
    cells = document.maze.grid.size * (2 if answers else 1)
    ensure_step_memory("pdf", cells, f"a PDF of {document.maze.grid.size} cells")
    title, small = describe(document, seed)
    puzzle = _maze_scene(document, style, solution, shade, theme)
    chosen = layout(puzzle.width, puzzle.height, size, grid)
    pages: list[tuple[_Scene, Sheet, str, str]] = []
    for sheet in chosen:
        label = f"{title} — sheet {sheet.label} of {grid[0]}x{grid[1]}" if grid != (1, 1) else title
        pages.append((puzzle, sheet, label, small))
    if answers:
        answer = _maze_scene(document, style, True, shade, theme)
        (sheet,) = layout(answer.width, answer.height, size)
        pages.append((answer, sheet, f"Answer: {title[0].lower()}{title[1:]}", small))
    with open_target(file) as out:
        canvas = _canvas(out, pages[0][1].page, title)
        for scene, sheet, head, foot in pages:
            canvas.setPageSize(sheet.page)
            draw_scene(canvas, scene, sheet)
            if sheet.grid != (1, 1):
                _marks(canvas, sheet)
            _text(canvas, sheet, head, foot, sheet.label if sheet.grid != (1, 1) else "")
            canvas.showPage()
        canvas.save()


def write_book(documents: Sequence[MazeDocument], file: Target, theme=None,
               style: str = PICTURE_STYLE, page: str = "letter", bleed: bool = False,
               answers: bool = True, title: str = "Mazes") -> int:
    """Write ``documents`` as a book: a maze a page, numbered, then (``answers``) their
    solutions four to a page, labelled; ``page`` is the trim size, ``bleed`` adds the print
    shop's bleed (:func:`blockmaze.export.paper.book_page`). Returns the number of pages.

    >>> import io
    >>> from blockmaze import generate
    >>> docs = [MazeDocument(generate((n, n), rng=n), seed=n) for n in (3, 4, 5)]
    >>> write_book(docs, io.BytesIO(), page="6x9in")
    4
    """
    if not documents:
        raise BlockmazeError("a book needs at least one maze")
    trim = page_size(page)
    answer_pages = -(-len(documents) // 4) if answers else 0
    total = len(documents) + answer_pages
    # each page: its mazes (document, solution drawn, margins of its box, label), its foot
    pages: list[tuple[list[tuple[MazeDocument, bool, tuple, str]], str]] = []
    for number, document in enumerate(documents, start=1):
        margins = book_page(trim, number, total, bleed)[1]
        pages.append(([(document, False, margins, f"Maze {number}")], describe(document)[1]))
    for k in range(answer_pages):
        size, (left, top, right, bottom) = book_page(trim, len(pages) + 1, total, bleed)
        half_w, half_h = (size[0] - left - right) / 2, (size[1] - top - bottom) / 2
        quarters = []
        for j, document in enumerate(documents[4 * k: 4 * k + 4]):
            x, y = left + (j % 2) * half_w, top + (j // 2) * half_h + 5 * MM
            margins = (x + 2 * MM, y, size[0] - x - half_w + 2 * MM, size[1] - y - half_h + 5 * MM)
            quarters.append((document, True, margins, f"Answer {4 * k + j + 1}"))
        pages.append((quarters, "Answers"))
    with open_target(file) as out:
        canvas = _canvas(out, book_page(trim, 1, total, bleed)[0], title)
        for number, (drawn, foot) in enumerate(pages, start=1):  # drawn page by page
            size, (left, top, right, bottom) = book_page(trim, number, total, bleed)
            canvas.setPageSize(size)
            for document, solved, margins, head in drawn:
                scene = _maze_scene(document, style, solved, False, theme)
                (sheet,) = layout(scene.width, scene.height, size, margins=margins, turn=False)
                draw_scene(canvas, scene, sheet)
                _label(canvas, sheet, head, small=solved)
            box = Sheet(size, (left, top, size[0] - left - right, size[1] - top - bottom), 1.0,
                        (0.0, 0.0), (0.0, 0.0))
            _text(canvas, box, "", foot, str(number))
            canvas.showPage()
        canvas.save()
    return total


def _label(canvas, sheet: Sheet, text: str, small: bool) -> None:
    left, top = sheet.box[:2]
    canvas.setFillColorRGB(0, 0, 0)
    canvas.setFont(FONT, 9 if small else 12)
    canvas.drawString(left, sheet.page[1] - top + (1.5 if small else 3) * MM, text)


def _pdf(document, file, theme, style: str = PICTURE_STYLE, shade: bool = False,
         solution: bool = False, seed: int | None = None, page: str = PAGE,
         answers: bool = False, sheets: str | tuple[int, int] = (1, 1)) -> None:
    """Draw a maze document's maze as a PDF: :func:`write_pdf`."""
    write_pdf(document, file, theme, style=style, shade=shade, solution=solution, seed=seed,
              page=page, answers=answers, sheets=sheets)


def _pdf_memory(kind: str, cells: int, options: dict) -> int:
    return estimate("pdf", cells * (2 if options.get("answers") else 1))


register_writer("pdf", _pdf, drawing_memory=_pdf_memory)
