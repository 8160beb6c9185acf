"""``generate_dungeon``: any level style, levels joined by stairs, then lock, spawns, metrics.

Every style makes levels of the same size from ``shape = (rows, cols)`` cells: a plan of
``(2 rows + 1, 2 cols + 1)`` blocks with a rock border, so styles are interchangeable (and stack
into one volume). ``rooms-and-mazes`` is :mod:`~blockmaze.dungeon.rooms_and_mazes`; the other
styles (:mod:`caves`, :mod:`bsp`, :mod:`digger`, :mod:`mixed`) carve a raw plan that
:func:`~blockmaze.dungeon.connect.finish` makes one walkable region, keeping the start given
(the previous level's goal), with the goal the block farthest from it.

**Stairs**: level ``i``'s goal is level ``i + 1``'s start, both STAIRS; their :class:`Entity`
says ``direction`` (``down`` on level ``i``, ``up`` on level ``i + 1``) and ``level``, the
1-based level they lead to. Then per level: ``lock=True`` puts a locked door and its key
(:func:`~blockmaze.dungeon.spawns.lock_and_key`; none where no single block cuts the goal
off), ``spawns=(monsters, items, treasure)`` places them ``spacing`` apart, and ``metrics``
(:mod:`~blockmaze.dungeon.metrics`) are measured.

Example
-------
>>> d = generate_dungeon((15, 20), 5, style="caves", levels=2, spawns=(3, 2, 1), lock=True)
>>> [e.properties["direction"] for e in d.levels[1].entities if e.kind == "stairs"]
['up']
>>> d.levels[0].goal == d.levels[1].start
True
"""

from __future__ import annotations

from dataclasses import replace
from numbers import Integral

import numpy as np

from ..errors import BlockmazeError
from ..materials import Material
from ..support.randomness import as_generator
from ..support.memory import ensure_memory
from . import bsp, caves, digger, mixed, rooms_and_mazes
from .checks import cells_shape, room_size_range, whole
from .connect import finish
from ..entities import Entity
from .level import Dungeon, DungeonLevel
from .metrics import level_metrics
from .spawns import lock_and_key, place_spawns

# style -> (carve function, pockets smaller than this are filled)
CARVERS = {"caves": (caves.carve, caves.MIN_POCKET), "bsp": (bsp.carve, 1),
           "digger": (digger.carve, 1), "mixed": (mixed.carve, caves.MIN_POCKET)}
STYLES = ("rooms-and-mazes", *CARVERS)
# rooms-and-mazes options and their defaults: other styles refuse them unless left at these
MAZE_OPTIONS = {"algorithm": "backtracker", "room_attempts": None, "extra_doors": 0.0,
                "sparseness": 1.0, "min_shortcut": None, "loop_chance": 1.0}
_BYTES_PER_BLOCK = 64  # peak working memory per plan block: carving, joining, lock, metrics


def generate_dungeon(shape, rng=None, *, style: str = "rooms-and-mazes", levels: int = 1,
                     room_size=(2, 5), spawns=None, spacing: int = 5, lock: bool = False,
                     metrics: bool = True, **options) -> Dungeon:
    """A dungeon of ``levels`` levels in ``style`` (see the module notes).

    ``room_size`` is in cells as in rooms-and-mazes (a side of ``n`` cells is ``2n - 1``
    blocks); ``options`` are rooms-and-mazes' own (``algorithm``, ``room_attempts``,
    ``extra_doors``, ``sparseness``, ``min_shortcut``, ``loop_chance``).
    """
    if style not in STYLES:
        raise BlockmazeError(f"unknown dungeon style {style!r}; choose one of: {', '.join(STYLES)}")
    unknown = set(options) - set(MAZE_OPTIONS)
    if unknown:
        raise BlockmazeError(f"generate_dungeon does not take {', '.join(sorted(unknown))}")
    counts = _spawn_counts(spawns)
    if isinstance(spacing, bool) or not isinstance(spacing, Integral) or spacing < 1:
        raise BlockmazeError(f"spacing must be a whole number of blocks >= 1, got {spacing!r}")
    rows, cols = cells_shape(shape)
    ensure_memory((2 * rows + 1) * (2 * cols + 1) * _BYTES_PER_BLOCK, f"a {rows}x{cols}-cell dungeon")
    generator = as_generator(rng)
    if style == "rooms-and-mazes":
        made = rooms_and_mazes.rooms_and_mazes_dungeon(shape, generator, room_size=room_size,
                                                       levels=levels, **options).levels
    else:
        changed = [k for k, v in options.items() if v != MAZE_OPTIONS[k]]
        if changed:
            raise BlockmazeError(f"{', '.join(sorted(changed))} shape rooms-and-mazes levels only, "
                                 f"not {style}")
        lo, hi = room_size_range(room_size)
        levels = whole(levels, "levels", 1)
        made = _carved_levels(style, (2 * rows + 1, 2 * cols + 1), (2 * lo - 1, 2 * hi - 1),
                              levels, generator)
    finished = []
    for index, level in enumerate(made):
        finished.append(_furnish(level, index, len(made), style, generator, counts, int(spacing),
                                 lock, metrics))
    return Dungeon(tuple(finished))


