"""blockmaze in Blender 4.2+: Add > Mesh > Maze (``bpy.ops.mesh.blockmaze_add``) and the 3D
View sidebar's blockmaze tab.

The add-on holds no maze code and needs no package inside Blender: it runs the blockmaze command
recorded in ``blockmaze_manifest.json`` (the one that wrote this extension, or the program named
in the add-on's preferences) to write a ``.glb`` into a temporary folder, and imports that with
Blender's own glTF importer. Its fields are the ``generate`` command's form in that manifest.

    bpy.ops.mesh.blockmaze_add(size="12x12", kind="hex", seed="7", solution=True)
"""

import json
import os
import subprocess
import tempfile
from pathlib import Path

import bpy
from bpy.props import BoolProperty, EnumProperty, StringProperty

MANIFEST = json.loads(Path(__file__).with_name("blockmaze_manifest.json").read_text("utf-8"))
GROUPS = ("Maze", "Blocks", "Meshes")  # the form's groups that shape a .glb
LEFT_OUT = {"finger", "bed", "compress", "quantize"}  # a print's options; the file's encoding
TAG = "blockmaze"  # the custom property on what a run made: the command line that made it
FIRST = ("kind", "seed", "algorithm", "solution", "collision")  # shown above the groups


def fields():
    """The ``generate`` form's fields the add-on shows, in the form's order."""
    return [field for field in MANIFEST["forms"]["generate"]
            if field["group"] in GROUPS and field["name"] not in LEFT_OUT]


def text_default(field):
    return "" if field["default"] is None else str(field["default"])


def blender_property(field):
    """The Blender property of one form field: a flag is a bool, a choice an enum, the rest
    text the command parses (and refuses in one line)."""
    label = field["flag"].replace("-", " ").capitalize()
    if field["type"] == "flag":
        return BoolProperty(name=label, description=field["help"], default=bool(field["default"]))
    if field["type"] == "choice":
        items = [(choice, choice, "") for choice in field["choices"]]
        default = field["default"] if field["default"] in field["choices"] else items[0][0]
        return EnumProperty(name=label, description=field["help"], items=items, default=default)
    return StringProperty(name=label, description=field["help"], default=text_default(field))


def properties():
    """Every property of the operator and of the sidebar's settings."""
    found = {"size": StringProperty(
        name="Size", default="10x10",
        description="Cells: ROWSxCOLS, RINGS for polar, LEVELSxROWSxCOLS for layered")}
    found.update((field["name"], blender_property(field)) for field in fields())
    found["replace"] = BoolProperty(name="Replace", default=True,
                                    description="Remove the maze made before in this scene")
    return found


def arguments(values, glb):
    """The ``generate`` command line for ``values`` (a field's name to its value), writing
    ``glb``: only what differs from the command's defaults."""
    argv = ["generate", values["size"].strip()]
    for field in fields():
        value, flag = values[field["name"]], field["flag"]
        if field["type"] == "flag":
            if value != bool(field["default"]):
                argv.append("--" + (flag if value else field["off"]))
        elif field["type"] == "choice":
            if value != field["default"]:
                argv += ["--" + flag, value]
        elif value.strip() and value.strip() != text_default(field):
            argv += ["--" + flag, value.strip()]
    return argv + ["-o", glb]


def command():
    """The program to run: the add-on's preference if set, else the manifest's."""
    addon = bpy.context.preferences.addons.get(__package__)
    chosen = addon.preferences.command.strip() if addon and addon.preferences else ""
    return [bpy.path.abspath(chosen)] if chosen else list(MANIFEST["run"])


