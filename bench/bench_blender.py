"""Benchmark of the Blender extension: the time of Add > Mesh > Maze (``bpy.ops.mesh.blockmaze_add``)
for a 50x50 maze and others, split into the command writing the .glb and Blender importing it.

    python bench/bench_blender.py            # 20x20, 50x50 and 100x100 square, 50x50 hex and weave
    python bench/bench_blender.py --quick    # 50x50 square only

Blender is PyPI's ``bpy`` in its own interpreter (tests/readers.py finds it:
$BLOCKMAZE_BPY_PYTHON, else scripts/install_readers.sh's venv). One Blender process installs
the extension (HOME a temporary folder) and runs tests/blender/plugin.bpy.txt: each maze made by
the operator (best of --repeats, the previous one replaced), then the same .glb imported by
``bpy.ops.import_scene.gltf``. The command alone is timed here, outside Blender. Times are wall
seconds on a shared machine: the load average is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

MAZES = [("square", "20x20", []), ("square", "50x50", []), ("square", "100x100", []),
         ("hex", "50x50", ["-g", "hex"]), ("weave", "50x50", ["-g", "weave", "--weave", "0.3"])]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the 50x50 square maze only")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    mazes = [MAZES[1]] if args.quick else MAZES

    import readers  # tests/readers.py: where the bpy interpreter is

    python = os.environ.get("BLOCKMAZE_BPY_PYTHON") or str(readers.DEFAULT / "blender" / "bin" / "python")
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        zipped = work / "blockmaze.zip"
        subprocess.run([sys.executable, "-m", "blockmaze", "plugin", "blender", "-o", str(zipped)],
                       check=True, capture_output=True)
        cases, command = [], {}
        for kind, size, flags in mazes:
            glb = work / f"{kind}-{size}.glb"
            argv = [sys.executable, "-m", "blockmaze", "generate", size, *flags, "--seed", "1",
                    "-o", str(glb)]
            best = float("inf")
            for _ in range(args.repeats):
                start = time.perf_counter()
                subprocess.run(argv, check=True, capture_output=True)
                best = min(best, time.perf_counter() - start)
            command[kind, size] = best
            op = {"size": size, "kind": kind, "seed": "1"}
            if kind == "weave":
                op["weave"] = "0.3"
            cases += [{"op": op, "clear": True}] + [{"op": op}] * (args.repeats - 1)
            cases += [{"glb": str(glb)}] * args.repeats
        (work / "cases.json").write_text(json.dumps(cases))
        (work / "home").mkdir()
        done = subprocess.run([python, str(ROOT / "tests" / "blender" / "plugin.bpy.txt"), "--",
                               str(zipped), str(work / "cases.json")], capture_output=True,
                              text=True, env={**os.environ, "HOME": str(work / "home")})
        lines = [line[line.index("RESULT ") + 7:] for line in done.stdout.splitlines()
                 if "RESULT " in line]
        if done.returncode or not lines:
            sys.exit(done.stderr[-2000:])
        found = json.loads(lines[0])["cases"]
    print(f"load average {os.getloadavg()[0]:.2f}; best of {args.repeats}; wall seconds")
    print("| maze | triangles | operator s | command alone s | glTF import alone s |")
    print("|---|---:|---:|---:|---:|")
    step = 2 * args.repeats
    for index, (kind, size, _) in enumerate(mazes):
        made = found[index * step: index * step + args.repeats]
        imported = found[index * step + args.repeats: (index + 1) * step]
        assert all(m["objects"] == imported[0]["objects"] for m in made), (kind, size)
        triangles = sum(o[1] for o in made[0]["objects"])
        print(f"| {kind} {size} | {triangles} | {min(m['seconds'] for m in made):.2f} "
              f"| {command[kind, size]:.2f} | {min(i['seconds'] for i in imported):.2f} |")


if __name__ == "__main__":
    main()
