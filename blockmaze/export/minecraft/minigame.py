"""A maze minigame in a datapack: N layouts of one size, a timer and the best times.

The datapack writer (:mod:`.datapack`) builds each layout with its own ``/fill`` functions
(``layout_<k>/build`` and the parts it schedules); this module writes the game around them, as
command lines (docs/minecraft.md, "A maze minigame"):

* ``build`` (run by a player standing where layout 1's way in should be, as in a plain pack):
  turns the player to face in, summons the **arena** marker at the maze's min corner (block
  aligned) and builds layout 1 from it;
* ``next``: builds the next layout over the same box (every block of it is filled, air
  included, so the last layout is cleared), cycling 1, 2, ..., N, 1; run first, it does what
  ``build`` does;
* ``load`` (the ``#minecraft:load`` tag): the scoreboard objectives, the sidebar;
* ``tick`` (the ``#minecraft:tick`` tag, 20 times a second): a player on the start plate is
  ready (state 1, time 0); the first tick they are off it they run (state 2); a running player's
  time goes up by one each tick; on the finish plate ``on_finish`` keeps their best
  (``scoreboard players operation ... < ...``) and tells everyone the time in seconds.

A layout's ``done`` (its last blocks placed) puts the plates on its start and finish, moves the
start and finish markers there, stops every run and clears the best times: the sidebar shows
the best times of the layout being played.
"""

from __future__ import annotations

import hashlib
import json

NAMESPACE = "blockmaze"
ARENA_TAG = "blockmaze_arena"
START_TAG = "blockmaze_start"
FINISH_TAG = "blockmaze_finish"
TIME, BEST, STATE = "blockmaze_time", "blockmaze_best", "blockmaze_state"
DATA, SECONDS, HUNDREDTHS = "blockmaze_data", "blockmaze_sec", "blockmaze_cs"  # <= 16 characters
START_PLATE = "minecraft:light_weighted_pressure_plate"  # gold
FINISH_PLATE = "minecraft:heavy_weighted_pressure_plate"  # iron
TICKS_PER_SECOND = 20
MAX_LAYOUTS = 64
MAX_SEED = 2**32 - 1


