"""Datapack ``.zip``: the maze as ``/fill`` commands in ``.mcfunction`` files (Java 1.14 and newer).

How to use the pack
-------------------
1. Put the zip in ``<world>/datapacks/`` and run ``/reload`` (or pick it when creating the world).
2. Stand where the maze's way in should be and run ``/function blockmaze:build`` (permission
   level 2, like ``/fill``). The maze is built in front of you, you outside it on its floor
   level (:func:`~.placement.player_spot`), and you are turned to face in.
3. It is built over the next seconds, column by column, lowest blocks first in each; the chat
   reports progress. Nothing needs loading by hand: the pack forceloads what it builds in.

What the pack holds (docs/minecraft.md §5)
-------------------------------------------------------------
* ``pack.mcmeta``: ``pack_format`` of the chosen release, or from 1.21.9 (formats above 81)
  ``min_format``/``max_format`` instead. 26.x releases, whose formats blockmaze does not know
  yet, are refused.
* ``data/blockmaze/function/`` (1.21 and newer; ``functions/`` before):

  - ``build``: removes a previous origin marker, summons a marker entity tagged
    ``blockmaze_origin`` at the executor (an invisible marker armor stand before 1.17, which has
    no marker entity), turns the executor to face in, forceloads the marker's chunk and the
    chunks of the first two columns and schedules ``run_1`` :data:`LOAD_TICKS` later (chunks load
    over the following ticks, not at once);
  - ``run_<k>``: runs ``part_<k>`` as and at the marker; from 1.19.4, before a column's first
    part, it first checks with ``execute if loaded`` one point in every chunk the column may
    touch: if one is not loaded yet it looks again :data:`LOAD_TICKS` later, else it runs
    ``go_<k>``, which holds the rest (so a chunk that loads late never leaves a hole); after a
    column's last part it runs
    ``next_<c>`` and schedules ``run_<k+1>`` :data:`LOAD_TICKS` later, else one tick later; the
    last one runs ``done`` and kills the marker. ``schedule`` runs a function at world spawn, so
    the marker carries the executor's position from tick to tick (it stays found because its
    chunk stays forceloaded);
  - ``next_<c>``: releases column ``c``'s chunks, forceloads the marker's chunk and those of the
    next two columns again (chunks shared with the released column stay loaded) and reports;
  - ``done``: releases the last column's and the marker's chunks and reports;
  - ``part_<k>``: at most :data:`PART_COMMANDS` commands of one column: its ``fill`` commands,
    then a ``data merge block ~x ~y ~z {...}`` for each spawn point in it, which gives the chest
    or spawner just filled in its block entity's fields (loot table, mob; see
    :mod:`~.blockentities`).

  The volume is built in columns of at most :data:`TILE` x :data:`TILE` blocks (full height):
  wherever the player stands, a column touches at most 16 x 16 = 256 chunks, the most one
  ``forceload add`` accepts. Each scheduled ``run_<k>`` is its own command chain: it and its one
  part run fewer than ``PART_COMMANDS + 10`` commands, well under ``maxCommandChainLength``
  (65536), which counts every command run in one chain including nested function calls. No
  chain runs two parts.
* Every fill is ``fill ~x1 ~y1 ~z1 ~x2 ~y2 ~z2 <block state>`` with coordinates relative to
  the executor (the player, outside the maze), one per line, no leading slash. The boxes cover
  each column exactly: a greedy 3-D box cover per block state (grow along x, then z, then y), each box at
  most 32768 blocks (the ``/fill`` limit). Air is filled too, so the maze carves through terrain,
  unless ``keep_terrain=True``.

The zip is byte-identical for identical input: sorted entries, fixed time stamps and attributes.
"""

from __future__ import annotations

from functools import partial
import json
from typing import BinaryIO

from ...support.kernels import kernel
import numpy as np
from nbtlib import serialize_tag

from ...blocks.boxes import box_cover
from ...errors import BlockmazeError
from ...materials import Material, Theme
from .. import register_writer
from ..zipped import write_zip
from .blockdata import for_release, release_theme
from .blockentities import block_entities
from .palette import minecraft_palette
from .placement import YAW, placement_hint, player_spot
from .versions import DEFAULT_MC_VERSION, release

