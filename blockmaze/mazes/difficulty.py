"""How hard a maze is to solve, from 0 (easiest) to 1, and mazes made to a difficulty asked for.

A maze's **efforts** (each per cell of the maze, so sizes compare):

* ``wall``: the cells a right-hand wall follower steps on before the goal
  (:mod:`blockmaze.solvers`; between the ends of a perfect maze's longest path the left hand's
  walk is the rest of the same tour, so the two hands' mean says nothing);
* ``mouse``: the steps a random walker (each open way as likely, back included) takes on average
  before the goal: on a perfect maze exactly, the sum over the way's cells of ``2 s - 1``, ``s``
  the cells beyond it seen from the goal; on a maze with loops the mean of three random mice;
* ``solution``: the steps from start to goal;
* ``decisions``: the way's decision points (:func:`blockmaze.mazes.measures.decision_points`).

Its **difficulty** is its rank among reference mazes of its grid kind and size: each effort's
share of the reference mazes with less of it, averaged, and that mean's own share among theirs.
So in the reference mazes difficulty is spread evenly over 0..1 and ``easy``, ``medium`` and
``hard`` (:data:`BANDS`) each hold a third. The reference (``difficulty.json`` beside this
module, written by ``bench/calibrate_difficulty.py``) is, for each kind and three sizes, the
efforts of mazes by every recipe (:func:`recipes`: each algorithm the kind has, growing-tree at
several mixes) and each recipe's spread of difficulty, from which :func:`search` picks recipes
likely to land in a band. Sizes between the calibrated ones use the nearest by cell count.

Example
-------
>>> from blockmaze import generate
>>> score = measured(generate((10, 10), "backtracker", rng=1))
>>> 0 <= score["score"] <= 1, score["band"] in BANDS
(True, True)
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable
from importlib import resources

import numpy as np

from .. import analysis, solvers
from ..errors import ParameterError
from ..maze import Maze
from ..support.breadth import breadth_first
from ..support.kernels import kernel
from .documents import MazeDocument
from .endpoints import Endpoints, place_endpoints
from .measures import decision_points

BANDS = {"easy": (0.0, 1 / 3), "medium": (1 / 3, 2 / 3), "hard": (2 / 3, 1.0)}
NUMBER_BAND = 0.1  # a difficulty asked as a number lands within this of it
EFFORTS = ("wall", "mouse", "solution", "decisions")
GROWING_MIXES = ("0", "0.25", "0.5", "0.75", "0.9", "1")
SLOW = frozenset({"aldous-broder"})  # left out of the recipes: far slower for the same mazes
MOST_TRIES = 40
MICE = 3


def parse_difficulty(text: str | float) -> tuple[float, float]:
    """The band ``(low, high)`` a ``--difficulty`` asks for: a name of :data:`BANDS`, or a number
    from 0 to 1 (within :data:`NUMBER_BAND` of it).

    >>> parse_difficulty("hard"), parse_difficulty("0.5")
    ((0.6666666666666666, 1.0), (0.4, 0.6))
    >>> parse_difficulty("harder")
    Traceback (most recent call last):
    ...
    blockmaze.errors.ParameterError: difficulty must be easy, medium, hard or a number from 0 to 1, got 'harder'
    """
    if isinstance(text, str) and text in BANDS:
        return BANDS[text]
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 <= value <= 1:
        raise ParameterError(f"{{difficulty}} must be easy, medium, hard or a number from 0 to 1, "
                             f"got {text!r}")
    return max(0.0, value - NUMBER_BAND), min(1.0, value + NUMBER_BAND)


def band_name(score: float) -> str:
    """The band a difficulty falls in.

    >>> band_name(0.2), band_name(0.9)
    ('easy', 'hard')
    """
    return next(name for name, (low, high) in BANDS.items() if score <= high)


def recipes(kind: str) -> list[str]:
    """The algorithm specs the difficulty search chooses among on ``kind``.

    >>> recipes("hex")[:3]
    ['backtracker', 'eller', 'growing-tree:0']
    """
    from ..algorithms import ALGORITHMS

    found: list[str] = []
    for name in sorted(ALGORITHMS):
        row = ALGORITHMS[name]
        if name in SLOW or (row.grid_kinds is not None and kind not in row.grid_kinds):
            continue
        if name == "growing-tree":
            found.extend(f"{name}:{mix}" for mix in GROWING_MIXES)
        else:
            found.append(name)
    return found


def efforts(maze: Maze, start: int, goal: int) -> dict[str, float]:
    """The four efforts above of solving ``maze`` from ``start`` to ``goal``.

    >>> from blockmaze import generate
    >>> sorted(efforts(generate((6, 6), rng=2), 0, 35))
    ['decisions', 'mouse', 'solution', 'wall']
    """
    grid = maze.grid
    cells = grid.enabled_count
    # a loop keeping the wall from the goal: as hard as it gets
    wall = solvers.wall_walk(maze, start, goal).size or 2 * maze.passage_count + 1
    n = grid.size
    distance = np.full(n, -1, dtype=np.int32)
    parents = np.full(n, -1, dtype=np.int32)
    queue = np.empty(n, dtype=np.int32)
    reached = breadth_first(grid.neighbors, maze.links, goal, distance, parents, queue)
    way = analysis.path_from_parents(parents, start)[::-1]  # from start to goal
    if maze.passage_count == cells - 1:
        mouse = float(_hitting(queue[:reached], parents, start, goal))
    else:
        seeds = np.random.SeedSequence(start * cells + goal).generate_state(MICE)
        mouse = float(np.mean([solvers.solve(maze, "random-mouse", start, goal,
                                             rng=int(s)).visits.size - 1 for s in seeds]))
    degree = analysis.degrees(maze.links)
    return {"wall": wall / cells, "mouse": mouse / cells, "solution": (way.size - 1) / cells,
            "decisions": decision_points(degree, way) / cells}


@kernel(views=True)
def _hitting(order, parents, start, goal):
    n = parents.shape[0]
    beyond = np.ones(n, dtype=np.int64)
    for i in range(order.shape[0] - 1, 0, -1):
        beyond[parents[order[i]]] += beyond[order[i]]
    steps = 0
    cell = start
    while cell != goal:
        steps += 2 * beyond[cell] - 1
        cell = parents[cell]
    return steps


@functools.cache
def table() -> dict:
    """The reference efforts (``difficulty.json``), read once."""
    text = resources.files(__package__).joinpath("difficulty.json").read_text(encoding="utf-8")
    return json.loads(text)


def reference(kind: str, cells: int) -> dict:
    """The calibrated size of ``kind`` nearest ``cells`` (by the ratio of cell counts)."""
    kinds = table()["kinds"]
    if kind not in kinds:
        raise ParameterError(f"difficulty is calibrated for {', '.join(sorted(kinds))} mazes, "
                             f"not {kind}")
    return min(kinds[kind], key=lambda size: abs(math.log(size["cells"] / max(cells, 1))))


def _rank(value: float, quantiles: list[float]) -> float:
    """The share of the reference below ``value``, from its quantiles (ties: the middle)."""
    q = np.asarray(quantiles)
    share = np.linspace(0.0, 1.0, q.size)
    low = np.interp(value, q, share, left=0.0, right=1.0)
    high = 1.0 - np.interp(-value, -q[::-1], share, left=0.0, right=1.0)
    return float((low + high) / 2)


def score(measures: dict[str, float], size: dict) -> float:
    """The difficulty of a maze with these efforts against a calibrated size's reference."""
    mean = float(np.mean([_rank(measures[e], size["efforts"][e]) for e in EFFORTS]))
    return round(_rank(mean, size["score"]), 4)


