"""The Blender 4.2+ extension: a zip of ``blender_manifest.toml``, the add-on's ``__init__.py``
(``hosts/payload/blender/``) and blockmaze's manifest, which Blender installs from disk. The
add-on adds Add ▸ Mesh ▸ Maze (``bpy.ops.mesh.blockmaze_add``) and a sidebar tab: it runs this
blockmaze to write a ``.glb`` and imports it with Blender's own glTF importer.

>>> files = HOST.files({"blockmaze": "1.2.3", "run": [], "forms": {}})
>>> sorted(files)
['__init__.py', 'blender_manifest.toml', 'blockmaze_manifest.json']
>>> b'version = "1.2.3"' in files["blender_manifest.toml"]
True
"""

from __future__ import annotations

import json
from pathlib import Path

from . import MANIFEST, Host, manifest_bytes, payload

TAGLINE = "Mazes on square, hex, polar, weave, layered grids and labyrinths"  # <= 64
LICENSE = "SPDX:MIT"  # pyproject.toml's licence
FILES = "Runs blockmaze, which writes a .glb in a temporary folder"  # why: <= 64


def blender_manifest(version: str) -> bytes:
    """The extension's ``blender_manifest.toml`` for blockmaze ``version`` (Blender's manual,
    "How to Create Extensions": the keys it requires, a tagline of at most 64 characters, the
    permissions with a reason each)."""
    keys = {
        "schema_version": "1.0.0",
        "id": "blockmaze",
        "version": version,
        "name": "blockmaze",
        "tagline": TAGLINE,
        "maintainer": "blockmaze developers",
        "type": "add-on",
        "blender_version_min": "4.2.0",
    }
    lines = [f"{key} = {json.dumps(value)}" for key, value in keys.items()]
    lines += [f"license = [{json.dumps(LICENSE)}]", 'tags = ["Add Mesh"]', "", "[permissions]",
              f"files = {json.dumps(FILES)}", ""]
    return "\n".join(lines).encode()


def files(manifest: dict) -> dict[str, bytes]:
    """The extension's files: Blender's manifest, the add-on and blockmaze's manifest (the
    command to run and the forms its fields are built from)."""
    return {"blender_manifest.toml": blender_manifest(manifest["blockmaze"]),
            "__init__.py": payload("blender", "__init__.py"),
            MANIFEST: manifest_bytes(manifest)}


def user_folder() -> Path:
    """Blender installs an extension from a zip the user picks, so the zip goes in the home
    folder unless ``-o`` says otherwise."""
    return Path.home()


HOST = Host(title="Blender", name="blockmaze.zip", packing="zip", files=files,
            user_folder=user_folder,
            how="in Blender 4.2+, Edit > Preferences > Get Extensions > Install from Disk... and "
                "pick it (or: blender --command extension install-file -r user_default -e ZIP); "
                "then Add > Mesh > Maze, or the sidebar's blockmaze tab")
