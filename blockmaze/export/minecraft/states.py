"""Block states that depend on where a block stands: the one place every Minecraft writer gets them.

:func:`minecraft_palette` draws each material's state from the theme; :func:`place_states` then
adjusts the states whose properties depend on the neighbours, from the volume and the rules of
:mod:`blockmaze.blocks.orientation`:

* a door block (``*_door``) gets ``half`` (lower where the block below is not DOOR, else upper),
  ``facing`` along its passage (see :func:`~blockmaze.blocks.orientation.passage_axis`) and
  ``hinge=left``; a closed door blocks its passage and opens along it;
* a fence gate (``*_fence_gate``) gets ``facing`` along its passage (the theme's ``open`` stays);
* a stair block (``*_stairs``) gets ``facing`` toward where it rises
  (:func:`~blockmaze.blocks.orientation.stair_facing`), ``half=bottom``, ``shape=straight``;
  in a shaft (a column of STAIRS, where a one-block cell has no room for a flight) it becomes
  the ``climb`` block instead: scaffolding, or a ladder before 1.14;
* a ladder gets ``facing`` away from the first solid block beside it (north, east, south, west);
  one with no block beside it (a shaft in a crossroads cell, a spiral step) would fall off:
  that is an error that says how to avoid it;
* a block that needs support (falling blocks: gravel, sand, concrete powder; blocks that pop off:
  carpets, torches, pressure plates, rails, snow layers) placed over AIR becomes a block that
  stands alone: gravel → cobblestone, sand → sandstone, red sand → red sandstone, concrete
  powder → concrete of its colour; anything else → the theme's floor block. (In a layered maze
  the solution marks the upper floors, whose blocks lie over the air of the level below.)

Writers turn the Java states into their own (Bedrock states, 1.12 data values) from there.

Example
-------
>>> import numpy as np
>>> v = np.zeros((3, 1, 3), np.uint8)
>>> v[0], v[1:, 0, ::2] = 2, 1          # floor, walls west and east
>>> v[1:, 0, 1] = 7                     # a door, lower and upper half
>>> idx, pal = place_states(v, np.where(v == 7, 1, 0).astype(np.uint8),
...                         ["minecraft:air", "minecraft:oak_door"], "minecraft:stone")
>>> [pal[i] for i in idx[1:, 0, 1]]
['minecraft:oak_door[facing=north,half=lower,hinge=left,open=false,powered=false]', \
'minecraft:oak_door[facing=north,half=upper,hinge=left,open=false,powered=false]']
"""

from __future__ import annotations

import re

import numpy as np

from ...blocks.orientation import NAMES, NONE, NORTH, ladder_facing, passage_axis, stair_facing
from ...errors import BlockmazeError
from ...materials import Material

# what a shaft is climbed on where the theme's stairs are stair blocks (a ladder before 1.14)
CLIMB = "minecraft:scaffolding[bottom=false,distance=0,waterlogged=false]"
STANDS_ALONE = {
    "minecraft:gravel": "minecraft:cobblestone",
    "minecraft:sand": "minecraft:sandstone",
    "minecraft:red_sand": "minecraft:red_sandstone",
    "minecraft:suspicious_gravel": "minecraft:cobblestone",
    "minecraft:suspicious_sand": "minecraft:sandstone",
}
_NEEDS_SUPPORT = re.compile(
    r"^minecraft:(.*_concrete_powder|.*_carpet|moss_carpet|(.*_)?torch|.*_pressure_plate|"
    r"(.*_)?rail|snow|anvil|chipped_anvil|damaged_anvil|dragon_egg|pointed_dripstone)$"
)


def parse_state(state: str) -> tuple[str, dict[str, str]]:
    """A block-state string split into its block name and properties.

    >>> parse_state("minecraft:oak_door[half=upper,facing=east]")
    ('minecraft:oak_door', {'half': 'upper', 'facing': 'east'})
    """
    name, _, rest = state.partition("[")
    properties = {}
    for pair in filter(None, rest.rstrip("]").split(",")):
        key, _, value = pair.partition("=")
        properties[key] = value
    return name, properties


def needs_support(name: str) -> bool:
    """True for blocks that fall or pop off without a block below them.

    >>> [needs_support(f"minecraft:{name}") for name in ("gravel", "red_carpet", "stone")]
    [True, True, False]
    """
    return name in STANDS_ALONE or bool(_NEEDS_SUPPORT.match(name))


def supported_state(state: str, floor_state: str) -> str:
    """The state that stands where ``state`` would lack support.

    >>> supported_state("minecraft:lime_concrete_powder", "minecraft:stone")
    'minecraft:lime_concrete'
    >>> supported_state("minecraft:white_carpet", "minecraft:stone")
    'minecraft:stone'
    """
    name, _ = parse_state(state)
    if name in STANDS_ALONE:
        return STANDS_ALONE[name]
    if name.endswith("_concrete_powder"):
        return name[: -len("_powder")]
    return floor_state


def with_properties(state: str, changes: dict[str, str]) -> str:
    """``state`` with some properties set (added or replaced), properties sorted by name.

    >>> with_properties("minecraft:oak_fence_gate[facing=north,open=true]", {"facing": "east"})
    'minecraft:oak_fence_gate[facing=east,open=true]'
    """
    name, properties = parse_state(state)
    properties.update(changes)
    if not properties:
        return name
    return name + "[" + ",".join(f"{k}={properties[k]}" for k in sorted(properties)) + "]"


