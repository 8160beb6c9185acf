"""The greedy mesher in vectorized numpy: the same rectangles and triangles as the compiled kernels
of :mod:`.greedy`, with no numba (no import, no compile), for the jobs where that set-up would
cost more than the work.

Rectangles: each plane is swept row by row (all slices and both directions of an axis at once);
a rectangle stays open while the next row holds its material over its whole span, and the cells
left are cut into maximal runs that open new ones. That is Lysenko's greedy order exactly: a run
is widened first, then grown row by row. Triangles: every rectangle's polygon (its corners and
the split points on its edges) is zipped between two chains along the shorter diagonal, one step
for all rectangles at a time. Collision boxes: the same sweep cuts each layer, then the
rectangles rise while the layers above are solid under them.

Example
-------
>>> import numpy as np
>>> quads = greedy_quads_numpy(np.ones((1, 1, 5), np.uint8), (0, 0, 0, 1, 1, 5))
>>> quads[:, 7].tolist(), len(triangulate_numpy(quads, (5, 1, 1), True, (False,) * 6)[3])
([1, 1, 1, 1, 1, 1], 12)
"""

from __future__ import annotations

import numpy as np

__all__ = ["collision_boxes_numpy", "greedy_quads_numpy", "greedy_quads_numpy_many",
           "triangulate_numpy", "triangulate_numpy_many"]

# axis -> the (y, z, x) volume's axes in (axis, b, c) order (b, c cyclic after the axis)
_ORDERS = {0: (2, 0, 1), 1: (0, 1, 2), 2: (1, 2, 0)}


def _sweep(rows: np.ndarray, row_start: np.ndarray):
    """Rectangles of the rows ``(P, F)`` of masks laid side by side (0: no face; ``row_start``
    marks where each mask row begins): arrays p0, q0, p1, q1, material, q in ``[0, F)``."""
    p_size, flat = rows.shape
    solid = rows != 0
    changed = np.ones_like(solid)
    changed[1:] = rows[1:] != rows[:-1]
    new_run = np.ones_like(solid)  # where a run of one material would start in the whole row
    new_run[:, 1:] = (rows[:, 1:] != rows[:, :-1]) | row_start[1:]
    new_run &= solid
    any_change = changed.any(axis=1)
    owner = np.full(flat, -1, np.int64)
    limit = int(np.count_nonzero(solid)) + 1  # no more rectangles than cells
    end = np.full(limit, p_size, np.int64)
    dead = np.zeros(limit, bool)
    opened, count = [], 0
    after = np.zeros(flat, bool)
    for p in range(p_size):
        if not any_change[p]:  # every open rectangle goes on, and no cell is left
            continue
        held = owner >= 0
        broken = held & changed[p]
        if broken.any():
            ids = owner[broken]
            end[ids] = p
            dead[ids] = True
            covered = held & ~dead[owner]
        else:
            covered = held
        free = solid[p] & ~covered
        after[1:] = covered[:-1]
        starts = free & (new_run[p] | after)
        q0 = np.flatnonzero(starts)
        if not len(q0):
            owner = np.where(covered, owner, -1)
            continue
        number = np.cumsum(starts) + (count - 1)
        owner = np.where(covered, owner, np.where(free, number, -1))
        going = np.zeros(flat + 1, bool)
        going[:-1] = free & ~starts
        q1 = np.flatnonzero(free & ~going[1:]) + 1
        opened.append((np.full(len(q0), p), q0, q1, rows[p, q0]))
        count += len(q0)
    if not opened:
        return tuple(np.zeros(0, np.int64) for _ in range(5))
    p0, q0, q1, mat = (np.concatenate(column) for column in zip(*opened, strict=True))
    return p0, q0, end[:count], q1, mat.astype(np.int64)


def greedy_quads_numpy(blocks: np.ndarray, box: tuple[int, ...]) -> np.ndarray:
    """``int32[n, 8]`` rectangles of a (y, z, x) volume within ``box``, sorted by material and
    then as the compiled kernel emits them (see :func:`.greedy.greedy_quads`).

    >>> greedy_quads_numpy(np.ones((1, 1, 2), np.uint8), (0, 0, 0, 1, 1, 2))[:, :3].tolist()
    [[0, -1, 0], [0, 1, 2], [1, -1, 0], [1, 1, 1], [2, -1, 0], [2, 1, 1]]
    """
    return greedy_quads_numpy_many([(blocks, box)])[0]


