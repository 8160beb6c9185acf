"""Progress for long runs: one line on stderr naming the phase (compiling, carving, writing)
and the time so far, shown only after a run has taken a while and only when switched on.

Library code marks its phases with :func:`phase` (free when progress is off, the default);
the command line switches progress on with :func:`show_progress` when stderr is a terminal and ``-q``
is not given.

Example
-------
>>> import io
>>> out = io.StringIO()
>>> with show_progress(out, delay=0.0, interval=0.01):
...     with phase("carving"):
...         import time; time.sleep(0.05)
>>> "carving" in out.getvalue() and out.getvalue().endswith("\\r\\x1b[K")
True
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from typing import TextIO

_lock = threading.Lock()
_phases: list[str] = []
_display: _Display | None = None


@contextlib.contextmanager
def phase(label: str) -> Iterator[None]:
    """Name what the run is doing inside the block (shown while progress is on)."""
    if _display is None:
        yield
        return
    with _lock:
        _phases.append(label)
    try:
        yield
    finally:
        with _lock:
            _phases.remove(label)


def forget() -> None:
    """Start afresh in a forked worker process: no display (its thread was not forked) and a
    new lock (the old one may have been held at the fork)."""
    global _display, _lock
    _display = None
    _lock = threading.Lock()
    _phases.clear()


def clear() -> None:
    """Clear the progress line (before printing another message on stderr)."""
    if _display is not None:
        _display.clear()


class _Display:
    def __init__(self, stream: TextIO, delay: float, interval: float):
        self.stream, self.delay, self.interval = stream, delay, interval
        self.start = time.monotonic()
        self.drawn = False
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, name="blockmaze-progress", daemon=True)

    def run(self) -> None:
        while not self.stop.wait(self.interval):
            elapsed = time.monotonic() - self.start
            with _lock:
                if elapsed >= self.delay and _phases:
                    self.write(f"\r\x1b[K{_phases[-1]}... {elapsed:.1f} s")
                    self.drawn = True

    def write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # stderr closed: progress is not worth an error
            self.stop.set()

    def clear(self) -> None:
        with _lock:
            if self.drawn:
                self.write("\r\x1b[K")
                self.drawn = False


@contextlib.contextmanager
def show_progress(stream: TextIO, delay: float = 1.0, interval: float = 0.25) -> Iterator[None]:
    """Show progress on ``stream`` inside the block: after ``delay`` seconds, every
    ``interval`` seconds, the current phase and the time since the block began."""
    global _display
    display = _display = _Display(stream, delay, interval)
    display.thread.start()
    try:
        yield
    finally:
        display.stop.set()
        display.thread.join()
        display.clear()
        _display = None
