"""The greedy mesher in vectorized numpy: the same rectangles and triangles as the compiled kernels
of :mod:`.greedy`, with no numba (no import, no compile), for the jobs where that set-up would
cost more than the work.

Rectangles: each plane is swept row by row (all slices and both directions of an axis at once);
a rectangle stays open while the next row holds its material over its whole span, and the cells
left are cut into maximal runs that open new ones. That is Lysenko's greedy order exactly: a run
is widened first, then grown row by row. Triangles: every rectangle's polygon (its corners and
the split points on its edges) is zipped between two chains along the shorter diagonal, one step
for all rectangles at a time.

Example
-------
>>> import numpy as np
>>> quads = greedy_quads_numpy(np.ones((1, 1, 5), np.uint8), (0, 0, 0, 1, 1, 5))
>>> quads[:, 7].tolist(), len(triangulate_numpy(quads, (5, 1, 1), True, (False,) * 6)[3])
([1, 1, 1, 1, 1, 1], 12)
"""

from __future__ import annotations

import numpy as np

__all__ = ["greedy_quads_numpy", "triangulate_numpy"]

# axis -> the (y, z, x) volume's axes in (axis, b, c) order (b, c cyclic after the axis)
_ORDERS = {0: (2, 0, 1), 1: (0, 1, 2), 2: (1, 2, 0)}


def _sweep(masks: np.ndarray):
    """Rectangles of the masks ``(S, P, Q)`` (0: no face): arrays slice, p0, q0, p1, q1, material."""
    slices, p_size, q_size = masks.shape
    flat = slices * q_size
    row_start = (np.arange(flat) % q_size) == 0
    out = []
    owner = np.full(flat, -1, np.int64)
    act_q0 = act_q1 = act_p0 = act_mat = np.zeros(0, np.int64)
    for p in range(p_size + 1):
        row = masks[:, p, :].ravel().astype(np.int64) if p < p_size else np.zeros(flat, np.int64)
        if len(act_mat):
            held = owner >= 0
            ok = held & (row == act_mat[np.where(held, owner, 0)])
            keep = np.bincount(owner[ok], minlength=len(act_mat)) == act_q1 - act_q0
            done = ~keep
            if done.any():
                out.append((act_p0[done], act_q0[done], np.full(int(done.sum()), p), act_q1[done],
                            act_mat[done]))
            covered = held & keep[np.where(held, owner, 0)]
            renumber = np.cumsum(keep) - 1
            act_q0, act_q1, act_p0, act_mat = act_q0[keep], act_q1[keep], act_p0[keep], act_mat[keep]
        else:
            covered = np.zeros(flat, bool)
            renumber = np.zeros(0, np.int64)
        if p == p_size:
            break
        free = (row != 0) & ~covered
        before = np.empty(flat, np.int64)
        before[0] = -1
        before[1:] = np.where(free[:-1], row[:-1], -1)
        starts = free & (row_start | (before != row))
        q0 = np.flatnonzero(starts)
        run = np.cumsum(starts) - 1
        widths = np.bincount(run[free], minlength=len(q0))
        new_owner = np.full(flat, -1, np.int64)
        new_owner[covered] = renumber[owner[covered]]
        new_owner[free] = len(act_mat) + run[free]
        owner = new_owner
        act_q0 = np.concatenate([act_q0, q0])
        act_q1 = np.concatenate([act_q1, q0 + widths])
        act_p0 = np.concatenate([act_p0, np.full(len(q0), p)])
        act_mat = np.concatenate([act_mat, row[q0]])
    if not out:
        return tuple(np.zeros(0, np.int64) for _ in range(6))
    p0, q0, p1, q1, mat = (np.concatenate(column) for column in zip(*out))
    return q0 // q_size, p0, q0 % q_size, p1, q1 - (q0 - q0 % q_size), mat


def greedy_quads_numpy(blocks: np.ndarray, box: tuple[int, ...]) -> np.ndarray:
    """``int32[n, 8]`` rectangles of a (y, z, x) volume within ``box``, sorted by material and
    then as the compiled kernel emits them (see :func:`.greedy.greedy_quads`).

    >>> greedy_quads_numpy(np.ones((1, 1, 2), np.uint8), (0, 0, 0, 1, 1, 2))[:, :3].tolist()
    [[0, -1, 0], [0, 1, 2], [1, -1, 0], [1, 1, 1], [2, -1, 0], [2, 1, 1]]
    """
    low, high = box[:3], box[3:]
    parts = []
    for axis in (0, 1, 2):
        order = _ORDERS[axis]
        view = blocks.transpose(order)
        lo, hi = [low[k] for k in order], [high[k] for k in order]
        n = view.shape[0]
        padded = np.zeros((n + 2, hi[1] - lo[1], hi[2] - lo[2]), np.uint8)
        padded[1:-1] = view[:, lo[1]:hi[1], lo[2]:hi[2]]
        inside = padded[lo[0] + 1:hi[0] + 1]
        masks = np.concatenate([np.where(padded[lo[0] + d:hi[0] + d] == 0, inside, 0)
                                for d in (0, 2)])  # sign -1, then +1
        s, p0, q0, p1, q1, mat = _sweep(masks)
        count = hi[0] - lo[0]
        sign = np.where(s < count, -1, 1)
        slice_ = s % max(count, 1)
        plane = slice_ + (sign > 0)
        quads = np.column_stack([np.full(len(s), axis), sign, plane, p0, q0, p1, q1, mat])
        parts.append(quads[np.lexsort((q0, p0, s))])
    quads = np.concatenate(parts)
    return quads[np.argsort(quads[:, 7], kind="stable")].astype(np.int32)


