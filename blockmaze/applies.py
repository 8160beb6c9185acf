"""Whether an option applies to a run, and if not, why: one rule, for the command's warnings and
the studio's form alike (the page asks the server, it keeps no copy of the rule).

A :class:`Context` is what the answer depends on: the output's writer (None: the maze is
printed), the grid kinds the run draws, blockwise's mode, whether the maze is a volume already,
and the options the run uses whatever their description says. :func:`why_not` gives the reason
an option does not apply, from its description (:class:`~blockmaze.commands.Option`).

Example
-------
>>> from blockmaze.commands import options_of
>>> from blockmaze.export import writer_for
>>> wall = options_of("generate", "wall")[0]
>>> why_not(wall, Context(writer_for(format="schem"), ("hex",)))
'hex mazes (they use --scale)'
>>> why_not(wall, Context(writer_for(format="schem"), ("square",))) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass

from .commands import Job, Option, Where, options_of
from .export import Writer


@dataclass(frozen=True)
class Context:
    """What a run writes and draws, as far as whether an option applies depends on it:
    ``writer`` (None: printed), the grid ``kinds`` drawn (an option applies if it applies to
    one: a unicursal hex maze is drawn in blocks at ``--scale``, then as a square maze),
    blockwise's ``mode``, ``solid`` (a 3-D blockwise maze: nothing to stand up) and ``uses``,
    options the run uses whatever their description says."""

    writer: Writer | None
    kinds: tuple[str, ...] = ()
    mode: str | None = None
    solid: bool = False
    uses: frozenset[str] = frozenset()


def why_not(option: Option, context: Context) -> str | None:
    """What ``option`` does not apply to in ``context`` (None: it applies)."""
    if option.name in context.uses:
        return None
    return (_mode(option, context) or _solid(option, context) or _output(option, context.writer)
            or _grids(option, context.kinds))


def _mode(option: Option, context: Context) -> str | None:
    if option.modes is not None and context.mode is not None and context.mode not in option.modes:
        return f"--mode {context.mode}"
    return None


def _solid(option: Option, context: Context) -> str | None:
    if option.where is Where.EXTRUSION and context.solid:
        return "a 3-D blockwise maze (it is a volume already)"
    return None


def _output(option: Option, writer: Writer | None) -> str | None:
    """Why ``option`` does not apply to the output (None: printed)."""
    if writer is None:
        printed = option.where.printed and (option.writer is None or option.printed)
        return None if printed else "a printed maze (give --output FILE)"
    if option.where is Where.PRINTED:
        return "a maze written to a file (it is for printed mazes)"
    if option.writer is not None:
        takes = option.writer in writer.options
    else:
        takes = writer.name not in option.not_for and \
            option.where.takes_file(writer.draws_maze, writer.plan or writer.draws_dungeons)
    return None if takes else f"{writer.name} output"


def _grids(option: Option, kinds: tuple[str, ...]) -> str | None:
    if option.grids is not None and kinds and not option.grids.intersection(kinds):
        return f"{kinds[0]} mazes ({option.grid_note})"
    return None


def unused(job: Job, context: Context) -> dict[str, str]:
    """The options the user chose (``job.given``) that the run does not use, each with what it
    does not apply to.

    >>> from blockmaze.commands import make_job
    >>> from blockmaze.export import writer_for
    >>> job = make_job("generate", size=3, mc_version="1.20.4", block_size=2.0, wall=2)
    >>> unused(job, Context(writer_for("m.obj"), ("square",)))
    {'mc_version': 'obj output'}
    >>> job = make_job("blockwise", size=(9, 21, 21), height=4, lights=True)
    >>> unused(job, Context(writer_for("m.schem"), mode="strict", solid=True))
    {'height': 'a 3-D blockwise maze (it is a volume already)'}
    """
    return {o.name: reason for o in options_of(type(job)) if o.name in job.given
            for reason in [why_not(o, context)] if reason}

