"""Classical labyrinths as polar mazes: the Cretan family drawn from its seed pattern, and the
eleven-circuit medieval labyrinth of Chartres cathedral.

A labyrinth is one path with no choice in it, from an entrance in the outer wall round every
circuit to the centre. Each design here is a list of *segments*: the circuit a stretch of path
runs along (1 the outermost) and how far, in turns between *axes* (the radial lines where the
path changes circuit). Every change of circuit is a U-turn, so the segments alternate clockwise
and counter-clockwise; a turn between circuits that are not neighbours crosses the ones between
them radially, and the nesting of those crossings is what makes the design.

* **Cretan** (``circuits`` = 3, 7, 11, 15, ...: ``4k + 3``): one axis, every segment a full
  circuit. The order of the circuits comes from the seed pattern, a cross with ``k`` nested
  L's and a dot in each quadrant, whose end points are joined by nested arcs: :func:`cretan_sequence`
  does that construction (the seed's channels join pairs of gaps between its end points; the
  arcs join the gaps left and right), which gives 3-2-1-4-7-6-5 for the classical seven.
* **Chartres** (11 circuits): four axes, 31 segments of a quarter or half circle each, the path
  entering at circuit 5 and leaving circuit 7 for the centre (the layout as catalogued by the
  Mudge labyrinth pages: quarters ``1,1,2,2,1, 3 x (1,2,1,2,1,2,1), 1,2,2,1,1``).

On the polar grid the circuits are rings whose cell count is a multiple of the columns a design
needs (turn columns beside each axis, nested as deep as its turns are), the rings inside are the
centre, wound as a small spiral so the path ends at the middle point, and every cell not on the
path is masked (a wall): the spokes along the axes, and the rest of a radial crossing's cells.
The result is an ordinary polar :class:`~blockmaze.maze.Maze`, so every picture, block and mesh
exporter draws it, with :class:`~blockmaze.mazes.endpoints.Endpoints` from the entrance (an
opening in the outer wall) to the centre.

Example
-------
>>> doc = labyrinth(7)
>>> doc.maze.grid.kind, doc.maze.is_perfect(), len(doc.maze.dead_ends)
('polar', True, 2)
>>> sorted([doc.endpoints.start, doc.endpoints.goal]) == sorted(doc.maze.dead_ends.tolist())
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import BlockmazeError
from ..grids.polar import OUTWARD_A, polar_grid, ring_counts, ring_offsets
from ..maze import Maze
from .documents import MazeDocument
from .endpoints import Endpoints

STYLES = ("cretan", "chartres")
DEFAULT_CIRCUITS = {"cretan": 7, "chartres": 11}
MAX_CIRCUITS = 199  # a Cretan labyrinth of 4k + 3 circuits, k < 50


@dataclass(frozen=True)
class Design:
    """A labyrinth as segments ``(circuit, length in axis steps)``, the first clockwise from
    axis 0 (where the entrance is), over ``axes`` evenly spaced axes, then into the centre."""

    name: str
    circuits: int
    axes: int
    segments: tuple[tuple[int, int], ...]


# Chartres: the circuits in walking order and the quarter circles each runs (see the docstring)
_CHARTRES_CIRCUITS = (5, 6, 11, 10, 9, 8, 7, 8, 9, 10, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1,
                      2, 3, 4, 5, 4, 3, 2, 1, 6, 7)
_CHARTRES_QUARTERS = (1, 1, 2, 2, 1) + (1, 2, 1, 2, 1, 2, 1) * 3 + (1, 2, 2, 1, 1)
CHARTRES = Design("chartres", 11, 4, tuple(zip(_CHARTRES_CIRCUITS, _CHARTRES_QUARTERS, strict=True)))


def cretan_sequence(circuits: int) -> list[int]:
    """The order in which a Cretan labyrinth of ``circuits`` (``4k + 3``) circuits walks them,
    from the seed pattern of a cross with ``k`` nested L's and a dot in each quadrant.

    The seed's end points all lie on the border of a square of side ``2k + 2``; walking that
    border counter-clockwise from the top of the cross and clockwise from the point right of
    it, the i-th points of the two walks are joined by the i-th arc (the innermost first). A
    circuit is the way between two arcs; at each end it meets a gap between two border points,
    and inside the seed each gap leads to the gap on the other side of its quadrant corner.

    >>> cretan_sequence(7), cretan_sequence(11)
    ([3, 2, 1, 4, 7, 6, 5], [5, 2, 3, 4, 1, 6, 11, 8, 9, 10, 7])
    """
    k, rest = divmod(circuits - 3, 4)
    if rest or k < 0:
        raise BlockmazeError(f"a Cretan labyrinth has 4k + 3 circuits (3, 7, 11, 15, ...), got "
                             f"{circuits}")
    n = k + 1
    border = ([(x, n) for x in range(0, -n - 1, -1)] + [(-n, y) for y in range(n - 1, -n - 1, -1)]
              + [(x, -n) for x in range(-n + 1, n + 1)] + [(n, y) for y in range(-n + 1, n + 1)]
              + [(x, n) for x in range(n - 1, 0, -1)])
    half = 4 * n
    left, right = border[:half], border[half:][::-1]

    def gap(a, b):
        return (a[0] + b[0], a[1] + b[1])  # twice the midpoint: whole numbers

    def across(g):  # the gap a seed channel leads to, round the corner of its quadrant
        gx, gy = g
        if abs(gy) == 2 * n:
            return (2 * n if gx > 0 else -2 * n, abs(gx) if gy > 0 else -abs(gx))
        return (abs(gy) if gx > 0 else -abs(gy), 2 * n if gy > 0 else -2 * n)

    ends = {}
    for j in range(half - 1):
        ends[gap(left[j], left[j + 1])] = (j, gap(right[j], right[j + 1]))
        ends[gap(right[j], right[j + 1])] = (j, gap(left[j], left[j + 1]))
    centre = gap(left[0], right[0])
    order, at = [], across(gap(left[-1], right[-1]))
    while at != centre:
        j, other = ends[at]
        order.append(half - 1 - j)
        at = across(other)
    return order


def design(style: str = "cretan", circuits: int | None = None) -> Design:
    """The :class:`Design` of ``style`` with ``circuits`` circuits (default: 7 Cretan, 11 Chartres).

    >>> design("cretan", 3).segments
    ((1, 1), (2, 1), (3, 1))
    >>> design("chartres", 7)
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: the Chartres labyrinth has 11 circuits, got 7
    """
    if style not in STYLES:
        raise BlockmazeError(f"unknown labyrinth style {style!r}; choose one of: {', '.join(STYLES)}")
    circuits = DEFAULT_CIRCUITS[style] if circuits is None else int(circuits)
    if style == "chartres":
        if circuits != CHARTRES.circuits:
            raise BlockmazeError(f"the Chartres labyrinth has {CHARTRES.circuits} circuits, got "
                                 f"{circuits}")
        return CHARTRES
    if circuits > MAX_CIRCUITS:
        raise BlockmazeError(f"a Cretan labyrinth has at most {MAX_CIRCUITS} circuits here, got "
                             f"{circuits}")
    return Design(f"cretan-{circuits}", circuits, 1,
                  tuple((c, 1) for c in cretan_sequence(circuits)))


@dataclass(frozen=True)
class _Turn:
    axis: int
    side: int  # -1: before the axis (arriving clockwise), +1: after it, 0: on the axis itself
    low: int   # the outer circuit of the turn (0: outside)
    high: int  # the inner one (circuits + 1: the centre)


def _turns(d: Design) -> list[_Turn]:
    """The entrance, every change of circuit and the way into the centre, in walking order."""
    turns = [_Turn(0, 0, 0, d.segments[0][0])]
    at, sense = 0, 1
    for i, (circuit, length) in enumerate(d.segments):
        at += sense * length
        after = d.segments[i + 1][0] if i + 1 < len(d.segments) else d.circuits + 1
        turns.append(_Turn(at % d.axes, -sense, min(circuit, after), max(circuit, after)))
        sense = -sense
    return turns


def _columns(turns: list[_Turn], axes: int) -> tuple[list[int], int]:
    """Each turn's column, and the columns in a ring: turns beside an axis nest, the widest
    nearest the axis; each axis keeps a column of its own (a spoke of wall, or the entrance)."""
    depth = []
    for t in turns:
        depth.append(sum(1 for u in turns if u is not t and u.axis == t.axis and u.side == t.side
                         and u.low <= t.low and t.high <= u.high))
    deepest = {(t.axis, t.side): 0 for t in turns}
    for t, dep in zip(turns, depth, strict=True):
        deepest[(t.axis, t.side)] = max(deepest[(t.axis, t.side)], dep + 1)
    per_axis = max(deepest.get((a, 1), 0) + deepest.get(((a + 1) % axes, -1), 0) + 2
                   for a in range(axes))
    columns = 8  # a ring count of the polar grid: a power of two, from 8
    while 2 * columns < 3 * axes * per_axis:  # room to spare: the runs longer than the turns
        columns *= 2
    step = columns // axes
    return [(columns // 2 + t.axis * step + t.side * (1 + dep)) % columns
            for t, dep in zip(turns, depth, strict=True)], columns


def _path(d: Design) -> tuple[int, list[int]]:
    """The rings of the polar grid and its cells along the path, entrance first."""
    rings, first, cols, columns = _layout(d)
    counts, offsets = ring_counts(rings), ring_offsets(rings)

    def chain(circuit: int, column: int) -> np.ndarray:  # cells counter-clockwise to clockwise
        ring = first + d.circuits - circuit
        per = int(counts[ring]) // columns
        return int(offsets[ring]) + column * per + np.arange(per)

    path: list[int] = []
    # walk it: entrance, then each segment and the turn at its end
    sense = 1
    start_circuit = d.segments[0][0]
    for circuit in range(1, start_circuit):  # straight in along the entrance axis
        path.append(int(chain(circuit, cols[0])[0]))
    path.extend(chain(start_circuit, cols[0]).tolist())
    for i, (circuit, _) in enumerate(d.segments):
        here, there = cols[i], cols[i + 1]
        steps = ((there - here) * sense) % columns - 1
        for s in range(1, steps + 1):
            cells = chain(circuit, (here + sense * s) % columns)
            path.extend((cells if sense > 0 else cells[::-1]).tolist())
        nxt = d.segments[i + 1][0] if i + 1 < len(d.segments) else d.circuits + 1
        cells = chain(circuit, there)
        path.extend((cells if sense > 0 else cells[::-1]).tolist())  # the corner, to its far end
        step = 1 if nxt > circuit else -1
        for between in range(circuit + step, nxt, step):  # crossing, at the same end
            if 1 <= between <= d.circuits:
                cells = chain(between, there)
                path.append(int(cells[-1] if sense > 0 else cells[0]))
        if nxt <= d.circuits:  # the other corner, back the other way
            cells = chain(nxt, there)
            path.extend((cells[::-1] if sense > 0 else cells).tolist())
        sense = -sense
    return rings, path + _centre(path[-1], first, counts, offsets)


def _centre(entry_from: int, rings: int, counts: np.ndarray, offsets: np.ndarray) -> list[int]:
    """The centre's cells, ring by ring inwards, each ring walked clockwise round from where the
    path comes in: the inward neighbour of ``entry_from`` (in ring ``rings``)."""
    cells: list[int] = []
    here = entry_from
    for ring in range(rings - 1, -1, -1):
        here = _inward(here, ring + 1, counts, offsets)
        n, base = int(counts[ring]), int(offsets[ring])
        j = here - base
        cells.extend(base + (j + np.arange(n)) % n)
        here = cells[-1]
    return [int(c) for c in cells]


def _inward(cell: int, ring: int, counts: np.ndarray, offsets: np.ndarray) -> int:
    j = cell - int(offsets[ring])
    parent = j // 2 if counts[ring] == 2 * counts[ring - 1] else j
    return int(offsets[ring - 1]) + parent


def rings_of(style: str = "cretan", circuits: int | None = None) -> int:
    """The rings of the polar grid a labyrinth is drawn on (its circuits and its centre).

    >>> rings_of("cretan", 7), rings_of("chartres")
    (10, 16)
    """
    return _layout(design(style, circuits))[0]


def _layout(d: Design) -> tuple[int, int, list[int], int]:
    """The grid's rings, the innermost circuit's ring, each turn's column, the columns."""
    cols, columns = _columns(_turns(d), d.axes)
    first = int(np.flatnonzero(ring_counts(2 * columns) == columns)[0])
    return first + d.circuits, first, cols, columns


