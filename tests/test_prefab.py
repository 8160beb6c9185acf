"""Prefabs (issue 51): a user's structure placed in a square maze (``--prefab FILE[@center|goal]``).

The prefab files here are written with nbtlib by the test itself, as a user's tools would write
them (a Sponge v2 or v3 schematic, a structure file listing its blocks), so the reader is checked
against the formats, not against blockmaze's own writers. Properties: the maze outside the
footprint is a spanning tree of its cells; the written .schem (read back by tests/schem_checker.py)
holds the prefab's states exactly where the placement says; the footprint's edge is closed but
for the one door, and the door joins the start's passages to the footprint. The game's bot walks
from the start to the door of a prefab at the centre (tests/game.py).
"""

from __future__ import annotations

import numpy as np
import nbtlib
import pytest
from hypothesis import HealthCheck, event, given, settings, strategies as st
from nbtlib import ByteArray, Compound, Int, IntArray, List, String

from blockmaze import jobs
from blockmaze.blocks.convert import to_blocks
from blockmaze.blocks.prefab import MAX_PREFAB_STATES, place_prefab
from blockmaze.materials import Material
from blockmaze.cli import main
from blockmaze.export.minecraft.varint import encode_varints
from blockmaze.mazes.generation import generate
from blockmaze.mazes.masks import masked_grid
from blockmaze.readers.prefab import read_prefab
from blockmaze.support.randomness import as_generator
from schem_checker import read_schem

AIR = "minecraft:air"
WALL, START = int(Material.WALL), int(Material.START)
STATES = ["minecraft:gold_block", "minecraft:oak_planks", "minecraft:glass",
          "minecraft:oak_stairs[facing=east,half=bottom,shape=straight,waterlogged=false]",
          "minecraft:lantern[hanging=false,waterlogged=false]"]


def _state_tag(state: str) -> Compound:
    name, _, rest = state.partition("[")
    tag = Compound({"Name": String(name)})
    if rest:
        tag["Properties"] = Compound({k: String(v) for k, v in
                                      (pair.split("=") for pair in rest.rstrip("]").split(","))})
    return tag


def write_structure(path, names: np.ndarray) -> None:
    """A structure file of ``names`` (y, z, x) block states, None for a structure void (not
    listed), its palette in the order blocks first appear."""
    palette: list[str] = []
    blocks = []
    for (y, z, x), state in np.ndenumerate(names):
        if state is None:
            continue
        if state not in palette:
            palette.append(state)
        blocks.append(Compound({"pos": List[Int]([Int(x), Int(y), Int(z)]),
                                "state": Int(palette.index(state))}))
    height, length, width = names.shape
    root = Compound({"DataVersion": Int(3700), "size": List[Int]([Int(width), Int(height), Int(length)]),
                     "palette": List[Compound]([_state_tag(s) for s in palette]),
                     "blocks": List[Compound](blocks), "entities": List[Compound]()})
    nbtlib.File(root, root_name="").save(path, gzipped=True)


def write_sponge(path, names: np.ndarray, version: int = 2) -> None:
    """A Sponge schematic of ``names`` (y, z, x), v2 or v3."""
    palette = {state: i for i, state in enumerate(dict.fromkeys(names.ravel().tolist()))}
    data = ByteArray(np.frombuffer(encode_varints(np.array([palette[s] for s in names.ravel()])),
                                   np.int8))
    height, length, width = names.shape
    size = {"Width": nbtlib.Short(width), "Height": nbtlib.Short(height),
            "Length": nbtlib.Short(length)}
    tags = Compound({k: Int(v) for k, v in palette.items()})
    if version == 2:
        root = Compound({"Version": Int(2), "DataVersion": Int(3700), **size, "Palette": tags,
                         "PaletteMax": Int(len(palette)), "BlockData": data,
                         "Offset": IntArray([0, 0, 0])})
        nbtlib.File(root, root_name="Schematic").save(path, gzipped=True)
    else:
        body = Compound({"Version": Int(3), "DataVersion": Int(3700), **size,
                         "Offset": IntArray([0, 0, 0]),
                         "Blocks": Compound({"Palette": tags, "Data": data})})
        nbtlib.File(Compound({"Schematic": body}), root_name="").save(path, gzipped=True)


