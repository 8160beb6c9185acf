"""Maze documents: a maze saved as JSON (schemas/maze.schema.json), to export many ways later.

This module turns a document into JSON text and back; writing it to a file is the "maze" output
of the registry (:func:`blockmaze.export.maze_document.save_maze`).

Links are stored per cell as ``ceil(k / 4)`` hex digits (bit d = a passage towards direction d),
so a million-cell square maze is a 1 MB string.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .endpoints import Endpoints
from ..errors import BadFileError, BlockmazeError, shown
from .generation import make_grid
from ..grids import GRID_KINDS
from .masks import mask_shape
from ..support.memory import ensure_step_memory
from ..maze import Maze

DOCUMENT_TYPE = "blockmaze-maze"
DOCUMENT_VERSION = 1
MAX_SEED = 1 << 128


@dataclass(frozen=True)
class MazeDocument:
    """A maze with its endpoints and where it came from (algorithm, seed, braid share).

    Parameters
    ----------
    maze : Maze
        The maze itself.
    endpoints : Endpoints, optional
        Its start, goal and openings.
    algorithm : str, optional
        The algorithm that carved it, as given to :func:`~blockmaze.generate`.
    seed : int, optional
        The seed it was carved (and braided) with.
    braid : float
        The share of dead ends opened (:func:`~blockmaze.braid`).
    split_from : Maze, optional
        For a unicursal maze of a hex, triangle, upsilon or polar grid (which is split as a
        square maze, :func:`blockmaze.blocks.unicursal.unicursal`), the perfect maze it was
        split from: its pictures are drawn on that grid (:mod:`blockmaze.export.unicursal_picture`).
    extra : dict
        Other fields of a document read back, kept as they were.

    Examples
    --------
    >>> import io
    >>> from blockmaze import generate
    >>> doc = MazeDocument(generate((3, 4), rng=5), algorithm="backtracker", seed=5)
    >>> load_maze(io.BytesIO(document_text(doc).encode())) == doc
    True
    """

    maze: Maze
    endpoints: Endpoints | None = None
    algorithm: str | None = None
    seed: int | None = None
    braid: float = 0.0
    extra: dict = field(default_factory=dict, compare=False)
    split_from: Maze | None = None


def _hex_digits(k: int) -> int:
    return (k + 3) // 4


def encode_links(links: np.ndarray) -> str:
    """Per-cell hex bit masks of ``links`` (bit d = open towards d).

    >>> encode_links(np.array([[False, True, False, False], [True, True, True, True]]))
    '2f'
    """
    n, k = links.shape
    digits = _hex_digits(k)
    masks = (links.astype(np.uint64) << np.arange(k, dtype=np.uint64)).sum(axis=1)
    nibbles = (masks[:, None] >> (4 * np.arange(digits - 1, -1, -1, dtype=np.uint64))) & 15
    return np.frombuffer(b"0123456789abcdef", np.uint8)[nibbles.astype(np.int64)].tobytes().decode()


def decode_links(text: object, n: int, k: int) -> np.ndarray:
    """The inverse of :func:`encode_links`."""
    digits = _hex_digits(k)
    if not isinstance(text, str) or len(text) != n * digits:
        raise BlockmazeError(
            f"maze document: links must be a string of {n * digits} hex digits ({digits} per cell)"
        )
    raw = np.frombuffer(text.encode("ascii", "replace"), np.uint8)
    value = np.full(256, 255, np.uint8)
    value[np.frombuffer(b"0123456789abcdef", np.uint8)] = np.arange(16)
    value[np.frombuffer(b"ABCDEF", np.uint8)] = np.arange(10, 16)
    nibbles = value[raw]
    if np.any(nibbles == 255):
        raise BlockmazeError("maze document: links may contain only hex digits 0-9 and a-f")
    masks = np.zeros(n, np.uint64)
    for i in range(digits):
        masks = (masks << np.uint64(4)) | nibbles[i::digits].astype(np.uint64)
    if np.any(masks >> np.uint64(k)):
        raise BlockmazeError(f"maze document: links name a direction beyond the grid's {k}")
    return ((masks[:, None] >> np.arange(k, dtype=np.uint64)) & np.uint64(1)).astype(bool)


def document_text(document: MazeDocument) -> str:
    """A maze document as JSON text, one top-level field a line (links last).

    >>> from blockmaze import generate
    >>> document_text(MazeDocument(generate((1, 2), rng=0))).splitlines()[1]
    ' "type": "blockmaze-maze",'
    """
    maze, ends = document.maze, document.endpoints
    grid = maze.grid
    ensure_step_memory("document", grid.size, f"a maze document of {grid.size} cells")
    data = {
        "type": DOCUMENT_TYPE,
        "version": DOCUMENT_VERSION,
        "grid": _grid_field(grid),
        "algorithm": document.algorithm,
        "seed": document.seed,
        "braid": document.braid,
        "start": None if ends is None else ends.start,
        "goal": None if ends is None else ends.goal,
        "openings": [] if ends is None else [[c, grid.directions[d]] for c, d in ends.openings],
        **({"checkpoints": list(ends.checkpoints)} if ends is not None and ends.checkpoints else {}),
        **({"exits": list(ends.exits)} if ends is not None and ends.exits else {}),
        **({"split_from": {"grid": _grid_field(document.split_from.grid),
                           "links": encode_links(document.split_from.links)}}
           if document.split_from is not None else {}),
        "links": encode_links(maze.links),
    }
    import json  # (here, as in load_maze: a printed maze never reads or writes JSON)

    return "{\n" + ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}" for k, v in data.items()) + "\n}\n"


def _grid_field(grid) -> dict:
    """A grid as the document's ``grid`` object: kind, shape, the masked cells (crossings)."""
    return {"kind": grid.kind, "shape": list(grid.shape),
            "disabled": np.flatnonzero(~grid.enabled).tolist(), **_crossings_field(grid)}


