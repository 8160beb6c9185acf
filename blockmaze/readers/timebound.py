"""A time bound for reading one file, besides its byte and inflate limits: a file may be small and
still slow (a region whose chunks hold millions of tiny tags), so the read loops call
:func:`check_time`, and a read that runs past the bound is refused with one line.

The bound is env ``BLOCKMAZE_INFO_SECONDS`` (seconds, default 10), counted from when the file
was opened; the loops check it between pieces of work (an inflated piece, a chunk, a zip member,
every few thousand values), so a refusal comes within a piece of the bound.

>>> with time_bound("slow.nbt", seconds=0.0):
...     check_time()
Traceback (most recent call last):
...
blockmaze.errors.BadFileError: slow.nbt: reading it took more than 0 s, the most info spends on one file (set BLOCKMAZE_INFO_SECONDS to raise it)
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Iterator

from ..errors import BadFileError, BlockmazeError

DEFAULT_SECONDS = 10.0
_state = threading.local()  # .bound: (deadline, name, seconds) of the file this thread reads


def info_seconds() -> float:
    """The most seconds one file may take to read: env ``BLOCKMAZE_INFO_SECONDS``, else 10.

    >>> info_seconds() == DEFAULT_SECONDS or "BLOCKMAZE_INFO_SECONDS" in os.environ
    True
    """
    raw = os.environ.get("BLOCKMAZE_INFO_SECONDS")
    if raw is None:
        return DEFAULT_SECONDS
    try:
        seconds = float(raw)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds < float("inf"):
        raise BlockmazeError(f"BLOCKMAZE_INFO_SECONDS must be a number of seconds > 0, got {raw!r}")
    return seconds


@contextlib.contextmanager
def time_bound(name: str | None, seconds: float | None = None) -> Iterator[None]:
    """Reading ``name`` inside the block may take at most ``seconds`` (:func:`info_seconds`);
    inside another file's bound (a region of a world), the outer bound holds. (``name`` None: the
    caller names the file in its own message.)"""
    if getattr(_state, "bound", None) is not None:
        yield
        return
    seconds = info_seconds() if seconds is None else seconds
    _state.bound = (time.monotonic() + seconds, name, seconds)
    try:
        yield
    finally:
        _state.bound = None


def check_time() -> None:
    """BadFileError if the file being read has taken longer than its bound (nothing outside one)."""
    bound = getattr(_state, "bound", None)
    if bound is not None and time.monotonic() > bound[0]:
        where = f"{bound[1]}: " if bound[1] else ""
        raise BadFileError(f"{where}reading it took more than {bound[2]:g} s, the most info "
                           "spends on one file (set BLOCKMAZE_INFO_SECONDS to raise it)")


def time_left() -> float | None:
    """Seconds left of the bound of the file being read (0 once past it), None outside one.

    >>> with time_bound("m.mcworld", seconds=5.0):
    ...     0 < time_left() <= 5
    True
    """
    bound = getattr(_state, "bound", None)
    return None if bound is None else max(bound[0] - time.monotonic(), 0.0)
