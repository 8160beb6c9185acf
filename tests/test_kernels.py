"""Kernels give the same results run as plain Python (small jobs) and compiled by numba (large
ones), so the size threshold that picks between them can never change a maze."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import numpy as np
import pytest

import blockmaze as bm
from blockmaze.support import kernels
from blockmaze.algorithms import ALGORITHMS, algorithm_specs

SHAPES = {  # a grid kind's shape from one size number
    "square": lambda n: (n, n), "hex": lambda n: (n, n), "upsilon": lambda n: (n, n),
    "triangle": lambda n: (n, n), "polar": lambda n: (n,), "layered": lambda n: (2, n, n),
}


def around_threshold(kind: str) -> list[tuple[int, ...]]:
    """The largest shape whose neighbour table fits SMALL_JOB, and the next one up."""
    n = 2
    while bm.make_grid(SHAPES[kind](n + 1), kind).neighbors.size <= kernels.SMALL_JOB:
        n += 1
    return [SHAPES[kind](n), SHAPES[kind](n + 1)]


CASES = [(kind, spec, shape) for kind in SHAPES for shape in around_threshold(kind)
         for spec in algorithm_specs()
         if ALGORITHMS[spec.split(":")[0]].grid_kinds in (None, frozenset({kind}))]


@pytest.mark.slow
@pytest.mark.parametrize("kind, spec, shape", CASES, ids=[f"{k}-{s}-{'x'.join(map(str, sh))}"
                                                          for k, s, sh in CASES])
def test_python_and_numba_carve_the_same_maze(kind, spec, shape):
    with kernels.forced("python"):
        python = bm.generate(shape, spec, rng=11, kind=kind)
    with kernels.forced("numba"):
        compiled = bm.generate(shape, spec, rng=11, kind=kind)
    assert np.array_equal(python.links, compiled.links)
    assert python.is_perfect()


def test_threshold_separates_the_two_shapes():
    small, large = around_threshold("square")
    assert bm.make_grid(small).neighbors.size <= kernels.SMALL_JOB < bm.make_grid(large).neighbors.size


def test_a_small_maze_never_imports_numba():
    """``blockmaze generate 10x10`` (and its schematic) runs without loading numba at all."""
    code = ("import sys, io; from blockmaze.cli import main; "
            "assert main(['generate', '10x10', '--seed', '1']) == 0; "
            "assert main(['generate', '10x10', '--seed', '1', '-o', sys.argv[1]]) == 0; "
            "assert 'numba' not in sys.modules, 'numba was imported'")
    result = subprocess.run([sys.executable, "-c", code, "m.schem"], capture_output=True, text=True,
                            cwd=__import__("tempfile").mkdtemp())
    assert result.returncode == 0, result.stderr


@pytest.mark.slow
@pytest.mark.parametrize("name", ["m.schem", "m.litematic", "m.glb", "m.tmx", "m.png", "w/"])
def test_a_medium_job_never_imports_numba(tmp_path, name):
    """A 100x100 maze, to each output the start-up targets name (and a world): numba's import
    and set-up (about 0.6 s) would cost more than the whole job."""
    target = str(tmp_path / name) + ("/" if name.endswith("/") else "")  # a folder: a world
    code = ("import sys; from blockmaze.cli import main; "
            f"code = main(['-q', 'generate', '100x100', '--seed', '1', '-o', {target!r}]); "
            "assert code == 0, code; print('numba' in sys.modules)")
    env = {k: v for k, v in os.environ.items() if k != "BLOCKMAZE_KERNELS"}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


def test_help_imports_no_writer_numpy_or_numba():
    code = ("import sys; from blockmaze.cli import main; main(['--help']); main(['generate', '--help']); "
            "from blockmaze.export import FORMATS; "
            "writers = {'blockmaze.' + f.module for f in FORMATS.values()} - {'blockmaze.export.pictures'}; "
            "bad = [m for m in sys.modules if m in ('numba', 'numpy') or m in writers]; "
            "assert not bad, bad")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@pytest.mark.slow
@pytest.mark.parametrize("module, use", [
    ("scipy", "import scipy.linalg; assert scipy.linalg.norm([3.0, 4.0]) == 5.0"),
    ("cffi", "assert cffi.FFI().sizeof('int') == 4"),
])
def test_compiling_leaves_unused_modules_unimported_and_importable(module, use):
    """numba's import and compiler set-up would import SciPy (for BLAS no kernel uses) and cffi (with
    its C parser): a compiled kernel loads without them, and they import normally afterwards."""
    pytest.importorskip(module)
    code = ("import sys, numpy as np; from blockmaze.support import kernels; from blockmaze.analysis import bfs; "
            "kernels._forced = 'numba'; "
            "d, _ = bfs(np.array([[1], [-1]], np.int32), np.array([[True], [False]]), 0); "
            "assert d.tolist() == [0, 1]; assert 'numba' in sys.modules; "
            f"assert {module!r} not in sys.modules, '{module} was imported'; "
            f"import {module}; {use}")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def _total(values):
    s = 0
    for v in values:
        s += v
    return s


def test_each_kernel_has_its_own_small_job_size():
    small = kernels.kernel(cache=False, small=10)(_total)
    assert small(np.arange(10)) == 45 and small._compiled is None  # at the size: Python
    assert small(np.arange(11)) == 55 and small._compiled is not None  # above it: compiled


def test_a_kernel_called_by_one_running_as_python_runs_as_python(monkeypatch):
    inner = kernels.kernel(cache=False, small=0)(_total)  # alone, it would always compile
    monkeypatch.setitem(globals(), "_inner_total", inner)
    outer = kernels.kernel(cache=False)(_calls_inner)
    assert outer(np.arange(100)) == 4950
    assert inner._compiled is None


def _mark_chosen(chosen, out):
    count = 0
    made = np.zeros(chosen.shape[0], dtype=np.int64)
    for i in range(chosen.shape[0]):
        if chosen[i]:
            made[i] = i
            out[i] = 2 * i
            count += 1
    return made, count


@pytest.mark.parametrize("mode", ["python", "numba"])
def test_a_views_kernel_writes_the_callers_arrays_and_returns_arrays(mode):
    """``views``: as Python the kernel runs on memoryviews; the caller sees numpy arrays."""
    marked = kernels.kernel(cache=False, views=True)(_mark_chosen)
    out = np.zeros(3, np.int32)
    with kernels.forced(mode):
        made, count = marked(np.array([True, False, True]), out)
    assert isinstance(made, np.ndarray) and made.dtype == np.int64
    assert (made.tolist(), count, out.tolist()) == ([0, 0, 2], 2, [0, 0, 4])


def test_a_stop_during_a_compile_is_raised_once_the_compile_is_over(monkeypatch):
    """numba's compiler is never cut through by KeyboardInterrupt (freeing llvmlite's half-built
    objects can crash the process): the signal waits, and is raised as the compile ends."""
    finished = []

    def interrupted_compile(function, options):
        signal.raise_signal(signal.SIGINT)  # its handler has run when this returns: noted
        finished.append(function.__name__)
        return function

    monkeypatch.setattr(kernels, "_jit", interrupted_compile)
    monkeypatch.setattr(kernels, "_forced", None)
    # Ctrl-C as Python sets it up in a foreground process (a shell starts a background job with
    # SIGINT ignored, and an ignored signal rightly raises nothing)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        total = kernels.kernel(cache=False, small=0)(_total)
        with pytest.raises(KeyboardInterrupt):
            total(np.arange(5))
        assert finished == ["_total"]
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, previous)


def _calls_inner(values):
    return _inner_total(values)  # noqa: F821 (set by the test)


def replay(grid, order) -> np.ndarray:
    """The links a carve record opens, passage by passage in its order."""
    links = np.zeros((grid.size, grid.degree), bool)
    for cell, d in order[order[:, 0] >= 0]:
        assert not links[cell, d], "a passage is recorded twice"
        links[cell, d] = links[grid.neighbors[cell, d], grid.opposite[d]] = True
    return links


RECORD_CASES = [(kind, spec, shape) for kind, spec, shape in CASES]


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["python", "numba"])
@pytest.mark.parametrize("kind, spec, shape", RECORD_CASES,
                         ids=[f"{k}-{s}-{'x'.join(map(str, sh))}" for k, s, sh in RECORD_CASES])
def test_replaying_the_carve_record_rebuilds_the_maze(kind, spec, shape, mode):
    from blockmaze.algorithms.common import carve_order

    grid = bm.make_grid(shape, kind)
    order = carve_order(grid, True)
    with kernels.forced(mode):
        recorded = bm.generate(grid, spec, rng=5, order=order)
        plain = bm.generate(grid, spec, rng=5)
    assert np.array_equal(recorded.links, plain.links)  # recording changes nothing
    assert np.array_equal(replay(grid, order), recorded.links)
    assert (order[:, 0] >= 0).sum() == recorded.links.sum() // 2