def _crossings_field(grid) -> dict:
    """A weave grid's crossings as ``{"crossings": {"east-west": [cells], "north-south": [...]}}``
    (keyed by the over-passage's direction); nothing for other grids."""
    crossings = getattr(grid, "crossings", None)
    if crossings is None:
        return {}
    from ..grids.weave import OVER_NAMES

    return {"crossings": {name: np.flatnonzero(crossings == code).tolist()
                          for code, name in OVER_NAMES.items()}}


def _with_crossings(grid, data):
    """The weave grid ``grid`` with the crossings of a document's ``grid.crossings``."""
    from ..grids.weave import OVER_NAMES, weave_grid

    if data is None:
        return grid
    if not isinstance(data, dict) or set(data) - set(OVER_NAMES.values()):
        raise BlockmazeError("maze document: grid.crossings must be an object with lists "
                             "east-west and north-south")
    crossings = np.zeros(grid.size, np.int8)
    for code, name in OVER_NAMES.items():
        cells = data.get(name, [])
        if not isinstance(cells, list) or not all(
                isinstance(c, int) and not isinstance(c, bool) and 0 <= c < grid.size for c in cells):
            raise BlockmazeError(f"maze document: grid.crossings.{name} must list cells 0..{grid.size - 1}")
        crossings[cells] = code
    try:
        return weave_grid(*grid.shape, mask=grid.enabled.reshape(grid.shape), crossings=crossings)
    except BlockmazeError as error:
        raise BlockmazeError(f"maze document: grid.crossings: {error}") from None


def shape_cells(kind: str, shape: list[int]) -> int:
    """The cells of a ``kind`` grid of ``shape``, from the shape alone (no grid is built): a
    polar grid's shape is its ring count, not its cells.

    >>> shape_cells("square", [3, 4]), shape_cells("polar", [3])
    (12, 20)
    """
    if kind == "polar" and len(shape) == 1:
        from ..grids.polar import polar_cell_count

        return polar_cell_count(min(int(shape[0]), 100_001))  # (more rings are refused anyway)
    return math.prod(shape)


