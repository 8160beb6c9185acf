"""Benchmark of the greedy mesher and the .glb writer; prints a Markdown table.

    python bench/bench_mesh.py            # a 1000x1000-cell maze, walls 3 high: 2001x4x2001 blocks
    python bench/bench_mesh.py --quick    # a 200x200-cell maze, for a smoke test

Each row runs in a fresh interpreter (numba caches warmed on a small maze first, so no compile
time is counted) that builds the volume, then writes it to a .glb file: wall seconds and CPU
seconds of ``blockmaze.write`` (best of --repeats), and the process's peak memory (ru_maxrss), also
less what it held before writing. Triangles per solid block are compared with face culling (two
triangles per exposed block face). Targets: watertight .glb in < 5 s and < 2 GiB, at least 5x fewer
triangles than culling. On a shared machine, compare the CPU column: the load average is printed.
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
import numpy as np
import blockmaze as bm
from blockmaze.export.meshes import culled_face_count, mesh_blocks

cells, fmt, watertight, repeats, folder = int(sys.argv[1]), sys.argv[2], sys.argv[3] == "1", int(sys.argv[4]), sys.argv[5]
options = {} if fmt != "glb" else {"watertight": watertight}
small = bm.extrude(bm.to_blocks(bm.generate((5, 5), rng=0)), height=3)
bm.write(small, os.path.join(folder, "warm." + fmt), **options)    # load the numba caches
volume = bm.extrude(bm.to_blocks(bm.generate((cells, cells), rng=1)), height=3)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
path = os.path.join(folder, "maze." + fmt)
walls, cpus = [], []
for _ in range(repeats):
    start, cpu = time.perf_counter(), time.process_time()
    bm.write(volume, path, **options)
    walls.append(time.perf_counter() - start)
    cpus.append(time.process_time() - cpu)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
surface = mesh_blocks(volume, watertight=watertight)
print(json.dumps({
    "shape": list(volume.shape), "solid": int(np.count_nonzero(volume)),
    "seconds": min(walls), "cpu": min(cpus), "peak_mib": peak / 1024, "extra_mib": (peak - before) / 1024,
    "triangles": int(len(surface.faces)), "vertices": int(len(surface.vertices)),
    "culled": 2 * culled_face_count(volume), "bytes": os.path.getsize(path),
}))
"""


def measure(cells: int, fmt: str, watertight: bool, repeats: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="bench_mesh_") as folder:
        out = subprocess.run(
            [sys.executable, "-c", RUN, str(cells), fmt, "1" if watertight else "0", str(repeats), folder],
            capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a 200x200-cell maze")
    parser.add_argument("--repeats", type=int, default=3, help="timed writes per row (best kept)")
    args = parser.parse_args()
    cells = 200 if args.quick else 1000
    rows = [("glb", True, "watertight .glb (default)"), ("glb", False, "raw greedy .glb"),
            ("stl", True, "watertight .stl")]
    print(f"maze {cells}x{cells} cells, walls 3 high on a floor; load average before: "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}; {os.cpu_count()} cores\n")
    print("| output | volume (x*y*z) | write s | CPU s | peak MiB (extra) | triangles | "
          "tris / solid block | culling tris / block | fewer than culling | file MB |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for fmt, watertight, label in rows:
        r = measure(cells, fmt, watertight, args.repeats)
        y, z, x = r["shape"]
        print(f"| {label} | {x}x{y}x{z} | {r['seconds']:.2f} | {r['cpu']:.2f} | "
              f"{r['peak_mib']:.0f} ({r['extra_mib']:.0f}) | {r['triangles']:,} | "
              f"{r['triangles'] / r['solid']:.3f} | {r['culled'] / r['solid']:.3f} | "
              f"{r['culled'] / r['triangles']:.1f}x | {r['bytes'] / 1e6:.1f} |")
    print("\ntargets: watertight .glb < 5 s and < 2 GiB (2048 MiB); >= 5x fewer triangles than culling")


if __name__ == "__main__":
    main()
