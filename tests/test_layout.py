"""The package's floors as the design draws them: every import of the package's modules, at a
module's top, inside a function or under ``if TYPE_CHECKING``, runs down the table of FLOORS (or
across one floor), and the imports form no circle. There are no exemptions.

Imports made only for type checking count too, in both checks: they never run, so they cannot
close a circle while the package loads, but a module that names another's types depends on it all
the same (moving either breaks it), and today none of them goes up or round."""

import ast

from pathlib import Path


PACKAGE = Path(__file__).resolve().parents[1] / "blockmaze"

# The floors, from the ground up (docs/architecture.md draws the same list). A module may import
# any module on a floor below its own, and one on its own floor where no circle arises; never one
# above. An entry is a module, or a package with everything in it; "blockmaze" is only the
# package's own __init__ (its version, and the public names, each imported from its module on
# first use: an import of one of those names counts as an import of the module it comes from).
FLOORS = (
    ("blockmaze", "blockmaze.support", "blockmaze.errors", "blockmaze.materials"),
    ("blockmaze.grids",),
    ("blockmaze.maze", "blockmaze.analysis", "blockmaze.solvers", "blockmaze.solver_methods",
     "blockmaze.entities"),  # the model
    ("blockmaze.algorithms",),
    ("blockmaze.mazes",),
    ("blockmaze.dungeon", "blockmaze.blocks", "blockmaze.blockwise"),
    ("blockmaze.export", "blockmaze.readers", "blockmaze.render"),
    ("blockmaze.pipeline", "blockmaze.streaming"),
    ("blockmaze.writing",),
    ("blockmaze.jobs", "blockmaze.commands", "blockmaze.applies", "blockmaze.replay",
     "blockmaze.forms", "blockmaze.book", "blockmaze.batches", "blockmaze.gym"),
    ("blockmaze.cli", "blockmaze.cli_options", "blockmaze.web", "blockmaze.hosts"),
    ("blockmaze.__main__",),
)
TOP_LEVEL = {"__init__", "__main__", "analysis", "applies", "batches", "book", "cli", "cli_options", "commands",
             "entities", "errors", "forms", "gym", "jobs", "materials", "maze", "pipeline", "replay", "solver_methods", "solvers", "streaming",
             "writing"}


def _modules() -> dict[str, tuple[Path, list[str]]]:
    """Dotted module name -> (its file, the package its relative imports start from)."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        if "vendor" in path.parts or "payload" in path.parts:  # (code run by other programs)
            continue
        parts = ["blockmaze", *path.relative_to(PACKAGE).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts = parts[:-1]
            found[".".join(parts)] = (path, parts)
        else:
            found[".".join(parts)] = (path, parts[:-1])
    return found


MODULES = _modules()


def _owner(name: str) -> str:
    """The module ``name`` is, or the one it is an attribute of."""
    while name not in MODULES and "." in name:
        name = name.rsplit(".", 1)[0]
    return name


def _lazy_exports(package: str) -> dict[str, str]:
    """A package's ``_EXPORTS`` table (public name -> the module, relative to the package, that
    defines it), or {}."""
    path, _ = MODULES[package]
    if path.name != "__init__.py":
        return {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "_EXPORTS" for t in node.targets):
            return ast.literal_eval(node.value)
    return {}


def _source_of(module: str, name: str) -> str:
    """The module ``from module import name`` takes ``name`` from: the submodule of that name, the
    module a package's lazy exports import it from, or ``module`` itself."""
    if f"{module}.{name}" in MODULES:
        return f"{module}.{name}"
    table = _lazy_exports(module)
    if name in table:
        return _source_of(_owner(f"{module}.{table[name]}"), name)
    return module


