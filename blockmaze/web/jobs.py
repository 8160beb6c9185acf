"""One studio request, run as the command line runs it: query parameters become the command's
options, parsed by the command's own description (:mod:`blockmaze.commands`: same defaults,
same one-line messages), and the library call the command makes (:func:`blockmaze.jobs.run`)
writes the output in a fresh temporary folder, so the bytes are the CLI's.

Example
-------
>>> job = Job.from_query("generate", {"size": "4x5", "seed": "7", "format": "png"})
>>> job.values, job.output
({'seed': '7'}, 'maze.png')
>>> import tempfile
>>> job.run(Limits(), tempfile.mkdtemp()).data[:4]
b'\\x89PNG'
"""

from __future__ import annotations

import io
import math
import warnings
import zipfile
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from ..blocks.settings import BlockSettings
from ..commands import make_job, options_of
from ..errors import BlockmazeError
from ..forms import offered

COMMANDS = ("generate", "blockwise", "dungeon")
MEDIA = {"png": "image/png", "svg": "image/svg+xml", "maze": "application/json",
         "tmj": "application/json", "tilemap": "application/json", "ldtk": "application/json",
         "gltf": "model/gltf+json", "glb": "model/gltf-binary", "tmx": "application/xml",
         "ascii": "text/plain; charset=utf-8", "obj": "text/plain"}


class RequestError(BlockmazeError):
    """A request the studio refuses; ``status`` is its HTTP status (400 bad, 413 too large)."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


def _served(name: str):
    """The default of ``blockmaze serve``'s option ``name``, from its description."""
    return field(default_factory=lambda: options_of("serve", name)[0].default)


@dataclass(frozen=True)
class Limits:
    """What one request may ask for: maze cells, blocks in the volume built, picture pixels
    (by default ``blockmaze serve``'s, from its description).

    >>> Limits().cells
    250000
    """

    cells: int = _served("max_cells")
    blocks: int = _served("max_blocks")
    pixels: int = _served("max_pixels")


@dataclass(frozen=True)
class Result:
    """A finished job: the file's bytes, its name and media type."""

    data: bytes
    filename: str
    media_type: str


@dataclass
class Job:
    """A command, its options as the query gave them (text, by parameter name), its size and
    its output's format."""

    command: str
    values: dict  # the options; the output, mask and size are added where the job runs
    format: str
    size: str | None  # None: a labyrinth's from its design, a maze's from its mask
    mask: bytes | None = None

    @property
    def output(self) -> str:
        """The output's file name (in the job's temporary folder)."""
        from ..export import FORMATS

        return "maze" + (FORMATS[self.format].suffixes or (".zip",))[0]

    @classmethod
    def from_query(cls, command: str, query, mask: bytes | None = None) -> Job:
        """The job a query asks for: ``size`` and ``format`` (a format name, default png), every
        other key a long option of the command (``mc-version=1.20.4``; ``roof=1``/``roof=0`` for
        ``--roof``/``--no-roof``)."""
        from ..export import FORMATS

        if command not in COMMANDS:
            raise RequestError(f"unknown command {command!r}; choose one of: {', '.join(COMMANDS)}")
        query = dict(query)
        size = query.pop("size", None) or None
        if size is None and command != "generate":  # (a maze may take it from its mask or design)
            raise RequestError("size is required, e.g. size=20x30")
        fmt = query.pop("format", "png")
        if fmt not in FORMATS or FORMATS[fmt].folder or FORMATS[fmt].companion:
            names = sorted(n for n, f in FORMATS.items() if not (f.folder or f.companion))
            raise RequestError(f"unknown format {fmt!r}; choose one of: {', '.join(names)}")
        by_flag = {o.flag: o for o in options_of(command) if offered(o)}
        values: dict[str, str | bool] = {}
        for key, value in query.items():
            option = by_flag.get(key)
            if option is None:
                raise RequestError(f"{command} has no option {key!r}")
            if option.name == "theme":  # a name: the server's files are not the client's to read
                from ..materials import theme_names

                if value not in theme_names():
                    raise RequestError(f"theme must be one of: {', '.join(theme_names())}, "
                                       f"got {value!r}")
            if option.switch:
                on = str(value).lower() in ("1", "true", "yes", "on", "")
                if not on and str(value).lower() not in ("0", "false", "no", "off"):
                    raise RequestError(f"--{key} is on or off (1 or 0), got {value!r}")
                values[option.name] = on
            else:
                values[option.name] = str(value)
        return cls(command, values, fmt, None if size is None else str(size), mask)

    def run(self, limits: Limits, folder: str) -> Result:
        """Parse the options as the command does, check ``limits``, run the command in
        ``folder`` (a fresh, empty one) and return what it wrote (several files as one zip)."""
        from ..jobs import run

        job = self.typed(folder, limits)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (the studio reports through HTTP)
            run(job)
        return _collect(Path(folder), self.format)

    def typed(self, folder: str, limits: Limits):
        """The command's typed job for this request, its output (and mask) inside ``folder``;
        RequestError for options the command refuses or ``limits`` do not allow."""
        extra = {"output": str(Path(folder) / self.output), "format_": self.format}
        if self.mask is not None:  # a picture by its signature, else a text template
            mask = Path(folder, "mask-upload" + _picture_suffix(self.mask))
            mask.write_bytes(self.mask)
            extra["mask"] = str(mask)
        try:
            sized = {} if self.size is None else {"size": self.size}
            job = make_job(self.command, **sized, **self.values, **extra,
                           given={*sized, *self.values})
        except BlockmazeError as error:
            raise RequestError(str(error)) from None
        check_limits(job, limits)
        return job


