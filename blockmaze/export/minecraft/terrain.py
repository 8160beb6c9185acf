"""A maze whose floor follows the ground under it (``--terrain follow``), for ``--into`` and the
Amulet operation.

The ground is read per block column (x, z) of the maze's footprint: one above its highest block
that is ground, that is neither air, nor a tree's block (logs, wood, leaves, mushroom blocks,
vines, bee nests), nor a plant one walks through (grass, flowers, snow layers...), nor water when
the user clears water (``--clear water``: the lake bed is the ground then). Each column's floor is
put at a height of its own (:func:`lifts`): the ground where no two neighbouring columns differ by
more than one block, and where they do, the midpoint between the highest floor that needs no
filling and the lowest that needs no cutting, the nearest to the ground that keeps every step
between neighbouring columns at most one block (docs/minecraft.md §6.2). Every column moves,
walls too, so a wall stands its height above its own floor and never less than its height minus
one above a passage beside it. A passage's floor block below a passage one block higher is the
theme's stair, facing up (:func:`stepped`): two half steps the player walks up without jumping.

In each column (:func:`follow`): the world's blocks below the ground stay; from the ground up to
the floor, the floor's block (the maze never stands on air); the maze's layers; above them, up to
the top of what is cleared, air (cut ground, cleared trees and water); above that the world's
blocks stay (a tree's crown over the maze when trees are kept).

>>> import numpy as np
>>> lifts(np.array([[0, 0, 5, 5]]))
array([[1, 2, 3, 3]])
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ...errors import BlockmazeError, ParameterError

KEEP = -1  # in a followed volume of global ids: the world's block stays
CLEARABLE = ("trees", "water")
AIRS = frozenset({"minecraft:air", "minecraft:cave_air", "minecraft:void_air"})
TREE_ENDINGS = ("_log", "_wood", "_leaves", "_stem", "_hyphae", "_mushroom_block")
TREES = frozenset({"minecraft:vine", "minecraft:cocoa", "minecraft:bee_nest", "minecraft:bamboo",
                   "minecraft:mangrove_roots", "minecraft:azalea", "minecraft:flowering_azalea",
                   "minecraft:mangrove_propagule", "minecraft:weeping_vines",
                   "minecraft:weeping_vines_plant", "minecraft:twisting_vines",
                   "minecraft:twisting_vines_plant"})
PLANTS = frozenset("minecraft:" + name for name in (
    "grass short_grass tall_grass fern large_fern dead_bush snow sugar_cane sweet_berry_bush "
    "dandelion poppy blue_orchid allium azure_bluet red_tulip orange_tulip white_tulip pink_tulip "
    "oxeye_daisy cornflower lily_of_the_valley torchflower sunflower lilac rose_bush peony "
    "pink_petals brown_mushroom red_mushroom lily_pad seagrass tall_seagrass kelp kelp_plant "
    "glow_lichen moss_carpet hanging_roots spore_blossom cave_vines cave_vines_plant "
    "oak_sapling spruce_sapling birch_sapling jungle_sapling acacia_sapling dark_oak_sapling "
    "cherry_sapling").split())
WATERS = frozenset({"minecraft:water", "minecraft:bubble_column"})


def clear_set(text: str | None) -> frozenset[str]:
    """``--clear``'s comma list as a set of what is cleared (empty: nothing).

    >>> sorted(clear_set("water, trees"))
    ['trees', 'water']
    >>> clear_set("rocks")
    Traceback (most recent call last):
    ...
    blockmaze.errors.ParameterError: clear takes trees, water or both (trees,water), got 'rocks'
    """
    chosen = frozenset(part.strip() for part in (text or "").split(",") if part.strip())
    if not chosen <= set(CLEARABLE):
        raise ParameterError(f"{{clear}} takes trees, water or both (trees,water), got {text!r}")
    return chosen


def is_tree(name: str) -> bool:
    """Whether ``name`` is a block of a tree (or a huge mushroom, or what hangs from them).

    >>> is_tree("minecraft:oak_leaves"), is_tree("minecraft:stripped_birch_log"), is_tree("minecraft:dirt")
    (True, True, False)
    """
    return name in TREES or name.endswith(TREE_ENDINGS)


def not_ground(names: list[str], cleared: frozenset[str]) -> tuple[np.ndarray, np.ndarray]:
    """For each block name: whether it is not ground (the floor goes above the highest ground),
    and whether it is left standing above the maze (``keep``: a kept tree's block, or air)."""
    tree = np.array([is_tree(n) for n in names], dtype=bool)
    water = np.array([n in WATERS for n in names], dtype=bool)
    air = np.array([n in AIRS for n in names], dtype=bool)
    plant = np.array([n in PLANTS for n in names], dtype=bool)
    skip = air | tree | plant | (water if "water" in cleared else False)
    keep = air | (tree & ("trees" not in cleared)) | (plant & ("trees" not in cleared))
    return skip, keep


def lifts(ground: np.ndarray) -> np.ndarray:
    """Each column's floor height (z, x) for the ground heights ``ground`` (z, x): where no two
    neighbouring columns (sharing a side) differ by more than one, the ground itself; elsewhere
    the midpoint (rounded down) of the highest heights at most the ground and the lowest at
    least the ground that keep every pair of neighbours within one. Those two are the ground's
    lower and upper envelopes, ``min(ground[q] + |p - q|)`` and ``max(ground[q] - |p - q|)``
    over all columns ``q`` (``|p - q|`` the steps between them), each worked out along x, then z.

    >>> lifts(np.array([[3, 3, 3, 9, 3, 3, 3]]))
    array([[4, 5, 5, 6, 5, 5, 4]])
    """
    ground = np.asarray(ground, dtype=np.int64)
    low = _envelope(_envelope(ground, 1, np.minimum), 0, np.minimum)
    high = -_envelope(_envelope(-ground, 1, np.minimum), 0, np.minimum)
    return (low + high) // 2


def _envelope(values: np.ndarray, axis: int, pick) -> np.ndarray:
    """``pick`` over the line along ``axis`` of ``values[q] + |p - q|``, two running passes."""
    steps = np.arange(values.shape[axis]).reshape([-1 if a == axis else 1 for a in range(2)])
    forward = pick.accumulate(values - steps, axis=axis) + steps
    backward = np.flip(pick.accumulate(np.flip(values + steps, axis), axis=axis), axis) - steps
    return pick(forward, backward)


def follow(ids: np.ndarray, ground: np.ndarray, clear_top: np.ndarray, filler: int,
           air: int) -> tuple[int, np.ndarray, np.ndarray]:
    """The maze ``ids`` (y, z, x: global ids, its layer 0 the floor) made to follow ``ground``
    (z, x: the y one above each column's ground), as a taller volume of ids where :data:`KEEP`
    leaves the world's block. ``clear_top`` (z, x): the y one above the highest block of each
    column that is cleared above the maze; ``filler`` and ``air``: the ids of the floor's block and
    of air. Gives the volume's lowest y, the volume, and each column's floor height (a block
    entity at layer ``y`` of column ``(z, x)`` goes to ``y + floors[z, x]``).

    >>> y0, volume, floors = follow(np.full((2, 1, 2), 7), np.array([[10, 12]]), np.array([[10, 14]]), 3, 0)
    >>> y0, floors.tolist()
    (10, [[10, 11]])
    >>> volume[:, 0, 0].tolist(), volume[:, 0, 1].tolist()
    ([7, 7, -1, -1], [-1, 7, 7, 0])
    """
    height = ids.shape[0]
    floors = lifts(ground)
    y0 = int(min(floors.min(), ground.min()))
    top = int(max(floors.max() + height, clear_top.max()))
    ys = np.arange(y0, top).reshape(-1, 1, 1)
    out = np.full((top - y0,) + ids.shape[1:], KEEP, dtype=np.int32)
    out[(ys >= ground) & (ys < floors)] = filler
    out[(ys >= floors + height) & (ys < clear_top)] = air
    layer = ys - floors
    inside = (layer >= 0) & (layer < height)
    zs, xs = np.indices(ids.shape[1:])
    out[inside] = ids[layer.clip(0, height - 1), zs, xs][inside]
    return y0, out, floors


# a stair's facing is the way up it (its full half on that side), and the neighbour it faces
FACINGS = (("north", -1, 0), ("south", 1, 0), ("west", 0, -1), ("east", 0, 1))  # (z, x) steps


def stair_facings(floors: np.ndarray, walkable: np.ndarray) -> dict[str, np.ndarray]:
    """Which columns (z, x) get a stair for their floor block, by its facing: the walkable ones
    with a walkable neighbour one block higher (the first such neighbour in :data:`FACINGS`).

    >>> masks = stair_facings(np.array([[0, 1, 1]]), np.ones((1, 3), bool))
    >>> masks["east"].tolist(), bool(masks["west"].any())
    ([[True, False, False]], False)
    """
    length, width = floors.shape
    taken = np.zeros(floors.shape, bool)
    out = {}
    for facing, dz, dx in FACINGS:
        higher = np.zeros(floors.shape, bool)
        inner = np.s_[max(-dz, 0):length - max(dz, 0), max(-dx, 0):width - max(dx, 0)]
        outer = np.s_[max(dz, 0):length + min(dz, 0), max(dx, 0):width + min(dx, 0)]
        higher[inner] = walkable[inner] & walkable[outer] & (floors[outer] == floors[inner] + 1)
        out[facing] = higher & ~taken
        taken |= higher
    return out


def stepped(out: np.ndarray, y0: int, floors: np.ndarray, ids: np.ndarray, filler: int, air: int,
            stair: Callable[[str], int] | None) -> None:
    """Put a stair facing the way up in place of the floor block (``filler``: markers and lights
    stay) of each walkable column below a walkable neighbour (:func:`stair_facings`), so a rise of
    one block is two half steps, no jump; ``stair(facing)`` gives the stair's id (None: no stairs,
    the rises stay jumps). ``out`` is :func:`follow`'s volume from ``y0``, changed in place."""
    if stair is None or ids.shape[0] < 2:
        return
    walkable = (ids[1] == air) & (ids[0] != air)
    for facing, columns in stair_facings(floors, walkable).items():
        zs, xs = np.nonzero(columns & (ids[0] == filler))
        out[floors[zs, xs] - y0, zs, xs] = stair(facing)


def stair_state(theme_stair: str | None) -> Callable[[str], str] | None:
    """The theme's stair state with each facing (None: the theme has no stairs).

    >>> stair_state("minecraft:oak_stairs[facing=north,half=bottom]")("east")
    'minecraft:oak_stairs[facing=east,half=bottom]'
    """
    if not theme_stair or "facing=" not in theme_stair:
        return None
    import re

    return lambda facing: re.sub(r"facing=\w+", f"facing={facing}", theme_stair)


def column_tops(counted: np.ndarray) -> np.ndarray:
    """One above the highest True of each column of a (y, z, x) array, from its bottom (0 where
    none is).

    >>> column_tops(np.array([[[1, 0]], [[1, 0]], [[0, 0]]], bool)).tolist()
    [[2, 0]]
    """
    found = counted.any(axis=0)
    return np.where(found, counted.shape[0] - np.argmax(counted[::-1], axis=0), 0)


def footprint_of(states: np.ndarray, palette, cleared: frozenset[str]) -> tuple[np.ndarray, np.ndarray]:
    """The ground and the top of what is cleared (z, x), counted from the bottom of ``states``
    (y, z, x indices of ``palette``, the place a maze goes: a .schem of it)."""
    skip, keep = not_ground([state.split("[")[0] for state in palette], cleared)
    return column_tops(~skip[states]), column_tops(~keep[states])


def followed_schem(indices: np.ndarray, palette: list[str], entities: list, ground, clear: str | None,
                   theme_stair: str | None = None):
    """A .schem's ``indices`` (y, z, x) and ``palette`` made to follow the ground of ``ground``
    (a :class:`~blockmaze.blocks.prefab.Prefab` of the place: the Amulet operation's selection),
    from its bottom: the ground under the maze's footprint (its north-west corner), what ``clear``
    names cleared above. The positions the world keeps are ``minecraft:structure_void`` (the
    operation pastes around them); ``entities`` move with their columns."""
    from dataclasses import replace

    height, length, width = indices.shape
    if ground.shape[1] < length or ground.shape[2] < width:
        raise ParameterError(f"{{ground}} {ground.name} is {ground.shape[2]}x{ground.shape[1]} "
                             f"blocks, less than the maze's {width}x{length}")
    cleared = clear_set(clear)
    below, clear_top = footprint_of(ground.states[:, :length, :width], ground.palette, cleared)
    palette = list(palette)
    for state in ("minecraft:air", "minecraft:structure_void"):
        if state not in palette:
            palette.append(state)
    air, void = palette.index("minecraft:air"), palette.index("minecraft:structure_void")
    filler = floor_block(indices, air)
    y0, out, floors = follow(indices.astype(np.int32), below, clear_top, filler, air)
    stair_of = stair_state(theme_stair)
    if stair_of is not None:
        def stair(facing: str) -> int:
            if stair_of(facing) not in palette:
                palette.append(stair_of(facing))
            return palette.index(stair_of(facing))

        stepped(out, y0, floors, indices, filler, air, stair)
    out = np.concatenate([np.full((y0,) + out.shape[1:], KEEP, np.int32), out])
    out[out == KEEP] = void
    moved = [replace(e, position=(e.position[0] + int(floors[e.position[1], e.position[2]]),
                                  e.position[1], e.position[2])) for e in entities]
    return out, palette, moved


def check_headroom(ids: np.ndarray, air: int) -> None:
    """Refuse, in one line, a maze of several levels (air over a solid block over air in one
    column; a hollow wall's pockets, air between solid blocks, do not count), one whose passages do not stand on its bottom layer, and one whose passages have a
    ceiling less than three blocks over their floor: a jump up one block there is cut short
    (docs/minecraft.md §6.2).

    >>> check_headroom(np.array([[[1]], [[0]], [[0]], [[1]], [[0]]]), 0)
    Traceback (most recent call last):
    ...
    blockmaze.errors.ParameterError: terrain=follow moves each column of one level as a whole: a maze of several levels (layered, a weave's tunnels or bridges, a dungeon's) would lose its stairs and tunnels; give terrain=flat

    >>> check_headroom(np.array([[[1]], [[0]], [[0]], [[1]]]), 0)
    Traceback (most recent call last):
    ...
    blockmaze.errors.ParameterError: terrain=follow under a roof needs three blocks of air over the floor (a jump up a step of one needs them): give height=3 or more
    """
    empty = ids == air
    pocket = empty.copy()  # air between solid blocks over and under it: a hollow wall's pocket
    pocket[:-1] &= ~empty[1:]
    pocket[-1] = False
    pocket[1:] &= ~empty[:-1]
    empty &= ~pocket
    if ((empty[1:] & ~empty[:-1]).sum(axis=0) + empty[0] > 1).any():
        raise ParameterError("{terrain=follow} moves each column of one level as a whole: a maze "
                             "of several levels (layered, a weave's tunnels or bridges, a "
                             "dungeon's) would lose its stairs and tunnels; give {terrain=flat}")
    first = np.argmax(empty, axis=0)[empty.any(axis=0)]
    if first.size and int(np.bincount(first).argmax()) > 1:
        raise ParameterError(f"{{terrain=follow}} lays the maze's floor on the ground, and its "
                             f"passages stand {int(np.bincount(first).argmax()) - 1} blocks over "
                             f"its floor (a weave's, over its tunnels); give {{terrain=flat}}")
    open_ = empty[1:]
    if not len(open_):
        return
    capped = open_[0] & (~open_).any(axis=0)
    if (capped & (np.argmin(open_, axis=0) < 3)).any():
        raise ParameterError("{terrain=follow} under a roof needs three blocks of air over the "
                             "floor (a jump up a step of one needs them): give {height=3} or more")


def floor_block(ids: np.ndarray, air: int) -> int:
    """The block the ground is filled with up to each floor: the commonest of the maze's lowest
    layer (its floor; walls where there is none), once the maze's head room is checked.

    >>> floor_block(np.array([[[2, 2, 5]], [[0, 0, 1]]]), 0)
    2
    """
    check_headroom(ids, air)
    used, counts = np.unique(ids[0][ids[0] != air], return_counts=True)
    return int(used[np.argmax(counts)]) if len(used) else air


def check_follow(terrain: str | None, y: int | None, clear: str | None) -> frozenset[str]:
    """What ``--into`` clears, or one line on a choice that does not fit: ``--terrain`` is flat
    or follow there, ``--y`` and ``--clear`` need the one and the other.

    >>> check_follow("follow", None, "trees")
    frozenset({'trees'})
    >>> check_follow("grass", None, None)
    Traceback (most recent call last):
    ...
    blockmaze.errors.ParameterError: into builds on the world's own ground: terrain=flat (one level, the default) or terrain=follow, not grass
    """
    if terrain not in (None, "flat", "follow"):
        raise ParameterError(f"{{into}} builds on the world's own ground: {{terrain=flat}} (one "
                             f"level, the default) or {{terrain=follow}}, not {terrain}")
    if terrain == "follow" and y is not None:
        raise ParameterError("{terrain=follow} puts each column on the ground under it: leave out "
                             "{y} (or give {terrain=flat})")
    if terrain != "follow" and clear:
        raise ParameterError("{clear} clears trees and water where the floor follows the ground: "
                             "give {terrain=follow} with it")
    return clear_set(clear)


def no_follow_here(where: str) -> BlockmazeError:
    """The one line for ``--terrain follow`` where there is no ground to follow."""
    return ParameterError(f"{{terrain=follow}} builds on an existing world's ground: give "
                          f"{{into}} WORLD (or use the Amulet operation); {where} gets void, flat "
                          f"or grass")
