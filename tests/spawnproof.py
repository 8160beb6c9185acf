"""A checker for hollow walls: the mob spawning spots a build's enclosed air leaves.

Written from the game's rules, not from blockmaze's code (see docs/minecraft.md, "Hollow walls"):
a mob spawning on the ground stands on a block with a top (any block counts here, to be safe)
and in an air block; in Java Edition the block above it must be free too, whatever the mob's
size (MC-113981); a spider, 1.4 blocks wide and 0.9 tall, needs a 2x2 square of air around the
block it stands in. Only the pockets are looked at: air that no path through air joins to the
outside or to the air the build had before its walls were hollowed (the passages are the
player's, lit or not as the user chose).
"""

from __future__ import annotations

import numpy as np
from scipy import ndimage


def enclosed(volume: np.ndarray, before: np.ndarray) -> np.ndarray:
    """Air blocks of a (y, z, x) volume that no path through air joins to the outside or to the
    air of ``before`` (the same build, not hollowed)."""
    air = np.pad(volume == 0, 1, constant_values=True)
    labels, _ = ndimage.label(air, structure=ndimage.generate_binary_structure(3, 1))
    open_ = np.pad(before == 0, 1, constant_values=True)
    joined = np.unique(labels[open_ & air])
    return (air & ~np.isin(labels, joined))[1:-1, 1:-1, 1:-1]


def spawn_spots(volume: np.ndarray, before: np.ndarray) -> list[tuple[int, int, int, str]]:
    """(y, z, x, why) for every pocket block (see :func:`enclosed`) a mob could spawn in:
    ``"two tall"`` (the block above is air too: Java's rule, and room for a zombie) or
    ``"spider"`` (a 2x2 square of air in its layer)."""
    pocket = enclosed(volume, before)
    height, length, width = volume.shape
    spots = []
    for y, z, x in zip(*np.nonzero(pocket), strict=True):
        if y == 0 or volume[y - 1, z, x] == 0:
            continue  # nothing to stand on
        if y + 1 < height and volume[y + 1, z, x] == 0:
            spots.append((int(y), int(z), int(x), "two tall"))
            continue
        for dz in (-1, 0):
            for dx in (-1, 0):
                z0, x0 = z + dz, x + dx
                if 0 <= z0 < length - 1 and 0 <= x0 < width - 1 \
                        and (volume[y, z0:z0 + 2, x0:x0 + 2] == 0).all():
                    spots.append((int(y), int(z), int(x), "spider"))
    return spots
