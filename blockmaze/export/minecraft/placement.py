"""Where the player stands when a maze is placed: outside it, on its floor level, facing in.

Every Minecraft format places a volume relative to the player (WorldEdit, Litematica, the
datapack) or to a position the player types (structure blocks, ``/place template``,
``/structure load``). blockmaze chooses that position so the player who places the maze stands
*outside* it, in front of its entrance, on the level of its floor, facing in:

* the **walking layer** is the bottom layer if it has open blocks (no floor: the maze stands on
  the ground), else the first layer with an open block standing on a block (the bottom level's
  walking layer over its floor);
* the **entrance** is an open block (air or a door) of the walking layer on the volume's outer
  edge: the one nearest the START marker if there is one, else the first found going around the
  north, west, south, then east edge; the player stands on the block just outside it;
* **no entrance** (an enclosed maze): the player stands outside the edge nearest the START marker
  (or, without one, the first open block of the walking layer), in line with it.

:func:`player_spot` returns the player's feet block relative to the volume's min corner (its
north-west bottom block), so the min corner goes at ``player - spot``. Each writer turns that
into its own field (WorldEdit ``WEOffset``/``Offset``, Litematica's region ``Position``, the
datapack's relative coordinates); :func:`placement_hint` says what to type for structure blocks.

Example
-------
>>> import numpy as np
>>> v = np.zeros((3, 3, 3), np.uint8)
>>> v[0], v[1:, :, 0], v[1:, :, 2], v[1:, 2, 1] = 2, 1, 1, 1    # walls but a gap in the north side
>>> player_spot(v)
Spot(y=1, z=-1, x=1, facing='south')
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...materials import Material
from .versions import DEFAULT_MC_VERSION

YAW = {"south": 0, "west": 90, "north": 180, "east": -90}  # Minecraft's yaw of a facing


class Spot(NamedTuple):
    """The player's feet block (y, z, x) relative to the volume's min corner, and the way in."""

    y: int
    z: int
    x: int
    facing: str

    @property
    def offset(self) -> tuple[int, int, int]:
        """(x, y, z) of the volume's min corner relative to the player's block.

        >>> Spot(1, -1, 4, "south").offset
        (-4, -1, 1)
        """
        return -self.x, -self.y, -self.z


def walking_layer(volume: np.ndarray) -> int:
    """The layer the player walks in at the bottom of the volume (see the module docstring).

    >>> walking_layer(np.array([[[2, 2]], [[1, 0]]], np.uint8)), walking_layer(np.zeros((2, 1, 2), np.uint8))
    (1, 0)
    """
    volume = np.asarray(volume)
    if (volume[0] == Material.AIR).any() or volume.shape[0] == 1:
        return 0
    for y in range(1, volume.shape[0]):  # layer by layer: the first one usually answers
        if ((volume[y] == Material.AIR) & (volume[y - 1] != Material.AIR)).any():
            return y
    return 0


def first_of(volume: np.ndarray, value: int, chunk: int = 1 << 16) -> int | None:
    """The flat index of the first block holding ``value`` (None if none does), found a chunk at
    a time: no whole-volume temporary, and it stops at the chunk that has it.

    >>> first_of(np.array([[0, 3], [3, 0]]), 3), first_of(np.zeros(3), 1)
    (1, None)
    """
    flat = volume.reshape(-1)
    for at in range(0, flat.size, chunk):
        found = flat[at:at + chunk] == value
        if found.any():
            return at + int(np.argmax(found))
    return None


def player_spot(volume: np.ndarray, length: int | None = None) -> Spot:
    """Where the player stands when the volume is placed (see the module docstring).

    ``length``: the whole volume's z size when ``volume`` is only its first rows (a streamed
    maze's first band); its far (south) edge is then ``length`` away, not the band's end.
    """
    volume = np.asarray(volume)
    _, band, width = volume.shape
    depth = band if length is None else length
    y = walking_layer(volume)
    layer = volume[y]
    open_ = (layer == Material.AIR) | (layer == Material.DOOR)
    has_start = volume.size and volume.min() <= Material.START <= volume.max()  # else no search
    first = first_of(volume, Material.START) if has_start else None  # in (y, z, x) order
    target = None if first is None else tuple(int(v) for v in np.unravel_index(first, volume.shape)[1:])
    # (z, x) of the edge block, the player's (z, x) outside it, and the way in
    edges = [((0, x), (-1, x), "south") for x in range(width)]
    edges += [((z, 0), (z, -1), "east") for z in range(band)]
    edges += [((depth - 1, x), (depth, x), "north") for x in range(width) if depth == band]
    edges += [((z, width - 1), (z, width), "west") for z in range(band)]
    gates = [(inside, outside, facing) for inside, outside, facing in edges if open_[inside]]
    if gates:
        if target is not None:
            tz, tx = target
            gates.sort(key=lambda g: abs(g[0][0] - tz) + abs(g[0][1] - tx))
        _, (z, x), facing = gates[0]
        return Spot(y, z, x, facing)
    if target is None:
        inner = first_of(open_, True)
        target = (0, 0) if inner is None else tuple(int(v) for v in np.unravel_index(inner, open_.shape))
    tz, tx = target
    sides = [(tz, (-1, tx), "south"), (tx, (tz, -1), "east"),
             (depth - 1 - tz, (depth, tx), "north"), (width - 1 - tx, (tz, width), "west")]
    _, (z, x), facing = min(sides, key=lambda s: s[0])
    return Spot(y, z, x, facing)


def placement_hint(volume: np.ndarray, format_name: str, name: str = "maze",
                   release: str | None = None) -> str | None:
    """What to type to place the volume with the player outside it, for formats that do not store
    where the player stands (structure ``.nbt``, Bedrock ``.mcstructure``), and how to run a
    datapack (made for one release: ``release``, the one ``--mc-version`` named, where known);
    None for the others.

    ``name`` is the structure's name: a ``.nbt`` in ``<world>/generated/minecraft/structures/`` is
    ``minecraft:<name>``; a ``.mcstructure`` in a behaviour pack's ``structures/blockmaze/`` is
    ``blockmaze:<name>``.

    >>> v = np.zeros((3, 3, 3), np.uint8)
    >>> v[0], v[1:, :, 0], v[1:, :, 2], v[1:, 2, 1] = 2, 1, 1, 1
    >>> print(placement_hint(v, "structure"))
    stand where the way in should be, facing south (into the maze), and run /place template
    minecraft:maze ~-1 ~-1 ~1 (1.19+), or put a structure block under your feet with Relative
    Position -1, 0, 1
    >>> print(placement_hint(v, "datapack", release="1.21.4"))
    put the .zip in <world>/datapacks/ and run /reload, stand where the way in should be and run
    /function blockmaze:build; the pack is for Minecraft 1.21.4 (--mc-version): give the release
    your world runs, as 1.21 moved the functions' folder
    """
    if format_name == "datapack":  # the pack turns the player and builds in front of them
        made = f"for Minecraft {release}" if release else "for the release --mc-version names"
        return ("put the .zip in <world>/datapacks/ and run /reload, stand where the way in should "
                f"be and run /function blockmaze:build; the pack is {made}"
                f"{' (--mc-version)' if release else f' (default {DEFAULT_MC_VERSION})'}: give the "
                "release your world runs, as 1.21 moved the functions' folder")
    if format_name not in ("structure", "mcstructure", "mcpack"):
        return None  # the file says where the player stands: no need to find the spot again
    spot = player_spot(volume)
    dx, dy, dz = spot.offset
    where = f"stand where the way in should be, facing {spot.facing} (into the maze), and run"
    if format_name == "structure":
        return (f"{where} /place template minecraft:{name} ~{dx} ~{dy} ~{dz} (1.19+), or put a "
                f"structure block under your feet with Relative Position {dx}, {dy + 1}, {dz}")
    if format_name == "mcstructure":
        return f"{where} /structure load blockmaze:{name} ~{dx} ~{dy} ~{dz}"
    if format_name == "mcpack":  # the pack's function holds the offset
        return ("open the pack, turn it on in a world with cheats, stand where the way in should be "
                "and run /function blockmaze/build")
    return None
