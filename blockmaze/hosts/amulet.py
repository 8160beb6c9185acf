"""Amulet Map Editor: the operation "Maze (blockmaze)" in the Operations tool, one ``.py`` file
in Amulet's operations folder (``<DATA_DIR>/plugins/operations/``). Its code runs inside Amulet
(``hosts/payload/amulet/blockmaze_maze.py``); this module writes it with the manifest (the command
to run and the commands' forms) set into it, so the file needs nothing beside it.

>>> HOST.name, HOST.packing
('blockmaze_maze.py', 'file')
>>> data_dir({"DATA_DIR": "/data"}, "linux", "/home/u").as_posix()
'/data'
>>> data_dir({}, "linux", "/home/u").as_posix()
'/home/u/.local/share/AmuletMapEditor'
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path, PureWindowsPath

from . import Host, payload

OPERATION = "blockmaze_maze.py"
PLACEHOLDER = "MANIFEST_JSON = None  # blockmaze plugin amulet sets the manifest here"


def data_dir(environ: Mapping[str, str] | None = None, platform: str | None = None,
             home: str | None = None) -> Path:
    """Amulet's data folder: ``$DATA_DIR`` if set, else platformdirs' ``user_data_dir(
    "AmuletMapEditor", "AmuletTeam")`` (what Amulet 0.10.16+ takes), worked out here for Linux
    (``$XDG_DATA_HOME`` or ``~/.local/share``), Windows (``%LOCALAPPDATA%\\AmuletTeam``) and
    macOS (``~/Library/Application Support``).

    >>> data_dir({"XDG_DATA_HOME": "/x"}, "linux", "/h").as_posix()
    '/x/AmuletMapEditor'
    >>> str(data_dir({"LOCALAPPDATA": "C:\\\\L"}, "win32", "C:\\\\U"))
    'C:\\\\L\\\\AmuletTeam\\\\AmuletMapEditor'
    """
    environ = os.environ if environ is None else environ
    platform = sys.platform if platform is None else platform
    home = str(Path.home()) if home is None else home
    if environ.get("DATA_DIR"):
        return Path(environ["DATA_DIR"])
    if platform == "win32":
        local = environ.get("LOCALAPPDATA") or str(PureWindowsPath(home, "AppData", "Local"))
        return PureWindowsPath(local, "AmuletTeam", "AmuletMapEditor")  # type: ignore[return-value]
    if platform == "darwin":
        return Path(home, "Library", "Application Support", "AmuletMapEditor")
    base = environ.get("XDG_DATA_HOME", "").strip() or os.path.join(home, ".local", "share")
    return Path(base, "AmuletMapEditor")


def user_folder() -> Path:
    """Where Amulet loads user operations from: ``<DATA_DIR>/plugins/operations``."""
    return Path(data_dir(), "plugins", "operations")


def files(manifest: dict) -> dict[str, bytes]:
    """The operation's one file: the payload with ``manifest`` set on its placeholder line."""
    import json

    code = payload("amulet", OPERATION).decode()
    if code.count(PLACEHOLDER) != 1:
        raise RuntimeError(f"the Amulet payload has no single placeholder line {PLACEHOLDER!r}")
    line = "MANIFEST_JSON = " + repr(json.dumps(manifest, sort_keys=True))
    return {OPERATION: code.replace(PLACEHOLDER, line).encode()}


HOST = Host(title="Amulet Map Editor", name=OPERATION, packing="file", files=files,
            user_folder=user_folder,
            how="restart Amulet (or reload its operations); open a world, select a box, and pick "
                "Operations > Maze (blockmaze)")
