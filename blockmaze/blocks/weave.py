"""Weave mazes in blocks: a used crossing is a bridge, and under it a tunnel one storey down.

The maze stands as a square maze would (the 2n+1 plan, extruded), on :data:`GROUND` layers of
rock. Where the maze links the two cells beside a crossing under it, the passage dives into
the rock through the walls between them and the crossing, runs under the crossing's floor (the
bridge, which the passage on top walks over) and climbs back on the other side:

* under the crossing the tunnel's floor is 4 blocks below the maze's walking level: 2 blocks of
  headroom under the bridge's one-block floor;
* in each wall run, the block beside the crossing is a landing on the tunnel's level, with 3
  blocks of room up to the level of the maze's floor (so the tunnel and the bridge never touch);
  then 3 stairs up, the last beside the far cell (a stair block where the way rises, facing
  uphill: a player, 1.8 blocks tall, walks up without jumping, and each block a rise starts
  from has 3 blocks of room, as the head rises with the step before the feet leave it).

So the walls on the tunnel's axis must be :data:`TUNNEL_WALL` blocks thick or more, and walls
at least 2 high. With ``solution`` the tunnel's floors are marked like the floors above.

With ``bridges=True`` the crossing is raised instead: the passage under it stays on the floor
(2 blocks of headroom, a lintel over it in the walls beside the crossing), and the passage on
top climbs 3 stairs in the walls beside the crossing to a deck 3 blocks up; the lintels and
the walls, :data:`BRIDGE_HEIGHT` high or more, are its parapets. No rock layers are added.

Example
-------
>>> from blockmaze.pipeline import make_maze
>>> maze = make_maze((4, 5), "weave", "kruskal:weave", seed=1, weave=1.0).maze
>>> weave_volume(maze, wall=4).shape    # 3 layers of rock, the floor, 3 of wall
(7, 24, 29)
"""

from __future__ import annotations

import numpy as np

from ..mazes.endpoints import Endpoints
from ..errors import BlockmazeError, ParameterError
from ..grids import square_grid
from ..grids.square import EAST, NORTH, SOUTH, WEST
from ..grids.weave import OVER_EAST_WEST, weave_of
from ..materials import Material
from ..maze import Maze
from .convert import (Thickness, _mark_endpoints, _unit_plan, mark_stops, per_axis,
                      thickness_runs, unit_centre)
from .volume import extrude

GROUND = 3  # rock layers under the maze's floor: the tunnel's air (2) and its floor
TUNNEL_WALL = 4  # wall blocks beside a crossing, along its tunnel: a landing, three steps
BRIDGE_WALL = 3  # wall blocks beside a bridge, along it: three steps up
DROP = 3  # walking levels from the maze down to a tunnel (or up to a bridge)
BRIDGE_HEIGHT = DROP + 2  # walls around a bridge: its deck's level and 2 blocks of room


def over_maze(maze: Maze) -> Maze:
    """The square maze of what is seen from above: the weave maze without its under-passages.

    >>> from blockmaze.pipeline import make_maze
    >>> m = make_maze((6, 6), "weave", "kruskal:weave", seed=2, weave=1.0).maze
    >>> over_maze(m).passage_count == m.passage_count - len(m.grid.used_crossings(m.links))
    True
    """
    grid = weave_of(maze.grid)
    rows, cols = grid.shape
    links = maze.links.copy()
    for cell, before, after in grid.used_crossings(maze.links):
        forward, back = (SOUTH, NORTH) if grid.crossings[cell] == OVER_EAST_WEST else (EAST, WEST)
        links[before, forward] = links[after, back] = False
    square = square_grid(rows, cols, grid.enabled.reshape(rows, cols))
    return Maze(square, links, validate=False)


