"""blockmaze: mazes on many grids, turned into Minecraft builds, meshes and tile maps.

The pipeline is Grid -> Maze -> Blocks -> file; :func:`build` and :func:`save` do each whole job
in one call, exactly as the ``blockmaze`` command does:

>>> import io, blockmaze
>>> maze = blockmaze.generate((8, 12), algorithm="backtracker", rng=7)
>>> maze.is_perfect()
True
>>> volume = blockmaze.build(maze, passage=2, height=3)
>>> volume.shape   # (y, z, x): floor + 3 wall layers, 8 rows and 12 columns of cells
(4, 25, 37)
>>> blockmaze.write(volume, io.BytesIO(), format="schem")

Names are imported on first use, so ``import blockmaze`` (and the command's ``--help``) stays
fast and loads numba only when a job is big enough to need it.
"""

from __future__ import annotations

import _signal  # first of all, before any other import: the stop signals held (support/stops.py)

_held = _signal.pthread_sigmask(_signal.SIG_BLOCK, {_signal.SIGINT, _signal.SIGTERM, _signal.SIGHUP}) \
    if hasattr(_signal, "pthread_sigmask") else None

from .support.stops import keep_held_if_command  # noqa: E402

keep_held_if_command(_held)  # the command's to answer; a program importing blockmaze: as it was

from .support.lazy import exports  # noqa: E402

__version__ = "0.2.0"

# public name -> the module (relative to this package) that defines it
_EXPORTS = {
    "ALGORITHMS": "algorithms", "algorithm_specs": "algorithms",
    "extrude": "blocks", "fit_strict": "blockwise", "from_blocks": "blocks", "plan_shape": "blocks",
    "rasterize": "blocks", "relaxed_plan": "blockwise", "stack_levels": "blocks",
    "strict_plan": "blockwise", "strict_volume_3d": "blockwise", "to_blocks": "blocks",
    "volume_height": "blocks",
    "braid": "mazes.braiding",
    "labyrinth": "mazes.labyrinths", "unicursal": "blocks.unicursal",
    "MazeDocument": "mazes.documents", "load_maze": "mazes.documents",
    "save_maze": "export.maze_document",
    "Dungeon": "dungeon", "generate_dungeon": "dungeon",
    "Endpoints": "mazes.endpoints", "place_endpoints": "mazes.endpoints",
    "BadFileError": "errors", "BlockmazeError": "errors", "BlockmazeWarning": "errors",
    "FORMATS": "export", "WRITERS": "export", "write": "export", "writer_for": "export",
    "generate": "mazes.generation", "make_grid": "mazes.generation",
    "GRID_KINDS": "grids", "Grid": "grids", "hex_grid": "grids", "layered_grid": "grids",
    "polar_grid": "grids", "square_grid": "grids", "triangle_grid": "grids",
    "upsilon_grid": "grids", "cylinder_grid": "grids", "torus_grid": "grids",
    "moebius_grid": "grids", "cube_grid": "grids", "sphere_grid": "grids",
    "cell_shapes": "grids.geometry",
    "mask_from_image": "mazes.masks", "mask_from_text": "mazes.masks", "masked_grid": "mazes.masks",
    "regions": "mazes.masks",
    "Material": "materials", "Theme": "materials", "load_theme": "materials",
    "theme_names": "materials",
    "Maze": "maze",
    "analyze": "pipeline", "build": "pipeline", "maze_text": "pipeline", "save": "writing",
    "solve": "solvers", "Solution": "solvers",
    "batch": "batches",
    "to_trimesh": "export.meshes.scene",
    "plan_text": "render", "square_text": "render",
}

__all__ = sorted(_EXPORTS)
__getattr__ = exports(__name__, _EXPORTS, globals())


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
