"""The cylinder puzzle box (after RevK's): a maze grooved round a tube, a sleeve whose nubs
ride in the grooves, a lid closing the sleeve and a base under the tube.

The caller passes a maze document on a ``cylinder_grid(rows, cols)``; the box derives the
rest. With ``nubs`` nubs evenly round, the grooves are that one maze repeated ``nubs`` times
(the maze's ``cols`` are one sector's, its east seam meeting the next sector's west side).
Each part is a closed manifold mesh of its own (:func:`~.tube.tube_mesh`), millimetres, Z up,
the axis along Z, and all are placed as the box stands **closed**: the base's top at z = 0,
the inner part on it up to ``height``, the sleeve round it from z = 0 up to ``height +
clearance`` turned so its nubs sit at the park, and the lid on the sleeve.

- **Pixels.** The maze's wrapped 2n+1 plan (:func:`~.plan.cylinder_plan`) is cut into the
  inner part's surface: radius R = diameter / 2 on walls, R - depth in passages. A passage
  pixel is ``nub_diameter + 2 clearance`` wide (its chord at the groove floor) and as high; the
  wall pixels share what is left of the floor's circumference (refused in one line when that is
  under 1 mm: the diameter is too small for the columns) and are ``max(1, nub_diameter / 2)``
  mm high (or share what ``height`` leaves, at least 1 mm each).
- **Entry and park.** The entry is a row-0 cell, its top side opened to the rim; the park
  is a cell of the last row. Of every row-0 cell and last-row cell, the pair farthest apart
  along the passages (BFS over the links; ties: the lowest cells) is taken; the document's own
  endpoints are not used. Parking in the lowest row lets the sleeve stand on the base.
- **The nub.** A cylinder of ``nub_diameter`` whose axis is a radius, reaching inward from the
  sleeve's bore (R + clearance) by ``nub_length`` (default 2/3 of its diameter; ``depth``
  defaults to it, so the nub's tip clears the groove's floor by ``clearance``). Built into the
  sleeve, its section is the disc rastered on an 8 x 8 grid (the cells wholly inside it) and
  its tip a cylinder's arc no nearer the axis than the round nub's flat end, so it lies inside
  the round nub the path is proven with.
- **nub_path.** Where the nub's axis crosses the groove's mid-depth radius R - depth / 2, from
  the entry (nub_diameter / 2 + clearance above the rim, the nub clear of it) down into the
  entry cell, then cell centre to cell centre along the solution to the park: ``(k, 3)`` points
  at most 0.5 mm apart, the angle unwrapped (a path round the seam keeps turning), so the
  first nub's sector is the one it starts in and the others follow at 2π / nubs.

>>> import blockmaze as bm
>>> from blockmaze.mazes.documents import MazeDocument
>>> box = puzzle_box(MazeDocument(bm.generate(bm.cylinder_grid(3, 6), rng=1)), diameter=30)
>>> sorted(box.parts), box.nub_path.shape[1]
(['base', 'inner', 'lid', 'sleeve'], 3)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ...analysis import bfs, path_from_parents
from ...errors import BlockmazeError
from .plan import cylinder_plan
from .tube import tube_mesh

STEP = 0.5  # mm: the most between two points of the nub's path
LEAST_WALL = 1.0  # mm: the narrowest wall pixel
NUB_RASTER = 8  # cells across the nub's section in the sleeve
ROUND = np.array([0.0, 2 * np.pi])  # one column all the way round

Mesh = tuple[np.ndarray, np.ndarray]


@dataclass(frozen=True)
class PuzzleBox:
    """The box's parts (``inner``, ``sleeve``, ``lid``, ``base``: points and triangles each), the
    nub's path from entry to park and the sizes that make it (see the module notes)."""

    parts: dict[str, Mesh]
    nub_path: np.ndarray
    nub_diameter: float
    nub_length: float
    clearance: float
    diameter: float
    depth: float
    nubs: int
    start: int
    goal: int


def _positive(name: str, value, least: float = 0.0) -> float:
    try:
        value = float(value)
    except (TypeError, ValueError):
        raise BlockmazeError(f"{name} must be a number of millimetres, got {value!r}") from None
    if not (math.isfinite(value) and value > least):
        raise BlockmazeError(f"{name} must be more than {least:g} mm, got {value:g}")
    return value