def layout_seed(seed: int, index: int) -> int:
    """The seed of layout ``index`` (0 for the first) of a minigame drawn from ``seed``: the first
    is the seed itself, the others a hash of the seed and the index alone.

    >>> layout_seed(7, 0), layout_seed(7, 1) == layout_seed(7, 1), layout_seed(7, 1) != layout_seed(8, 1)
    (7, True, True)
    """
    if index == 0:
        return seed
    digest = hashlib.sha256(f"blockmaze minigame {seed} {index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % (MAX_SEED + 1)


def _say(*parts: dict | str, to: str = "@a") -> str:
    components = [{"text": p} if isinstance(p, str) else p for p in parts]
    return f"tellraw {to} " + json.dumps([{"text": "[blockmaze] "}, *components])


def _score(name: str, objective: str) -> dict:
    return {"score": {"name": name, "objective": objective}}


def game_functions(layouts: int, entity: str, spot: tuple[int, int, int], yaw: int | None,
                   ends: list[tuple[tuple[int, int, int], tuple[int, int, int]]]) -> dict[str, list[str]]:
    """The game's functions (name -> command lines) for ``layouts`` layouts.

    ``entity`` is the marker entity's type (``minecraft:marker``, an armor stand before 1.17);
    ``spot`` (y, z, x) where the player stands relative to layout 1's min corner, ``yaw`` the way
    they turn to face in; ``ends`` each layout's start and finish block (y, z, x, where the
    player stands, relative to the min corner).
    """
    def marker(tag: str, at: str) -> str:  # a summon's entity, position and fields
        extra = "" if entity == "minecraft:marker" else \
            ",Marker:1b,Invisible:1b,NoGravity:1b,Invulnerable:1b"
        return f"{entity} {at} {{Tags:[\"{tag}\"]{extra}}}"

    def chosen(tag: str, near: bool = False) -> str:
        return f"@e[type={entity},tag={tag}{',distance=..1' if near else ''}]"

    arena = chosen(ARENA_TAG)[:-1] + ",limit=1]"
    y, z, x = spot
    build = ["# Sets the arena at the maze's min corner, seen from where the player stands "
             "outside layout 1's way in, and builds layout 1."]
    if yaw is not None:
        build.append(f"tp @s ~ ~ ~ {yaw} 0")
    build += [f"kill {chosen(ARENA_TAG)}",
              f"execute align xyz run summon {marker(ARENA_TAG, f'~{-x} ~{-y} ~{-z}')}",
              f"scoreboard players set #layout {DATA} 1",
              f"execute as {arena} at @s run function {NAMESPACE}:layout_1/build"]
    functions = {
        "build": build,
        "next": [
            "# Builds the next layout over the last one (the first, from where the player stands, "
            "if there is no arena yet).",
            f"scoreboard players set #fresh {DATA} 0",
            f"execute unless entity {chosen(ARENA_TAG)} run scoreboard players set #fresh {DATA} 1",
            f"execute if score #fresh {DATA} matches 1 run function {NAMESPACE}:build",
            f"execute if score #fresh {DATA} matches 0 run function {NAMESPACE}:advance",
        ],
        "advance": [
            f"# The next of the {layouts} layouts, built from the arena marker.",
            f"scoreboard players add #layout {DATA} 1",
            f"execute if score #layout {DATA} matches {layouts + 1}.. run scoreboard players set "
            f"#layout {DATA} 1",
        ] + [f"execute if score #layout {DATA} matches {k} as {arena} at @s run function "
             f"{NAMESPACE}:layout_{k}/build" for k in range(1, layouts + 1)],
        "load": [
            "# The scoreboard: each player's run time and best time in ticks, a state "
            "(0 idle, 1 on the start, 2 running), the sidebar.",
            f"scoreboard objectives add {TIME} dummy",
            f"scoreboard objectives add {BEST} dummy " + json.dumps(
                {"text": f"Best time (ticks, {TICKS_PER_SECOND} = 1 s)"}),
            f"scoreboard objectives add {STATE} dummy",
            f"scoreboard objectives add {DATA} dummy",
            f"scoreboard objectives add {SECONDS} dummy",
            f"scoreboard objectives add {HUNDREDTHS} dummy",
            f"scoreboard objectives setdisplay sidebar {BEST}",
            f"scoreboard players set #ticks {DATA} {TICKS_PER_SECOND}",
            f"scoreboard players set #hundred {DATA} {100 // TICKS_PER_SECOND}",
        ],
        "tick": [
            "# Every tick: time the running players, start and finish runs.",
            f"scoreboard players add @a[scores={{{STATE}=2}}] {TIME} 1",
            f"execute as @a[scores={{{STATE}=1}}] at @s unless entity {chosen(START_TAG, True)} run "
            f"scoreboard players set @s {STATE} 2",
            f"execute as @a at @s if entity {chosen(START_TAG, True)} run function {NAMESPACE}:on_start",
            f"execute as @a[scores={{{STATE}=2}}] at @s if entity {chosen(FINISH_TAG, True)} run "
            f"function {NAMESPACE}:on_finish",
        ],
        "on_start": [
            "# A player on the start: ready, the clock at 0 until they step off.",
            f"scoreboard players set @s {STATE} 1",
            f"scoreboard players set @s {TIME} 0",
        ],
        "on_finish": [
            "# A player reached the finish: keep the best time, say the time in seconds.",
            f"scoreboard players set @s {STATE} 0",
            f"execute unless score @s {BEST} matches 0.. run scoreboard players operation @s {BEST} "
            f"= @s {TIME}",
            f"scoreboard players operation @s {BEST} < @s {TIME}",
            f"scoreboard players operation @s {SECONDS} = @s {TIME}",
            f"scoreboard players operation @s {SECONDS} /= #ticks {DATA}",
            f"scoreboard players operation @s {HUNDREDTHS} = @s {TIME}",
            f"scoreboard players operation @s {HUNDREDTHS} %= #ticks {DATA}",
            f"scoreboard players operation @s {HUNDREDTHS} *= #hundred {DATA}",
        ] + [f"execute if score @s {HUNDREDTHS} matches {scores} run " + _say(
            {"selector": "@s"}, " reached the finish in ", _score("@s", SECONDS), dot,
            _score("@s", HUNDREDTHS), " s (", _score("@s", TIME), " ticks; best ",
            _score("@s", BEST), ")") for scores, dot in (("10..", "."), ("..9", ".0"))],
    }
    for k, ((sy, sz, sx), (fy, fz, fx)) in enumerate(ends, 1):
        functions[f"layout_{k}/ready"] = [
            f"# Layout {k} is built: plates and markers on its start and finish, every run stopped.",
            f"kill {chosen(START_TAG)}", f"kill {chosen(FINISH_TAG)}",
            f"setblock ~{sx} ~{sy} ~{sz} {START_PLATE}",
            f"setblock ~{fx} ~{fy} ~{fz} {FINISH_PLATE}",
            f"summon {marker(START_TAG, f'~{sx}.5 ~{sy} ~{sz}.5')}",
            f"summon {marker(FINISH_TAG, f'~{fx}.5 ~{fy} ~{fz}.5')}",
            f"scoreboard players set @a {STATE} 0",
            f"scoreboard players reset * {BEST}",
            _say(f"layout {k} of {layouts} is ready: step off the gold plate to start the clock, "
                 f"reach the iron plate"),
        ]
    return functions


def tag_file(function: str) -> bytes:
    """A function tag's JSON naming one of the pack's functions.

    >>> tag_file("tick")
    b'{"values": ["blockmaze:tick"]}\\n'
    """
    return (json.dumps({"values": [f"{NAMESPACE}:{function}"]}) + "\n").encode("ascii")
