"""Paper: page sizes, and where a picture goes on its pages (one page, sheets to tape together, a
book's pages with their gutter and bleed). Arithmetic only, in PDF points (1/72 inch) with y
measured from the top of the page; :mod:`blockmaze.export.pdf` draws what this lays out.

A picture (``width`` x ``height`` in its own units, the pixels of a scene) is fitted into the
page's box between the margins, turned to landscape where that draws it larger, and centred.
Over several sheets the picture is drawn as if on one page ``COLS`` x ``ROWS`` boxes large, the
boxes overlapping by :data:`OVERLAP`; each sheet shows its window of it.

>>> sheet, = layout(100, 50, page_size("A4"))
>>> sheet.landscape, round(sheet.scale, 3)   # wider than tall: the page turned
(True, 7.699)
>>> [s.label for s in layout(100, 50, page_size("A4"), sheets=(2, 2))]
['A1', 'B1', 'A2', 'B2']
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import BlockmazeError
from .defaults import PAGE  # noqa: F401 (the default page, --page)

MM = 72 / 25.4  # PDF points per millimetre
INCH = 72.0
# named pages, portrait, in points (ISO 216's A sizes in millimetres; US sizes in inches)
PAGES = {"a3": (297 * MM, 420 * MM), "a4": (210 * MM, 297 * MM), "a5": (148 * MM, 210 * MM),
         "letter": (8.5 * INCH, 11 * INCH), "legal": (8.5 * INCH, 14 * INCH)}
MARGIN = 12.7 * MM  # round the picture: half an inch, inside every office printer's reach
HEAD = 9 * MM  # above the picture: its title (or a sheet's label)
FOOT = 7 * MM  # below it: the seed in small print, a page number
OVERLAP = 15 * MM  # sheets: how far two neighbours' pictures overlap, to tape them
# print on demand (Amazon KDP's paperback rules, docs/guides/print.md): bleed added to the
# outside edge, the top and the bottom; the outside margin, without and with bleed; the inside
# (gutter) margin by the book's page count
BLEED = 0.125 * INCH
OUTSIDE = (0.25 * INCH, 0.375 * INCH)
GUTTERS = ((150, 0.375), (300, 0.5), (500, 0.625), (700, 0.75), (828, 0.875))


def page_size(spec: str) -> tuple[float, float]:
    """A page's width and height in points, portrait: ``A4``, ``A3``, ``A5``, ``letter``,
    ``legal``, or ``WIDTHxHEIGHTmm`` / ``WIDTHxHEIGHTin`` (a trim size such as ``6x9in``).

    >>> page_size("letter") == (8.5 * 72, 11 * 72), page_size("100x150mm")[0] == 100 * MM
    (True, True)
    >>> page_size("tabloid")
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: page 'tabloid' is not a size: give A4, A3, A5, letter, legal or WIDTHxHEIGHTmm (or in), e.g. 210x297mm or 6x9in
    """
    text = str(spec).strip().lower()
    if text in PAGES:
        return PAGES[text]
    match = re.fullmatch(r"([0-9]{1,4}(?:\.[0-9]{1,3})?)\s*[x×]\s*([0-9]{1,4}(?:\.[0-9]{1,3})?)"
                         r"\s*(mm|in)", text)
    if match:
        unit = MM if match[3] == "mm" else INCH
        width, height = float(match[1]) * unit, float(match[2]) * unit
        if 50 * MM <= min(width, height) and max(width, height) <= 2000 * MM:
            return width, height
        raise BlockmazeError(f"page {spec!r} is too small or too large: 50 to 2000 mm a side")
    raise BlockmazeError(f"page {spec!r} is not a size: give A4, A3, A5, letter, legal or "
                         f"WIDTHxHEIGHTmm (or in), e.g. 210x297mm or 6x9in")


def sheets_of(spec: str | tuple[int, int]) -> tuple[int, int]:
    """``COLSxROWS`` sheets (1 to 20 each) as a pair.

    >>> sheets_of("3x2"), sheets_of((1, 1))
    ((3, 2), (1, 1))
    """
    if isinstance(spec, tuple):
        pair = spec
    else:
        match = re.fullmatch(r"\s*([0-9]{1,2})\s*[xX×]\s*([0-9]{1,2})\s*", str(spec))
        pair = (int(match[1]), int(match[2])) if match else (0, 0)
    if not all(isinstance(n, int) and 1 <= n <= 20 for n in pair) or len(pair) != 2:
        raise BlockmazeError(f"sheets {spec!r} is not COLSxROWS with 1 to 20 of each, e.g. 3x2")
    return int(pair[0]), int(pair[1])


@dataclass(frozen=True)
class Sheet:
    """One page of a layout: its size, the box the picture shows in (``left``, ``top``,
    ``width``, ``height``), the picture's ``scale`` (points per unit) and ``offset`` (where the
    picture's (0, 0) falls, in the coordinates of the whole drawing: the box of sheet A1 at
    (0, 0)), the ``window`` of that drawing this sheet shows (x, y of its box's corner), its
    ``column`` and ``row`` and their count, and its ``label`` (A1, B1, ...)."""

    page: tuple[float, float]
    box: tuple[float, float, float, float]
    scale: float
    offset: tuple[float, float]
    window: tuple[float, float]
    column: int = 0
    row: int = 0
    grid: tuple[int, int] = (1, 1)
    landscape: bool = False

    @property
    def label(self) -> str:
        return f"{chr(ord('A') + self.column)}{self.row + 1}"

    def to_page(self, x: float, y: float) -> tuple[float, float]:
        """A picture point on this page (points, y from the top of the page).

        >>> sheet, = layout(10, 10, page_size("A4"))
        >>> [round(v, 1) for v in sheet.to_page(5, 5)]   # the centre of the box
        [297.6, 423.8]
        """
        left, top = self.box[:2]
        return (left + self.offset[0] + x * self.scale - self.window[0],
                top + self.offset[1] + y * self.scale - self.window[1])


def layout(width: float, height: float, page: tuple[float, float],
           sheets: tuple[int, int] = (1, 1), margins: tuple[float, float, float, float] | None = None,
           turn: bool = True) -> list[Sheet]:
    """The sheets a ``width`` x ``height`` picture is drawn on (row by row), ``page`` portrait;
    ``margins`` (left, top, right, bottom; default :data:`MARGIN` with the head and foot) and
    ``turn``: landscape where that draws the picture larger (a book keeps its pages upright).

    >>> [s.box[2] > s.box[3] for s in layout(30, 10, page_size("A4"), sheets=(2, 1))]
    [True, True]
    """
    if not (width > 0 and height > 0):
        raise BlockmazeError("a picture to lay out needs a size above 0")
    cols, rows = sheets_of(sheets)
    left, top, right, bottom = margins if margins is not None else (MARGIN, MARGIN + HEAD,
                                                                     MARGIN, MARGIN + FOOT)
    best = None
    for landscape in ((False, True) if turn else (False,)):
        w, h = (page[1], page[0]) if landscape else page
        box_w, box_h = w - left - right, h - top - bottom
        if box_w <= OVERLAP * (cols > 1) or box_h <= OVERLAP * (rows > 1):
            continue
        whole_w = cols * box_w - (cols - 1) * OVERLAP
        whole_h = rows * box_h - (rows - 1) * OVERLAP
        scale = min(whole_w / width, whole_h / height)
        if best is None or scale > best[0] * 1.0001:
            best = (scale, landscape, (w, h), (box_w, box_h), (whole_w, whole_h))
    if best is None:
        raise BlockmazeError(f"a {page[0] / MM:.0f}x{page[1] / MM:.0f} mm page leaves no room "
                             f"inside its margins for {cols}x{rows} sheets")
    scale, landscape, size, (box_w, box_h), (whole_w, whole_h) = best
    offset = ((whole_w - width * scale) / 2, (whole_h - height * scale) / 2)
    return [Sheet(size, (left, top, box_w, box_h), scale, offset,
                  (c * (box_w - OVERLAP), r * (box_h - OVERLAP)), c, r, (cols, rows), landscape)
            for r in range(rows) for c in range(cols)]


def gutter(pages: int) -> float:
    """The inside margin of a printed book of ``pages`` pages (points), by KDP's table.

    >>> gutter(24) / INCH, gutter(200) / INCH, gutter(900) / INCH
    (0.375, 0.5, 0.875)
    """
    return next((inch for most, inch in GUTTERS if pages <= most), GUTTERS[-1][1]) * INCH


def book_page(trim: tuple[float, float], number: int, pages: int,
              bleed: bool) -> tuple[tuple[float, float], tuple[float, float, float, float]]:
    """A book page's size (``trim``, with the bleed added to the outside edge, top and bottom)
    and its margins (left, top, right, bottom) round the picture and its head and foot: the
    gutter inside (left on a right-hand, odd page), at least the outside margin elsewhere.

    >>> size, margins = book_page(page_size("6x9in"), 1, 120, bleed=True)
    >>> [round(v / INCH, 3) for v in size], round(margins[0] / INCH, 3)
    ([6.125, 9.25], 0.375)
    """
    width, height = trim
    extra = BLEED if bleed else 0.0
    outside = max(OUTSIDE[bleed], MARGIN / 2) + extra
    inside = gutter(pages)
    left, right = (inside, outside) if number % 2 == 1 else (outside, inside)
    return (width + extra, height + 2 * extra), (left, outside + HEAD, right, outside + FOOT)
