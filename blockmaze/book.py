"""``blockmaze book``: a puzzle book, ``pages`` mazes made by one command's options, the sizes
rising page by page, written as one PDF (:func:`blockmaze.export.pdf.write_book`: page numbers,
the answers gathered at the back, a print shop's trim size and bleed).

Each maze is made by the command itself (:func:`blockmaze.jobs.run`, so every option it takes
applies as it would there), page k with the seed ``seed + k``, so one seed makes the whole book
again. How the mazes rise is a rule of :data:`RISES`, a function of the command's size and the
number of pages giving each page's own options: its size, or its ``--difficulty`` (the
analysis's measure, :mod:`blockmaze.mazes.difficulty`).

>>> rising_sizes((30, 30), 4)
[{'size': (10, 10)}, {'size': (17, 17)}, {'size': (23, 23)}, {'size': (30, 30)}]
>>> rising_sizes((8,), 3), same_sizes((5, 7), 2)
([{'size': (3,)}, {'size': (5,)}, {'size': (8,)}], [{'size': (5, 7)}, {'size': (5, 7)}])
>>> [page["difficulty"] for page in rising_difficulty((20, 20), 3)]
['0.10', '0.50', '0.90']
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from .errors import BlockmazeError
from .export.defaults import PICTURE_STYLE

BOOK_COMMANDS = ("generate",)  # the commands whose mazes a book draws
FIRST = 1 / 3  # rising sizes: the first page's sides, as a share of the last page's
# rising difficulty: the first and the last page's (each asks for the band within 0.1 of it)
EASIEST, HARDEST = 0.1, 0.9
MAX_PAGES = 1000
# the options of the command that only a picture takes (the book draws its own pages, in the
# theme's colours) and where it writes: not passed on to the command
PICTURE_OPTIONS = ("picture_style", "cell_size", "shade", "page", "answers", "sheets",
                   "solution", "output", "format_", "theme")


def _rising(pages: int) -> list[float]:
    """Each page's way from the first (0) to the last (1)."""
    return [1.0 if pages == 1 else k / (pages - 1) for k in range(pages)]


def rising_sizes(size: tuple[int, ...], pages: int) -> list[dict]:
    """From a third of each side (at least 2, or 1 ring) up to ``size`` on the last page."""
    least = 1 if len(size) == 1 else 2
    return [{"size": tuple(max(min(least, n), round(n * (FIRST + (1 - FIRST) * t)))
                           for n in size)} for t in _rising(pages)]


def same_sizes(size: tuple[int, ...], pages: int) -> list[dict]:
    """Every page the command's size."""
    return [{"size": tuple(size)}] * pages


def rising_difficulty(size: tuple[int, ...], pages: int) -> list[dict]:
    """Every page the command's size, its difficulty rising from :data:`EASIEST` to
    :data:`HARDEST` (as ``--difficulty`` takes it)."""
    return [{"size": tuple(size), "difficulty": f"{EASIEST + (HARDEST - EASIEST) * t:.2f}"}
            for t in _rising(pages)]


RISES: dict[str, Callable[[tuple[int, ...], int], list[dict]]] = {
    "size": rising_sizes, "none": same_sizes, "difficulty": rising_difficulty}


def make_book(command: str, options: dict, pages: int, output, *, page: str = "letter",
              bleed: bool = False, answers: bool = True, rise: str = "size",
              say: Callable[[str], None] | None = None) -> int:
    """Make ``pages`` mazes with ``command``'s ``options`` (by parameter name, as
    :func:`blockmaze.commands.make_job` takes them; the size is the last page's) and write the
    book to ``output``; returns the book's page count (answers included).

    >>> import io
    >>> make_book("generate", {"size": (6, 6), "seed": 3}, 3, io.BytesIO(), page="6x9in")
    4
    """
    from .jobs import run
    from .mazes.documents import load_maze
    from .materials import as_theme
    from .export.pdf import write_book
    from .support.randomness import draw_seed

    if command not in BOOK_COMMANDS:
        raise BlockmazeError(f"a book is made by {', '.join(BOOK_COMMANDS)}, not {command!r}")
    if not isinstance(pages, int) or not 1 <= pages <= MAX_PAGES:
        raise BlockmazeError(f"--pages must be 1 to {MAX_PAGES}, got {pages!r}")
    if rise not in RISES:
        raise BlockmazeError(f"--rise must be one of {', '.join(RISES)}, got {rise!r}")
    if rise == "difficulty" and options.get("difficulty") is not None:
        raise BlockmazeError("--rise difficulty sets each page's difficulty: leave out "
                             "--difficulty (or use --rise size or none with it)")
    size = options.get("size")
    if size is None:
        raise BlockmazeError(f"a book needs the size of its last maze: blockmaze book {command} "
                             f"SIZE --pages N -o book.pdf")
    from .commands import Generate, make_job

    job = make_job(command, size=size)
    assert isinstance(job, Generate) and job.size is not None
    size = job.size  # parsed as the command parses it
    seed = options.get("seed")
    seed = draw_seed() if seed is None else int(seed)
    style = options.get("picture_style") or PICTURE_STYLE
    inner = {k: v for k, v in options.items() if k not in PICTURE_OPTIONS}
    documents = []
    with tempfile.TemporaryDirectory(prefix="blockmaze-book-") as folder:
        for k, own in enumerate(RISES[rise](size, pages)):
            path = Path(folder, f"{k}.json")
            run(command, {**inner, **own, "seed": seed + k, "output": str(path)},
                given=set(inner) | set(own) | {"seed", "output"})
            documents.append(load_maze(path))
    total = write_book(documents, output, as_theme(options.get("theme")), style=style,
                       page=page, bleed=bleed, answers=answers)
    if say is not None:
        say(f"wrote {output}: a book of {pages} mazes, {total} pages, seeds {seed} to "
            f"{seed + pages - 1}")
    return total
