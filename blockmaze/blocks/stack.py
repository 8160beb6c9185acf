"""Stacking: a layered (3-D) maze as floors one above the other, joined by climbable shafts.

Each level is a square-grid maze: it becomes a plan (the 2n+1 converter, or rasterization), the
plan is extruded (a floor and walls ``height`` blocks high), and the levels are stacked so each
level's floor is the ceiling of the level below; a roof closes the top. An up/down link between
cell (level, r, c) and (level + 1, r, c) becomes
spiral stairs (:mod:`~blockmaze.blocks.stairwell`): a flight of stair blocks round a 2x2 well at
the cell's centre, from the lower level's walking layer to the upper level's floor, where a 2x2
well fits (passages 2 blocks wide or more; the API's layered default). In cells one block wide
a flight of ``height + 1`` steps cannot fit without cutting into the neighbours, so the link is
a shaft instead: a column of STAIRS in the cell's block, which Minecraft draws as scaffolding
(a ladder before 1.14) and meshes as a solid column a player cannot climb. Nowhere else is the
floor pierced. (A stair's top takes the place of a solution marker in the upper cell's floor
there; the marker then shows in the floor beside it.) Multi-level dungeons
(:func:`~blockmaze.dungeon.stack.stack_dungeon`) are joined the same way.

Layout of the volume ``(y, z, x)``: level L's floor is layer ``L * (height + 1)``, its walking
layer the one above; the roof (if any) is the last layer.

Example
-------
>>> from blockmaze import generate
>>> from blockmaze.grids import layered_grid
>>> maze = generate(layered_grid(2, 3, 4), rng=1)
>>> volume = stack_levels(maze, height=3)
>>> volume.shape   # 2 levels of (floor + 3) layers and a roof; 2*3+1 rows, 2*4+1 columns
(9, 7, 9)
"""

from __future__ import annotations

import numpy as np

from ..mazes.endpoints import Endpoints
from ..errors import BlockmazeError
from ..grids import square_grid
from ..grids.layered import DOWN, UP
from ..materials import MARKERS, Material
from ..maze import Maze
from ..support.memory import ensure_memory
from .convert import Thickness, per_axis, to_blocks
from .raster import raster
from .stairwell import LEAST_HEIGHT, best_phase, carve_well, spiral, well_at
from .volume import extrude, volume_height

METHODS = ("convert", "raster")


def level_mazes(maze: Maze) -> list[Maze]:
    """Each level of a layered maze as a square-grid maze (the up/down links dropped).

    >>> from blockmaze import generate
    >>> from blockmaze.grids import layered_grid
    >>> [m.grid.shape for m in level_mazes(generate(layered_grid(2, 3, 4), rng=0))]
    [(3, 4), (3, 4)]
    """
    grid = maze.grid
    if grid.kind != "layered":
        raise BlockmazeError(f"stacking takes a layered grid, not a {grid.kind} grid")
    levels, rows, cols = grid.shape
    per = rows * cols
    out = []
    for level in range(levels):
        cells = slice(level * per, (level + 1) * per)
        enabled = grid.enabled[cells].reshape(rows, cols)
        out.append(Maze(square_grid(rows, cols, mask=enabled), maze.links[cells, :4].copy(),
                        validate=False))
    return out


