"""One studio request, run as the command line runs it: query parameters become the command's
options, click parses them (same defaults, same one-line messages), and the library call the
command makes (:func:`blockmaze.jobs.run`) writes the output in a fresh temporary folder, so
the bytes are the CLI's.

Example
-------
>>> job = Job.from_query("generate", {"size": "4x5", "seed": "7", "format": "png"})
>>> job.argv, job.output
(['--seed', '7'], 'maze.png')
>>> job.run(Limits()).data[:4]
b'\\x89PNG'
"""

from __future__ import annotations

import io
import math
import tempfile
import warnings
import zipfile
from dataclasses import dataclass
from pathlib import Path

from ..errors import BlockmazeError

COMMANDS = ("generate", "blockwise", "dungeon")
# options a request may not give: where files go is the server's business, masks come as uploads
RESERVED = {"output", "mask", "split", "format_", "verbose", "quiet"}
MEDIA = {"png": "image/png", "svg": "image/svg+xml", "maze": "application/json",
         "tmj": "application/json", "tilemap": "application/json", "ldtk": "application/json",
         "gltf": "model/gltf+json", "glb": "model/gltf-binary", "tmx": "application/xml",
         "ascii": "text/plain; charset=utf-8", "obj": "text/plain", "mtl": "text/plain"}


class RequestError(BlockmazeError):
    """A request the studio refuses; ``status`` is its HTTP status (400 bad, 413 too large)."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Limits:
    """What one request may ask for: maze cells, blocks in the volume built, picture pixels.

    >>> Limits().cells
    250000
    """

    cells: int = 250_000
    blocks: int = 20_000_000
    pixels: int = 40_000_000


@dataclass(frozen=True)
class Result:
    """A finished job: the file's bytes, its name and media type."""

    data: bytes
    filename: str
    media_type: str


def _command(name: str):
    from .. import cli

    return {"generate": cli.generate_command, "blockwise": cli.blockwise_command,
            "dungeon": cli.dungeon_command}[name]


@dataclass
class Job:
    """A command, its arguments as the command line would have them, and its output's format."""

    command: str
    argv: list  # the options; the output, mask and size are added where the job runs
    format: str
    size: str
    mask: bytes | None = None

    @property
    def output(self) -> str:
        """The output's file name (in the job's temporary folder)."""
        from ..export import FORMATS

        return "maze" + (FORMATS[self.format].suffixes or (".zip",))[0]

    @classmethod
    def from_query(cls, command: str, query, mask: bytes | None = None) -> "Job":
        """The job a query asks for: ``size`` and ``format`` (a format name, default png), every
        other key a long option of the command (``mc-version=1.20.4``; ``roof=1``/``roof=0`` for
        ``--roof``/``--no-roof``)."""
        from ..export import FORMATS

        if command not in COMMANDS:
            raise RequestError(f"unknown command {command!r}; choose one of: {', '.join(COMMANDS)}")
        query = dict(query)
        size = query.pop("size", None)
        if not size:
            raise RequestError("size is required, e.g. size=20x30")
        fmt = query.pop("format", "png")
        if fmt not in FORMATS or FORMATS[fmt].folder:
            names = sorted(n for n, f in FORMATS.items() if not f.folder)
            raise RequestError(f"unknown format {fmt!r}; choose one of: {', '.join(names)}")
        import click

        by_flag = {flag[2:]: p for p in _command(command).params if isinstance(p, click.Option)
                   for flag in p.opts + p.secondary_opts if flag.startswith("--")}
        argv = []
        for key, value in query.items():
            option = by_flag.get(key)
            if option is None or option.name in RESERVED:
                raise RequestError(f"{command} has no option {key!r}")
            if option.name == "theme":  # a name: the server's files are not the client's to read
                from ..materials import theme_names

                if value not in theme_names():
                    raise RequestError(f"theme must be one of: {', '.join(theme_names())}, "
                                       f"got {value!r}")
            if option.is_flag:
                on = str(value).lower() in ("1", "true", "yes", "on", "")
                if not on and str(value).lower() not in ("0", "false", "no", "off"):
                    raise RequestError(f"--{key} is on or off (1 or 0), got {value!r}")
                argv += [option.opts[0]] if on else option.secondary_opts[:1]
            else:
                argv += [f"--{key}", str(value)]
        return cls(command, argv, fmt, str(size), mask)

    def run(self, limits: Limits) -> Result:
        """Parse the options as the command does, check ``limits``, run the command in a fresh
        temporary folder and return what it wrote (several files come as one zip)."""
        from ..cli_options import given_options
        from ..jobs import run

        with tempfile.TemporaryDirectory(prefix="blockmaze-studio-") as folder:
            ctx = self.parse(folder, limits)
            options = {**ctx.params, "animate": False} if "animate" in ctx.params else ctx.params
            with ctx, warnings.catch_warnings():
                warnings.simplefilter("ignore")  # (the studio reports through HTTP)
                run(self.command, options, given=given_options(ctx))
            return _collect(Path(folder), self.format)

    def parse(self, folder: str, limits: Limits):
        """The command's click context for this job, its output (and mask) inside ``folder``;
        RequestError for options the command refuses or ``limits`` do not allow."""
        import click

        argv = [*self.argv, "-o", str(Path(folder) / self.output), "--format", self.format]
        if self.mask is not None:
            mask = Path(folder, "mask-upload")
            mask.write_bytes(self.mask)
            argv += ["--mask", str(mask)]
        argv += ["--", self.size]  # the size is the argument, whatever it looks like
        try:
            ctx = _command(self.command).make_context(self.command, argv)
        except click.ClickException as error:
            raise RequestError(error.format_message()) from None
        check_limits(self.command, ctx.params, limits)
        return ctx