def run(argv, folder):
    """Run blockmaze with ``argv`` in ``folder``: its summary line and its warnings (an option
    that does not apply to the grid), or raise RuntimeError with its one-line error."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONHOME", "PYTHONPATH")}  # Blender's, not the command's
    program = command()
    try:
        done = subprocess.run(program + argv, cwd=folder, env=env, capture_output=True, text=True,
                              stdin=subprocess.DEVNULL,
                              creationflags=getattr(subprocess, "CREATE_NO_WINDOW", 0))
    except OSError as error:
        raise RuntimeError(f"cannot run {program[0]}: {error.strerror or error}") from None
    lines = [line.strip() for line in (done.stderr + done.stdout).splitlines() if line.strip()]
    if done.returncode != 0:
        errors = [line for line in lines if line.lower().startswith("error")]
        line = (errors or lines or [f"blockmaze exited with {done.returncode}"])[-1]
        raise RuntimeError(line[len("error:"):].strip() if line.lower().startswith("error:")
                           else line)
    wrote = [line for line in lines if line.startswith("wrote ")] or lines or [""]
    warnings = [line for line in lines if line.lower().startswith("warning")]
    return "blockmaze: " + wrote[-1].split(": ", 1)[-1], warnings  # (not "wrote /tmp/..: ")


def made_here(scene):
    """The objects of ``scene`` an earlier run made."""
    return [obj for obj in scene.objects if TAG in obj.keys()]


def remove(objects):
    """Remove ``objects`` and the meshes and materials a run made that nothing else uses."""
    meshes = {obj.data for obj in objects if obj.type == "MESH"}
    materials = {m for mesh in meshes for m in mesh.materials if m is not None}
    for obj in objects:
        bpy.data.objects.remove(obj)
    for mesh in meshes:
        if mesh.users == 0:
            bpy.data.meshes.remove(mesh)
    for material in materials:
        if material.users == 0 and TAG in material.keys():
            bpy.data.materials.remove(material)


def plain_names(blocks):
    """Give ``blocks`` back the names the .glb gave them where the importer added ``.001``
    because an earlier maze held the name then."""
    for block in blocks:
        base, dot, number = block.name.rpartition(".")
        if dot and number.isdigit() and _collection(block).get(base) is None:
            block.name = base


def _collection(block):
    if isinstance(block, bpy.types.Material):
        return bpy.data.materials
    return bpy.data.objects if isinstance(block, bpy.types.Object) else bpy.data.meshes


def make(context, values):
    """Write the maze of ``values`` and bring it into the scene, all or nothing: the new
    objects, or an error with the scene as it was. Returns the command's summary and warnings."""
    with tempfile.TemporaryDirectory(prefix="blockmaze-") as folder:
        glb = os.path.join(folder, "maze.glb")
        argv = arguments(values, glb)
        summary, warnings = run(argv, folder)
        before = {obj.as_pointer() for obj in bpy.data.objects}
        try:
            bpy.ops.import_scene.gltf(filepath=glb)
            failed = None
        except (RuntimeError, AttributeError) as error:  # (AttributeError: glTF add-on off)
            failed = str(error).strip().splitlines() or ["failed"]
            failed[-1] = failed[-1].removeprefix("Error: ")  # (bpy.ops says it again)
        new = [obj for obj in bpy.data.objects if obj.as_pointer() not in before]
        if failed or not new:
            remove(new)
            raise RuntimeError("Blender's glTF importer: " + (failed[-1] if failed else
                                                              "no object in the .glb"))
    line = " ".join(["blockmaze", *argv[:-2]])
    old = [obj for obj in made_here(context.scene) if obj not in new] if values["replace"] else []
    meshes = {obj.data for obj in new if obj.type == "MESH"}
    materials = {m for mesh in meshes for m in mesh.materials if m is not None}
    for block in (*new, *meshes, *materials):
        block[TAG] = line
    remove(old)
    plain_names([*new, *meshes, *materials])
    for obj in new:
        if obj.parent is None:  # at the 3D cursor, as Add > Mesh places things
            obj.location = obj.location + context.scene.cursor.location
    return summary, warnings


def draw_fields(layout, data):
    """The fields of ``data`` (the operator or the sidebar's settings), grouped as the form."""
    layout.use_property_split = True
    layout.use_property_decorate = False
    col = layout.column()
    for name in ("size", *FIRST, "replace"):
        col.prop(data, name)
    for group in GROUPS:
        if hasattr(layout, "panel"):  # Blender 4.1+: a panel that folds
            header, body = layout.panel(f"blockmaze_{group.lower()}", default_closed=True)
            header.label(text=group)
        else:
            body = layout.box()
            body.label(text=group)
        if body is None:
            continue
        for field in fields():
            if field["group"] == group and field["name"] not in FIRST:
                body.prop(data, field["name"])


class BlockmazePreferences(bpy.types.AddonPreferences):
    bl_idname = __package__

    command: StringProperty(
        name="blockmaze command", subtype="FILE_PATH",
        description="The blockmaze program to run (empty: " + " ".join(MANIFEST["run"]) + ", "
                    "the one that wrote this extension)")

    def draw(self, context):
        self.layout.prop(self, "command")
        self.layout.label(text="Empty: " + " ".join(MANIFEST["run"]))


def execute(self, context):
    values = {name: getattr(self, name) for name in properties()}
    try:
        summary, warnings = make(context, values)
    except RuntimeError as error:
        self.report({"ERROR"}, str(error).splitlines()[0] if str(error) else "blockmaze failed")
        return {"CANCELLED"}
    for warning in warnings:
        self.report({"WARNING"}, warning.split(":", 1)[-1].strip())
    self.report({"INFO"}, summary)
    return {"FINISHED"}


def poll(cls, context):
    return context.mode == "OBJECT"


def draw_operator(self, context):
    draw_fields(self.layout, self)


AddMaze = type("MESH_OT_blockmaze_add", (bpy.types.Operator,), {
    "__annotations__": properties(),
    "__doc__": "Add a maze made by blockmaze (its glTF mesh, with its materials)",
    "bl_idname": "mesh.blockmaze_add", "bl_label": "Maze", "bl_options": {"REGISTER", "UNDO"},
    "execute": execute, "poll": classmethod(poll), "draw": draw_operator})

Settings = type("BlockmazeSettings", (bpy.types.PropertyGroup,),
                {"__annotations__": properties()})


class VIEW3D_PT_blockmaze(bpy.types.Panel):
    bl_label = "Maze"
    bl_space_type = "VIEW_3D"
    bl_region_type = "UI"
    bl_category = "blockmaze"

    def draw(self, context):
        settings = context.scene.blockmaze
        button = self.layout.operator(AddMaze.bl_idname, text="Make maze", icon="MOD_BUILD")
        for name in properties():
            setattr(button, name, getattr(settings, name))
        draw_fields(self.layout, settings)


def menu_entry(self, context):
    self.layout.operator(AddMaze.bl_idname, text="Maze", icon="MOD_BUILD")


CLASSES = (BlockmazePreferences, AddMaze, Settings, VIEW3D_PT_blockmaze)


def register():
    for cls in CLASSES:
        bpy.utils.register_class(cls)
    bpy.types.Scene.blockmaze = bpy.props.PointerProperty(type=Settings)
    bpy.types.VIEW3D_MT_mesh_add.append(menu_entry)


def unregister():
    bpy.types.VIEW3D_MT_mesh_add.remove(menu_entry)
    del bpy.types.Scene.blockmaze
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)
