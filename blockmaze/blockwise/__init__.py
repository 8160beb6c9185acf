"""Blockwise mazes: plans sized in blocks rather than cells, with their sizing.

- ``strict``: a maze on cells, every wall and passage a run of whole blocks, the plan exactly the
  asked size (``strict_plan``, ``strict_layout``; ``strict_volume_3d`` for layered volumes);
- ``relaxed``: one tree of 1-block passages grown over the blocks themselves (``relaxed_layout``);
- ``sizing``: how many blocks each run gets, so a size in blocks fits (``fit_strict``, ``fit_plan``).

Sizes are given rows first: ``length_blocks`` (z), then ``width_blocks`` (x); a volume takes
``height_blocks`` (y) before both, as its (y, z, x) shape.

>>> from blockmaze.blockwise import strict_plan
>>> strict_plan(5, 9, rng=1).shape
(5, 9)
"""

from __future__ import annotations

from ..support.lazy import exports

_EXPORTS = {
    "relaxed_layout": "relaxed", "relaxed_plan": "relaxed",
    "fit_plan": "sizing", "fit_strict": "sizing", "from_runs": "sizing",
    "strict_layout": "strict", "strict_plan": "strict", "strict_volume_3d": "strict",
}

__all__ = sorted(_EXPORTS)
__getattr__ = exports(__name__, _EXPORTS, globals())
