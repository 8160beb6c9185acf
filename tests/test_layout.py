"""The package's layout as the design draws it: the model first, then blocks, outputs, the
pipeline and the command; imports run that way only, and no module imports itself round a circle."""

import ast
import importlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "blockmaze"

# the model and what works on a maze: never the blocks, outputs, pipeline or command after them
MODEL = ("blockmaze.grids", "blockmaze.algorithms", "blockmaze.maze", "blockmaze.mazes",
         "blockmaze.materials", "blockmaze.errors", "blockmaze.support")
LATER = ("blockmaze.blocks", "blockmaze.blockwise", "blockmaze.dungeon", "blockmaze.export",
         "blockmaze.render", "blockmaze.readers", "blockmaze.pipeline", "blockmaze.jobs", "blockmaze.streaming",
         "blockmaze.cli", "blockmaze.web")
INPUT_READING = {"blockmaze.readers.base"}  # bounded reading of an input file: documents, masks, themes
TOP_LEVEL = {"__init__", "__main__", "cli", "cli_options", "errors", "jobs", "materials", "maze", "pipeline",
             "streaming"}


def _modules() -> dict[str, tuple[Path, list[str]]]:
    """Dotted module name -> (its file, the package its relative imports start from)."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        if "vendor" in path.parts:
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


def imports(module: str, module_level_only: bool) -> set[str]:
    """The package's modules ``module`` imports (at its top only, or anywhere in it)."""
    path, package = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = tree.body if module_level_only else ast.walk(tree)
    found = set()
    for node in nodes:
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1] + ([node.module] if node.module else [])
                source = ".".join(base)
            else:
                source = node.module or ""
            if source.split(".")[0] == "blockmaze":
                found |= {_owner(f"{source}.{alias.name}") for alias in node.names}
        elif isinstance(node, ast.Import):
            found |= {_owner(alias.name) for alias in node.names if alias.name.split(".")[0] == "blockmaze"}
    return found - {module}


def _within(module: str, prefixes) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def test_imports_are_resolved_to_modules_of_the_package():
    # relative, from a package, of a module by name, and inside a function
    assert {"blockmaze.maze", "blockmaze.algorithms", "blockmaze.support.randomness"} <= imports(
        "blockmaze.mazes.generation", True)
    assert "blockmaze.mazes.analysis" in imports("blockmaze.maze", True)
    assert "blockmaze.readers.base" in imports("blockmaze.mazes.masks", False) - imports("blockmaze.mazes.masks", True)


def test_the_model_never_imports_what_comes_after_it():
    upward = sorted(f"{module} -> {target}" for module in MODULES if _within(module, MODEL)
                    for target in imports(module, False)
                    if _within(target, LATER) and target not in INPUT_READING)
    assert upward == []


def test_module_level_imports_form_no_circle():
    graph = {module: imports(module, True) for module in MODULES}
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    circles = []

    def visit(module, path):
        state[module] = 1
        for target in sorted(graph.get(module, ())):
            if state.get(target) == 1:
                circles.append(" -> ".join(path[path.index(target):] + [target]))
            elif target not in state:
                visit(target, path + [target])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert circles == []


def test_the_top_level_holds_only_the_model_and_the_pipeline():
    assert {path.stem for path in PACKAGE.glob("*.py")} == TOP_LEVEL


@pytest.mark.parametrize("module, old, new", [
    ("blockmaze.export", "volume_bands", "volume_slices"),
    ("blockmaze.render", "maze_text", "square_text"),
    ("blockmaze.render.text", "maze_text", "square_text"),
    ("blockmaze.dungeon.rooms_and_mazes", "generate_dungeon", "rooms_and_mazes_dungeon"),
    ("blockmaze.blocks", "strict_plan", None),
])
def test_renamed_public_names_warn_and_forward(module, old, new):
    imported = importlib.import_module(module)
    with pytest.warns(DeprecationWarning, match=old):
        value = getattr(imported, old)
    assert value is (getattr(imported, new) if new else getattr(importlib.import_module("blockmaze.blockwise"), old))
