"""A tube's solid from a height field in cylindrical coordinates, as a closed manifold mesh.

``radii[i, j]`` is the outer radius of pixel (row i, column j): row i spans z from
``z_edges[i]`` to ``z_edges[i + 1]`` (row 0 at ``z_edges[0]``: the top when the edges fall, as
the puzzle box gives them; rising edges work as well), column j spans the angle
``theta_edges[j]`` .. ``theta_edges[j + 1]`` (``cols + 1`` values rising by 2π in all, the
last column meeting the first). The solid is every point between the ``bore`` (0: solid to the
axis) and its pixel's radius. Millimetres, Z up, the axis along Z through the origin.

The solid is cut into shells between consecutive distinct radii (the bore's and the pixels'),
a pixel filling the shells up to its own radius: the mesh is the boundary of those cells, each
face a quad between lattice points ``(radius level, z edge, angle step)`` split into two
triangles, so every vertex at a pixel corner is indexed by the corner and its radius and no
edge has a point of another face in its middle. Each column is cut into as many angle steps as
keep every chord within :data:`CHORD` of its arc at the largest radius. A pixel corner whose
two diagonal pixels rise above the other two (a checkerboard: the solid would touch itself
along an edge) is refused; a corner of a 2n+1 plan (a post, the highest, opposite a cell, the
lowest) never is one.

>>> import numpy as np
>>> points, triangles = tube_mesh(np.full((1, 1), 10.0), np.array([5.0, 0.0]),
...                               np.array([0.0, 2 * np.pi]), bore=8.0)
>>> points.shape[1], triangles.dtype.name, len(triangles) % 2
(3, 'int64', 0)
"""

from __future__ import annotations

import numpy as np

from ...errors import BlockmazeError

CHORD = 0.01  # mm: the most a chord may be inside its arc


def _steps(theta_edges: np.ndarray, radius: float) -> np.ndarray:
    """Angle steps per column keeping the chords at ``radius`` within :data:`CHORD` of the arc.

    >>> _steps(np.array([0.0, np.pi, 2 * np.pi]), 1.0).tolist()
    [12, 12]
    """
    most = 2 * np.arccos(max(1 - CHORD / radius, -1.0))  # the widest step within CHORD
    return np.maximum(np.ceil(np.diff(theta_edges) / most - 1e-9), 1).astype(np.int64)


def _check(radii, z_edges, theta_edges, bore):
    radii = np.asarray(radii, np.float64)
    z_edges = np.asarray(z_edges, np.float64)
    theta_edges = np.asarray(theta_edges, np.float64)
    if radii.ndim != 2 or radii.size == 0:
        raise BlockmazeError(f"radii must be a non-empty 2-D array, got shape {radii.shape}")
    rows, cols = radii.shape
    if z_edges.shape != (rows + 1,) or theta_edges.shape != (cols + 1,):
        raise BlockmazeError(f"z_edges and theta_edges must have {rows + 1} and {cols + 1} "
                             f"values for radii of {rows}x{cols}, got {z_edges.size} and "
                             f"{theta_edges.size}")
    dz = np.diff(z_edges)
    if not (np.isfinite(z_edges).all() and ((dz > 0).all() or (dz < 0).all())):
        raise BlockmazeError("z_edges must be finite and strictly rising or strictly falling")
    if not (np.isfinite(theta_edges).all() and (np.diff(theta_edges) > 0).all()
            and abs(theta_edges[-1] - theta_edges[0] - 2 * np.pi) < 1e-9):
        raise BlockmazeError("theta_edges must rise strictly by 2π in all (the last column "
                             "meets the first)")
    bore = float(bore)
    if not (np.isfinite(bore) and bore >= 0):
        raise BlockmazeError(f"bore must be a radius >= 0 (0: solid to the axis), got {bore}")
    if not (np.isfinite(radii).all() and (radii > bore).all()):
        raise BlockmazeError(f"every radius must be finite and more than the bore ({bore}), "
                             f"got {radii.min()}")
    return radii, z_edges, theta_edges, bore


def checkerboard(levels: np.ndarray) -> tuple[int, int] | None:
    """The first pixel corner ``(z edge, column edge)`` whose diagonal pixels both rise above
    both others (the solid would touch itself along an edge there), or None.

    >>> checkerboard(np.array([[2, 1], [1, 2]])), checkerboard(np.array([[2, 1], [1, 1]]))
    ((1, 0), None)
    """
    a, b = levels[:-1], np.roll(levels, 1, axis=1)[:-1]  # (i-1, j), (i-1, j-1) for corner (i, j)
    c, d = levels[1:], np.roll(levels, 1, axis=1)[1:]  # (i, j), (i, j-1)
    bad = (np.minimum(a, d) > np.maximum(b, c)) | (np.minimum(b, c) > np.maximum(a, d))
    if not bad.any():
        return None
    i, j = np.argwhere(bad)[0]
    return int(i) + 1, int(j)


