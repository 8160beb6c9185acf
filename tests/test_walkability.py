"""A player's view of the builds, read back from the written files (tests/walkability.py).

For a 3-level layered maze, a 3-D blockwise maze and a 3-level dungeon, in every shipped theme,
written as .schem and read back by the independent checker: start and goal (and both ends of
every shaft) lie in one walking region, the walls between unlinked cells stop the player, and no
block would fall or pop off.
"""

import io

import numpy as np
import pytest

import blockmaze as bm
from blockmaze.blocks.stack import shaft_columns, stack_levels
from blockmaze.blocks.lights import block_light, place_lights
from blockmaze.blockwise.strict import strict_volume_layout
from blockmaze.dungeon import generate_dungeon, stack_dungeon
from blockmaze.grids import layered_grid
from blockmaze.materials import Material, theme_names
from schem_checker import read_schem
from walkability import classify, region_of, regions, unsupported

HEIGHT = 3
LAYERS = HEIGHT + 1


def schem_states(volume, theme, seed=1):
    """The volume written as .schem and read back: block-state strings (y, z, x)."""
    out = io.BytesIO()
    bm.write(volume, out, format="schem", theme=bm.load_theme(theme), seed=seed)
    return read_schem(out.getvalue()).blocks


def layered_case(seed=5, levels=3, passage=2, **options):
    """A layered maze, its endpoints and its volume: passages 2 wide (spiral stairs, the default
    of the CLI and the API for layered mazes) or 1 (shafts)."""
    maze = bm.generate(layered_grid(levels, 4, 5), rng=seed)
    ends = bm.place_endpoints(maze)
    volume = stack_levels(maze, HEIGHT, endpoints=ends, solution=True, passage=passage, **options)
    return maze, ends, volume


def cell_feet(maze, cell, passage=2):
    """(y, z, x) of the feet of a player standing in a layered maze's cell (its north-west block)."""
    per = maze.grid.shape[1] * maze.grid.shape[2]
    z, x = shaft_columns(maze, passage=passage)[cell % per]
    return (cell // per) * LAYERS + 1, int(z), int(x)


def cell_region(labels, maze, cell, passage=2):
    """The region of a player in a layered maze's cell: the regions found on its blocks (a
    spiral's steps cover some) must be one, which is returned; 0 if none or several."""
    y, z, x = cell_feet(maze, cell, passage)
    found = {region_of(labels, y, z + dz, x + dx) for dz in range(passage) for dx in range(passage)} - {0}
    return found.pop() if len(found) == 1 else 0


def stairs_reached(volume, labels, region):
    """True if every STAIRS block is in ``region``: a step stood on, a shaft block climbed in."""
    return all(region in (int(labels[y, z, x]), region_of(labels, y + 1, z, x))
               for y, z, x in np.argwhere(volume == Material.STAIRS))


@pytest.mark.parametrize("passage", [2, 1])
@pytest.mark.parametrize("theme", theme_names())
def test_layered_maze_is_one_walk(theme, passage):
    maze, ends, volume = layered_case(passage=passage)
    blocks = schem_states(volume, theme)
    labels = regions(blocks)
    start = cell_region(labels, maze, ends.start, passage)
    assert start and start == cell_region(labels, maze, ends.goal, passage)
    # every cell is reachable (a perfect maze is one region), stairs included
    for cell in range(maze.grid.size):
        assert cell_region(labels, maze, cell, passage) == start, f"cell {cell} cut off"
    assert stairs_reached(volume, labels, start)
    # the walls between cells that are not linked stop the player (the regions follow the links)
    passable, _, _ = classify(blocks)
    for cell in range(maze.grid.size):
        y, z, x = cell_feet(maze, cell, passage)
        beside = ((z - 1, x), (z, x + passage), (z + passage, x), (z, x - 1))  # N, E, S, W
        for d, (bz, bx) in enumerate(beside):
            if maze.grid.neighbors[cell, d] >= 0:
                assert passable[y, bz, bx] == maze.links[cell, d], (cell, d)
    assert unsupported(blocks) == []


@pytest.mark.parametrize("theme", theme_names())
def test_layered_solution_marks_start_and_goal(theme):
    for seed in range(6):
        _, _, volume = layered_case(seed)
        assert (volume == Material.START).any() and (volume == Material.GOAL).any(), seed


def test_layered_without_floor_stands_on_the_ground():
    maze, ends, volume = layered_case(floor=False)
    assert volume.shape[0] == 3 * LAYERS  # no bottom floor, a roof
    assert (volume[0] != Material.FLOOR).any()
    labels = regions(schem_states(volume, "stone-bricks"))
    (sy, sz, sx), (gy, gz, gx) = cell_feet(maze, ends.start), cell_feet(maze, ends.goal)
    assert region_of(labels, sy - 1, sz, sx) == region_of(labels, gy - 1, gz, gx) != 0


@pytest.mark.parametrize("theme", theme_names())
def test_three_level_dungeon_is_one_walk(theme):
    dungeon = generate_dungeon((8, 10), rng=6, levels=3, extra_doors=0.2)
    volume = stack_dungeon(dungeon, HEIGHT)
    blocks = schem_states(volume, theme)
    labels = regions(blocks)
    (sy, sz, sx), = np.argwhere(volume == Material.START)
    (gy, gz, gx), = np.argwhere(volume == Material.GOAL)
    assert sy == 2 * LAYERS and gy == 0  # start on the top level, goal on the bottom one
    start = region_of(labels, sy + 1, sz, sx)
    assert start and start == region_of(labels, gy + 1, gz, gx)
    assert stairs_reached(volume, labels, start)  # every flight, top to bottom
    doors = volume == Material.DOOR
    assert doors.any() and region_of(labels, *np.argwhere(doors)[0]) == start
    assert unsupported(blocks) == []


@pytest.mark.parametrize("passage", [(2, 1, 1), (3, 2, 2)])  # shafts; spiral stairs
@pytest.mark.parametrize("theme", theme_names())
def test_blockwise_3d_is_one_walk(theme, passage):
    layout = strict_volume_layout(13, 13, 13, "backtracker", 4, passage=passage)
    volume = place_lights(layout.blocks)
    blocks = schem_states(volume, theme)
    labels = regions(blocks)
    floors = (volume[1:] == Material.AIR) & (volume[:-1] == Material.FLOOR)
    # every block on a floor is in one region, but where a spiral's step is overhead
    found = {int(labels[y + 1, z, x]) for y, z, x in np.argwhere(floors)
             if y + 2 >= volume.shape[0] or volume[y + 2, z, x] != Material.STAIRS}
    assert len(found) == 1 and 0 not in found
    assert (volume == Material.STAIRS).any()
    assert unsupported(blocks) == []


@pytest.mark.parametrize("case", ["layered", "dungeon", "blockwise-3d"])
def test_lights_reach_every_walkable_block(case):
    """--lights on any volume: every open block standing on a block gets block light >= 1."""
    if case == "layered":
        volume = layered_case()[2]
    elif case == "dungeon":
        volume = stack_dungeon(generate_dungeon((8, 10), rng=2, levels=3), HEIGHT)
    else:
        volume = strict_volume_layout(10, 13, 15, "backtracker", 1, passage=(2, 1, 1)).blocks
    lit = place_lights(volume)
    assert ((lit != volume) <= (lit == Material.LIGHT)).all()  # only lights were added
    walkable = np.zeros(lit.shape, dtype=bool)
    walkable[1:] = (lit[1:] == Material.AIR) & (lit[:-1] != Material.AIR) & (lit[:-1] != Material.STAIRS)
    assert (block_light(lit)[walkable] >= 1).all()
    assert len(set(np.argwhere(lit == Material.LIGHT)[:, 0].tolist())) >= 2  # on several levels


def datapack_states(volume, theme):
    """The volume written as a datapack and built by the command simulator: block states (y, z, x)
    of the maze's region of the world."""
    from blockmaze.export.minecraft.placement import player_spot
    from test_datapack import build_in_world

    out = io.BytesIO()
    bm.write(volume, out, format="datapack", theme=bm.load_theme(theme), seed=1)
    world, region, _ = build_in_world(out.getvalue(), volume.shape, spot=player_spot(volume)[:3])
    assert world.unloaded_fills == 0
    return world.blocks[region]


@pytest.mark.slow
@pytest.mark.parametrize("theme", theme_names())
def test_three_levels_are_one_walk_when_built_from_the_datapack(theme):
    """The issue's target: a 3-level layered maze and a 3-level dungeon, built by their datapack,
    have start and goal in one walking region."""
    maze, ends, volume = layered_case()
    labels = regions(datapack_states(volume, theme))
    start = cell_region(labels, maze, ends.start)
    assert start and start == cell_region(labels, maze, ends.goal)
    volume = stack_dungeon(generate_dungeon((8, 10), rng=6, levels=3), HEIGHT)
    blocks = datapack_states(volume, theme)
    labels = regions(blocks)
    (sy, sz, sx), = np.argwhere(volume == Material.START)
    (gy, gz, gx), = np.argwhere(volume == Material.GOAL)
    assert region_of(labels, sy + 1, sz, sx) == region_of(labels, gy + 1, gz, gx) != 0
    assert unsupported(blocks) == []


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=12)
@given(st.integers(2, 3), st.integers(1, 4), st.integers(1, 4), st.integers(0, 10**6),
       st.sampled_from(theme_names()), st.booleans(), st.sampled_from([1, 2]))
