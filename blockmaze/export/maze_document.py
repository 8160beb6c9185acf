"""The "maze" output: a maze document (:mod:`blockmaze.mazes.documents`) written as JSON, atomically.

>>> import io
>>> from blockmaze import MazeDocument, generate, load_maze
>>> doc = MazeDocument(generate((3, 4), rng=5), algorithm="backtracker", seed=5)
>>> out = io.BytesIO(); save_maze(doc, out)
>>> load_maze(io.BytesIO(out.getvalue())) == doc
True
"""

from __future__ import annotations

from ..mazes.documents import MazeDocument, document_text
from . import register_writer
from .target import Target, open_target


def save_maze(document: MazeDocument, target: Target) -> None:
    """Write a maze document as JSON to a path (atomically) or a binary file.

    Parameters
    ----------
    document : MazeDocument
        The maze, its endpoints and where it came from.
    target : str, os.PathLike or binary file
        Where to write; a path is written to a temporary file and renamed into place.

    Examples
    --------
    >>> import io
    >>> from blockmaze import MazeDocument, generate
    >>> out = io.BytesIO(); save_maze(MazeDocument(generate((2, 2), rng=1)), out)
    >>> out.getvalue()[:10]
    b'{\\n "type":'
    """
    text = document_text(document)
    with open_target(target) as file:
        file.write(text.encode("utf-8"))


def _write_document(document: MazeDocument, file, theme) -> None:
    """The output registry's "maze" format: the document as JSON (the theme does not apply)."""
    save_maze(document, file)


register_writer("maze", _write_document)
