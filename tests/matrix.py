"""Every combination a user can make, as cases: command x grid x features x output format.

Three families of options, each with its own dimensions (a dimension's first value is the
command's default, left out of the job):

* ``graph``: ``generate`` and ``export`` (a maze document written by ``generate`` first, then
  exported) on every grid kind (square, hex, upsilon, triangle, polar, layered, weave, a masked
  square, a unicursal square and hex, a classical labyrinth of 3 circuits) at 4x5 cells, with entrances, solution, braid, lights, roof, thick walls and passages,
  weave bridges (weave only) and a theme;
* ``blockwise``: 9x11 blocks strict and relaxed, and 5x9x11 strict 3-D, with lights, roof,
  thickness (strict only) and a theme;
* ``dungeon``: 12x14 cells, each of the five styles at 1 and 2 levels, with spawns, a lock,
  lights, roof and a theme;

each times every output format of :data:`blockmaze.export.FORMATS` that is not a companion.
:func:`full_product` yields every valid case, :func:`pairwise` a deterministic greedy all-pairs
cover of them (every pair of values of two dimensions that some valid case holds is in some
case of the cover).

:func:`run_case` runs a case through :func:`blockmaze.jobs.run` in a folder and classifies it:

* ``works``: the files are there (no stray or half-written file), ``blockmaze info`` reads each
  back, an independent reader reads it where one is installed and cheap (NBT checkers, nbtlib,
  trimesh with every mesh closed and manifold, pytmx, pytiled-parser, numpy, Pillow, XML), the
  Java block states are valid for the release (minecraft-data), and every requested feature is
  in the output or was warned about (UnusedOptionWarning / BlockmazeWarning);
* ``refused``: one line of BlockmazeError, and the folder is empty;
* ``failed``: anything else (a traceback, a feature silently dropped, a reader rejecting the
  file, a message of several lines, files left behind by a refusal).

How a feature is found in a file: by name where the format names its materials or entities
(block states through the theme, mesh materials, tile kinds and glyphs, entity kinds), by shape
for a roof (the top layer of the volume read back is closed) and entrances (the walking layer's
outer ring has an opening); where a format keeps no such names (STL, PLY, 3MF, pictures, the
legacy .schematic, .mts, a maze document), the output must differ from the same case run
without that feature (a feature that changes nothing was dropped).
"""

from __future__ import annotations

import itertools
import json
import random
import re
import shutil
import tempfile
import time
import traceback
import warnings
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from blockmaze import jobs
from blockmaze.commands import FORMAT_NAMES
from blockmaze.errors import BlockmazeError
from blockmaze.export import FORMATS
from blockmaze.materials import DEFAULT_THEME, Material, load_theme

SEED = 7
THEME = "hedge"  # the theme a case may choose (the default is stone-bricks)
FORMATS_TESTED = tuple(FORMAT_NAMES)  # every output format that is not a companion

GRIDS = ("square", "hex", "upsilon", "triangle", "polar", "layered", "weave", "masked",
         "unicursal", "unicursal-hex", "labyrinth")
SIZES = {"layered": "2x4x5", "polar": "4"}  # the rest are 4x5 cells
MASK = "....X\n.....\n.....\nX....\n"  # a 4x5 mask, two corners off
OFF, ON = "off", "on"

FAMILIES: dict[str, dict[str, tuple[str, ...]]] = {
    "graph": {
        "command": ("generate", "export"),
        "grid": GRIDS,
        "entrances": (OFF, ON),
        "solution": (OFF, ON),
        "braid": (OFF, ON),
        "lights": (OFF, ON),
        "roof": (OFF, ON),
        "thickness": (OFF, ON),
        "bridges": (OFF, ON),
        "theme": (OFF, ON),
        "format": FORMATS_TESTED,
    },
    "blockwise": {
        "command": ("blockwise",),
        "grid": ("strict", "relaxed", "strict-3d"),
        "lights": (OFF, ON),
        "roof": (OFF, ON),
        "thickness": (OFF, ON),
        "theme": (OFF, ON),
        "format": FORMATS_TESTED,
    },
    "dungeon": {
        "command": ("dungeon",),
        "grid": ("rooms-and-mazes", "bsp", "caves", "digger", "mixed"),
        "levels": ("1", "2"),
        "spawns": (OFF, ON),
        "lock": (OFF, ON),
        "lights": (OFF, ON),
        "roof": (OFF, ON),
        "theme": (OFF, ON),
        "format": FORMATS_TESTED,
    },
}
FEATURES = ("entrances", "solution", "braid", "lights", "roof", "thickness", "bridges", "theme",
            "spawns", "lock")


