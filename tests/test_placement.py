"""Oriented block states (doors, gates, stairs, ladders), support, and where the player stands.

The player test reads, per format, where the maze's min corner lands relative to the player
from the written file (WorldEdit's WEOffset / Offset, Litematica's region Position, the datapack
run in the command simulator) or from the command blockmaze prints (structure blocks), and
checks the player's block and the one above it lie outside the maze, on its floor level, in front
of an open block of it.
"""

import io
import re

import numpy as np
import pytest

import blockmaze as bm
from blockmaze.blocks.stack import stack_levels
from blockmaze.dungeon import generate_dungeon, stack_dungeon
from blockmaze.export.minecraft.palette import minecraft_palette
from blockmaze.export.minecraft.placement import placement_hint, player_spot
from blockmaze.grids import layered_grid
from blockmaze.materials import Material, parse_theme
from litematic_checker import read_litematic
from schem_checker import read_schem
from test_datapack import build_in_world
from walkability import classify, properties, unsupported

DOOR_THEME = parse_theme({"name": "doors", "materials": {
    "wall": {"minecraft": "minecraft:stone_bricks"}, "floor": {"minecraft": "minecraft:stone"},
    "roof": {"minecraft": "minecraft:stone"}, "start": {"minecraft": "minecraft:gold_block"},
    "goal": {"minecraft": "minecraft:emerald_block"}, "path": {"minecraft": "minecraft:gravel"},
    "door": {"minecraft": "minecraft:oak_door"},
    "stairs": {"minecraft": "minecraft:ladder"}, "light": {"minecraft": "minecraft:glowstone"},
}})


def states(volume, theme):
    indices, palette = minecraft_palette(volume, theme)
    return np.array(palette, dtype=object)[indices]


def dungeon_volume(levels=1, seed=3):
    return stack_dungeon(generate_dungeon((8, 10), rng=seed, levels=levels, extra_doors=0.3), 3,
                         roof=False)


def test_doors_are_two_halves_facing_along_their_passage():
    volume = dungeon_volume()
    blocks = states(volume, DOOR_THEME)
    doors = np.argwhere(volume == Material.DOOR)
    assert len(doors) >= 4
    for y, z, x in doors:
        state = properties(blocks[y, z, x])
        lower = volume[y - 1, z, x] != Material.DOOR
        assert state["half"] == ("lower" if lower else "upper") and state["hinge"] == "left"
        # walls on the two sides across the passage; the door faces along it
        walls_we = volume[y, z, x - 1] == Material.WALL and volume[y, z, x + 1] == Material.WALL
        assert state["facing"] in (("north", "south") if walls_we else ("east", "west"))
        if lower:
            assert blocks[y + 1, z, x].startswith("minecraft:oak_door[") and volume[y - 1, z, x] != 0
    assert unsupported(blocks) == []


@pytest.mark.parametrize("theme", ["hedge", "stone-bricks"])
def test_gates_face_along_their_passage(theme):
    volume = dungeon_volume()
    blocks = states(volume, bm.load_theme(theme))
    facings = set()
    for y, z, x in np.argwhere(volume == Material.DOOR):
        walls_we = volume[y, z, x - 1] == Material.WALL
        facing = properties(blocks[y, z, x])["facing"]
        assert facing in (("north", "south") if walls_we else ("east", "west"))
        facings.add(facing)
    assert facings == {"north", "east"}  # gates in both kinds of walls, no longer all north