def _lattice(quads: np.ndarray, size: tuple[int, int, int], cuts) -> np.ndarray:
    """uint8 (X+1, Y+1, Z+1) as :func:`.greedy._corner_lattice`: the rectangles' corners, and every
    lattice point of an edge lying in a cut face of the box."""
    lattice = np.zeros(tuple(s + 1 for s in size), np.uint8)
    a, k = quads[:, 0].astype(np.int64), quads[:, 2].astype(np.int64)
    ab, ac = (a + 1) % 3, (a + 2) % 3
    size_arr = np.array(size, np.int64)
    cut_arr = np.array(cuts, bool).reshape(3, 2)

    def on_cut(axis, value):
        return (value == 0) & cut_arr[axis, 0] | (value == size_arr[axis]) & cut_arr[axis, 1]

    in_cut = on_cut(a, k)
    rows = np.arange(len(quads))
    for edge in range(4):  # along b at c0 and c1, along c at b0 and b1
        along_b = edge < 2
        fixed = quads[:, (4, 6, 3, 5)[edge]].astype(np.int64)
        lo = quads[:, 3 if along_b else 4].astype(np.int64)
        hi = quads[:, 5 if along_b else 6].astype(np.int64)
        moving, still = (ab, ac) if along_b else (ac, ab)
        whole = in_cut | on_cut(still, fixed)
        counts = np.where(whole, hi - lo + 1, 2)
        which = np.repeat(rows, counts)
        step = np.arange(len(which)) - np.repeat(np.cumsum(counts) - counts, counts)
        step = np.where(whole[which], step, step * (hi - lo)[which])
        point = np.empty((len(which), 3), np.int64)
        point[np.arange(len(which)), a[which]] = k[which]
        point[np.arange(len(which)), still[which]] = fixed[which]
        point[np.arange(len(which)), moving[which]] = lo[which] + step
        lattice[point[:, 0], point[:, 1], point[:, 2]] = 1
    return lattice


def _edge_points(quads, lattice, split, b_from, c_from, db, dc, length):
    """The split points strictly inside each rectangle's edge from (b_from, c_from) in direction
    (db, dc) of ``length``: (rectangle, b, c) arrays, in order along the edge."""
    inner = np.maximum(length - 1, 0) if split else np.zeros(len(quads), np.int64)
    which = np.repeat(np.arange(len(quads)), inner)
    step = 1 + np.arange(len(which)) - np.repeat(np.cumsum(inner) - inner, inner)
    b = b_from[which] + step * db
    c = c_from[which] + step * dc
    a, k = quads[which, 0], quads[which, 2]
    xyz = np.empty((len(which), 3), np.int64)
    rows = np.arange(len(which))
    xyz[rows, a] = k
    xyz[rows, (a + 1) % 3] = b
    xyz[rows, (a + 2) % 3] = c
    keep = lattice[xyz[:, 0], xyz[:, 1], xyz[:, 2]] != 0
    return which[keep], b[keep], c[keep]


def triangulate_numpy(quads: np.ndarray, size: tuple[int, int, int], watertight: bool, cuts):
    """(vertices, normals, uv, faces, vertex_offsets, face_offsets) of the rectangles, as
    :func:`.greedy.triangulate` builds them. ``size`` is the box's (x, y, z) size."""
    n = len(quads)
    q = quads.astype(np.int64)
    a, sign, k, b0, c0, b1, c1 = (q[:, col] for col in range(7))
    lattice = _lattice(q, size, cuts) if watertight and n else np.zeros((1, 1, 1), np.uint8)
    zero = np.zeros(n, np.int64)
    one = zero + 1
    # polygon points in vertex order, by segment: BL, bottom, BR, right, TR, left, TL, top
    segments = [
        (np.arange(n), b0, c0),
        _edge_points(q, lattice, watertight, b0, c0, 1, 0, b1 - b0),
        (np.arange(n), b1, c0),
        _edge_points(q, lattice, watertight, b1, c0, 0, 1, c1 - c0),
        (np.arange(n), b1, c1),
        _edge_points(q, lattice, watertight, b0, c0, 0, 1, c1 - c0),
        (np.arange(n), b0, c1),
        _edge_points(q, lattice, watertight, b0, c1, 1, 0, b1 - b0),
    ]
    sizes = np.array([np.bincount(seg[0], minlength=n) for seg in segments])  # (8, n)
    counts = sizes.sum(axis=0)
    vertex_offsets = np.zeros(n + 1, np.int64)
    np.cumsum(counts, out=vertex_offsets[1:])
    face_offsets = np.zeros(n + 1, np.int64)
    np.cumsum(counts - 2, out=face_offsets[1:])
    which = np.concatenate([seg[0] for seg in segments])
    segment = np.repeat(np.arange(8), [len(seg[0]) for seg in segments])
    order = np.lexsort((segment, which))  # stable: points keep their order along each edge
    which = which[order]
    pb = np.concatenate([seg[1] for seg in segments])[order]
    pc = np.concatenate([seg[2] for seg in segments])[order]
    vertices, normals, uv = _attributes(a[which], sign[which], k[which], pb, pc)
    faces = _zip_all(sizes, counts, vertex_offsets, face_offsets, pb, pc, sign)
    return vertices, normals, uv, faces, vertex_offsets, face_offsets