def check_links_cover(shape: list[int], links_text: object, kind: str = "square") -> None:
    """Refuse a shape of other cells than the links string can describe (every cell takes one
    or two hex digits), by sizes alone, before anything of that size is allocated.

    >>> check_links_cover([20000, 20000], "6ac3852a9")
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: maze document: grid.shape [20000, 20000] has more cells than its links (9 hex digits) describe
    >>> check_links_cover([5000], "0000", "polar")
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: maze document: grid.shape [5000] has more cells than its links (4 hex digits) describe
    """
    length = len(links_text) if isinstance(links_text, str) else 0
    cells = shape_cells(kind, shape)
    if cells > max(length, 1 << 16):
        raise BlockmazeError(f"maze document: grid.shape {shown(shape)} has more cells than its "
                             f"links ({length} hex digits) describe")
    if cells > 1 << 16 and length not in (cells, 2 * cells):  # smaller: decode_links says exactly
        raise BlockmazeError(f"maze document: links must be one or two hex digits for each of the "
                             f"{cells} cells of grid.shape {shown(shape)}, got {length}")


MAX_DOCUMENT_BYTES = 1 << 28  # 256 MiB: 2 hex digits a cell, a 100-million-cell maze


# what a maze document is, for a user who named another file
WHAT_DOCUMENT = "export reads the .json that blockmaze generate ... -o m.json writes"


def load_maze(source: str | Path | object) -> MazeDocument:
    """Read a maze document from a path or a binary file.

    Parameters
    ----------
    source : str, pathlib.Path or binary file
        A document written by :func:`~blockmaze.export.maze_document.save_maze` (or any JSON
        following ``schemas/maze.schema.json``).

    Returns
    -------
    MazeDocument
        The maze, its endpoints, algorithm, seed and braid share; a bad document raises
        BadFileError naming the file and the field that was wrong.

    Examples
    --------
    >>> import io
    >>> from blockmaze import generate
    >>> text = document_text(MazeDocument(generate((2, 3), rng=4), seed=4))
    >>> load_maze(io.BytesIO(text.encode())).maze == generate((2, 3), rng=4)
    True
    """
    name = str(getattr(source, "name", None) or ("maze document" if hasattr(source, "read") else source))
    try:
        if hasattr(source, "read"):
            raw = source.read(MAX_DOCUMENT_BYTES + 1)
            if len(raw) > MAX_DOCUMENT_BYTES:
                raise BadFileError(f"{name}: larger than the {MAX_DOCUMENT_BYTES} bytes a maze "
                                   "document may have")
        else:
            from ..support.files import read_regular

            # not a file: a path
            raw = read_regular(source, "maze document", MAX_DOCUMENT_BYTES)  # type: ignore[arg-type]
    except OSError as error:
        raise BadFileError(f"cannot read maze document {name}: {error.strerror or error}") from None
    import json

    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        if not raw.lstrip(b"\xef\xbb\xbf \t\r\n").startswith((b"{", b"[")):  # not JSON at all
            raise BadFileError(f"{name}: its first bytes are not JSON: not a maze document "
                               f"({WHAT_DOCUMENT})") from None
        raise BadFileError(f"{name}: maze document is not valid JSON: {error}") from None
    except (ValueError, RecursionError) as error:  # a number of too many digits, deep nesting
        raise BadFileError(f"{name}: maze document is not usable JSON: "
                           f"{'nested too deeply' if isinstance(error, RecursionError) else error}") from None
    try:
        return parse_maze(data)
    except BlockmazeError as error:
        if str(error).startswith("not a maze document"):
            raise BadFileError(f"{name}: {error} ({WHAT_DOCUMENT})") from None
        raise BadFileError(f"{name}: {error}") from None
    except (RecursionError, TypeError, ValueError, KeyError, IndexError, OverflowError) as error:
        raise BadFileError(f"{name}: maze document is malformed ({type(error).__name__})") from None
    except MemoryError:
        raise BadFileError(f"{name}: maze document describes a maze larger than memory allows") from None


