"""blockmaze: mazes on many grids, turned into Minecraft schematics, meshes and tile maps.

The pipeline is Grid -> Maze -> Blocks -> file:

>>> import io, blockmaze
>>> maze = blockmaze.generate((8, 12), algorithm="backtracker", rng=7)
>>> maze.is_perfect()
True
>>> volume = blockmaze.extrude(blockmaze.to_blocks(maze, wall=1, passage=2), height=3)
>>> volume.shape   # (y, z, x): floor + 3 wall layers, 8 rows and 12 columns of cells
(4, 25, 37)
>>> blockmaze.write(volume, io.BytesIO(), format="schem")
"""

from .algorithms import ALGORITHMS, algorithm_specs
from .blocks import (extrude, fit_strict, from_blocks, plan_shape, rasterize, relaxed_plan,
                     stack_levels, strict_plan, strict_volume_3d, to_blocks, volume_height)
from .braid import braid
from .documents import MazeDocument, load_maze, save_maze
from .dungeon import Dungeon, generate_dungeon
from .endpoints import Endpoints, place_endpoints
from .errors import BadFileError, BlockmazeError, BlockmazeWarning
from .export import WRITERS, write, writer_for
from .generation import generate, make_grid
from .grids import (GRID_KINDS, Grid, hex_grid, layered_grid, polar_grid, square_grid,
                    triangle_grid, upsilon_grid)
from .grids.geometry import cell_shapes
from .masks import mask_from_image, mask_from_text, masked_grid, regions
from .materials import Material, Theme, load_theme, theme_names
from .maze import Maze
from .render import maze_text, plan_text

__version__ = "0.1.0"

__all__ = [
    "ALGORITHMS", "GRID_KINDS", "WRITERS", "BadFileError", "BlockmazeError", "BlockmazeWarning", "Endpoints", "Grid", "Material", "Maze",
    "MazeDocument", "Theme", "algorithm_specs", "braid", "extrude", "from_blocks", "generate",
    "load_maze", "load_theme", "make_grid", "maze_text", "place_endpoints", "plan_shape",
    "plan_text", "save_maze", "square_grid", "theme_names", "to_blocks", "volume_height", "write",
    "writer_for", "hex_grid", "layered_grid", "polar_grid", "triangle_grid", "upsilon_grid",
    "cell_shapes", "mask_from_image", "mask_from_text", "masked_grid", "regions",
    "fit_strict", "rasterize", "stack_levels", "relaxed_plan", "strict_plan", "strict_volume_3d", "Dungeon", "generate_dungeon",
]