def random_names(rng: np.random.Generator, shape, open_foot: bool = True) -> np.ndarray:
    names = np.array(STATES + [AIR], dtype=object)[rng.integers(0, len(STATES) + 1, shape)]
    if open_foot and shape[0] >= 1:  # an opening of its own on its south edge
        names[:2, -1, shape[2] // 2] = AIR
    return names


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(1, 4), st.integers(1, 5), st.integers(1, 5), st.sampled_from(["structure", "v2", "v3"]),
       st.integers(0, 2**16))
def test_the_reader_gives_each_block_state_where_the_file_has_it(tmp_path, height, length, width,
                                                                   form, seed):
    names = random_names(np.random.default_rng(seed), (height, length, width))
    path = tmp_path / ("p.nbt" if form == "structure" else "p.schem")
    if form == "structure":
        names[0, 0, 0] = None  # a structure void: air in the prefab
        write_structure(path, names)
    else:
        write_sponge(path, names, int(form[1]))
    prefab = read_prefab(path)
    read = np.array(prefab.palette, dtype=object)[prefab.states]
    expected = np.where(names == None, AIR, names)  # noqa: E711 (an object array)
    assert prefab.shape == names.shape
    assert (read == expected).all()


def placed_names(placed, names: np.ndarray) -> np.ndarray:
    """The states the prefab's box holds once placed: its own, air where it lists none, and air
    where the door is cut into it (two blocks high, at its edge facing the door)."""
    expected = np.where(names == None, AIR, names)  # noqa: E711 (an object array)
    if placed.cut:
        materials, _ = placed.prefab.materials()
        height, length, width = names.shape
        z, x = placed.origin()
        room = placed.room()
        cut = placed.stamp(np.zeros((1 + height, room[2] + 1, room[3] + 1), np.uint8), True)[
            1:, z:z + length, x:x + width]
        expected = np.where((cut == 0) & (materials != 0), AIR, expected)
    return expected


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(1, 5), st.integers(1, 6), st.integers(1, 6), st.integers(5, 12), st.integers(5, 12),
       st.integers(1, 2), st.integers(1, 3), st.sampled_from(["center", "goal"]), st.booleans(),
       st.integers(0, 2**16))
def test_a_prefab_sits_in_a_perfect_maze_behind_one_door(tmp_path, height, length, width, rows, cols,
                                                         wall, passage, place, open_foot, seed):
    names = random_names(np.random.default_rng(seed), (height, length, width), open_foot)
    source = tmp_path / "p.schem"
    write_sponge(source, names)
    prefab = read_prefab(source)
    try:
        placed = place_prefab(prefab, (rows, cols), place, wall, passage)
    except Exception as error:  # too big for this maze: refused, never placed half
        assert "give a maze of at least" in str(error) or "parts apart" in str(error)
        event("refused: too big for the maze")
        return
    event(f"placed, door cut: {placed.cut}")
    out = tmp_path / "m.schem"
    done = jobs.run("generate", size=(rows, cols), seed=seed, wall=wall, passage=passage,
                    prefab=f"{source}@{place}", output=str(out), solution=True)
    # the maze outside the footprint: a spanning tree of the cells left
    grid = masked_grid("square", (rows, cols), placed.mask())
    maze = generate(grid, "backtracker", as_generator(seed))
    assert maze.is_perfect()
    assert not grid.enabled.reshape(rows, cols)[placed.mask() == 0].any()
    # the prefab's blocks exactly where it stands, in the file as read back
    schem = read_schem(out)
    blocks = schem.blocks
    z, x = placed.origin()
    written = blocks[1:1 + height, z:z + length, x:x + width]
    assert (written == placed_names(placed, names)).all()
    # the footprint's edge: closed but for the door, and the door joins the maze to it
    layer = done.volume[1]
    plan = placed.carve(to_blocks(maze, wall, passage))
    z0, x0, z1, x1 = placed.room()
    ring = np.zeros(plan.shape, bool)
    ring[z0 - 1:z1 + 1, x0 - 1:x1 + 1] = True
    ring[z0:z1, x0:x1] = False
    d0, e0, d1, e1 = placed.opening()
    door = np.zeros(plan.shape, bool)
    door[d0:d1, e0:e1] = True
    assert ((ring & (layer != WALL)) == (ring & door)).all() and (ring & door).any()
    start = tuple(np.argwhere(done.volume[0] == START)[0])
    reached = _flood(layer != WALL, start)
    assert reached[door].all() and reached[z0:z1, x0:x1].any()
    assert (plan[~ring] == 0).sum() >= 0  # (the carved plan: the room and door cut in)