def valid(family: str, values: dict[str, str]) -> bool:
    """Whether ``values`` (some or all of a family's dimensions) can be combined at all: the
    options exist for that command, grid and mode (whether the output takes them is what the
    matrix tests)."""
    if family == "graph" and values.get("bridges") == ON and values.get("grid", "weave") != "weave":
        return False  # --bridges is for weave mazes only
    if family == "graph" and values.get("braid") == ON \
            and values.get("grid", "square") in ("unicursal", "unicursal-hex", "labyrinth"):
        return False  # one path: no loops to open (refused or not an option there)
    if family == "graph" and values.get("entrances") == ON and values.get("grid") == "labyrinth":
        return False  # a labyrinth has its entrance by design
    # --wall and --passage are strict mode's
    return not (family == "blockwise" and values.get("thickness") == ON
                and values.get("grid", "strict") == "relaxed")


@dataclass(frozen=True)
class Case:
    """One combination: its family and a value for each of the family's dimensions."""

    family: str
    values: tuple[tuple[str, str], ...]

    @property
    def v(self) -> dict[str, str]:
        return dict(self.values)

    @property
    def command(self) -> str:
        return self.v["command"]

    @property
    def format(self) -> str:
        return self.v["format"]

    @property
    def features(self) -> tuple[str, ...]:
        """The features the case asks for."""
        return tuple(name for name, value in self.values if name in FEATURES and value == ON) \
            + (("levels",) if self.v.get("levels") == "2" else ())

    @property
    def id(self) -> str:
        """``generate-hex-solution-lights-schem``: command, grid, the features on, format."""
        v = self.v
        parts = [v["command"], v["grid"]] + (["2levels"] if v.get("levels") == "2" else []) \
            + [name for name in self.features if name != "levels"] + [v["format"]]
        return "-".join(parts)

    def without(self, feature: str) -> Case:
        return Case(self.family, tuple((n, OFF if n == feature else value)
                                       for n, value in self.values))


def _case(family: str, values: dict[str, str]) -> Case:
    return Case(family, tuple((name, values[name]) for name in FAMILIES[family]))


def full_product() -> Iterator[Case]:
    """Every valid case, family by family."""
    for family, dimensions in FAMILIES.items():
        names = list(dimensions)
        for combination in itertools.product(*dimensions.values()):
            values = dict(zip(names, combination, strict=True))
            if valid(family, values):
                yield _case(family, values)


def full_count() -> int:
    return sum(1 for _ in full_product())


def _pairs_of(family: str, values: dict[str, str]) -> set:
    names = list(FAMILIES[family])
    return {((a, values[a]), (b, values[b])) for i, a in enumerate(names) for b in names[i + 1:]}


def pairwise(seed: int = 0, tries: int = 20) -> list[Case]:
    """A greedy all-pairs cover of :func:`full_product`, the same list every time: each new case
    is the best of ``tries`` candidates, each built dimension by dimension (most values first)
    taking the value that covers most pairs still uncovered with the values already chosen."""
    rng = random.Random(seed)
    cover = []
    for family, dimensions in FAMILIES.items():
        names = sorted(dimensions, key=lambda n: -len(dimensions[n]))
        uncovered = set()
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                for va in dimensions[a]:
                    for vb in dimensions[b]:
                        if valid(family, {a: va, b: vb}):
                            uncovered.add(_pair(a, va, b, vb, family))
        while uncovered:
            best, best_gain = None, -1
            # the first dimension pair still uncovered seeds each candidate, so every case covers
            first = min(uncovered)
            for _ in range(tries):
                chosen = dict(first)
                order = [n for n in names if n not in chosen]
                rng.shuffle(order)
                for name in order:
                    options = list(dimensions[name])
                    rng.shuffle(options)
                    scored = []
                    for value in options:
                        trial = {**chosen, name: value}
                        if not valid(family, trial):
                            continue
                        gain = sum(_pair(name, value, other, chosen[other], family) in uncovered
                                   for other in chosen)
                        scored.append((gain, value))
                    chosen[name] = max(scored, key=lambda s: s[0])[1]
                gain = len(_pairs_of(family, chosen) & uncovered)
                if gain > best_gain:
                    best, best_gain = chosen, gain
            uncovered -= _pairs_of(family, best)
            cover.append(_case(family, best))
    return cover