def shaft_columns(maze: Maze, method: str = "convert", wall: Thickness = 1, passage: Thickness = 1,
                  scale: int = 4) -> np.ndarray:
    """``(z, x)`` of each cell's shaft column (its centre block in the level plans), ``(rows * cols, 2)``.

    >>> from blockmaze import generate
    >>> from blockmaze.grids import layered_grid
    >>> shaft_columns(generate(layered_grid(2, 1, 2), rng=0)).tolist()
    [[1, 1], [1, 3]]
    """
    _check_method(method)
    levels, rows, cols = maze.grid.shape
    if method == "raster":
        full = Maze(square_grid(rows, cols), np.zeros((rows * cols, 4), dtype=bool), validate=False)
        return raster(full, scale).anchors
    (wz, wx), (pz, px) = per_axis(wall, "wall"), per_axis(passage, "passage")
    r, c = np.divmod(np.arange(rows * cols), cols)
    return np.stack([wz + r * (wz + pz) + (pz - 1) // 2, wx + c * (wx + px) + (px - 1) // 2], axis=1)


def stack_levels(maze: Maze, height: int = 3, method: str = "convert", wall: Thickness = 1,
                 passage: Thickness = 1, scale: int = 4, endpoints: Endpoints | None = None,
                 solution: bool = False, roof: bool = True, floor: bool = True) -> np.ndarray:
    """The volume ``(y, z, x)`` of a layered maze: levels stacked, up/down links as STAIRS shafts.

    ``method`` "convert" draws each level with the 2n+1 converter (``wall``, ``passage``
    thickness), "raster" rasterizes it at ``scale``. ``endpoints`` cuts openings in the outer walls
    of their levels; with ``solution`` the start-to-goal path is marked in the floors (PATH, START,
    GOAL), level by level; where a shaft's top takes a START or GOAL cell's floor block, the marker
    shows in the floor beside it (or, in a closed cell, in the walls beside it). ``roof`` closes
    the top level with a ROOF layer; without ``floor`` the bottom level stands on the ground.

    Example
    -------
    >>> from blockmaze import generate, place_endpoints
    >>> from blockmaze.grids import layered_grid
    >>> maze = generate(layered_grid(3, 4, 4), rng=2)
    >>> volume = stack_levels(maze, height=2, endpoints=place_endpoints(maze), solution=True)
    >>> volume.shape, int((volume == Material.STAIRS).sum()) > 0
    ((10, 9, 9), True)
    """
    plans = level_plans(maze, method, wall, passage, scale, endpoints, solution)
    per = maze.grid.shape[1] * maze.grid.shape[2]
    layers = volume_height(height, floor=True, roof=False)
    lower = np.flatnonzero(maze.links[:, UP])
    columns = shaft_columns(maze, method, wall, passage, scale)
    shafts = [(cell // per, *columns[cell % per]) for cell in lower.tolist()]
    volume = stack_plans(plans, shafts, height, floor=floor, roof=roof)
    if solution and endpoints is not None:  # (level_plans: a solution needs endpoints)
        # a shaft's top takes the floor block of its upper cell: show the marker beside it
        for material, cell in ((Material.START, endpoints.start), (Material.GOAL, endpoints.goal)):
            floor_layer = (cell // per) * layers - (not floor)
            if not (volume == material).any() and floor_layer >= 0:
                z, x = columns[cell % per]
                _mark_beside(volume, floor_layer, int(z), int(x), material)
    return volume


def level_plans(maze: Maze, method: str = "convert", wall: Thickness = 1, passage: Thickness = 1,
                scale: int = 4, endpoints: Endpoints | None = None,
                solution: bool = False) -> list[np.ndarray]:
    """Each level's plan (bottom first), as :func:`stack_levels` stacks them: openings cut in the
    outer walls, the solution marked level by level.

    >>> from blockmaze import generate
    >>> from blockmaze.grids import layered_grid
    >>> [p.shape for p in level_plans(generate(layered_grid(2, 3, 4), rng=0))]
    [(7, 9), (7, 9)]
    """
    _check_method(method)
    levels_m = level_mazes(maze)
    levels, rows, cols = maze.grid.shape
    per = rows * cols
    if solution and endpoints is None:
        raise BlockmazeError("marking the solution needs endpoints (a start and a goal)")
    openings: dict[int, list[tuple[int, int]]] = {}
    for cell, direction in (endpoints.openings if endpoints else ()):
        if direction in (UP, DOWN):
            raise BlockmazeError("an opening must be in an outer wall (north, east, south or west)")
        openings.setdefault(cell // per, []).append((cell % per, direction))

    def draw(level: int, ends: Endpoints | None, marks: bool) -> np.ndarray:
        m = levels_m[level]
        if method == "convert":
            return to_blocks(m, wall, passage, endpoints=ends, solution=marks)
        return raster(m, scale, endpoints=ends, solution=marks).plan

    plans = []
    for level in range(levels):
        ops = tuple(openings.get(level, ()))
        plans.append(draw(level, Endpoints(0, 0, ops) if ops else None, False))
    if solution:
        _mark_path(plans, maze, endpoints, openings, draw, per)
    return plans


def level_tiles(maze: Maze, method: str = "convert", wall: Thickness = 1, passage: Thickness = 1,
                scale: int = 4, endpoints: Endpoints | None = None, solution: bool = False):
    """Each level of a layered maze as a tile map draws it (bottom first): ``(plan, entities)``,
    the plan of :func:`level_plans` with STAIRS where a cell links up or down, and the stairs as
    :class:`~blockmaze.entities.Entity` (``direction`` up or down, ``level`` the 1-based
    level it leads to, counted from the bottom). Up stairs lie on the cell's north-west block,
    down stairs on its south-east block (one block in one-block cells, which then holds both; a
    start or goal block keeps its mark).

    >>> from blockmaze import generate
    >>> from blockmaze.grids import layered_grid
    >>> (_, below), (_, above) = level_tiles(generate(layered_grid(2, 1, 1), rng=0), passage=2)
    >>> [(e.z, e.x, e.properties) for e in below + above]
    [(1, 1, {'direction': 'up', 'level': 2}), (2, 2, {'direction': 'down', 'level': 1})]
    """
    from ..entities import Entity

    plans = level_plans(maze, method, wall, passage, scale, endpoints, solution)
    per = maze.grid.shape[1] * maze.grid.shape[2]
    columns = shaft_columns(maze, method, wall, passage, scale)
    span = 1 if method == "raster" else min(per_axis(passage, "passage"))
    entities: list[list[Entity]] = [[] for _ in plans]
    for cell in np.flatnonzero(maze.links[:, UP]).tolist():
        level, (z, x) = cell // per, (int(v) for v in columns[cell % per])
        far = (z + span - 1, x + span - 1)  # the cell's south-east block
        entities[level].append(Entity("stairs", z, x, {"direction": "up", "level": level + 2}))
        entities[level + 1].append(Entity("stairs", *far, {"direction": "down", "level": level + 1}))
    for plan, found in zip(plans, entities, strict=True):
        for entity in found:  # (a start or goal keeps its mark; its entity tells of the stairs)
            if plan[entity.z, entity.x] not in (Material.START, Material.GOAL):
                plan[entity.z, entity.x] = Material.STAIRS
    return [(plan, tuple(found)) for plan, found in zip(plans, entities, strict=True)]


def stack_plans(plans, shafts, height: int = 3, floor: bool = True, roof: bool = True,
                carve: bool = False) -> np.ndarray:
    """Plans (bottom level first) extruded and stacked, joined by stairs.

    Each link ``(level, z, x)`` climbs from that level's walking layer up through the floor of
    the level above: a spiral round a 2x2 well holding block ``(z, x)`` where one is open on both
    levels (:func:`~blockmaze.blocks.stairwell.well_at`), else a column of STAIRS at ``(z, x)``. Level ``L``'s floor is layer ``L * (height + 1)``; without
    ``floor`` the bottom level's floor layer is left out (the upper floors stay: they are the
    ceilings below). ``roof`` closes the top with a ROOF layer.

    >>> plan = np.array([[1, 1, 1], [1, 0, 1], [1, 1, 1]], np.uint8)
    >>> v = stack_plans([plan, plan], [(0, 1, 1)], height=2, roof=False)
    >>> v[:, 1, 1].tolist()   # no room for a well: floor, 2 walking layers, upper floor pierced
    [2, 8, 8, 8, 0, 0]
    >>> wide = np.pad(np.zeros((2, 2), np.uint8), 1, constant_values=1)
    >>> v = stack_plans([wide, wide], [(0, 1, 1)], height=3, roof=False)
    >>> int((v == Material.STAIRS).sum()), v[4, 1:3, 1:3].tolist()   # 4 steps; the upper floor
    (4, [[8, 0], [0, 0]])
    """
    layers = volume_height(height, floor=True, roof=False)
    depth, width = plans[0].shape
    total = len(plans) * layers + bool(roof)
    ensure_memory(total * depth * width, f"a {width}x{total}x{depth}-block volume")
    wells: list[tuple[int, int] | None] = []
    carved: dict[int, list[tuple[int, int]]] = {}  # the wells carved so far, by the level their flight leaves
    for level, z, x in shafts:
        if not 0 <= level < len(plans) - 1:
            raise BlockmazeError(f"a shaft from level {level} needs a level above it")
        flight = (level * layers + 1, (level + 1) * layers)
        if height < LEAST_HEIGHT:  # too low for a player's head over the first step
            wells.append(None)
            continue
        if not carve:
            wells.append(well_at(plans[level], plans[level + 1], z, x))
            continue
        near = carved.get(level - 1, []) + carved.get(level, [])  # the wells in the same layers
        well = carve_well(plans[level], plans[level + 1], z, x, flight, cut=near)
        wells.append(well)
        if well:
            carved.setdefault(level, []).append(well)
    volume = np.empty((total, depth, width), dtype=np.uint8)
    for level, plan in enumerate(plans):
        volume[level * layers:(level + 1) * layers] = extrude(plan, height, floor=True, roof=False)
    if roof:
        volume[-1] = Material.ROOF
    flights: dict[tuple[int, int], list] = {}  # the flights of each well: one spiral, one phase
    for (level, z, x), well in zip(shafts, wells, strict=True):
        # from the lower level's walking layer up through the upper level's floor
        bottom, top = level * layers + 1, (level + 1) * layers
        if well is None:
            volume[bottom:top + 1, z, x] = Material.STAIRS
        else:
            flights.setdefault(well, []).append((bottom, top, plans[level], plans[level + 1]))
    for well, runs in flights.items():
        phase = best_phase(runs, *well)
        for bottom, top, _, _ in runs:
            spiral(volume, *well, bottom, top, phase)
    return volume if floor else volume[1:]


def _mark_beside(volume, floor_layer, z, x, material) -> None:
    """Mark the floor under the open blocks beside a shaft top, or beside the 2x2 well of a
    spiral's top step at ``(z, x)`` (not a hole cut over a step); with none, the walls beside it."""
    depth, width = volume.shape[1:]
    walk = floor_layer + 1
    well = [(z + dz, x + dx) for dz in (-1, 0, 1) for dx in (-1, 0, 1)
            if 0 <= z + dz < depth and 0 <= x + dx < width
            and (volume[floor_layer, z + dz, x + dx] in (Material.AIR, Material.STAIRS))]
    ring = {(a + dz, b + dx) for a, b in well for dz, dx in ((-1, 0), (0, 1), (1, 0), (0, -1))} - set(well)
    around = sorted((a, b) for a, b in ring if 0 <= a < depth and 0 <= b < width)
    opened = [(a, b) for a, b in around
              if volume[walk, a, b] == Material.AIR and volume[floor_layer, a, b] not in (Material.STAIRS, Material.AIR)]
    walls = [(a, b) for a, b in around if volume[walk, a, b] not in (Material.AIR, Material.STAIRS)]
    for a, b in opened or walls:
        volume[floor_layer if opened else walk, a, b] = material


def _mark_path(plans, maze, endpoints, openings, draw, per) -> None:
    """Mark the start-to-goal path level by level: each run of path cells on one level is drawn
    with the level's own solution marks, merged into the plan."""
    path = maze.shortest_path(endpoints.start, endpoints.goal)
    level_of = path // per
    cut = np.flatnonzero(np.diff(level_of)) + 1
    for run in np.split(path, cut):
        level = int(run[0] // per)
        first, last = int(run[0] % per), int(run[-1] % per)
        ops = tuple((c, d) for c, d in openings.get(level, ())
                    if (c == first and run[0] == endpoints.start) or (c == last and run[-1] == endpoints.goal))
        marked = draw(level, Endpoints(first, last, ops), True)
        plan = plans[level]
        where = MARKERS[marked]
        plan[where] = Material.PATH
        if run[0] == endpoints.start:  # (a one-cell run is drawn with GOAL over its START)
            plan[(marked == Material.START) | ((marked == Material.GOAL) & (first == last))] = Material.START
        if run[-1] == endpoints.goal:
            plan[marked == Material.GOAL] = Material.GOAL


def _check_method(method: str) -> None:
    if method not in METHODS:
        raise BlockmazeError(f"unknown stacking method {method!r}; choose one of: {', '.join(METHODS)}")