def greedy_quads_numpy_many(jobs: list[tuple[np.ndarray, tuple[int, ...]]]) -> list[np.ndarray]:
    """:func:`greedy_quads_numpy` of each ``(blocks, box)``, swept together: the planes of every
    volume and axis with as many rows go side by side through one sweep (a chunked mesh's boxes
    cost one pass of the row loop, not one each).

    >>> one = np.ones((1, 1, 2), np.uint8)
    >>> [len(q) for q in greedy_quads_numpy_many([(one, (0, 0, 0, 1, 1, 2)), (one, (0, 0, 1, 1, 1, 2))])]
    [6, 5]
    """
    by_rows: dict[int, list] = {}  # planes with as many rows are swept together
    for job, (blocks, box) in enumerate(jobs):
        low, high = box[:3], box[3:]
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
            by_rows.setdefault(masks.shape[1], []).append((job, axis, masks))
    parts: list[dict] = [{} for _ in jobs]
    for p_size, group in by_rows.items():
        rows = np.concatenate([m.transpose(1, 0, 2).reshape(p_size, -1) for _, _, m in group], axis=1)
        row_start = np.concatenate([np.arange(m.shape[0] * m.shape[2]) % max(m.shape[2], 1) == 0
                                    for _, _, m in group])
        p0, q0, p1, q1, mat = _sweep(rows, row_start)
        # each plane's rectangles, by where they start in the row: one sort, not a scan per plane
        widths = [m.shape[0] * m.shape[2] for _, _, m in group]
        offsets = np.zeros(len(group) + 1, np.int64)
        np.cumsum(widths, out=offsets[1:])
        owner = np.searchsorted(offsets, q0, side="right") - 1
        by_owner = np.argsort(owner, kind="stable")
        p0, q0, p1, q1, mat = p0[by_owner], q0[by_owner], p1[by_owner], q1[by_owner], mat[by_owner]
        cuts = np.searchsorted(owner[by_owner], np.arange(len(group) + 1))
        bounds = zip(offsets[:-1].tolist(), cuts[:-1].tolist(), cuts[1:].tolist(), strict=True)
        for (job, axis, masks), (offset, lo, hi) in zip(group, bounds, strict=True):
            slices, _, q_size = masks.shape
            start, width = p0[lo:hi], q1[lo:hi] - q0[lo:hi]
            s, q = np.divmod(q0[lo:hi] - offset, max(q_size, 1))
            count = slices // 2
            sign = np.where(s < count, -1, 1)
            plane = s % max(count, 1) + (sign > 0)
            quads = np.column_stack([np.full(len(s), axis), sign, plane, start, q,
                                     p1[lo:hi], q + width, mat[lo:hi]])
            parts[job][axis] = quads[np.lexsort((q, start, s))]
    done = []
    for axes in parts:
        quads = np.concatenate([axes[0], axes[1], axes[2]])
        done.append(quads[np.argsort(quads[:, 7], kind="stable")].astype(np.int32))
    return done


def _lattice(quads, dims, cut, plane, along_b, along_c, total: int) -> np.ndarray:
    """Every box's lattice as :func:`.greedy._corner_lattice` makes it (the rectangles' corners,
    and every lattice point of an edge lying in a cut face of the box), flat and end to end:
    uint8 ``[total]``. Per rectangle: its box's ``dims`` (x, y, z) and ``cut`` (3, 2), and where
    its plane starts in the flat lattice and how far a step along b and c goes there."""
    lattice = np.zeros(total, np.uint8)
    a, k = quads[:, 0], quads[:, 2]
    rows = np.arange(len(quads))

    def on_cut(axis, value):
        return (value == 0) & cut[rows, axis, 0] | (value == dims[rows, axis]) & cut[rows, axis, 1]

    in_cut = on_cut(a, k)
    for edge in range(4):  # along b at c0 and c1, along c at b0 and b1
        b_edge = edge < 2
        fixed = quads[:, (4, 6, 3, 5)[edge]]
        lo = quads[:, 3 if b_edge else 4]
        hi = quads[:, 5 if b_edge else 6]
        moving, still = (along_b, along_c) if b_edge else (along_c, along_b)
        whole = in_cut | on_cut((a + (2 if b_edge else 1)) % 3, fixed)
        counts = np.where(whole, hi - lo + 1, 2)
        which = np.repeat(rows, counts)
        step = np.arange(len(which)) - np.repeat(np.cumsum(counts) - counts, counts)
        step = np.where(whole[which], step, step * (hi - lo)[which])
        lattice[(plane + fixed * still + lo * moving)[which] + step * moving[which]] = 1
    return lattice


