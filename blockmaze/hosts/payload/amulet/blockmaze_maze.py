"""Maze (blockmaze): an Amulet Map Editor operation that fills the selected box with a maze.

Written by ``blockmaze plugin amulet``, which sets the manifest below (the command to run and
its options' fields). The operation runs that blockmaze's ``generate --fit`` with the
selection's blocks (the most cells that fit them, on any grid; a layered maze's levels from its
height too) in a temporary folder to write a .schem, loads it with Amulet and pastes it at the selection's lowest corner, where
Amulet translates every block for the world's platform and version. Amulet makes the undo point
when the operation ends without an error; on an error it puts the world back as it was.
"""

import json
import os
import subprocess
import tempfile

MANIFEST_JSON = None  # blockmaze plugin amulet sets the manifest here

try:  # Amulet shows an OperationError's text to the user (and restores the last undo point)
    from amulet_map_editor.programs.edit.api.operations import OperationError
except ImportError:  # amulet-core alone (the tests, a script)
    class OperationError(Exception):
        """What went wrong, in one line."""

# the generate fields the operation offers, by name, in the order shown
OFFERED = ("kind", "algorithm", "seed", "braid", "entrances", "exits", "checkpoints", "weave",
           "wall", "passage", "height", "floor", "roof", "lights", "hollow", "solution", "theme",
           "bridges", "terrain", "clear")
# where the maze stands in the selection: on its bottom layer, or each column on the ground in it
# (the selection written as a .schem the command follows: its --ground)
TERRAINS = ("flat", "follow")
# every grid kind but the labyrinth, whose size is its circuits, not the blocks it is given
LEFT_OUT = ("labyrinth",)
# fields a form gives as text that Amulet shows as numbers: (type, initial, min, max)
NUMBERS = {"height": ("int", None, 1, 384), "exits": ("int", None, 0, 64),
           "checkpoints": ("int", None, 0, 64), "wall": ("int", 0, 0, 64),
           "passage": ("int", 0, 0, 64), "braid": ("float", None, 0.0, 1.0),
           "weave": ("float", None, 0.0, 1.0)}
# fields whose 0 leaves the choice to the command (the grid's own: a weave maze's walls 4, a
# layered maze's passages 2)
AUTO = ("wall", "passage")
LABELS = {"kind": "Grid", "wall": "Wall thickness (0: the grid's own)",
          "passage": "Passage width (0: the grid's own)",
          "height": "Wall height", "weave": "Weave crossings",
          "clear": "Clear (trees, water or trees,water)"}


def manifest():
    """The manifest ``blockmaze plugin amulet`` set into this file."""
    if MANIFEST_JSON is None:
        raise OperationError("this file is blockmaze's template: write the operation with "
                             "`blockmaze plugin amulet`")
    return json.loads(MANIFEST_JSON)


def fields():
    """The offered fields of generate's form, by name."""
    if MANIFEST_JSON is None:
        return {}
    every = {field["name"]: field for field in manifest()["forms"]["generate"]}
    return {name: every[name] for name in OFFERED if name in every}


def label(field):
    """The label Amulet shows for ``field`` (and the key of its value in ``options``)."""
    return LABELS.get(field["name"], field["name"].replace("_", " ").capitalize())


def amulet_option(field):
    """``field`` as an option of Amulet's fixed pipeline: ``["bool", value]``, ``["int",
    initial, min, max]``, ``["str_choice", first, ...]`` (the default first) or ``["str",
    text]``."""
    name, default = field["name"], field["default"]
    if name == "terrain":
        return ["str_choice", *TERRAINS]
    if field["type"] == "flag":
        return ["bool", bool(default)]
    if field["type"] == "choice":
        choices = [c for c in field["choices"] if name != "kind" or c not in LEFT_OUT]
        first = [default] if default in choices else []
        return ["str_choice", *first, *[c for c in choices if c not in first]]
    if name in NUMBERS:
        kind, initial, low, high = NUMBERS[name]
        value = default if initial is None else initial
        return [kind, int(value) if kind == "int" else float(value), low, high]
    return ["str", "" if default is None else str(default)]


def options_from_forms():
    """Every offered field as ``{label: option}``, built from the manifest's forms."""
    return {label(field): amulet_option(field) for field in fields().values()}


def values(options):
    """The chosen value of every offered field, by name (a missing one takes its default)."""
    out = {}
    for name, field in fields().items():
        option = amulet_option(field)
        value = options.get(label(field), option[1])
        out[name] = value
    return out


def release(world, choices, default):
    """The Java release to write the .schem for: the world's own (a Java world) or the
    default (Bedrock), no newer than Amulet's translator knows, as one of ``choices``."""
    manager = world.translation_manager
    newest = max(manager.version_numbers("java"))
    wanted = newest
    if world.level_wrapper.platform == "java":
        wanted = min(newest, manager.get_version("java", world.level_wrapper.version).version_number)
    else:
        wanted = min(newest, _numbers(default))
    fitting = [c for c in choices if _numbers(c) <= wanted]
    return max(fitting, key=_numbers) if fitting else default


def _numbers(text):
    """``"1.20.4"`` as ``(1, 20, 4)``."""
    parts = tuple(int(p) for p in text.split("."))
    return parts + (0,) * (3 - len(parts))


