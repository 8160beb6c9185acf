"""Benchmark of the game-engine kits (issue 52): the time to write the piece list and the kit
scene of a big maze, and the instanced scene beside the voxel .glb of the same maze.

    python bench/bench_kits.py            # pieces and scene of 1000x1000 cells; sizes at 100x100
    python bench/bench_kits.py --quick    # 100x100 and 200x200, for a smoke test

Each row runs in a fresh interpreter (numba caches warmed on a small maze first) that generates
the maze once, then writes each output from the same maze document: wall and CPU seconds (best
of --repeats), the peak memory (ru_maxrss) and the file's size. The size table sets the kit
scene (plain nodes, and EXT_mesh_gpu_instancing) beside the voxel .glb of the same 100x100 maze:
bytes, glTF nodes and triangles drawn (an instance draws its piece's triangles), read from the
files with pygltflib. The voxel .glb is written with and without --navmesh (its floor-navmesh
node), for what the navigation floor costs. Targets (the issue's "in your note"): the 1000x1000 times are printed; the
instanced scene should be smaller than the voxel .glb and draw its maze with a node a piece.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

RUN = """
import json, os, resource, sys, time
import blockmaze as bm
from blockmaze.pipeline import make_maze

cells, fmt, options, repeats, path = (int(sys.argv[1]), sys.argv[2], json.loads(sys.argv[3]),
                                      int(sys.argv[4]), sys.argv[5])
bm.save(make_maze((5, 5), "square", "backtracker", seed=0), path, format=fmt, **options)
document = make_maze((cells, cells), "square", "backtracker", seed=1)
walls, cpus = [], []
for _ in range(repeats):
    start, cpu = time.perf_counter(), time.process_time()
    bm.save(document, path, format=fmt, **options)
    walls.append(time.perf_counter() - start)
    cpus.append(time.process_time() - cpu)
print(json.dumps({"seconds": min(walls), "cpu": min(cpus),
                  "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "bytes": os.path.getsize(path)}))
"""


def measure(cells: int, fmt: str, options: dict, repeats: int, path: str) -> dict:
    out = subprocess.run([sys.executable, "-c", RUN, str(cells), fmt, json.dumps(options),
                          str(repeats), path], capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def drawn(path: str) -> tuple[int, int]:
    """(nodes, triangles drawn) of a glTF file, each instance counting its mesh's triangles."""
    import pygltflib

    gltf = pygltflib.GLTF2().load(path)
    triangles = [sum(gltf.accessors[p.indices].count // 3 for p in mesh.primitives)
                 for mesh in gltf.meshes]
    total = 0
    for node in gltf.nodes:
        if node.mesh is None:
            continue
        copies = 1
        extension = (node.extensions or {}).get("EXT_mesh_gpu_instancing")
        if extension:
            copies = gltf.accessors[extension["attributes"]["TRANSLATION"]].count
        total += copies * triangles[node.mesh]
    return len(gltf.nodes), total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100x100 and 200x200 cells only")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    big = 200 if args.quick else 1000
    folder = tempfile.mkdtemp(prefix="bench-kits-")
    print(f"square mazes of N x N cells (backtracker, seed 1); load average before: "
          f"{os.getloadavg()[0]:.2f}\n")
    print("| cells | output | write s | CPU s | peak MiB | file MB |\n|---|---|---|---|---|---|")
    rows = [("pieces", ".pieces.json", {}), ("pieces-csv", ".pieces.csv", {}),
            ("kit", ".kit.glb", {}), ("kit", ".kit.glb", {"instancing": True}),
            ("kit", ".kit.glb", {"navmesh": True}), ("tscn", ".tscn", {}),
            ("glb", ".glb", {}), ("glb", ".glb", {"navmesh": True})]
    for cells in (100, big):
        for fmt, suffix, options in rows:
            if fmt == "tscn" and cells > 200:
                continue  # (a text scene of a million nodes is not what Godot is for)
            path = os.path.join(folder, f"m{cells}{suffix}")
            r = measure(cells, fmt, options, args.repeats if cells <= 200 else 1, path)
            label = f"{suffix} {' '.join(f'--{k}' for k in options)}".strip()
            print(f"| {cells} | {label} | {r['seconds']:.2f} | {r['cpu']:.2f} | "
                  f"{r['peak_mib']:.0f} | {r['bytes'] / 1e6:.2f} |")
    print("\n| 100x100 maze | bytes | nodes | triangles drawn |\n|---|---|---|---|")
    sizes = {}
    for label, fmt, options in [("voxel .glb", "glb", {}), (".kit.glb", "kit", {}),
                                (".kit.glb --instancing", "kit", {"instancing": True})]:
        path = os.path.join(folder, f"s-{fmt}-{len(options)}.glb")
        measure(100, fmt, options, 1, path)
        nodes, triangles = drawn(path)
        sizes[label] = os.path.getsize(path)
        print(f"| {label} | {sizes[label]:,} | {nodes:,} | {triangles:,} |")
    smaller = sizes[".kit.glb --instancing"] < sizes["voxel .glb"]
    print(f"\nsummary: instanced scene {sizes['.kit.glb --instancing'] / sizes['voxel .glb']:.2f}x "
          f"the voxel .glb's bytes: {'met' if smaller else 'MISSED'}")


if __name__ == "__main__":
    main()
