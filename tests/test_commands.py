"""Each command is described once (blockmaze.commands): the click command, the studio's form and
the library's job are all built from that description and agree option for option."""

from __future__ import annotations

import dataclasses

import click
import pytest

from blockmaze.cli import cli
from blockmaze.commands import COMMANDS, make_job, options_of
from blockmaze.errors import BlockmazeError

ARGUMENTS = {"generate": "20x30", "export": "README.md", "blockwise": "21x31", "dungeon": "20x30",
             "info": "README.md"}


def field_defaults(command: str) -> dict:
    return {f.name: f.default for f in dataclasses.fields(COMMANDS[command])
            if "option" in f.metadata and not f.metadata["option"].get("argument")}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_the_click_command_is_the_description(command):
    click_command = cli.commands[command]
    params = {p.name: p for p in click_command.params if p.expose_value}
    assert list(params) == [o.name for o in options_of(command)]
    ctx = click.Context(click_command)
    for name, default in field_defaults(command).items():
        raw = params[name].get_default(ctx)
        typed = None if raw is None else params[name].type_cast_value(ctx, raw)
        assert typed == default, (command, name)


@pytest.mark.parametrize("command", ["generate", "blockwise", "dungeon"])
def test_the_studio_form_is_the_description(command):
    from blockmaze.web.jobs import describe, offered

    form = {entry["name"]: entry for entry in describe()["commands"][command]}
    described = [o for o in options_of(command) if offered(o)]
    assert list(form) == [o.name for o in described]
    for option in described:  # the form's default, parsed as the command parses it, is the field's
        shown = form[option.name]["default"]
        value = option.parse(shown) if isinstance(shown, str) else shown
        assert value == field_defaults(command)[option.name], (command, option.name)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_the_library_job_is_the_description(command):
    argument = options_of(command)[0]
    job = make_job(command, **{argument.name: ARGUMENTS[command]})
    assert job.given == {argument.name}
    for name, default in field_defaults(command).items():
        assert getattr(job, name) == default, (command, name)


def test_no_default_is_written_twice():
    """The defaults live in the description only: the modules that use options hold none."""
    import blockmaze.cli as cli_module
    import blockmaze.jobs as jobs_module

    for module in (cli_module, jobs_module):
        assert not hasattr(module, "DEFAULTS") and not hasattr(module, "OUTPUT_DEFAULTS")


def test_text_is_parsed_as_the_command_parses_it():
    job = make_job("generate", size="3Hx20Rx30C", kind="layered", wall="1x2", braid="0.5",
                   roof=True)
    assert (job.size, job.wall, job.braid, job.roof) == ((3, 20, 30), (1, 2), 0.5, True)
    with pytest.raises(BlockmazeError, match="Invalid value for '-g' / '--grid'"):
        make_job("generate", size=3, kind="hexagon")
    with pytest.raises(BlockmazeError, match="dungeon needs its size"):
        make_job("dungeon")


@pytest.mark.parametrize("output", ["m.schem", "m.glb", "m.tmx", "m.png", "World/"])
def test_a_run_looks_its_writer_up_once_and_loads_its_theme_once(tmp_path, monkeypatch, output):
    """jobs.run resolves the output's writer and the theme at the top and passes the objects
    down: per run, the writer registry is read once and the theme parsed once, whatever the
    format (the process's own cache of the shipped themes, warmed by a first run, aside)."""
    import blockmaze.materials as materials
    from blockmaze.export import WRITERS
    from blockmaze.jobs import run

    def job(folder):
        (tmp_path / folder).mkdir()
        run("generate", size=(4, 5), seed=1, output=f"{tmp_path}/{folder}/{output}", theme="hedge")

    job("first")
    lookups, parsed = [], []
    registry = type(WRITERS)
    original_get, original_parse = registry.__getitem__, materials.parse_theme
    monkeypatch.setattr(registry, "__getitem__", lambda self, name: (
        lookups.append(name) if self is WRITERS else None) or original_get(self, name))
    monkeypatch.setattr(materials, "parse_theme",
                        lambda *args: parsed.append(args[1]) or original_parse(*args))
    job("second")
    assert len(lookups) == 1 and len(parsed) == 1, (lookups, parsed)