NAMESPACE = "blockmaze"
MAX_FILL_VOLUME = 32768  # /fill's limit (commandModificationBlockLimit's default)
MAX_CHAIN_LENGTH = 65536  # gamerule maxCommandChainLength's default
PART_COMMANDS = 30000  # fill commands in one part: a chain runs at most this + 2 commands
TILE = 240  # blocks a side of a column built at once: 16 x 16 chunks (256, /forceload's most)
LOAD_TICKS = 20  # ticks between forceloading a column's chunks and building in them
IF_LOADED_FROM = 3337  # DataVersion of 1.19.4, which added /execute if|unless loaded
LAST_FLAT_FORMAT = 81  # formats above this are declared with min_format/max_format (1.21.9+)
FUNCTION_FOLDER_FROM = 48  # 1.21 renamed data/<ns>/functions/ to function/
MARKER_ENTITY_FROM = 7  # 1.17 (pack format 7) added minecraft:marker
SCHEDULE_FROM = 1952  # DataVersion of 1.14, which added /schedule
ORIGIN_TAG = "blockmaze_origin"
MAX_HEIGHT = 4064  # the tallest a dimension can be
MAX_SIDE = 60_000_000  # the world border's width


@kernel
def _digits(buffer: np.ndarray, at: int, value: int) -> int:
    """Write ``value`` in decimal (a leading ``-`` if negative) into ``buffer`` at ``at``; return
    the position after it."""
    if value < 0:
        buffer[at] = 45  # -
        at += 1
        value = -value
    length = 1
    rest = value // 10
    while rest:
        length += 1
        rest //= 10
    for i in range(length - 1, -1, -1):
        buffer[at + i] = 48 + value % 10
        value //= 10
    return at + length


@kernel
def format_fills(boxes: np.ndarray, states: np.ndarray, starts: np.ndarray, shift: np.ndarray):
    """ASCII ``fill ~x1 ~y1 ~z1 ~x2 ~y2 ~z2 <state>`` lines for ``box_cover`` rows, each coordinate
    plus ``shift`` (y, z, x: the volume's min corner relative to the executor).

    ``states`` holds the palette's state strings back to back, state ``i`` being
    ``states[starts[i]:starts[i + 1]]``. Returns the text (every line ends in a newline) and the
    end offset of each line.
    """
    n = boxes.shape[0]
    size = 0
    for i in range(n):
        s = boxes[i, 6]
        size += 5 + 6 * 13 + (starts[s + 1] - starts[s]) + 1
    text = np.empty(size, dtype=np.uint8)
    ends = np.empty(n, dtype=np.int64)
    head = np.array([102, 105, 108, 108], dtype=np.uint8)  # "fill"
    at = 0
    for i in range(n):
        for c in range(4):
            text[at + c] = head[c]
        at += 4
        for column in (2, 0, 1, 5, 3, 4):  # x1 y1 z1 x2 y2 z2
            text[at] = 32  # space
            text[at + 1] = 126  # ~
            at = _digits(text, at + 2, boxes[i, column] + shift[column % 3])
        text[at] = 32
        at += 1
        s = boxes[i, 6]
        for c in range(starts[s], starts[s + 1]):
            text[at] = states[c]
            at += 1
        text[at] = 10  # newline
        at += 1
        ends[i] = at
    return text[:at], ends


def tiles(shape: tuple[int, int, int], size: int = TILE) -> list[tuple[int, int, int, int]]:
    """``(z0, x0, z1, x1)`` (ends exclusive) of the columns of at most ``size`` x ``size`` blocks the
    volume is built in, in raster order.

    >>> tiles((3, 300, 250))
    [(0, 0, 240, 240), (0, 240, 240, 250), (240, 0, 300, 240), (240, 240, 300, 250)]
    """
    _, length, width = shape
    return [(z, x, min(z + size, length), min(x + size, width))
            for z in range(0, length, size) for x in range(0, width, size)]


