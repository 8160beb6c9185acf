"""Triangle meshes of Blocks: greedy rectangles, watertight by default (see :mod:`.greedy`).

Example
-------
>>> import numpy as np
>>> from blockmaze.export.meshes import mesh_blocks
>>> len(mesh_blocks(np.ones((1, 1, 1), np.uint8)).faces)
12
"""

from .greedy import (
    Group, Quads, Surface, bounds, collision_boxes, culled_face_count, greedy_quads, mesh_blocks,
    triangulate,
)

__all__ = [
    "Group", "Quads", "Surface", "bounds", "collision_boxes", "culled_face_count", "greedy_quads",
    "mesh_blocks", "triangulate",
]
