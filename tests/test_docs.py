"""The documentation cannot drift from the code: the site builds with warnings as errors (broken
internal links and anchors included), every example in README.md and docs/ runs (shell lines as
a user types them, in a temporary folder; Python as doctests), the pictures are the script's, and
every command's help ends naming pages the installed program prints (`blockmaze docs`), whose
examples run as pasted; every shell line parses as one command."""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest
from PIL import Image

import blockmaze
from blockmaze.cli import cli

from readers import module

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.S | re.M)
SHELL = {"sh", "console"}
NOT_RUN = ("blockmaze serve",)  # a server that runs until it is stopped
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def blocks(page: Path, *languages: str) -> list[tuple[str, int, str]]:
    """The fenced blocks of ``page`` in ``languages``: (language, line number, text)."""
    text = page.read_text(encoding="utf-8")
    return [(m[1], text.count("\n", 0, m.start()) + 2, m[2]) for m in FENCE.finditer(text)
            if m[1] in languages]


def shell_examples(page: Path) -> list[tuple[int, str, str | None]]:
    """(line, command, the output the page shows or None) for each ``blockmaze`` line of the
    page's ``sh`` and ``console`` blocks (``$ `` starts a command in ``console``; the lines up to
    the next one are its output); the ``python3 -m venv`` set-up lines are CI's (.ci/run)."""
    found = []
    for language, start, text in blocks(page, *SHELL):
        lines = text.splitlines()
        for i, line in enumerate(lines):
            command = line[2:] if language == "console" and line.startswith("$ ") else line
            if language == "console" and not line.startswith("$ "):
                continue
            if not command.startswith("blockmaze ") or command.startswith(NOT_RUN):
                continue
            shown = None
            if language == "console":
                rest = lines[i + 1:]
                end = next((j for j, later in enumerate(rest) if later.startswith("$ ")), len(rest))
                shown = "\n".join(rest[:end]).strip() or None
            found.append((start + i, command, shown))
    return found


def python_examples(page: Path) -> list[tuple[str, int, str]]:
    """The page's ``pycon`` (doctest) and ``python`` (run as it is) blocks."""
    return blocks(page, "pycon", "python")


@pytest.fixture(scope="module")
def shim(tmp_path_factory) -> dict[str, str]:
    """An environment whose ``blockmaze`` is the package these tests import, its home (and the
    folders a host plugin is installed in by default) a temporary folder."""
    folder = tmp_path_factory.mktemp("bin")
    home = tmp_path_factory.mktemp("home")
    (folder / "blockmaze").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m blockmaze "$@"\n')
    (folder / "blockmaze").chmod(0o755)
    source = str(Path(blockmaze.__file__).resolve().parents[1])
    return {**os.environ, "PATH": f"{folder}{os.pathsep}{os.environ['PATH']}", "HOME": str(home),
            "DATA_DIR": str(home / "amulet"), "XDG_DATA_HOME": str(home / ".local" / "share"),
            "XDG_CONFIG_HOME": str(home / ".config"),
            "PYTHONPATH": os.pathsep.join(filter(None, [source, os.environ.get("PYTHONPATH")]))}


def _name(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


@pytest.mark.slow
@pytest.mark.parametrize("page", [p for p in PAGES if shell_examples(p)], ids=_name)
def test_shell_examples_run(page, tmp_path, shim):
    (tmp_path / "samples").mkdir()  # the gallery's sample commands write there
    for line, command, shown in shell_examples(page):
        done = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=tmp_path, env=shim,
                              capture_output=True, text=True, timeout=120)
        where = f"{_name(page)}:{line}: {command}"
        assert done.returncode == 0, f"{where} exited {done.returncode}: {done.stderr[-2000:]}"
        if shown is not None:
            assert done.stdout.strip() == shown, f"{where} printed:\n{done.stdout}"


@pytest.mark.parametrize("page", [p for p in PAGES if python_examples(p)], ids=_name)
def test_python_examples_run(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "__docs__"}
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=FLAGS)
    for language, line, text in python_examples(page):
        where = f"{_name(page)}:{line}"
        if language == "python":
            exec(compile(text, where, "exec"), namespace)
            continue
        test = parser.get_doctest(text, namespace, where, str(page), line)
        result = runner.run(test, out=lambda report: print(report, end=""))
        assert result.failed == 0, f"{where}: {result.failed} of {result.attempted} failed"


