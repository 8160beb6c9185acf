"""How the command line shows and reads its options: click parameters made from a command's
description (:mod:`blockmaze.commands`), help grouped by purpose, suggestions for a mistyped
command, and which options the user typed (the library warns about those a run does not use).

Example
-------
>>> from blockmaze.commands import Generate
>>> [p.opts for p in described_params(Generate) if p.name in ("kind", "roof")]
[['--roof'], ['-g', '--grid']]
"""

from __future__ import annotations

import click

from .commands import GROUPS, Job, Option, options_of


class GroupedOption(click.Option):
    """A click option that knows its help group."""

    def __init__(self, *args, group: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        self.group = group


def click_param(option: Option) -> click.Parameter:
    """The click parameter of one described option (its argument, a switch, or a valued option)."""
    if option.argument:
        return click.Argument([option.name], type=option.type, metavar=option.metavar,
                              required=option.required)
    flags = list(option.flags) or [f"--{option.flag}"]
    if option.switch:
        longs = [f for f in flags if f.startswith("--")]
        flags = [f for f in flags if not f.startswith("--")] + [
            f"{longs[0]}/{option.off or '--no-' + option.flag}"]
        return GroupedOption([*flags, option.name], default=option.default,
                             show_default=option.show_default and option.default is not None,
                             help=option.help, group=option.group)
    default = option.default if option.shown is None else option.shown
    return GroupedOption([*flags, option.name], type=option.type, default=default,
                         show_default=option.show_default and default is not None,
                         metavar=option.metavar, help=option.help, group=option.group)


def described_params(job: type[Job]) -> list[click.Parameter]:
    """The click parameters of a command's description, in its order."""
    return [click_param(option) for option in options_of(job)]


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
    """A command whose ``--help`` lists its options in groups by purpose (:data:`GROUPS`)."""

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        groups: dict[str, list] = {}
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is not None and isinstance(param, click.Option):
                groups.setdefault(getattr(param, "group", "") or "Help", []).append(record)
        unlisted = sorted(set(groups) - {*GROUPS, "Help"})  # (never hidden: listed after)
        for title in (*GROUPS, *unlisted, "Help"):
            if title in groups:
                with formatter.section(f"{title} options" if title != "Help" else "Help"):
                    formatter.write_dl(groups[title])


def given_options(ctx: click.Context) -> set[str]:
    """The options the user typed on the command line (not left to their defaults)."""
    return {name for name in ctx.params
            if ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE}
