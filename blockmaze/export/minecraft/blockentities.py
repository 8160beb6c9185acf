"""What a dungeon's spawn points hold in Minecraft: the block entities of its chests and spawners.

A volume's MONSTER, ITEM and TREASURE blocks (a dungeon's ``--spawns``) are drawn by the theme,
by default as a mob spawner and two chests (:data:`~blockmaze.materials.DEFAULT_MINECRAFT`).
:func:`block_entities` gives each the data the game keeps beside the block (docs/minecraft.md,
"Spawn points"):

* a chest (or trapped chest, or barrel) of an ITEM holds the vanilla loot table
  ``minecraft:chests/simple_dungeon`` (what a dungeon's chests hold), one of a TREASURE
  ``minecraft:chests/buried_treasure`` (1.13+; ``chests/desert_pyramid`` before): the game fills
  the chest from the table when a player first opens it;
* a spawner of a MONSTER spawns one mob, drawn from zombie, skeleton and spider 2 : 1 : 1 (as
  vanilla dungeons draw theirs) from the seed and the block's position (the same in every format),
  written as ``SpawnData`` and a one-entry ``SpawnPotentials`` in the release's layout
  (``{entity: {id}}`` from 1.18, ``{id}`` before).

A block the theme draws otherwise (a custom theme's gold block for treasure) has no block entity.
Bedrock keeps the same facts its own way (:func:`bedrock_entity`): a ``Chest`` with the loot
table's file in the behaviour pack, a ``MobSpawner`` with ``EntityIdentifier``.

Example
-------
>>> import numpy as np
>>> from blockmaze.materials import Material
>>> blocks = np.array([[[Material.ITEM, Material.WALL]]], np.uint8)
>>> [(e.position, e.id, str(e.data["LootTable"])) for e in block_entities(
...     blocks, np.array([[[1, 0]]]), ["minecraft:stone_bricks", "minecraft:chest[facing=north]"])]
[((0, 0, 0), 'minecraft:chest', 'minecraft:chests/simple_dungeon')]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from nbtlib import Byte, Compound, Int, List, String

from ...materials import Material
from .versions import DATA_VERSIONS, DEFAULT_MC_VERSION

LOOT_TABLES = {Material.ITEM: "minecraft:chests/simple_dungeon",
               Material.TREASURE: "minecraft:chests/buried_treasure"}
OLD_TREASURE = "minecraft:chests/desert_pyramid"  # before 1.13 added buried treasure
MOBS = (("minecraft:zombie", 2), ("minecraft:skeleton", 1), ("minecraft:spider", 1))
CONTAINERS = {"minecraft:chest": "minecraft:chest", "minecraft:trapped_chest": "minecraft:trapped_chest",
              "minecraft:barrel": "minecraft:barrel"}  # block -> block entity id
SPAWNER, SPAWNER_ID = "minecraft:spawner", "minecraft:mob_spawner"
ENTITY_WRAPPED_FROM = 2860  # 1.18: SpawnData became {entity: {...}}, SpawnPotentials {weight, data}
BURIED_TREASURE_FROM = 1519  # 1.13

SPAWNS = np.zeros(256, dtype=bool)
SPAWNS[[Material.MONSTER, Material.ITEM, Material.TREASURE]] = True


@dataclass(frozen=True)
class BlockEntity:
    """One block entity: ``position`` (y, z, x) in the volume, its ``id`` and its other fields."""

    position: tuple[int, int, int]
    id: str
    data: Compound

    def tag(self) -> Compound:
        """``id`` and the fields in one compound, as structures, litematics and the game keep it."""
        return Compound({"id": String(self.id), **self.data})


BEDROCK_IDS = {"minecraft:chest": "Chest", "minecraft:trapped_chest": "Chest", "minecraft:barrel": "Barrel",
               SPAWNER_ID: "MobSpawner"}


def bedrock_entity(entity: BlockEntity) -> Compound:
    """A Java block entity as Bedrock's ``block_entity_data``: its id, ``x``, ``y``, ``z`` in
    the structure, and the loot table's file (``loot_tables/chests/<name>.json``) or the
    spawner's ``EntityIdentifier``.

    >>> e = BlockEntity((1, 2, 3), "minecraft:chest", Compound({"LootTable": String("minecraft:chests/simple_dungeon")}))
    >>> str(bedrock_entity(e)["LootTable"])
    'loot_tables/chests/simple_dungeon.json'
    """
    y, z, x = entity.position
    tag = Compound({"id": String(BEDROCK_IDS[entity.id]), "isMovable": Byte(1),
                    "x": Int(x), "y": Int(y), "z": Int(z)})
    if "LootTable" in entity.data:
        tag["LootTable"] = String(f"loot_tables/{str(entity.data['LootTable']).partition(':')[2]}.json")
    if entity.id == SPAWNER_ID:
        data = entity.data["SpawnData"]
        tag["EntityIdentifier"] = String(str(data["entity"]["id"] if "entity" in data else data["id"]))
    return tag


def mob_at(seed: int | None, position: tuple[int, int, int]) -> str:
    """The mob a spawner at (y, z, x) spawns: drawn from :data:`MOBS` by the seed and the
    position alone (the first mob without a seed).

    >>> mob_at(None, (0, 0, 0)), mob_at(3, (1, 2, 3)) == mob_at(3, (1, 2, 3))
    ('minecraft:zombie', True)
    """
    from .palette import variant_draws

    if seed is None:
        return MOBS[0][0]
    u = float(variant_draws(seed, (1, 1), position)[0, 0])
    weights = np.array([w for _, w in MOBS], dtype=np.float64)
    pick = int(np.searchsorted(np.cumsum(weights / weights.sum()), u, side="right"))
    return MOBS[min(pick, len(MOBS) - 1)][0]


def spawner_data(mob: str, mc_version: str = DEFAULT_MC_VERSION) -> Compound:
    """A spawner's fields for one mob, in the layout of release ``mc_version``.

    >>> spawner_data("minecraft:spider", "1.20.4")["SpawnData"]
    Compound({'entity': Compound({'id': String('minecraft:spider')})})
    >>> spawner_data("minecraft:spider", "1.16.5")["SpawnPotentials"][0]["Weight"]
    Int(1)
    """
    entity = Compound({"id": String(mob)})
    if _data_version(mc_version) >= ENTITY_WRAPPED_FROM:
        return Compound({"SpawnData": Compound({"entity": entity}),
                         "SpawnPotentials": List[Compound]([Compound({
                             "weight": Int(1), "data": Compound({"entity": Compound({"id": String(mob)})})})])})
    return Compound({"SpawnData": entity,
                     "SpawnPotentials": List[Compound]([Compound({
                         "Weight": Int(1), "Entity": Compound({"id": String(mob)})})])})


def loot_table(material: int, mc_version: str = DEFAULT_MC_VERSION) -> str:
    """The vanilla loot table of an ITEM or TREASURE chest in release ``mc_version``.

    >>> loot_table(Material.TREASURE, "1.20.4"), loot_table(Material.TREASURE, "1.12.2")
    ('minecraft:chests/buried_treasure', 'minecraft:chests/desert_pyramid')
    """
    table = LOOT_TABLES[Material(material)]
    if material == Material.TREASURE and _data_version(mc_version) < BURIED_TREASURE_FROM:
        return OLD_TREASURE
    return table


def _data_version(mc_version: str) -> int:
    """The release's DataVersion; one before 1.13 (the legacy format's 1.12) counts as 0."""
    return DATA_VERSIONS.get(mc_version, 0)


def block_entities(blocks: np.ndarray, indices: np.ndarray, palette: list[str], seed: int | None = None,
                   mc_version: str = DEFAULT_MC_VERSION, origin: tuple[int, int, int] = (0, 0, 0)
                   ) -> list[BlockEntity]:
    """The block entities of the spawn points of a (y, z, x) volume whose blocks are drawn as
    ``palette[indices]`` (what :func:`~.palette.minecraft_palette` returns), in y, z, x order.
    ``origin`` is the (y, z, x) of ``blocks[0, 0, 0]`` in the whole maze (for the mob draw)."""
    from .palette import lookup

    found: list[BlockEntity] = []
    blocks = np.asarray(blocks, dtype=np.uint8)
    low, high = (int(blocks.min()), int(blocks.max())) if blocks.size else (1, 0)
    if not any(low <= v <= high for v in np.flatnonzero(SPAWNS)):
        return found  # no block in the spawn materials' range: no search
    spawns = np.flatnonzero(lookup(SPAWNS, blocks))
    for y, z, x in zip(*np.unravel_index(spawns, blocks.shape), strict=True):
        material = int(blocks[y, z, x])
        name = palette[int(indices[y, z, x])].partition("[")[0]
        position = (int(y), int(z), int(x))
        if material == Material.MONSTER and name == SPAWNER:
            mob = mob_at(seed, (origin[0] + y, origin[1] + z, origin[2] + x))
            found.append(BlockEntity(position, SPAWNER_ID, spawner_data(mob, mc_version)))
        elif material in LOOT_TABLES and name in CONTAINERS:
            found.append(BlockEntity(position, CONTAINERS[name],
                                     Compound({"LootTable": String(loot_table(material, mc_version))})))
    return found