def measured(maze: Maze, start: int | None = None, goal: int | None = None) -> dict:
    """``{"score", "band", "efforts"}``: the difficulty of ``maze`` from ``start`` to ``goal``
    (by default the ends of its longest path)."""
    if start is None or goal is None:
        ends = analysis.longest_path(maze.grid.neighbors, maze.links, maze.grid.enabled)
        start, goal = int(ends[0]), int(ends[-1])
    found = efforts(maze, start, goal)
    value = score(found, reference(maze.grid.kind, maze.grid.enabled_count))
    return {"score": value, "band": band_name(value),
            "efforts": {k: round(v, 5) for k, v in found.items()}}


def _share_in(quantiles: list[float], low: float, high: float) -> float:
    """A recipe's share of mazes with difficulty in ``[low, high]``, from its quantiles."""
    q = np.asarray(quantiles)
    share = np.linspace(0.0, 1.0, q.size)
    cdf = np.interp([low, high], q, share, left=0.0, right=1.0)
    return float(cdf[1] - cdf[0])


@functools.cache
def _weights(kind: str, cells: int, low: float, high: float) -> tuple[list[str], np.ndarray]:
    """The recipes of a calibrated size and the chance :func:`search` draws each for a band:
    in proportion to the cube of its reference mazes' share in the band."""
    recipes = reference(kind, cells)["recipes"]
    names = list(recipes)
    shares = np.array([_share_in(recipes[name], low, high) for name in names])
    weights = shares**3 + 1e-6
    return names, weights / weights.sum()