def test_any_layered_maze_is_one_walk(levels, rows, cols, seed, theme, roof, passage):
    maze = bm.generate(layered_grid(levels, rows, cols), rng=seed)
    ends = bm.place_endpoints(maze)
    volume = stack_levels(maze, HEIGHT, endpoints=ends, solution=True, roof=roof, passage=passage)
    from blockmaze.export.minecraft.palette import minecraft_palette

    indices, palette = minecraft_palette(volume, bm.load_theme(theme), seed)
    blocks = np.array(palette, dtype=object)[indices]
    labels = regions(blocks)
    found = {cell_region(labels, maze, cell, passage) for cell in range(maze.grid.size)}
    assert len(found) == 1 and 0 not in found
    assert unsupported(blocks) == []



@pytest.mark.slow
@pytest.mark.parametrize("style, more", [("rooms-and-mazes", [86]), ("caves", []), ("bsp", []), ("digger", []),
                                         ("mixed", [1788])])
def test_three_level_dungeons_of_twenty_seeds_are_one_walk(style, more):
    """The spirals between levels are walked from each level's ways in, seeds 1 to 20 of every
    style and a few more (among them a door onto a first step, digger 2; a door onto a hole,
    rooms-and-mazes 11; a level whose one way in was the corner under the second step, digger 15;
    two wells overlapping in part, rooms-and-mazes 86; a well over START, mixed 1788)."""
    cut_off = []
    for seed in [*range(1, 21), *more]:
        volume = stack_dungeon(generate_dungeon((8, 10), rng=seed, levels=3, style=style), HEIGHT)
        labels = regions(schem_states(volume, "stone-bricks", seed))
        (sy, sz, sx), = np.argwhere(volume == Material.START)
        (gy, gz, gx), = np.argwhere(volume == Material.GOAL)
        start = region_of(labels, sy + 1, sz, sx)
        if not start or start != region_of(labels, gy + 1, gz, gx):
            cut_off.append(seed)
    assert cut_off == []