def the_box(selection):
    """The one box of ``selection`` (a maze fills one box)."""
    boxes = selection.merge_boxes().selection_boxes
    if len(boxes) != 1:
        raise OperationError(f"select one box for the maze (the selection has {len(boxes)})")
    return boxes[0]


def fit(box, chosen):
    """The blocks the maze is to fit (``--fit``): the selection's depth (north-south, along z)
    and width (along x), and for a layered maze its height first (the command finds the cells
    and levels)."""
    plan = f"{box.size_z}x{box.size_x}"
    return f"{box.size_y}x{plan}" if chosen.get("kind") == "layered" else plan


def command(size, chosen, version, output, ground=None):
    """The blockmaze command line that writes the maze to ``output`` (a .schem) fitting
    ``size`` blocks, following the ground of the .schem ``ground`` when given."""
    every = fields()
    args = [*manifest()["run"], "generate", "--fit", size]
    if ground is not None:
        args += ["--ground", ground]
    for name, value in chosen.items():
        field = every[name]
        if name == "terrain":
            continue  # (the ground the command follows says it)
        if field["type"] == "flag":
            if bool(value) != bool(field["default"]):
                args.append("--" + (field["flag"] if value else field["off"]))
        elif value not in ("", None, field["default"]) and not (name in AUTO and not value):
            args += ["--" + field["flag"], str(value)]  # (one at its default is left out)
    return args + ["--mc-version", version, "-o", output]


def run(args, folder):
    """Run blockmaze in ``folder``; its error, in one line, as an OperationError."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    try:
        done = subprocess.run(args, cwd=folder, capture_output=True, text=True, env=env,
                              stdin=subprocess.DEVNULL,
                              creationflags=getattr(subprocess, "CREATE_NO_WINDOW", 0))
    except OSError as error:
        raise OperationError(f"blockmaze could not start ({args[0]}): {error}") from None
    if done.returncode != 0:
        lines = [line for line in done.stderr.splitlines() if line.strip()] or ["no message"]
        raise OperationError("blockmaze: " + lines[-1].removeprefix("Error: ").strip())
    said = [line for line in done.stderr.splitlines() if line.strip()]
    return said[-1] if said else ""  # blockmaze's "wrote ...: ... seed N" line


def write_ground(world, dimension, box, version, path):
    """The selected box of the world as a Sponge .schem at ``path``, its blocks as Java
    ``version`` (a tuple) names them: the ground the command follows."""
    from amulet.api.selection import SelectionGroup
    from amulet.level.formats.sponge_schem import SpongeSchemFormatWrapper

    group = SelectionGroup(box)
    structure = world.extract_structure(group, dimension)
    wrapper = SpongeSchemFormatWrapper(os.path.abspath(path))
    wrapper.create_and_open("java", version, group, True)
    wrapper.translation_manager = world.translation_manager
    source = structure.dimensions[0]
    for cx, cz in structure.all_chunk_coords(source):
        wrapper.commit_chunk(structure.get_chunk(cx, cz, source), wrapper.dimensions[0])
    wrapper.save()
    wrapper.close()


def operation(world, dimension, selection, options):
    """Fill the selected box with a maze (a generator: Amulet shows its progress)."""
    forms = manifest()["forms"]
    import amulet

    box = the_box(selection)
    chosen = values(options)
    version_field = {f["name"]: f for f in forms["generate"]}["mc_version"]
    version = release(world, version_field["choices"], version_field["default"])
    yield 0.02, "blockmaze: generating the maze"
    with tempfile.TemporaryDirectory(prefix="blockmaze-") as folder:
        output = os.path.join(folder, "maze.schem")
        ground = None
        if chosen.get("terrain") == "follow":
            yield 0.05, "blockmaze: reading the ground"
            ground = os.path.join(folder, "ground.schem")
            write_ground(world, dimension, box, _numbers(version), ground)
        said = run(command(fit(box, chosen), chosen, version, output, ground), folder)
        print(said)
        yield 0.3, "blockmaze: loading the maze"
        structure = amulet.load_level(output)
        try:
            source = structure.dimensions[0]
            bounds = structure.bounds(source)
            low, high = bounds.min, bounds.max
            size = [high[axis] - low[axis] for axis in range(3)]
            if size[1] > box.size_y:
                raise OperationError(f"the maze is {size[1]} blocks high and the selection "
                                     f"{box.size_y}: select more height or lower the wall height")
            if size[0] > box.size_x or size[2] > box.size_z:  # (--fit keeps within them)
                raise OperationError(f"the maze is {size[0]}x{size[2]} blocks and the "
                                     f"selection {box.size_x}x{box.size_z}")
            # The maze stands on the selection's bottom layer, at its lowest corner; following
            # the ground, its .schem starts there too, the places the world keeps structure voids
            corner = (box.min_x, box.min_y, box.min_z)
            from amulet.api.block import Block

            kept = (Block("universal_minecraft", "structure_void"),) if ground else ()
            # paste puts the pasted box's centre, (min + max) // 2, at the location it is given
            location = tuple(corner[axis] + (low[axis] + high[axis]) // 2 - low[axis]
                             for axis in range(3))
            for progress in world.paste_iter(structure, source, bounds, dimension, location,
                                             include_entities=False, skip_blocks=kept):
                yield 0.3 + 0.7 * progress, "blockmaze: placing the blocks"
        finally:
            structure.close()


export = {"name": "Maze (blockmaze)", "operation": operation, "options": options_from_forms()}
