"""The matrix of every combination (tests/matrix.py): command x grid x features x output format,
each case run as the command runs it and classified works / refused / failed; prints a table.

    python bench/bench_matrix.py               # the full product (tens of thousands of cases)
    python bench/bench_matrix.py --quick       # a seeded sample of about a minute's cases
    python bench/bench_matrix.py --pairwise    # the all-pairs cover the tests run
    python bench/bench_matrix.py --sample 2000 --seed 3 --jobs 2
    python bench/bench_matrix.py --case dungeon-bsp-lock-schem   # one case: its result and command

Prints: combinations tried, works, refused (each distinct refusal line, numbers blurred, with its
count), failed (each distinct reason with its count, up to three case ids and a command line
that reproduces each). Run from a checkout with tests/ importable (the checkers live there).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import Counter
from multiprocessing import Pool

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

import matrix

QUICK = 800  # cases in a --quick sample: about a minute on two cores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"a seeded sample of {QUICK} cases")
    parser.add_argument("--pairwise", action="store_true", help="the all-pairs cover only")
    parser.add_argument("--sample", type=int, default=None, help="a seeded sample of N cases")
    parser.add_argument("--seed", type=int, default=2026, help="the sample's seed")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--case", action="append", default=[], metavar="ID",
                        help="run only the case with this id (repeatable)")
    args = parser.parse_args()
    if args.case:
        wanted = set(args.case)
        for case in matrix.full_product():
            if case.id in wanted:
                wanted.discard(case.id)
                result = matrix.run_case(case)
                print(f"{case.id}: {result.status} {result.why}".rstrip())
                for message in result.warned:
                    print(f"  warned: {message}")
                print(f"  $ {matrix.command_line(case)}")
        for name in sorted(wanted):
            print(f"{name}: no such case")
        return

    full = matrix.full_count()
    cover = matrix.pairwise()
    if args.pairwise:
        cases, what = cover, "the pairwise cover"
    else:
        cases = list(matrix.full_product())
        size = QUICK if args.quick and args.sample is None else args.sample
        what = "the full product"
        if size is not None and size < len(cases):
            cases = random.Random(args.seed).sample(cases, size)
            what = f"a sample of {size} (seed {args.seed})"
    print(f"matrix: {full} combinations in the full product, {len(cover)} in the pairwise cover")
    print(f"running {what}: {len(cases)} cases on {args.jobs} processes")
    start = time.perf_counter()
    if args.jobs > 1:
        with Pool(args.jobs) as pool:
            results = pool.map(matrix.run_case, cases, chunksize=4)
    else:
        results = [matrix.run_case(case) for case in cases]
    seconds = time.perf_counter() - start
    print(f"{seconds:.1f} s ({1000 * seconds / max(1, len(cases)):.0f} ms a case)\n")
    families = Counter((r.case.family, r.status) for r in results)
    print(f"{'family':<10} {'tried':>6} {'works':>6} {'refused':>8} {'failed':>7}")
    for family in matrix.FAMILIES:
        counts = [families[(family, s)] for s in ("works", "refused", "failed")]
        print(f"{family:<10} {sum(counts):>6} {counts[0]:>6} {counts[1]:>8} {counts[2]:>7}")
    print()
    print(matrix.summary(results))


if __name__ == "__main__":
    main()
