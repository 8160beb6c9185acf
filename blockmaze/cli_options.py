"""How the command line shows and reads its options: help grouped by purpose, suggestions for
a mistyped command, and which options the user typed (the library warns about those a run does
not use: :func:`blockmaze.jobs.unused_options`).

Options are named by their parameter names (``mc_version`` for ``--mc-version``); an option
missing from :data:`SECTIONS` is listed under "Other options".

Example
-------
>>> SECTION_OF["mc_version"], SECTION_OF["wall"]
('Minecraft', 'Blocks')
"""

from __future__ import annotations

import click

# option -> help section, sections in this order
SECTIONS = {
    "Maze": ("kind", "mask", "algorithm", "seed", "braid", "entrances", "mode", "ordering",
             "cells", "border", "fill", "room_size", "room_attempts", "extra_doors",
             "sparseness", "min_shortcut", "levels", "style", "spawns", "spawn_spacing", "lock"),
    "Blocks": ("wall", "passage", "height", "floor", "roof", "scale", "lights", "solution",
               "theme"),
    "Output": ("output", "format_", "text_style", "memory_limit", "animate", "fps"),
    "Minecraft": ("mc_version", "schem_version", "keep_terrain", "split"),
    "Worlds": ("terrain", "y", "mobs", "time"),
    "Meshes": ("block_size", "raw_mesh", "collision", "chunk", "compress", "quantize", "uv"),
    "Tile maps": ("tile_encoding", "external_tileset"),
    "Pictures": ("picture_style", "cell_size", "shade"),
}
SECTION_OF = {name: title for title, names in SECTIONS.items() for name in names}

class SuggestingGroup(click.Group):
    """A command group whose unknown-command error suggests what was meant: a command the word
    begins (``gen`` -> generate) before one spelt alike (``dungen`` -> dungeon), and lists them all.

    >>> group = SuggestingGroup(commands=[click.Command("generate"), click.Command("dungeon")])
    >>> group.suggest("gen"), group.suggest("dungen"), group.suggest("zzz")
    (['generate'], ['dungeon'], [])
    """

    def suggest(self, name: str) -> list[str]:
        import difflib

        name = name.lower()
        return (sorted(c for c in self.commands if c.startswith(name))
                or difflib.get_close_matches(name, sorted(self.commands)))

    def resolve_command(self, ctx, args):
        name = click.utils.make_str(args[0]) if args else ""  # (click may consume args)
        try:
            return super().resolve_command(ctx, args)
        except click.exceptions.NoSuchCommand:
            guesses = self.suggest(name)
            meant = f" Did you mean {' or '.join(map(repr, guesses))}?" if guesses else ""
            raise click.UsageError(f"No such command {name!r}.{meant} Commands: "
                                   f"{', '.join(sorted(self.commands))}.", ctx) from None


class SectionedCommand(click.Command):
    """A command whose ``--help`` lists its options in sections by purpose (:data:`SECTIONS`)."""

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        groups: dict[str, list] = {}
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is not None:
                groups.setdefault(SECTION_OF.get(param.name, "Other options"), []).append(record)
        for title in (*SECTIONS, "Other options"):
            if title in groups:
                with formatter.section(title + (" options" if title != "Other options" else "")):
                    formatter.write_dl(groups[title])


def given_options(ctx: click.Context) -> set[str]:
    """The options the user typed on the command line (not left to their defaults)."""
    return {name for name in ctx.params
            if ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE}


MOVED = ("unused_options", "WRITER_OPTIONS", "STANDING", "PRINTED_IGNORES", "MODE_OPTIONS")


def __getattr__(name: str):
    """What options a run uses is the library's rule now (:mod:`blockmaze.jobs`); the old names
    still work here, with a DeprecationWarning."""
    if name in MOVED:
        import warnings

        from . import jobs

        warnings.warn(f"blockmaze.cli_options.{name} moved to blockmaze.jobs.{name}",
                      DeprecationWarning, stacklevel=2)
        return getattr(jobs, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
