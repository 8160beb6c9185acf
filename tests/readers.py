"""The independent programs the tests read our files with, found in one place.

Each finder returns what a test needs (a folder, an interpreter, a module) or, when the reader is
missing, stops the test: under ``CI=true`` it fails, naming the reader and why (CI must run
every reader); in a user's plain ``pytest`` it skips with the same reason and the one command
that installs every reader. Only the test that calls a finder stops, never a whole file::

    folder = readers.node_package("gltf-validator", "GLTF_VALIDATOR")
    anvil = readers.module("anvil", "anvil-parser2")
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import shutil
import sys
from pathlib import Path

import pytest

# Where scripts/install_readers.sh puts the readers: $BLOCKMAZE_READERS, else .readers/ in the
# checkout (git ignores it).
DEFAULT = Path(os.environ.get("BLOCKMAZE_READERS") or Path(__file__).resolve().parent.parent / ".readers")
INSTALL = "bash scripts/install_readers.sh"


def missing(reader: str, why: str):
    """Stop the calling test: fail under CI=true, else skip, saying what is missing and how to
    install it."""
    message = f"{reader} is missing: {why}. Install every reader with `{INSTALL}`"
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true and {message}", pytrace=False)
    pytest.skip(message)


def node_package(package: str, variable: str) -> Path:
    """The folder whose ``node_modules`` holds the npm ``package``: ``$variable``, else the
    install script's own folder. Needs node itself too."""
    named = os.environ.get(variable)
    folder = Path(named) if named else DEFAULT / "npm"
    if not (folder / "node_modules" / package / "package.json").is_file():
        where = f"{variable}={named}" if named else f"{variable} is not set and {folder}"
        missing(f"npm package {package}", f"{where} holds no node_modules/{package}")
    if not shutil.which("node"):
        missing("node", "no node on PATH to run " + package)
    return folder


def node_bin(package: str, command: str, variable: str) -> str:
    """The path of an npm package's command (``node_modules/.bin/command``)."""
    path = node_package(package, variable) / "node_modules" / ".bin" / command
    if not path.exists():
        missing(f"npm package {package}", f"{path} does not exist")
    return str(path)


def bpy_python() -> str:
    """An interpreter that imports Blender's ``bpy``: this one, ``$BLOCKMAZE_BPY_PYTHON``, or the
    install script's venv (PyPI's bpy has CPython 3.11 wheels only and pins numpy 1.26)."""
    if importlib.util.find_spec("bpy") is not None:
        return sys.executable
    return _venv_python("BLOCKMAZE_BPY_PYTHON", "blender", "Blender (bpy)")


def amulet_python() -> str:
    """An interpreter that imports Amulet's world library (``amulet-core``, a reader of Bedrock
    worlds): ``$BLOCKMAZE_AMULET_PYTHON``, or the install script's venv (it pins numpy 1.26)."""
    return _venv_python("BLOCKMAZE_AMULET_PYTHON", "amulet", "Amulet (amulet-core)")


def mecha_python() -> str:
    """An interpreter that imports mecha, the command parser of the beet datapack toolchain:
    ``$BLOCKMAZE_MECHA_PYTHON``, or the install script's venv (mecha's beet pins nbtlib 1, the
    test extra needs nbtlib 2)."""
    return _venv_python("BLOCKMAZE_MECHA_PYTHON", "mecha", "mecha")


def _venv_python(variable: str, folder: str, reader: str) -> str:
    """The interpreter ``$variable`` names, or the one of the install script's venv ``folder``;
    ``reader`` missing when it does not exist."""
    named = os.environ.get(variable)
    path = Path(named) if named else DEFAULT / folder / "bin" / "python"
    if not path.exists():
        missing(reader, f"{variable}={named} does not exist" if named else
                f"{variable} is not set and {path} does not exist")
    return str(path)


def program(command: str, package: str) -> str:
    """The path of a program on PATH (``package`` names what installs it, e.g. a Debian package)."""
    path = shutil.which(command)
    if path is None:
        missing(f"{command} ({package})", f"no {command} on PATH")
    return path


def module(name: str, package: str):
    """A Python module of the test extra (``pip install '.[test]'`` installs ``package``)."""
    try:
        return importlib.import_module(name)
    except ImportError as error:
        missing(f"Python package {package}", f"import {name} failed ({error})")