def test_ladders_face_away_from_their_wall_and_stairs_rise():
    maze = bm.generate(layered_grid(2, 3, 3), rng=1)
    volume = stack_levels(maze, 3)
    blocks = states(volume, DOOR_THEME)
    passable, _, _ = classify(blocks)
    back = {"north": (1, 0), "south": (-1, 0), "east": (0, -1), "west": (0, 1)}
    for y, z, x in np.argwhere(volume == Material.STAIRS):
        dz, dx = back[properties(blocks[y, z, x])["facing"]]
        if not passable[y, z + dz, x + dx]:
            continue
        # no block behind: then there is none on any side
        assert all(passable[y, z + a, x + b] for a, b in back.values())
    stair_theme = parse_theme({"name": "s", "materials": {"stairs": {"minecraft": "minecraft:oak_stairs"},
                                                          "wall": {"minecraft": "minecraft:stone"},
                                                          "floor": {"minecraft": "minecraft:stone"}}})
    run = np.zeros((3, 1, 4), np.uint8)
    run[0] = Material.FLOOR
    run[1, 0, 1], run[1, 0, 2], run[2, 0, 2] = Material.STAIRS, Material.WALL, Material.STAIRS
    run[1, 0, 3] = Material.WALL
    stepped = states(run, stair_theme)
    assert properties(stepped[1, 0, 1]) == {"facing": "east", "half": "bottom", "shape": "straight"}


def test_gravel_never_floats():
    """The hedge's gravel solution path on an upper level stands alone as cobblestone."""
    maze = bm.generate(layered_grid(3, 4, 4), rng=2)
    volume = stack_levels(maze, 3, endpoints=bm.place_endpoints(maze), solution=True)
    blocks = states(volume, bm.load_theme("hedge"))
    path = volume == Material.PATH
    over_air = np.zeros_like(path)
    over_air[1:] = path[1:] & (volume[:-1] == Material.AIR)
    assert over_air.any() and (path & ~over_air).any()
    assert set(blocks[over_air]) == {"minecraft:cobblestone"}
    assert set(blocks[path & ~over_air]) == {"minecraft:gravel"}
    assert unsupported(blocks) == []


def test_relaxed_fill_keeps_its_blocks():
    for fill in (Material.LIGHT, Material.DOOR, Material.STAIRS):
        plan = bm.relaxed_plan(20, 20, "prim", 3, fill=fill)
        volume = bm.extrude(plan, 3)
        assert (volume == fill).sum() >= (plan == fill).sum() > 0


# --- where the player stands --------------------------------------------------------------------


def square_volume(entrances):
    maze = bm.generate((5, 6), rng=4)
    ends = bm.place_endpoints(maze, "entrances" if entrances else "longest")
    plan = bm.to_blocks(maze, endpoints=ends, solution=True)
    return bm.extrude(plan, 3, roof=True)


CASES = {
    "entrances": lambda: square_volume(True),
    "closed": lambda: square_volume(False),
    "layered": lambda: stack_levels(bm.generate(layered_grid(2, 3, 4), rng=1), 3),
    "dungeon-3": lambda: dungeon_volume(3),
}


def corner_offset(volume, fmt):
    """(x, y, z) of the min corner relative to the player's block, as the file or hint says."""
    out = io.BytesIO()
    if fmt in ("schem-2", "schem-3"):
        version = int(fmt[-1])
        bm.write(volume, out, format="schem", schem_version=version)
        schem = read_schem(out.getvalue(), version=version)
        return schem.we_offset if version == 2 else schem.offset
    if fmt == "schematic":  # WorldEdit 6 / MCEdit: the min corner at player + WEOffset
        from test_legacy_schematic import read_legacy

        theme = parse_theme({"name": "old", "materials": {m: {"minecraft": "minecraft:stone"} for m in
                                                          ("wall", "floor", "roof", "start", "goal", "path", "light")}
                             | {"door": {"minecraft": "minecraft:oak_door"}, "stairs": {"minecraft": "minecraft:oak_stairs"}}})
        bm.write(volume, out, format="schematic", theme=theme)
        we = read_legacy(out.getvalue()).we
        return we["WEOffsetX"], we["WEOffsetY"], we["WEOffsetZ"]
    if fmt == "litematic":
        bm.write(volume, out, format="litematic")
        (region,) = read_litematic(out.getvalue()).regions.values()
        return region.position
    if fmt == "datapack":
        bm.write(volume, out, format="datapack")
        spot = player_spot(volume)
        world, region, _ = build_in_world(out.getvalue(), volume.shape, origin=(3, 2, 5), spot=spot[:3])
        built = np.argwhere(world.writes > 0).min(axis=0)  # (y, z, x) of the min corner
        player = np.array([2 + spot.y, 5 + spot.z, 3 + spot.x])
        y, z, x = (built - player).tolist()
        assert world.writes[tuple(player)] == 0 and world.writes[tuple(player + [1, 0, 0])] == 0
        return x, y, z
    name = {"structure": "structure", "mcstructure": "mcstructure"}[fmt]
    hint = placement_hint(volume, name)
    x, y, z = map(int, re.search(r"~(-?\d+) ~(-?\d+) ~(-?\d+)", hint).groups())
    return x, y, z