def _door_codes(volume):
    """1 + facing + 4 * upper for DOOR blocks (0 elsewhere)."""
    door = volume == Material.DOOR
    axis = passage_axis(volume, Material.DOOR)
    axis[axis == NONE] = NORTH
    upper = np.zeros_like(door)
    upper[1:] = door[:-1]
    return np.where(door, 1 + axis.astype(np.int32) + 4 * upper, 0)


def _stair_codes(volume):
    """1 + stair facing + 5 * ladder facing for STAIRS blocks (NONE as 4; 25 more in a shaft),
    0 elsewhere."""
    stairs = volume == Material.STAIRS
    shaft = np.zeros_like(stairs)
    shaft[1:] |= stairs[:-1]
    shaft[:-1] |= stairs[1:]
    rise = np.minimum(stair_facing(volume), 4).astype(np.int32)
    ladder = np.minimum(ladder_facing(volume), 4).astype(np.int32)
    return np.where(stairs, 1 + rise + 5 * ladder + 25 * (stairs & shaft), 0)


def _adjust(state: str, material: int, code: int, climb: str) -> str:
    name, _ = parse_state(state)
    if material == Material.DOOR:
        code -= 1
        facing, upper = NAMES[code % 4], code >= 4
        if name.endswith("_door"):
            _, properties = parse_state(state)
            return with_properties(state, {"facing": facing, "half": "upper" if upper else "lower",
                                           "hinge": "left", "open": properties.get("open", "false"),
                                           "powered": "false"})
        if name.endswith("_fence_gate"):
            return with_properties(state, {"facing": facing})
        return state
    if material == Material.STAIRS:
        code -= 1
        rise, ladder, shaft = code % 5, code // 5 % 5, code >= 25
        if name.endswith("_stairs") and shaft:
            state, name = climb, parse_state(climb)[0]
        if name.endswith("_stairs"):
            return with_properties(state, {"facing": NAMES[rise % 4], "half": "bottom", "shape": "straight"})
        if name == "minecraft:ladder":
            if ladder == 4:
                raise BlockmazeError(
                    "a ladder would have no wall to hang on (a spiral step, or a shaft in a crossroads "
                    "cell one block wide): draw stairs with a stair block, or use --passage 2 "
                    "(spiral stairs) or --mc-version 1.14 or later (scaffolding in shafts)")
            return with_properties(state, {"facing": NAMES[ladder]})
    return state


def place_states(volume: np.ndarray, indices: np.ndarray, palette: list[str],
                 floor_state: str, climb: str = CLIMB,
                 present: np.ndarray | None = None) -> tuple[np.ndarray, list[str]]:
    """Indices and palette with neighbour-dependent states resolved (see the module docstring).

    ``floor_state`` replaces support-needing blocks that have nothing to stand on (except those
    with a standing counterpart). Entries no block uses any more are dropped; the order of the
    others is kept, new entries follow. ``present``: the materials in ``volume``, if known.
    """
    volume = np.asarray(volume, dtype=np.uint8)
    if volume.ndim != 3:
        return indices, palette
    if present is None:
        doors, stairs = (volume == Material.DOOR).any(), (volume == Material.STAIRS).any()
    else:
        doors, stairs = Material.DOOR in present, Material.STAIRS in present
    falls = np.array([needs_support(parse_state(s)[0]) for s in palette] + [False], dtype=bool)
    if not (doors or stairs or falls.any()):  # nothing to resolve: no whole-volume temporaries
        return indices, palette
    codes = np.zeros(volume.shape, dtype=np.int32)
    if doors:
        codes += _door_codes(volume)
    if stairs:
        codes += _stair_codes(volume)
    unsupported = np.zeros(volume.shape, dtype=bool)
    unsupported[1:] = falls[indices[1:]] & (volume[:-1] == Material.AIR)
    touched = (codes > 0) | unsupported
    if not touched.any():
        return indices, palette
    # only the touched blocks: (palette index, code) pairs, code 63 for "needs support"
    keys = indices[touched].astype(np.int64) * 64 + np.where(unsupported[touched], 63, codes[touched])
    # (codes stay below 63: doors 1..8, stairs 1..50)
    unique, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    materials = volume[touched][first]
    states = []
    for key, material in zip(unique.tolist(), materials.tolist(), strict=True):
        index, code = divmod(key, 64)
        state = palette[index]
        states.append(supported_state(state, floor_state) if code == 63
                      else _adjust(state, material, code, climb))
    kept = np.bincount(indices[~touched].ravel(), minlength=len(palette)) > 0
    final = [state for state, used in zip(palette, kept, strict=True) if used]  # the original order, then new ones
    final += [state for state in dict.fromkeys(states) if state not in final]
    position = {state: i for i, state in enumerate(final)}
    old = np.array([position.get(state, 0) for state in palette], dtype=np.int64)
    new = old[indices]
    new[touched] = np.array([position[state] for state in states], dtype=np.int64)[inverse.ravel()]
    dtype = np.uint8 if len(final) <= 256 else np.uint16
    return new.astype(dtype), final
