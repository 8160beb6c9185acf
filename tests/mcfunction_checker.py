"""A strict, independent reader and checker for datapack zips of ``.mcfunction`` files.

Written from docs/minecraft.md §5 (layout, no leading slash, /fill's 32768
block limit, maxCommandChainLength, pack formats §5.1 and the min_format/max_format rules from
1.21.9), not from blockmaze. It knows only the commands a maze pack needs (``fill`` with relative
coordinates, ``function``, ``schedule function``, ``execute as ... at @s run function``,
``summon``, ``kill``, ``forceload`` with relative columns, ``tellraw @a``, ``tp @s`` turning the
player, ``execute ... if loaded`` conditions and ``execute ... unless loaded ... run schedule``),
and those of the maze minigame (``scoreboard`` objectives and players, ``setblock``, ``summon``
at an offset, ``tellraw`` of a text list, ``execute`` with ``as``/``at``/``align``/``if|unless
entity``/``if|unless score ... matches`` before ``run``; function tags under
``data/minecraft/tags/function(s)/``), and rejects anything else, so a new kind of command must
be reviewed here. :class:`Game` runs a pack: players, entities, scores, the tick tag, the
schedule and the blocks placed. ``forceload``
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
    tags: dict[str, list[str]] = field(default_factory=dict)  # minecraft:tick -> its functions

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
        if command.kind == "run":  # a minigame's execute: its inner command may call a function
            command = command.args[1]
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
        game = _game_command(line, where)
        if game is not None:
            return game
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
    tag_folder = "tags/" + folder
    for name in names:
        if name == "pack.mcmeta":
            continue
        parts = name.split("/")
        if name.startswith("data/minecraft/tags/"):
            if not name.startswith(f"data/minecraft/{tag_folder}/") or not name.endswith(".json"):
                raise DatapackError(f"{name}: Minecraft {mc_version} reads function tags from "
                                    f"data/minecraft/{tag_folder}/")
            try:
                values = json.loads(archive.read(name))["values"]
            except (ValueError, KeyError, TypeError) as error:
                raise DatapackError(f"{name} is not a tag of values: {error}") from None
            if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
                raise DatapackError(f"{name}: values must be a list of function names")
            pack.tags[f"minecraft:{name[len(f'data/minecraft/{tag_folder}/'):-5]}"] = values
            continue
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
            if command.kind == "run":
                command = command.args[1]
            scheduled = {"schedule": 0, "execute-unless": -2}.get(command.kind)
            if scheduled is not None and command.args[scheduled] not in pack.functions:
                raise DatapackError(f"{name} schedules {command.args[scheduled]}, which does not exist")
    for tag, values in pack.tags.items():
        for value in values:
            if value not in pack.functions:
                raise DatapackError(f"tag {tag} names {value}, which does not exist")
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


# --- the minigame's commands ---------------------------------------------------------------------

OBJECTIVE = r"[a-z_]{1,16}"  # scoreboard objective names: at most 16 characters before 1.18
HOLDER = r"(?:@s|@a|\*|#[a-z]+|@a\[scores=\{[a-z_]+=-?\d+\}\])"
ANY_SELECTOR = r"@[aes](?:\[[a-z0-9_=:,.{}-]+\])?"
RANGE = r"-?\d+(?:\.\.(?:-?\d+)?)?|\.\.-?\d+"
OFFSET = r"~-?\d*(?:\.\d+)?"
OPERATIONS = ("=", "<", ">", "+=", "-=", "*=", "/=", "%=", "><")
SCOREBOARD = [
    re.compile(rf"^scoreboard objectives add ({OBJECTIVE}) dummy(?: (\{{.*\}}))?$"),
    re.compile(rf"^scoreboard objectives setdisplay sidebar ({OBJECTIVE})$"),
    re.compile(rf"^scoreboard players (set|add|remove) ({HOLDER}) ({OBJECTIVE}) (-?\d+)$"),
    re.compile(rf"^scoreboard players operation ({HOLDER}) ({OBJECTIVE}) (\S+) ({HOLDER}) ({OBJECTIVE})$"),
    re.compile(rf"^scoreboard players reset ({HOLDER}) ({OBJECTIVE})$"),
]
GAME = {
    "setblock": re.compile(rf"^setblock ({TOKEN}) ({TOKEN}) ({TOKEN}) ({BLOCK_STATE})$"),
    "summon": re.compile(rf"^summon (minecraft:[a-z_]+) ({OFFSET}) ({OFFSET}) ({OFFSET}) (\{{.*\}})$"),
    "tellraw": re.compile(r"^tellraw (@a|@s) (\[.*\])$"),
}


def _game_command(line: str, where: str) -> Command | None:
    """A minigame command (see the module docstring), or None if the line is none of them."""
    word = line.split(" ", 1)[0]
    if word == "scoreboard":
        for number, pattern in enumerate(SCOREBOARD):
            match = pattern.match(line)
            if match:
                groups = match.groups()
                if number == 0 and groups[1] is not None:
                    _json(groups[1], where)
                if number == 3 and groups[2] not in OPERATIONS:
                    raise DatapackError(f"{where}: no scoreboard operation {groups[2]!r}")
                return Command("scoreboard", (number, *groups), line)
        return None
    if word == "execute":
        return _execute(line, where)
    match = GAME[word].match(line) if word in GAME else None
    if match is None:
        return None
    if word == "summon":
        import nbtlib

        try:
            nbtlib.parse_nbt(match.group(5))
        except Exception as error:  # nbtlib raises its own parse errors
            raise DatapackError(f"{where}: summon's NBT is not SNBT: {error}") from None
        return Command("summon-at", match.groups(), line)
    if word == "tellraw":
        _json(match.group(2), where)
        return Command("say", match.groups(), line)
    return Command(word, match.groups(), line)


def _json(text: str, where: str):
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise DatapackError(f"{where}: text is not JSON: {error}") from None


def _execute(line: str, where: str) -> Command | None:
    """``execute`` subcommands up to ``run``: kind ``run``, args (the subcommands, the command run)."""
    tokens = line.split(" ")[1:]
    steps, i = [], 0
    while i < len(tokens):
        token = tokens[i]
        if token == "run":
            inner = parse_command(" ".join(tokens[i + 1:]), where)
            return Command("run", (tuple(steps), inner), line)
        if token == "as" and re.fullmatch(ANY_SELECTOR, tokens[i + 1] if i + 1 < len(tokens) else ""):
            steps.append(("as", tokens[i + 1]))
            i += 2
        elif token == "at" and tokens[i + 1:i + 2] == ["@s"]:
            steps.append(("at",))
            i += 2
        elif token == "align" and tokens[i + 1:i + 2] == ["xyz"]:
            steps.append(("align",))
            i += 2
        elif token in ("if", "unless") and tokens[i + 1:i + 2] == ["entity"] and \
                re.fullmatch(ANY_SELECTOR, tokens[i + 2] if i + 2 < len(tokens) else ""):
            steps.append((token, "entity", tokens[i + 2]))
            i += 3
        elif token in ("if", "unless") and tokens[i + 1:i + 2] == ["score"] and len(tokens) > i + 5 \
                and re.fullmatch(HOLDER, tokens[i + 2]) and re.fullmatch(OBJECTIVE, tokens[i + 3]) \
                and tokens[i + 4] == "matches" and re.fullmatch(RANGE, tokens[i + 5]):
            steps.append((token, "score", tokens[i + 2], tokens[i + 3], tokens[i + 5]))
            i += 6
        else:
            return None
    return None


def _in_range(value: int, spec: str) -> bool:
    low, dots, high = spec.partition("..")
    if not dots:
        return value == int(low)
    return (not low or value >= int(low)) and (not high or value <= int(high))


@dataclass
class Entity:
    """A player or an entity of a :class:`Game`."""

    type: str
    pos: tuple[float, float, float]
    tags: frozenset = frozenset()
    name: str = ""


class Game:
    """Run a checked pack as the server would, for what a minigame needs: blocks placed by
    ``fill``/``setblock`` (a dict (x, y, z) -> state), entities and players, scores, the sidebar,
    ``#minecraft:load`` at the start and ``#minecraft:tick`` every tick, the schedule (run at world
    spawn, replacing an earlier schedule of the same function) and the messages told. Every chunk
    counts as loaded (the plain pack's chunk loading is checked by ``replay``)."""

    def __init__(self, pack: Datapack):
        self.pack = pack
        self.blocks: dict[tuple[int, int, int], str] = {}
        self.entities: list[Entity] = []
        self.scores: dict[tuple[str, str], int] = {}  # (objective, holder) -> score
        self.objectives: set[str] = set()
        self.sidebar: str | None = None
        self.queue: dict[str, int] = {}
        self.tick = 0
        self.messages: list[str] = []
        self.commands = 0
        for name in pack.tags.get("minecraft:load", []):
            self.call(name, None, (0.0, 0.0, 0.0))

    def player(self, name: str, pos) -> Entity:
        """A player joins at ``pos`` (x, y, z)."""
        self.entities.append(Entity("minecraft:player", tuple(pos), frozenset(), name))
        return self.entities[-1]

    def run(self, name: str, player: Entity) -> None:
        """``player`` runs ``/function name``, where they stand."""
        self.call(name, player, player.pos)

    def step(self, ticks: int = 1) -> None:
        """Let ``ticks`` game ticks pass: the tick tag's functions, then the functions due."""
        for _ in range(ticks):
            self.tick += 1
            for name in self.pack.tags.get("minecraft:tick", []):
                self.call(name, None, (0.0, 0.0, 0.0))
            for name in sorted(n for n, t in self.queue.items() if t <= self.tick):
                del self.queue[name]
                self.call(name, None, (0.0, 0.0, 0.0))

    def settle(self, most: int = 10_000) -> None:
        """Tick until nothing is scheduled."""
        for _ in range(most):
            if not self.queue:
                return
            self.step()
        raise DatapackError("the schedule never ends")

    def score(self, holder: str, objective: str) -> int | None:
        return self.scores.get((objective, holder))

    def near(self, tag: str, pos) -> bool:
        return any(tag in e.tags and math.dist(e.pos, pos) <= 1 for e in self.entities)

    # -- running commands

    def call(self, name: str, executor: Entity | None, pos) -> None:
        if name not in self.pack.functions:
            raise DatapackError(f"function {name} does not exist")
        for command in self.pack.functions[name]:
            self.commands += 1
            self.execute(command, executor, pos)

    def _holder(self, entity: Entity) -> str:
        return entity.name or f"entity-{id(entity)}"

    def select(self, selector: str, executor: Entity | None, pos) -> list[Entity]:
        if selector == "@s":
            return [executor] if executor is not None else []
        kind, _, rest = selector.partition("[")
        fields = dict(f.split("=", 1) for f in re.split(r",(?![^{]*\})", rest[:-1])) if rest else {}
        found = [e for e in self.entities if (e.type == "minecraft:player") == (kind == "@a")]
        if "type" in fields:
            found = [e for e in found if e.type == fields["type"]]
        if "tag" in fields:
            found = [e for e in found if fields["tag"] in e.tags]
        if "distance" in fields:
            limit = float(fields["distance"].lstrip("."))
            found = sorted((e for e in found if math.dist(e.pos, pos) <= limit),
                           key=lambda e: math.dist(e.pos, pos))
        if "scores" in fields:
            objective, value = fields["scores"][1:-1].split("=")
            found = [e for e in found if self.score(self._holder(e), objective) == int(value)]
        if "limit" in fields:
            found = found[:int(fields["limit"])]
        return found

    def holders(self, holder: str, objective: str, executor, pos) -> list[str]:
        if holder.startswith("#"):
            return [holder]
        if holder == "*":
            return [h for o, h in self.scores if o == objective]
        return [self._holder(e) for e in self.select(holder, executor, pos)]

    def _at(self, offsets, pos) -> tuple[int, int, int]:
        return tuple(int(math.floor(p + _offset(v))) for p, v in zip(pos, offsets, strict=True))

    def execute(self, command: Command, executor: Entity | None, pos) -> None:
        kind, args = command.kind, command.args
        if kind == "fill":
            low = self._at(["~" + (v or "") for v in args[:3]], pos)
            high = self._at(["~" + (v or "") for v in args[3:6]], pos)
            for x in range(min(low[0], high[0]), max(low[0], high[0]) + 1):
                for y in range(min(low[1], high[1]), max(low[1], high[1]) + 1):
                    for z in range(min(low[2], high[2]), max(low[2], high[2]) + 1):
                        self.blocks[(x, y, z)] = args[6]
        elif kind == "setblock":
            self.blocks[self._at(args[:3], pos)] = args[3]
        elif kind in ("summon", "summon-at"):
            at = pos if kind == "summon" else tuple(p + _offset(v) for p, v in zip(pos, args[1:4], strict=True))
            tags = frozenset(re.findall(r'"([a-z_]+)"', re.search(r"Tags:\[([^\]]*)\]", args[-1]).group(1)))
            self.entities.append(Entity(args[0], at, tags))
        elif kind == "kill":
            gone = self.select(args[0], executor, pos)
            self.entities = [e for e in self.entities if e not in gone]
        elif kind == "tp":
            pass  # turning the player does not move them
        elif kind == "function":
            self.call(args[0], executor, pos)
        elif kind == "schedule":
            self.queue[args[0]] = self.tick + int(args[1])
        elif kind == "execute":  # the plain pack's: as the marker, at it, if its chunks are loaded
            for entity in self.select(args[0], executor, pos):
                self.call(args[2], entity, entity.pos)
        elif kind == "execute-unless":
            pass  # every chunk is loaded here: never looks again
        elif kind in ("tellraw", "data", "forceload"):
            if kind == "tellraw":
                self.messages.append(json.loads(args[0])["text"])
        elif kind == "say":
            for _ in self.select(args[0], executor, pos):
                self.messages.append(self._text(json.loads(args[1]), executor, pos))
                if args[0] == "@a":
                    break  # one message told to everyone, kept once
        elif kind == "scoreboard":
            self._scoreboard(args, executor, pos)
        elif kind == "run":
            self._run(args[0], args[1], executor, pos)
        else:  # pragma: no cover - the checker admits nothing else
            raise DatapackError(f"the game cannot run {command.text}")

    def _run(self, steps, inner: Command, executor, pos) -> None:
        if not steps:
            self.execute(inner, executor, pos)
            return
        step, rest = steps[0], steps[1:]
        if step[0] == "as":
            for entity in self.select(step[1], executor, pos):
                self._run(rest, inner, entity, pos)
        elif step[0] == "at":
            self._run(rest, inner, executor, executor.pos)
        elif step[0] == "align":
            self._run(rest, inner, executor, tuple(float(math.floor(p)) for p in pos))
        else:
            if step[1] == "entity":
                holds = bool(self.select(step[2], executor, pos))
            else:
                found = [self.score(h, step[3]) for h in self.holders(step[2], step[3], executor, pos)]
                holds = bool(found) and all(v is not None and _in_range(v, step[4]) for v in found)
            if holds == (step[0] == "if"):
                self._run(rest, inner, executor, pos)

    def _scoreboard(self, args, executor, pos) -> None:
        number, *groups = args
        if number == 0:
            self.objectives.add(groups[0])
        elif number == 1:
            self.sidebar = groups[0]
        elif number == 2:
            action, holder, objective, value = groups
            for name in self.holders(holder, objective, executor, pos):
                old = self.scores.get((objective, name), 0)
                self.scores[(objective, name)] = {"set": int(value), "add": old + int(value),
                                                  "remove": old - int(value)}[action]
        elif number == 3:
            target, objective, operation, source, source_objective = groups
            sources = self.holders(source, source_objective, executor, pos)
            for name in self.holders(target, objective, executor, pos):
                for other in sources:  # an unset score counts as 0, as the game creates it
                    a = self.scores.get((objective, name), 0)
                    b = self.scores.get((source_objective, other), 0)
                    self.scores[(objective, name)] = {
                        "=": b, "<": min(a, b), ">": max(a, b), "+=": a + b, "-=": a - b,
                        "*=": a * b, "/=": a // b if b else a, "%=": a % b if b else a}[operation]
        elif number == 4:
            holder, objective = groups
            for name in self.holders(holder, objective, executor, pos):
                self.scores.pop((objective, name), None)
        used = {1: (0,), 2: (2,), 3: (1, 4), 4: (1,)}.get(number, ())
        used = [groups[i] for i in used]
        for objective in used:
            if objective not in self.objectives:
                raise DatapackError(f"scoreboard objective {objective} was never added")

    def _text(self, components, executor, pos) -> str:
        out = []
        for part in components if isinstance(components, list) else [components]:
            if "text" in part:
                out.append(part["text"])
            elif "selector" in part:
                out.append(", ".join(e.name for e in self.select(part["selector"], executor, pos)))
            elif "score" in part:
                name = part["score"]["name"]
                holder = self._holder(executor) if name == "@s" else name
                out.append(str(self.score(holder, part["score"]["objective"])))
        return "".join(out)


def _offset(token: str) -> float:
    return float(token[1:] or 0)
