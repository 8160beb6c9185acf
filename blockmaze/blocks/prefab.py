"""A user's structure (a prefab) inside a square maze: its footprint left out of the maze, a door
into it, its own blocks written where it stands.

A :class:`Prefab` is the block states a prefab file holds, (y, z, x) indices into its palette
(:func:`blockmaze.readers.prefab.read_prefab` reads one). :func:`place_prefab` lays it on a
rows x cols maze: the cells its footprint covers (with the maze's walls and passages) are masked
out, so the maze carved over the rest is a spanning tree of the cells left; :meth:`Placement.carve`
then clears the footprint to a floored room in the maze's plan and opens one door into it, and
:meth:`Placement.stamp` writes the prefab's blocks into the room, standing on the floor. A
prefab's states become materials of their own, ``PREFAB_MATERIAL`` and up, which
:meth:`Placement.themed` adds to the run's theme: only writers that write each material as the
Java block state its theme names take them.

Where (``place``): ``center``, the footprint in the middle of the maze; ``goal``, in the corner
of the last row and column, with the goal at its door and the start the cell farthest from it;
``dead-ends``, a prefab that fits in a cell, a copy in every dead end but the start and goal
(the maze carved whole: its cells stay; :meth:`Placement.resolved`).

The door is chosen from the walls between a footprint cell and a cell outside it: the one whose
opening lines up with an opening of the prefab's own on that edge (two air blocks at its foot),
else the one nearest the middle of the footprint's side, and then the prefab's blocks facing it
are cut to air, two blocks high, so the door leads in.

Example
-------
>>> prefab = Prefab(np.ones((2, 3, 3), np.uint16), ("minecraft:air", "minecraft:gold_block"))
>>> placed = place_prefab(prefab, (7, 7))
>>> placed.cells, int(placed.mask((7, 7)).sum())
((2, 2, 2, 2), 45)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ..errors import BadFileError, BlockmazeError
from ..grids.square import EAST, NORTH, SOUTH, WEST
from ..materials import Material, Theme
from .convert import Thickness, per_axis

PREFAB_MATERIAL = max(Material) + 1  # the first material a prefab's states take (after Material's own)
MAX_PREFAB_STATES = 256 - PREFAB_MATERIAL  # a volume holds uint8 materials
AIR_STATES = frozenset({"minecraft:air", "minecraft:cave_air", "minecraft:void_air",
                        "minecraft:structure_void"})
PLACES = ("center", "goal", "dead-ends")  # in a maze; a dungeon's: "rooms" (room_vaults)
STEP = {NORTH: (-1, 0), EAST: (0, 1), SOUTH: (1, 0), WEST: (0, -1)}


@dataclass(frozen=True, eq=False)
class Prefab:
    """A structure's blocks: ``states`` (y, z, x) indexing ``palette`` (Java block states);
    ``name``: what messages call it (its file's name)."""

    states: np.ndarray
    palette: tuple[str, ...]
    name: str = "prefab"

    @property
    def shape(self) -> tuple[int, int, int]:
        y, z, x = self.states.shape
        return int(y), int(z), int(x)

    def materials(self) -> tuple[np.ndarray, dict[int, str]]:
        """The prefab as a uint8 volume of materials, air as AIR and every other state used a
        material of its own from ``PREFAB_MATERIAL``, and those materials' states.

        >>> volume, states = Prefab(np.array([[[0, 1, 1]]]), ("minecraft:air", "minecraft:stone")).materials()
        >>> volume.tolist(), states
        ([[[0, 15, 15]]], {15: 'minecraft:stone'})
        """
        used = np.unique(self.states)
        table = np.zeros(len(self.palette), np.uint8)
        states: dict[int, str] = {}
        for index in used.tolist():
            state = self.palette[index]
            if state in AIR_STATES:
                continue
            if len(states) == MAX_PREFAB_STATES:
                raise BadFileError(f"{self.name}: more than {MAX_PREFAB_STATES} block states, the "
                                   "most a prefab may use")
            table[index] = PREFAB_MATERIAL + len(states)
            states[int(table[index])] = state
        return table[self.states], states


@dataclass(frozen=True, eq=False)
class Placement:
    """Where a prefab goes in a maze (see the module docstring): ``cells`` its footprint
    ``(row, col, rows, cols)``; ``door`` ``(outside cell, footprint cell, direction from
    outside)``, cells numbered row by row; ``cut``: the prefab's blocks to cut open for it."""

    prefab: Prefab
    place: str
    shape: tuple[int, int]
    cells: tuple[int, int, int, int]
    door: tuple[int, int, int]
    wall: tuple[int, int]
    passage: tuple[int, int]
    cut: bool
    spots: tuple[tuple[int, int], ...] = ()  # @dead-ends: (cell, its passage's direction)

    def mask(self, shape: tuple[int, int] | None = None) -> np.ndarray:
        """The cells outside the footprint (True), the mask the maze is carved over."""
        rows, cols = shape or self.shape
        r, c, kr, kc = self.cells
        enabled = np.ones((rows, cols), bool)
        enabled[r:r + kr, c:c + kc] = False
        return enabled

    def room(self) -> tuple[int, int, int, int]:
        """The footprint's blocks in the plan: ``(z0, x0, z1, x1)``, ends exclusive."""
        (wz, wx), (pz, px) = self.wall, self.passage
        r, c, kr, kc = self.cells
        z0, x0 = wz + r * (pz + wz), wx + c * (px + wx)
        return z0, x0, z0 + kr * (pz + wz) - wz, x0 + kc * (px + wx) - wx

    def origin(self) -> tuple[int, int]:
        """The (z, x) of the prefab's corner in the plan: centred in the room."""
        z0, x0, z1, x1 = self.room()
        _, fz, fx = self.prefab.shape
        return z0 + (z1 - z0 - fz) // 2, x0 + (x1 - x0 - fx) // 2

    def opening(self) -> tuple[int, int, int, int]:
        """The door's blocks in the plan ``(z0, x0, z1, x1)``: the wall between its two cells."""
        return _opening(self.door, self.shape[1], self.wall, self.passage)

    def resolved(self, maze, endpoints) -> Placement:
        """The placement in ``maze``: for ``dead-ends``, its copies in every dead end (a cell
        with one passage) but the start and the goal; any other place as it is."""
        if self.place != "dead-ends":
            return self
        ends = set() if endpoints is None else {endpoints.start, endpoints.goal}
        dead = np.flatnonzero(maze.grid.enabled & (maze.links.sum(axis=1) == 1))
        return replace(self, spots=tuple((int(cell), int(np.argmax(maze.links[cell])))
                                         for cell in dead if int(cell) not in ends))

    def carve(self, plan: np.ndarray) -> np.ndarray:
        """The maze's (z, x) plan with the footprint cleared to a room and its door opened
        (a dead end's prefab stands in its cell: the plan as it is)."""
        if self.place == "dead-ends":
            return plan
        plan = plan.copy()
        z0, x0, z1, x1 = self.room()
        plan[z0:z1, x0:x1] = Material.AIR
        z0, x0, z1, x1 = self.opening()
        plan[z0:z1, x0:x1] = Material.AIR
        return plan

    def stamp(self, volume: np.ndarray, floor: bool) -> np.ndarray:
        """The stood-up (y, z, x) volume with the prefab's blocks written in its room, standing
        on the floor (air layers added on top where it is taller than the walls)."""
        if self.place == "dead-ends":
            return self._stamp_dead_ends(volume, floor)
        blocks, _ = self.prefab.materials()
        if self.cut:
            blocks = blocks.copy()
            _cut(blocks, self)
        base = 1 if floor else 0
        height, fz, fx = blocks.shape
        extra = base + height - volume.shape[0]
        if extra > 0:
            volume = np.concatenate([volume, np.zeros((extra, *volume.shape[1:]), volume.dtype)])
        else:
            volume = volume.copy()
        z, x = self.origin()
        volume[base:base + height, z:z + fz, x:x + fx] = blocks
        return volume

    def _stamp_dead_ends(self, volume: np.ndarray, floor: bool) -> np.ndarray:
        """A copy of the prefab centred in each dead end, standing on its floor, the edge facing
        the cell's one passage cut open (its middle column, two blocks high) unless open there."""
        blocks, _ = self.prefab.materials()
        base = 1 if floor else 0
        height, fz, fx = blocks.shape
        extra = base + height - volume.shape[0]
        volume = np.concatenate([volume, np.zeros((extra, *volume.shape[1:]), volume.dtype)]) \
            if extra > 0 else volume.copy()
        (wz, wx), (pz, px) = self.wall, self.passage
        for cell, direction in self.spots:
            row, col = divmod(cell, self.shape[1])
            z = wz + row * (pz + wz) + (pz - fz) // 2
            x = wx + col * (px + wx) + (px - fx) // 2
            volume[base:base + height, z:z + fz, x:x + fx] = _opened(blocks, direction)
        return volume

    def themed(self, theme: Theme) -> Theme:
        """``theme`` with the prefab's materials drawn as its block states."""
        return _with_states(theme, self.prefab)

    def ends(self, maze) -> tuple[int, int]:
        """``(start, goal)`` for ``place="goal"``: the goal the cell at the door, the start the
        cell farthest from it along the passages."""
        goal = self.door[0]
        return int(np.argmax(maze.distances(goal))), goal


def _with_states(theme: Theme, prefab: Prefab) -> Theme:
    _, states = prefab.materials()
    return replace(theme, name=f"{theme.name} with prefab {prefab.name}",
                   minecraft={**theme.minecraft, **states})


def _opened(blocks: np.ndarray, direction: int) -> np.ndarray:
    """A copy of a prefab's materials whose edge toward ``direction`` has a way in: its middle
    column cut to air, two blocks high, unless a column there is open at its foot already."""
    copy = blocks.copy()
    edge = {NORTH: copy[:2, 0, :], SOUTH: copy[:2, -1, :], WEST: copy[:2, :, 0],
            EAST: copy[:2, :, -1]}[direction]
    if not (edge == Material.AIR).all(axis=0).any():
        edge[:, edge.shape[1] // 2] = Material.AIR
    return copy


@dataclass(frozen=True, eq=False)
class RoomVaults:
    """A prefab as a vault in a dungeon's rooms (``--prefab FILE@rooms``): a copy in the middle
    of every room it fits with a block to walk round it, on a floor of plain FLOOR with nothing
    standing there (no stairs, no spawn), its south edge opened (see :func:`_opened`)."""

    prefab: Prefab
    place: str = "rooms"

    def themed(self, theme: Theme) -> Theme:
        """``theme`` with the prefab's materials drawn as its block states."""
        return _with_states(theme, self.prefab)

    def stamp_rooms(self, volume: np.ndarray, levels, height: int, floor: bool) -> tuple[np.ndarray, int]:
        """The stacked dungeon ``volume`` (its ``levels`` top first, each ``height`` walking
        layers) with the vaults in, and how many were placed."""
        blocks = _opened(self.prefab.materials()[0], SOUTH)
        ph, fz, fx = blocks.shape
        if ph > height:
            return volume, 0
        volume, placed = volume.copy(), 0
        for index, level in enumerate(list(levels)[::-1]):  # bottom first, as stacked
            base = index * (height + 1) + (1 if floor else 0)
            for z0, x0, z1, x1 in np.asarray(level.rooms).reshape(-1, 4).tolist():
                if fz > z1 - z0 - 2 or fx > x1 - x0 - 2:
                    continue
                z, x = z0 + (z1 - z0 - fz) // 2, x0 + (x1 - x0 - fx) // 2
                box = volume[base:base + ph, z:z + fz, x:x + fx]
                under = volume[base - 1, z:z + fz, x:x + fx] if base else None
                if (box != Material.AIR).any() or (under is not None and (under != Material.FLOOR).any()):
                    continue
                volume[base:base + ph, z:z + fz, x:x + fx] = blocks
                placed += 1
        return volume, placed


def parse_prefab(text: str, places: tuple[str, ...] = PLACES) -> tuple[str, str]:
    """``FILE[@PLACE]`` as ``(file, place)``, the first of ``places`` by default.

    >>> parse_prefab("tower.schem"), parse_prefab("vault.nbt@goal")
    (('tower.schem', 'center'), ('vault.nbt', 'goal'))
    """
    path, at, place = text.rpartition("@")
    if not at or "/" in place or "." in place:
        return text, places[0]
    if place not in places:
        raise BlockmazeError(f"--prefab {text}: unknown place {place!r} here; choose FILE@"
                             + " or FILE@".join(places))
    return path, place


def cells_for(blocks: int, wall: int, passage: int) -> int:
    """The cells a footprint of ``blocks`` blocks spans along an axis: ``k`` cells hold
    ``k * (passage + wall) - wall`` blocks between the walls around them.

    >>> cells_for(5, 1, 1), cells_for(3, 1, 2)
    (3, 2)
    """
    return -(-(blocks + wall) // (passage + wall))


def place_prefab(prefab: Prefab, shape: tuple[int, int], place: str = "center",
                 wall: Thickness = 1, passage: Thickness = 1, height: int = 3,
                 roof: bool = False, mask: np.ndarray | None = None) -> Placement:
    """Where ``prefab`` goes in a rows x cols square maze (see the module docstring), refused
    in one line when it cannot: too big for the maze, taller than a roofed maze's walls, or
    leaving the cells around it apart. ``mask``: cells the user leaves out already."""
    from ..analysis import label_regions
    from ..grids import square_grid

    rows, cols = (int(v) for v in shape)
    (wz, wx), (pz, px) = per_axis(wall, "wall"), per_axis(passage, "passage")
    ph, fz, fx = prefab.shape
    kr, kc = cells_for(fz, wz, pz), cells_for(fx, wx, px)
    if kr > rows - 1 or kc > cols - 1 or (kr >= rows - 1 and kc >= cols - 1):
        raise BlockmazeError(
            f"prefab {prefab.name} ({fx}x{ph}x{fz} blocks, width x height x length) covers "
            f"{kr}x{kc} cells of a {rows}x{cols} maze: give a maze of at least {kr + 2}x{kc + 2} "
            "cells (or thinner walls and passages)")
    if place == "dead-ends":
        if fz > pz or fx > px:
            raise BlockmazeError(f"prefab {prefab.name} ({fx}x{fz} blocks, width x length) does "
                                 f"not fit in a cell of {px}x{pz}: @dead-ends takes one a cell "
                                 f"fits (give --passage {max(fz, fx)})")
        if roof and ph > height:
            raise BlockmazeError(f"prefab {prefab.name} is {ph} blocks tall, more than the roofed "
                                 f"maze's {height}: give --height {ph} or drop --roof")
        return Placement(prefab, place, (rows, cols), (0, 0, 0, 0), (0, 0, 0), (wz, wx), (pz, px),
                         False)
    if roof and ph > height:
        raise BlockmazeError(f"prefab {prefab.name} is {ph} blocks tall, more than the roofed "
                             f"maze's {height}: give --height {ph} or drop --roof")
    r, c = ((rows - kr) // 2, (cols - kc) // 2) if place == "center" else (rows - kr, cols - kc)
    enabled = np.ones((rows, cols), bool) if mask is None else np.asarray(mask, bool).copy()
    enabled[r:r + kr, c:c + kc] = False
    _, count = label_regions(square_grid(rows, cols, mask=enabled).neighbors, enabled.ravel())
    if count != 1:
        raise BlockmazeError(f"prefab {prefab.name} leaves the maze's cells in {int(count)} parts "
                             "apart: give a larger maze (or another mask)")
    draft = Placement(prefab, place, (rows, cols), (r, c, kr, kc), (0, 0, 0), (wz, wx), (pz, px),
                      False)
    doors = [door for door in _doors(draft.cells, rows, cols) if enabled.ravel()[door[0]]]
    if not doors:
        raise BlockmazeError(f"prefab {prefab.name}: no cell beside it to open a door from")
    best = min(doors, key=lambda door: _door_cost(draft, door))
    return replace(draft, door=best, cut=_door_cost(draft, best)[0] > 0)


def _doors(cells, rows: int, cols: int) -> list[tuple[int, int, int]]:
    """Every (outside cell, footprint cell, direction from outside) across the footprint's edge."""
    r, c, kr, kc = cells
    found = []
    for col in range(c, c + kc):
        if r > 0:
            found.append(((r - 1) * cols + col, r * cols + col, SOUTH))
        if r + kr < rows:
            found.append(((r + kr) * cols + col, (r + kr - 1) * cols + col, NORTH))
    for row in range(r, r + kr):
        if c > 0:
            found.append((row * cols + c - 1, row * cols + c, EAST))
        if c + kc < cols:
            found.append((row * cols + c + kc, row * cols + c + kc - 1, WEST))
    return found


def _opening(door, cols: int, wall, passage) -> tuple[int, int, int, int]:
    (wz, wx), (pz, px) = wall, passage
    outside, inside, direction = door
    row, col = divmod(inside, cols)
    z0, x0 = wz + row * (pz + wz), wx + col * (px + wx)
    if direction == SOUTH:  # from the north: the wall above the footprint cell
        return z0 - wz, x0, z0, x0 + px
    if direction == NORTH:
        return z0 + pz, x0, z0 + pz + wz, x0 + px
    if direction == EAST:
        return z0, x0 - wx, z0 + pz, x0
    return z0, x0 + px, z0 + pz, x0 + px + wx


def _facing(placement: Placement, door) -> tuple[np.ndarray, np.ndarray]:
    """The prefab's edge facing ``door``: the (z, x) indices (in the prefab) of its blocks along
    that edge that the door's opening spans (empty where the opening passes beside it)."""
    _, fz, fx = placement.prefab.shape
    oz, ox = placement.origin()
    z0, x0, z1, x1 = _opening(door, placement.shape[1], placement.wall, placement.passage)
    direction = door[2]
    if direction in (NORTH, SOUTH):
        xs = np.arange(max(x0, ox), min(x1, ox + fx)) - ox
        z = 0 if direction == SOUTH else fz - 1
        return np.full(xs.size, z), xs
    zs = np.arange(max(z0, oz), min(z1, oz + fz)) - oz
    x = 0 if direction == EAST else fx - 1
    return zs, np.full(zs.size, x)


def _door_cost(placement: Placement, door) -> tuple[int, int, int]:
    """How well ``door`` leads in: 0 first where the prefab's edge facing it is open at its foot
    (two air blocks, or one in a prefab one block tall) or the opening passes beside the prefab;
    then the distance from the middle of the footprint's side; then the door's own order."""
    blocks = placement.prefab.states
    air = np.array([state in AIR_STATES for state in placement.prefab.palette])
    zs, xs = _facing(placement, door)
    foot = air[blocks[:2, zs, xs]].all(axis=0) if zs.size else np.ones(1, bool)
    z0, x0, z1, x1 = placement.room()
    oz0, ox0, oz1, ox1 = _opening(door, placement.shape[1], placement.wall, placement.passage)
    if door[2] in (NORTH, SOUTH):
        middle = abs((ox0 + ox1) - (x0 + x1))
    else:
        middle = abs((oz0 + oz1) - (z0 + z1))
    return (0 if foot.any() else 1), middle, door[0]


def _cut(blocks: np.ndarray, placement: Placement) -> None:
    """Cut the prefab's edge blocks facing its door to air, two blocks high."""
    zs, xs = _facing(placement, placement.door)
    blocks[:2, zs, xs] = Material.AIR


__all__ = ["MAX_PREFAB_STATES", "PLACES", "PREFAB_MATERIAL", "Placement", "Prefab", "RoomVaults",
           "cells_for",
           "parse_prefab", "place_prefab"]