def _carved_levels(style, size, room_size, levels, rng):
    carve, min_pocket = CARVERS[style]
    made, start = [], None
    for index in range(levels):
        plan, rooms = carve(*size, rng, room_size=room_size)
        plan, start, goal = finish(plan, start, min_pocket)
        plan[start] = Material.START if index == 0 else Material.STAIRS
        plan[goal] = Material.GOAL if index == levels - 1 else Material.STAIRS
        doors = np.argwhere(plan == Material.DOOR).astype(np.int64)
        made.append(DungeonLevel(plan, rooms.astype(np.int64), doors, np.empty((0, 2), np.int64),
                                 start, goal, style))
        start = goal
    return made


def _furnish(level: DungeonLevel, index: int, levels: int, style: str, rng,
             counts: tuple[int, int, int] | None, spacing, lock, metrics) -> DungeonLevel:
    """The level with its stairs, lock and key, spawns and metrics."""
    plan = level.plan
    entities = []
    if index > 0:
        entities.append(Entity("stairs", *level.start, {"direction": "up", "level": index}))
    if index < levels - 1:
        entities.append(Entity("stairs", *level.goal, {"direction": "down", "level": index + 2}))
    taken = [level.goal]
    if lock:
        found = lock_and_key(plan, level.start, level.goal, rng)
        if found is not None:
            door, key = found
            plan[door] = Material.DOOR
            entities.append(Entity("door", *door, {"locked": True, "key": 1}))
            entities.append(Entity("key", *key, {"key": 1}))  # (Tiled reserves "id")
            taken += [door, key]
    if counts is not None:
        stairs = [(e.z, e.x) for e in entities if e.kind == "stairs"]
        entities += place_spawns(plan, level.start, level.rooms, rng, *counts, spacing=spacing,
                                 taken=taken, stairs=stairs)
    doors = np.argwhere(plan == Material.DOOR).astype(np.int64)
    measured = level_metrics(plan, level.rooms, level.start) if metrics else {}
    return replace(level, doors=doors, style=style, entities=tuple(entities), metrics=measured)


def _spawn_counts(spawns) -> tuple[int, int, int] | None:
    if spawns is None:
        return None
    try:
        counts = tuple(spawns)
    except TypeError:
        counts = ()
    if len(counts) != 3 or any(isinstance(c, bool) or not isinstance(c, Integral) or c < 0 for c in counts):
        raise BlockmazeError(f"spawns are three whole numbers >= 0 (monsters, items, treasure), got {spawns!r}")
    monsters, items, treasure = (int(c) for c in counts)
    return monsters, items, treasure


def parse_spawns(text: str | None):
    """``"MONSTERS:ITEMS:TREASURE"`` as three counts (None stays None).

    >>> parse_spawns("8:4:2")
    (8, 4, 2)
    >>> parse_spawns("8:x")
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: --spawns is MONSTERS:ITEMS:TREASURE, three whole numbers >= 0 (e.g. 8:4:2), got '8:x'
    """
    if text is None:
        return None
    parts = text.split(":")
    if len(parts) != 3 or not all(p.strip().isdigit() for p in parts):
        raise BlockmazeError(f"--spawns is MONSTERS:ITEMS:TREASURE, three whole numbers >= 0 "
                             f"(e.g. 8:4:2), got {text!r}")
    return tuple(int(p) for p in parts)