def _flood(open_: np.ndarray, start) -> np.ndarray:
    """The blocks of a layer reached from ``start`` through open blocks, 4 ways."""
    seen = np.zeros(open_.shape, bool)
    seen[start] = True
    todo = [start]
    while todo:
        z, x = todo.pop()
        for dz, dx in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nz, nx = z + dz, x + dx
            if 0 <= nz < open_.shape[0] and 0 <= nx < open_.shape[1] and open_[nz, nx] \
                    and not seen[nz, nx]:
                seen[nz, nx] = True
                todo.append((nz, nx))
    return seen


def test_cli_prefab_errors_are_one_line(tmp_path, capsys):
    hut = tmp_path / "hut.schem"
    write_sponge(hut, random_names(np.random.default_rng(1), (2, 5, 5)))
    cases = []
    (tmp_path / "junk.schem").write_bytes(b"not a schematic")
    cases.append(([str(tmp_path / "junk.schem")], 1, "not gzipped"))
    import gzip

    (tmp_path / "cut.schem").write_bytes(gzip.compress(b"\x0a\x00\x09Schematic\x03"))
    cases.append(([str(tmp_path / "cut.schem")], 1, "truncated"))
    big = tmp_path / "big.nbt"
    root = Compound({"size": List[Int]([Int(4000), Int(1), Int(1)]), "palette": List[Compound](),
                     "blocks": List[Compound]()})
    nbtlib.File(root, root_name="").save(big, gzipped=True)
    cases.append(([str(big)], 1, "more than is read"))
    many = tmp_path / "many.nbt"  # (refused for its count before any state is looked up)
    grid = np.array([f"minecraft:made_up_{i}" for i in range(250)], dtype=object).reshape(10, 5, 5)
    write_structure(many, grid)
    cases.append(([str(many)], 1, f"more than {MAX_PREFAB_STATES} block states"))
    cases.append(([f"{hut}@middle"], 2, "unknown place"))
    cases.append(([str(hut), "--size-check"], 2, None))
    for args, code, message in cases:
        if "--size-check" in args:
            got = main(["generate", "3x3", "--prefab", args[0], "-o", str(tmp_path / "m.schem")])
            message = "give a maze of at least"
        else:
            got = main(["generate", "12x12", "--prefab", *args, "-o", str(tmp_path / "m.schem")])
        _, err = capsys.readouterr()
        lines = [line for line in err.splitlines() if line.strip()]
        assert got == code, (args, err)
        assert len(lines) == 1 and message in lines[0], (args, err)
        assert not (tmp_path / "m.schem").exists()
    got = main(["generate", "12x12", "--prefab", str(hut), "-o", str(tmp_path / "m.glb")])
    _, err = capsys.readouterr()
    assert got == 2 and "Java block file" in err and len(err.strip().splitlines()) == 1


@pytest.mark.reader
@pytest.mark.slow
def test_the_bot_walks_from_the_start_to_a_centred_prefabs_door(tmp_path):
    from game import feet_on, walk

    hut = tmp_path / "hut.schem"
    names = np.full((3, 5, 5), "minecraft:oak_planks", dtype=object)
    names[:, 1:4, 1:4] = AIR
    names[:2, 4, 2] = AIR  # its own door, south
    write_sponge(hut, names)
    cases = []
    for seed in (1, 2):
        out = tmp_path / f"m{seed}.schem"
        done = jobs.run("generate", size=(9, 9), seed=seed, prefab=str(hut), output=str(out),
                        entrances=True, solution=True, mc_version="1.20.4")
        placed = place_prefab(read_prefab(hut), (9, 9))
        z0, x0, z1, x1 = placed.opening()
        goal = [x0, 1, z0, 1.5]  # the door's blocks, at the feet
        start = list(feet_on(done.volume, Material.START))
        cases.append({"name": f"prefab {seed}", "file": out, "goal": goal, "start": start})
        oz, ox = placed.origin()  # and on into the hut, through its own door
        cases.append({"name": f"prefab {seed} inside", "file": out, "start": start,
                      "goal": [ox + 2, 1, oz + 2]})
        out = tmp_path / f"g{seed}.schem"
        done = jobs.run("generate", size=(9, 9), seed=seed, prefab=f"{hut}@goal", output=str(out),
                        solution=True, mc_version="1.20.4")
        cases.append({"name": f"prefab {seed} at the goal", "file": out,
                      "start": list(feet_on(done.volume, Material.START)),
                      "goal": list(feet_on(done.volume, Material.GOAL))})
    post = tmp_path / "post.schem"  # a 1-block-tall post a cell holds: in every dead end
    write_sponge(post, np.full((1, 3, 3), "minecraft:oak_planks", dtype=object))
    for seed in (1,):
        out = tmp_path / f"d{seed}.schem"
        done = jobs.run("generate", size=(8, 8), seed=seed, passage=3, prefab=f"{post}@dead-ends",
                        output=str(out), solution=True, mc_version="1.20.4")
        cases.append({"name": f"dead ends {seed}", "file": out,
                      "start": list(feet_on(done.volume, Material.START)),
                      "goal": list(feet_on(done.volume, Material.GOAL))})
        out = tmp_path / f"v{seed}.schem"
        done = jobs.run("dungeon", size=(16, 20), seed=seed, levels=1, prefab=str(post),
                        output=str(out), mc_version="1.20.4")
        cases.append({"name": f"vaults {seed}", "file": out,
                      "start": list(feet_on(done.volume, Material.START)),
                      "goal": list(feet_on(done.volume, Material.GOAL))})
    results = walk(cases, timeout=90, bots=3)
    reached = [r["reached"] for r in results]
    print(f"bot walks with prefabs (door, inside, goal, dead ends, vaults): {sum(reached)} "
          f"reached of {len(reached)}")
    assert all(reached), results


