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
__getattr__ = exports(__name__, _EXPORTS, globals())