def _pair(a, va, b, vb, family):
    """A pair in the order the family lists its dimensions."""
    names = list(FAMILIES[family])
    return ((a, va), (b, vb)) if names.index(a) < names.index(b) else ((b, vb), (a, va))


# --- a case as a job -----------------------------------------------------------------------------

def output_name(fmt: str) -> str:
    row = FORMATS[fmt]
    if row.folder:
        return "maze"
    return "maze" + (row.suffixes[0] if row.suffixes else ".zip")


def generation_values(case: Case, folder: Path) -> dict:
    """The options that make the maze of a graph case (generate's own, before any output)."""
    v = case.v
    grid = v["grid"]
    if grid == "labyrinth":  # its size is its circuits
        return {"seed": SEED, "kind": "labyrinth", "circuits": 3}
    values = {"size": SIZES.get(grid, "4x5"), "seed": SEED,
              "kind": {"masked": "square", "unicursal": "square", "unicursal-hex": "hex"}.get(grid, grid)}
    if grid.startswith("unicursal"):
        values["unicursal"] = True
    if grid == "masked":
        mask = folder / "mask.txt"
        mask.write_text(MASK)
        values["mask"] = str(mask)
    if grid == "weave":
        values["weave"] = 0.5
    if v["entrances"] == ON:
        values["entrances"] = True
    if v["braid"] == ON:
        values["braid"] = 0.5
    return values


def job_values(case: Case, output: Path, source: Path) -> tuple[str, dict]:
    """The command and options of ``case`` writing ``output`` (``source``: a folder for inputs:
    the mask, the maze document an export reads)."""
    v = case.v
    values: dict = {"output": str(output), "format_": v["format"]}
    for name in ("lights", "roof"):
        if v[name] == ON:
            values[name] = True
    if v["theme"] == ON:
        values["theme"] = THEME
    if case.family == "graph":
        generation = generation_values(case, source)
        if case.command == "generate":
            values.update(generation)
        else:
            document = source / "maze.json"
            if not document.exists():
                jobs.run("generate", **generation, output=str(document))
            values["document"] = str(document)
        if v["solution"] == ON:
            values["solution"] = True
        if v["thickness"] == ON:
            values.update(wall=2, passage=2)
        if v["grid"] == "weave":
            values["height"] = 5  # bridges need walls of 5 (tunnels take them too)
        if v["bridges"] == ON:
            values["bridges"] = True
        return case.command, values
    values["seed"] = SEED
    if case.family == "blockwise":
        grid = v["grid"]
        values["size"] = "5x9x11" if grid == "strict-3d" else "9x11"
        if grid == "relaxed":
            values["mode"] = "relaxed"
        if v["thickness"] == ON:  # 9 = 1 + 2 * (3 + 1) along z, 11 = 1 + 2 * (4 + 1) along x
            values.update(wall=1, passage="3x4")
        return "blockwise", values
    values.update(size="12x14")
    if v["grid"] != "rooms-and-mazes":
        values["style"] = v["grid"]
    if v["levels"] != "1":
        values["levels"] = int(v["levels"])
    if v["spawns"] == ON:
        values["spawns"] = "2:1:1"
    if v["lock"] == ON:
        values["lock"] = True
    return "dungeon", values


def command_line(case: Case) -> str:
    """The ``blockmaze`` command line that runs ``case`` (an export's: after its generate)."""
    folder = Path("/tmp/m")
    command, values = job_values_dry(case, folder)
    words = ["blockmaze", command]
    positional = values.pop("size", None) or values.pop("document", None)
    if positional:
        words.append(str(positional))
    for name, value in values.items():
        flag = {"format_": "--format", "kind": "--grid", "output": "-o"}.get(
            name, "--" + name.replace("_", "-"))
        words += [flag] if value is True else [flag, str(value)]
    line = " ".join(words)
    if case.family == "graph" and case.command == "export":
        generation = generation_values_dry(case, folder)
        pre = ["blockmaze", "generate", *([generation.pop("size")] if "size" in generation else [])]
        for name, value in generation.items():
            flag = {"kind": "--grid"}.get(name, "--" + name)
            pre += [flag] if value is True else [flag, str(value)]
        line = " ".join(pre + ["-o", "/tmp/m/maze.json"]) + " && " + line
    if case.v.get("grid") == "masked":
        line = f"printf '{MASK.encode('unicode_escape').decode()}' > /tmp/m/mask.txt && " + line
    return "mkdir -p /tmp/m && " + line


def generation_values_dry(case: Case, folder: Path) -> dict:
    with tempfile.TemporaryDirectory() as scratch:
        values = generation_values(case, Path(scratch))
    if "mask" in values:
        values["mask"] = str(folder / "mask.txt")
    return values


