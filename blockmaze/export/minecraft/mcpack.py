"""Bedrock ``.mcpack``: a behaviour pack a player opens with a tap, holding the maze.

A zip (facts and sources in ``docs/voxels.md``, Bedrock section) of:

* ``manifest.json``: ``format_version`` 2, a ``header`` (name, description, uuid, version,
  ``min_engine_version`` 1.21.90, the first release that reads our ``.mcstructure`` block names)
  and one ``data`` module (a behaviour pack) with a uuid of its own;
* ``structures/blockmaze/maze.mcstructure``: the maze (:mod:`.bedrock`), which the game knows as
  ``blockmaze:maze``, zipped from its parts without a copy: the all ``-1`` water-logging layer,
  half its bytes, is deflated once and repeated (:class:`~blockmaze.export.zipped.Repeat`);
* ``functions/blockmaze/build.mcfunction``: ``tp @s ~ ~ ~ <yaw> 0`` (turning the player to face
  in) and ``structure load blockmaze:maze ~dx ~dy ~dz``, so ``/function blockmaze/build`` places
  the maze with the player outside its entrance, facing in (see :mod:`.placement`).

The uuids are drawn from the seed, the blocks and the theme (one seed and maze, the same pack;
another maze, another pack, so the game never takes a new maze for an old pack), written as
version-4 uuids, the form the game's manifest documentation and schemas expect. The schema this
manifest follows is ``schemas/mcpack-manifest.schema.json``.

Example
-------
>>> import io, zipfile
>>> from blockmaze.materials import load_theme
>>> out = io.BytesIO()
>>> write_mcpack(np.ones((1, 2, 3), np.uint8), out, load_theme(), seed=1)
>>> sorted(zipfile.ZipFile(out).namelist())
['functions/blockmaze/build.mcfunction', 'manifest.json', 'structures/blockmaze/maze.mcstructure']
"""

from __future__ import annotations

from functools import partial
import hashlib
import json
import uuid
from typing import BinaryIO

import numpy as np

from ...materials import Theme
from .. import register_writer
from .blockdata import checked_theme
from ..zipped import write_zip
from .bedrock import check_size, mcstructure_parts
from .placement import YAW, placement_hint, player_spot

MIN_ENGINE_VERSION = [1, 21, 90]
NAME = "maze"  # blockmaze:maze, in structures/blockmaze/maze.mcstructure


def pack_uuid(seed: int | None, digest: str, role: str) -> str:
    """A version-4-form uuid drawn from the seed, the maze's digest and the uuid's role.

    >>> pack_uuid(1, "ab", "header") == pack_uuid(1, "ab", "header") != pack_uuid(1, "ab", "module")
    True
    >>> pack_uuid(1, "ab", "header")[14]
    '4'
    """
    data = hashlib.sha256(f"blockmaze mcpack {seed} {digest} {role}".encode()).digest()[:16]
    return str(uuid.UUID(bytes=data, version=4))


def maze_digest(blocks: np.ndarray, theme: Theme) -> str:
    """A digest of what the pack places: the blocks (shape included) and the theme's states.

    >>> from blockmaze.materials import load_theme
    >>> theme = load_theme()
    >>> maze_digest(np.ones((1, 1, 2), np.uint8), theme) != maze_digest(np.ones((1, 2, 1), np.uint8), theme)
    True
    """
    digest = hashlib.sha256(repr((blocks.shape, theme.name, sorted(theme.minecraft.items()),
                                  sorted(theme.variants.items()))).encode())
    digest.update(np.ascontiguousarray(blocks).data)
    return digest.hexdigest()


def manifest(seed: int | None, digest: str, size: tuple[int, int, int]) -> dict:
    """The pack's ``manifest.json`` as a dict (see the module docstring)."""
    width, height, length = size
    name = f"blockmaze maze {width}x{length}" + (f" (seed {seed})" if seed is not None else "")
    return {
        "format_version": 2,
        "header": {
            "name": name,
            "description": f"A {width}x{height}x{length}-block maze; run /function blockmaze/build "
                           "to place it in front of you (cheats on).",
            "uuid": pack_uuid(seed, digest, "header"),
            "version": [1, 0, 0],
            "min_engine_version": MIN_ENGINE_VERSION,
        },
        "modules": [{"type": "data", "uuid": pack_uuid(seed, digest, "data"), "version": [1, 0, 0]}],
    }


def write_mcpack(blocks: np.ndarray, file: BinaryIO, theme: Theme, seed: int | None = None) -> None:
    """Write a (y, z, x) volume as a Bedrock behaviour pack (see the module docstring).

    ``seed`` draws the theme's weighted variants and the pack's uuids.
    """
    check_size(blocks.shape)
    structure = mcstructure_parts(blocks, theme, seed)
    spot = player_spot(blocks)
    dx, dy, dz = spot.offset
    height, length, width = blocks.shape
    document = manifest(seed, maze_digest(blocks, theme), (width, height, length))
    function = (f"# blockmaze: turns you {spot.facing} to face the maze's entrance, then places it\n"
                f"tp @s ~ ~ ~ {YAW[spot.facing]} 0\n"
                f"structure load blockmaze:{NAME} ~{dx} ~{dy} ~{dz}\n")
    write_zip(file, {
        "manifest.json": (json.dumps(document, indent=2) + "\n").encode("utf-8"),
        f"structures/blockmaze/{NAME}.mcstructure": structure,
        "functions/blockmaze/build.mcfunction": function.encode("utf-8"),
    }, level=1)  # the structure is 8 bytes a block, mostly runs: the fastest level packs it 20x


register_writer("mcpack", write_mcpack, check_size,
                prepare_theme=checked_theme, hint=partial(placement_hint, format_name="mcpack"))
