"""The matrix of every combination (tests/matrix.py), pairwise: each case of the all-pairs cover
of command x grid x features x format runs as the command runs it and is refused in one line
before any file exists, or works: its files read back by ``blockmaze info`` and an independent
reader, its meshes closed, its block states valid, every feature asked for in the output or
warned of. ``bench/bench_matrix.py`` runs the full product.
"""

from __future__ import annotations

import matrix
import pytest

pytestmark = [pytest.mark.slow]

CASES = matrix.pairwise()


def _param(case: matrix.Case):
    return pytest.param(case, id=case.id)


def test_the_cover_is_deterministic_and_covers_every_pair():
    assert [c.id for c in matrix.pairwise()] == [c.id for c in CASES]
    assert len({c.id for c in CASES}) == len(CASES)
    covered = set()
    for case in CASES:
        covered |= matrix._pairs_of(case.family, case.v)
    for family, dimensions in matrix.FAMILIES.items():
        names = list(dimensions)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                for va in dimensions[a]:
                    for vb in dimensions[b]:
                        if matrix.valid(family, {a: va, b: vb}):
                            assert ((a, va), (b, vb)) in covered, (family, a, va, b, vb)


@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_case(case, tmp_path):
    result = matrix.run_case(case, tmp_path)
    if result.status not in ("works", "refused"):
        pytest.fail(f"{case.id} failed: {result.why}\n  $ {matrix.command_line(case)}",
                    pytrace=False)
