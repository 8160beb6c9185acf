"""A strict, independent reader and checker for datapack zips of ``.mcfunction`` files.

Written from docs/minecraft.md §5 (layout, no leading slash, /fill's 32768
block limit, maxCommandChainLength, pack formats §5.1 and the min_format/max_format rules from
1.21.9), not from blockmaze. It knows only the commands a maze pack needs (``fill`` with relative
coordinates, ``function``, ``schedule function``, ``execute as ... at @s run function``,
``summon``, ``kill``, ``forceload`` with relative columns, ``tellraw @a``, ``tp @s`` turning the
player, ``execute ... if loaded`` conditions and ``execute ... unless loaded ... run schedule``) and rejects anything else, so a new kind of command must be reviewed here. ``forceload``
may name at most 256 chunks wherever the executor stands; :class:`ChunkTracker` follows which
chunks are forceloaded, tick by tick, for a replay to check each ``fill`` against.

Chains: a function run by a player or by ``schedule`` starts a chain; ``function`` and
``execute ... run function`` run the callee inside the caller's chain, and every command run in a
chain counts against ``maxCommandChainLength``. The checker counts each chain's commands through
nested calls and requires that no chain runs more than one function holding ``fill`` commands.

Example
-------
>>> import io, zipfile
>>> read_datapack(b"not a zip", "1.20.4")
Traceback (most recent call last):
...
mcfunction_checker.DatapackError: not a zip file: File is not a zip file
"""

from __future__ import annotations

import io
import json
import math
import re
import zipfile
from dataclasses import dataclass, field

# §5.1: data-pack format per release (majors; from 1.21.9 declared with min_format/max_format).
PACK_FORMATS = {
    "1.14": 4, "1.14.4": 4, "1.15.2": 5, "1.16.5": 6, "1.17": 7, "1.17.1": 7, "1.18": 8, "1.18.2": 9,
    "1.19.4": 12, "1.20": 15, "1.20.1": 15, "1.20.2": 18, "1.20.3": 26, "1.20.4": 26,
    "1.20.5": 41, "1.20.6": 41, "1.21": 48, "1.21.1": 48, "1.21.2": 57, "1.21.3": 57,
    "1.21.4": 61, "1.21.5": 71, "1.21.6": 80, "1.21.7": 81, "1.21.8": 81, "1.21.9": 88,
    "1.21.10": 88, "1.21.11": 94,
}
LAST_PLAIN_FORMAT = 81  # above it: min_format + max_format (§5.1)
SINGULAR_FOLDER_FROM = 48  # 1.21: data/<ns>/function/, before: functions/
FILL_LIMIT = 32768
CHAIN_LIMIT = 65536
FIXED_ZIP_TIME = (1980, 1, 1, 0, 0, 0)

BLOCK_STATE = r"[a-z0-9_.-]+:[a-z0-9_./-]+(?:\[[a-z0-9_]+=[a-z0-9_]+(?:,[a-z0-9_]+=[a-z0-9_]+)*\])?"
RELATIVE = r"~(-?\d+)?"
TOKEN = r"~-?\d*"  # a relative coordinate, uncaptured
RESOURCE = r"[a-z0-9_.-]+:[a-z0-9_./-]+"
SELECTOR = r"@e\[[a-z0-9_=:,.-]+\]"
COMMANDS = {
    "fill": re.compile(rf"^fill {RELATIVE} {RELATIVE} {RELATIVE} {RELATIVE} {RELATIVE} {RELATIVE} "
                       rf"({BLOCK_STATE})$"),
    "function": re.compile(rf"^function ({RESOURCE})$"),
    "schedule": re.compile(rf"^schedule function ({RESOURCE}) (\d+)t$"),
    "execute": re.compile(rf"^execute as ({SELECTOR}) at @s((?: if loaded {TOKEN} {TOKEN} {TOKEN})*)"
                          rf" run function ({RESOURCE})$"),
    # (1.19.4+) look again later: ``execute as <marker> at @s unless loaded <pos> run schedule ...``
    "execute-unless": re.compile(rf"^execute as ({SELECTOR}) at @s unless loaded ({TOKEN}) ({TOKEN}) "
                                 rf"({TOKEN}) run schedule function ({RESOURCE}) (\d+)t$"),
    "summon": re.compile(r"^summon (minecraft:[a-z_]+) ~ ~ ~ (\{.*\})$"),
    "kill": re.compile(rf"^kill ({SELECTOR})$"),
    "forceload": re.compile(r"^forceload (add|remove) (~-?\d*) (~-?\d*)(?: (~-?\d*) (~-?\d*))?$"),
    "tellraw": re.compile(r"^tellraw @a (\{.*\})$"),
    "tp": re.compile(r"^tp @s ~ ~ ~ (-?\d+(?:\.\d+)?) (-?\d+(?:\.\d+)?)$"),
    # a block entity's fields (a spawn point's chest or spawner): ``data merge block <pos> <SNBT>``
    "data": re.compile(rf"^data merge block {RELATIVE} {RELATIVE} {RELATIVE} (\{{.*\}})$"),
}
FORCELOAD_LIMIT = 256  # chunks one /forceload add may name (ForceLoadCommand: "Too many chunks")
CHUNK = 16