def tube_mesh(radii: np.ndarray, z_edges: np.ndarray, theta_edges: np.ndarray,
              bore: float) -> tuple[np.ndarray, np.ndarray]:
    """The closed solid of the height field ``radii`` (see the module notes): points float64
    ``(v, 3)`` and triangles int64 ``(t, 3)``, counter-clockwise seen from outside.

    >>> import numpy as np
    >>> points, triangles = tube_mesh(np.array([[3.0, 4.0]]), [1.0, 0.0], [0, np.pi, 2 * np.pi], 0)
    >>> bool(np.isclose(np.hypot(points[:, 0], points[:, 1]).max(), 4.0))
    True
    """
    radii, z_edges, theta_edges, bore = _check(radii, z_edges, theta_edges, bore)
    rows, cols = radii.shape
    values = np.unique(np.concatenate([[bore], radii.ravel()]))
    level = np.asarray(np.searchsorted(values, radii))  # 1.. per pixel: its shells are 0 .. level - 1
    corner = checkerboard(level)
    if corner is not None:
        raise BlockmazeError(f"radii touch themselves at pixel corner {corner}: its diagonal "
                             "pixels both rise above the other two (a checkerboard); refused")
    steps = _steps(theta_edges, values[-1])
    first = np.concatenate([[0], np.cumsum(steps)])  # each column's first angle step
    total = int(first[-1])
    column_of = np.repeat(np.arange(cols), steps)
    angle = theta_edges[column_of] + (np.arange(total) - first[column_of]) / steps[column_of] \
        * np.diff(theta_edges)[column_of]
    z_count, levels = rows + 1, len(values)

    def vertex(s, i, t):
        return (np.asarray(s) * z_count + i) * total + np.asarray(t) % total

    quads, outward = [], []  # quads of vertex ids, and a direction out of the solid for each

    def add(q, out):
        quads.append(np.stack(np.broadcast_arrays(*q), axis=-1).reshape(-1, 4))
        outward.append(np.broadcast_to(out, q[0].shape + (3,)).reshape(-1, 3))

    i_of, t_of = np.meshgrid(np.arange(rows), np.arange(total), indexing="ij")
    j_of = column_of[t_of]
    mid = angle[t_of] + np.diff(theta_edges)[j_of] / steps[j_of] / 2  # each step's middle
    radial = np.stack([np.cos(mid), np.sin(mid), np.zeros_like(mid)], axis=-1)
    # the outer surface of each pixel and the bore
    top = level[i_of, j_of]
    add((vertex(top, i_of, t_of), vertex(top, i_of, t_of + 1), vertex(top, i_of + 1, t_of + 1),
         vertex(top, i_of + 1, t_of)), radial)
    if bore > 0:
        add((vertex(0, i_of, t_of), vertex(0, i_of, t_of + 1), vertex(0, i_of + 1, t_of + 1),
             vertex(0, i_of + 1, t_of)), -radial)
    # walls at constant angle, between columns j - 1 and j
    left, right = np.roll(level, 1, axis=1), level
    for s in range(levels - 1):
        i, j = np.nonzero((np.minimum(left, right) <= s) & (np.maximum(left, right) > s))
        t = first[j]
        tangent = np.stack([-np.sin(theta_edges[j]), np.cos(theta_edges[j]), 0 * t], axis=-1)
        sign = np.where(left[i, j] > s, 1.0, -1.0)[:, None]  # out of the solid, into the lower side
        add((vertex(s, i, t), vertex(s + 1, i, t), vertex(s + 1, i + 1, t), vertex(s, i + 1, t)),
            tangent * sign)
    # walls at constant z, between rows i - 1 and i (outside the rows: nothing, level 0)
    padded = np.concatenate([np.zeros((1, cols), level.dtype), level,
                             np.zeros((1, cols), level.dtype)])
    up = np.sign(z_edges[-1] - z_edges[0])  # the direction of rising row numbers in z
    for s in range(levels - 1):
        above, below = padded[:-1], padded[1:]  # rows i - 1 and i of edge i
        i, j = np.nonzero((np.minimum(above, below) <= s) & (np.maximum(above, below) > s))
        counts = steps[j]  # each face cut into its column's angle steps
        t = np.arange(counts.sum()) + np.repeat(first[j] - (np.cumsum(counts) - counts), counts)
        i, j = np.repeat(i, counts), np.repeat(j, counts)
        sign = np.where(padded[i, j] > s, up, -up)  # solid in row i - 1: out towards row i
        out = np.zeros((len(t), 3))
        out[:, 2] = sign
        add((vertex(s, i, t), vertex(s, i, t + 1), vertex(s + 1, i, t + 1), vertex(s + 1, i, t)),
            out)
    ids = np.concatenate(quads)
    ways = np.concatenate(outward)
    # positions of every lattice point, then only those used
    shell, rest = np.divmod(np.arange(levels * z_count * total), z_count * total)
    edge, step = np.divmod(rest, total)
    r = values[shell]
    points = np.column_stack([r * np.cos(angle[step]), r * np.sin(angle[step]), z_edges[edge]])
    if bore == 0:  # the axis: one point per z edge
        ids = np.where(ids < z_count * total, (ids // total) * total, ids)
    triangles = np.concatenate([ids[:, [0, 1, 2]], ids[:, [0, 2, 3]]])
    facing = np.concatenate([ways, ways])
    corners = points[triangles]
    normal = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    flip = (normal * facing).sum(axis=1) < 0
    triangles[flip] = triangles[flip][:, ::-1]
    keep = ((triangles[:, 0] != triangles[:, 1]) & (triangles[:, 1] != triangles[:, 2])
            & (triangles[:, 0] != triangles[:, 2]))
    triangles = triangles[keep]
    used, triangles = np.unique(triangles, return_inverse=True)
    return points[used], triangles.reshape(-1, 3).astype(np.int64)
