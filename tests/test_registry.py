"""The static registry tables agree with the modules they name, so they can never drift."""

from __future__ import annotations

import importlib
import pkgutil

import blockmaze.export as export


def test_format_table_matches_the_writers_modules():
    """Importing every module a FORMATS row names registers exactly the FORMATS rows."""
    for row in export.FORMATS.values():
        importlib.import_module(f"blockmaze.{row.module}")
    for module in pkgutil.walk_packages(export.__path__, export.__name__ + "."):
        importlib.import_module(module.name)  # no module registers a format the table lacks
    assert set(export.WRITERS.loaded) == set(export.FORMATS)
    for name, row in export.FORMATS.items():
        writer = export.WRITERS.loaded[name]
        assert writer.format is row
        assert writer.bands == (row.source == "bands") and writer.folder == row.folder, name
        assert writer.write.__module__ == f"blockmaze.{row.module}", name


def test_algorithm_table_matches_the_modules():
    """Every ALGORITHMS row's module registers exactly the carvers the table names for it."""
    from blockmaze import algorithms

    for module in pkgutil.iter_modules(algorithms.__path__):
        importlib.import_module(f"{algorithms.__name__}.{module.name}")
    assert set(algorithms._CARVERS) == set(algorithms.ALGORITHMS)
    for name, algorithm in algorithms.ALGORITHMS.items():
        assert algorithms._CARVERS[name].__module__ == f"{algorithms.__name__}.{algorithm.module}"


def test_grid_kind_table_matches_the_modules():
    from blockmaze import grids

    for module in pkgutil.iter_modules(grids.__path__):
        importlib.import_module(f"{grids.__name__}.{module.name}")
    assert set(grids.GRID_KINDS.loaded) == set(grids.KIND_MODULES)
    for kind, (module, constructor) in grids.KIND_MODULES.items():
        build = grids.GRID_KINDS.loaded[kind]
        assert (build.__module__, build.__name__) == (f"{grids.__name__}.{module}", constructor)


def test_public_names_resolve_and_never_shadow_a_module():
    """Each lazily exported name is what its module defines, and no name is also a submodule
    (importing the submodule would replace the function on the package)."""
    import blockmaze

    modules = {m.name for m in pkgutil.iter_modules(blockmaze.__path__)}
    for name, module in blockmaze._EXPORTS.items():
        assert name not in modules, name
        value = getattr(importlib.import_module(f"blockmaze.{module}"), name)
        assert getattr(blockmaze, name) is value


def test_dungeon_style_names_match_the_styles_module():
    from blockmaze import dungeon
    from blockmaze.dungeon import styles

    assert dungeon.STYLES == styles.STYLES


def test_style_names_match_their_renderers():
    from blockmaze import render
    from blockmaze.export import PICTURE_STYLES
    from blockmaze.export.pictures import STYLES as drawn
    from blockmaze.render.text import STYLES as printed

    assert render.STYLE_NAMES == tuple(printed) and PICTURE_STYLES == drawn
