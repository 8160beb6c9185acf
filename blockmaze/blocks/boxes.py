"""One box cover: the disjoint boxes of equal values that cover a (y, z, x) volume, for the
datapack's ``/fill`` commands and the glTF collision node.

>>> box_cover(np.array([[[1, 1, 0]]], np.int32), 0, 8).tolist()
[[0, 0, 0, 0, 0, 1, 1]]
"""

from __future__ import annotations

import numpy as np

from ..support.kernels import kernel


@kernel
def box_cover(values: np.ndarray, skip: int, max_volume: int) -> np.ndarray:
    """Disjoint boxes of equal values covering every cell whose value is not ``skip``.

    Scans y, then z, then x; from each cell not yet covered it grows a box along x, then z, then
    y while the box stays uniform and at most ``max_volume`` cells. Returns ``int32[n, 7]`` rows
    ``(y0, z0, x0, y1, z1, x1, value)`` with inclusive ends, in scan order (y0 ascending).
    """
    height, length, width = values.shape
    done = np.zeros(values.shape, dtype=np.bool_)
    out = np.empty((1024, 7), dtype=np.int32)
    n = 0
    for y in range(height):
        for z in range(length):
            for x in range(width):
                if done[y, z, x]:
                    continue
                v = values[y, z, x]
                if v == skip:
                    continue
                x1 = x
                while x1 + 1 < width and x1 + 2 - x <= max_volume and not done[y, z, x1 + 1] \
                        and values[y, z, x1 + 1] == v:
                    x1 += 1
                dx = x1 - x + 1
                z1 = z
                while z1 + 1 < length and dx * (z1 + 2 - z) <= max_volume:
                    ok = True
                    for xx in range(x, x1 + 1):
                        if done[y, z1 + 1, xx] or values[y, z1 + 1, xx] != v:
                            ok = False
                            break
                    if not ok:
                        break
                    z1 += 1
                dz = z1 - z + 1
                y1 = y
                while y1 + 1 < height and dx * dz * (y1 + 2 - y) <= max_volume:
                    ok = True
                    for zz in range(z, z1 + 1):
                        for xx in range(x, x1 + 1):
                            if done[y1 + 1, zz, xx] or values[y1 + 1, zz, xx] != v:
                                ok = False
                                break
                        if not ok:
                            break
                    if not ok:
                        break
                    y1 += 1
                done[y:y1 + 1, z:z1 + 1, x:x1 + 1] = True
                if n == out.shape[0]:
                    bigger = np.empty((2 * n, 7), dtype=np.int32)
                    bigger[:n] = out[:n]
                    out = bigger
                out[n, 0] = y
                out[n, 1] = z
                out[n, 2] = x
                out[n, 3] = y1
                out[n, 4] = z1
                out[n, 5] = x1
                out[n, 6] = v
                n += 1
    return out[:n].copy()
