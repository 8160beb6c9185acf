"""The game as a test reader: hand builds to a Minecraft server and a bot with the game's physics.

``tests/game/walk.js`` starts flying-squid (a Minecraft server in node.js) on 127.0.0.1, pastes
each ``.schem`` into a flat world as WorldEdit pastes it (the player's block plus the file's
offset) or opens a world save as the server's world, and has a mineflayer bot (its movement a
port of the game's physics) walk with mineflayer-pathfinder, never digging or placing, from
where the player is to the goal. This module writes the builds, says where their goals are, and
runs the walks. The node packages come from scripts/install_readers.sh (or the folder
``BLOCKMAZE_GAME`` names), found as every reader is (tests/readers.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from pathlib import Path

import numpy as np

import readers
from blockmaze.materials import Material

HARNESS = Path(__file__).parent / "game"
RELEASE = "1.20.4"  # supported by flying-squid, mineflayer and our writers alike
PACKAGES = ("flying-squid", "mineflayer", "mineflayer-pathfinder", "prismarine-schematic")


def game_modules() -> Path:
    """The folder whose node_modules holds the harness's packages (the test stops where they
    are missing: see tests/readers.py)."""
    for package in PACKAGES:
        folder = readers.node_package(package, "BLOCKMAZE_GAME")
    return folder


def feet_on(volume: np.ndarray, material: Material) -> tuple[int, int, int]:
    """(x, y, z) of the block where a player's feet are when standing on the first ``material``
    block of a (y, z, x) volume, relative to its min corner."""
    y, z, x = (int(v) for v in np.argwhere(volume == material)[0])
    return x, y + 1, z


def walk(schems=(), world=None, timeout: float = 90, bots: int = 1) -> list[dict]:
    """Run the walks: ``schems`` as ``{"name", "file", "goal", "start", "route"}`` dicts (names
    unique), ``world`` as ``{"folder", "goal", "starts", "route"}`` (see tests/game/walk.js), each
    walked by up to ``bots`` bots at once; one result dict per walk, in the order given (the
    schems, then the world's starts), each with ``name``, ``reached`` and ``seconds``."""
    folder = game_modules()
    spec = {"version": RELEASE, "timeout": timeout, "bots": bots,
            "schem": [{**case, "file": str(case["file"])} for case in schems]}
    if world is not None:
        spec["world"] = {**world, "folder": str(world["folder"])}
    env = {**os.environ, "NODE_PATH": str(folder / "node_modules")}
    walks = len(spec["schem"]) + (len(world["starts"]) if world else 0)
    rounds = -(-len(spec["schem"]) // bots) + (-(-len(world["starts"]) // bots) if world else 0)
    with tempfile.TemporaryDirectory() as scratch:
        (Path(scratch) / "spec.json").write_text(json.dumps(spec))
        done = subprocess.run(["node", str(HARNESS / "walk.js"), "spec.json", "results.jsonl"],
                              cwd=scratch, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              env=env, timeout=60 + rounds * (timeout + 15))
        out = Path(scratch) / "results.jsonl"
        results = [json.loads(line) for line in out.read_text().splitlines()] if out.exists() else []
    if done.returncode or len(results) != walks:
        raise RuntimeError(f"the game harness failed (exit {done.returncode}):\n{done.stderr[-3000:]}")
    order = [case["name"] for case in spec["schem"]]
    return sorted(results, key=lambda r: order.index(r["name"]) if r["name"] in order else len(order))