# the first bytes of the pictures a mask may be (PNG, GIF, JPEG, BMP, WebP's RIFF)
SIGNATURES = {b"\x89PNG\r\n\x1a\n": ".png", b"GIF87a": ".gif", b"GIF89a": ".gif",
              b"\xff\xd8\xff": ".jpg", b"BM": ".bmp", b"RIFF": ".webp"}


def _picture_suffix(data: bytes) -> str:
    r"""The suffix of the picture ``data`` is, by its signature ('' for text).

    >>> _picture_suffix(b"\x89PNG\r\n\x1a\n..."), _picture_suffix(b"..X..")
    ('.png', '')
    """
    return next((suffix for magic, suffix in SIGNATURES.items() if data.startswith(magic)), "")


def _collect(folder: Path, fmt: str) -> Result:
    files = sorted(p for p in folder.rglob("*")
                   if p.is_file() and not p.name.startswith("mask-upload"))
    if len(files) == 1:
        return Result(files[0].read_bytes(), files[0].name,
                      MEDIA.get(fmt, "application/octet-stream"))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in files:
            archive.write(path, path.relative_to(folder).as_posix())
    return Result(buffer.getvalue(), "maze.zip", "application/zip")


def _side(value, default: int = 1) -> int:
    if value is None:
        return default
    return max(value) if isinstance(value, tuple) else int(value)


def check_limits(job, limits: Limits) -> None:
    """Refuse (413) a request whose maze, volume or picture would pass ``limits``, from its
    parsed options alone, before any work: cells as the grid has them (a polar maze of N rings
    has about 2.4 N² cells), blocks as the command builds them (a dungeon's plan is 2 blocks a
    cell and its levels are stacked), pixels as the picture draws them.

    >>> check_limits(make_job("generate", size=(100000, 100000)), Limits())
    Traceback (most recent call last):
    ...
    blockmaze.web.jobs.RequestError: a 100000x100000 maze has 10000000000 cells; this studio makes at most 250000 (blockmaze serve --max-cells)
    """
    command, size = job.command, tuple(job.size or ())
    if command == "generate" and not size and job.kind != "labyrinth":
        if job.mask is None:
            raise RequestError("size is required, e.g. size=20x30 (or a mask to take it from)")
        from ..jobs import shape_and_mask

        try:
            size = shape_and_mask(job.kind, None, job.mask)[0]  # the mask's own size
        except BlockmazeError as error:
            raise RequestError(str(error)) from None
    typed = "x".join(map(str, size))
    height = _side(job.height, 3) + 2  # walls, floor and roof
    if command == "generate":
        polar = job.kind in ("polar", "labyrinth")
        if job.kind == "labyrinth":  # its rings, from its design (a bad one refused here)
            from ..jobs import labyrinth_circuits
            from ..mazes.labyrinths import rings_of

            size = (rings_of(job.style, labyrinth_circuits(job.size, job.circuits)),)
        count = 4 * size[0] ** 2 if polar else math.prod(size if len(size) > 1 else size * 2)
        if job.unicursal:  # split: a square's cells 2x2; another kind's drawn in corridors
            # first, at most about 2.5 blocks a cell per unit of scale, each block 2x2 cells
            from ..blocks.raster import MIN_SCALE

            count *= 4 if job.kind == "square" else \
                10 * (job.scale or MIN_SCALE.get(job.kind, 4))
        if count > limits.cells:
            raise RequestError(f"a {typed} maze has {count} cells; this studio makes at most "
                               f"{limits.cells} (blockmaze serve --max-cells)", 413)
        settings = BlockSettings.resolve(
            "square" if job.unicursal else "polar" if polar else job.kind, wall=job.wall,
            passage=job.passage, scale=None if job.unicursal else job.scale)
        side = _side(settings.wall) + _side(settings.passage) if settings.converted \
            else settings.scale  # (a unicursal maze is drawn square)
        blocks = count * side * side * height
        pixels = count * float(job.cell_size) ** 2
        if pixels > limits.pixels:
            raise RequestError(f"a {typed} picture at {job.cell_size:g} pixels a cell "
                               f"passes this studio's {limits.pixels} pixels", 413)
    elif command == "dungeon":
        blocks = (2 * size[0] + 1) * (2 * size[1] + 1) * height * _side(job.levels)
    else:
        blocks = math.prod(size) * (height if len(size) == 2 else 1)
    if blocks > limits.blocks:
        raise RequestError(f"a {typed} {command} maze with these options makes about {blocks} "
                           f"blocks; this studio builds at most {limits.blocks} "
                           f"(blockmaze serve --max-blocks)", 413)


