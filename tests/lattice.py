"""Grids of other topologies, built independently of blockmaze's grid modules, for tests.

A lattice grid has a cell at every integer point of a box and a direction for every offset vector
(offsets come in +/- pairs, so each direction has an opposite). With ``wrap`` the box is a torus.
"""

import itertools

import numpy as np

from blockmaze.grids import Grid

HEX_OFFSETS = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, -1), (-1, 1)]  # axial coordinates
CUBE_OFFSETS = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)]
SQUARE_OFFSETS = [(-1, 0), (0, 1), (1, 0), (0, -1)]


def lattice_grid(shape, offsets, wrap=False, enabled=None, kind="lattice"):
    """A Grid over the points of ``shape`` linked by ``offsets``."""
    shape = tuple(shape)
    offsets = [tuple(o) for o in offsets]
    opposite = np.array([offsets.index(tuple(-v for v in o)) for o in offsets], dtype=np.int64)
    points = list(itertools.product(*(range(s) for s in shape)))
    index = {p: i for i, p in enumerate(points)}
    neighbors = np.full((len(points), len(offsets)), -1, dtype=np.int32)
    for i, p in enumerate(points):
        for d, o in enumerate(offsets):
            q = tuple(a + b for a, b in zip(p, o, strict=True))
            if wrap:
                q = tuple(a % s for a, s in zip(q, shape, strict=True))
            if q in index and q != p:
                neighbors[i, d] = index[q]
    enabled = np.ones(len(points), bool) if enabled is None else np.asarray(enabled, bool).ravel()
    neighbors[~enabled] = -1
    neighbors[(neighbors >= 0) & ~enabled[np.maximum(neighbors, 0)]] = -1
    names = tuple(f"d{d}" for d in range(len(offsets)))
    return Grid(kind, shape, neighbors, opposite, names, enabled)