@pytest.mark.parametrize("fmt", ["schem-2", "schem-3", "schematic", "litematic", "datapack", "structure",
                                 "mcstructure"])
@pytest.mark.parametrize("case", CASES)
def test_the_player_stands_outside_in_front_of_the_maze(case, fmt):
    volume = CASES[case]()
    height, length, width = volume.shape
    ox, oy, oz = corner_offset(volume, fmt)
    x, y, z = -ox, -oy, -oz  # the player's feet block in the volume's coordinates
    assert not (0 <= x < width and 0 <= z < length), "the player stands inside the maze's box"
    # right beside the box, level with the bottom walking layer: open there and above
    inside = (min(max(z, 0), length - 1), min(max(x, 0), width - 1))
    assert abs(inside[0] - z) + abs(inside[1] - x) == 1
    assert 0 <= y < height - 1
    floor = volume[y - 1, inside[0], inside[1]] if y > 0 else Material.FLOOR
    assert floor != Material.AIR, "the player is not on the maze's floor level"
    if case == "entrances":  # facing the entrance: both blocks in front are open
        assert volume[y, inside[0], inside[1]] == Material.AIR
        assert volume[y + 1, inside[0], inside[1]] == Material.AIR


def test_bedrock_doors_are_turned_a_quarter():
    """Bedrock's door cardinal_direction is Java's facing turned 90 degrees clockwise (Java east is
    Bedrock south: PyMCTranslate's bedrock_1_21_90 door mappings, Amulet-Team/PyMCTranslate#71);
    the halves map to upper_block_bit, the hinge to door_hinge_bit."""
    from blockmaze.export.minecraft.bedrock import bedrock_state

    turned = {"east": "south", "south": "west", "west": "north", "north": "east"}
    for java, bedrock in turned.items():
        name, states = bedrock_state(f"minecraft:oak_door[facing={java},half=upper,hinge=right,"
                                     "open=false,powered=false]")
        assert name == "minecraft:wooden_door"
        assert str(states["minecraft:cardinal_direction"]) == bedrock
        assert int(states["upper_block_bit"]) == 1 and int(states["door_hinge_bit"]) == 1
    from blockmaze.export.minecraft.legacy import legacy_id

    assert legacy_id("minecraft:oak_door[facing=north,half=lower,hinge=left,open=false,powered=false]") == (64, 3)
    name, states = bedrock_state("minecraft:ladder[facing=west,waterlogged=false]")
    assert (name, int(states["facing_direction"])) == ("minecraft:ladder", 4)


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=40)
@given(st.integers(1, 6), st.integers(1, 6), st.integers(0, 10**6), st.booleans(), st.booleans())
def test_the_spot_is_always_just_outside_on_the_walking_layer(rows, cols, seed, entrances, floor):
    maze = bm.generate((rows, cols), rng=seed)
    ends = bm.place_endpoints(maze, "entrances" if entrances else "longest")
    # (without a floor, solution markers would stand in the walking layer: no solution then)
    volume = bm.extrude(bm.to_blocks(maze, endpoints=ends, solution=floor), 3, floor=floor)
    spot = player_spot(volume)
    height, length, width = volume.shape
    assert not (0 <= spot.z < length and 0 <= spot.x < width)
    assert spot.y == (1 if floor else 0)
    step = {"south": (1, 0), "north": (-1, 0), "east": (0, 1), "west": (0, -1)}[spot.facing]
    z, x = spot.z + step[0], spot.x + step[1]
    assert 0 <= z < length and 0 <= x < width  # facing into the maze
    if entrances:  # the start's opening is right in front
        assert volume[spot.y, z, x] == Material.AIR
