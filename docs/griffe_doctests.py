"""A griffe extension for the API pages: blockmaze's docstrings are written for ``help()`` and
doctest (reST-style ``code``, ``>>>`` examples in the text), so before mkdocstrings renders one
as Markdown its doctest lines are fenced as ``pycon`` and its double backticks made single.

>>> as_markdown("Use ``x``, :func:`f`.\\n>>> f()\\n3").splitlines()
['Use `x`, `f`.', '```pycon', '>>> f()', '3', '```']
"""

from __future__ import annotations

import re

import griffe

ROLE = re.compile(r":(?:func|class|mod|data|meth|attr|exc):`~?([^`]+)`")


def as_markdown(text: str) -> str:
    """A docstring's text with its doctest runs fenced and its reST literals as Markdown."""
    out: list[str] = []
    fenced = False
    for line in text.splitlines():
        if line.lstrip().startswith(">>>") and not fenced:
            out.append("```pycon")
            fenced = True
        elif fenced and not line.strip():
            out.append("```")
            fenced = False
        out.append(line if fenced else ROLE.sub(r"`\1`", line.replace("``", "`")))
    return "\n".join([*out, "```"] if fenced else out) + "\n"


class DoctestsAsCode(griffe.Extension):
    """Rewrite every docstring as :func:`as_markdown` makes it, once it is loaded."""

    def on_object(self, *, obj, **kwargs) -> None:
        if obj.docstring is not None:
            obj.docstring.value = as_markdown(obj.docstring.value)
