"""Benchmark of the mesh writers: .glb size, time and memory against the issue's targets, and
sizes beside gltfpack's for the same maze.

    python bench/bench_mesh.py            # 100x100, 1000x1000 and 2000x2000-cell mazes
    python bench/bench_mesh.py --quick    # 100x100 and 200x200, for a smoke test

Each row runs in a fresh interpreter (numba caches warmed on a small maze first, so no compile
time is counted) that builds the volume (walls 3 high on a floor), then writes it: wall seconds
and CPU seconds of ``blockmaze.write`` (best of --repeats), the process's peak memory
(ru_maxrss), triangles and vertices, and the file's size. On a shared machine compare the CPU
column: the load average is printed.

The greedy mesh's triangles beside one quad per exposed block face (the README's "about 5x
fewer"). Then each encoding beside gltfpack's (npm ``gltfpack``; found on PATH, in $GLTFPACK, in
$GLTF_VALIDATOR/node_modules/.bin or in .readers/, where scripts/install_readers.sh puts it),
which rewrites the plain-float, unchunked file of the same maze: our default (floats) against
``gltfpack -noq``, ``--quantize`` against ``gltfpack`` and ``--compress meshopt`` against
``gltfpack -cc``; the target is ours at or below theirs. The summary line says met or MISSED
(the run does not fail on it).
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
from blockmaze.readers.info import inspect_file

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
    readers = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".readers", "npm")
    for candidate in (os.environ.get("GLTFPACK"), shutil.which("gltfpack"),
                      os.path.join(os.environ.get("GLTF_VALIDATOR", ""), "node_modules", ".bin", "gltfpack"),
                      os.path.join(readers, "node_modules", ".bin", "gltfpack")):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


def fewer_triangles(sides) -> None:
    """The greedy mesh's triangles against one quad (two triangles) per exposed block face."""
    import blockmaze as bm
    from blockmaze.export.meshes import culled_face_count, mesh_blocks

    print("\n| cells | one quad per face | greedy, watertight | fewer | greedy, raw | fewer |\n|---|---|---|---|---|---|")
    for side in sides:
        volume = bm.extrude(bm.to_blocks(bm.generate((side, side), rng=1)), height=3)
        culled = 2 * culled_face_count(volume)
        tight, raw = len(mesh_blocks(volume).faces), len(mesh_blocks(volume, watertight=False).faces)
        print(f"| {side} | {culled:,} | {tight:,} | {culled / tight:.1f}x | {raw:,} | {culled / raw:.1f}x |")


# our encodings and the gltfpack flags that make the same one from the plain-float file
ENCODINGS = [("floats (default)", {}, ["-noq"]),
             ("--quantize", {"quantize": True}, []),
             ("--compress meshopt", {"compress": "meshopt"}, ["-cc"])]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100x100 and 200x200 cells only")
    parser.add_argument("--repeats", type=int, default=2, help="timed writes per row (best kept)")
    args = parser.parse_args()
    plain = {"chunk": 0}
    # targets: file MB, write seconds, peak MiB (None: none)
    rows = [(100, {}, "GLB (default: floats, chunk 128)", (None, None, None)),
            (100, {"quantize": True}, "GLB --quantize", (2.0, None, None)),
            (100, {"compress": "meshopt"}, "GLB --compress meshopt", (0.39, None, None)),
            (100, {"uv": True}, "GLB --uv", (None, None, None))]
    sizes = (100, 200) if args.quick else (100, 1000)
    if args.quick:
        rows += [(200, {}, "GLB", (None, None, None))]
    else:
        rows += [(1000, {}, "GLB", (None, None, None)),
                 (1000, {"quantize": True}, "GLB --quantize", (50, 2.7, 1024)),
                 (2000, {"quantize": True}, "GLB --quantize", (None, None, 1536))]
    print(f"mazes of N x N cells, walls 3 high on a floor; load average before: "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}; {os.cpu_count()} cores\n")
    print("| cells | output | write s | CPU s | peak MiB | triangles | vertices | file MB | target |")
    print("|---|---|---|---|---|---|---|---|---|")
    packer = gltfpack()
    missed = []
    with tempfile.TemporaryDirectory(prefix="bench_mesh_") as folder:
        path = os.path.join(folder, "maze.glb")
        for cells, options, label, target in rows:
            r = measure(cells, options, 1 if cells > 1000 else args.repeats, path)
            checks = [(f"<= {limit} {unit}", value <= limit) for limit, unit, value in
                      zip(target, ("MB", "s", "MiB peak"), (r["bytes"] / 1e6, r["seconds"], r["peak_mib"]), strict=True)
                      if limit is not None]
            missed += [f"{cells} {label} {text}" for text, ok in checks if not ok]
            shown = ", ".join(f"{text}: {'met' if ok else 'MISSED'}" for text, ok in checks)
            print(f"| {cells} | {label} | {r['seconds']:.2f} | {r['cpu']:.2f} | {r['peak_mib']:.0f} | "
                  f"{r['triangles']:,} | {r['vertices']:,} | {r['bytes'] / 1e6:.3f} | {shown} |")
        if packer is None:
            print("\ngltfpack not found (bash scripts/install_readers.sh, or set GLTFPACK): "
                  "the comparison is left out")
            missed.append("gltfpack comparison not run")
        else:
            print("\n| cells | encoding | blockmaze MB | gltfpack MB (flags, from the float file) | "
                  "blockmaze <= gltfpack |\n|---|---|---|---|---|")
            for cells in sizes:
                source = os.path.join(folder, "plain.glb")
                measure(cells, plain, 1, source)
                for label, options, flags in ENCODINGS:
                    ours = measure(cells, options, 1, path)["bytes"]
                    packed = os.path.join(folder, "packed.glb")
                    subprocess.run([packer, "-i", source, "-o", packed, *flags], capture_output=True, check=True)
                    theirs = os.path.getsize(packed)
                    ok = ours <= theirs
                    if not ok:
                        missed.append(f"{cells} {label}")
                    print(f"| {cells} | {label} | {ours / 1e6:.3f} | {theirs / 1e6:.3f} "
                          f"(gltfpack {' '.join(flags) or '(default)'}) | {'yes' if ok else 'no'} |")
    fewer_triangles((100, 300))
    print(f"\nsummary: targets and sizes at or below gltfpack's: "
          f"{'met' if not missed else 'MISSED (' + '; '.join(missed) + ')'}")


if __name__ == "__main__":
    main()
