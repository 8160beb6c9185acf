"""The Tiled extension: a folder in Tiled's extensions folder holding ``blockmaze.js`` (a map
format ``.blockmaze`` and the action Map ▸ Make a blockmaze maze or dungeon…) and the manifest
it reads its commands and options from (docs/guides/tiled.md).

>>> sorted(HOST.files({"run": ["python", "-m", "blockmaze"], "forms": {}}))
['blockmaze.js', 'blockmaze_manifest.json']
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from . import MANIFEST, Host, manifest_bytes, payload

SCRIPT = "blockmaze.js"


def files(manifest: dict) -> dict[str, bytes]:
    """The extension's files: the script and the manifest it reads."""
    return {SCRIPT: payload("tiled", SCRIPT),
            MANIFEST: manifest_bytes(manifest)}


def user_folder(platform: str = sys.platform, environ=os.environ, home: Path | None = None) -> Path:
    """Tiled's extensions folder for the user (Tiled 1.8's ``tiled.extensionsPath``): on Linux
    ``$XDG_CONFIG_HOME/tiled/extensions`` (``~/.config`` by default), on Windows
    ``%LOCALAPPDATA%/Tiled/extensions``, on macOS ``~/Library/Preferences/Tiled/extensions``.

    >>> user_folder("linux", {"XDG_CONFIG_HOME": "/cfg"}).as_posix()
    '/cfg/tiled/extensions'
    >>> user_folder("darwin", {}, Path("/Users/a")).as_posix()
    '/Users/a/Library/Preferences/Tiled/extensions'
    """
    home = home or Path.home()
    if platform.startswith("win"):
        local = environ.get("LOCALAPPDATA")
        return (Path(local) if local else home / "AppData" / "Local") / "Tiled" / "extensions"
    if platform == "darwin":
        return home / "Library" / "Preferences" / "Tiled" / "extensions"
    config = environ.get("XDG_CONFIG_HOME")
    return (Path(config) if config else home / ".config") / "tiled" / "extensions"


HOST = Host(
    title="Tiled", name="blockmaze", packing="folder", files=files, user_folder=user_folder,
    how="restart Tiled (or it reloads extensions itself); then open a .blockmaze file, or use "
        "Map > Make a blockmaze maze or dungeon… on an open map",
)
