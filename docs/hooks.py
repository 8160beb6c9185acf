"""MkDocs hooks: the pages made from the code as the site is built, so they cannot drift from it.

A page asks for a generated part with a marker line: ``<!-- generated: commands -->`` (every
command's options, from :mod:`blockmaze.commands` and the click commands built from it) or
``<!-- generated: api -->`` (the public names of ``blockmaze.__all__``, for mkdocstrings).

>>> "`-s`, `--seed`" in commands_reference()
True
>>> "::: blockmaze.pipeline" in api_reference()
True
"""

from __future__ import annotations

import re

import click

MARKER = re.compile(r"^<!-- generated: (\w+) -->$", re.M)
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
    if param.default is None or (isinstance(param, click.Argument)):
        return ""
    return f"`{param.default}`"


def _command_section(name: str, command: click.Command) -> list[str]:
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
                lines += [f"`{param.make_metavar(context)}`: {_cell(option.help)}", ""]
            continue
        flags = ", ".join(f"`{flag}`" for flag in [*param.opts, *param.secondary_opts])
        where = applies_to(option) if option else "every run"
        row = f"| {flags} | {_default(param, option)} | {where} | {_cell(param.help)} |"
        groups.setdefault(getattr(param, "group", "") or "Help", []).append(row)
    for title in (*GROUPS, "Help"):
        if title in groups:
            heading = f"{title.lower()} options" if title != "Help" else "other options"
            lines += [f"### {name}: {heading}", "", "| option | default | applies to | what it does |", "|---|---|---|---|",
                      *groups[title], ""]
    return lines


def commands_reference() -> str:
    """Every command's usage and options as Markdown: default, where it applies, its help."""
    from blockmaze.cli import cli

    lines: list[str] = []
    for name, command in cli.commands.items():
        lines += _command_section(name, command)
    return "\n".join(lines)


def api_reference() -> str:
    """A mkdocstrings block per module of the public names (``blockmaze.__all__``)."""
    import blockmaze

    modules: dict[str, list[str]] = {}
    for name in blockmaze.__all__:
        modules.setdefault(blockmaze._EXPORTS[name], []).append(name)
    lines = []
    for module in sorted(modules):
        members = ", ".join(sorted(modules[module]))
        lines += [f"## `blockmaze.{module}`", "", f"::: blockmaze.{module}",
                  "    options:", "      show_root_heading: false",
                  f"      members: [{members}]", ""]
    return "\n".join(lines)
