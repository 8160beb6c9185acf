"""The carve of a maze, for the studio's animation: the same maze ``blockmaze generate`` makes
for the options, with the order its kernel opened the passages in (braiding's passages last).

Example
-------
>>> import tempfile
>>> from blockmaze.web.jobs import Limits
>>> record = carve_record({"size": "3x4", "seed": "7"}, Limits(), None, tempfile.mkdtemp())
>>> len(record["steps"]) // 2, len(record["centres"]) // 2   # 11 passages, 12 cells
(11, 12)
>>> solved = carve_record({"size": "3x4", "seed": "7", "solve": "bfs"}, Limits(), None,
...                       tempfile.mkdtemp())["solve"]
>>> solved["path"][-1] == solved["visits"][-1]
True
"""

from __future__ import annotations

import numpy as np

from .jobs import Job, Limits, RequestError


def carve_record(query, limits: Limits, mask: bytes | None, folder: str) -> dict:
    """The maze the query asks for (``generate``'s options) as JSON-ready lists: cell centres in
    plane units (``centres``: x, y, ...), the carved passages in order (``steps``: cell, cell,
    ...), the first ``carved`` of them from the algorithm and the rest from braiding, the plane's
    ``width`` and ``height``, and the ``seed``."""
    from ..grids.geometry import cell_shapes
    from ..jobs import shape_and_mask
    from ..support.randomness import draw_seed
    from ..replay import recorded_maze

    query = {key: value for key, value in dict(query).items() if key in KEPT}
    job = Job.from_query("generate", {**query, "format": "maze"}, mask)
    typed = job.typed(folder, limits)
    kind = typed.kind
    if kind == "labyrinth":
        raise RequestError("a labyrinth is drawn from its design, not carved: it has no carve "
                           "to replay")
    seed = draw_seed() if typed.seed is None else typed.seed
    shape, cells = shape_and_mask(kind, typed.size, typed.mask)
    algorithm, carve_seed = typed.algorithm, seed
    if typed.difficulty is not None:  # the carve the search chose, replayed
        from ..pipeline import make_maze

        chosen = make_maze(shape, kind, seed=seed, braid=typed.braid, entrances=typed.entrances,
                           mask=cells, difficulty=typed.difficulty)
        algorithm, carve_seed = chosen.algorithm, chosen.seed
    document, order, carved = recorded_maze(shape, kind, algorithm, carve_seed, typed.braid,
                                            typed.entrances, cells)
    grid = document.maze.grid
    steps = np.stack([order[:, 0], grid.neighbors[order[:, 0], order[:, 1]]], axis=1)
    points = cell_shapes(grid).points
    centres = np.nanmean(points, axis=1)
    record = {"kind": kind, "seed": seed, "carved": int(carved),
              "width": float(np.nanmax(points[..., 0])),
              "height": float(np.nanmax(points[..., 1])),
              "enabled": grid.enabled.astype(int).tolist(),
              "centres": np.round(centres, 3).ravel().tolist(), "steps": steps.ravel().tolist()}
    if typed.solve is not None and document.endpoints is not None:
        record["solve"] = _solver_record(document, typed.solve)
    return record


def _solver_record(document, method: str) -> dict:
    """``--solve``'s solver at work on the carved maze: the cells it visited in order and the
    way it found (a refusal, such as a wall follower kept from the goal, as ``error``)."""
    from ..errors import BlockmazeError
    from ..solvers import solve

    ends = document.endpoints
    try:
        found = solve(document.maze, method, ends.start, ends.goal, rng=0)
    except BlockmazeError as error:
        return {"method": method, "error": str(error)}
    return {"method": method, "visits": found.visits.tolist(), "path": found.path.tolist()}


# the options that decide the maze itself (the rest only change how it is written), and the
# solver replayed after the carve
KEPT = {"size", "grid", "algorithm", "seed", "braid", "entrances", "difficulty", "solve"}
