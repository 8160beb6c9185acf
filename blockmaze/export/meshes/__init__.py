"""Triangle meshes of Blocks: greedy rectangles, watertight by default (see :mod:`.greedy`).

Modules: :mod:`.greedy` (the mesher), :mod:`.chunks` (chunked, shared-vertex parts; stair steps),
one writer module per format family -- :mod:`.gltf` (.glb, .gltf), :mod:`.obj` (.obj, .mtl),
:mod:`.ply`, :mod:`.stl`, :mod:`.threemf` (.3mf, an object per material for slicers) -- with
:mod:`.common` helpers, :mod:`.scene` (``blockmaze.to_trimesh``) and :mod:`.inspect` (the mesh
summary of ``blockmaze info``).

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