def _field(data: dict, name: str, kind, where: str = "", optional: bool = False):
    value = data.get(name)
    if value is None and optional:
        return None
    ok = isinstance(value, kind) and not (isinstance(value, bool) and kind in (int, (int, float)))
    if not ok:
        expected = getattr(kind, "__name__", None) or " or ".join(k.__name__ for k in kind)
        raise BlockmazeError(f"maze document: {where}{name} must be {expected}, got {shown(value)}")
    return value


def parse_maze(data: object) -> MazeDocument:
    """Build a MazeDocument from parsed JSON, checking every field."""
    if not isinstance(data, dict) or data.get("type") != DOCUMENT_TYPE:
        raise BlockmazeError(f"not a maze document: its 'type' must be {DOCUMENT_TYPE!r}")
    if data.get("version") != DOCUMENT_VERSION:
        raise BlockmazeError(
            f"maze document: version {shown(data.get('version'))} is not supported (this blockmaze reads {DOCUMENT_VERSION})"
        )
    maze = _parse_maze_grid(data)
    seed = _field(data, "seed", int, optional=True)
    if seed is not None and not 0 <= seed < MAX_SEED:
        raise BlockmazeError(f"maze document: seed must be a whole number 0..2**128-1, got {shown(seed)}")
    braid = float(_field(data, "braid", (int, float), optional=True) or 0.0)
    if not 0.0 <= braid <= 1.0:  # NaN fails too
        raise BlockmazeError(f"maze document: braid must be a share from 0 to 1, got {shown(braid)}")
    return MazeDocument(
        maze,
        _parse_endpoints(data, maze),
        _algorithm_name(data),
        seed,
        braid,
        split_from=_parse_split_from(data, maze),
    )


SPLIT_KINDS = ("hex", "triangle", "upsilon", "polar")  # split in blocks: the square is not drawn


def _parse_split_from(data: dict, maze: Maze) -> Maze | None:
    """The perfect maze a unicursal square maze was split from (``split_from``), or None.

    >>> import io
    >>> from blockmaze.pipeline import make_maze
    >>> doc = make_maze((2, 3), "hex", seed=2, unicursal=True)
    >>> load_maze(io.BytesIO(document_text(doc).encode())).split_from == doc.split_from
    True
    """
    split = _field(data, "split_from", dict, optional=True)
    if split is None:
        return None
    original = _parse_maze_grid(split, "split_from.")
    kind = original.grid.kind
    if kind not in SPLIT_KINDS or maze.grid.kind != "square":
        raise BlockmazeError(f"maze document: split_from is the {', '.join(SPLIT_KINDS)} maze a "
                             f"square unicursal maze was split from, not a {kind} one beside a "
                             f"{maze.grid.kind} maze")
    if not original.is_perfect():
        raise BlockmazeError("maze document: split_from must be a perfect maze (one way between "
                             "any two cells): a unicursal maze is split from one")
    return original