def _attributes(a, sign, k, b, c):
    """Positions, normals and world-space UVs of points (axis, sign, plane, b, c)."""
    xyz = np.empty((len(a), 3), np.float32)
    rows = np.arange(len(a))
    xyz[rows, a] = k
    xyz[rows, (a + 1) % 3] = b
    xyz[rows, (a + 2) % 3] = c
    normals = np.zeros((len(a), 3), np.float32)
    normals[rows, a] = sign
    x, y, z = xyz[:, 0], xyz[:, 1], xyz[:, 2]
    positive = sign > 0
    u = np.where(a == 0, np.where(positive, -z, z), np.where(a == 2, np.where(positive, x, -x), x))
    v = np.where(a == 1, np.where(positive, -z, z), y)
    return xyz, normals, np.column_stack([u, v]).astype(np.float32)


def _zip_all(sizes, counts, vertex_offsets, face_offsets, pb, pc, sign):
    """Triangles of every rectangle's polygon, as :func:`.greedy._triangulate_polygon` makes them."""
    n = len(counts)
    faces = np.empty((int(face_offsets[-1]), 3), np.uint32)
    if not n:
        return faces
    inner = sizes[[1, 3, 7, 5]]  # per side, counter-clockwise: bottom, right, top, left
    # the cycle: vertex order is BL, bottom, BR, right, TR | left, TL, top; the counter-clockwise
    # cycle runs BL .. TR, then top reversed, TL, left reversed
    n1 = sizes[0] + sizes[1] + sizes[2] + sizes[3] + sizes[4] - 1  # cycle position of TR
    corners = np.stack([0 * n1, sizes[1] + 1, n1, n1 + inner[2] + 1, counts])
    most = inner.max(axis=0)
    side = np.where(most > 0, np.argmax(inner, axis=0), 0)
    start = corners[side, np.arange(n)]
    stop = np.where(most > 0, corners[side + 1, np.arange(n)] % counts, n1)  # none: BL to TR
    m1 = (stop - start) % counts
    m2 = counts - m1
    base = vertex_offsets[:-1]

    def vertex(r, position):
        """Vertex index of cycle ``position`` of rectangles ``r``."""
        position = position % counts[r]
        last = n1[r]
        back = counts[r] - position  # chain2's index t for positions past TR
        return base[r] + np.where(position <= last, position, last + back)

    def point(r, position):
        v = vertex(r, position)
        return pb[v], pc[v]

    def put(r, f, t0, t1, t2):
        flip = sign[r] < 0
        faces[f, 0] = t0
        faces[f, 1] = np.where(flip, t2, t1)
        faces[f, 2] = np.where(flip, t1, t2)

    r = np.arange(n)
    f = face_offsets[:-1].copy()
    put(r, f, vertex(r, start), vertex(r, start + 1), vertex(r, start - 1))
    f += 1
    i, j = np.ones(n, np.int64), np.ones(n, np.int64)
    active = np.flatnonzero((i < m1 - 1) | (j < m2 - 1))
    while len(active):
        ra, ia, ja = active, i[active], j[active]
        s, e1, e2 = start[ra], m1[ra], m2[ra]
        b_i1, c_i1 = point(ra, s + ia + 1)
        b_j, c_j = point(ra, s - ja)
        b_i, c_i = point(ra, s + ia)
        b_j1, c_j1 = point(ra, s - ja - 1)
        shorter = (b_i1 - b_j) ** 2 + (c_i1 - c_j) ** 2 <= (b_i - b_j1) ** 2 + (c_i - c_j1) ** 2
        first = (ja == e2 - 1) | ((ia != e1 - 1) & shorter)
        here = vertex(ra, s + ia)
        put(ra, f[ra], here, np.where(first, vertex(ra, s + ia + 1), vertex(ra, s - ja - 1)),
            vertex(ra, s - ja))
        f[ra] += 1
        i[ra] = ia + first
        j[ra] = ja + ~first
        active = ra[(i[ra] < m1[ra] - 1) | (j[ra] < m2[ra] - 1)]
    put(r, f, vertex(r, start + i), vertex(r, start + m1), vertex(r, start - j))
    return faces