def fill_text(blocks: np.ndarray, theme: Theme, seed: int | None = None,
              keep_terrain: bool = False, shift=(0, 0, 0), tile: int | None = None,
              mc_version: str = DEFAULT_MC_VERSION) -> tuple[bytes, np.ndarray, list]:
    """The ``fill`` commands building a (y, z, x) volume relative to the executor.

    ``shift`` (y, z, x) is the volume's min corner relative to the executor. The volume is built
    in columns of ``tile`` x ``tile`` blocks (see :func:`tiles`; None: one column), lowest
    blocks first in each, then the ``data merge block`` commands of its spawn points' block
    entities (in the layout of ``mc_version``). Returns the text (one command a line), the end offset of each line and,
    per column that has commands, ``(z0, x0, z1, x1, commands)``.
    """
    indices, palette = minecraft_palette(blocks, theme, seed)
    entities = block_entities(blocks, indices, palette, seed, mc_version)
    values = indices.astype(np.int32)
    skip = -1
    if keep_terrain:
        values[blocks == Material.AIR] = skip
    encoded = [state.encode("ascii") for state in palette]
    starts = np.cumsum([0] + [len(e) for e in encoded]).astype(np.int64)
    states = np.frombuffer(b"".join(encoded) or b" ", dtype=np.uint8)
    texts, ends, used, offset = [], [], [], 0
    for z0, x0, z1, x1 in tiles(blocks.shape, tile or max(blocks.shape[1:])):
        boxes = box_cover(np.ascontiguousarray(values[:, z0:z1, x0:x1]), skip, MAX_FILL_VOLUME)
        if not len(boxes):
            continue
        moved = np.array([shift[0], shift[1] + z0, shift[2] + x0], dtype=np.int64)
        text, line_ends = format_fills(boxes, states, starts, moved)
        merges = [f"data merge block ~{x + shift[2]} ~{y + shift[0]} ~{z + shift[1]} "
                  f"{serialize_tag(e.data, compact=True)}\n".encode("ascii")
                  for e in entities for y, z, x in [e.position] if z0 <= z < z1 and x0 <= x < x1]
        if merges:
            extra = np.frombuffer(b"".join(merges), dtype=np.uint8)
            line_ends = np.concatenate([line_ends, len(text) + np.cumsum([len(m) for m in merges])])
            text = np.concatenate([text, extra])
        texts.append(text)
        ends.append(line_ends + offset)
        offset += len(text)
        used.append((z0, x0, z1, x1, len(boxes) + len(merges)))
    text = b"".join(t.tobytes() for t in texts)
    return text, (np.concatenate(ends) if ends else np.empty(0, np.int64)), used


def _pack_major(mc_version: str) -> int:
    """The datapack format (its major number) of a release that runs a blockmaze datapack, or an
    error saying why the release does not."""
    target = release(mc_version)
    if target.pack_format is None:
        raise BlockmazeError(
            f"blockmaze does not know the datapack format of Minecraft {mc_version} yet; "
            f"choose a release up to 1.21.11 for a datapack"
        )
    if target.data_version < SCHEDULE_FROM:
        raise BlockmazeError(
            f"a blockmaze datapack runs its parts with /schedule, which Minecraft {mc_version} "
            f"lacks; choose 1.14 or newer"
        )
    return target.pack_format[0]


def pack_mcmeta(mc_version: str) -> dict:
    """The ``pack.mcmeta`` document for a release.

    >>> pack_mcmeta("1.20.4")["pack"]["pack_format"]
    26
    >>> {k: v for k, v in pack_mcmeta("1.21.11")["pack"].items() if k != "description"}
    {'min_format': 94, 'max_format': 94}
    """
    major = _pack_major(mc_version)
    description = f"blockmaze maze for Minecraft {mc_version}: run /function {NAMESPACE}:build"
    if major > LAST_FLAT_FORMAT:
        return {"pack": {"description": description, "min_format": major, "max_format": major}}
    return {"pack": {"description": description, "pack_format": major}}


