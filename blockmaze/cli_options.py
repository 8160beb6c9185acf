"""What the command line's options are for: help grouped by purpose, and which options a run
does not use (so the command can warn instead of silently ignoring them).

Options are named by their parameter names (``mc_version`` for ``--mc-version``); an option
missing from the tables is listed under "Other options" and never warned about.

Example
-------
>>> from blockmaze.export import writer_for
>>> unused_options({"mc_version", "block_size", "wall"}, writer_for("m.obj"), kind="square")
{'mc_version': 'obj output'}
>>> unused_options({"wall", "scale"}, writer_for("m.schem"), kind="hex")
{'wall': 'hex mazes (they use --scale)'}
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

# CLI option -> the writer option it sets (a writer that lacks it ignores the CLI option)
WRITER_OPTIONS = {
    "mc_version": "mc_version", "schem_version": "schem_version", "keep_terrain": "keep_terrain",
    "tile_encoding": "encoding", "external_tileset": "external_tileset",
    "block_size": "block_size", "raw_mesh": "watertight", "collision": "collision",
    "picture_style": "style", "cell_size": "cell_size", "shade": "shade",
    "chunk": "chunk", "quantize": "quantize", "compress": "compress", "uv": "uv",
    "terrain": "terrain", "y": "y", "mobs": "mobs", "time": "time",
}
STANDING = ("height", "floor", "roof", "lights")  # how a plan is stood up into a volume
PRINTED_IGNORES = (*WRITER_OPTIONS, *STANDING, "theme", "wall", "passage", "scale")
# blockwise options by the mode that uses them
MODE_OPTIONS = {"strict": ("algorithm", "cells", "wall", "passage"),
                "relaxed": ("ordering", "border", "fill")}


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


def unused_options(given, writer=None, *, kind: str | None = None, command: str = "generate",
                   mode: str | None = None) -> dict[str, str]:
    """The options in ``given`` the run does not use, each with what it does not apply to.

    ``writer`` is the output's writer (None: the maze is printed); ``kind`` the grid kind
    (generate, export); ``command`` and ``mode`` for blockwise and dungeon.
    """
    unused = {}
    for name in given:
        reason = _reason(name, writer, kind, command, mode)
        if reason:
            unused[name] = reason
    return unused


def _reason(name, writer, kind, command, mode) -> str | None:
    if command == "blockwise" and mode is not None:
        other = "relaxed" if mode == "strict" else "strict"
        if name in MODE_OPTIONS[other] and name not in MODE_OPTIONS[mode]:
            return f"--mode {mode}"
    if command in ("blockwise", "dungeon") and name == "scale":
        return f"{command} mazes (they are blocks already)"
    if writer is None:
        if name in PRINTED_IGNORES and not (command == "blockwise" and name in ("wall", "passage")):
            return "a printed maze (give --output FILE)"
        return None
    if name == "text_style":
        return "a maze written to a file (it is for printed mazes)"
    output = f"{writer.name} output"
    if name in WRITER_OPTIONS:
        return None if WRITER_OPTIONS[name] in writer.options else output
    maze_output = writer.source == "maze"
    if name in STANDING and (maze_output or writer.plan):
        return output
    if name in ("wall", "passage", "scale") and maze_output:
        return output
    if name == "theme" and writer.name == "maze":
        return output
    if name == "solution" and maze_output and "solution" not in writer.options:
        return output
    if kind is not None and name in ("wall", "passage") and kind not in ("square", "layered", "weave"):
        return f"{kind} mazes (they use --scale)"
    if kind is not None and name == "scale" and kind in ("square", "layered", "weave"):
        return f"{kind} mazes (they use --wall and --passage)"
    return None
