"""Pictures of mazes as text for the terminal (images are outputs: :mod:`blockmaze.export.pictures`).

:data:`STYLE_NAMES` names the text styles without loading the renderer.

>>> STYLE_NAMES
('box', 'ascii', 'blocks')
"""

from __future__ import annotations

from ..support.lazy import exports

STYLE_NAMES = ("box", "ascii", "blocks")  # the keys of text.STYLES (checked by a test)
_EXPORTS = {"square_text": "text", "plan_text": "text"}
__all__ = ["STYLE_NAMES", *_EXPORTS]
_exported = exports(__name__, _EXPORTS, globals())


def __getattr__(name: str):
    """The exports, and ``maze_text``: renamed ``square_text`` (warns and forwards)."""
    if name == "maze_text":
        import warnings

        warnings.warn("blockmaze.render.maze_text is now square_text (any grid: blockmaze.maze_text)",
                      DeprecationWarning, stacklevel=2)
        name = "square_text"
    return _exported(name)