def imports(module: str, source: str | None = None) -> set[str]:
    """The package's modules ``module`` imports anywhere in it: at its top, inside functions and
    under ``if TYPE_CHECKING`` (``source``: its text, read from its file if None)."""
    path, package = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8") if source is None else source)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1] + ([node.module] if node.module else [])
                origin = ".".join(base)
            else:
                origin = node.module or ""
            if origin.split(".")[0] == "blockmaze":
                found |= {_source_of(_owner(origin), alias.name) if _owner(origin) == origin
                          else _owner(f"{origin}.{alias.name}") for alias in node.names}
        elif isinstance(node, ast.Import):
            found |= {_owner(alias.name) for alias in node.names if alias.name.split(".")[0] == "blockmaze"}
    return found - {module}


def _entries(module: str) -> list[tuple[int, str]]:
    """(floor, entry) of each entry of FLOORS that ``module`` falls under."""
    return [(index, entry) for index, entries in enumerate(FLOORS) for entry in entries
            if module == entry or (entry != "blockmaze" and module.startswith(entry + "."))]


def floor(module: str) -> int:
    """The index in FLOORS of the entry ``module`` falls under."""
    found = _entries(module)
    if not found:
        raise KeyError(f"{module} is on no floor: add it to FLOORS")
    return found[0][0]


def upward(graph: dict[str, set[str]]) -> list[str]:
    """Every import in ``graph`` (module -> the modules it imports) that runs up the floors."""
    return sorted(f"{module} -> {target}" for module, targets in graph.items() for target in targets
                  if floor(target) > floor(module))


def circles(graph: dict[str, set[str]]) -> list[str]:
    """A circle through each import in ``graph`` that closes one (none where the imports form no
    circle)."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    found = []

    def visit(module, path):
        state[module] = 1
        for target in sorted(graph.get(module, ())):
            if state.get(target) == 1:
                found.append(" -> ".join(path[path.index(target):] + [target]))
            elif target not in state:
                visit(target, path + [target])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    return found


GRAPH = {module: imports(module) for module in MODULES}


def test_imports_are_resolved_to_modules_of_the_package():
    # relative, from a package, of a module by name, and inside a function
    assert {"blockmaze.maze", "blockmaze.algorithms", "blockmaze.support.randomness"} <= GRAPH[
        "blockmaze.mazes.generation"]
    assert "blockmaze.analysis" in GRAPH["blockmaze.maze"]
    assert "blockmaze.support.files" in GRAPH["blockmaze.mazes.masks"]
    # a name of a package's lazy exports: the module it comes from
    assert "blockmaze.dungeon.stack" in GRAPH["blockmaze.writing"]
    assert "blockmaze.pipeline" in imports("blockmaze.mazes.masks", "from blockmaze import build\n")


def test_every_module_is_on_one_floor():
    assert [module for module in sorted(MODULES) if len(_entries(module)) != 1] == []
    entries = [entry for entries in FLOORS for entry in entries]
    assert len(entries) == len(set(entries)) and set(entries) <= set(MODULES)


def test_imports_only_run_down_the_floors():
    assert upward(GRAPH) == []


def test_imports_form_no_circle():
    assert circles(GRAPH) == []


def test_the_checks_catch_an_upward_import_and_a_circle():
    source = MODULES["blockmaze.mazes.masks"][0].read_text(encoding="utf-8")
    added = source + "\n\ndef _late():\n    from ..pipeline import build\n    return build\n"
    graph = dict(GRAPH, **{"blockmaze.mazes.masks": imports("blockmaze.mazes.masks", added)})
    assert set(upward(graph)) - set(upward(GRAPH)) == {"blockmaze.mazes.masks -> blockmaze.pipeline"}
    # across one floor is allowed, round a circle is not
    across = dict(GRAPH, **{"blockmaze.grids.base": GRAPH["blockmaze.grids.base"] | {"blockmaze.grids.hex"}})
    assert upward(across) == upward(GRAPH)
    closed = set(circles(across)) - set(circles(GRAPH))
    assert closed and all("blockmaze.grids.base -> blockmaze.grids.hex" in circle for circle in closed)


def test_the_top_level_holds_only_the_model_and_the_pipeline():
    assert {path.stem for path in PACKAGE.glob("*.py")} == TOP_LEVEL