def labyrinth(circuits: int | None = None, style: str = "cretan") -> MazeDocument:
    """A classical labyrinth as a polar maze document: a single path from an opening in the
    outer wall (the start) to the middle (the goal); see the module docstring.

    Parameters
    ----------
    circuits : int, optional
        Cretan: 3, 7, 11, 15, ... (default 7). Chartres: 11 (its only size, the default).
    style : {"cretan", "chartres"}

    Examples
    --------
    >>> doc = labyrinth(style="chartres")
    >>> doc.maze.grid.shape, doc.algorithm
    ((16,), 'labyrinth:chartres')
    """
    chosen = design(style, circuits)
    rings, path = _path(chosen)
    cells = np.asarray(path, dtype=np.int64)
    if np.unique(cells).size != cells.size:  # a design whose turns cross: not one of ours
        raise BlockmazeError(f"the {chosen.name} labyrinth's path crosses itself")
    enabled = np.zeros(int(ring_offsets(rings)[-1]), dtype=bool)
    enabled[cells] = True
    grid = polar_grid(rings, mask=enabled)
    links = np.zeros((grid.size, grid.degree), dtype=bool)
    a, b = cells[:-1], cells[1:]
    hits = grid.neighbors[a] == b[:, None]
    if not hits.any(axis=1).all():
        raise BlockmazeError(f"the {chosen.name} labyrinth's path leaves the grid")
    direction = hits.argmax(axis=1)
    links[a, direction] = True
    links[b, grid.opposite[direction]] = True
    maze = Maze(grid, links)
    start = int(cells[0])
    ends = Endpoints(start, int(cells[-1]), ((start, OUTWARD_A),))
    algorithm = "labyrinth:" + ("chartres" if style == "chartres" else f"cretan-{chosen.circuits}")
    return MazeDocument(maze, ends, algorithm, None, 0.0)


__all__ = ["CHARTRES", "STYLES", "Design", "cretan_sequence", "design", "labyrinth", "rings_of"]
