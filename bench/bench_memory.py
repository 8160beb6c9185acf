"""Memory per unit of work, measured: the table in ``blockmaze/support/memory.py`` comes from here.

For maze generation, the .json maze document, pictures (cell size 2) and every output format, each
in its own process (``tests/memory_probe.py``): the peak resident memory above the input for an
n x n square maze (volume formats: the 2n+1 plan extruded 3 high; tile maps: the plan), divided by
the units of work (n per kind: ``tests/memory_probe.py``) (block, tile, cell or pixel) — the cost per unit, which stays within some 15 %
from n = 150 to 450, so the table is proportional. Then, at two other sizes, the table's
estimate is compared with a new measurement (target: within 25 %).

    python bench/bench_memory.py [--quick] [--only KIND ...] [--print-table]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from memory_probe import measure, sizes  # noqa: E402

from blockmaze.export import FORMATS  # noqa: E402
from blockmaze.support.memory import MEASURED, estimate  # noqa: E402

UNITS = {"generate": "cell", "document": "cell", "png": "pixel", "svg": "cell"}
TOLERANCE = 0.25


def kinds() -> list[str]:
    return ["generate", "document", "png", "svg"] + list(FORMATS)


def unit_of(kind: str) -> str:
    if kind in UNITS:
        return UNITS[kind]
    return "tile" if FORMATS[kind].source == "plan" else "block"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: a few kinds, small sizes")
    parser.add_argument("--only", nargs="*", help="measure only these kinds")
    parser.add_argument("--print-table", action="store_true", help="print the fitted table as Python")
    args = parser.parse_args()
    chosen = kinds()
    if args.quick:
        chosen = ["schem"]
    if args.only:
        chosen = args.only
    print(f"peak memory above the input (n x n square mazes; the cost per unit from one size, checked "
          f"at two others; target: the table within {TOLERANCE:.0%} of the measurement)")
    print(f"{'kind':<10} {'unit':<6} {'fit B/unit':>10} {'table B/unit':>12} {'n':>5} {'units':>10} "
          f"{'measured MB':>11} {'table MB':>9} {'error':>7}  ok")
    fitted = {}
    for kind in chosen:
        fit, *check = sizes(kind) if not args.quick else (60, 40, 80)
        units, peak = measure(kind, fit)
        slope = peak / units
        fitted[kind] = (unit_of(kind), round(slope, 1), 0)
        table = MEASURED.get(kind, (None, float("nan"), 0))[1]
        for n in check:
            units, peak = measure(kind, n)
            guess = estimate(kind, units)
            error = (guess - peak) / peak if peak else float("nan")
            ok = "yes" if abs(error) <= TOLERANCE else "NO"
            print(f"{kind:<10} {unit_of(kind):<6} {slope:>10.1f} {table:>12.1f} {n:>5} {units:>10} "
                  f"{peak / 2**20:>11.1f} {guess / 2**20:>9.1f} {error:>+7.0%}  {ok}")
    if args.print_table:
        print("\nMEASURED = {")
        for kind, (unit, slope, fixed) in fitted.items():
            print(f"    {kind!r}: ({unit!r}, {slope}, {fixed}),")
        print("}")


if __name__ == "__main__":
    main()