class DatapackError(ValueError):
    """A datapack breaks a rule of the format (or of Minecraft's function loader)."""


@dataclass
class Command:
    """One parsed command: its kind and the regular expression's groups."""

    kind: str
    args: tuple
    text: str


@dataclass
class Datapack:
    """What a valid datapack holds: ``functions`` maps ``ns:name`` to its commands."""

    meta: dict
    folder: str
    functions: dict[str, list[Command]] = field(default_factory=dict)

    def chain_length(self, name: str) -> int:
        """Commands run in one chain started by ``name`` (nested calls included)."""
        return _walk(self, name, ())[0]


def _walk(pack: Datapack, name: str, stack: tuple) -> tuple[int, int]:
    """(commands run, functions holding fills run) when ``name`` runs, through nested calls."""
    if name in stack:
        raise DatapackError(f"function {name} calls itself through {' -> '.join(stack)}")
    if name not in pack.functions:
        raise DatapackError(f"function {name} is called but does not exist")
    commands = pack.functions[name]
    total, fillers = len(commands), int(any(c.kind == "fill" for c in commands))
    for command in commands:
        callee = {"function": 0, "execute": 2}.get(command.kind)
        if callee is not None:
            more, more_fillers = _walk(pack, command.args[callee], stack + (name,))
            total, fillers = total + more, fillers + more_fillers
    return total, fillers


