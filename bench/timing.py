"""The benches' one timer: the best of several calls of a function, by wall clock and by CPU.

    >>> from timing import best
    >>> best(lambda: 7, 3).result
    7
"""

from __future__ import annotations

import time
from typing import Any, NamedTuple


class Best(NamedTuple):
    """The least wall-clock and CPU seconds of the timed calls, and the last call's result."""

    wall: float
    cpu: float
    result: Any


def best(function, repeats: int, warm_up: bool = False) -> Best:
    """Call ``function`` ``repeats`` times (after one call not timed, if ``warm_up``: a first
    compile or cache load) and keep the least seconds of each clock."""
    if warm_up:
        function()
    walls, cpus, result = [], [], None
    for _ in range(repeats):
        start, cpu = time.perf_counter(), time.process_time()
        result = function()
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return Best(min(walls), min(cpus), result)
