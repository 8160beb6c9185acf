"""Import on first use: the two shapes of laziness that keep ``import blockmaze`` fast.

- :func:`exports`: a package's public names, each imported from its module when first asked for.
- :class:`Registry`: name -> entry for a static table of names, importing the module that
  registers an entry (into ``loaded``) the first time the name is looked up.

>>> from blockmaze.grids import GRID_KINDS   # a Registry
>>> "hex" in GRID_KINDS, GRID_KINDS["hex"].__name__
(True, 'hex_grid')
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Generic, TypeVar

Entry = TypeVar("Entry")


def exports(package: str, names: dict[str, str], namespace: dict) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``: ``names`` maps each public name to the module
    (relative to the package) that defines it; a name once imported is kept in ``namespace``."""

    def __getattr__(name: str):
        module = names.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{module}", package), name)
        namespace[name] = value  # later look-ups skip this function
        return value

    return __getattr__


class Registry(Mapping[str, Entry], Generic[Entry]):
    """Name -> entry; ``modules`` maps each name to the module that registers it into ``loaded``.

    Iterating, ``len`` and ``in`` need no import; looking a name up imports its module once.
    """

    def __init__(self, modules: Mapping[str, str]):
        self.modules = modules
        self.loaded: dict[str, Entry] = {}

    def __getitem__(self, name: str) -> Entry:
        if name not in self.loaded:
            if name not in self.modules:
                raise KeyError(name)
            importlib.import_module(self.modules[name])
        return self.loaded[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.modules)

    def __len__(self) -> int:
        return len(self.modules)
