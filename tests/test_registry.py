"""The static registry tables agree with the modules they name, so they can never drift."""

from __future__ import annotations

import importlib
import pkgutil

import blockmaze.export as export


def test_format_table_matches_the_writers_modules():
    """Importing every module under export/ registers exactly the FORMATS rows, field for field."""
    for module in pkgutil.walk_packages(export.__path__, export.__name__ + "."):
        importlib.import_module(module.name)
    assert set(export.WRITERS.loaded) == set(export.FORMATS)
    for name, row in export.FORMATS.items():
        writer = export.WRITERS.loaded[name]
        assert (writer.name, writer.suffixes, writer.summary) == (row.name, row.suffixes, row.summary)
        assert writer.plan == (row.source == "plan"), name
        assert writer.bands == (row.source == "bands"), name
        assert writer.folder == row.folder, name
        assert writer.write.__module__ == f"{export.__name__}.{row.module}", name