def _collect(folder: Path, fmt: str) -> Result:
    files = sorted(p for p in folder.rglob("*") if p.is_file() and p.name != "mask-upload")
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


def check_limits(command: str, params: dict, limits: Limits) -> None:
    """Refuse (413) a request whose maze, volume or picture would pass ``limits``, from its
    parsed options alone, before any work.

    >>> check_limits("generate", {"size": (100000, 100000)}, Limits())
    Traceback (most recent call last):
    ...
    blockmaze.web.jobs.RequestError: a 100000x100000 maze has 10000000000 cells; this studio makes at most 250000 (blockmaze serve --max-cells)
    """
    size = tuple(params["size"])
    count = math.prod(size if len(size) > 1 or command != "generate" else size * 2)
    typed = "x".join(map(str, size))
    height = _side(params.get("height"), 3) + 2
    if command == "generate":
        if count > limits.cells:
            raise RequestError(f"a {typed} maze has {count} cells; this studio makes at most "
                               f"{limits.cells} (blockmaze serve --max-cells)", 413)
        if params.get("kind", "square") in ("square", "layered"):
            side = _side(params.get("wall")) + _side(params.get("passage"), 2)
        else:
            side = _side(params.get("scale"), 5)  # the default scale is 4, or 5 for triangles
        blocks = count * side * side * height
        pixels = count * float(params.get("cell_size") or 16) ** 2
        if pixels > limits.pixels:
            raise RequestError(f"a {typed} picture at {params.get('cell_size')} pixels a cell "
                               f"passes this studio's {limits.pixels} pixels", 413)
    elif command == "dungeon":
        blocks = count * height * _side(params.get("levels"))
    else:
        blocks = count * (height if len(size) == 2 else 1)
    if blocks > limits.blocks:
        raise RequestError(f"a {typed} {command} maze with these options makes about {blocks} "
                           f"blocks; this studio builds at most {limits.blocks} "
                           f"(blockmaze serve --max-blocks)", 413)


def describe() -> dict:
    """Every command's options as the page's form needs them (from the commands themselves, so
    the page never lags behind them), and every output format.

    >>> "algorithm" in [o["flag"] for o in describe()["commands"]["generate"]]
    True
    """
    import click

    from ..algorithms import algorithm_specs
    from ..export import FORMATS
    from ..materials import theme_names

    commands = {}
    for name in COMMANDS:
        options = []
        for param in _command(name).params:
            if not isinstance(param, click.Option) or param.name in RESERVED:
                continue
            flag = max((o for o in param.opts if o.startswith("--")), key=len)[2:]
            entry = {"flag": flag, "help": param.help or "",
                     "default": None if callable(param.default) else param.default}
            if param.is_flag:
                entry["type"] = "flag"
            elif isinstance(param.type, click.Choice):
                entry.update(type="choice", choices=list(param.type.choices))
            elif flag == "algorithm":
                entry.update(type="choice", choices=algorithm_specs())
            elif flag == "theme":
                entry.update(type="choice", choices=theme_names())
            else:
                entry["type"] = "text"
            if isinstance(entry["default"], tuple):
                entry["default"] = "x".join(map(str, entry["default"]))
            options.append(entry)
        commands[name] = options
    formats = [{"name": f.name, "summary": f.summary, "source": f.source,
                "suffix": (f.suffixes or (".zip",))[0]} for f in FORMATS.values() if not f.folder]
    return {"commands": commands, "formats": formats}
