"""Greedy meshing of a (y, z, x) material volume: faces merged into rectangles, T-junctions split.

Coordinates here are *block coordinates* ``(x, y, z)`` = (east, up, south), the lattice of block
corners: block ``blocks[y, z, x]`` fills the unit cube from ``(x, y, z)`` to ``(x+1, y+1, z+1)``.
This frame is right-handed and Y-up, like glTF, so writers only scale it (and rotate it for Z-up
formats).

The steps, each a numba kernel over plain arrays:

1. :func:`greedy_quads` -- for each axis, direction and slice, the faces where a solid (non-AIR)
   block meets AIR or the outside, merged per material into maximal rectangles (Lysenko's greedy
   order: grow along one in-plane axis, then the other). Faces between two solid blocks, of any
   materials, are interior and never emitted.
2. :func:`triangulate` -- each rectangle becomes triangles. With ``watertight=True`` every mesh
   vertex lying on a rectangle's edge is inserted into that edge (no T-junctions), and the polygon
   is triangulated by zipping two chains between the corners of its most split side, always along
   the shorter diagonal (n vertices -> n - 2 triangles, none degenerate; fans over split points
   come from both far corners, so no sliver spans a whole long side), so the surface is closed
   edge for edge. With ``watertight=False`` each rectangle is
   two triangles (the raw greedy mesh: fewer triangles, for rendering only).

Every rectangle gets its own vertices (flat shading), an axis-aligned normal and world-space UVs in
block units (u, v = the block coordinates in the face's plane, so a tiling texture repeats once per
block; v follows the OpenGL convention, up in the texture).

Example
-------
>>> import numpy as np
>>> surface = mesh_blocks(np.ones((2, 3, 4), np.uint8))
>>> len(surface.faces), surface.groups[0].material   # 6 rectangles, 2 triangles each
(12, 1)
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from ...support.kernels import compiled_pays, kernel
import numpy as np

from ...blocks.boxes import box_cover
from ...errors import BlockmazeError
from ...support.memory import ensure_memory
from .vectorized import collision_boxes_numpy, greedy_quads_numpy, triangulate_numpy_many

__all__ = [
    "Group", "Quads", "Surface", "bounds", "collision_boxes", "culled_face_count", "greedy_quads",
    "mesh_blocks", "triangulate",
]

# Quad columns: axis (0 = x, 1 = y, 2 = z), sign (+1 / -1), plane coordinate along the axis,
# b0, c0, b1, c1 (the rectangle in the plane's two other axes, in cyclic order: the axis after
# ``axis`` is b, the one after that is c, so e_b x e_c = e_axis), material.
AXIS, SIGN, PLANE, B0, C0, B1, C1, MATERIAL = range(8)

# Volumes from this many blocks up (rectangles x 16 for the triangle kernels) are meshed on two
# threads: the kernels release the GIL and write disjoint rows, so the output does not depend on it.
_PARALLEL_BLOCKS = 1 << 20
_CHECKED_BYTES = 64 << 20  # arrays from this size up are checked against the memory available
# Jobs up to this many blocks are meshed by the vectorized numpy form (:mod:`.vectorized`, the same
# rectangles and triangles) unless numba is loaded already. It takes 3-5x the compiled kernels'
# time (0.2 s of CPU for a 100x100 maze, walls 3 high: 160,000 blocks), which up to here is less
# than importing numba and loading its cache (0.7-0.9 s): a 60x60 weave maze (650,000 blocks on
# the half-block lattice) to .glb takes 0.63 s of CPU this way, 1.37 s compiled.
VECTORIZED_BLOCKS = 1 << 20


def vectorized(blocks: int) -> bool:
    """Whether a job of ``blocks`` blocks is meshed by the numpy form rather than the kernels.

    >>> vectorized(10**8)   # a big job: the compiled kernels
    False
    """
    return not compiled_pays(blocks, VECTORIZED_BLOCKS)


@dataclass(frozen=True)
class Quads:
    """Merged rectangles of a volume's surface, sorted by material: ``data`` is ``int32[n, 8]``."""

    data: np.ndarray
    shape: tuple[int, int, int]  # the (y, z, x) volume shape they came from

    def __len__(self) -> int:
        return len(self.data)