def _parse_maze_grid(data: dict, where: str = "") -> Maze:
    """The maze of a document's (or its ``split_from``'s) ``grid`` and ``links`` fields;
    ``where`` prefixes the field names in errors."""
    grid_data = _field(data, "grid", dict, where)
    kind = _field(grid_data, "kind", str, f"{where}grid.")
    if kind not in GRID_KINDS:
        raise BlockmazeError(f"maze document: {where}grid.kind {shown(kind)} is unknown; known: {', '.join(GRID_KINDS)}")
    shape = _field(grid_data, "shape", list, f"{where}grid.")
    if not shape or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in shape):
        raise BlockmazeError(f"maze document: {where}grid.shape must be whole numbers >= 1, got {shown(shape)}")
    check_links_cover(shape, data.get("links"), kind)
    try:
        grid = make_grid(shape, kind)
    except (TypeError, ValueError, IndexError, OverflowError) as error:
        if isinstance(error, BlockmazeError):
            raise BlockmazeError(f"maze document: {where}grid.shape: {error}") from None
        raise BlockmazeError(f"maze document: {where}grid.shape {shown(shape)} does not fit a {kind} grid") from None
    disabled = _field(grid_data, "disabled", list, f"{where}grid.", optional=True) or []
    if not all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c < grid.size for c in disabled):
        raise BlockmazeError(f"maze document: {where}grid.disabled must list cells 0..{grid.size - 1}")
    if disabled:
        mask = np.ones(grid.size, bool)
        mask[disabled] = False
        if not mask.any():
            raise BlockmazeError("maze document: no enabled cell (grid.disabled lists every cell)")
        grid = GRID_KINDS[kind](*shape, mask=mask.reshape(mask_shape(kind, shape)))
    if kind == "weave":
        grid = _with_crossings(grid, grid_data.get("crossings"))
    try:
        links = decode_links(data.get("links"), grid.size, grid.degree)
    except BlockmazeError as error:
        raise BlockmazeError(str(error).replace(": links", f": {where}links", 1)) from None
    try:
        maze = Maze(grid, links)
    except BlockmazeError as error:
        raise BlockmazeError(f"maze document: {where}links: {error}") from None
    return maze


def _algorithm_name(data: dict) -> str | None:
    """The document's algorithm field: a name on one line (no control characters to spoof
    output lines with)."""
    name = _field(data, "algorithm", str, optional=True)
    if name is not None and (len(name) > 100 or not name.isprintable()):
        raise BlockmazeError(f"maze document: algorithm must be a name of at most 100 printable "
                             f"characters, got {shown(name)}")
    return name


def _parse_endpoints(data: dict, maze: Maze) -> Endpoints | None:
    start = _field(data, "start", int, optional=True)
    goal = _field(data, "goal", int, optional=True)
    openings = _field(data, "openings", list, optional=True) or []
    if start is None and goal is None and not openings:
        return None
    grid = maze.grid
    for name, cell in (("start", start), ("goal", goal)):
        if cell is None or not (0 <= cell < grid.size) or not grid.enabled[cell]:
            raise BlockmazeError(f"maze document: {name} must be an enabled cell 0..{grid.size - 1}, got {shown(cell)}")
    parsed = []
    for item in openings:
        if (not isinstance(item, list) or len(item) != 2 or not isinstance(item[0], int)
                or not 0 <= item[0] < grid.size or item[1] not in grid.directions):
            raise BlockmazeError(
                f"maze document: each opening must be [cell, direction] with a direction of "
                f"{', '.join(grid.directions)}; got {shown(item)}"
            )
        parsed.append((item[0], grid.directions.index(item[1])))
    if parsed:
        from ..grids.geometry import outer_sides

        outer = outer_sides(grid)
        for cell, d in parsed:
            if not outer[cell, d]:
                raise BlockmazeError(f"maze document: an opening must be in the outer wall; cell {cell}'s "
                                     f"{grid.directions[d]} side is inside the maze (or masked)")
    stops = {}
    for name in ("checkpoints", "exits"):
        cells = _field(data, name, list, optional=True) or []
        for cell in cells:
            if not isinstance(cell, int) or isinstance(cell, bool) or not 0 <= cell < grid.size \
                    or not grid.enabled[cell]:
                raise BlockmazeError(f"maze document: {name} must be enabled cells 0..{grid.size - 1}, "
                                     f"got {shown(cell)}")
        stops[name] = tuple(cells)
    opened = {cell for cell, _ in parsed}
    if not opened.issuperset(stops["exits"]):
        raise BlockmazeError("maze document: every exit needs its opening in 'openings'")
    return Endpoints(start, goal, tuple(parsed), stops["checkpoints"], stops["exits"])

