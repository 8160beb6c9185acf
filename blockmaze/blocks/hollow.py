"""Hollow walls: wall blocks buried in solid blocks taken out, in pockets no mob can spawn in.

A WALL block whose six neighbours are all solid (wall, floor or roof; outside the volume counts
as open) can go without changing what a player sees or walks on. Left as air, though, a pocket
two blocks tall in the dark spawns zombies inside the walls. The pockets made here are kept too
low and too narrow for any mob:

- **one block tall**: a buried block is taken out only if the block under it stays (up each
  column, every other buried block of a run). In Java Edition every mob that spawns on the
  ground needs the block it spawns in *and the one above it* free of full blocks, whatever its
  size (https://bugs.mojang.com/browse/MC-113981; https://minecraft.wiki/w/Spawn), so a pocket
  with solid above each of its blocks spawns none, at any light level, slimes included;
- **no 2x2 room in a layer**: the top-left block (least z, least x) of every 2x2 square of
  pockets stays, so a spider (1.4 blocks wide, 0.9 tall: https://minecraft.wiki/w/Spider),
  which Bedrock Edition places by its hitbox, never fits either.

Light is not used: slimes spawn in slime chunks below y 40 at any light level
(https://minecraft.wiki/w/Slime), and ``minecraft:light`` (https://minecraft.wiki/w/Light) only
exists from 1.17. Every rule looks at most one block down the z axis and two up it, so a maze
written in bands of z rows (:func:`hollow_bands`) hollows exactly as the whole volume does.

>>> import numpy as np
>>> wall = np.ones((4, 3, 3), np.uint8)     # a 3x3 pillar on nothing: its core column
>>> wall[0] = 2                              # on a floor, its top open to the sky
>>> hollow(wall)[:, 1, 1].tolist()           # (layer 1 out, layer 2 stays, layer 3 is the top)
[2, 0, 1, 1]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import numpy as np

from ..materials import SOLID, Material

BEHIND, AHEAD = 1, 2  # z rows of context a band needs before and after it


def buried(volume: np.ndarray) -> np.ndarray:
    """Where ``volume`` (y, z, x) has a WALL block with all six neighbours solid (outside the
    volume is not solid).

    >>> int(buried(np.ones((3, 3, 3), np.uint8)).sum())
    1
    """
    solid = np.pad(SOLID[volume], 1, constant_values=False)
    inside = (slice(1, -1),) * 3
    mask = volume == Material.WALL
    for axis in range(3):
        for step in (-1, 1):
            near = list(inside)
            near[axis] = slice(1 + step, solid.shape[axis] - 1 + step)
            mask &= solid[tuple(near)]
    return mask


def pockets(volume: np.ndarray) -> np.ndarray:
    """The blocks :func:`hollow` takes out of ``volume``: buried blocks, one layer tall up each
    column, less the top-left block of every 2x2 square of them in a layer.

    >>> pockets(np.ones((4, 3, 3), np.uint8))[:, 1, 1].tolist()
    [False, True, False, False]
    """
    mask = buried(volume)
    for y in range(1, mask.shape[0]):  # a block under a pocket stays
        mask[y] &= ~mask[y - 1]
    square = mask[:, :-1, :-1] & mask[:, 1:, :-1] & mask[:, :-1, 1:] & mask[:, 1:, 1:]
    mask[:, :-1, :-1] &= ~square
    return mask


def hollow(volume: np.ndarray) -> np.ndarray:
    """``volume`` with its :func:`pockets` made air (a new array).

    >>> int(hollow(np.ones((3, 3, 3), np.uint8)).sum())
    26
    """
    out = volume.copy()
    out[pockets(volume)] = Material.AIR
    return out


def hollow_bands(bands: Iterable[np.ndarray]) -> Iterator[np.ndarray]:
    """Bands of z rows (y, z, x) of one volume, hollowed exactly as :func:`hollow` hollows the
    whole: each band is held until the next rows it needs have come.

    >>> volume = np.ones((4, 9, 5), np.uint8)
    >>> banded = np.concatenate(list(hollow_bands([volume[:, :4], volume[:, 4:5], volume[:, 5:]])), 1)
    >>> bool((banded == hollow(volume)).all())
    True
    """
    pending: list[np.ndarray] = []
    behind = None  # the last rows of the band before
    for band in bands:
        pending.append(band)
        while len(pending) > 1 and sum(b.shape[1] for b in pending[1:]) >= AHEAD:
            behind = yield from _emit(pending, behind)
    while pending:
        behind = yield from _emit(pending, behind)


def _emit(pending: list[np.ndarray], behind: np.ndarray | None):
    band = pending.pop(0)
    ahead = np.concatenate(pending, axis=1)[:, :AHEAD] if pending else band[:, :0]
    before = band[:, :0] if behind is None else behind
    context = np.concatenate([before, band, ahead], axis=1)
    start = before.shape[1]
    yield hollow(context)[:, start:start + band.shape[1]]
    return band[:, -BEHIND:]
