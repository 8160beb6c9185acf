"""The cylinder puzzle box: how long a box takes to make and to prove it opens, over seeds and
sizes; prints a Markdown table.

    python bench/bench_puzzle_box.py            # 50 seeds x 3 sizes (30, 40, 60 mm)
    python bench/bench_puzzle_box.py --quick    # CI smoke run: 3 seeds x the 40 mm box

Each box is ``puzzle_box(make_maze((rows, cols), kind="cylinder", seed=s), diameter, nubs=n)``
with as many columns as leave walls of 2 mm at the groove floor (at most 12 a sector). The
proof is the test's (tests/test_puzzle_box.py): every nub, a round cylinder of the nub's
diameter and length, swept along the box's nub path (the union of manifold3d hulls of
consecutive positions) meets the inner part in less than 1e-6 mm³. manifold3d is needed.
Benches print; they never fail on a number.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

SIZES = {30.0: (4, 1), 40.0: (5, 2), 60.0: (7, 3)}  # diameter: rows, nubs
TAU = 2 * np.pi


def solid(points, triangles):
    import manifold3d

    return manifold3d.Manifold(manifold3d.Mesh(vert_properties=points.astype(np.float32),
                                               tri_verts=triangles.astype(np.uint32)))


def nub(box, position, segments=24):
    radius = box.diameter / 2 + box.clearance
    theta = np.arctan2(position[1], position[0])
    out = np.array([np.cos(theta), np.sin(theta), 0.0])
    side = np.array([-np.sin(theta), np.cos(theta), 0.0])
    a = np.linspace(0, TAU, segments, endpoint=False)
    ring = (np.cos(a)[:, None] * side + np.sin(a)[:, None] * np.array([0.0, 0.0, 1.0])) \
        * (box.nub_diameter / 2 / np.cos(np.pi / segments))
    centre = np.array([0.0, 0.0, position[2]])
    return np.concatenate([centre + out * r + ring for r in (radius - box.nub_length, radius)])


def opens(box) -> bool:
    """Whether every nub swept along the path misses the inner part."""
    import manifold3d

    hulls = []
    for k in range(box.nubs):
        c, s = np.cos(TAU / box.nubs * k), np.sin(TAU / box.nubs * k)
        clouds = [nub(box, p) for p in box.nub_path @ np.array([[c, s, 0], [-s, c, 0], [0, 0, 1]])]
        hulls += [manifold3d.Manifold.hull_points(np.concatenate([a, b]))
                  for a, b in zip(clouds[:-1], clouds[1:], strict=True)]
    sweep = manifold3d.Manifold.batch_boolean(hulls, manifold3d.OpType.Add)
    return (sweep ^ solid(*box.parts["inner"])).volume() < 1e-6


def run(diameter: float, seeds: int) -> tuple[int, int, float, float, int, tuple]:
    """Boxes made, proven to open, mean seconds to make and to check, triangles, the maze."""
    from blockmaze.export.surfaces.box import most_columns, puzzle_box
    from blockmaze.pipeline import make_maze

    rows, nubs = SIZES[diameter]
    cols = min(most_columns(diameter, nubs, least_wall=2.0), 12)
    made, checked, proven = [], [], 0
    for seed in range(seeds):
        document = make_maze((rows, cols), kind="cylinder", seed=seed)
        started = time.perf_counter()
        box = puzzle_box(document, diameter=diameter, nubs=nubs)
        made.append(time.perf_counter() - started)
        started = time.perf_counter()
        proven += opens(box)
        checked.append(time.perf_counter() - started)
    triangles = sum(len(t) for _, t in box.parts.values())
    return seeds, proven, statistics.mean(made), statistics.mean(checked), triangles, (rows, cols, nubs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 seeds x the 40 mm box")
    args = parser.parse_args()
    sizes, seeds = ([40.0], 3) if args.quick else (list(SIZES), 50)
    print("| diameter (mm) | maze (rows x cols a sector, nubs) | boxes | opening proven | "
          "mean time to make one (s) | mean time to check one (s) | triangles (all parts) |")
    print("|---|---|---|---|---|---|---|")
    for diameter in sizes:
        boxes, proven, make, check, triangles, (rows, cols, nubs) = run(diameter, seeds)
        print(f"| {diameter:g} | {rows} x {cols}, {nubs} | {boxes} | {proven} | {make:.3f} | "
              f"{check:.2f} | {triangles} |")


if __name__ == "__main__":
    main()
