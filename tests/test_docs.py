"""The documentation cannot drift from the code: the site builds with warnings as errors (broken
internal links and anchors included), every example in README.md and docs/ runs (shell lines as
a user types them, in a temporary folder; Python as doctests), the pictures are the script's, and
every command's help ends with its page."""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

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
    """An environment whose ``blockmaze`` is the package these tests import."""
    folder = tmp_path_factory.mktemp("bin")
    (folder / "blockmaze").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m blockmaze "$@"\n')
    (folder / "blockmaze").chmod(0o755)
    source = str(Path(blockmaze.__file__).resolve().parents[1])
    return {**os.environ, "PATH": f"{folder}{os.pathsep}{os.environ['PATH']}",
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


@pytest.mark.parametrize("name", [None, *cli.commands])
def test_help_ends_with_its_page(name, capsys):
    with pytest.raises(SystemExit):
        cli.main([name, "--help"] if name else ["--help"], prog_name="blockmaze")
    last = capsys.readouterr().out.strip().splitlines()[-1]
    page = f"docs/commands.md#{name}" if name else "docs/index.md"
    assert last.strip().startswith("Docs: ") and page in last, last
    assert (ROOT / page.split("#")[0]).is_file()


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