def _edge_points(lattice, plane, along_b, along_c, split, b_from, c_from, db, dc, length):
    """The split points strictly inside each rectangle's edge from (b_from, c_from) in direction
    (db, dc) of ``length``: (rectangle, b, c) arrays, in order along the edge."""
    inner = np.maximum(length - 1, 0) if split else np.zeros(len(length), np.int64)
    which = np.repeat(np.arange(len(length)), inner)
    step = 1 + np.arange(len(which)) - np.repeat(np.cumsum(inner) - inner, inner)
    b = b_from[which] + step * db
    c = c_from[which] + step * dc
    keep = lattice[plane[which] + b * along_b[which] + c * along_c[which]] != 0
    return which[keep], b[keep], c[keep]


def triangulate_numpy(quads: np.ndarray, size: tuple[int, int, int], watertight: bool, cuts):
    """(vertices, normals, uv, faces, vertex_offsets, face_offsets) of the rectangles, as
    :func:`.greedy.triangulate` builds them. ``size`` is the box's (x, y, z) size."""
    return triangulate_numpy_many([(quads, size, cuts)], watertight)[0]


def triangulate_numpy_many(jobs: list, watertight: bool) -> list[tuple]:
    """:func:`triangulate_numpy` of each ``(quads, size, cuts)``, zipped together: every box's
    rectangles go through one pass (a chunked mesh's boxes cost one zipping loop, not one each).

    >>> bar = greedy_quads_numpy(np.ones((1, 1, 5), np.uint8), (0, 0, 0, 1, 1, 5))
    >>> [len(done[3]) for done in triangulate_numpy_many([(bar, (5, 1, 1), (False,) * 6)] * 2, True)]
    [12, 12]
    """
    lengths = [len(quads) for quads, _, _ in jobs]
    n = sum(lengths)
    q = np.concatenate([quads for quads, _, _ in jobs] + [np.zeros((0, 8), np.int32)]).astype(np.int64)
    box = np.repeat(np.arange(len(jobs)), lengths)
    sizes_xyz = np.array([size for _, size, _ in jobs], np.int64).reshape(-1, 3)
    dims = sizes_xyz[box]
    cut = np.array([cuts for _, _, cuts in jobs], bool).reshape(-1, 3, 2)[box]
    points = np.prod(sizes_xyz + 1, axis=1)
    a, sign, k, b0, c0, b1, c1 = (q[:, col] for col in range(7))
    # the flat lattice: each box an (X+1, Y+1, Z+1) array, end to end; a step along x, y, z
    strides = np.column_stack([(dims[:, 1] + 1) * (dims[:, 2] + 1), dims[:, 2] + 1, 0 * a + 1])
    rows = np.arange(n)
    plane = (np.cumsum(points) - points)[box] + k * strides[rows, a]
    along_b, along_c = strides[rows, (a + 1) % 3], strides[rows, (a + 2) % 3]
    if watertight and n:
        lattice = _lattice(q, dims, cut, plane, along_b, along_c, int(points.sum()))
    else:
        lattice = np.zeros(1, np.uint8)
    # polygon points in vertex order, by segment: BL, bottom, BR, right, TR, left, TL, top
    edge = (lattice, plane, along_b, along_c, watertight)
    segments = [
        (np.arange(n), b0, c0),
        _edge_points(*edge, b0, c0, 1, 0, b1 - b0),
        (np.arange(n), b1, c0),
        _edge_points(*edge, b1, c0, 0, 1, c1 - c0),
        (np.arange(n), b1, c1),
        _edge_points(*edge, b0, c0, 0, 1, c1 - c0),
        (np.arange(n), b0, c1),
        _edge_points(*edge, b0, c1, 1, 0, b1 - b0),
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
    done, first = [], 0
    for length in lengths:  # each box's share, its vertex indices counted from its own first
        v0, v1 = vertex_offsets[first], vertex_offsets[first + length]
        f0, f1 = face_offsets[first], face_offsets[first + length]
        done.append((vertices[v0:v1], normals[v0:v1], uv[v0:v1], faces[f0:f1] - np.uint32(v0),
                     vertex_offsets[first:first + length + 1] - v0,
                     face_offsets[first:first + length + 1] - f0))
        first += length
    return done


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
    # the two chains from start to stop, as vertex indices: forward (chain 1) and backward
    chain1, first1 = _walk(start, m1, 1, counts, vertex_offsets, n1)
    chain2, first2 = _walk(start, m2, -1, counts, vertex_offsets, n1)
    b1, c1, b2, c2 = pb[chain1], pc[chain1], pb[chain2], pc[chain2]
    f = face_offsets[:-1].copy()
    faces[f] = np.column_stack([chain1[first1], chain1[first1 + 1], chain2[first2 + 1]])
    f += 1
    i, j = first1 + 1, first2 + 1  # positions in the chains (flat)
    last1, last2 = first1 + m1, first2 + m2
    active = np.flatnonzero((i < last1 - 1) | (j < last2 - 1))
    while len(active):
        ia, ja = i[active], j[active]
        shorter = ((b1[ia + 1] - b2[ja]) ** 2 + (c1[ia + 1] - c2[ja]) ** 2
                   <= (b1[ia] - b2[ja + 1]) ** 2 + (c1[ia] - c2[ja + 1]) ** 2)
        ahead = (ja == last2[active] - 1) | ((ia != last1[active] - 1) & shorter)
        faces[f[active]] = np.column_stack([chain1[ia], np.where(ahead, chain1[ia + 1], chain2[ja + 1]),
                                            chain2[ja]])
        f[active] += 1
        i[active] = ia + ahead
        j[active] = ja + ~ahead
        active = active[(i[active] < last1[active] - 1) | (j[active] < last2[active] - 1)]
    faces[f] = np.column_stack([chain1[i], chain1[last1], chain2[j]])
    backward = np.repeat(sign < 0, counts - 2)  # clockwise in (b, c): seen from -axis
    faces[backward] = faces[backward][:, [0, 2, 1]]
    return faces


def _walk(start, steps, direction, counts, vertex_offsets, n1):
    """The vertex indices met walking each polygon's cycle from ``start`` for ``steps`` steps in
    ``direction`` (both ends included), laid end to end; and where each rectangle's walk begins."""
    lengths = steps + 1
    first = np.zeros(len(steps), np.int64)
    np.cumsum(lengths[:-1], out=first[1:])
    which = np.repeat(np.arange(len(steps)), lengths)
    t = np.arange(len(which)) - first[which]
    count, last = counts[which], n1[which]
    position = (start[which] + direction * t) % count
    # cycle position -> vertex: BL .. TR in vertex order, then chain2's points backwards
    return vertex_offsets[which] + np.where(position <= last, position, last + count - position), first


def collision_boxes_numpy(solid: np.ndarray) -> np.ndarray:
    """``int32[n, 6]`` boxes ``x0, y0, z0, x1, y1, z1`` as :func:`.greedy.collision_boxes` finds
    them: in each layer, from the bottom up, the cells no box below covers are cut into greedy
    rectangles (runs along x grown along z), and each rectangle is raised while the layers above
    are solid all over it.

    >>> collision_boxes_numpy(np.ones((2, 1, 3), bool)).tolist()
    [[0, 0, 0, 3, 2, 1]]
    """
    size_y, size_z, size_x = solid.shape
    # per layer, the solid cells summed over [0, z) x [0, x): a rectangle's count in four looks
    table = np.zeros((size_y, size_z + 1, size_x + 1), np.int64)
    table[:, 1:, 1:] = solid.cumsum(axis=1).cumsum(axis=2)
    # the boxes' cells as 2-D differences, added at the layer above their first, taken off above
    # their last: summed up to a layer and then over z and x, they count the boxes over each cell
    starts = np.zeros((size_y + 1, size_z + 1, size_x + 1), np.int64)
    running = np.zeros((size_z + 1, size_x + 1), np.int64)
    row_start = np.arange(size_x) == 0
    boxes = [np.zeros((0, 6), np.int64)]
    for y in range(size_y):
        running += starts[y]
        free = solid[y] & (running.cumsum(axis=0).cumsum(axis=1)[:size_z, :size_x] == 0)
        if not free.any():
            continue
        z0, x0, z1, x1, _ = _sweep(free.view(np.uint8), row_start)
        area = (z1 - z0) * (x1 - x0)
        top = np.full(len(z0), y + 1)
        rising = np.arange(len(z0))
        while len(rising):  # raise while the next layer is solid all over the rectangle
            r, level = rising, np.minimum(top[rising], size_y - 1)
            inside = (table[level, z1[r], x1[r]] - table[level, z0[r], x1[r]]
                      - table[level, z1[r], x0[r]] + table[level, z0[r], x0[r]])
            rising = r[(top[r] < size_y) & (inside == area[r])]
            top[rising] += 1
        for z, x, change in ((z0, x0, 1), (z0, x1, -1), (z1, x0, -1), (z1, x1, 1)):
            np.add.at(starts, (y + 1, z, x), change)
            np.add.at(starts, (top, z, x), -change)
        boxes.append(np.column_stack([x0, np.full(len(z0), y), z0, x1, top, z1]))
    return np.concatenate(boxes).astype(np.int32)