@pytest.mark.slow
def test_site_builds_with_warnings_as_errors(tmp_path):
    module("mkdocs", "mkdocs (the docs extra)")
    module("mkdocstrings", "mkdocstrings[python] (the docs extra)")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
                           "--site-dir", str(tmp_path / "site")], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, done.stdout + done.stderr
    reference = (tmp_path / "site" / "commands.html").read_text(encoding="utf-8")
    for name in cli.commands:
        assert f'id="{name}"' in reference, name


def _pictures_module():
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import make_docs_pictures
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    return make_docs_pictures


def test_pictures_are_the_scripts(tmp_path):
    made = {path.name: path for path in _pictures_module().make_pictures(tmp_path)}
    shown = {Path(name).name for page in PAGES
             for name in re.findall(r"\]\((?:\.\./)?images/([^)]+)\)", page.read_text("utf-8"))}
    committed = {path.name for path in (ROOT / "docs" / "images").iterdir()}
    assert shown <= set(made) and committed == set(made)
    for name, path in made.items():
        with Image.open(path) as new, Image.open(ROOT / "docs" / "images" / name) as old:
            assert new.size == old.size and new.tobytes() == old.convert(new.mode).tobytes(), \
                f"run python scripts/make_docs_pictures.py ({name})"


def _help(name: str | None, capsys) -> str:
    with pytest.raises(SystemExit):
        cli.main([name, "--help"] if name else ["--help"], prog_name="blockmaze")
    return capsys.readouterr().out


@pytest.mark.parametrize("name", [None, *cli.commands])
def test_help_ends_with_pages_the_installed_program_shows(name, capsys):
    """The last line names ``blockmaze docs PAGE`` for pages that exist, not a path into a
    checkout that an installed wheel does not have."""
    from blockmaze.support.pages import find_page

    last = _help(name, capsys).strip().splitlines()[-1]
    named = re.findall(r"blockmaze docs ([\w/-]+)", last)
    assert last.strip().startswith("Docs: ") and "docs/" not in last and named, last
    for page in named:
        assert find_page(page).is_file()


def help_examples(capsys) -> list[str]:
    """The example lines of ``blockmaze --help``, in order; every command's help shows only
    lines from these."""
    def examples(text: str) -> list[str]:
        lines = text.split("Examples:\n", 1)[-1].split("\n\n", 1)[0].splitlines()
        return [line.strip() for line in lines if line.strip().startswith("blockmaze ")]

    top = examples(_help(None, capsys))
    for name in cli.commands:
        shown = examples(_help(name, capsys)) if "Examples:" in _help(name, capsys) else []
        assert set(shown) <= set(top), (name, set(shown) - set(top))
    return top


def test_help_examples_are_commands_with_comments_after_a_hash(capsys):
    """Pasted as shown, each example line is one command: words after it are a comment."""
    for line in help_examples(capsys):
        assert_parses(line, "blockmaze --help")


@pytest.mark.slow
def test_help_examples_paste_and_run(tmp_path, shim, capsys):
    for line in help_examples(capsys):
        done = subprocess.run(["bash", "-c", line], cwd=tmp_path, env=shim, capture_output=True,
                              text=True, timeout=300)
        assert done.returncode == 0, f"{line} exited {done.returncode}: {done.stderr[-2000:]}"


def shell_lines(page: Path) -> list[tuple[int, str]]:
    """(line, text) of each line of the page's shell blocks that runs blockmaze: ``sh`` and
    ``console`` blocks (a ``$ `` line) and blocks with no language whose lines start so."""
    found = []
    for language, start, text in blocks(page, *SHELL, ""):
        lines = text.splitlines()
        if language == "" and not any(line.startswith("blockmaze ") for line in lines):
            continue  # a drawing or a listing
        for i, line in enumerate(lines):
            command = line[2:] if language == "console" and line.startswith("$ ") else line
            if command.startswith("blockmaze "):
                found.append((start + i, command))
    return found