def function_files(text: bytes, ends: np.ndarray, columns: list, mc_version: str,
                   shift=(0, 0, 0), facing: str | None = None, prefix: str = "",
                   last: tuple[str, ...] = ()) -> dict[str, bytes]:
    """The ``.mcfunction`` files (path in the zip -> bytes) running the lines of ``text`` in parts.

    ``ends`` is the end offset of each line of ``text`` and ``columns`` the columns it builds, as
    :func:`fill_text` returns them; ``shift`` (y, z, x) is the volume's min corner relative to the
    player; ``facing`` the way the player turns to look into the maze (None: no turn).
    ``prefix`` goes before every function's name (a minigame's ``layout_2/``) and ``last`` are
    commands ``done`` runs, as and at the origin marker, before it releases the chunks.
    """
    major = _pack_major(mc_version)
    folder = f"data/{NAMESPACE}/{'function' if major >= FUNCTION_FOLDER_FROM else 'functions'}"
    if major >= MARKER_ENTITY_FROM:
        marker = f"minecraft:marker ~ ~ ~ {{Tags:[\"{ORIGIN_TAG}\"]}}"
        selector = f"@e[type=minecraft:marker,tag={ORIGIN_TAG}]"
    else:
        marker = (f"minecraft:armor_stand ~ ~ ~ {{Tags:[\"{ORIGIN_TAG}\"],Marker:1b,Invisible:1b,"
                  f"NoGravity:1b,Invulnerable:1b}}")
        selector = f"@e[type=minecraft:armor_stand,tag={ORIGIN_TAG}]"
    origin = selector[:-1] + ",limit=1]"
    _, sz, sx = shift

    def rect(c: int) -> str:  # the chunks of column c, relative to the marker
        z0, x0, z1, x1, _ = columns[c]
        return f"~{x0 + sx} ~{z0 + sz} ~{x1 - 1 + sx} ~{z1 - 1 + sz}"

    def say(message: str) -> str:
        return "tellraw @a " + json.dumps({"text": f"[blockmaze] {message}"})

    parts, line = [], 0  # (column, first line, end line)
    for c, (*_, count) in enumerate(columns):
        parts += [(c, first, min(first + PART_COMMANDS, line + count))
                  for first in range(line, line + count, PART_COMMANDS)]
        line += count
    offsets = np.concatenate([[0], ends]).astype(np.int64)
    ns = f"{NAMESPACE}:{prefix}"
    run = f"execute as {origin} at @s run function {ns}"
    build = [f"# Builds the maze around the executor, who stands outside it, in {len(columns)} "
             f"column(s) of at most {TILE}x{TILE} blocks, {len(parts)} part(s).",
             f"kill {selector}", f"summon {marker}"]
    if facing is not None:
        build.append(f"tp @s ~ ~ ~ {YAW[facing]} 0")
    lines: dict[str, list[str]] = {"build": build}
    if not parts:
        build.append(f"kill {selector}")
    else:
        build += ["forceload add ~ ~"] + [f"forceload add {rect(c)}" for c in range(min(2, len(columns)))]
        build += [say(f"building {len(columns)} column(s); keep this area loaded"),
                  f"schedule function {ns}run_1 {LOAD_TICKS}t"]
    files = {}
    guard = release(mc_version).data_version >= IF_LOADED_FROM
    for k, (c, first, stop) in enumerate(parts, 1):
        body = [f"# Part {k} of {len(parts)} (column {c + 1} of {len(columns)}), run as and at the "
                "origin marker.", f"{run}part_{k}"]
        last_of_column = k == len(parts) or parts[k][0] != c
        if guard and (k == 1 or parts[k - 2][0] != c):  # a column's first part: wait until loaded
            points = _chunk_points(columns[c], shift)
            lines[f"run_{k}"] = [
                f"# Column {c + 1}: build once every chunk of it is loaded, else look again later.",
            ] + [f"execute as {origin} at @s unless loaded {p} run schedule function "
                 f"{ns}run_{k} {LOAD_TICKS}t" for p in points] + [
                f"execute as {origin} at @s" + "".join(f" if loaded {p}" for p in points)
                + f" run function {ns}go_{k}"]
            body[0] = body[0].replace("run as and at the origin marker", "run when its chunks are loaded")
            body[1:2] = [f"function {ns}part_{k}"]
            name = f"go_{k}"
        else:
            name = f"run_{k}"
        if k == len(parts):
            body += [f"{run}done", f"kill {selector}"]
        elif last_of_column:
            body += [f"{run}next_{c + 1}", f"schedule function {ns}run_{k + 1} {LOAD_TICKS}t"]
            lines[f"next_{c + 1}"] = [
                f"# Column {c + 1} is built: release its chunks, load the next ones.",
                f"forceload remove {rect(c)}", "forceload add ~ ~",
            ] + [f"forceload add {rect(n)}" for n in range(c + 1, min(c + 3, len(columns)))] + [
                say(f"column {c + 1} of {len(columns)} built")]
        else:
            body.append(f"schedule function {ns}run_{k + 1} 1t")
        lines[name] = body
        files[f"{folder}/{prefix}part_{k}.mcfunction"] = text[int(offsets[first]):int(offsets[stop])]
    if parts:
        lines["done"] = ["# The maze is built: release the chunks.", *last,
                         f"forceload remove {rect(len(columns) - 1)}", "forceload remove ~ ~",
                         say("the maze is built")]
    for name, body in lines.items():
        files[f"{folder}/{prefix}{name}.mcfunction"] = ("\n".join(body) + "\n").encode("ascii")
    return files