@dataclass(frozen=True)
class Group:
    """The vertices ``[vertex_start, vertex_stop)`` and faces ``[face_start, face_stop)`` of one material."""

    material: int
    vertex_start: int
    vertex_stop: int
    face_start: int
    face_stop: int


@dataclass(frozen=True)
class Surface:
    """A triangle mesh in block coordinates (x, y, z), grouped by material.

    ``vertices`` float32 (V, 3); ``normals`` float32 (V, 3), axis-aligned unit vectors; ``uv``
    float32 (V, 2) in blocks; ``faces`` uint32 (F, 3), counter-clockwise seen from outside, with
    global vertex indices; ``groups`` one :class:`Group` per material present, in material order.
    """

    vertices: np.ndarray
    normals: np.ndarray
    uv: np.ndarray
    faces: np.ndarray
    groups: tuple[Group, ...]


# --- 1. greedy rectangles ----------------------------------------------------------------------


@kernel(nogil=True)
def _grow(buffer, count):
    if count < buffer.shape[0]:
        return buffer
    bigger = np.empty((buffer.shape[0] * 2 + 64, buffer.shape[1]), dtype=buffer.dtype)
    bigger[:count] = buffer[:count]
    return bigger


@kernel(nogil=True, small=1 << 15)  # about 20 us a block as Python: 30x30 mazes stay Python
def _greedy_axis(volume, axis, lo, hi, buffer, count):
    """Greedy rectangles of one axis; ``volume`` is (axis, b, c), a view of the (y, z, x) array.

    Only blocks inside the box ``[lo, hi)`` (in the view's axes) emit faces; blocks outside it
    are its neighbours (a chunk's halo). Rectangles are in coordinates relative to ``lo``.
    """
    n = volume.shape[0]
    p_size, q_size = hi[1] - lo[1], hi[2] - lo[2]
    mask = np.empty((p_size, q_size), dtype=np.uint8)
    for sign in (-1, 1):
        for i in range(lo[0], hi[0]):
            j = i + sign
            outside = j < 0 or j >= n
            for p in range(p_size):
                for q in range(q_size):
                    m = volume[i, lo[1] + p, lo[2] + q]
                    if m != 0 and (outside or volume[j, lo[1] + p, lo[2] + q] == 0):
                        mask[p, q] = m
                    else:
                        mask[p, q] = 0
            plane = i + 1 - lo[0] if sign > 0 else i - lo[0]
            for p in range(p_size):
                q = 0
                while q < q_size:
                    m = mask[p, q]
                    if m == 0:
                        q += 1
                        continue
                    w = 1
                    while q + w < q_size and mask[p, q + w] == m:
                        w += 1
                    h = 1
                    while p + h < p_size:
                        full = True
                        for t in range(q, q + w):
                            if mask[p + h, t] != m:
                                full = False
                                break
                        if not full:
                            break
                        h += 1
                    for pp in range(p, p + h):
                        for t in range(q, q + w):
                            mask[pp, t] = 0
                    buffer = _grow(buffer, count)
                    row = buffer[count]
                    row[0] = axis
                    row[1] = sign
                    row[2] = plane
                    row[3] = p
                    row[4] = q
                    row[5] = p + h
                    row[6] = q + w
                    row[7] = m
                    count += 1
                    q += w
    return buffer, count


