"""Compiled kernels that load numba only for jobs big enough to pay for it.

``@kernel`` stands where ``@numba.njit(cache=True)`` would: one source serves two ways. A call
whose largest array argument has at most ``small`` elements (:data:`SMALL_JOB` unless the kernel
says ``@kernel(small=...)``) runs the plain Python function (no numba import, no cache load, no
compile: a 100x100 maze starts in a fraction of a second, even on a fresh install); a bigger one
runs the numba-compiled twin, compiled (or loaded from numba's cache) on first use, with a
progress line naming it. A kernel whose Python form is slow for its size (the greedy mesher's
inner loops) says a smaller ``small``; one that does little per element a larger one.
Inside a compiled kernel every other kernel it calls is compiled too; inside one run as Python
they run as Python (whatever the size of their own arguments). Both ways give the same results
for the same inputs and seed (tests/test_kernels.py runs every algorithm both ways).

Where numba cannot keep a cache beside the package (a read-only install, another user's
site-packages), kernels compile without caching instead of failing.

A kernel that only reads and writes single elements (and ``shape``) of its arrays says
``@kernel(views=True)``: its Python form then runs on memoryviews of them, whose elements read as
Python numbers, about three times faster than numpy's one-element indexing (a 100x100
backtracker: 0.23 s -> 0.08 s).

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
import sys
import threading
import types
import warnings
from collections.abc import Callable, Iterator

import numpy as np

from . import stops
from .progress import phase
from ..errors import LimitError

# Measured (bench/bench_startup.py, 2-core machine): importing numba and loading cached kernels
# costs about 0.9 s a process, compiling one on an empty cache 0.5-6 s; the plain Python kernels
# of a 100x100 maze (a 40,000-entry neighbour table) take about 0.1-0.2 s.
SMALL_JOB = 1 << 16
# Once a job has imported numba, the next kernels go compiled from this size up (a 100x100 .glb:
# the greedy pass needs numba, and its later steps then load in milliseconds instead of running
# for seconds as Python).
LOADED_SMALL_JOB = 4096

_forced: str | None = os.environ.get("BLOCKMAZE_KERNELS") or None
# False here and in every kernel run as Python; True, a constant, in a kernel's compiled twin.
# A kernel may branch on it where the two ways want different code for the same result (numba
# drops the branch it never takes, so that one is never compiled).
COMPILED = False


class _Inside(threading.local):
    python = False  # this thread runs a kernel as Python


_inside = _Inside()


class Kernel:
    """A function that runs as Python for small inputs and compiled by numba for large ones."""

    def __init__(self, function: Callable, options: dict):
        functools.update_wrapper(self, function)
        self.py_func = function
        options = dict(options)
        self.small = options.pop("small", SMALL_JOB)
        self.views = options.pop("views", False)
        self.options = options
        self._compiled = None
        self._on_views = None
        self._warm = False

    def __call__(self, *args):
        if _inside.python:  # called by a kernel running as Python: Python too, whatever its size
            return self.python(*args)
        if _use_python(args, self.small):
            _inside.python = True
            try:
                return self.python(*args)
            finally:
                _inside.python = False
        if not self._warm:  # the first compiled call compiles (or loads numba's cache)
            with phase(f"compiling {self.py_func.__name__.lstrip('_')} (once, then cached)"), \
                    _without_unused_modules(), stops.noted():
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

    def python(self, *args):
        """Run the Python form: with ``views``, on memoryviews of the array arguments (and of the
        arrays it makes), arrays again in what it returns."""
        if not self.views:
            return self.py_func(*args)
        return _as_arrays(self.on_views(*[_as_view(value) for value in args]))

    @property
    def on_views(self):
        """The Python twin of a ``views`` kernel: its arrays are memoryviews, whose elements read
        as Python ints and floats (about three times the speed of indexing numpy arrays one
        element at a time); the kernels it calls are their own Python forms."""
        if self._on_views is None:
            self._on_views = _twin(self.py_func, {**_kernels_in(self.py_func, _inner_python),
                                                  "np": _numpy_making_views()})
        return self._on_views

    def __repr__(self) -> str:
        return f"<kernel {self.py_func.__module__}.{self.py_func.__qualname__}>"


def kernel(function: Callable | None = None, **options):
    """Decorator: ``@kernel`` or ``@kernel(nogil=True, small=20_000)`` (``small``: the largest
    array size run as Python; ``views=True``: its Python form runs on memoryviews, for a kernel
    that only reads and writes single elements and ``shape`` of its arrays; other options go to
    ``numba.njit``)."""
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


def _use_python(args, small: int = SMALL_JOB) -> bool:
    if _forced is not None:
        return _forced == "python"
    if _numba_loaded():  # the import is paid: a cached kernel loads in milliseconds
        small = min(small, LOADED_SMALL_JOB)
    biggest = max((a.size for a in args if isinstance(a, np.ndarray)), default=0)
    return biggest <= small


def compiled_pays(size: int, small: int) -> bool:
    """Whether a job of ``size`` elements that also has a vectorized numpy form should run its
    compiled kernels: yes when forced to numba or when numba is already loaded (its set-up paid),
    no when forced to Python, else when ``size`` exceeds ``small``.

    >>> with forced("python"):
    ...     compiled_pays(10**9, 1000)
    False
    """
    if _forced is not None:
        return _forced == "numba"
    return _numba_loaded() or size > small


def _numba_loaded() -> bool:
    return "numba" in sys.modules


# Installed packages numba's import and first compile or cache load would import only for
# features no kernel here uses: SciPy (its version checked at numba's import, 0.03 s; its linalg,
# BLAS for np.dot and kin, at the first compile: about 0.15 s of CPU) and cffi (calling cffi
# functions from kernels; with its C parser, about 0.05 s). SciPy is not a dependency (only the
# tests use it): without it, numba behaves as on a plain install.
UNUSED_BY_KERNELS = ("scipy", "cffi")


@contextlib.contextmanager
def _without_unused_modules() -> Iterator[None]:
    """Hide the installed but not yet imported :data:`UNUSED_BY_KERNELS` while numba sets up its
    compiler: without them numba uses its own loops for ``np.dot`` and kin and leaves cffi
    support off, as on an install without SciPy or cffi. Put back afterwards, so later imports
    of them work."""
    hidden = [name for name in UNUSED_BY_KERNELS if name not in sys.modules]
    for name in hidden:
        sys.modules[name] = None  # type: ignore[assignment]  # importing it raises ImportError
    try:
        yield
    finally:
        for name in hidden:
            if name in sys.modules and sys.modules[name] is None:
                del sys.modules[name]


def _jit(function: Callable, options: dict):
    """numba.njit the function, with every Kernel it refers to replaced by its compiled twin."""
    try:
        import numba
    except (ImportError, OSError) as error:  # its compiler's library could not be mapped
        raise LimitError(f"cannot load numba's compiler ({str(error).split('. ')[0]})"
                         f"{address_space_note()}") from None

    twin = _twin(function, {**_kernels_in(function, lambda inner: inner.compiled),
                            "COMPILED": True})  # see COMPILED
    options = {"cache": True, "nogil": True, **options}  # nogil: a stop watcher runs meanwhile
    try:
        return numba.njit(**options)(twin)
    except RuntimeError as error:  # numba finds no writable cache folder for this install
        warnings.warn(f"numba cannot cache compiled kernels here ({error}); compiling each run",
                      KernelCacheWarning, stacklevel=2)
        return numba.njit(**{**options, "cache": False})(twin)


def address_space_note() -> str:
    """What to say of the process's address-space limit where one is set (``ulimit -v``).

    >>> address_space_note() in ("", address_space_note())
    True
    """
    import resource

    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY:
        return ""
    return f": the process may map at most {soft >> 20} MiB (ulimit -v); raise that limit"


def _twin(function: Callable, changes: dict) -> Callable:
    """``function`` with the global names in ``changes`` bound to other values."""
    scope = {**function.__globals__, **changes}
    twin = types.FunctionType(function.__code__, scope, function.__name__,
                              function.__defaults__, function.__closure__)
    twin.__qualname__, twin.__module__ = function.__qualname__, function.__module__
    return twin


def _kernels_in(function: Callable, form: Callable) -> dict:
    """``{name: form(kernel)}`` for each kernel ``function`` calls by a global name."""
    found = {name: function.__globals__.get(name) for name in function.__code__.co_names}
    return {name: form(value) for name, value in found.items() if isinstance(value, Kernel)}


def _inner_python(inner: Kernel) -> Callable:
    """How a ``views`` twin calls ``inner``: its twin, or its Python form given arrays again."""
    if inner.views:
        return inner.on_views
    return lambda *args: inner.py_func(*[_as_array(value) for value in args])


# element types a memoryview indexes (numpy's type characters; struct's are the same)
_VIEWABLE = frozenset("?bBhHiIlLqQfd")


def _as_view(value):
    if isinstance(value, np.ndarray) and value.ndim and value.dtype.char in _VIEWABLE:
        return memoryview(value)
    return value


def _as_array(value):
    return np.asarray(value) if isinstance(value, memoryview) else value


def _as_arrays(result):
    if isinstance(result, tuple):
        return tuple(_as_array(value) for value in result)
    return _as_array(result)


@functools.cache
def _numpy_making_views() -> types.ModuleType:
    """numpy as a ``views`` twin sees it: ``empty``, ``zeros``, ``ones`` and ``full`` return
    memoryviews of the arrays they make."""
    views = types.ModuleType("numpy")
    views.__dict__.update(np.__dict__)
    for name in ("empty", "zeros", "ones", "full"):
        setattr(views, name, _making_views(getattr(np, name)))
    return views


def _making_views(make: Callable) -> Callable:
    """``make`` (an array constructor), returning a memoryview of what it makes."""
    return functools.wraps(make)(lambda *args, **options: _as_view(make(*args, **options)))


class KernelCacheWarning(UserWarning):
    """numba could not cache a kernel; it runs, compiled anew each run."""
