"""numpy ``.npz`` arrays for python-tcod (field of view, path finding) and other numpy games.

Arrays in the archive (``np.load(path)``, no pickles):

* ``material`` — uint8 materials (tile id = material value, see :mod:`blockmaze.export.tiles`);
* ``walkable``, ``transparent`` — bool, as the tile table says (a door is walkable, not
  transparent);
* ``start``, ``goal`` — int64 ``(n, 2)``: the index of every START / GOAL tile, in the arrays'
  own index order, so ``walkable[tuple(start[0])]`` is the start tile;
* ``order`` — ``"C"`` or ``"F"``, and ``axes`` — ``"y,x"`` or ``"x,y"``: how the arrays are
  indexed; ``materials`` — the material names, ``materials[m]`` naming material ``m``.

With ``entities`` (a dungeon level's, see :func:`tiles.entities`) three more arrays list every
entity: ``entity_kind`` (``start``, ``goal``, ``door``, ``stairs-up``, ``stairs-down``, ``key``,
``door-locked`` (the door the ``key`` opens), ``monster``, ``item``, ``treasure``),
``entity_position`` (int64 ``(n, 2)``, indexed like ``start``) and ``entity_level`` (the level
stairs lead to, 1-based; -1 for other entities).

``order="C"`` (default): arrays are ``[y, x]`` = ``[row, column]`` (row 0 north), the order of
python-tcod's ``tcod.path`` / ``tcod.map.compute_fov`` and of consoles with ``order="C"``.
``order="F"``: arrays are ``[x, y]`` (shape ``(width, height)``, Fortran-contiguous), the order of
the classic libtcod API and the python-tcod tutorial's ``GameMap.tiles[x, y]``; pass ``order="F"``
to tcod functions that take it. The zip members carry a fixed date, so the same plan gives the
same bytes.
"""

from __future__ import annotations

import io
import zipfile
from typing import BinaryIO

import numpy as np

from ...errors import BlockmazeError
from ...materials import Material, Theme
from .. import register_writer
from ..zipped import zip_entry
from ..minecraft.blockdata import checked_theme  # (its states exist in some release)
from .tiles import TRANSPARENT, WALKABLE, check_plan_size, entities as map_entities, map_plan

ORDERS = {"C": "y,x", "F": "x,y"}
ZIP_LEVEL = 4  # deflate level: on maze plans 6 and up take 5-10 times longer for 10 % less


def write_npz(
    blocks: np.ndarray,
    file: BinaryIO,
    theme: Theme,
    order: str = "C",
    compressed: bool = True,
    entities=None,
) -> None:
    """Write a one-layer (1, z, x) plan as numpy arrays for python-tcod (see the module notes).

    Example
    -------
    >>> import io
    >>> from blockmaze.materials import load_theme
    >>> out = io.BytesIO()
    >>> write_npz(np.array([[[1, 1, 1], [5, 0, 6]]], np.uint8), out, load_theme())
    >>> arrays = np.load(io.BytesIO(out.getvalue()))
    >>> arrays["walkable"].tolist(), str(arrays["axes"]), arrays["start"].tolist()
    ([[False, False, False], [True, True, True]], 'y,x', [[1, 0]])
    """
    if order not in ORDERS:
        raise BlockmazeError(f"order must be 'C' ([y, x] indexing) or 'F' ([x, y] indexing), got {order!r}")
    plan = map_plan(blocks, ".npz", 8)
    view = plan if order == "C" else np.asfortranarray(plan.T)
    arrays = {
        "material": view,
        "walkable": WALKABLE[view],
        "transparent": TRANSPARENT[view],
        "start": np.argwhere(view == Material.START).astype(np.int64).reshape(-1, 2),
        "goal": np.argwhere(view == Material.GOAL).astype(np.int64).reshape(-1, 2),
        "order": np.array(order),
        "axes": np.array(ORDERS[order]),
        "materials": np.array([m.name.lower() for m in Material]),
    }
    if entities is not None:
        arrays.update(_entity_arrays(plan, entities, order))
    if order == "F":  # table lookups come out C-ordered: store them laid out like `material`
        for name in ("walkable", "transparent"):
            arrays[name] = np.asfortranarray(arrays[name])
    with zipfile.ZipFile(file, "w") as archive:  # one array in memory as .npy at a time
        for name, array in arrays.items():
            data = io.BytesIO()
            np.lib.format.write_array(data, array, allow_pickle=False)
            archive.writestr(zip_entry(f"{name}.npy", stored=not compressed), data.getbuffer(),
                             compresslevel=ZIP_LEVEL)


def _entity_arrays(plan: np.ndarray, extra, order: str) -> dict:
    """``entity_kind``, ``entity_position`` and ``entity_level`` of every entity (see the notes)."""
    found = map_entities(plan, extra)
    kinds = [kind + ("-" + p["direction"] if kind == "stairs" and "direction" in p
                     else "-locked" if kind == "door" and p.get("locked") else "")
             for kind, _, _, p in found]
    positions = [(y, x) if order == "C" else (x, y) for _, x, y, _ in found]
    return {
        "entity_kind": np.array(kinds, dtype="<U16"),
        "entity_position": np.array(positions, dtype=np.int64).reshape(-1, 2),
        "entity_level": np.array([p.get("level", -1) if k == "stairs" else -1
                                  for k, _, _, p in found], dtype=np.int64),
    }


def check_size(shape: tuple[int, int, int]) -> None:
    """Refuse anything but a one-layer plan, before any work is done.

    >>> check_size((1, 0, 0))
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: a tcod .npz cannot draw an empty plan (0x0 tiles)
    """
    check_plan_size(shape, "a tcod .npz")


register_writer("npz", write_npz, check_size, prepare_theme=checked_theme)