def _chunk_points(column, shift) -> list[str]:
    """``~x ~y ~z`` points, relative to the marker, one in every chunk the column may touch: every
    16 blocks along x and z from its first block, and its last."""
    z0, x0, z1, x1, _ = column
    y, sz, sx = shift
    xs = sorted(set(range(x0, x1, 16)) | {x1 - 1})
    zs = sorted(set(range(z0, z1, 16)) | {z1 - 1})
    return [f"~{x + sx} ~{y} ~{z + sz}" for z in zs for x in xs]


def write_datapack(
    blocks: np.ndarray,
    file: BinaryIO,
    theme: Theme,
    mc_version: str = DEFAULT_MC_VERSION,
    seed: int | None = None,
    keep_terrain: bool = False,
    layouts: tuple | None = None,
) -> None:
    """Write a (y, z, x) volume as a datapack zip of ``fill`` commands (see the module docstring).

    ``keep_terrain=True`` leaves the world's blocks where the maze has air. ``layouts`` makes a
    minigame (:func:`write_minigame`).

    Example
    -------
    >>> import io, zipfile
    >>> from blockmaze.materials import load_theme
    >>> out = io.BytesIO()
    >>> write_datapack(np.ones((1, 2, 3), np.uint8), out, load_theme(), mc_version="1.21")
    >>> [name.split("/")[-1] for name in sorted(zipfile.ZipFile(out).namelist())]
    ['build.mcfunction', 'done.mcfunction', 'go_1.mcfunction', 'part_1.mcfunction',
     'run_1.mcfunction', 'pack.mcmeta']
    """
    if layouts is not None:
        write_minigame(blocks, file, theme, layouts, mc_version, seed, keep_terrain)
        return
    meta = pack_mcmeta(mc_version)  # refuses unknown formats before any work
    _check_height(blocks.shape[0], mc_version)
    theme = for_release(theme, mc_version)  # built-in themes substituted, every state checked
    spot = player_spot(blocks)
    shift = (-spot.y, -spot.z, -spot.x)
    text, ends, columns = fill_text(blocks, theme, seed, keep_terrain, shift, TILE, mc_version)
    files = {"pack.mcmeta": (json.dumps(meta, indent=2, sort_keys=True) + "\n").encode("ascii")}
    files.update(function_files(text, ends, columns, mc_version, shift, spot.facing))
    write_zip(file, files, level=3)


def _check_height(height: int, mc_version: str) -> None:
    limit = 384 if release(mc_version).data_version >= 2860 else 256  # 1.18 made worlds taller
    if height > limit:
        raise BlockmazeError(
            f"the maze is {height} blocks high; a Minecraft {mc_version} world is {limit} high"
        )


def _folder(mc_version: str, what: str) -> str:
    """``function`` or ``functions`` (``what``: ``"function"``), ``tags/function`` or
    ``tags/functions``: the singular from 1.21 (format 48)."""
    return what + ("" if _pack_major(mc_version) >= FUNCTION_FOLDER_FROM else "s")


