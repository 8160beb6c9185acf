"""Work on the next items of a stream in a second thread while the caller uses the current one.

A band writer spends part of each band in numpy (which releases the GIL: making the band, its
palette) and part in Python (building and writing chunks). :func:`worked_ahead` runs the first
part for the next bands on another thread, in order, so both cores work; the results come back
in the stream's order, so the output is the same as with no thread.

Example
-------
>>> list(worked_ahead(range(5), lambda n: n * n))
[0, 1, 4, 9, 16]
>>> list(worked_ahead(range(5), lambda n: n * n, depth=0))   # in the calling thread
[0, 1, 4, 9, 16]
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Generator, Iterable
from typing import TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")

DEPTH = 2  # results held ready ahead of the caller (each a band: a few MB)
_DONE = object()


def worked_ahead(items: Iterable[Item], work: Callable[[Item], Result], depth: int = DEPTH) -> Generator[Result, None, None]:
    """``work(item)`` for each item, in order, computed up to ``depth`` items ahead on a thread
    (0: in the calling thread). An exception in the thread is raised here, at its item; closing
    the generator early (an error in the caller, Ctrl-C) stops the thread."""
    if depth <= 0:
        for item in items:
            yield work(item)
        return
    results: queue.Queue = queue.Queue(depth)
    stop = threading.Event()

    def produce() -> None:
        try:
            for item in items:
                if stop.is_set():
                    return
                _put(results, stop, (True, work(item)))
        except BaseException as error:  # handed to the caller, raised in its thread
            _put(results, stop, (False, error))
            return
        _put(results, stop, (True, _DONE))

    thread = threading.Thread(target=produce, name="blockmaze-ahead", daemon=True)
    thread.start()
    try:
        while True:
            ok, value = results.get()
            if not ok:
                raise value
            if value is _DONE:
                return
            yield value
    finally:
        stop.set()
        thread.join()


def _put(results: queue.Queue, stop: threading.Event, outcome: tuple) -> None:
    """Put ``outcome`` once there is room, unless the caller stops first."""
    while not stop.is_set():
        try:
            results.put(outcome, timeout=0.1)
            return
        except queue.Full:
            continue