def weave_unit_plan(maze: Maze, endpoints: Endpoints | None = None, solution: bool = False):
    """The over-level unit plan (one block per wall and cell) and, per used crossing, whether the
    solution goes under it: ``(plan, crossings (m, 3), under_solution bool (m,))``."""
    grid = weave_of(maze.grid)
    cols = grid.shape[1]
    over = over_maze(maze)
    unit = _unit_plan(over)
    used = grid.used_crossings(maze.links)
    under = np.zeros(len(used), dtype=bool)
    if endpoints is None:
        if solution:
            raise BlockmazeError("marking the solution needs endpoints (a start and a goal)")
        return unit, used, under
    _mark_endpoints(unit, over, Endpoints(endpoints.start, endpoints.goal, endpoints.openings), False)
    if solution:
        from .convert import WALL_OFFSETS

        for cell, direction in endpoints.openings:
            if cell not in (endpoints.start, endpoints.goal):
                continue  # an exit's opening is off the way
            dz, dx = WALL_OFFSETS[direction]
            z, x = unit_centre(cell, cols)
            unit[z + dz, x + dx] = Material.PATH
        path = maze.shortest_path(endpoints.start, endpoints.goal)
        z, x = unit_centre(path, cols)
        unit[z, x] = Material.PATH
        jump = np.abs(z[1:] - z[:-1]) + np.abs(x[1:] - x[:-1]) == 4
        step = ~jump
        unit[((z[:-1] + z[1:]) // 2)[step], ((x[:-1] + x[1:]) // 2)[step]] = Material.PATH
        under_cells = ((path[:-1] + path[1:]) // 2)[jump]
        under = np.isin(used[:, 0], under_cells)
        unit[unit_centre(endpoints.start, cols)] = Material.START
        unit[unit_centre(endpoints.goal, cols)] = Material.GOAL
    mark_stops(unit, cols, endpoints)
    return unit, used, under


def weave_volume(maze: Maze, wall: Thickness = TUNNEL_WALL, passage: Thickness = 1,
                 endpoints: Endpoints | None = None, solution: bool = False, height: int = 3,
                 floor: bool = True, roof: bool = False, bridges: bool = False) -> np.ndarray:
    """The (y, z, x) volume of a weave maze: :data:`GROUND` layers of rock with the tunnels, the
    floor with the bridges, the walls (see the module docstring); or with ``bridges``, the
    maze on its floor with raised bridges."""
    (wz, wx), (pz, px) = per_axis(wall, "wall"), per_axis(passage, "passage")
    unit, used, under = weave_unit_plan(maze, endpoints, solution)
    rows, cols = maze.grid.shape
    over_ew = weave_of(maze.grid).crossings[used[:, 0]] == OVER_EAST_WEST
    what = "bridges go up" if bridges else "tunnels go down"
    least = BRIDGE_WALL if bridges else TUNNEL_WALL
    for thin, axis, stairs in ((wz, "north-south", over_ew != bridges),
                               (wx, "east-west", over_ew == bridges)):
        if stairs.any() and thin < least:
            raise ParameterError(
                f"a weave maze's {what} {DROP} steps in the walls beside a crossing: "
                f"stairs run {axis} here, so the wall needs {least} blocks or more along "
                f"it ({{wall={least}}}), got {thin}")
    if not floor:
        raise ParameterError("a weave maze's crossings stand on the floor: drop {floor=False}")
    least = BRIDGE_HEIGHT if bridges else 2
    if used.size and height < least:
        raise ParameterError(f"a weave maze's {'bridges' if bridges else 'tunnels'} need walls "
                             f"{least} blocks high (2 blocks of headroom): {{height={least}}} or "
                             "more")
    runs_z, runs_x = thickness_runs(rows, wz, pz), thickness_runs(cols, wx, px)
    if bridges:
        return _bridged(unit, used, over_ew, under, runs_z, runs_x, height, roof)
    plan = np.repeat(np.repeat(unit, runs_z, axis=0), runs_x, axis=1)
    above = extrude(plan, height=height, floor=True, roof=roof)
    rock = np.full((GROUND,) + plan.shape, Material.WALL, dtype=np.uint8)
    volume = np.concatenate([rock, above])
    for (cell, _, _), ew, marked in zip(used.tolist(), over_ew.tolist(), under.tolist(),
                                        strict=True):
        r, c = divmod(cell, cols)
        if ew:  # the tunnel runs north-south, along z
            _dig(volume, r, wz, pz, (c + 1) * wx + c * px, px, marked)
        else:
            _dig(volume.swapaxes(1, 2), c, wx, px, (r + 1) * wz + r * pz, pz, marked)
    return volume


def _dig(volume: np.ndarray, row: int, wall: int, passage: int, across: int, width: int,
         marked: bool) -> None:
    """Dig the tunnel under the crossing in ``row`` (along axis 1), ``width`` blocks wide from
    ``across`` (axis 2): its two wall runs as stairs and the run under the crossing."""
    feet = GROUND + 1  # the maze's walking layer
    bottom = feet - DROP  # the tunnel's
    ground = np.uint8(Material.PATH if marked else Material.FLOOR)
    span = slice(across, across + width)
    start = (row + 1) * wall + row * passage  # the crossing's own run
    volume[bottom: feet - 1, start:start + passage, span] = Material.AIR
    volume[bottom - 1, start:start + passage, span] = ground
    for j in range(1, wall + 1):  # j-th block from the crossing, on both sides
        level = bottom + min(j - 1, DROP)
        support = np.uint8(Material.STAIRS) if level > bottom + min(j - 2, DROP) and j > 1 else ground
        room = 3 if level < feet else 2  # where a rise starts, the head rises with the step
        for z in (start - j, start + passage - 1 + j):
            volume[level: level + room, z, span] = Material.AIR
            volume[level - 1, z, span] = support


def _bridged(unit, used, over_ew, under, runs_z, runs_x, height, roof) -> np.ndarray:
    """The volume with raised bridges (see the module docstring)."""
    starts_z, starts_x = np.cumsum(runs_z) - runs_z, np.cumsum(runs_x) - runs_x
    r, c = np.divmod(used[:, 0], (len(runs_x) - 1) // 2)
    z, x = 2 * r + 1, 2 * c + 1
    deck = unit[z, x].copy()  # the mark of the cell, shown on the deck
    deck[deck == Material.AIR] = Material.FLOOR
    climbs = {side: unit[z + side * ~over_ew, x + side * over_ew] != Material.WALL
              for side in (-1, 1)}  # the way on top is open on that side
    gap = np.where(under, np.uint8(Material.PATH), np.uint8(Material.AIR))
    for side in (-1, 1):  # the way under opens the walls on the floor
        unit[z + side * over_ew, x + side * ~over_ew] = gap
    unit[z, x] = gap
    plan = np.repeat(np.repeat(unit, runs_z, axis=0), runs_x, axis=1)
    volume = extrude(plan, height=height, floor=True, roof=roof)
    top = volume.shape[0] - bool(roof)
    feet = 1
    for k, (zc, xc, ew, mark) in enumerate(zip(z.tolist(), x.tolist(), over_ew.tolist(),
                                               deck.tolist(), strict=True)):
        view, zc, xc = (volume, zc, xc) if ew else (volume.swapaxes(1, 2), xc, zc)
        sz, sx = (starts_z, starts_x) if ew else (starts_x, starts_z)
        rz, rx = (runs_z, runs_x) if ew else (runs_x, runs_z)
        rows_c = slice(sz[zc], sz[zc] + rz[zc])  # the crossing's run across the way on top
        cols_c = slice(sx[xc], sx[xc] + rx[xc])
        view[feet + DROP - 1, rows_c, cols_c] = mark  # the deck
        for side in (-1, 1):  # lintels over the way under, the deck's parapets
            wz = zc + side
            view[feet + DROP - 1: top, sz[wz]: sz[wz] + rz[wz], cols_c] = Material.WALL
            if not climbs[side][k]:
                continue
            wx = xc + side  # the way on top climbs in this wall run, from the far cell
            width = int(rx[wx])
            for i in range(1, width + 1):
                level = feet + min(i, DROP)
                before = feet + min(i - 1, DROP)
                column = sx[wx] + (width - i if side == 1 else i - 1)
                view[feet: level - 1, rows_c, column] = Material.WALL
                view[level - 1, rows_c, column] = Material.STAIRS if level > before else mark
    return volume


def tile_plan(volume: np.ndarray, bridges: bool = False) -> np.ndarray:
    """The one-layer plan a tile map draws of a weave volume: the maze's walking layer, its floor's
    marks, and STAIRS where a tunnel's stairs go down, or a bridge's go up (a legend: the tunnel
    passes under the cell between two facing stairs, or the bridge over it).

    >>> from blockmaze.pipeline import make_maze
    >>> m = make_maze((4, 4), "weave", "kruskal:weave", seed=1, weave=1.0).maze
    >>> int((tile_plan(weave_volume(m)) == Material.STAIRS).sum()) // 2 == len(m.grid.used_crossings(m.links))
    True
    """
    feet = 1 if bridges else GROUND + 1
    plan = volume[feet].copy()
    floor = volume[feet - 1]
    marks = (plan == Material.AIR) & np.isin(floor, (Material.PATH, Material.START, Material.GOAL,
                                                     Material.STAIRS, Material.CHECKPOINT,
                                                     Material.EXIT))
    plan[marks] = floor[marks]
    return plan[np.newaxis]
