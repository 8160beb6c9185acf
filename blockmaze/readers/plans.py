"""The block plan of a Minecraft, voxel, tile-map or mesh file blockmaze wrote: which blocks of its
walking layer a walker can enter, and its start and goal blocks where the file marks them.

A tile map (.tmx, .tmj, .ldtk, .tilemap.json, .npz) is a plan already: each tile a material
(Tiled's GID and LDtk's IntGrid value are the material + 1, the blockmaze tile map's legend
and the tcod arrays name it), open where the material does not stop a walker (not a wall,
floor or roof). A volume (.schem, .litematic, structure .nbt, .vox) is read whole, in bounded
memory, as ``(y, z, x)`` blocks: its walking layer is the lowest layer holding an open block
(the one above the floor, or the bottom one when the maze was written without a floor), and a
column is open where that layer's block is air (``air``, ``cave_air``, ``void_air``, a
structure void or, in a .vox, no voxel) or a door. The floor under the walking layer marks
start and goal where it holds their material (a .vox's colour index) or, in a Minecraft file,
the default theme's start and goal blocks. A binary .stl or .ply or an .obj is read as the solid blocks
its surface bounds (:mod:`blockmaze.readers.meshplan`), then as a volume (no start or goal
marked). Other meshes, pictures and worlds are refused in one line.

Example
-------
>>> import os, tempfile, blockmaze as bm
>>> path = os.path.join(tempfile.mkdtemp(), "m.schem")
>>> _ = bm.save(bm.generate((2, 3), rng=1), path, solution=True)
>>> plan = file_plan(path)
>>> plan.open.astype(int).tolist()[:3], plan.start is not None
([[0, 0, 0, 0, 0, 0, 0], [0, 1, 1, 1, 1, 1, 0], [0, 0, 0, 1, 0, 1, 0]], True)
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import BadFileError, printable
from ..materials import Material
from .base import load_json, need, read_whole

MAX_PLAN_BLOCKS = 1 << 23  # blocks of a volume read whole (8,388,608: a 1,000 x 1,000 maze's
# 2,001 x 2,001 plan on a floor, three high, is more and refused; a 500 x 500 one is read)
MAX_LISTED_BLOCKS = 1 << 19  # a structure file lists its blocks one Compound each
_AIR = ("air", "cave_air", "void_air", "structure_void")
_VOLUMES = (".schem", ".litematic", ".nbt", ".vox")
_TILE_MAPS = (".tmx", ".tmj", ".ldtk", ".tilemap.json", ".npz")
_MESHES = (".stl", ".ply", ".obj", ".glb", ".gltf")
SUFFIXES = _VOLUMES + _TILE_MAPS + _MESHES


@dataclass(frozen=True)
class BlockPlan:
    """A ``(z, x)`` walkable plan (True: a walker may enter) and its start and goal blocks
    (flat indices into it, or None where the file does not mark exactly one of each)."""

    open: np.ndarray
    start: int | None = None
    goal: int | None = None


def file_plan(path: str | Path) -> BlockPlan:
    """The block plan of the file at ``path`` (see the module docstring); BadFileError for a
    file this reads none from, naming what it reads."""
    from .nbtread import inflate_limit

    path = Path(path)
    name = path.name.lower()
    suffix = next((s for s in SUFFIXES if name.endswith(s)), None)
    if suffix is None:
        raise BadFileError(printable(
            f"{path.name}: --analysis reads the floor plan of {', '.join(SUFFIXES)} files (and "
            "the maze of a .json maze document or a .txt text map); another mesh's, a picture's, "
            "a world's or another format's blocks are not read back as a plan"))
    data = _read(path, inflate_limit())
    try:
        return _plan(data, path.name, suffix)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, OverflowError) as error:
        raise BadFileError(printable(f"{path.name}: malformed, its plan not read back "
                                     f"({type(error).__name__}: {error})")) from None


def _plan(data: bytes, name: str, suffix: str) -> BlockPlan:
    """The block plan of a file's bytes (``name`` for messages), by its ``suffix``."""
    from .nbtread import inflate_limit
    from .prefab import read_states
    from .voxels import vox_volume

    if suffix == ".vox":
        materials = vox_volume(io.BytesIO(data), MAX_PLAN_BLOCKS)
        open_ = (materials == Material.AIR) | (materials == Material.DOOR)
        return volume_plan(open_, materials == Material.START, materials == Material.GOAL)
    if suffix in _MESHES:
        from .meshplan import mesh_solid, mesh_triangles

        solid = mesh_solid(mesh_triangles(data, suffix), MAX_PLAN_BLOCKS)
        return volume_plan(~solid, np.zeros_like(solid), np.zeros_like(solid))
    if suffix in _VOLUMES:
        listed = suffix == ".nbt"
        states, palette = read_states(data, name, "a maze", MAX_LISTED_BLOCKS if listed else MAX_PLAN_BLOCKS,
                                      inflate_limit())
        kinds = [_open_state(state) for state in palette]
        start, goal = (np.array([state == _default_block(m) for state in palette])
                       for m in (Material.START, Material.GOAL))
        return volume_plan(np.array(kinds, bool)[states], start[states], goal[states])
    return material_plan(_tile_materials(data, suffix))


