"""Compiled kernels that load numba only for jobs big enough to pay for it.

``@kernel`` stands where ``@numba.njit(cache=True)`` would: one source serves two ways. A call
whose largest array argument has at most :data:`SMALL_JOB` elements runs the plain Python
function (no numba import, no cache load: a 10x10 maze starts in a fraction of a second); a
bigger one runs the numba-compiled twin, compiled (or loaded from numba's cache) on first use.
Inside a compiled kernel every other kernel it calls is compiled too; in Python mode they run as
Python. Both ways give the same results for the same inputs and seed (tests/test_kernels.py runs
every algorithm both ways).

Where numba cannot keep a cache beside the package (a read-only install, another user's
site-packages), kernels compile without caching instead of failing.

``BLOCKMAZE_KERNELS=python|numba`` (or :func:`forced`) overrides the choice, for tests and
benchmarks.

Example
-------
>>> import numpy as np
>>> @kernel(cache=False)               # (a function typed here has no file to cache beside)
... def total(values):
...     s = 0
...     for v in values:
...         s += v
...     return s
>>> int(total(np.arange(10)))          # small: plain Python
45
>>> with forced("numba"):              # compiled, same answer
...     int(total(np.arange(10)))
45
"""

from __future__ import annotations

import contextlib
import functools
import os
import types
import warnings
from typing import Callable, Iterator

import numpy as np

from .progress import phase

# Measured (bench/bench_startup.py): loading numba and one cached kernel costs about 0.9 s on a
# 2-core machine; the slowest algorithm in plain Python carves about 20,000 cells in that time.
SMALL_JOB = 4096

_forced: str | None = os.environ.get("BLOCKMAZE_KERNELS") or None


class Kernel:
    """A function that runs as Python for small inputs and compiled by numba for large ones."""

    def __init__(self, function: Callable, options: dict):
        functools.update_wrapper(self, function)
        self.py_func = function
        self.options = options
        self._compiled = None
        self._warm = False

    def __call__(self, *args):
        if _use_python(args):
            return self.py_func(*args)
        if not self._warm:  # the first compiled call compiles (or loads numba's cache)
            with phase("compiling"):
                result = self.compiled(*args)
            self._warm = True
            return result
        return self.compiled(*args)

    @property
    def compiled(self):
        """The numba dispatcher of this kernel (numba imported and the kernel built on first use)."""
        if self._compiled is None:
            self._compiled = _jit(self.py_func, self.options)
        return self._compiled

    def __repr__(self) -> str:
        return f"<kernel {self.py_func.__module__}.{self.py_func.__qualname__}>"


def kernel(function: Callable | None = None, **options):
    """Decorator: ``@kernel`` or ``@kernel(nogil=True)`` (options go to ``numba.njit``)."""
    if function is None:
        return lambda f: Kernel(f, options)
    return Kernel(function, options)


@contextlib.contextmanager
def forced(mode: str | None) -> Iterator[None]:
    """Run every kernel as ``"python"`` or ``"numba"`` inside the block (None: by size)."""
    global _forced
    if mode not in (None, "python", "numba"):
        raise ValueError(f"kernel mode must be 'python', 'numba' or None, got {mode!r}")
    before, _forced = _forced, mode
    try:
        yield
    finally:
        _forced = before


def _use_python(args) -> bool:
    if _forced is not None:
        return _forced == "python"
    biggest = max((a.size for a in args if isinstance(a, np.ndarray)), default=0)
    return biggest <= SMALL_JOB


def _jit(function: Callable, options: dict):
    """numba.njit the function, with every Kernel it refers to replaced by its compiled twin."""
    import numba

    names = function.__code__.co_names
    scope = dict(function.__globals__)
    for name in names:
        value = scope.get(name)
        if isinstance(value, Kernel):
            scope[name] = value.compiled
    twin = types.FunctionType(function.__code__, scope, function.__name__,
                              function.__defaults__, function.__closure__)
    twin.__qualname__, twin.__module__ = function.__qualname__, function.__module__
    options = {"cache": True, "nogil": True, **options}  # nogil: a stop watcher runs meanwhile
    try:
        return numba.njit(**options)(twin)
    except RuntimeError as error:  # numba finds no writable cache folder for this install
        warnings.warn(f"numba cannot cache compiled kernels here ({error}); compiling each run",
                      KernelCacheWarning, stacklevel=2)
        return numba.njit(**{**options, "cache": False})(twin)


class KernelCacheWarning(UserWarning):
    """numba could not cache a kernel; it runs, compiled anew each run."""