def job_values_dry(case: Case, folder: Path) -> tuple[str, dict]:
    scratch = Path(tempfile.mkdtemp())
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            command, values = job_values(case, folder / output_name(case.format), scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if "mask" in values:
        values["mask"] = str(folder / "mask.txt")
    if "document" in values:
        values["document"] = str(folder / "maze.json")
    return command, values


# --- running and classifying ---------------------------------------------------------------------

@dataclass
class Result:
    case: Case
    status: str  # works, refused, failed
    why: str = ""
    warned: list[str] = field(default_factory=list)
    seconds: float = 0.0


class Failure(Exception):
    """A check the output does not pass."""


def run_case(case: Case, root: Path | None = None) -> Result:
    """Run ``case`` in a fresh folder under ``root`` (a temporary one by default) and classify it."""
    made = root is None
    root = Path(tempfile.mkdtemp(prefix="matrix-")) if made else root
    start = time.perf_counter()
    try:
        result = _classify(case, root)
    except Exception as error:  # noqa: BLE001 (a bug in the checks themselves still names the case)
        result = Result(case, "failed", f"checker crashed: {type(error).__name__}: {error}")
    finally:
        if made:
            shutil.rmtree(root, ignore_errors=True)
    result.seconds = time.perf_counter() - start
    return result


def _run(case: Case, root: Path):
    """Run the case: (outcome or the exception, warning messages, output folder)."""
    source, out = root / "source", root / "out"
    source.mkdir(parents=True, exist_ok=True)
    out.mkdir(parents=True, exist_ok=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            command, values = job_values(case, out / output_name(case.format), source)
        except BaseException as error:  # noqa: BLE001 (the export's generate step)
            return ("setup", error), [], out
        try:
            outcome = jobs.run(command, **values)
        except BaseException as error:  # noqa: BLE001 (every error is a result)
            return ("run", error), [str(w.message) for w in caught], out
    return outcome, [str(w.message) for w in caught], out


def _classify(case: Case, root: Path) -> Result:
    outcome, warned, out = _run(case, root)
    if isinstance(outcome, tuple):
        step, error = outcome
        if isinstance(error, KeyboardInterrupt):
            raise error
        if step == "run" and isinstance(error, BlockmazeError):
            message = str(error)
            left = sorted(p.name for p in out.iterdir())
            if "\n" in message:
                return Result(case, "failed", f"refusal of several lines: {message!r}", warned)
            if left:
                return Result(case, "failed", f"refused ({message}) but left {left}", warned)
            return Result(case, "refused", message, warned)
        lines = traceback.format_exception(error)
        where = next((line.strip() for line in reversed(lines) if "blockmaze/" in line), "")
        return Result(case, "failed", f"{step}: {type(error).__name__}: {error} ({where})", warned)
    try:
        check_output(case, outcome, out, warned, root)
    except Failure as failure:
        return Result(case, "failed", str(failure), warned)
    return Result(case, "works", "", warned)


def _warned_of(feature: str, warned: list[str]) -> bool:
    flags = {"thickness": ("--wall", "--passage"), "levels": ("--levels",),
             "braid": ("--braid",)}.get(feature, ("--" + feature,))
    return any(any(message.startswith(flag + " ") for flag in flags) for message in warned)


def check_output(case: Case, outcome, out: Path, warned: list[str], root: Path) -> None:
    """Every check of a case that ran: files, readers, features."""
    paths = [Path(p) for p in outcome.paths]
    if not paths:
        raise Failure("ran but names no file written")
    expected = {p.name for p in paths} | {Path(p).name for p in outcome.companions}
    present = {p.name for p in out.iterdir()}
    # a dungeon's Outcome leaves its companions out (reported): known companion names pass
    stray = {name for name in present - expected if not COMPANION.search(name)}
    if stray:
        raise Failure(f"stray files beside the output: {sorted(stray)}")
    for path in paths:
        if not path.exists() or (path.is_file() and path.stat().st_size == 0):
            raise Failure(f"{path.name} missing or empty")
    for message in warned:
        if "\n" in message:
            raise Failure(f"a warning of several lines: {message!r}")
    infos = []
    for path in paths:
        try:
            infos.append(jobs.run("info", path=str(path)).text)
        except Exception as error:  # noqa: BLE001 (every error is a result)
            raise Failure(f"blockmaze info cannot read {path.name}: {error}") from None
    for path in paths:
        try:
            independent_check(case, path)
        except Failure:
            raise
        except Exception as error:  # noqa: BLE001 (every error is a result)
            raise Failure(f"independent reader rejects {path.name}: "
                          f"{type(error).__name__}: {error}") from None
    if case.format in ("world", "world-zip"):  # the states the info reader found in the regions
        for info in infos:
            _check_states(set(re.findall(r"^\s+(minecraft:\S+)\s+\d+$", info, re.MULTILINE)), case.format)
    if case.family == "dungeon" and "lock" in case.features and not _warned_of("lock", warned) \
            and "key" not in placed(case):
        raise Failure("--lock placed no lock and key (no door cuts the goal off) and said nothing")
    evidence = Evidence(case, outcome, paths, infos)
    for feature in case.features:
        if feature in ("theme", "thickness", "braid", "levels"):
            continue  # no mark of its own in a file: the readers and the other checks cover it
        if _warned_of(feature, warned):
            continue
        if not evidence.shows(feature, root):
            raise Failure(f"--{feature} silently dropped: not in the {case.format} output and "
                          f"not warned of")
    if "levels" in case.features and FORMATS[case.format].source == "plan" and len(paths) != 2:
        raise Failure(f"2 levels to a tile map wrote {len(paths)} files")


# --- the independent readers ----------------------------------------------------------------------

def _mc_version(case: Case) -> str:
    from blockmaze.export.minecraft.versions import DEFAULT_MC_VERSION

    return DEFAULT_MC_VERSION


_BLOCKDATA = None


def _unknown_state(state: str) -> bool:
    """True if minecraft-data does not know the state (None: minecraft-data is not installed)."""
    global _BLOCKDATA
    if _BLOCKDATA is None:
        try:
            import test_blockdata

            test_blockdata.mcdata()
            _BLOCKDATA = test_blockdata
        except BaseException:  # noqa: BLE001 (every error is a result)
            _BLOCKDATA = False
    if not _BLOCKDATA:
        return False
    return _BLOCKDATA.unknown_to_mcdata(state, _mc_version(None))


def _check_states(states, what: str) -> None:
    bad = sorted(s for s in states if _unknown_state(s))
    if bad:
        raise Failure(f"{what}: block states unknown to minecraft-data {_mc_version(None)}: {bad[:3]}")


def _closed(vertices, faces, what: str, merge: bool = True) -> None:
    """Closed and manifold: every edge in exactly two faces, the vertices merged by position
    first (``merge``), or as the file indexes them (3MF judges by index: its core spec, §4.1)."""
    import trimesh

    if len(faces) == 0:
        return
    mesh = trimesh.Trimesh(np.asarray(vertices, float), np.asarray(faces), process=merge)
    _, counts = np.unique(mesh.edges_sorted, axis=0, return_counts=True)
    if not (counts == 2).all() or not mesh.is_winding_consistent:
        raise Failure(f"{what} is not closed and manifold (edges in "
                      f"{sorted(set(counts.tolist()))} faces)")


def _obj_colours(case: Case, path: Path) -> None:
    """Each material the .obj uses has its theme's colour (Kd in sRGB, as three.js and Godot
    read it) in the .mtl beside it."""
    theme = load_theme(THEME if case.v.get("theme") == ON else DEFAULT_THEME)
    used = set(re.findall(r"^usemtl\s+(\S+)", path.read_text(), re.MULTILINE))
    library = re.search(r"^mtllib\s+(.+)$", path.read_text(), re.MULTILINE)
    if not library:
        raise Failure("obj names no mtllib")
    colours = dict(re.findall(r"^newmtl\s+(\S+)\s*\nKd\s+([^\n]+)", (path.parent / library[1].strip())
                              .read_text(), re.MULTILINE))
    for name in used:
        if name not in colours:
            raise Failure(f"obj uses material {name} the .mtl does not define")
        if name.upper() in Material.__members__:
            want = [c / 255 for c in theme.color(Material[name.upper()])]
            got = [float(x) for x in colours[name].split()]
            if max(abs(a - b) for a, b in zip(want, got, strict=True)) > 2e-3:
                raise Failure(f"obj material {name}: Kd {got} is not the theme's colour {want}")


def independent_check(case: Case, path: Path) -> None:
    fmt = case.format
    watertight = True  # the default mesh
    if fmt == "schem":
        from schem_checker import read_schem

        _check_states(read_schem(path.read_bytes()).palette, "schem")
    elif fmt == "litematic":
        from litematic_checker import read_litematic

        regions = read_litematic(path.read_bytes()).regions.values()
        _check_states({s for region in regions for s in region.palette}, "litematic")
    elif fmt == "structure":
        from structure_checker import read_structure

        _check_states(read_structure(path.read_bytes()).palette, "structure")
    elif fmt == "datapack":
        from mcfunction_checker import PACK_FORMATS, read_datapack

        if _mc_version(case) in PACK_FORMATS:
            read_datapack(path.read_bytes(), _mc_version(case))
        else:
            zipfile.ZipFile(path).testzip()
    elif fmt == "schematic":
        from nbt import nbt

        nbt.NBTFile(str(path))
    elif fmt == "mcstructure":
        import nbtlib

        nbtlib.load(str(path), byteorder="little")
    elif fmt == "mcworld":  # Mojang's LevelDB reads every record
        import tempfile

        import leveldb

        with tempfile.TemporaryDirectory() as folder:
            zipfile.ZipFile(path).extractall(folder)
            db = leveldb.LevelDB(str(Path(folder) / "db"))
            try:
                if not sum(1 for _ in db.iterate()):
                    raise Failure(f"{path.name}: the world's LevelDB holds no record")
            finally:
                db.close()
    elif fmt in ("mcpack", "world-zip", "npz"):
        with zipfile.ZipFile(path) as archive:
            bad = archive.testzip()
            if bad:
                raise Failure(f"{path.name}: zip member {bad} is corrupt")
            if fmt == "npz":  # python-tcod computes a field of view on the arrays as they are
                import tcod.map

                arrays = np.load(path)
                for name in arrays.files:
                    arrays[name]
                transparent = arrays["transparent"]
                if str(arrays["order"]) == "C":
                    z, x = np.argwhere(arrays["walkable"])[0]
                    tcod.map.compute_fov(transparent, (int(z), int(x)))
    elif fmt == "world":
        import anvil

        regions = sorted((path / "region").glob("*.mca"))
        if not regions:
            raise Failure("world has no region file")
        region = anvil.Region.from_file(str(regions[0]))
        region.chunk_data(0, 0)
    elif fmt in ("glb", "gltf"):
        import trimesh

        scene = trimesh.load(str(path), force="scene", process=False)
        if watertight:  # the chunks of every material together close (one node is not closed)
            mesh = scene.to_geometry()
            _closed(mesh.vertices, mesh.faces, f"{fmt} scene")
    elif fmt == "stl":
        from stl import mesh as stl_mesh

        solid = stl_mesh.Mesh.from_file(str(path))
        vertices = solid.vectors.reshape(-1, 3)
        _closed(vertices, np.arange(len(vertices)).reshape(-1, 3), "stl solid")
    elif fmt == "ply":
        import trimesh

        mesh = trimesh.load(str(path), process=False, force="mesh")
        _closed(mesh.vertices, mesh.faces, "ply mesh")
    elif fmt == "obj":
        import trimesh

        mesh = trimesh.load(str(path), force="mesh", process=False)
        _closed(mesh.vertices, mesh.faces, "obj groups together")
        _obj_colours(case, path)
    elif fmt == "3mf":
        import lib3mf

        wrapper = lib3mf.get_wrapper()
        model = wrapper.CreateModel()
        model.QueryReader("3mf").ReadFromFile(str(path))
        objects = model.GetMeshObjects()
        while objects.MoveNext():
            mesh = objects.GetCurrentMeshObject()
            vertices = [tuple(v.Coordinates) for v in mesh.GetVertices()]
            faces = [tuple(t.Indices) for t in mesh.GetTriangleIndices()]
            _closed(vertices, faces, f"3mf object {mesh.GetName()!r}", merge=False)
    elif fmt == "tmx":
        import pytmx

        pytmx.TiledMap(str(path))
    elif fmt == "tmj":
        from pytiled_parser import parse_map

        parse_map(path)
    elif fmt == "ldtk":
        from ldtkpy.api import ldtk_json_from_dict

        ldtk_json_from_dict(json.loads(path.read_text()))
    elif fmt == "png":
        from PIL import Image

        with Image.open(path) as image:
            image.verify()
    elif fmt == "svg":
        import xml.etree.ElementTree as ET

        ET.parse(path)
    elif fmt in ("maze", "tilemap"):
        json.loads(path.read_text())


# --- the features in a file ----------------------------------------------------------------------

SPAWN_KINDS = ("monster", "item", "treasure")
COMPANION = re.compile(r"(-tiles\.png|\.mtl|\.tsx|\.tsj)$")
JAVA = ("schem", "litematic", "structure", "world", "world-zip", "mcstructure", "mcpack",
        "datapack", "mcworld")
NAMED = ("glb", "gltf", "vox", "tmx", "tmj", "npz", "obj")  # name their materials
GLYPHS = ("ascii", "xp", "tilemap")
ENTITY_TEXT = ("tmx", "tmj", "ldtk", "tilemap", "ascii")  # name entity kinds in their text
ENTITY_NPZ = ("npz",)
DIFFERENTIAL = ("stl", "ply", "3mf", "png", "svg", "pdf", "schematic", "mts", "maze", "ldtk", "pieces",
                "pieces-csv", "kit", "tscn")


class Evidence:
    """What a case's files show: the material and entity names found in them."""

    def __init__(self, case: Case, outcome, paths: list[Path], infos: list[str]):
        self.case, self.outcome, self.paths, self.infos = case, outcome, paths, infos
        self.theme = load_theme(THEME if case.v.get("theme") == ON else DEFAULT_THEME)
        self._names: set[str] | None = None

    def names(self) -> set[str]:
        """Material and entity names found in the files."""
        if self._names is None:
            self._names = set()
            for path, info in zip(self.paths, self.infos, strict=True):
                self._names |= self._names_in(path, info)
        return self._names

    def _names_in(self, path: Path, info: str) -> set[str]:
        fmt = self.case.format
        found: set[str] = set()
        if fmt in JAVA:
            states = set(re.findall(r"minecraft:[a-z_]+", info))
            if fmt == "datapack":
                with zipfile.ZipFile(path) as archive:
                    for name in archive.namelist():
                        if name.endswith(".mcfunction"):
                            states |= set(re.findall(r"minecraft:[a-z_]+",
                                                     archive.read(name).decode()))
            found |= self._materials_of_states(states)
        if fmt in ("glb", "gltf"):
            line = next((text for text in info.splitlines() if "materials:" in text), "")
            found |= {w.strip() for w in line.partition("materials:")[2].split(",")}
        if fmt in ("vox", "tmx", "tmj", "npz"):
            found |= set(re.findall(r"^  ([a-z]+)\s+\d+$", info, re.MULTILINE))
        if fmt == "obj":
            found |= set(re.findall(r"^usemtl\s+(\S+)", path.read_text(), re.MULTILINE))
        if fmt in GLYPHS:
            glyphs = set(re.findall(r"^  '(.)'\s+\d+$", info, re.MULTILINE))
            for material in Material:
                if self.theme.glyph(material) in glyphs:
                    found.add(material.name.lower())
            if "k" in glyphs:
                found.add("key")
            if "L" in glyphs:
                found.add("locked")
        if fmt in ENTITY_TEXT:
            text = path.read_text(errors="replace").lower()
            for kind in SPAWN_KINDS + ("key",):
                if re.search(rf"\b{kind}\b", text):
                    found.add(kind)
            if re.search(r"\blocked\b", text):
                found.add("locked")
        if fmt in ENTITY_NPZ:
            arrays = np.load(path)
            if "entity_kind" in arrays.files:
                kinds = {str(k) for k in arrays["entity_kind"]}
                found |= kinds & set(SPAWN_KINDS + ("key",))
                if "door-locked" in kinds:
                    found.add("locked")
        return {name.lower() for name in found}

    def _materials_of_states(self, states: set[str]) -> set[str]:
        """The materials whose theme blocks are among ``states`` (names without properties)."""
        from blockmaze.export.minecraft.bedrock import bedrock_state

        found = set()
        bedrock = self.case.format in ("mcstructure", "mcpack", "mcworld")
        for material in Material:
            if material == Material.AIR:
                continue
            try:
                choices = self.theme.minecraft_choices(material)
            except KeyError:
                continue
            names = {state.partition("[")[0] for state, _ in choices}
            if bedrock:
                names |= {bedrock_state(state)[0] for state, _ in choices}
            if names & states:
                found.add(material.name.lower())
        return found

    def shows(self, feature: str, root: Path) -> bool:
        fmt = self.case.format
        if feature == "roof":
            return self._roofed(root)
        if feature == "entrances":
            return self._open_ring() if self._has_volume() else self._differs(feature, root)
        if fmt in DIFFERENTIAL:
            return self._differs(feature, root)
        names = self.names()
        if feature == "bridges":  # their stairs, and a file unlike the tunnels' one
            return "stairs" in names and self._differs(feature, root)
        if feature == "solution":
            return {"path", "start", "goal"} <= names or {"start", "goal"} <= names and \
                fmt in ("tmx", "tmj", "ldtk")  # tile maps: ends as entities
        if feature == "lights":
            return "light" in names
        if feature == "spawns":
            return set(SPAWN_KINDS) & placed(self.case) <= names
        if feature == "lock":
            return {"key", "locked"} & placed(self.case) <= names
        return True

    def _has_volume(self) -> bool:
        return self.outcome.volume is not None and FORMATS[self.case.format].source != "maze"

    def _roofed(self, root: Path) -> bool:
        """A layer more than the same case without a roof, where the file tells its height;
        else a different file."""
        heights = _heights(self.infos)
        if not heights:
            return self._differs("roof", root)
        other = root / "without-roof-height"
        other.mkdir()
        outcome, _, _ = _run(self.case.without("roof"), other)
        if isinstance(outcome, tuple):
            return True
        infos = [jobs.run("info", path=str(p)).text for p in outcome.paths]
        return heights == [h + 1 for h in _heights(infos)]

    def _open_ring(self) -> bool:
        """The walking layer's outer ring has an open block (an opening in the outer wall)."""
        from blockmaze.materials import SOLID

        volume = self.outcome.volume
        rings = np.concatenate([volume[:, 0], volume[:, -1], volume[:, :, 0], volume[:, :, -1]],
                               axis=1)[1 if volume.shape[0] > 1 else 0:]  # above the floor
        return bool((~SOLID[rings] & (rings != Material.LIGHT)).any())

    def _differs(self, feature: str, root: Path) -> bool:
        """The output differs from the same case without ``feature``."""
        other = root / f"without-{feature}"
        other.mkdir()
        outcome, _, _ = _run(self.case.without(feature), other)
        if isinstance(outcome, tuple):
            return True  # without it the case does not run: the feature changed something
        return _digest(self.paths) != _digest([Path(p) for p in outcome.paths])


def _heights(infos: list[str]) -> list[int]:
    found = [re.search(r"size: \d+ x (\d+) x \d+ (?:blocks|voxels|nodes)", info) for info in infos]
    return [int(h[1]) for h in found if h]


def placed(case: Case) -> set[str]:
    """The entity kinds the case's dungeon holds (what --spawns and --lock placed), made by the
    library itself: a file need show only what was placed."""
    from blockmaze.dungeon import generate_dungeon, parse_spawns

    v = case.v
    dungeon = generate_dungeon((12, 14), SEED, style=v["grid"], levels=int(v["levels"]),
                               spawns=parse_spawns("2:1:1" if v["spawns"] == ON else None),
                               lock=v["lock"] == ON)
    kinds = set()
    for level in dungeon.levels:
        for entity in level.entities:
            kinds.add(entity.kind)
            if entity.kind == "door" and entity.properties.get("locked"):
                kinds.add("locked")
    return kinds


def _digest(paths: list[Path]) -> list[bytes]:
    found = []
    for path in paths:
        if path.is_dir():
            found += [p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()]
        else:
            found.append(path.read_bytes())
    return found


def summary(results: list[Result]) -> str:
    """The table: counts, each refusal line with its count, each failure with its case."""
    from collections import Counter

    status = Counter(r.status for r in results)
    lines = [f"combinations tried: {len(results)}",
             f"works: {status['works']}", f"refused: {status['refused']}",
             f"failed: {status['failed']}"]
    refusals = Counter(_general(r.why) for r in results if r.status == "refused")
    if refusals:
        lines.append("\nrefusals:")
        lines += [f"  {count:5d}  {why}" for why, count in refusals.most_common()]
    failures = [r for r in results if r.status == "failed"]
    if failures:
        lines.append("\nfailures:")
        by_why = {}
        for r in failures:  # a feature dropped: one line for every format it is dropped in
            why = re.sub(r"not in the \S+ output", "not in the output", _general(r.why))
            by_why.setdefault(why, []).append(r)
        for why, group in sorted(by_why.items(), key=lambda item: -len(item[1])):
            formats = sorted({r.case.format for r in group})
            lines.append(f"  {len(group):5d}  {why}  [{', '.join(formats)}]")
            for r in group[:3]:
                lines.append(f"         {r.case.id}: {r.why}")
                lines.append(f"           $ {command_line(r.case)}")
    return "\n".join(lines)


def _general(why: str) -> str:
    """A message with its paths and numbers blurred, so like messages count together."""
    why = re.sub(r"/\S*/", "", why)
    return re.sub(r"\d+", "N", why)[:200]