def _read(path: Path, limit: int) -> bytes:
    from ..support.files import read_regular

    return read_regular(path, "a maze", limit)


def _solid(materials: np.ndarray) -> np.ndarray:
    from ..materials import SOLID

    return SOLID[materials]


def _open_state(state: str) -> bool:
    """Whether a block state lets a walker in: air, or a door.

    >>> [_open_state(s) for s in ("minecraft:air", "minecraft:spruce_door[half=lower]", "stone")]
    [True, True, False]
    """
    base = state.split("[", 1)[0].split(":")[-1]
    return base in _AIR or base.endswith("_door")


def _default_block(material: Material) -> str:
    from ..materials import load_theme

    return load_theme().minecraft[material]


def volume_plan(open_: np.ndarray, start: np.ndarray, goal: np.ndarray) -> BlockPlan:
    """The plan of a ``(y, z, x)`` volume: its walking layer (the lowest holding an open block)
    and the start and goal the layer below marks (``start``, ``goal``: where their blocks are).

    >>> layers = np.array([[[0, 0, 0]], [[0, 1, 0]], [[0, 1, 1]]], bool)
    >>> volume_plan(layers, np.zeros_like(layers), np.zeros_like(layers)).open.tolist()
    [[False, True, False]]
    """
    holds = np.flatnonzero(open_.reshape(len(open_), -1).any(axis=1))
    if holds.size == 0:
        raise BadFileError("no open block on any layer: not a maze's blocks")
    layer = int(holds[0])
    below = max(layer - 1, 0)
    return BlockPlan(open_[layer], *(_single(marks[below] & open_[layer]) for marks in (start, goal)))


def material_plan(materials: np.ndarray) -> BlockPlan:
    """The plan of a ``(z, x)`` array of materials: open where they let a walker in.

    >>> material_plan(np.array([[1, 5, 0, 6, 1]], np.uint8))
    BlockPlan(open=array([[False,  True,  True,  True, False]]), start=1, goal=3)
    """
    return BlockPlan(~_solid(materials), _single(materials == Material.START),
                     _single(materials == Material.GOAL))


def _single(marks: np.ndarray) -> int | None:
    found = np.flatnonzero(marks)
    return int(found[0]) if found.size == 1 else None


def _tile_materials(data: bytes, suffix: str) -> np.ndarray:
    """The ``(z, x)`` materials of a tile map's bytes."""
    from . import tilemaps

    if suffix == ".npz":
        kept = tilemaps.npz_materials(io.BytesIO(data), keep=True)[3]
        return np.asarray(kept)
    if suffix == ".tmx":
        width, height, gids = tilemaps.tmx_gids(read_whole(io.BytesIO(data), "a TMX map"))
        return _materials(np.asarray(gids, np.int64) - tilemaps.FIRST_GID, width, height)
    document = load_json(read_whole(io.BytesIO(data), "a tile map"), "a tile map")
    if suffix == ".tmj":
        width, height, gids = tilemaps.tmj_gids(document)
        return _materials(np.asarray(gids, np.int64) - tilemaps.FIRST_GID, width, height)
    if suffix == ".ldtk":
        _, width, height, cells = tilemaps.ldtk_grid(document)
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in cells):
            raise BadFileError("intGridCsv must hold whole numbers")
        return _materials(np.array(cells, np.int64) - 1, width, height)
    width, height = need(document, "width", int), need(document, "height", int)
    grid, legend = need(document, "grid", list), need(document, "legend", dict)
    if len(grid) != height or not all(isinstance(row, str) and len(row) == width for row in grid):
        raise BadFileError(f"grid must be {height} strings of {width} glyphs")
    values = {}
    for glyph, entry in legend.items():
        names = need(entry, "materials", list, f"legend[{glyph!r}].")
        try:
            values[glyph] = Material[str(names[0]).upper()].value if names else Material.AIR.value
        except KeyError:
            raise BadFileError(printable(f"legend[{glyph!r}] names {names[0]!r}, not a material")) from None
    if not all(glyph in values for row in grid for glyph in row):
        raise BadFileError("a glyph on the grid is not in the legend")
    return np.array([[values[glyph] for glyph in row] for row in grid], np.uint8).reshape(height, width)


def _materials(values: np.ndarray, width: int, height: int) -> np.ndarray:
    if values.size != width * height or width < 1:
        raise BadFileError(f"{values.size} tiles for a {width}x{height} map")
    if values.size and (values.min() < 0 or values.max() > 255):
        raise BadFileError("a tile outside the materials (a GID of 0 is no tile; blockmaze writes a tile everywhere)")
    return values.astype(np.uint8).reshape(height, width)


__all__ = ["MAX_PLAN_BLOCKS", "SUFFIXES", "BlockPlan", "file_plan", "material_plan", "volume_plan"]
