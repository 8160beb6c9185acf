"""The least a maze's blocks can be, from arithmetic alone: so a job too large for the memory
limit is refused before anything is allocated.

A rasterized plan covers its cells' bounding box at its scale (:mod:`blockmaze.blocks.raster`),
and each kind's box follows from its geometry (the ``grids/*.py`` docstrings): hexagons of unit
side are 2 wide with columns 1.5 apart and sqrt(3) high; triangles of unit side half a unit apart
and sqrt(3)/2 high; upsilon and square cells on the unit lattice; a polar grid of R rings of unit
width is a disc 2R across (its outer arc drawn as a polygon, whose box is at least
cos(pi/8) of that). Rasterizing takes :data:`RASTER_BYTES` a plan block.

Example
-------
>>> least_cells("polar", (3,)), least_plan_blocks("hex", (10, 10), 4)
(20, 4278)
"""

from __future__ import annotations

import math

# a rasterized plan's block: owners, labels, the queue and flags, measured at the peak (a 240-ring
# polar maze at scale 4: 3.7 M blocks, 240 MB over what came before)
RASTER_BYTES = 64
_SQRT3 = math.sqrt(3)


def least_cells(kind: str, shape: tuple[int, ...]) -> int:
    """The cells of a grid of ``kind`` and ``shape`` (a polar grid's from its ring counts).

    >>> least_cells("polar", (3,)), least_cells("layered", (2, 3, 4))
    (20, 24)
    """
    if kind == "polar":
        from ..grids.polar import ring_counts

        return int(ring_counts(shape[0]).sum())
    return math.prod(shape)


def least_plan_blocks(kind: str, shape: tuple[int, ...], scale: int) -> int:
    """The fewest blocks the rasterized plan of a ``kind`` maze of ``shape`` at ``scale`` has:
    its cells' bounding box at that scale.

    >>> least_plan_blocks("triangle", (4, 4), 5), least_plan_blocks("polar", (10,), 4)
    (204, 6241)
    """
    if kind == "polar":
        from ..grids.polar import MAX_SEGMENT, ring_counts

        rings = shape[0]
        outer = int(ring_counts(rings)[-1])
        steps = outer * max(1, math.ceil(2 * math.pi * rings / outer / MAX_SEGMENT))
        side = 2 * rings * math.cos(math.pi / max(steps, 3))  # the outer arc's polygon
        width, height = side, side
    else:
        rows, cols = shape
        width, height = {"hex": (1.5 * cols + 0.5, _SQRT3 * rows),
                         "triangle": ((cols + 1) / 2, _SQRT3 / 2 * rows)}.get(kind, (cols, rows))
    return math.floor(width * scale) * math.floor(height * scale)