@cache
def describe() -> dict:
    """Every command's options as the page's form needs them (from the commands' descriptions,
    so the page never lags behind them), and every output format.

    >>> "algorithm" in [o["flag"] for o in describe()["commands"]["generate"]]
    True
    """
    from ..export import FORMATS, writer_for
    from ..forms import form
    from ..materials import Material, load_theme, theme_names

    commands = {name: form(name) for name in COMMANDS}
    # "dungeons": a picture writer that draws a dungeon's levels too
    formats = [{"name": f.name, "summary": f.summary, "source": f.source,
                "suffix": (f.suffixes or (".zip",))[0],
                "dungeons": writer_for(format=f.name).draws_dungeons}
               for f in FORMATS.values() if not (f.folder or f.companion)]
    # each theme's blocks (by the block's name, states left off) as the page needs them: the
    # materials they stand for and their colours (to draw a schematic's layers, and to find
    # START and GOAL when walking it)
    themes = {}
    for theme_name in theme_names():
        theme = load_theme(theme_name)
        blocks: dict[str, dict[str, str]] = {}
        for material in theme.minecraft:
            for state, _ in theme.minecraft_choices(material):
                blocks.setdefault(state.split("[")[0], {
                    "material": Material(material).name.lower(),
                    "color": "#{:02x}{:02x}{:02x}".format(*theme.color(material))})
        themes[theme_name] = blocks
    return {"commands": commands, "formats": formats, "themes": themes, "verdicts": verdicts()}


def verdicts() -> dict:
    """Which options do not apply, for each command and each case the page can be in, as the
    server's own rule decides it (:func:`blockmaze.jobs.run_context`,
    :func:`blockmaze.applies.why_not`), so the page keeps no copy of that rule: by command, then
    by a key the page makes from its choices (:func:`case_key`), the flags that do not apply.
    The format ``*`` stands for "any format": the options that apply to none.

    >>> table = verdicts()
    >>> "wall" in table["generate"][case_key("generate", "schem", grid="hex")]
    True
    >>> "wall" in table["generate"][case_key("generate", "schem", grid="hex", unicursal=True)]
    False
    """
    from ..applies import why_not
    from ..export import FORMATS, writer_for
    from ..grids import GRID_KINDS
    from ..jobs import run_context

    names = [n for n, f in FORMATS.items() if not (f.folder or f.companion)]
    cases: dict[str, list[dict]] = {
        "generate": [dict(grid=g, unicursal=u) for g in [*GRID_KINDS, "labyrinth"]
                     for u in (False, True)],
        "blockwise": [dict(mode=m, solid=d) for m in ("strict", "relaxed") for d in (False, True)],
        "dungeon": [{}]}
    table: dict = {}
    for command in COMMANDS:
        offered_options = [o for o in options_of(command) if offered(o)]
        table[command] = {}
        for case in cases[command]:
            job = _case_job(command, **case)
            unapplied: dict[str, set[str]] = {}
            for name in names:
                context = run_context(job, writer_for(format=name))
                unapplied[name] = {o.flag for o in offered_options if why_not(o, context)}
                table[command][case_key(command, name, **case)] = sorted(unapplied[name])
            table[command][case_key(command, "*", **case)] = sorted(set.intersection(
                *unapplied.values()))
    return table


def case_key(command: str, format: str, grid: str = "square", unicursal: bool = False,
             mode: str = "strict", solid: bool = False) -> str:
    """The key of one case of :func:`verdicts` (studio.js makes the same from the form).

    >>> case_key("generate", "png", grid="hex"), case_key("dungeon", "tmx")
    ('png|hex|0', 'tmx')
    """
    if command == "generate":
        return f"{format}|{grid}|{int(unicursal)}"
    if command == "blockwise":
        return f"{format}|{mode}|{int(solid)}"
    return format


def _case_job(command: str, grid: str = "square", unicursal: bool = False,
              mode: str = "strict", solid: bool = False):
    if command == "generate":
        return make_job(command, size=(4, 4), kind=grid, unicursal=unicursal)
    if command == "blockwise":
        return make_job(command, size=(5, 9, 9) if solid else (9, 9), mode=mode)
    return make_job(command, size=(4, 4))