def test_every_java_block_file_carries_the_prefabs_states(tmp_path):
    """The same maze and prefab as .schem, .litematic, .nbt and a world: block for block alike
    (each read back by its own test-side reader; the world by anvil-parser2)."""
    from litematic_checker import read_litematic
    from structure_checker import canonical_state, read_structure
    from test_world import anvil_blocks

    names = random_names(np.random.default_rng(7), (4, 6, 5))
    source = tmp_path / "p.nbt"
    write_structure(source, names)
    job = dict(size=(9, 11), seed=4, prefab=str(source), mc_version="1.20.4")
    done = jobs.run("generate", output=str(tmp_path / "m.schem"), **job)
    schem = read_schem(tmp_path / "m.schem").blocks
    canonical = np.vectorize(canonical_state, otypes=[object])
    expected = canonical(schem)
    jobs.run("generate", output=str(tmp_path / "m.litematic"), **job)
    (region,) = read_litematic(tmp_path / "m.litematic").regions.values()
    assert (canonical(region.blocks) == expected).all()
    jobs.run("generate", output=str(tmp_path / "m2.nbt"), **job)
    structure = read_structure(tmp_path / "m2.nbt").blocks
    assert (np.where(structure == None, AIR, structure) == expected).all()  # noqa: E711
    jobs.run("generate", output=str(tmp_path / "W"), format_="world", terrain="flat", y=10, **job)
    assert (canonical(anvil_blocks(tmp_path / "W", done.volume.shape, 10)) == expected).all()
    placed = place_prefab(read_prefab(source), (9, 11))
    z, x = placed.origin()
    inside = expected[1:5, z:z + 6, x:x + 5]
    assert (inside == canonical(placed_names(placed, names))).all()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(1, 3), st.integers(1, 3), st.integers(1, 3), st.integers(3, 9), st.integers(3, 9),
       st.integers(0, 2**16))
