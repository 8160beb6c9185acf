"""Where a run writes, parsed once: a file, standard output, an open file or a folder, with its
writer, and the files it becomes (a file per level, ``--split`` tiles).

:func:`destination` turns what ``-o`` and ``--format`` say (or a Python caller's target and
format) into a :class:`Destination`; from then on nothing reads the target's text again: standard
output is :data:`~blockmaze.export.target.STDOUT`, not ``"-"``.

Example
-------
>>> where = destination("out/level.tmx")
>>> where.writer.name, [p.name for p in where.level_paths(2)]
('tmx', ['level-1.tmx', 'level-2.tmx'])
>>> destination("-", "schem").to_stdout
True
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import cast

from ..errors import BlockmazeError, ParameterError
from . import Writer, writer_for
from .target import STDOUT, PathLike, Target, derived_base, is_file_object


@dataclass(frozen=True)
class Destination:
    """A run's output: ``target`` (a path, :data:`STDOUT` or an open binary file), the
    ``writer`` that writes it, ``split``, the side of the ``.schem`` tiles it is cut into, and
    ``levels``, the files of a run that writes a file a level (:meth:`for_levels`)."""

    target: Target
    writer: Writer
    split: int | None = None
    levels: tuple = ()

    @property
    def to_stdout(self) -> bool:
        """Whether the output goes to standard output (``-o -``)."""
        return self.target is STDOUT

    @property
    def is_path(self) -> bool:
        """Whether the output is a file name (not standard output, not an open file)."""
        return not (self.to_stdout or is_file_object(self.target))

    @property
    def shown(self) -> str:
        """The output as the run's report names it.

        >>> destination("-", "svg").shown, destination("m.svg").shown
        ('standard output', 'm.svg')
        """
        return "standard output" if self.to_stdout else str(self.target)

    def level_paths(self, count: int) -> list:
        """Where ``count`` files of levels go: the target itself for one, else ``NAME-1.tmx``,
        ``NAME-2.tmx`` ... beside it (the whole suffix kept: ``NAME-2.tilemap.json``).

        >>> [p.name for p in destination("d.tilemap.json").level_paths(2)]
        ['d-1.tilemap.json', 'd-2.tilemap.json']
        """
        if count == 1:
            return [self.target]
        if not self.is_path:
            raise BlockmazeError(f"{count} levels make a file per level: give a file name, not "
                                 "a stream")
        base = derived_base(self.target, f"{count} levels (a file per level)")
        suffix = max((x for x in self.writer.suffixes if base.name.lower().endswith(x)), key=len,
                     default=base.suffix)
        stem = base.name[:len(base.name) - len(suffix)]
        return [base.with_name(f"{stem}-{number}{suffix}") for number in range(1, count + 1)]

    def for_levels(self, count: int) -> Destination:
        """This destination for a run of ``count`` levels, their paths worked out (and a
        stream refused) once, before any work.

        >>> destination("d.tmx").for_levels(2).paths(2)
        [PosixPath('d-1.tmx'), PosixPath('d-2.tmx')]
        """
        return replace(self, levels=tuple(self.level_paths(count)))

    def paths(self, count: int) -> list:
        """The files of ``count`` levels: those :meth:`for_levels` worked out, or else
        :meth:`level_paths`."""
        return list(self.levels) if len(self.levels) == count else self.level_paths(count)


def destination(output: Target | None, format: str | Writer | None = None,
                split: int | None = None) -> Destination:
    """The destination ``output`` (``"-"``: standard output) and ``format`` name, with
    ``split`` checked against the writer (only a writer that cuts tiles takes it).

    >>> destination("m.glb", split=32)
    Traceback (most recent call last):
    ...
    blockmaze.errors.ParameterError: split cuts .schem files into tiles; glb does not take it
    """
    if output is None:
        raise BlockmazeError("no output: give a file name, - for standard output, or a file")
    stdout = isinstance(output, str) and output == "-"
    if stdout and format is None:
        raise BlockmazeError("-o - (standard output) needs --format NAME: the format cannot "
                             "be told from a file name")
    writer = writer_for(None if stdout or is_file_object(output) else cast(PathLike, output), format)
    if split is not None and not writer.tiles:
        raise ParameterError(f"{{split}} cuts .schem files into tiles; {writer.name} does not "
                             "take it")
    return Destination(STDOUT if stdout else output, writer, split)
