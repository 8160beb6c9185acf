"""The documentation's pages as the installed program has them, for ``blockmaze docs``.

A wheel carries the Markdown pages of ``docs/`` in ``blockmaze/pages/`` (``setup.py`` copies
them there as it builds); a source checkout (an editable install) reads ``docs/`` beside the
package. A page is named by its path without ``.md`` (``usage``, ``guides/minecraft``) or, where
that is unique, its last part (``roguelike``). A page asks for a part made from the code with a
marker line (:data:`MARKER`, the same the site's build fills in, ``docs/hooks.py``).

>>> page_names()["guides/roguelike"]
'Getting started: roguelike levels'
>>> page_text("roguelike", lambda part: "").splitlines()[0]
'# Getting started: roguelike levels'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from ..errors import BlockmazeError

# a line that asks for a part made from the code: <!-- generated: commands -->
MARKER = re.compile(r"^<!-- generated: (\w+) -->$", re.M)


def pages_folder() -> Path:
    """The folder of the pages: the package's own copy, else the checkout's ``docs/``."""
    package = Path(__file__).resolve().parents[1]
    for folder in (package / "pages", package.parent / "docs"):
        if (folder / "index.md").is_file():
            return folder
    raise BlockmazeError(f"the documentation's pages are not installed (no {package / 'pages'}); "
                         "reinstall blockmaze, or read them at docs/ in its source")


def _title(path: Path) -> str:
    """A page's first heading (after any front matter), or its name."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return path.stem


def page_names() -> dict[str, str]:
    """Every page's name and title, the home page first."""
    folder = pages_folder()
    names = {path.relative_to(folder).with_suffix("").as_posix(): path
             for path in sorted(folder.rglob("*.md"))}
    order = sorted(names, key=lambda name: (name != "index", name.count("/"), name))
    return {name: _title(names[name]) for name in order}


def find_page(name: str) -> Path:
    """The page named ``name`` (see the module's help); one line naming the pages otherwise."""
    folder = pages_folder()
    wanted = name.strip().removesuffix(".md").strip("/")
    names = page_names()
    if wanted not in names:
        ends = [known for known in names if known.rsplit("/", 1)[-1] == wanted]
        if len(ends) != 1:
            raise BlockmazeError(f"no page {name!r}" + (f" alone (it could be {' or '.join(ends)})"
                                                        if ends else "")
                                 + f"; the pages: {', '.join(names)}")
        wanted = ends[0]
    return folder / f"{wanted}.md"


def page_text(name: str, generated: Callable[[str], str]) -> str:
    """The Markdown of page ``name``, each marker line replaced by ``generated(part)``, front
    matter (the site's settings for the page) left out."""
    text = find_page(name).read_text(encoding="utf-8")
    if text.startswith("---\n"):
        text = text[text.index("\n---\n", 4) + 5:].lstrip("\n")
    return MARKER.sub(lambda match: generated(match[1]), text).rstrip("\n")