def assert_parses(line: str, where: str) -> None:
    """``line`` is shell words of one blockmaze command (a comment starts with #) that the
    command's own parser takes: no extra argument, no unknown option, no bad value."""
    import shlex

    from blockmaze.errors import BadFileError

    words = shlex.split(line.split(" | ")[0].split(" > ")[0], comments=True)
    assert words[0] == "blockmaze", where
    at = next((i for i, word in enumerate(words) if i and not word.startswith("-")), len(words))
    try:
        parent = cli.make_context("blockmaze", words[1:at] or ["--help"] if at == len(words)
                                  else [*words[1:at], words[at]])
        if at < len(words):
            assert words[at] in cli.commands, f"{where}: no command {words[at]!r}: {line}"
            cli.commands[words[at]].make_context(words[at], words[at + 1:], parent=parent)
    except (BadFileError, click.exceptions.Exit):  # an input an earlier line makes; --help
        pass
    except (click.UsageError, click.BadParameter) as error:
        pytest.fail(f"{where}: {line}\n  {error.format_message()}")


@pytest.mark.parametrize("page", [p for p in PAGES if shell_lines(p)], ids=_name)
def test_shell_blocks_parse_as_commands(page):
    for line, command in shell_lines(page):
        assert_parses(command, f"{_name(page)}:{line}")


def test_a_line_with_prose_after_it_does_not_parse():
    with pytest.raises(pytest.fail.Exception, match="unexpected extra argument"):
        assert_parses("blockmaze generate 20x20 -o walk.schem    any perfect maze, split", "here")
    assert_parses("blockmaze generate 20x20 -o walk.schem    # any perfect maze, split", "here")


@pytest.mark.slow
def test_the_installed_wheel_shows_the_pages(tmp_path):
    """A wheel built from the checkout carries the pages: ``blockmaze docs PAGE``, run from
    the wheel's files alone, prints the page as docs/ has it."""
    wheels, target = tmp_path / "wheels", tmp_path / "installed"
    pip = [sys.executable, "-m", "pip", "-q", "--disable-pip-version-check"]
    done = subprocess.run([*pip, "wheel", "--no-deps", "-w", str(wheels),
                           str(ROOT)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    done = subprocess.run([*pip, "install", "--no-deps", "--target", str(target),
                           *map(str, wheels.glob("*.whl"))], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    env = {**os.environ, "PYTHONPATH": str(target)}
    where = subprocess.run([sys.executable, "-c", "import blockmaze; print(blockmaze.__file__)"],
                           cwd=tmp_path, env=env, capture_output=True, text=True, check=True)
    assert where.stdout.startswith(str(target))
    shown = subprocess.run([sys.executable, "-m", "blockmaze", "docs", "guides/minecraft"],
                           cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert shown.returncode == 0, shown.stderr
    page = (ROOT / "docs" / "guides" / "minecraft.md").read_text(encoding="utf-8")
    assert shown.stdout.strip() == page.strip()
    listed = subprocess.run([sys.executable, "-m", "blockmaze", "docs"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=120)
    assert "guides/roguelike" in listed.stdout and "commands" in listed.stdout


def test_docs_prints_a_page_and_its_generated_parts(capsys):
    from blockmaze.cli import main

    assert main(["docs", "labyrinths"]) == 0
    assert capsys.readouterr().out.strip() == \
        (ROOT / "docs" / "labyrinths.md").read_text(encoding="utf-8").strip()
    assert main(["docs", "commands"]) == 0
    out = capsys.readouterr().out
    assert "<!-- generated" not in out and all(f"## {name}" in out for name in cli.commands)
    assert "--mc-version VERSION" in out
    assert main(["docs", "api"]) == 0
    assert "- `build`: " in capsys.readouterr().out
    assert main(["docs", "no-such-page"]) == 2
    assert "the pages: index, " in capsys.readouterr().err
def test_the_docs_own_code():
    module("griffe", "mkdocstrings[python] (the docs extra)")
    sys.path.insert(0, str(ROOT / "docs"))
    try:
        import griffe_doctests
        import hooks
    finally:
        sys.path.remove(str(ROOT / "docs"))
    for code in (hooks, griffe_doctests, _pictures_module()):
        assert doctest.testmod(code, optionflags=FLAGS).failed == 0, code.__name__


def test_examples_are_counted():
    """The README and the pages hold examples to run (and say how many, with -s)."""
    shell = sum(len(shell_examples(page)) for page in PAGES)
    python = sum(len(python_examples(page)) for page in PAGES)
    print(f"{shell} shell commands and {python} Python blocks in {len(PAGES)} pages")
    assert shell >= 20 and python >= 3
