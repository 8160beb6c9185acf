"""Time the Amulet operation: fill a square selection of a Java and a Bedrock world (amulet-core's
own interpreter, tests/readers.py finds it) and print a table.

    python bench/bench_amulet.py [--quick] [SIDE ...]   (default 200; --quick: 40)

(``BLOCKMAZE_READERS`` or ``BLOCKMAZE_AMULET_PYTHON`` say where amulet-core is, as for the tests.)

Each row: the world's platform, the selection (side x 6 x side blocks at y -60), the seconds the
operation took (blockmaze's generate, loading the .schem, Amulet's paste with its translation)
and the seconds Amulet's save took.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

DRIVER = """
import importlib.util, json, sys, time
import amulet
from amulet.api.selection import SelectionBox, SelectionGroup
plugin, folder, side = sys.argv[1], sys.argv[2], int(sys.argv[3])
spec = importlib.util.spec_from_file_location("blockmaze_maze", plugin)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
options = {label: option[1] for label, option in module.export["options"].items()}
options["Seed"] = "1"
world = amulet.load_level(folder)
selection = SelectionGroup(SelectionBox((0, -60, 0), (side, -54, side)))
start = time.perf_counter()
for _ in module.export["operation"](world, "minecraft:overworld", selection, options):
    pass
operation = time.perf_counter() - start
world.create_undo_point()
start = time.perf_counter()
world.save()
world.close()
print(json.dumps({"operation": operation, "save": time.perf_counter() - start}))
"""


def main(sides: list[int]) -> None:
    from readers import DEFAULT

    from blockmaze.cli import main as blockmaze
    from blockmaze.hosts import write_plugin

    python = os.environ.get("BLOCKMAZE_AMULET_PYTHON") or str(DEFAULT / "amulet" / "bin" / "python")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    print("| world | selection | operation (s) | save (s) |\n|---|---|---|---|")
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        plugin = write_plugin("amulet", folder / "blockmaze_maze.py")
        (folder / "driver.py").write_text(DRIVER)
        for side in sides:
            for platform in ("java", "bedrock"):
                world = folder / f"{platform}{side}"
                cells = f"{side // 2}x{side // 2}"  # a world as large as the selection, on grass
                if platform == "java":
                    blockmaze(["-q", "generate", cells, "-s", "2", "-f", "world", "-o", str(world)])
                else:
                    blockmaze(["-q", "generate", cells, "-s", "2", "-o", f"{world}.mcworld"])
                    zipfile.ZipFile(f"{world}.mcworld").extractall(world)
                done = subprocess.run([python, str(folder / "driver.py"), str(plugin), str(world),
                                       str(side)], capture_output=True, text=True, env=env)
                if done.returncode:
                    sys.exit(done.stderr[-2000:])
                took = json.loads(done.stdout.splitlines()[-1])
                print(f"| {platform} | {side} x 6 x {side} | {took['operation']:.1f} | "
                      f"{took['save']:.1f} |", flush=True)


if __name__ == "__main__":
    arguments = [a for a in sys.argv[1:] if a != "--quick"]
    main([int(a) for a in arguments] or [40 if "--quick" in sys.argv else 200])
