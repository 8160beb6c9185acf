"""The defaults the writers and the commands' descriptions share, each written once here: a
writer's keyword default and the option that sets it name the same constant (a test reads the
code to hold it). Importing this module imports nothing else, so the command's start stays fast.

>>> CHUNK, Y, TIME
(128, -60, 6000)
"""

SCHEM_VERSION = 2  # Sponge schematic v2 loads everywhere; v3 is WorldEdit 7.3's own
TERRAIN = "grass"  # a world's ground around and under the maze
Y = -60  # a world's maze stands on a classic superflat surface (grass at y = -61)
TIME = 6000  # a world's fixed time of day, in ticks: noon
CHUNK = 128  # a glTF node per chunk of this many blocks a side and material
TILE_ENCODING = "csv"  # Tiled layer data
PICTURE_STYLE = "walls"  # a picture's lines are the maze's walls
CELL_SIZE = 16  # a picture's pixels per cell
PAGE = "A4"  # a PDF's page
BED = (220.0, 220.0)  # a print bed in mm: a common one (the Creality Ender-3's; docs/meshes.md)
