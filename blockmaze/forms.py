"""A command's options as a form shows them: the studio's page and the host plugins (Amulet,
Blender, Tiled) build their fields from this, so none of them lags behind the commands'
descriptions (:mod:`blockmaze.commands`).

>>> fields = {f["name"]: f for f in form("generate")}
>>> fields["kind"]["flag"], fields["kind"]["type"], fields["kind"]["default"]
('grid', 'choice', 'square')
>>> "size" in fields or "output" in fields  # (the argument, and the files around the run)
False
"""

from __future__ import annotations

from typing import Any

from .commands import Option, options_of


def offered(option: Option) -> bool:
    """Whether a form shows ``option``: not the argument, not the files around the run (output,
    mask, split tiles), nothing that configures the process and nothing for a maze printed in a
    terminal (a form's run always writes a file)."""
    return not (option.argument or option.process or not option.studio
                or option.name == "format_" or option.where == "printed")


def form(command: str) -> list[dict[str, Any]]:
    """The fields of ``command``'s form, in the order of its description: each a dict of
    ``flag``, ``name``, ``help``, ``group``, ``default`` (as text for a size) and ``type``:
    ``flag`` (on or off, with ``off``: the flag that turns it off, ``no-floor``), ``choice``
    (with ``choices``) or ``text`` (parsed by the command)."""
    import click

    from .algorithms import algorithm_specs
    from .materials import theme_names

    fields = []
    for option in options_of(command):
        if not offered(option):
            continue
        default = option.default if option.shown is None else option.shown
        if isinstance(default, tuple):
            default = "x".join(map(str, default))
        field: dict[str, Any] = {"flag": option.flag, "name": option.name, "help": option.help,
                                 "group": option.group, "default": default}
        if option.switch:
            field.update(type="flag", off=(option.off or f"--no-{option.flag}")[2:])
        elif isinstance(option.type, click.Choice):  # (unset by default: "" first, none chosen)
            field.update(type="choice",
                         choices=[""] * (default is None) + list(option.type.choices))
        elif option.name == "algorithm":
            field.update(type="choice", choices=algorithm_specs())
        elif option.name == "theme":
            field.update(type="choice", choices=theme_names())
        else:
            field["type"] = "text"
        fields.append(field)
    return fields