def greedy_quads(blocks: np.ndarray, box: tuple[int, int, int, int, int, int] | None = None,
                 numpy_form: bool | None = None) -> Quads:
    """The surface of a (y, z, x) volume as maximal rectangles per material, slice and direction.

    ``box`` = ``(y0, z0, x0, y1, z1, x1)`` keeps the faces of the blocks inside it (a chunk; the
    blocks around it only hide faces), in coordinates relative to its corner. ``numpy_form``
    picks the vectorized form or the kernels (the same result; None: by :func:`vectorized`).

    >>> quads = greedy_quads(np.ones((1, 1, 5), np.uint8))   # a 5x1x1 bar: one rectangle per side
    >>> len(quads)
    6
    >>> len(greedy_quads(np.ones((1, 1, 5), np.uint8), box=(0, 0, 1, 1, 1, 3)))   # its middle
    4
    """
    blocks = np.asarray(blocks, dtype=np.uint8)
    if box is None:
        box = (0, 0, 0) + tuple(blocks.shape)
    low, high = np.array(box[:3], np.int64), np.array(box[3:], np.int64)
    height, length, width = (int(h - lo) for lo, h in zip(low, high, strict=True))
    shape = (height, length, width)
    if vectorized(blocks.size) if numpy_form is None else numpy_form:
        return Quads(greedy_quads_numpy(blocks, tuple(int(v) for v in box)), shape)

    def one_axis(axis_order):
        axis, order = axis_order
        view = np.ascontiguousarray(blocks.transpose(order))
        buffer, count = _greedy_axis(view, axis, low[list(order)], high[list(order)],
                                     np.empty((1024, 8), dtype=np.int32), 0)
        return buffer[:count]

    # axis x: (x, y, z); axis y: (y, z, x); axis z: (z, x, y) -- b, c cyclic after the axis.
    # The kernels release the GIL: the axes run on two threads, results kept in axis order.
    tasks = ((1, (0, 1, 2)), (2, (1, 2, 0)), (0, (2, 0, 1)))
    if blocks.size >= _PARALLEL_BLOCKS:
        with ThreadPoolExecutor(max_workers=2) as pool:
            parts = dict(zip((1, 2, 0), pool.map(one_axis, tasks), strict=True))
    else:
        parts = {task[0]: one_axis(task) for task in tasks}
    buffer = np.concatenate([parts[0], parts[1], parts[2]])
    return Quads(_sort_by_material(buffer, len(buffer)), shape)


@kernel(nogil=True)
def _sort_by_material(buffer, count):
    """The first ``count`` rows, stably sorted by material (a counting sort)."""
    starts = np.zeros(257, dtype=np.int64)
    for r in range(count):
        starts[buffer[r, 7] + 1] += 1
    for m in range(256):
        starts[m + 1] += starts[m]
    out = np.empty((count, 8), dtype=np.int32)
    for r in range(count):
        m = buffer[r, 7]
        out[starts[m]] = buffer[r]
        starts[m] += 1
    return out


# --- 2. triangles ------------------------------------------------------------------------------


@kernel(nogil=True)
def _on_cut(cuts, size, axis, value):
    return (value == 0 and cuts[2 * axis] != 0) or (value == size[axis] and cuts[2 * axis + 1] != 0)


@kernel(nogil=True)
def _corner_lattice(quads, size_x, size_y, size_z, cuts):
    """uint8 (X+1, Y+1, Z+1): 1 where some rectangle has a corner, and at every lattice point of
    a rectangle edge that lies in a cut face of the box (``cuts``: x0, x1, y0, y1, z0, z1), so
    that a chunk and its neighbour split their shared edges alike."""
    lattice = np.zeros((size_x + 1, size_y + 1, size_z + 1), dtype=np.uint8)
    size = np.array([size_x, size_y, size_z], dtype=np.int64)
    point = np.empty(3, dtype=np.int64)
    for r in range(quads.shape[0]):
        a = quads[r, 0]
        ab, ac = (a + 1) % 3, (a + 2) % 3
        k = quads[r, 2]
        b0, c0, b1, c1 = quads[r, 3], quads[r, 4], quads[r, 5], quads[r, 6]
        point[a] = k
        in_cut = _on_cut(cuts, size, a, k)
        for edge in range(4):  # along b at c0 and c1, along c at b0 and b1
            along_b = edge < 2
            fixed = (c0, c1, b0, b1)[edge]
            lo, hi = (b0, b1) if along_b else (c0, c1)
            whole = in_cut or _on_cut(cuts, size, ac if along_b else ab, fixed)
            point[ac if along_b else ab] = fixed
            for s in range(lo, hi + 1, 1 if whole else hi - lo):  # every point, or the corners
                point[ab if along_b else ac] = s
                lattice[point[0], point[1], point[2]] = 1
    return lattice


@kernel(nogil=True)
def _on(lattice, a, plane, b, c):
    if a == 0:
        return lattice[plane, b, c] != 0
    if a == 1:
        return lattice[c, plane, b] != 0
    return lattice[b, c, plane] != 0


@kernel(nogil=True)
def _edge(chain, n, lattice, a, k, split, b0, c0, b1, c1):
    """Append to ``chain`` (``n`` points so far) the split points strictly inside the straight
    edge (b0, c0) -> (b1, c1), then its end (b1, c1); return the new number of points."""
    db, dc = (1, 0) if c0 == c1 else (0, 1)
    for step in range(1, b1 - b0 + c1 - c0):
        b, c = b0 + step * db, c0 + step * dc
        if split and _on(lattice, a, k, b, c):
            chain[n, 0] = b
            chain[n, 1] = c
            n += 1
    chain[n, 0] = b1
    chain[n, 1] = c1
    return n + 1