def test_dead_ends_each_hold_a_copy_in_a_perfect_maze(tmp_path, height, length, width, rows, cols,
                                                      seed):
    passage = max(length, width)
    names = random_names(np.random.default_rng(seed), (height, length, width), open_foot=False)
    source = tmp_path / "p.schem"
    write_sponge(source, names)
    out = tmp_path / "d.schem"
    done = jobs.run("generate", size=(rows, cols), seed=seed, passage=passage,
                    prefab=f"{source}@dead-ends", output=str(out), solution=True)
    maze = generate(masked_grid("square", (rows, cols), np.ones((rows, cols), bool)), "backtracker",
                    as_generator(seed))
    assert maze.is_perfect()  # carved whole: no cell left out
    from blockmaze.pipeline import make_maze

    ends = make_maze((rows, cols), seed=seed).endpoints
    dead = [c for c in np.flatnonzero(maze.links.sum(axis=1) == 1) if c not in (ends.start, ends.goal)]
    blocks = read_schem(out).blocks
    materials, _ = read_prefab(source).materials()
    solid = materials != 0
    for cell in dead:
        row, col = divmod(int(cell), cols)
        z = 1 + row * (passage + 1) + (passage - length) // 2
        x = 1 + col * (passage + 1) + (passage - width) // 2
        box = blocks[1:1 + height, z:z + length, x:x + width]
        kept = box[solid] == names[solid]  # its blocks, but the one column cut for its way in
        assert kept.sum() >= solid.sum() - 2
    assert done.volume is not None
    event(f"dead ends: {min(len(dead), 5)}{'+' if len(dead) > 5 else ''}")


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(1, 3), st.integers(1, 4), st.integers(1, 4), st.integers(0, 2**16))
def test_vaults_in_a_dungeons_rooms_keep_every_room_reachable(tmp_path, height, length, width, seed):
    names = random_names(np.random.default_rng(seed), (height, length, width), open_foot=False)
    names[0] = "minecraft:gold_block"  # no air of its own at its foot: none the walk could miss
    source = tmp_path / "v.schem"
    write_sponge(source, names)
    job = dict(size=(16, 20), seed=seed, levels=1)
    plain = jobs.run("dungeon", output=str(tmp_path / "plain.schem"), **job).volume
    done = jobs.run("dungeon", output=str(tmp_path / "d.schem"), prefab=f"{source}@rooms", **job)
    blocks = read_schem(tmp_path / "d.schem").blocks
    vaults = done.volume[1:1 + height] >= 13
    boxes = vaults.any(axis=0)
    event(f"vaults placed: {'some' if boxes.any() else 'none'}")
    # every block walkable before, outside the vaults, is still reached from the start
    before, after = plain[1] != WALL, done.volume[1] != WALL
    after &= ~boxes
    start = tuple(np.argwhere(plain[0] == START)[0])
    assert (_flood(before & ~boxes, start) == _flood(after, start)).all()
    assert (_flood(before, start) & ~boxes == _flood(after, start)).all()
    # the vault's states where it stands
    palette = np.array(read_prefab(source).palette, dtype=object)
    assert set(blocks[1:1 + height][vaults].tolist()) <= set(palette.tolist())


def test_a_litematic_prefab_is_read_and_one_of_two_regions_refused(tmp_path, capsys):
    """Block states packed across longs (read from blockmaze's own writer, whose packing the
    test-side litematic checker holds to Litematica's), and a file of two regions refused."""
    import blockmaze as bm

    volume = np.random.default_rng(3).integers(0, 4, (3, 5, 7)).astype(np.uint8)
    bm.write(volume, tmp_path / "p.litematic", theme="glass")
    prefab = read_prefab(tmp_path / "p.litematic")
    (region,) = __import__("litematic_checker").read_litematic(tmp_path / "p.litematic").regions.values()
    assert (np.array(prefab.palette, dtype=object)[prefab.states] == region.blocks).all()
    root = nbtlib.load(tmp_path / "p.litematic")
    (name,) = root["Regions"].keys()
    root["Regions"]["second"] = root["Regions"][name]
    root.save(tmp_path / "two.litematic", gzipped=True)
    got = main(["generate", "12x12", "--prefab", str(tmp_path / "two.litematic"), "-o",
                str(tmp_path / "m.schem")])
    err = capsys.readouterr().err.strip()
    assert got == 1 and len(err.splitlines()) == 1 and "2 regions; a prefab is one region" in err


@pytest.mark.filterwarnings("ignore:built into")
def test_a_prefab_goes_into_an_existing_world_too(tmp_path):
    """``--into WORLD --prefab``: the prefab's states in the world where the maze's volume has
    them (read back by anvil-parser2)."""
    from test_world import anvil

    jobs.run("generate", size=(30, 30), seed=1, output=str(tmp_path / "W"), format_="world")
    names = np.full((2, 3, 3), "minecraft:gold_block", dtype=object)
    write_sponge(tmp_path / "gold.schem", names)
    done = jobs.run("generate", size=(9, 9), seed=2, prefab=str(tmp_path / "gold.schem"),
                    into=str(tmp_path / "W"), at=(30, 30))
    region = anvil().Region.from_file(str(tmp_path / "W" / "region" / "r.0.0.mca"))
    found = sum(region.get_chunk(cx, cz).get_block(x, y, z).id == "gold_block"
                for cx in range(1, 3) for cz in range(1, 3) for y in range(-60, -50)
                for z in range(16) for x in range(16))
    assert found == int((done.volume >= 13).sum()) and found in (16, 18)  # (18 less a door cut)
