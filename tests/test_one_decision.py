"""Each decision is made once, held by reading the code (not by a name):

* below the command's rules (``jobs`` and the floors above it), no code compares a writer or a
  format by its name (``writer.name == "schem"``, ``format in ("world", ...)``): writers declare
  what they can do when they register, and shared code asks them. The writers' own family
  modules under ``export/`` may name their own formats;
* below ``jobs`` no code names a command option that is not a writer's keyword (``"wall"``,
  ``"split"``, ``"format_"`` ...) in a string: the plan carries resolved values, not options;
* every option's default is written once: where an option sets a writer keyword, the writer's
  default for it is not a second literal of the same value (both name one constant);
* standard output's ``"-"`` is compared in one module, the destination's parse.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from blockmaze.commands import COMMANDS, options_of
from blockmaze.export import FORMATS, writer_for

PACKAGE = Path(__file__).resolve().parents[1] / "blockmaze"
# the command's rules and what sits on them: they speak in options and format names
ABOVE = ("jobs.py", "commands.py", "applies.py", "replay.py", "cli.py", "cli_options.py",
         "__main__.py", "web")
# the writing path every format shares, from a job's plan to the files
SHARED = ("pipeline.py", "streaming.py", "writing.py", "export/__init__.py", "export/target.py",
          "export/destination.py", "blocks/settings.py")


def _below_jobs() -> list[Path]:
    return [p for p in sorted(PACKAGE.rglob("*.py")) if "vendor" not in p.parts
            and p.relative_to(PACKAGE).parts[0] not in ABOVE]


def _shared(path: Path) -> bool:
    """A module of the writing path every format shares (the writers' own modules may name
    their formats and keywords; the generators their own parameters)."""
    return str(path.relative_to(PACKAGE)) in SHARED


def _strings(node: ast.AST) -> list[str]:
    return [c.value for c in ast.walk(node) if isinstance(c, ast.Constant)
            and isinstance(c.value, str)]


def _mentions(node: ast.AST, *words: str) -> bool:
    """Whether ``node`` names a variable or attribute with one of ``words`` in its name."""
    for child in ast.walk(node):
        name = child.id if isinstance(child, ast.Name) else \
            child.attr if isinstance(child, ast.Attribute) else ""
        if any(word in name for word in words):
            return True
    return False


def _format_named(node: ast.Compare) -> bool:
    """``writer.name == "schem"``, ``format in ("world", "mcworld")``: a format told by name."""
    sides = [node.left, *node.comparators]
    by_name = any(isinstance(s, ast.Attribute) and s.attr == "name" or isinstance(s, ast.Name)
                  and ("format" in s.id or "writer" in s.id) for s in sides)
    return by_name and any(v in FORMATS for s in sides for v in _strings(s))


def _option_named(node: ast.AST, options: set[str]) -> str | None:
    """A lookup of an option by its name: ``"wall" in options``, ``options["seed"]``,
    ``options.get("split")``, or a list of options by name (``("terrain", "y", "mobs")``)."""
    if isinstance(node, ast.Compare) and any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops):
        if isinstance(node.left, ast.Constant) and node.left.value in options \
                and _mentions(node.comparators[0], "option"):
            return node.left.value
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) \
            and node.slice.value in options and _mentions(node.value, "option"):
        return node.slice.value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and node.func.attr == "get" and _mentions(node.func.value, "option") and node.args \
            and isinstance(node.args[0], ast.Constant) and node.args[0].value in options:
        return node.args[0].value
    if isinstance(node, (ast.Tuple, ast.Set)):
        named = [e.value for e in node.elts if isinstance(e, ast.Constant) and e.value in options]
        if len(named) >= 2 and len(named) == len(node.elts):
            return ", ".join(named)
    return None


def _findings(check) -> list[str]:
    found = []
    for path in _below_jobs():
        if not _shared(path):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            what = check(node)
            if what:
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {what}")
    return found


def test_no_format_is_named_in_shared_code():
    assert _findings(lambda n: isinstance(n, ast.Compare) and _format_named(n)
                     and ast.unparse(n)) == []


def test_no_option_is_named_below_jobs():
    options = {o.name for command in COMMANDS for o in options_of(command)}
    options |= {o.writer for command in COMMANDS for o in options_of(command) if o.writer}
    assert _findings(lambda n: _option_named(n, options)) == []


def _literal_defaults(function) -> dict[str, object]:
    """The parameters of ``function`` whose default is written as a literal, with it."""
    import inspect
    import textwrap

    source = textwrap.dedent(inspect.getsource(function))
    node = ast.parse(source).body[0]
    args = node.args
    positional = args.posonlyargs + args.args
    pairs = list(zip(positional[len(positional) - len(args.defaults):], args.defaults, strict=True))
    pairs += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None]
    return {a.arg: ast.literal_eval(d) for a, d in pairs
            if isinstance(d, (ast.Constant, ast.UnaryOp)) and not isinstance(
                getattr(d, "value", None), (bool, type(None)))}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_each_default_is_written_once(command):
    twice = []
    for option in options_of(command):
        if option.writer is None or option.default is None or isinstance(option.default, bool):
            continue
        value = option.default if option.to_writer is None else option.to_writer(option.default)
        for name in FORMATS:
            writer = writer_for(format=name)
            if option.writer in writer.options:
                literal = _literal_defaults(writer.write).get(option.writer, ...)
                if literal == value:
                    twice.append(f"--{option.flag}: {name}'s {writer.write.__name__}"
                                 f"({option.writer}={literal!r})")
    assert twice == []


def test_standard_output_is_told_in_one_module():
    where = [str(p.relative_to(PACKAGE)) for p in sorted(PACKAGE.rglob("*.py"))
             if "vendor" not in p.parts and any(
                 isinstance(n, ast.Compare) and "-" in _strings(n)
                 and _mentions(n, "output", "target")
                 for n in ast.walk(ast.parse(p.read_text(encoding="utf-8"))))]
    assert where == ["export/destination.py"]
