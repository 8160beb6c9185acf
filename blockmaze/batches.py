"""A level factory: many items of one command, the same bytes on any number of workers.

``blockmaze batch COMMAND [its options] --count N -o OUT`` (and :func:`batch`) makes N items
from one description: the command's options, some drawn from ranges (``--vary``), and a root
seed. Item ``i``'s seed comes from the root seed and ``i`` alone
(:func:`blockmaze.support.randomness.item_seed`), and so do its drawn options, so the items are
the same whichever worker makes them. Items are made in shards of a fixed size; each shard is
one task of an engine (this process, local processes, Dask or Ray: :mod:`blockmaze.support.engines`)
and is written whole or not at all (a temporary file renamed), so a stopped run started again
resumes at the shards it lacks and ends with the same bytes. OUT is

- a Parquet dataset (``OUT.parquet/part-00000.parquet``, ...) or ``.npz`` shards
  (``OUT.npz/part-00000.npz``): a row per generated maze (:data:`COLUMNS`);
- or a level pack: a folder of files in any output format (``--format``), one item's files
  each, written by the command's own writing path, and ``index.json`` naming them.

Beside them ``_blockmaze-batch.json`` records the description, each shard's SHA-256 and the
dataset's hash (the SHA-256 of the shards' hashes in order).

Example
-------
>>> import tempfile, os
>>> out = os.path.join(tempfile.mkdtemp(), "mazes.parquet")
>>> done = batch("generate", {"size": (5, 5)}, count=6, output=out, seed=1, shard_size=4)
>>> done.items, len(done.shards), done.hash == batch("generate", {"size": (5, 5)}, count=6,
...     output=out, seed=1, shard_size=4).hash
(6, 2, True)
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import re
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .commands import COMMANDS, MAX_SEED, make_job, options_of
from .errors import BlockmazeError
from .support.randomness import item_seed, item_seeds

MANIFEST = "_blockmaze-batch.json"  # (readers of a Parquet folder skip names starting "_" or ".")
INDEX = "index.json"
DATASETS = {".parquet": "parquet", ".npz": "npz"}
# options a dataset row cannot show (a level pack writes them as the command does)
NOT_IN_DATASETS = ("mask", "prefab", "minigame", "fit", "animate", "into", "split", "style",
                   "circuits")
# the columns of a dataset's rows (plan and plan_shape with --plan; with --measures a
# measure_NAME column for each measure of mazes.measures.analyze)
COLUMNS = ("index", "seed", "options", "kind", "shape", "links", "start", "goal", "solution",
           "length", "dead_ends")
TMP = ".tmp-"  # a shard being written: temporary name in OUT, removed on resume


# --- what a batch makes

@dataclass(frozen=True)
class Range:
    """Where an option's value is drawn from for each item: whole numbers or numbers from
    ``low`` to ``high`` (both included for whole numbers), a size with each number in its
    range, or one of ``choices``.

    >>> rng = np.random.default_rng(0)
    >>> r = parse_range("size", "9x9:15x21")
    >>> all(9 <= a <= 15 and 9 <= b <= 21 for a, b in (r.draw(rng) for _ in range(50)))
    True
    >>> parse_range("algorithm", "prim|kruskal").draw(rng) in ("prim", "kruskal")
    True
    """

    name: str
    low: tuple = ()
    high: tuple = ()
    choices: tuple = ()
    whole: bool = True

    def draw(self, rng: np.random.Generator) -> Any:
        """One value for one item, from ``rng`` (the item's own)."""
        if self.choices:
            return self.choices[int(rng.integers(len(self.choices)))]
        values: tuple[int | float, ...]
        if self.whole:
            values = tuple(int(rng.integers(lo, hi + 1)) for lo, hi in zip(self.low, self.high,
                                                                           strict=True))
        else:
            values = tuple(float(lo + (hi - lo) * rng.random())
                           for lo, hi in zip(self.low, self.high, strict=True))
        return values if self.name == "size" or len(values) > 1 else values[0]


def parse_range(name: str, text: str) -> Range:
    """``--vary``'s ``NAME=RANGE`` part for option ``name``: ``LOW:HIGH`` (numbers, or sizes
    ``9x9:31x31``) or ``A|B|C`` (values as the option takes them).

    >>> parse_range("braid", "0:0.5").whole, parse_range("exits", "0:3").high
    (False, (3,))
    >>> parse_range("size", "9:5")
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: --vary size=9:5: LOW must not be above HIGH
    """
    if "|" in text:
        return Range(name, choices=tuple(p.strip() for p in text.split("|") if p.strip()))
    low, colon, high = text.partition(":")
    number = r"\s*[0-9]+(?:\.[0-9]+)?\s*"
    sized = rf"{number}(?:[xX]{number}){{0,2}}"
    if not colon or not re.fullmatch(sized, low) or not re.fullmatch(sized, high):
        raise BlockmazeError(f"--vary {name}={text}: a range is LOW:HIGH (numbers such as 0:0.5 "
                             f"or sizes such as 9x9:31x31) or choices A|B|C")
    lows = [float(p) for p in re.split("[xX]", low)]
    highs = [float(p) for p in re.split("[xX]", high)]
    if len(lows) != len(highs):
        raise BlockmazeError(f"--vary {name}={text}: LOW and HIGH need as many numbers")
    if any(a > b for a, b in zip(lows, highs, strict=True)):
        raise BlockmazeError(f"--vary {name}={text}: LOW must not be above HIGH")
    whole = all(v.is_integer() for v in lows + highs) and "." not in text
    cast = int if whole else float
    return Range(name, tuple(map(cast, lows)), tuple(map(cast, highs)), whole=whole)


def parse_vary(command: str, text: str | None) -> tuple[Range, ...]:
    """``--vary "size=9:31 braid=0:0.5"``: the ranges of options of ``command``, one word each.

    >>> [r.name for r in parse_vary("generate", "size=9:31 algorithm=prim|kruskal")]
    ['size', 'algorithm']
    >>> parse_vary("generate", "colour=1:2")
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: --vary colour: generate has no option colour
    """
    if not text:
        return ()
    known = {o.name for o in options_of(command) if o.name not in ("output", "seed")}
    found = []
    for word in text.split():
        name, equals, value = word.partition("=")
        name = name.strip().lstrip("-").replace("-", "_")
        if not equals:
            raise BlockmazeError(f"--vary takes NAME=RANGE words (e.g. size=9:31), got {word!r}")
        if name not in known:
            raise BlockmazeError(f"--vary {name}: {command} has no option {name}")
        found.append(parse_range(name, value))
    return tuple(found)


@dataclass(frozen=True)
class Description:
    """What a batch makes, all of it: cheap to pickle for a worker, and written into the
    manifest so a resumed run knows it is the same batch."""

    command: str
    options: tuple[tuple[str, Any], ...]
    ranges: tuple[Range, ...]
    root: int
    count: int
    shard_size: int
    form: str  # "parquet", "npz" or "pack"
    plan: bool = False
    format_: str | None = None
    measures: bool = False

    @property
    def shards(self) -> int:
        return -(-self.count // self.shard_size)

    def span(self, shard: int) -> range:
        """The item indices of ``shard``."""
        return range(shard * self.shard_size, min(self.count, (shard + 1) * self.shard_size))

    def shard_name(self, shard: int) -> str:
        if self.form == "pack":  # a shard's index entries, beside the levels
            return f"_part-{shard:05d}.json"
        return f"part-{shard:05d}.{self.form}"

    def record(self) -> dict:
        """The description as JSON data (the manifest's ``description``)."""
        return {"command": self.command, "options": {k: _plain(v) for k, v in self.options},
                "vary": [{"name": r.name, "low": list(r.low), "high": list(r.high),
                          "choices": list(r.choices)} for r in self.ranges],
                "seed": self.root, "count": self.count, "shard_size": self.shard_size,
                "form": self.form, "plan": self.plan, "format": self.format_,
                "measures": self.measures}

    def item_options(self, index: int, drawing: int | None = None) -> dict:
        """The options of item ``index``: the fixed ones and those drawn for it (``drawing``:
        its seed for them, ``item_seed(root, index, 1)``, when already known)."""
        chosen = dict(self.options)
        if self.ranges:
            rng = np.random.default_rng(item_seed(self.root, index, 1) if drawing is None
                                        else drawing)
            for each in self.ranges:
                chosen[each.name] = each.draw(rng)
        return chosen


def _plain(value: Any) -> Any:
    """A value as JSON holds it (tuples as lists)."""
    return list(value) if isinstance(value, tuple) else value


# --- one shard: the work of one task

def make_shard(description: Description, shard: int, folder: str | None = None) -> bytes:
    """The bytes of ``shard``: a Parquet or ``.npz`` file of its rows, or (a level pack) the
    JSON of its index entries, its items' files written into ``folder``. A plain function of
    its arguments, so any engine may run it anywhere.

    >>> d = Description("generate", (("size", (3, 3)),), (), 5, 2, 2, "npz")
    >>> make_shard(d, 0) == make_shard(d, 0)
    True
    """
    if description.form == "pack":
        assert folder is not None
        entries = [_pack_item(description, index, Path(folder)) for index in description.span(shard)]
        return json.dumps(entries, indent=1).encode()
    rows = _Rows(description.plan, description.measures)
    maker = _MazeMaker(description)
    span = description.span(shard)
    seeds = item_seeds(description.root, span.start, len(span)).tolist()
    drawing = item_seeds(description.root, span.start, len(span), 1).tolist() \
        if description.ranges else [None] * len(span)
    with _numba_kernels(len(span)):
        for index, seed, draw in zip(span, seeds, drawing, strict=True):
            rows.add(index, *maker.make(index, seed, draw))
    return rows.parquet() if description.form == "parquet" else rows.npz()


class _MazeMaker:
    """Makes one item's maze as ``blockmaze generate`` does with its seed and options, keeping
    the grid of each shape it has made (grids are values: a maze never changes its grid) and,
    for plain mazes (:func:`blockmaze.pipeline.is_plain`), its layout: those come from one
    compiled call each (:func:`blockmaze.mazes.plain.plain_maze`), the same maze."""

    def __init__(self, description: Description):
        self.description = description
        self.grids: dict = {}
        self.layouts: dict = {}
        self.text: str | None = None
        self.job: Any = None
        self.grid: Any = None
        self.layout: Any = None

    def make(self, index: int, seed: int, drawing: int | None):
        """Item ``index``'s row values: its seed, its options' text, its grid, its maze
        (a :class:`~blockmaze.mazes.plain.PlainMaze`), the document where the row needs one
        (measures) and its block plan (``--plan``); ``seed`` its seed, ``drawing`` its
        options' seed."""
        d = self.description
        if d.ranges or self.job is None:
            self._take(d.item_options(index, drawing))
        if self.layout is not None:
            from .mazes.plain import plain_maze

            made = plain_maze(self.layout, np.random.default_rng(seed))
            return seed, self.text, self.grid, made, None, None
        from .jobs import block_settings, carved

        job = self.job
        document = carved(job, None, job.kind, self.grid, None, seed, ends=True)
        assert document.endpoints is not None  # (ends=True places them)
        plan = None
        if d.plan:
            from .pipeline import blocks_of

            plan = blocks_of(document.maze, document.endpoints,
                             block_settings(job, document.maze.grid.kind))
        return seed, self.text, document.maze.grid, _made(document), document, plan

    def _take(self, options: dict) -> None:
        """The job, text, grid and (a plain maze's) layout of the items with ``options``."""
        from .mazes.generation import make_grid
        from .mazes.plain import PlainLayout
        from .pipeline import grid_shape, is_plain

        d = self.description
        self.job = job = _checked_job(d.command, options)
        self.text = json.dumps({k: _plain(v) for k, v in sorted(options.items())})
        key = (job.kind, grid_shape(job.kind, tuple(job.size)))
        if key not in self.grids:
            self.grids[key] = make_grid(key[1], job.kind)
        self.grid = self.grids[key]
        plain = not (d.plan or d.measures or job.exits or job.checkpoints or job.difficulty) \
            and is_plain(job.kind, job.algorithm, job.braid, job.entrances, job.unicursal)
        if plain and key not in self.layouts:
            self.layouts[key] = PlainLayout.of(self.grid)
        self.layout = self.layouts[key] if plain else None


def _made(document):
    """A document's maze as a row holds it (a :class:`~blockmaze.mazes.plain.PlainMaze`)."""
    from .mazes.plain import PlainMaze

    maze, ends = document.maze, document.endpoints
    return PlainMaze(maze.links, ends.start, ends.goal,
                     np.asarray(ends.route(maze), dtype=np.int32), int(maze.dead_ends.size))


COMPILED_FROM = 200  # items a shard from which its kernels run compiled


def _numba_kernels(items: int):
    """Compiled kernels for every item of a shard of ``items`` from :data:`COMPILED_FROM` up: the
    worker pays numba's load once (about a second), then each maze's kernels cost
    microseconds; a smaller shard lets each kernel choose (both ways give the same mazes;
    BLOCKMAZE_KERNELS still decides where it is set)."""
    from .support import kernels

    if items < COMPILED_FROM:
        return contextlib.nullcontext()
    return kernels.forced(kernels._forced or "numba")


def _checked_job(command: str, options: dict):
    """The job ``command`` runs for ``options`` (refused in one line as the command refuses)."""
    return make_job(command, **options)


class _Rows:
    """A shard's rows, column by column."""

    def __init__(self, plan: bool, measures: bool = False):
        self.plan, self.measures = plan, measures
        self.columns: dict[str, list] = {name: [] for name in COLUMNS}
        if plan:
            self.columns.update(plan=[], plan_shape=[])
        self.measured: list[dict] = []

    def add(self, index: int, seed: int, options: str, grid, made, document, plan) -> None:
        c = self.columns
        c["index"].append(index)
        c["seed"].append(seed)
        c["options"].append(options)
        c["kind"].append(grid.kind)
        c["shape"].append(list(grid.shape))
        c["links"].append(made.links)  # (encoded a shard at once: _links_texts)
        c["start"].append(made.start)
        c["goal"].append(made.goal)
        c["solution"].append(made.solution)
        c["length"].append(len(made.solution))
        c["dead_ends"].append(made.dead_ends)
        if self.plan:
            c["plan"].append(np.ascontiguousarray(plan, dtype=np.uint8).tobytes())
            c["plan_shape"].append(list(plan.shape))
        if self.measures:
            from .mazes.measures import analyze

            facts = analyze(document.maze, document.endpoints)
            facts["junctions"] = json.dumps({str(k): v for k, v in facts["junctions"].items()})
            self.measured.append(facts)

    def measure_columns(self) -> dict[str, list]:
        """``measure_NAME`` columns, one per measure of :func:`blockmaze.mazes.measures.analyze`
        (``measure_junctions`` as JSON: degree -> cells)."""
        if not self.measured:
            return {}
        return {f"measure_{name}": [facts[name] for facts in self.measured]
                for name in self.measured[0]}

    def parquet(self) -> bytes:
        import pyarrow as pa  # type: ignore[import-untyped]
        import pyarrow.parquet as pq  # type: ignore[import-untyped]

        c = self.columns
        arrays = {
            "index": pa.array(c["index"], pa.int64()),
            "seed": pa.array(c["seed"], pa.uint64()),
            "options": pa.array(c["options"], pa.string()),
            "kind": pa.array(c["kind"], pa.string()),
            "shape": pa.array(c["shape"], pa.list_(pa.int32())),
            "links": pa.array(_links_texts(c["links"]), pa.string()),
            "start": pa.array(c["start"], pa.int32()),
            "goal": pa.array(c["goal"], pa.int32()),
            "solution": _int_lists(c["solution"]),
            "length": pa.array(c["length"], pa.int32()),
            "dead_ends": pa.array(c["dead_ends"], pa.int32()),
        }
        if self.plan:
            arrays["plan"] = pa.array(c["plan"], pa.binary())
            arrays["plan_shape"] = pa.array(c["plan_shape"], pa.list_(pa.int32()))
        for name, values in self.measure_columns().items():
            arrays[name] = pa.array(values)
        sink = io.BytesIO()
        # the writer's options pinned, so the same rows are the same bytes on any machine
        # with this pyarrow (its version is the one thing the file names about its writer)
        pq.write_table(pa.table(arrays), sink, compression="zstd", compression_level=3,
                       row_group_size=len(c["index"]) or 1, use_dictionary=["options", "kind"],
                       write_statistics=False, store_schema=False)
        return sink.getvalue()

    def npz(self) -> bytes:
        c = self.columns
        solutions = c["solution"]
        arrays = {
            "index": np.asarray(c["index"], np.int64),
            "seed": np.asarray(c["seed"], np.uint64),
            "options": np.asarray(c["options"], dtype=str),
            "kind": np.asarray(c["kind"], dtype=str),
            "shape": _ragged([np.asarray(s, np.int32) for s in c["shape"]])[0],
            "shape_offsets": _ragged([np.asarray(s, np.int32) for s in c["shape"]])[1],
            "links": np.asarray(_links_texts(c["links"]), dtype=str),
            "start": np.asarray(c["start"], np.int32),
            "goal": np.asarray(c["goal"], np.int32),
            "solution": _ragged(solutions)[0],
            "solution_offsets": _ragged(solutions)[1],
            "length": np.asarray(c["length"], np.int32),
            "dead_ends": np.asarray(c["dead_ends"], np.int32),
        }
        if self.plan:
            plans = [np.frombuffer(p, np.uint8) for p in c["plan"]]
            arrays["plan"], arrays["plan_offsets"] = _ragged(plans)
            shapes = [np.asarray(s, np.int32) for s in c["plan_shape"]]
            arrays["plan_shape"], arrays["plan_shape_offsets"] = _ragged(shapes)
        for name, values in self.measure_columns().items():
            arrays[name] = np.asarray(values, dtype=str if name == "measure_junctions" else None)
        return npz_bytes(arrays)


def _links_texts(links: list[np.ndarray]) -> list[str]:
    """Each maze's links as a maze document writes them (:func:`~blockmaze.mazes.documents.encode_links`),
    those with as many directions encoded in one call.

    >>> from blockmaze.mazes.documents import encode_links
    >>> a, b = np.eye(4, dtype=bool)[:2], np.ones((3, 6), bool)
    >>> _links_texts([a, b, a]) == [encode_links(a), encode_links(b), encode_links(a)]
    True
    """
    from .mazes.documents import encode_links

    texts: list[str] = [""] * len(links)
    for k in sorted({item.shape[1] for item in links}):
        chosen = [i for i, item in enumerate(links) if item.shape[1] == k]
        digits = (k + 3) // 4
        text = encode_links(np.concatenate([links[i] for i in chosen]))
        start = 0
        for i in chosen:
            end = start + len(links[i]) * digits
            texts[i] = text[start:end]
            start = end
    return texts


def _int_lists(values: list[np.ndarray]):
    """A pyarrow list<int32> column from arrays, without a Python list per element."""
    import pyarrow as pa

    flat, offsets = _ragged(values)
    return pa.ListArray.from_arrays(pa.array(offsets.astype(np.int32)), pa.array(flat))


def _ragged(values: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Arrays of different lengths as one flat array and the offsets where each starts (and
    the last ends): item ``i`` is ``flat[offsets[i]:offsets[i + 1]]``.

    >>> flat, offsets = _ragged([np.array([1, 2]), np.array([3])])
    >>> flat.tolist(), offsets.tolist()
    ([1, 2, 3], [0, 2, 3])
    """
    offsets = np.zeros(len(values) + 1, np.int64)
    offsets[1:] = np.cumsum([len(v) for v in values])
    flat = np.concatenate(values) if values else np.zeros(0, np.int32)
    return flat, offsets


def npz_bytes(arrays: dict[str, np.ndarray]) -> bytes:
    """An ``.npz`` file (``numpy.load`` reads it) whose bytes depend on the arrays alone: the
    zip entries' times fixed (``numpy.savez`` stamps the time of writing).

    >>> data = npz_bytes({"a": np.arange(3)})
    >>> data == npz_bytes({"a": np.arange(3)}), np.load(io.BytesIO(data))["a"].tolist()
    (True, [0, 1, 2])
    """
    sink = io.BytesIO()
    with zipfile.ZipFile(sink, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, array in arrays.items():
            entry = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            buffer = io.BytesIO()
            np.lib.format.write_array(buffer, np.ascontiguousarray(array), allow_pickle=False)
            archive.writestr(entry, buffer.getvalue())
    return sink.getvalue()


def _pack_item(description: Description, index: int, folder: Path) -> dict:
    """Write item ``index`` of a level pack as the command writes it, and say what it wrote
    (each file's name and SHA-256)."""
    from .export import FORMATS
    from .jobs import run

    options = description.item_options(index)
    seed = item_seed(description.root, index)
    assert description.format_ is not None
    target = folder / f"level-{index:06d}{FORMATS[description.format_].suffixes[0]}"
    done = run(description.command, {**options, "seed": seed, "output": str(target),
                                     "format_": description.format_})
    files = sorted({Path(p) for p in [*done.paths, *done.companions]})
    return {"index": index, "seed": seed, "options": {k: _plain(v) for k, v in options.items()},
            "files": {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in files}}


# --- a whole batch

@dataclass
class Done:
    """What a batch wrote: the folder, its items, each shard's file and SHA-256, and the
    dataset's hash (SHA-256 of the shards' hashes in order; for a level pack, of its index)."""

    folder: Path
    items: int
    root: int
    shards: list[dict] = field(default_factory=list)
    hash: str = ""
    resumed: int = 0


def describe(command: str, options: dict, *, count: int, output: str, seed: int | None = None,
             vary: str | tuple[Range, ...] | None = None, shard_size: int | None = None,
             plan: bool = False, format_: str | None = None,
             measures: bool = False) -> Description:
    """The :class:`Description` of a batch, refused in one line before any work: the command
    and options checked as the command checks them (item 0's options, with its ranges' ends)."""
    from .support.randomness import draw_seed

    if command not in COMMANDS or command in ("info", "export"):
        raise BlockmazeError(f"batch makes items of generate, blockwise or dungeon, not {command!r}")
    if count < 1:
        raise BlockmazeError(f"--count is at least 1, got {count}")
    for name in ("output", "seed"):
        if name in options:
            raise BlockmazeError(f"batch's own -o and --seed name its folder and root seed: leave "
                                 f"{name} out of the command's options")
    ranges = vary if isinstance(vary, tuple) else parse_vary(command, vary)
    form = DATASETS.get(Path(output).suffix.lower(), "pack")
    if form == "pack" and format_ is None:
        raise BlockmazeError(f"-o {output}: a dataset folder ends in .parquet or .npz; a level "
                             f"pack (a folder of files) needs --format NAME")
    if form != "pack":
        if format_ is not None:
            raise BlockmazeError(f"-o {output} is a {form} dataset: leave out --format (or name "
                                 f"a folder without .parquet/.npz for a level pack)")
        if command != "generate":
            raise BlockmazeError(f"a dataset holds generated mazes (batch generate); write a "
                                 f"{command} batch as a level pack: -o FOLDER --format NAME")
        bad = [n for n in NOT_IN_DATASETS if n in options or n in {r.name for r in ranges}]
        if bad:
            raise BlockmazeError(f"a dataset row cannot hold --{bad[0].replace('_', '-')}: write "
                                 f"a level pack (-o FOLDER --format NAME)")
        if form == "parquet":
            _needs("pyarrow", "parquet")
    root = draw_seed() if seed is None else seed
    if not 0 <= root <= MAX_SEED:
        raise BlockmazeError(f"--seed is a whole number from 0 to 2**64-1, got {root}")
    if shard_size is None:
        shard_size = 10_000 if form != "pack" else 100
    if shard_size < 1:
        raise BlockmazeError(f"--shard-size is at least 1, got {shard_size}")
    fixed = tuple(sorted(options.items()))
    if form == "pack" and (plan or measures):
        raise BlockmazeError("--plan and --measures are a dataset's columns: write -o "
                             "NAME.parquet or NAME.npz")
    description = Description(command, fixed, ranges, root, count, shard_size, form, plan,
                              format_, measures)
    for ends in _range_ends(ranges):  # every range's ends make a job the command takes
        job = _checked_job(command, {**options, **ends})
        if form != "pack" and job.kind == "labyrinth":
            raise BlockmazeError("a dataset row is a carved maze: write labyrinths as a level pack")
        if form != "pack":  # and a row (refused as the command refuses it)
            end = Description(command, tuple(sorted({**options, **ends}.items())), (), root, 1,
                              1, form, plan)
            with _numba_kernels(count):
                _MazeMaker(end).make(0, item_seed(root, 0), None)
    return description


def _range_ends(ranges: tuple[Range, ...]) -> list[dict]:
    """Item options at the ends of each range (every choice), to check before any work."""
    if not ranges:
        return [{}]
    low = {r.name: r.choices[0] if r.choices else
           (r.low if r.name == "size" or len(r.low) > 1 else r.low[0]) for r in ranges}
    ends = [low]
    for r in ranges:
        for value in r.choices[1:] or [r.high if r.name == "size" or len(r.high) > 1 else r.high[0]]:
            ends.append({**low, r.name: value})
    return ends


def _needs(module: str, extra: str) -> None:
    import importlib.util

    if importlib.util.find_spec(module) is None:
        raise BlockmazeError(f"{extra} needs {module}: pip install 'blockmaze[{extra}]'")


def batch(command: str, options: dict | None = None, *, count: int, output: str,
          seed: int | None = None, vary: str | None = None, shard_size: int | None = None,
          plan: bool = False, format_: str | None = None, measures: bool = False,
          workers: int = 1,
          engine: str = "local", scheduler: str | None = None,
          say: Callable[[str], None] | None = None) -> Done:
    """Make ``count`` items of ``command`` (its ``options`` by parameter name; ``vary`` draws
    some from ranges) into ``output`` (see the module's docstring); a folder that holds this
    same batch, stopped, is resumed. ``workers`` processes, on ``engine`` local, dask
    (``scheduler``: a Dask scheduler's address, else a LocalCluster) or ray.
    """
    from .support.engines import run_tasks
    from .support.progress import phase

    description = describe(command, dict(options or {}), count=count, output=output, seed=seed,
                           vary=vary, shard_size=shard_size, plan=plan, format_=format_,
                           measures=measures)
    folder = Path(output)
    todo = _prepare(folder, description)
    say = say or (lambda line: None)
    resumed = description.shards - len(todo)
    if resumed:
        say(f"resuming: {resumed} of {description.shards} shards are written")
    written = description.shards - len(todo)
    tasks = [(description, shard, str(folder)) for shard in todo]
    finished = run_tasks(make_shard, tasks, engine=engine, workers=workers, scheduler=scheduler)
    while True:
        with phase(f"{written} of {description.shards} shards written"):  # (shown while waiting)
            number, data = next(finished, (None, b""))
        if number is None:
            break
        _write_atomic(folder / description.shard_name(todo[number]), data)
        written += 1
    return _finish(folder, description, resumed)


def _prepare(folder: Path, description: Description) -> list[int]:
    """The shards still to make in ``folder``, which holds nothing, or this same batch: its
    manifest written first, leftovers of a stopped write removed."""
    record = description.record()
    manifest = folder / MANIFEST
    if folder.exists():
        if not folder.is_dir():
            raise BlockmazeError(f"-o {folder}: not a folder")
        if manifest.exists():
            try:
                old = json.loads(manifest.read_text())["description"]
            except (ValueError, KeyError, OSError):
                raise BlockmazeError(f"{manifest} is not a batch manifest: give another folder") from None
            if old != record:
                raise BlockmazeError(f"{folder} holds another batch (its {MANIFEST} differs): "
                                     f"give another folder, or the same options to resume it")
        elif any(folder.iterdir()):
            raise BlockmazeError(f"{folder} is not empty: a batch writes into a new or empty "
                                 f"folder (or resumes its own)")
    folder.mkdir(parents=True, exist_ok=True)
    for leftover in folder.glob(f"{TMP}*"):
        leftover.unlink()
    if not manifest.exists():
        _write_atomic(manifest, _manifest_bytes(record, [], None))
    return [s for s in range(description.shards)
            if not (folder / description.shard_name(s)).exists()]


def _finish(folder: Path, description: Description, resumed: int) -> Done:
    shards = []
    total = hashlib.sha256()
    for s in range(description.shards):
        name = description.shard_name(s)
        digest = hashlib.sha256((folder / name).read_bytes()).hexdigest()
        shards.append({"file": name, "items": len(description.span(s)), "sha256": digest})
        total.update(bytes.fromhex(digest))
    if description.form == "pack":
        entries = [e for s in shards for e in json.loads((folder / str(s["file"])).read_text())]
        _write_atomic(folder / INDEX, json.dumps({"description": description.record(),
                                                  "items": entries}, indent=1).encode())
    done = Done(folder, description.count, description.root, shards, total.hexdigest(), resumed)
    _write_atomic(folder / MANIFEST, _manifest_bytes(description.record(), shards, done.hash))
    return done


def _manifest_bytes(record: dict, shards: list, digest: str | None) -> bytes:
    return json.dumps({"description": record, "shards": shards, "hash": digest},
                      indent=1).encode()


def _write_atomic(path: Path, data: bytes) -> None:
    """``data`` into ``path`` whole or not at all: a temporary file in the folder, renamed."""
    temporary = path.with_name(f"{TMP}{os.getpid()}-{path.name}")
    with open(temporary, "wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temporary, path)
