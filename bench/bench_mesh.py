"""Benchmark of the mesh writers: .glb size, time and memory against the issue's targets.

    python bench/bench_mesh.py            # 100x100, 1000x1000 and 2000x2000-cell mazes
    python bench/bench_mesh.py --quick    # 100x100 and 200x200, for a smoke test

Each row runs in a fresh interpreter (numba caches warmed on a small maze first, so no compile
time is counted) that builds the volume (walls 3 high on a floor), then writes it: wall seconds
and CPU seconds of ``blockmaze.write`` (best of --repeats), the process's peak memory
(ru_maxrss), triangles and vertices, and the file's size. gltfpack (npm ``gltfpack``; found on
PATH, in $GLTFPACK, or in $GLTF_VALIDATOR/node_modules/.bin) rewrites the unquantized,
unchunked file of the same maze, for comparison; without it those rows say so. On a shared
machine compare the CPU column: the load average is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

RUN = """
import json, os, resource, sys, time
import blockmaze as bm
from blockmaze.info import inspect_file

cells, options, repeats, path = int(sys.argv[1]), json.loads(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
small = bm.extrude(bm.to_blocks(bm.generate((5, 5), rng=0)), height=3)
bm.write(small, path, **options)    # load the numba caches
volume = bm.extrude(bm.to_blocks(bm.generate((cells, cells), rng=1)), height=3)
walls, cpus = [], []
for _ in range(repeats):
    start, cpu = time.perf_counter(), time.process_time()
    bm.write(volume, path, **options)
    walls.append(time.perf_counter() - start)
    cpus.append(time.process_time() - cpu)
lines = inspect_file(path).details
print(json.dumps({"seconds": min(walls), "cpu": min(cpus),
                  "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "triangles": int(lines["triangles"]), "vertices": int(lines["vertices"]),
                  "bytes": os.path.getsize(path)}))
"""


def measure(cells: int, options: dict, repeats: int, path: str) -> dict:
    out = subprocess.run([sys.executable, "-c", RUN, str(cells), json.dumps(options), str(repeats), path],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def gltfpack() -> str | None:
    for candidate in (os.environ.get("GLTFPACK"), shutil.which("gltfpack"),
                      os.path.join(os.environ.get("GLTF_VALIDATOR", ""), "node_modules", ".bin", "gltfpack")):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100x100 and 200x200 cells only")
    parser.add_argument("--repeats", type=int, default=2, help="timed writes per row (best kept)")
    args = parser.parse_args()
    meshopt = {"compress": "meshopt"}
    rows = [(100, {}, "GLB (default: quantized, chunk 128)", "<= 2.0 MB"),
            (100, meshopt, "GLB --compress meshopt", "<= 0.39 MB"),
            (100, {"quantize": False, "chunk": 0}, "GLB --no-quantize --chunk 0", ""),
            (100, {"uv": True}, "GLB --uv", "")]
    if args.quick:
        rows += [(200, {}, "GLB", ""), (200, meshopt, "GLB --compress meshopt", "")]
    else:
        rows += [(1000, {}, "GLB", "<= 50 MB, <= 2.7 s, peak <= 1024 MiB"),
                 (1000, meshopt, "GLB --compress meshopt", ""),
                 (2000, {}, "GLB", "peak <= 1536 MiB")]
    print(f"mazes of N x N cells, walls 3 high on a floor; load average before: "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}; {os.cpu_count()} cores\n")
    print("| cells | output | write s | CPU s | peak MiB | triangles | vertices | file MB | target |")
    print("|---|---|---|---|---|---|---|---|---|")
    packer = gltfpack()
    with tempfile.TemporaryDirectory(prefix="bench_mesh_") as folder:
        for cells, options, label, target in rows:
            path = os.path.join(folder, "maze.glb")
            r = measure(cells, options, 1 if cells > 1000 else args.repeats, path)
            print(f"| {cells} | {label} | {r['seconds']:.2f} | {r['cpu']:.2f} | {r['peak_mib']:.0f} | "
                  f"{r['triangles']:,} | {r['vertices']:,} | {r['bytes'] / 1e6:.3f} | {target} |")
            if cells == 100 and options == {"quantize": False, "chunk": 0}:
                plain = os.path.join(folder, "plain.glb")
                shutil.copy(path, plain)
        if packer is None:
            print("\ngltfpack not found (npm install gltfpack; set GLTFPACK): its rows are left out")
        else:
            for flags, label in (([], "gltfpack (its default)"), (["-cc"], "gltfpack -cc")):
                out = os.path.join(folder, "packed.glb")
                subprocess.run([packer, "-i", plain, "-o", out, *flags], capture_output=True, check=True)
                print(f"| 100 | {label}, from the --no-quantize --chunk 0 file | | | | | | "
                      f"{os.path.getsize(out) / 1e6:.3f} | for comparison |")


if __name__ == "__main__":
    main()