def search(make: Callable[[str, int], MazeDocument], kind: str, cells: int,
           band: tuple[float, float], seed: int) -> tuple[MazeDocument, float, int]:
    """Make mazes until one's difficulty is in ``band``: each try draws a recipe and a seed from
    ``seed``'s generator, and
    ``make(algorithm, seed)`` returns the maze document (with its start and goal) on a grid of
    ``cells`` enabled cells of ``kind``, recipes drawn by :func:`_weights`. Gives up
    after :data:`MOST_TRIES`, keeping the try nearest the band. Returns it, its difficulty and
    the tries made.

    >>> from blockmaze import generate
    >>> def make(algorithm, seed):
    ...     maze = generate((10, 10), algorithm, rng=seed)
    ...     return MazeDocument(maze, place_endpoints(maze), algorithm, seed)
    >>> document, value, tries = search(make, "square", 100, BANDS["hard"], 1)
    >>> value >= 2 / 3, document.algorithm in recipes("square")
    (True, True)
    """
    size = reference(kind, cells)
    names, weights = _weights(kind, size["cells"], *band)
    low, high = band
    rng = np.random.default_rng(seed)
    best: tuple[float, MazeDocument, float] | None = None
    tries = 0
    while tries < MOST_TRIES:
        tries += 1
        document = make(names[int(rng.choice(len(names), p=weights))], int(rng.integers(2**32)))
        ends = document.endpoints
        assert ends is not None
        value = score(efforts(document.maze, ends.start, ends.goal), size)
        miss = max(low - value, value - high, 0.0)
        if best is None or miss < best[0]:
            best = (miss, document, value)
        if miss == 0.0:
            break
    assert best is not None
    return best[1], best[2], tries


def analyzed(maze: Maze, endpoints: Endpoints | None = None) -> dict:
    """The measures of ``maze`` (:func:`blockmaze.mazes.measures.analyze`) and, under
    ``difficulty``, :func:`measured`, from ``endpoints`` (by default the ends of its longest path).

    >>> from blockmaze import generate
    >>> sorted(analyzed(generate((5, 5), rng=1))["difficulty"])
    ['band', 'efforts', 'score']
    """
    from .measures import analyze

    if endpoints is None:
        endpoints = place_endpoints(maze)
    facts = analyze(maze, endpoints)
    facts["difficulty"] = measured(maze, endpoints.start, endpoints.goal)
    return facts