def parse_command(line: str, where: str) -> Command:
    """Parse one command line, or raise naming the line and the rule."""
    if line.startswith("/"):
        raise DatapackError(f"{where}: a command starts with '/' (the loader rejects the whole function)")
    word = line.split(" ", 1)[0]
    if word == "execute" and " unless loaded " in line:
        word = "execute-unless"
    pattern = COMMANDS.get(word)
    match = pattern.match(line) if pattern else None
    if not match:
        raise DatapackError(f"{where}: unknown or malformed command {line[:80]!r}")
    args = match.groups()
    if word == "fill":
        low = [int(v or 0) for v in args[:3]]
        high = [int(v or 0) for v in args[3:6]]
        volume = 1
        for a, b in zip(low, high, strict=True):
            volume *= abs(b - a) + 1
        if volume > FILL_LIMIT:
            raise DatapackError(f"{where}: fill covers {volume} blocks; the limit is {FILL_LIMIT}")
    if word == "forceload" and args[3] is not None:
        # relative corners: wherever the executor stands, the box may straddle one more chunk a side
        chunks = 1
        for a, b in ((args[1], args[3]), (args[2], args[4])):
            span = abs(_relative(b) - _relative(a)) + 1
            chunks *= -(-(span - 1) // CHUNK) + 1
        if chunks > FORCELOAD_LIMIT:
            raise DatapackError(f"{where}: forceload may name {chunks} chunks; the limit is {FORCELOAD_LIMIT}")
    if word == "data":
        import nbtlib  # an independent SNBT parser

        try:
            nbtlib.parse_nbt(args[3])
        except Exception as error:  # nbtlib raises its own parse errors
            raise DatapackError(f"{where}: data merge's NBT is not SNBT: {error}") from None
    if word == "tellraw":
        try:
            json.loads(args[0])
        except json.JSONDecodeError as error:
            raise DatapackError(f"{where}: tellraw's text is not JSON: {error}") from None
    return Command(word, args, line)


def _relative(token: str) -> int:
    """The offset of a relative coordinate token: ``~`` -> 0, ``~-3`` -> -3."""
    return int(token[1:] or 0)


def chunks_of(position, low, high) -> set[tuple[int, int]]:
    """(chunk x, chunk z) of the columns from ``low`` to ``high`` ((x, z) block offsets) seen from
    ``position`` (x, y, z; blocks are counted from the block it is in)."""
    px, pz = int(math.floor(position[0])), int(math.floor(position[2]))
    xs = sorted((px + low[0], px + high[0]))
    zs = sorted((pz + low[1], pz + high[1]))
    return {(cx, cz) for cx in range(xs[0] // CHUNK, xs[1] // CHUNK + 1)
            for cz in range(zs[0] // CHUNK, zs[1] // CHUNK + 1)}


def loaded_points(position, conditions) -> set[tuple[int, int]]:
    """The chunks of ``if loaded`` points: a string of `` if loaded ~x ~y ~z`` conditions, or one
    point's three tokens."""
    tokens = re.findall(r"~-?\d*", conditions) if isinstance(conditions, str) else list(conditions)
    chunks = set()
    for x, _, z in zip(tokens[0::3], tokens[1::3], tokens[2::3], strict=True):
        point = (_relative(x), _relative(z))
        chunks |= chunks_of(position, point, point)
    return chunks


class ChunkTracker:
    """Which chunks are forceloaded, and since which tick, as the game keeps them: a chunk added
    again in the tick it was removed in stays loaded."""

    def __init__(self):
        self.since: dict[tuple[int, int], int] = {}
        self.removed: dict[tuple[int, int], tuple[int, int]] = {}  # chunk -> (tick removed, since)
        self.most = 0

    def run(self, command: Command, position, tick: int) -> None:
        """Apply one ``forceload`` command run at ``position`` on ``tick``."""
        action, x1, z1, x2, z2 = command.args
        low = (_relative(x1), _relative(z1))
        chunks = chunks_of(position, low, (_relative(x2), _relative(z2)) if x2 is not None else low)
        for chunk in chunks:
            if action == "add" and chunk not in self.since:
                gone = self.removed.pop(chunk, None)
                self.since[chunk] = gone[1] if gone and gone[0] == tick else tick
            elif action == "remove" and chunk in self.since:
                self.removed[chunk] = (tick, self.since.pop(chunk))
        self.most = max(self.most, len(self.since))

    def loaded(self, chunks, tick: int) -> bool:
        """True if every chunk was forceloaded on an earlier tick (loading is not instant)."""
        return all(self.since.get(chunk, tick) < tick for chunk in chunks)


def read_datapack(source: bytes, mc_version: str) -> Datapack:
    """Check a datapack zip made for ``mc_version`` and parse every function in it."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(source))
    except zipfile.BadZipFile as error:
        raise DatapackError(f"not a zip file: {error}") from None
    infos = archive.infolist()
    names = [info.filename for info in infos]
    if names != sorted(names):
        raise DatapackError("zip entries are not sorted by name")
    if len(set(names)) != len(names):
        raise DatapackError("a zip entry appears twice")
    for info in infos:
        if info.date_time != FIXED_ZIP_TIME:
            raise DatapackError(f"{info.filename} carries the time stamp {info.date_time}")
    if "pack.mcmeta" not in names:
        raise DatapackError("pack.mcmeta is missing from the zip's root")
    meta = _check_meta(archive.read("pack.mcmeta"), mc_version)
    expected_major = PACK_FORMATS[mc_version]
    folder = "function" if expected_major >= SINGULAR_FOLDER_FROM else "functions"
    wrong = "functions" if folder == "function" else "function"
    pack = Datapack(meta, folder)
    for name in names:
        if name == "pack.mcmeta":
            continue
        parts = name.split("/")
        if len(parts) < 4 or parts[0] != "data" or not name.endswith(".mcfunction"):
            raise DatapackError(f"unexpected file {name}: functions live in data/<ns>/{folder}/")
        if parts[2] == wrong:
            raise DatapackError(f"{name}: Minecraft {mc_version} reads functions from "
                                f"data/<ns>/{folder}/, not {wrong}/")
        if parts[2] != folder:
            raise DatapackError(f"unexpected file {name}")
        resource = f"{parts[1]}:{'/'.join(parts[3:])[:-len('.mcfunction')]}"
        raw = archive.read(name)
        try:
            text = raw.decode("ascii")
        except UnicodeDecodeError:
            raise DatapackError(f"{name} is not ASCII") from None
        if text and not text.endswith("\n"):
            raise DatapackError(f"{name} does not end with a newline")
        commands = []
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                raise DatapackError(f"{name}: line {number} is empty")
            if line.startswith("#"):
                continue
            commands.append(parse_command(line, f"{name}: line {number}"))
        pack.functions[resource] = commands
    for name in pack.functions:
        total, fillers = _walk(pack, name, ())
        if total > CHAIN_LIMIT:
            raise DatapackError(f"{name} runs {total} commands in one chain; the limit is {CHAIN_LIMIT}")
        if fillers > 1:
            raise DatapackError(f"{name} runs {fillers} functions of fill commands in one chain")
        for command in pack.functions[name]:
            scheduled = {"schedule": 0, "execute-unless": -2}.get(command.kind)
            if scheduled is not None and command.args[scheduled] not in pack.functions:
                raise DatapackError(f"{name} schedules {command.args[scheduled]}, which does not exist")
    return pack


def _check_meta(raw: bytes, mc_version: str) -> dict:
    try:
        meta = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise DatapackError(f"pack.mcmeta is not JSON: {error}") from None
    pack = meta.get("pack") if isinstance(meta, dict) else None
    if not isinstance(pack, dict):
        raise DatapackError("pack.mcmeta has no 'pack' object")
    if not isinstance(pack.get("description"), str):
        raise DatapackError("pack.mcmeta: pack.description must be a string")
    major = PACK_FORMATS[mc_version]

    def format_major(value, key):
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, list) and len(value) in (1, 2) and all(isinstance(v, int) for v in value):
            return value[0]
        raise DatapackError(f"pack.mcmeta: {key} must be an int or [major, minor], got {value!r}")

    if major > LAST_PLAIN_FORMAT:
        if ("min_format" in pack) != ("max_format" in pack):
            raise DatapackError("pack.mcmeta: min_format and max_format come together or not at all")
        if "min_format" not in pack:
            raise DatapackError(f"pack.mcmeta: format {major} (> {LAST_PLAIN_FORMAT}) needs "
                                f"min_format and max_format")
        low, high = format_major(pack["min_format"], "min_format"), format_major(pack["max_format"], "max_format")
        if not low <= major <= high:
            raise DatapackError(f"pack.mcmeta: formats {low}..{high} leave out {mc_version}'s {major}")
        if low <= LAST_PLAIN_FORMAT and "supported_formats" not in pack:
            raise DatapackError("pack.mcmeta: a pack reaching formats <= 81 needs supported_formats")
    else:
        if pack.get("pack_format") != major:
            raise DatapackError(f"pack.mcmeta: pack_format is {pack.get('pack_format')!r}; "
                                f"Minecraft {mc_version} needs {major}")
    return meta


@dataclass
class Replay:
    """What running a pack's ``build`` did: fills run, fills in chunks not forceloaded on an earlier
    tick, the most chunks forceloaded at once, chunks still forceloaded at the end, ticks taken."""

    fills: int = 0
    unloaded: int = 0
    most_chunks: int = 0
    left: int = 0
    ticks: int = 0


def replay(pack: Datapack, position=(0.5, 64.0, 0.5), namespace: str = "blockmaze") -> Replay:
    """Run ``<namespace>:build`` as a player at ``position`` and every function it schedules, tick
    by tick, following only what decides where blocks go: the marker entities, forceloads and
    fills (checked against the chunks forceloaded at that moment). Scheduled functions run at
    world spawn and find an entity only in a forceloaded chunk."""
    result, tracker = Replay(), ChunkTracker()
    entities: list[tuple[str, tuple]] = []  # (selector it answers to, position)
    queue: dict[str, int] = {}
    spawn = (0.0, 0.0, 0.0)

    def call(name, where, tick, from_schedule):
        for command in pack.functions[name]:
            kind, args = command.kind, command.args
            if kind == "fill":
                result.fills += 1
                low = (_relative("~" + (args[0] or "")), _relative("~" + (args[2] or "")))
                high = (_relative("~" + (args[3] or "")), _relative("~" + (args[5] or "")))
                if not tracker.loaded(chunks_of(where, low, high), tick):
                    result.unloaded += 1
            elif kind == "forceload":
                tracker.run(command, where, tick)
            elif kind == "summon":
                entities.append((args[1], where))
            elif kind == "kill":
                tag = re.search(r"tag=([a-z_]+)", args[0]).group(1)
                entities[:] = [e for e in entities if f'"{tag}"' not in e[0]]
            elif kind in ("execute", "execute-unless"):
                tag = re.search(r"tag=([a-z_]+)", args[0]).group(1)
                for _, at in [e for e in entities if f'"{tag}"' in e[0]][:1]:
                    if from_schedule and not tracker.loaded(chunks_of(at, (0, 0), (0, 0)), tick + 1):
                        raise DatapackError(f"{name}: the marker's chunk is not loaded")
                    if kind == "execute-unless":
                        if not tracker.loaded(loaded_points(at, args[1:4]), tick):
                            queue[args[4]] = tick + int(args[5])
                    elif tracker.loaded(loaded_points(at, args[1]), tick):
                        call(args[2], at, tick, from_schedule)
            elif kind == "function":
                call(args[0], where, tick, from_schedule)
            elif kind == "schedule":
                queue[args[0]] = tick + int(args[1])

    call(f"{namespace}:build", position, 0, False)
    tick = 0
    while queue:
        tick = min(queue.values())
        for name in [n for n, t in queue.items() if t == tick]:
            del queue[name]
            call(name, spawn, tick, True)
    result.most_chunks, result.left, result.ticks = tracker.most, len(tracker.since), tick
    return result
