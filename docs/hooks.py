"""MkDocs hooks: the pages made from the code as the site is built, so they cannot drift from it.

A page asks for a generated part with a marker line: ``<!-- generated: commands -->`` (every
command's options, from :mod:`blockmaze.commands` and the click commands built from it) or
``<!-- generated: api -->`` (the public names of ``blockmaze.__all__``, for mkdocstrings).

>>> "`-s`, `--seed` `N`" in commands_reference()
True
>>> api = api_reference()
>>> api.index("blockmaze.pipeline.build") < api.index("Everything else") < api.index("ALGORITHMS")
True
"""

from __future__ import annotations

import click

from blockmaze.support.pages import MARKER
# where an option applies, in words (commands.Option.where)


def on_page_markdown(markdown: str, **kwargs) -> str:
    """Replace each marker line with the part it names."""
    makers = {"commands": commands_reference, "api": api_reference}
    return MARKER.sub(lambda match: makers[match[1]](), markdown)


def _formats_taking(keyword: str) -> list[str]:
    """The output formats whose writer takes ``keyword``."""
    from blockmaze.export import FORMATS, WRITERS

    return [name for name in FORMATS if keyword in WRITERS[name].options]


def applies_to(option) -> str:
    """Where a described option applies, in words (outputs, grids, modes)."""
    parts = [option.where.text] if option.where.text else []
    if option.writer is not None:
        parts.append("outputs " + ", ".join(f"`{name}`" for name in _formats_taking(option.writer)))
    if option.not_for:
        parts.append("not " + ", ".join(f"`{name}`" for name in sorted(option.not_for)))
    if option.grids is not None:
        parts.append("grids " + ", ".join(sorted(option.grids)))
    if option.modes is not None:
        parts.append("mode " + ", ".join(sorted(option.modes)))
    return "; ".join(parts) or "every run"


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _default(param: click.Parameter, described) -> str:
    if described is not None and described.shown is not None:
        return f"`{described.shown}`"
    if isinstance(param, click.Argument) or param.default is None:
        return ""
    if getattr(param, "is_flag", False):
        return "on" if param.default else "off"
    return f"`{param.default}`"


def _takes(param: click.Parameter, context: click.Context) -> tuple[str, str]:
    """What an option takes: a metavar for its name's line (``N``, ``NAME|FILE``) and, for a
    choice, its values in words for the text below (a long list wraps there, not in the name)."""
    if getattr(param, "is_flag", False):
        return "", ""
    if getattr(param, "metavar", None):
        return param.metavar, ""
    if isinstance(param.type, click.Choice):
        return "", "One of " + ", ".join(f"`{choice}`" for choice in param.type.choices) + "."
    if isinstance(param.type, (click.IntRange, click.FloatRange)):
        low, high = param.type.min, param.type.max
        number = "A whole number" if isinstance(param.type, click.IntRange) else "A number"
        bounds = (f" from {low} to {high}" if low is not None and high is not None else
                  f" from {low} up" if low is not None else f" up to {high}" if high else "")
        if hasattr(param.type, "wanted"):  # (commands.Whole says its range in words)
            number, bounds = param.type.wanted().capitalize(), ""
        return "N" if isinstance(param.type, click.IntRange) else "NUMBER", number + bounds + "."
    return param.make_metavar(context), ""


def _option_entry(param: click.Parameter, option, context: click.Context) -> list[str]:
    """One option as a definition: its names (and what it takes) on one line; below, what it
    does, its default and where it applies."""
    metavar, choices = _takes(param, context)
    names = ", ".join(f"`{flag}`" for flag in [*param.opts, *param.secondary_opts])
    facts = [f"*default* {_default(param, option)}"] if _default(param, option) else []
    facts.append(f"*applies to* {applies_to(option) if option else 'every run'}")
    text = " ".join(filter(None, [_cell(param.help or ""), choices]))
    return [names + (f" `{metavar}`" if metavar else ""), f":   {text}", "",
            f"    {' · '.join(facts)}", ""]


def _command_section(name: str, command: click.Command) -> list[str]:
    """A command's part of the reference: its summary, its usage, then each option as a
    definition (name, what it does, default, where it applies), by help group."""
    from blockmaze.commands import COMMANDS, GROUPS, options_of

    described = {o.name: o for o in options_of(name)} if name in COMMANDS else {}
    context = click.Context(command, info_name=f"blockmaze {name}")
    lines = [f"## {name}", "", _cell(command.help or ""), "", "```text",
             " ".join(command.collect_usage_pieces(context)).join(
                 (f"blockmaze {name} ", "")), "```", ""]
    groups: dict[str, list[str]] = {}
    for param in command.params:
        option = described.get(param.name)
        if isinstance(param, click.Argument):
            if option is not None and option.help:
                lines += [f"`{param.make_metavar(context)}`", f":   {_cell(option.help)}", ""]
            continue
        title = getattr(param, "group", "") or "Help"
        groups.setdefault(title, []).extend(_option_entry(param, option, context))
    for title in (*GROUPS, "Help"):
        if title in groups:
            heading = f"{title.lower()} options" if title != "Help" else "other options"
            lines += [f"### {name}: {heading}", "", *groups[title]]
    return lines


def commands_reference() -> str:
    """Every command's usage and options as Markdown: default, where it applies, its help."""
    from blockmaze.cli import cli

    lines: list[str] = []
    for name, command in cli.commands.items():
        lines += _command_section(name, command)
    return "\n".join(lines)


# the functions most programs call, first on the API page, in this order
EVERYDAY = ("generate", "build", "save", "maze_text", "place_endpoints", "braid", "save_maze",
            "load_maze", "generate_dungeon", "to_blocks", "extrude", "write")


def api_reference() -> str:
    """The public names (``blockmaze.__all__``) as mkdocstrings blocks: the everyday functions
    first (:data:`EVERYDAY`), one block each, then every other name by the module defining it."""
    import blockmaze

    lines = ["## The everyday functions", ""]
    for name in EVERYDAY:  # each from the module that defines it (a package may export it lazily)
        lines += [f"::: {getattr(blockmaze, name).__module__}.{name}", ""]
    modules: dict[str, list[str]] = {}
    for name in blockmaze.__all__:
        if name not in EVERYDAY:
            modules.setdefault(blockmaze._EXPORTS[name], []).append(name)
    lines += ["## Everything else, by module", ""]
    for module in sorted(modules):
        members = ", ".join(sorted(modules[module]))
        lines += [f"### `blockmaze.{module}`", "", f"::: blockmaze.{module}",
                  "    options:", "      show_root_heading: false", "      heading_level: 4",
                  f"      members: [{members}]", ""]
    return "\n".join(lines)
