"""Exact sizes: choosing cell counts and wall/passage runs so a strict plan is exactly N blocks long.

Along one axis a strict layout is a sequence of runs ``[wall, passage, wall, ..., passage, wall]``:
``cells`` passage runs between ``cells + 1`` wall runs. :func:`fit_strict` picks the runs for a
length in blocks:

- everything fixed (``wall``, ``passage`` and ``cells``): the length must match exactly;
- ``wall`` and ``passage`` fixed, ``cells`` free: the most cells that fit, and the length must be
  one of ``(c + 1) * wall + c * passage``; otherwise the nearest possible lengths are reported;
- a thickness left free (None): it is at least 1 (or the share of the length the fixed parts
  leave), and the remainder is spread evenly over its runs, so some runs are one block thicker
  than others. With ``cells`` free too, the most cells that fit with the free thickness 1.

Non-uniform runs are deliberate: they are how any length is reached. The 2n+1 converter
(:func:`~blockmaze.blocks.convert.to_blocks`) and its inverse
(:func:`~blockmaze.blocks.convert.from_blocks`) take one thickness per axis, so a non-uniform fit
is drawn with :func:`apply_runs` and read back with :func:`from_runs` (which checks the runs and
hands the unit plan to ``from_blocks``: one inverse, no copy). A uniform fit gives exactly what
``to_blocks`` gives.

Example
-------
>>> fit = fit_strict(12)            # an even length: one run is a block thicker
>>> fit.cells, fit.runs.tolist()
(5, [1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1])
>>> fit_strict(12, wall=1, passage=1)
Traceback (most recent call last):
...
blockmaze.errors.BlockmazeError: a strict layout with wall 1 and passage 1 cannot be 12 blocks long; the nearest possible lengths are 11 and 13
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..errors import BlockmazeError
from ..maze import Maze
from ..materials import SOLID
from ..blocks.convert import from_blocks

Free = int | None


@dataclass(frozen=True)
class AxisFit:
    """The runs of one axis of a strict layout.

    Attributes
    ----------
    length : int
        Blocks along the axis (``runs.sum()``).
    cells : int
        Cells along the axis.
    runs : int64 array (2 * cells + 1,)
        ``[wall, passage, wall, ..., passage, wall]`` run lengths.
    """

    length: int
    cells: int
    runs: np.ndarray

    @property
    def wall_runs(self) -> np.ndarray:
        """The ``cells + 1`` wall run lengths."""
        return self.runs[0::2]

    @property
    def passage_runs(self) -> np.ndarray:
        """The ``cells`` passage run lengths."""
        return self.runs[1::2]

    @property
    def uniform(self) -> bool:
        """True if every wall run has one length and every passage run another (what to_blocks draws)."""
        return bool(np.ptp(self.wall_runs) == 0 and np.ptp(self.passage_runs) == 0)

    @property
    def wall(self) -> int:
        """The thinnest wall run."""
        return int(self.wall_runs.min())

    @property
    def passage(self) -> int:
        """The thinnest passage run."""
        return int(self.passage_runs.min())

    def __repr__(self) -> str:
        kind = "uniform" if self.uniform else "spread"
        return (f"AxisFit(length={self.length}, cells={self.cells}, wall={self.wall}, "
                f"passage={self.passage}, {kind})")


def _check_count(value, name: str, minimum: int = 1) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise BlockmazeError(f"{name} must be a whole number >= {minimum} or None, got {value!r}")
    return int(value)


def spread(total: int, count: int) -> np.ndarray:
    """``count`` whole numbers summing to ``total``, as equal as can be, the larger ones spread evenly.

    >>> spread(7, 3).tolist(), spread(2, 5).tolist()
    ([2, 3, 2], [0, 1, 0, 1, 0])
    """
    base, extra = divmod(total, count)
    out = np.full(count, base, dtype=np.int64)
    if extra:
        # the j-th extra block goes to run floor((j + 1/2) * count / extra): centred, evenly spaced
        out[(np.arange(extra) * 2 + 1) * count // (2 * extra)] += 1
    return out


def fit_strict(length_blocks: int, wall: Free = None, passage: Free = None,
               cells: Free = None) -> AxisFit:
    """Runs along one axis that make a strict layout exactly ``length_blocks`` long.

    ``wall``, ``passage`` and ``cells`` are fixed when given and chosen when None (see the module
    docstring). A length that fixed values cannot reach raises BlockmazeError naming the nearest
    lengths that work (or the smallest one).

    Example
    -------
    >>> fit_strict(21, wall=1, passage=1).cells
    10
    >>> fit_strict(20, wall=2, cells=3).runs.tolist()     # passages share the 12 blocks left
    [2, 4, 2, 4, 2, 4, 2]
    >>> fit_strict(21, wall=2, cells=3).runs.tolist()     # 13 blocks over 3 passages: 4, 5, 4
    [2, 4, 2, 5, 2, 4, 2]
    >>> fit_strict(22, passage=3).runs.tolist()           # the most cells, walls spread
    [1, 3, 1, 3, 1, 3, 2, 3, 1, 3, 1]
    """
    length = _check_count(length_blocks, "length in blocks")
    wall = _check_count(wall, "wall thickness")
    passage = _check_count(passage, "passage thickness")
    cells = _check_count(cells, "cell count")
    if length is None:
        raise BlockmazeError("a length in blocks is needed")

    if wall is not None and passage is not None:
        if cells is None:
            cells, rest = divmod(length - wall, wall + passage)
            if cells < 1 or rest:
                raise BlockmazeError(_nearest_message(length, wall, passage))
        elif (cells + 1) * wall + cells * passage != length:
            raise BlockmazeError(
                f"{cells} cells with wall {wall} and passage {passage} are "
                f"{(cells + 1) * wall + cells * passage} blocks long, not {length}; "
                "leave the cell count or a thickness free to fit the length"
            )
        runs = np.full(2 * cells + 1, wall, dtype=np.int64)
        runs[1::2] = passage
        return AxisFit(length, cells, runs)

    # at least one thickness is free: the fixed one takes its share, the free ones the rest
    base_wall = 1 if wall is None else wall
    base_passage = 1 if passage is None else passage
    if cells is None:
        cells = (length - base_wall) // (base_wall + base_passage)
        if cells < 1:
            smallest = 2 * base_wall + base_passage
            raise BlockmazeError(
                f"a strict layout with {_describe(wall, passage)} needs at least {smallest} blocks, "
                f"got {length}"
            )
    smallest = (cells + 1) * base_wall + cells * base_passage
    if length < smallest:
        raise BlockmazeError(
            f"{cells} cells with {_describe(wall, passage)} need at least {smallest} blocks, "
            f"got {length}"
        )
    runs = np.empty(2 * cells + 1, dtype=np.int64)
    if wall is not None:
        runs[0::2] = wall
        runs[1::2] = spread(length - (cells + 1) * wall, cells)
    elif passage is not None:
        runs[1::2] = passage
        runs[0::2] = spread(length - cells * passage, cells + 1)
    else:
        runs[:] = spread(length, 2 * cells + 1)
    return AxisFit(length, cells, runs)


def _describe(wall: Free, passage: Free) -> str:
    parts = [f"wall {wall}" if wall is not None else "wall >= 1",
             f"passage {passage}" if passage is not None else "passage >= 1"]
    return " and ".join(parts)


def _nearest_message(length: int, wall: int, passage: int) -> str:
    lower = max((length - wall) // (wall + passage), 1)
    options = [(c + 1) * wall + c * passage for c in (lower, lower + 1)]
    if length < options[0]:
        nearest = f"the smallest possible length is {options[0]}"
    else:
        nearest = f"the nearest possible lengths are {options[0]} and {options[1]}"
    return (f"a strict layout with wall {wall} and passage {passage} cannot be {length} blocks "
            f"long; {nearest}")


def nearest_lengths(length_blocks: int, wall: int, passage: int) -> tuple[int, ...]:
    """The possible strict lengths nearest ``length_blocks`` (itself if possible) for fixed thicknesses.

    >>> nearest_lengths(12, 1, 1), nearest_lengths(13, 1, 1), nearest_lengths(2, 2, 3)
    ((11, 13), (13,), (7,))
    """
    step, smallest = wall + passage, 2 * wall + passage
    if length_blocks <= smallest:
        return (smallest,)
    below = length_blocks - (length_blocks - smallest) % step
    return (below,) if below == length_blocks else (below, below + step)


def fit_plan(length_blocks: int, width_blocks: int, wall=None, passage=None,
             cells: Sequence[Free] | None = None) -> tuple[AxisFit, AxisFit]:
    """The ``(z, x)`` fits of a plan ``length_blocks`` along z (south) by ``width_blocks`` along x (east).

    ``wall`` and ``passage`` are a number, None (free) or a ``(z, x)`` pair of them; ``cells`` is
    None or ``(rows, cols)`` (each may be None).

    >>> fz, fx = fit_plan(21, 41, wall=1, passage=1)
    >>> fz.cells, fx.cells
    (10, 20)
    """
    wz, wx = _pair(wall, "wall")
    pz, px = _pair(passage, "passage")
    rows, cols = _pair(cells, "cells")
    try:
        fit_z = fit_strict(length_blocks, wz, pz, rows)
    except BlockmazeError as error:
        raise BlockmazeError(f"along z (length): {error}") from None
    try:
        fit_x = fit_strict(width_blocks, wx, px, cols)
    except BlockmazeError as error:
        raise BlockmazeError(f"along x (width): {error}") from None
    return fit_z, fit_x


def _pair(value, name: str, axes: int = 2) -> tuple:
    if isinstance(value, (tuple, list)):
        if len(value) != axes:
            raise BlockmazeError(f"{name} must be a number, None or {axes} of them, got {value!r}")
        return tuple(value)
    return (value,) * axes


def apply_runs(unit: np.ndarray, *runs: np.ndarray) -> np.ndarray:
    """Stretch a unit layout (one block per run) by the given runs, one run array per axis.

    >>> apply_runs(np.array([[1, 0, 1]], np.uint8), [2], [1, 3, 1]).tolist()
    [[1, 0, 0, 0, 1], [1, 0, 0, 0, 1]]
    """
    out = unit
    for axis, axis_runs in enumerate(runs):
        axis_runs = np.asarray(axis_runs, dtype=np.int64)
        if axis_runs.shape != (out.shape[axis],):
            raise BlockmazeError(
                f"{axis_runs.size} runs along axis {axis}, but the layout has {out.shape[axis]} units"
            )
        if not np.all(axis_runs == 1):
            out = np.repeat(out, axis_runs, axis=axis)
    return out


def from_runs(plan: np.ndarray, runs_z, runs_x) -> Maze:
    """The Maze of a strict plan drawn with any runs (uniform or not): the inverse of :func:`apply_runs`.

    Checks that every run of the plan is all open or all solid, then reads the unit plan with
    :func:`~blockmaze.blocks.convert.from_blocks`.

    >>> from blockmaze import generate, to_blocks
    >>> m = generate((3, 4), rng=1)
    >>> fz, fx = fit_plan(8, 10, cells=(3, 4))   # 8 blocks long, 10 wide: runs spread
    >>> from_runs(apply_runs(to_blocks(m), fz.runs, fx.runs), fz.runs, fx.runs) == m
    True
    """
    plan = np.asarray(plan)
    runs_z = np.asarray(runs_z, dtype=np.int64)
    runs_x = np.asarray(runs_x, dtype=np.int64)
    if plan.ndim != 2 or plan.shape != (int(runs_z.sum()), int(runs_x.sum())):
        raise BlockmazeError(
            f"a plan of shape {plan.shape} does not match runs of {int(runs_z.sum())} x "
            f"{int(runs_x.sum())} blocks"
        )
    if runs_z.size % 2 == 0 or runs_x.size % 2 == 0:
        raise BlockmazeError("runs alternate wall, passage, ..., wall: their count must be odd")
    unit = plan[np.ix_(np.cumsum(runs_z) - runs_z, np.cumsum(runs_x) - runs_x)]
    solid = SOLID[plan.astype(np.uint8)]
    if not np.array_equal(apply_runs(SOLID[unit.astype(np.uint8)], runs_z, runs_x), solid):
        raise BlockmazeError(
            "not a strict layout with these runs: some wall or passage run is partly open and "
            "partly solid"
        )
    return from_blocks(unit)