@kernel(nogil=True)
def _chains(quads, r, lattice, split, chain1, chain2):
    """Fill the two monotone chains of rectangle r as (b, c) pairs; return their last indices.

    chain1: BL, along the bottom edge (c = c0), BR, up the right edge (b = b1), TR.
    chain2: BL, up the left edge (b = b0), TL, along the top edge (c = c1), TR.
    """
    a, k = quads[r, 0], quads[r, 2]
    b0, c0, b1, c1 = quads[r, 3], quads[r, 4], quads[r, 5], quads[r, 6]
    chain1[0, 0], chain1[0, 1] = b0, c0
    chain2[0, 0], chain2[0, 1] = b0, c0
    n1 = _edge(chain1, 1, lattice, a, k, split, b0, c0, b1, c0)
    n1 = _edge(chain1, n1, lattice, a, k, split, b1, c0, b1, c1)
    n2 = _edge(chain2, 1, lattice, a, k, split, b0, c0, b0, c1)
    n2 = _edge(chain2, n2, lattice, a, k, split, b0, c1, b1, c1)
    return n1 - 1, n2 - 1


@kernel(nogil=True)
def _longest(quads):
    longest = 1
    for r in range(quads.shape[0]):
        longest = max(longest, quads[r, 5] - quads[r, 3] + quads[r, 6] - quads[r, 4])
    return longest


@kernel(nogil=True)
def _count_range(quads, lattice, split, counts, longest, start, stop):
    chain1 = np.empty((longest + 2, 2), dtype=np.int64)
    chain2 = np.empty((longest + 2, 2), dtype=np.int64)
    for r in range(start, stop):
        n1, n2 = _chains(quads, r, lattice, split, chain1, chain2)
        counts[r] = n1 + n2  # (n1 + 1) + (n2 + 1) points, BL and TR shared


def _count(quads, lattice, split):
    """Vertices per rectangle (its polygon's corners plus the split points on its edges)."""
    counts = np.empty(quads.shape[0], dtype=np.int64)
    longest = _longest(quads)
    _in_halves(len(quads), lambda start, stop: _count_range(
        quads, lattice, split, counts, longest, start, stop))
    return counts, longest


