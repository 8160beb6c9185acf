"""blockmaze inside the programs its users already have open: a thin plugin for each host
(an Amulet operation, a Blender extension, a Tiled extension). A plugin shows fields built from
the commands' descriptions (:func:`blockmaze.forms.form`) and runs the ``blockmaze`` command of
the interpreter that wrote it, then loads what the command wrote with the host's own importer:
no maze logic lives in the host.

``blockmaze plugin HOST [-o PATH]`` writes one (:func:`write_plugin`); each host's module
(``hosts/amulet.py``, ...) says which files make its plugin and where the host looks for them.
The code that runs inside the host is in ``hosts/payload/`` (it imports the host's modules, so
the package never imports it).

>>> sorted(HOSTS)
['amulet', 'blender', 'tiled']
>>> manifest()["run"][1:]
['-m', 'blockmaze']
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

HOSTS = ("amulet", "blender", "tiled")
MANIFEST = "blockmaze_manifest.json"  # what each plugin is given to know the commands by


@dataclass(frozen=True)
class Host:
    """One host program's plugin: ``files(manifest)`` its files by relative path, packed as
    ``packing`` (``"file"``: the one file; ``"zip"``: one zip holding them; ``"folder"``: a
    folder of them), installed by default into ``user_folder()`` under ``name``."""

    title: str  # the host as its users call it ("Amulet Map Editor")
    name: str  # the plugin's file or folder name where the host looks ("blockmaze_maze.py")
    packing: str
    files: Callable[[dict], Mapping[str, bytes]]
    user_folder: Callable[[], Path]
    how: str  # one line: what the user does next in the host


def host(name: str) -> Host:
    """The :class:`Host` called ``name`` (one of :data:`HOSTS`)."""
    if name not in HOSTS:
        raise ValueError(f"unknown host {name!r}; choose one of: {', '.join(HOSTS)}")
    return importlib.import_module(f"{__name__}.{name}").HOST


def runner() -> list[str]:
    """The command a plugin runs blockmaze with: this interpreter's ``-m blockmaze``, so a host
    with a Python of its own (Amulet's, Blender's) needs no copy of the package or its
    dependencies."""
    return [sys.executable, "-m", "blockmaze"]


def manifest() -> dict:
    """What a plugin knows of blockmaze, written beside (or into) it: the version, the command
    to run and every command's form fields (:func:`blockmaze.forms.form`)."""
    from .. import __version__
    from ..commands import COMMANDS
    from ..forms import form
    from ..grids import SURFACE_KINDS

    def flat(field: dict) -> dict:  # a host draws blocks, meshes or tile maps: no surface
        if field["name"] != "kind":
            return field
        return {**field, "choices": [c for c in field["choices"] if c not in SURFACE_KINDS]}

    return {"blockmaze": __version__, "run": runner(),
            "forms": {name: [flat(f) for f in form(name)] for name in COMMANDS if name != "info"}}


def manifest_bytes(written: dict | None = None) -> bytes:
    """A manifest (by default :func:`manifest`) as the JSON file a plugin reads."""
    return json.dumps(manifest() if written is None else written, indent=1,
                      sort_keys=True).encode() + b"\n"


def payload(name: str, path: str) -> bytes:
    """The bytes of ``hosts/payload/NAME/PATH``: code that runs inside the host."""
    return (resources.files(__name__) / "payload" / name / path).read_bytes()


def write_plugin(name: str, output: str | Path | None = None) -> Path:
    """Write host ``name``'s plugin to ``output`` (by default where the host looks for it), all
    or nothing (an earlier copy is replaced only when the new one is whole), and return where
    (``write_plugin("blender", "maze.zip")`` writes the zip Blender installs from).
    """
    from ..export.target import open_target, transaction

    chosen = host(name)
    target = Path(output) if output is not None else chosen.user_folder() / chosen.name
    files = chosen.files(manifest())
    if chosen.packing == "zip":
        files = {target.name: _zipped(files)}
    elif chosen.packing == "file":
        (files,) = [{target.name: data} for data in files.values()]
    folder = target if chosen.packing == "folder" else target.parent
    folder.mkdir(parents=True, exist_ok=True)
    with transaction():
        for relative, data in files.items():
            (folder / relative).parent.mkdir(parents=True, exist_ok=True)
            with open_target(folder / relative) as file:
                file.write(data)
    return target


def _zipped(files: Mapping[str, bytes]) -> bytes:
    """``files`` as one zip, the same bytes for the same files (fixed times, sorted names)."""
    import io
    import zipfile

    from ..export.zipped import zip_entry

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for relative in sorted(files):
            archive.writestr(zip_entry(relative), files[relative])
    return out.getvalue()