def _sizes(diameter, wall, nub_diameter, nub_length, clearance, depth):
    diameter = _positive("diameter", diameter)
    wall = _positive("wall", wall)
    nub_diameter = _positive("nub_diameter", nub_diameter)
    clearance = _positive("clearance", clearance)
    nub_length = nub_diameter * 2 / 3 if nub_length is None else _positive("nub_length", nub_length)
    depth = nub_length if depth is None else _positive("depth", depth)
    if nub_length > depth:
        raise BlockmazeError(f"nub_length ({nub_length:g} mm) must not be more than the groove's "
                             f"depth ({depth:g} mm)")
    if diameter / 2 - depth - wall <= 0:
        raise BlockmazeError(f"diameter {diameter:g} mm leaves no inner wall under grooves "
                             f"{depth:g} mm deep (wall {wall:g} mm)")
    return diameter, wall, nub_diameter, nub_length, clearance, depth


def _passage_angle(floor: float, width: float) -> float:
    if width / 2 >= floor:
        raise BlockmazeError(f"a groove {width:g} mm wide does not fit round a floor of radius "
                             f"{floor:g} mm")
    return 2 * math.asin(width / 2 / floor)


def most_columns(diameter: float, nubs: int = 1, nub_diameter: float = 3.0,
                 clearance: float = 0.3, depth: float | None = None,
                 least_wall: float = LEAST_WALL) -> int:
    """The most maze columns a sector of a box of ``diameter`` holds with wall pixels at least
    ``least_wall`` mm wide at the groove floor (``depth`` defaulting as :func:`puzzle_box`'s).

    >>> most_columns(40.0)
    24
    """
    depth = nub_diameter * 2 / 3 if depth is None else depth
    floor = diameter / 2 - depth
    passage = _passage_angle(floor, nub_diameter + 2 * clearance)
    return int(2 * math.pi / nubs // (passage + least_wall / floor))


def _ends(maze) -> tuple[int, int, np.ndarray]:
    """The entry cell (row 0), the park (the last row) and the solution between, farthest apart."""
    rows, cols = maze.grid.shape
    best = None
    for start in range(cols):
        distance, parents = bfs(maze.grid.neighbors, maze.links, start)
        last = distance[(rows - 1) * cols:]
        if (last >= 0).any():
            goal = (rows - 1) * cols + int(np.argmax(last))
            if best is None or distance[goal] > best[0]:
                best = (int(distance[goal]), start, goal, parents)
    if best is None:
        raise BlockmazeError("no passage joins the maze's first row to its last: no box opens")
    _, start, goal, parents = best
    return start, goal, path_from_parents(parents, goal).astype(np.int64)


def _sampled(waypoints: np.ndarray, radius: float) -> np.ndarray:
    """The polyline ``waypoints`` ``(angle, z)`` sampled at most :data:`STEP` mm apart (the angle
    as arc at ``radius``), as points ``(x, y, z)`` at ``radius``."""
    pieces = [waypoints[:1]]
    for a, b in zip(waypoints[:-1], waypoints[1:], strict=True):
        length = math.hypot((b[0] - a[0]) * radius, b[1] - a[1])
        count = max(1, math.ceil(length / (STEP * 0.999)))
        pieces.append(a + (b - a) * (np.arange(1, count + 1) / count)[:, None])
    theta, z = np.concatenate(pieces).T
    return np.column_stack([radius * np.cos(theta), radius * np.sin(theta), z])


def _sleeve(outer: float, bore: float, top: float, nub_length: float, nub_diameter: float,
            centres: np.ndarray, z_nub: float) -> Mesh:
    """The sleeve, ``bore`` .. ``outer`` from z = 0 to ``top``, its nubs (centred at the angles
    ``centres`` and ``z_nub``) reaching inward by ``nub_length``: a height field inside out,
    made by :func:`tube_mesh` in radii mirrored (r -> m - r, m at least twice ``outer``, so the
    chords are as fine as at ``outer``) and mirrored back."""
    half = nub_diameter / 2 / bore  # the nub's half angle at its base: its widest
    cuts = np.linspace(-1.0, 1.0, NUB_RASTER + 1)
    low, high = cuts[:-1] ** 2, cuts[1:] ** 2  # each raster cell's corners inside the disc
    inside = np.maximum(low, high)[:, None] + np.maximum(low, high)[None, :] <= 1
    angles: list[float] = []
    in_nub: list[bool] = []
    for centre in centres:
        angles.extend(centre + cuts[:-1] * half)
        in_nub.extend([True] * NUB_RASTER + [False])
        angles.append(centre + half)
    angles.append(centres[0] - half + 2 * np.pi)
    nub_column = np.array(in_nub)
    theta_edges = np.array(angles)
    z_edges = np.concatenate([[top], z_nub + cuts[::-1] * nub_diameter / 2, [0.0]])
    inner = np.full((len(z_edges) - 1, len(theta_edges) - 1), bore)
    columns = np.flatnonzero(nub_column).reshape(len(centres), NUB_RASTER)
    tip = (bore - nub_length) / math.cos(half)  # its edges behind the round nub's flat end
    for group in columns:
        inner[1:-1, group] = np.where(inside, tip, bore)
    mirror = 2 * outer + 1.0  # radii r -> mirror - r: the chords fine enough at every radius
    points, triangles = tube_mesh(mirror - inner, z_edges, theta_edges, mirror - outer)
    flat = np.hypot(points[:, 0], points[:, 1])
    points[:, :2] *= ((mirror - flat) / flat)[:, None]
    return points, triangles[:, ::-1].copy()


def puzzle_box(maze_document, diameter: float = 40.0, height: float | None = None,
               wall: float = 2.0, nub_diameter: float = 3.0, nub_length: float | None = None,
               clearance: float = 0.3, nubs: int = 1, depth: float | None = None) -> PuzzleBox:
    """The puzzle box of ``maze_document``'s maze (a cylinder grid's): see the module notes.
    ``diameter`` is the inner part's (the maze surface's), ``height`` the inner part's (None: as
    the maze's rows need), ``wall`` the sleeve's, the lid's and the base's thickness and the
    inner part's under its grooves."""
    maze = getattr(maze_document, "maze", maze_document)
    if getattr(maze, "grid", None) is None or maze.grid.kind != "cylinder":
        raise BlockmazeError("a puzzle box needs a maze on a cylinder grid (bm.cylinder_grid)")
    if not isinstance(nubs, (int, np.integer)) or isinstance(nubs, bool) or nubs < 1:
        raise BlockmazeError(f"nubs must be a whole number >= 1, got {nubs!r}")
    diameter, wall, nub_diameter, nub_length, clearance, depth = _sizes(
        diameter, wall, nub_diameter, nub_length, clearance, depth)
    rows, cols = maze.grid.shape
    radius, floor = diameter / 2, diameter / 2 - depth
    width = nub_diameter + 2 * clearance
    passage = _passage_angle(floor, width)
    column = 2 * np.pi / nubs / cols
    if (column - passage) * floor < LEAST_WALL:
        need = nubs * cols * (width + LEAST_WALL) / np.pi + 2 * depth
        raise BlockmazeError(f"diameter {diameter:g} mm is too small for {cols} columns x {nubs} "
                             f"nub(s): walls under {LEAST_WALL:g} mm; use about {need:.0f} mm or "
                             "fewer columns")
    if height is None:
        ridge = max(LEAST_WALL, nub_diameter / 2)
        height = rows * width + (rows + 1) * ridge
    else:
        height = _positive("height", height)
        ridge = (height - rows * width) / (rows + 1)
        if ridge < LEAST_WALL:
            raise BlockmazeError(f"height {height:g} mm is too low for {rows} rows: at least "
                                 f"{rows * width + (rows + 1) * LEAST_WALL:.1f} mm")
    start, goal, solution = _ends(maze)
    plan = np.tile(cylinder_plan(maze, openings=[(0, 2 * (start % cols) + 1)]), (1, nubs))
    widths = np.tile([column - passage, passage], cols * nubs)  # pixel columns: wall, passage
    theta_edges = np.concatenate([[0.0], np.cumsum(widths)])
    theta_edges[-1] = 2 * np.pi
    z_edges = height - np.concatenate([[0.0], np.cumsum(
        np.where(np.arange(2 * rows + 1) % 2, width, ridge))])
    z_edges[-1] = 0.0
    inner = tube_mesh(np.where(plan, radius, floor), z_edges, theta_edges, floor - wall)
    # the nub's path: (angle, z) of the cell centres, the angle unwrapped round the seam
    r, c = np.divmod(solution, cols)
    turns = np.concatenate([[0], (np.diff(c) + 1) % cols - 1])  # -1, 0 or +1 column a step
    theta = (c[0] + np.cumsum(turns)) * column + column - passage / 2
    z = height - ridge - width / 2 - r * (width + ridge)
    waypoints = np.column_stack([np.concatenate([[theta[0]], theta]),
                                 np.concatenate([[height + nub_diameter / 2 + clearance], z])])
    nub_path = _sampled(waypoints, radius - depth / 2)
    outer = radius + clearance + wall
    centres = theta[-1] + 2 * np.pi / nubs * np.arange(nubs)
    parts = {
        "inner": inner,
        "sleeve": _sleeve(outer, radius + clearance, height + clearance, nub_length, nub_diameter,
                          centres, float(z[-1])),
        "lid": tube_mesh(np.array([[outer]]), np.array([height + clearance + wall,
                                                         height + clearance]), ROUND, 0.0),
        "base": tube_mesh(np.array([[outer]]), np.array([0.0, -wall]), ROUND, 0.0),
    }
    return PuzzleBox(parts, nub_path, nub_diameter, nub_length, clearance, diameter, depth,
                     int(nubs), int(start), int(goal))