def write_minigame(blocks: np.ndarray, file: BinaryIO, theme: Theme, layouts,
                   mc_version: str = DEFAULT_MC_VERSION, seed: int | None = None,
                   keep_terrain: bool = False) -> None:
    """A maze minigame (:mod:`.minigame`): layout 1 is ``blocks`` (drawn with ``seed``), the others
    ``layouts``, and each layout's start and finish.

    ``layouts`` is a tuple of ``(volume, seed, start, finish)``, the first being layout 1's
    (its volume and seed ignored: ``blocks`` and ``seed`` are them), start and finish the
    (y, z, x) blocks the players stand in. Each layout's ``fill`` commands are those of a plain pack of it, run from the
    maze's min corner; all have the shape of ``blocks``, at most one column (:data:`TILE`) wide.

    >>> import io, zipfile
    >>> from blockmaze.materials import load_theme
    >>> v = np.zeros((2, 3, 3), np.uint8); v[0] = 2
    >>> out = io.BytesIO()
    >>> write_minigame(v, out, load_theme(), ((None, 1, (1, 0, 0), (1, 2, 2)), (v, 2, (1, 0, 0), (1, 2, 2))), "1.21")
    >>> [n for n in zipfile.ZipFile(out).namelist() if "tags" in n]
    ['data/minecraft/tags/function/load.json', 'data/minecraft/tags/function/tick.json']
    """
    from .minigame import MAX_LAYOUTS, game_functions, tag_file

    meta = pack_mcmeta(mc_version)
    if keep_terrain:
        raise BlockmazeError("a minigame's layouts replace each other block for block: drop "
                             "--keep-terrain")
    if not 1 <= len(layouts) <= MAX_LAYOUTS:
        raise BlockmazeError(f"a minigame holds 1 to {MAX_LAYOUTS} layouts, not {len(layouts)}")
    _check_height(blocks.shape[0], mc_version)
    if max(blocks.shape[1:]) > TILE:
        raise BlockmazeError(f"a minigame's maze is built in one go: at most {TILE}x{TILE} blocks, "
                             f"not {blocks.shape[2]}x{blocks.shape[1]}")
    theme = for_release(theme, mc_version)
    spot = player_spot(blocks)
    folder = f"data/{NAMESPACE}/{_folder(mc_version, 'function')}"
    entity = "minecraft:marker" if _pack_major(mc_version) >= MARKER_ENTITY_FROM else \
        "minecraft:armor_stand"
    meta["pack"]["description"] = (f"blockmaze maze minigame of {len(layouts)} layouts for "
                                   f"Minecraft {mc_version}: run /function {NAMESPACE}:build, "
                                   f"then /function {NAMESPACE}:next")
    files = {"pack.mcmeta": (json.dumps(meta, indent=2, sort_keys=True) + "\n").encode("ascii")}
    for k, (volume, layout_seed, *_) in enumerate(layouts, 1):
        volume, layout_seed = (blocks, seed) if k == 1 else (np.asarray(volume), layout_seed)
        if volume.shape != blocks.shape:
            raise BlockmazeError(f"a minigame's layouts have one size: layout {k} is "
                                 f"{volume.shape}, layout 1 {blocks.shape} (y, z, x)")
        text, ends, columns = fill_text(volume, theme, layout_seed, False, (0, 0, 0), TILE,
                                        mc_version)
        files.update(function_files(text, ends, columns, mc_version, prefix=f"layout_{k}/",
                                    last=(f"function {NAMESPACE}:layout_{k}/ready",)))
    game = game_functions(len(layouts), entity, spot[:3], YAW[spot.facing],
                          [(start, finish) for *_, start, finish in layouts])
    for name, body in game.items():
        files[f"{folder}/{name}.mcfunction"] = ("\n".join(body) + "\n").encode("ascii")
    tags = f"data/minecraft/{_folder(mc_version, 'tags/function')}"
    files.update({f"{tags}/{name}.json": tag_file(name) for name in ("load", "tick")})
    write_zip(file, files, level=3)


def check_size(shape: tuple[int, int, int]) -> None:
    """Refuse a (y, z, x) volume no Minecraft world can hold, before any work is done.

    >>> check_size((5000, 3, 3))
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: the maze is 5000 blocks high; no Minecraft world is more than 4064 high
    """
    height, length, width = shape
    if min(shape) < 1:
        raise BlockmazeError(f"a datapack needs at least one block, got a {width}x{height}x{length} volume")
    if height > MAX_HEIGHT:
        raise BlockmazeError(
            f"the maze is {height} blocks high; no Minecraft world is more than {MAX_HEIGHT} high"
        )
    if max(width, length) > MAX_SIDE:
        raise BlockmazeError(f"a {width}x{length} maze is wider than a Minecraft world ({MAX_SIDE})")


register_writer("datapack", write_datapack, check_size, prepare_theme=release_theme,
                hint=partial(placement_hint, format_name="datapack"))