def _in_halves(n: int, work) -> None:
    """Run ``work(start, stop)`` over [0, n): on two threads for big inputs (the kernels release
    the GIL and write disjoint rows), else on this one."""
    if n * 16 < _PARALLEL_BLOCKS:
        work(0, n)
        return
    with ThreadPoolExecutor(max_workers=2) as pool:
        for future in [pool.submit(work, 0, n // 2), pool.submit(work, n // 2, n)]:
            future.result()


@kernel(nogil=True)
def _emit(quads, lattice, split, vertex_offsets, face_offsets, longest,
          vertices, normals, uv, faces, start, stop):
    chain1 = np.empty((longest + 2, 2), dtype=np.int64)
    chain2 = np.empty((longest + 2, 2), dtype=np.int64)
    index1 = np.empty(longest + 2, dtype=np.int64)
    index2 = np.empty(longest + 2, dtype=np.int64)
    cycle = np.empty((2 * longest + 4, 2), dtype=np.int64)
    cycle_index = np.empty(2 * longest + 4, dtype=np.int64)
    side1 = np.empty((2 * longest + 4, 2), dtype=np.int64)
    side_index1 = np.empty(2 * longest + 4, dtype=np.int64)
    side2 = np.empty((2 * longest + 4, 2), dtype=np.int64)
    side_index2 = np.empty(2 * longest + 4, dtype=np.int64)
    tri_a = np.empty(3, dtype=np.int64)
    for r in range(start, stop):
        a, sign, k = quads[r, 0], quads[r, 1], quads[r, 2]
        b0, c0, b1, c1 = quads[r, 3], quads[r, 4], quads[r, 5], quads[r, 6]
        n1, n2 = _chains(quads, r, lattice, split, chain1, chain2)
        v = vertex_offsets[r]
        # vertices: chain1 (BL .. TR) then chain2's inner points (after BL, before TR)
        for t in range(n1 + 1):
            index1[t] = v + t
        index2[0] = v
        index2[n2] = v + n1
        for t in range(1, n2):
            index2[t] = v + n1 + t
        for t in range(n1 + n2):
            if t <= n1:
                b, c = chain1[t, 0], chain1[t, 1]
            else:
                b, c = chain2[t - n1, 0], chain2[t - n1, 1]
            if a == 0:
                x, y, z = float(k), float(b), float(c)
            elif a == 1:
                x, y, z = float(c), float(k), float(b)
            else:
                x, y, z = float(b), float(c), float(k)
            vertices[v + t, 0] = x
            vertices[v + t, 1] = y
            vertices[v + t, 2] = z
            normals[v + t, 0] = 0.0
            normals[v + t, 1] = 0.0
            normals[v + t, 2] = 0.0
            normals[v + t, a] = sign
            # world-space UVs, unmirrored seen from outside, v up (OpenGL convention)
            if a == 0:
                uv[v + t, 0] = -z if sign > 0 else z
                uv[v + t, 1] = y
            elif a == 2:
                uv[v + t, 0] = x if sign > 0 else -x
                uv[v + t, 1] = y
            else:
                uv[v + t, 0] = x
                uv[v + t, 1] = -z if sign > 0 else z
        # triangulate: n1 + n2 - 2 triangles, counter-clockwise in (b, c)
        _triangulate_polygon(faces, face_offsets[r], chain1, index1, n1, chain2, index2, n2,
                             b0, c0, b1, c1, sign, cycle, cycle_index, side1, side_index1,
                             side2, side_index2, tri_a)


@kernel(nogil=True)
def _triangulate_polygon(faces, f, chain1, index1, n1, chain2, index2, n2, b0, c0, b1, c1, sign,
                         cycle, cycle_index, side1, side_index1, side2, side_index2, tri):
    """Triangulate a rectangle's polygon (its corners and the split points on its edges).

    The polygon is zipped between two chains from a start to an end point, always taking the
    shorter new diagonal. Start and end are the corners of the side with the most split points,
    so the fans over those points come from both corners across and split where they meet: no
    fan reaches from one end of a long side to the other (no slivers of a rectangle's length
    squared). A rectangle without split points is two triangles.
    """
    count = n1 + n2  # points on the cycle: chain1 (BL .. TR), then chain2's inner points backwards
    for t in range(n1 + 1):
        cycle[t, 0] = chain1[t, 0]
        cycle[t, 1] = chain1[t, 1]
        cycle_index[t] = index1[t]
    for t in range(1, n2):
        cycle[count - t, 0] = chain2[t, 0]
        cycle[count - t, 1] = chain2[t, 1]
        cycle_index[count - t] = index2[t]
    corners = np.empty(5, dtype=np.int64)  # BL, BR, TR, TL, BL again, as cycle positions
    corners[0] = 0
    corners[2] = n1
    corners[4] = count
    for t in range(count):
        if cycle[t, 0] == b1 and cycle[t, 1] == c0:
            corners[1] = t
        if cycle[t, 0] == b0 and cycle[t, 1] == c1:
            corners[3] = t
    start, stop, most = 0, n1, 0
    for side in range(4):
        inner = corners[side + 1] - corners[side] - 1
        if inner > most:
            most = inner
            start, stop = corners[side], corners[side + 1] % count
    # chain 1: forward (counter-clockwise) from start to stop; chain 2: backward
    m1 = (stop - start) % count
    for t in range(m1 + 1):
        p = (start + t) % count
        side1[t, 0] = cycle[p, 0]
        side1[t, 1] = cycle[p, 1]
        side_index1[t] = cycle_index[p]
    m2 = count - m1
    for t in range(m2 + 1):
        p = (start - t) % count
        side2[t, 0] = cycle[p, 0]
        side2[t, 1] = cycle[p, 1]
        side_index2[t] = cycle_index[p]
    _zip(faces, f, side1, side_index1, m1, side2, side_index2, m2, sign, tri)


@kernel(nogil=True)
def _dist2(p, i, q, j):
    db = p[i, 0] - q[j, 0]
    dc = p[i, 1] - q[j, 1]
    return db * db + dc * dc


@kernel(nogil=True)
def _zip(faces, f, chain1, index1, n1, chain2, index2, n2, sign, tri):
    """Triangulate the polygon of two chains from a shared start to a shared end (points
    0..n1 and 0..n2), always taking the shorter new diagonal (fans split where they meet)."""
    tri[0] = index1[0]
    tri[1] = index1[1]
    tri[2] = index2[1]
    _put(faces, f, tri, sign)
    f += 1
    i, j = 1, 1
    while i < n1 - 1 or j < n2 - 1:
        if j == n2 - 1:
            advance_first = True
        elif i == n1 - 1:
            advance_first = False
        else:
            advance_first = _dist2(chain1, i + 1, chain2, j) <= _dist2(chain1, i, chain2, j + 1)
        if advance_first:
            tri[0] = index1[i]
            tri[1] = index1[i + 1]
            tri[2] = index2[j]
            i += 1
        else:
            tri[0] = index1[i]
            tri[1] = index2[j + 1]
            tri[2] = index2[j]
            j += 1
        _put(faces, f, tri, sign)
        f += 1
    tri[0] = index1[i]
    tri[1] = index1[n1]
    tri[2] = index2[j]
    _put(faces, f, tri, sign)


@kernel(nogil=True)
def _put(faces, f, tri, sign):
    faces[f, 0] = tri[0]
    if sign > 0:
        faces[f, 1] = tri[1]
        faces[f, 2] = tri[2]
    else:
        faces[f, 1] = tri[2]
        faces[f, 2] = tri[1]


def triangulate(quads: Quads, watertight: bool = True, cuts: tuple[bool, ...] = (False,) * 6,
                numpy_form: bool | None = None) -> Surface:
    """Triangles of greedy rectangles; ``watertight`` splits every edge at the vertices on it.

    ``cuts`` (x0, x1, y0, y1, z0, z1) marks the box's faces where a chunk meets its neighbour:
    edges lying in them are split at every lattice point, so neighbours' edges match.
    ``numpy_form`` as for :func:`greedy_quads`.

    >>> quads = greedy_quads(np.array([[[1, 1]], [[1, 0]]], np.uint8))   # an L of three blocks
    >>> len(triangulate(quads, watertight=False).faces), len(triangulate(quads).faces)
    (20, 24)
    """
    data = quads.data
    size_y, size_z, size_x = quads.shape
    if vectorized(size_x * size_y * size_z) if numpy_form is None else numpy_form:
        return triangulate_together([quads], watertight, [cuts])[0]
    if watertight and len(data):
        lattice = _corner_lattice(data, size_x, size_y, size_z, np.array(cuts, dtype=np.uint8))
    else:
        lattice = np.zeros((1, 1, 1), dtype=np.uint8)
    counts, longest = _count(data, lattice, bool(watertight))
    vertex_offsets = np.zeros(len(data) + 1, dtype=np.int64)
    np.cumsum(counts, out=vertex_offsets[1:])
    face_offsets = np.zeros(len(data) + 1, dtype=np.int64)
    np.cumsum(counts - 2, out=face_offsets[1:])
    n_vertices, n_faces = int(vertex_offsets[-1]), int(face_offsets[-1])
    if n_vertices >= 2**32:
        raise BlockmazeError(f"the mesh would have {n_vertices} vertices; at most 2**32 - 1 fit")
    if n_vertices * 32 + n_faces * 12 > _CHECKED_BYTES:  # (a chunk's small arrays need no check)
        ensure_memory(n_vertices * 32 + n_faces * 12,
                      f"a mesh of {n_faces} triangles and {n_vertices} vertices")
    vertices = np.empty((n_vertices, 3), dtype=np.float32)
    normals = np.empty((n_vertices, 3), dtype=np.float32)
    uv = np.empty((n_vertices, 2), dtype=np.float32)
    faces = np.empty((n_faces, 3), dtype=np.uint32)
    _in_halves(len(data), lambda start, stop: _emit(
        data, lattice, bool(watertight), vertex_offsets, face_offsets, longest,
        vertices, normals, uv, faces, start, stop))
    return Surface(vertices, normals, uv, faces, _groups(data, vertex_offsets, face_offsets))


def triangulate_together(quads: list[Quads], watertight: bool, cuts: list) -> list[Surface]:
    """:func:`triangulate` of several boxes' rectangles (each with its ``cuts``) in the numpy
    form, zipped in one pass.

    >>> bar = greedy_quads(np.ones((1, 1, 5), np.uint8))
    >>> [len(s.faces) for s in triangulate_together([bar, bar], False, [(False,) * 6] * 2)]
    [12, 12]
    """
    jobs = [(q.data, (q.shape[2], q.shape[0], q.shape[1]), box_cuts)  # (x, y, z)
            for q, box_cuts in zip(quads, cuts, strict=True)]
    return [Surface(vertices, normals, uv, faces, _groups(q.data, vertex_offsets, face_offsets))
            for q, (vertices, normals, uv, faces, vertex_offsets, face_offsets)
            in zip(quads, triangulate_numpy_many(jobs, bool(watertight)), strict=True)]


def _groups(data: np.ndarray, vertex_offsets: np.ndarray, face_offsets: np.ndarray) -> tuple[Group, ...]:
    """One :class:`Group` per run of rectangles of one material."""
    groups = []
    if len(data):
        materials = data[:, MATERIAL]
        starts = np.flatnonzero(np.r_[True, materials[1:] != materials[:-1]])
        stops = np.r_[starts[1:], len(data)]
        for start, stop in zip(starts, stops, strict=True):
            groups.append(Group(int(materials[start]),
                                int(vertex_offsets[start]), int(vertex_offsets[stop]),
                                int(face_offsets[start]), int(face_offsets[stop])))
    return tuple(groups)


def mesh_blocks(blocks: np.ndarray, watertight: bool = True) -> Surface:
    """The greedy surface mesh of a (y, z, x) volume (see the module's description).

    >>> surface = mesh_blocks(np.ones((1, 1, 1), np.uint8))
    >>> surface.vertices.shape, surface.faces.shape
    ((24, 3), (12, 3))
    """
    return triangulate(greedy_quads(blocks), watertight)


def culled_face_count(blocks: np.ndarray) -> int:
    """Unit faces where a solid block meets AIR or the outside (face culling emits 2 triangles each).

    >>> culled_face_count(np.ones((2, 2, 2), np.uint8))
    24
    """
    solid = np.asarray(blocks) != 0
    total = 0
    for axis in range(3):
        total += int(np.count_nonzero(np.diff(solid, axis=axis)))
        total += int(np.count_nonzero(np.take(solid, 0, axis=axis)))
        total += int(np.count_nonzero(np.take(solid, -1, axis=axis)))
    return total


# --- collision boxes ---------------------------------------------------------------------------


def _boxes(solid):
    """:func:`collision_boxes` by the kernel: the box cover of the solid blocks (no size limit)
    as ``x0, y0, z0, x1, y1, z1`` rows, ends exclusive."""
    boxes = box_cover(solid.view(np.uint8), 0, max(solid.size, 1))
    return np.ascontiguousarray(boxes[:, [2, 0, 1, 5, 3, 4]] + np.array([0, 0, 0, 1, 1, 1], np.int32))


def collision_boxes(blocks: np.ndarray) -> np.ndarray:
    """Disjoint boxes covering the solid blocks: ``int32[n, 6]`` rows ``x0, y0, z0, x1, y1, z1``.

    >>> collision_boxes(np.ones((3, 4, 5), np.uint8)).tolist()
    [[0, 0, 0, 5, 3, 4]]
    """
    solid = np.ascontiguousarray(np.asarray(blocks) != 0)
    if vectorized(solid.size):
        return collision_boxes_numpy(solid)
    return _boxes(solid)


@kernel
def _bounds(points):
    low = np.full(points.shape[1], np.inf, dtype=np.float64)
    high = np.full(points.shape[1], -np.inf, dtype=np.float64)
    for i in range(points.shape[0]):
        for k in range(points.shape[1]):
            value = points[i, k]
            if value < low[k]:
                low[k] = value
            if value > high[k]:
                high[k] = value
    return low, high


def bounds(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-column minimum and maximum of a 2-D array in one pass (numpy's axis-0 min/max is slow;
    without numba loaded, medium arrays take numpy's column by column).

    >>> [b.tolist() for b in bounds(np.array([[1, 5], [3, 2]], np.float32))]
    [[1.0, 2.0], [3.0, 5.0]]
    """
    if len(points) and vectorized(len(points)):
        columns = np.ascontiguousarray(points.T)
        return (columns.min(axis=1).astype(np.float64), columns.max(axis=1).astype(np.float64))
    return _bounds(points)
