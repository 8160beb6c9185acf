"""A game engine's view of a mesh: where a character 2 blocks tall can stand and walk.

Independent of blockmaze's volumes: it looks only at triangles (as read back from a written
.glb) and the rules of a character controller:

* the solid is what the closed surface encloses, sampled on a lattice of ``per_block`` cells per
  block edge (2: half blocks, the resolution of stair steps): a cell is solid where a vertical
  ray through its centre (nudged off the triangles' edges) has crossed an odd number of the mesh's horizontal faces below it (an
  axis-aligned mesh has no other faces a vertical ray can cross);
* a door is open: its cells are taken out of the solid (:func:`blocks_behind`);
* a character stands in an empty cell over a solid one (or the ground under the mesh) with
  ``2 * per_block`` empty cells of headroom (2 blocks) from its feet: a Minecraft player is 1.8
  blocks tall, which takes 4 half-block cells;
* it moves to a horizontal neighbour at the same height, or up or down by one cell (half a
  block: the step offset of a character controller, and a Minecraft player's 0.6) where the
  lower of the two cells has one more empty cell over that headroom: while it steps, the
  character (0.6 wide) is partly over the lower cell with its head 2.3 blocks above it; never by
  climbing; or it jumps across a one-block hole (open from its feet up, nothing to stand on) to a
  cell at the same height or half a block higher or lower, as a Minecraft player does over the
  holes round a spiral's top step (from the step's low half to the floor beyond the hole: a jump
  rises about 1.25 blocks).

>>> import numpy as np
>>> box = np.array([[0, 0, 0], [2, 0, 0], [2, 0, 1], [0, 0, 1], [0, 1, 0], [2, 1, 0], [2, 1, 1], [0, 1, 1]], float)
>>> faces = np.array([[0, 2, 1], [0, 3, 2], [4, 5, 6], [4, 6, 7]])    # its bottom and top only
>>> solid = solid_lattice(box, faces, per_block=2)
>>> solid.shape, bool(solid.all())
((2, 2, 4), True)
"""

from __future__ import annotations

import numpy as np

from walkability import label_walks

NUDGE = (1e-4 * 2 ** 0.5, 1e-4 * 3 ** 0.5)


def solid_lattice(vertices: np.ndarray, faces: np.ndarray, per_block: int = 2) -> np.ndarray:
    """bool (y, z, x) over the mesh's bounds from the origin: cells inside the closed surface.

    ``vertices`` are (x, y, z) in blocks (glTF axes, y up)."""
    vertices = np.asarray(vertices, dtype=np.float64) * per_block
    top = np.ceil(vertices.max(axis=0) - 1e-9).astype(int)
    width, height, depth = (int(v) for v in top)
    crossings = [[[] for _ in range(width)] for _ in range(depth)]
    tri = vertices[np.asarray(faces)]
    flat = np.isclose(tri[:, 0, 1], tri[:, 1, 1]) & np.isclose(tri[:, 0, 1], tri[:, 2, 1])
    for (ax, ay, az), (bx, _, bz), (cx, _, cz) in tri[flat]:
        x0, x1 = int(np.floor(min(ax, bx, cx))), int(np.ceil(max(ax, bx, cx)))
        z0, z1 = int(np.floor(min(az, bz, cz))), int(np.ceil(max(az, bz, cz)))
        # cell centres, nudged off any diagonal a triangle shares with its neighbour
        px, pz = np.meshgrid(np.arange(x0, x1) + 0.5 + NUDGE[0], np.arange(z0, z1) + 0.5 + NUDGE[1])
        d1 = (px - bx) * (az - bz) - (ax - bx) * (pz - bz)
        d2 = (px - cx) * (bz - cz) - (bx - cx) * (pz - cz)
        d3 = (px - ax) * (cz - az) - (cx - ax) * (pz - az)
        inside = ~(((d1 < 0) | (d2 < 0) | (d3 < 0)) & ((d1 > 0) | (d2 > 0) | (d3 > 0)))
        for z, x in zip(*np.nonzero(inside), strict=True):
            crossings[z0 + z][x0 + x].append(ay)
    solid = np.zeros((height, depth, width), dtype=bool)
    centres = np.arange(height) + 0.5
    for z in range(depth):
        for x in range(width):
            if crossings[z][x]:
                ys = np.sort(crossings[z][x])
                solid[:, z, x] = np.searchsorted(ys, centres) % 2 == 1
    return solid


def blocks_behind(vertices: np.ndarray, faces: np.ndarray, shape, per_block: int = 2) -> np.ndarray:
    """bool (y, z, x) of ``shape``: the cells of the block just behind each triangle (opposite its
    outward normal, from its winding), over the triangle's height: the blocks of a material whose
    faces toward other materials are not drawn (a door between walls), to take out of the solid."""
    cells = np.zeros(shape, dtype=bool)
    tri = np.asarray(vertices, dtype=np.float64)[np.asarray(faces)]
    normals = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    normals /= np.linalg.norm(normals, axis=1, keepdims=True)
    for corners, normal in zip(tri, normals, strict=True):
        inside = corners.mean(axis=0) - 0.25 * normal  # in blocks
        x, z = (int(np.floor(inside[i])) * per_block for i in (0, 2))
        if abs(normal[1]) > 0.5:  # a horizontal face: the half block behind it
            y0 = int(np.floor(inside[1] * per_block))
            y1 = y0 + 1
        else:
            y0, y1 = (int(round(v * per_block)) for v in (corners[:, 1].min(), corners[:, 1].max()))
        cells[max(y0, 0):y1, z:z + per_block, x:x + per_block] = True
    return cells


def regions(solid: np.ndarray, per_block: int = 2) -> np.ndarray:
    """int32 (y, z, x): connected regions of cells a character's feet can be in, from 1; 0 elsewhere."""
    height, depth, width = solid.shape
    room = 2 * per_block
    empty = np.concatenate([~solid, np.ones((room + 1, depth, width), dtype=bool)])
    headroom = np.ones_like(solid)
    for dy in range(room):
        headroom &= empty[dy:dy + height]
    below = np.ones_like(solid)
    below[1:] = solid[:-1]
    stand = ~solid & headroom & below
    rise = headroom & empty[room:room + height]
    return label_walks(stand, rise=rise, hole=rise & ~stand, leap=per_block, leap_step=per_block // 2)


def region_on(labels: np.ndarray, block: tuple[int, int, int], per_block: int = 2) -> set[int]:
    """The regions of a character standing on block ``(y, z, x)`` (any of its top cells)."""
    y, z, x = block
    feet = (y + 1) * per_block
    if feet >= labels.shape[0]:
        return set()
    cells = labels[feet, z * per_block:(z + 1) * per_block, x * per_block:(x + 1) * per_block]
    return set(cells[cells > 0].tolist())
