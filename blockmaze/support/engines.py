"""Running one function over many tasks on an existing engine: this process, local processes,
a Dask cluster or Ray. Adapters only, no scheduler of our own: each engine gets the tasks, at
most a few per worker at a time (so the results waiting to be written stay bounded), and they
come back as each finishes, with their task number.

The function and its arguments must pickle by reference (a module-level function, plain
values): a Dask or Ray worker imports the function's module itself. Dask and Ray are optional
(``pip install 'blockmaze[dask]'``, ``'blockmaze[ray]'``) and imported only when chosen.

Example
-------
>>> sorted(run_tasks(pow, [(2, 3), (3, 2)]))
[(0, 8), (1, 9)]
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ..errors import BlockmazeError

ENGINES = ("local", "dask", "ray")
AHEAD = 2  # tasks in flight per worker


def run_tasks(function: Callable, arguments: Sequence[tuple], *, engine: str = "local",
              workers: int = 1, scheduler: str | None = None) -> Iterator[tuple[int, Any]]:
    """``function(*arguments[i])`` for every ``i``, as ``(i, result)`` pairs in the order they
    finish: in this process (``workers=1``, local), in ``workers`` local processes, or as Dask
    tasks (on the cluster at ``scheduler``, else a LocalCluster of ``workers`` processes) or Ray
    tasks (on the running Ray, else one started with ``workers`` CPUs)."""
    if engine not in ENGINES:
        raise BlockmazeError(f"--engine is one of {', '.join(ENGINES)}, got {engine!r}")
    if workers < 1:
        raise BlockmazeError(f"--workers is at least 1, got {workers}")
    if scheduler is not None and engine != "dask":
        raise BlockmazeError("--scheduler is a Dask scheduler's address: give --engine dask")
    if engine != "local" and importlib.util.find_spec(engine) is None:
        raise BlockmazeError(f"--engine {engine} needs {engine}: pip install 'blockmaze[{engine}]'")
    if not arguments:
        return iter(())
    runner = {"local": _local, "dask": _dask, "ray": _ray}[engine]
    return runner(function, list(arguments), workers, scheduler)


def _bounded(submit: Callable[[int], Any], count: int, limit: int,
             wait: Callable[[set], tuple[set, set]], result: Callable[[Any], Any],
             number: dict) -> Iterator[tuple[int, Any]]:
    """Keep at most ``limit`` of ``count`` tasks in flight, yielding each as it finishes."""
    pending: set = set()
    following = 0
    while following < count or pending:
        while following < count and len(pending) < limit:
            future = submit(following)
            number[future] = following
            pending.add(future)
            following += 1
        done, pending = wait(pending)
        for future in done:
            yield number.pop(future), result(future)


def _local(function, arguments, workers, scheduler):
    if workers == 1:
        for index, args in enumerate(arguments):
            yield index, function(*args)
        return
    import concurrent.futures as futures
    import multiprocessing

    # forked (spawn would import the caller's main module again, a script without its
    # __name__ guard included); each worker starts as _worker_start says
    context = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
    with futures.ProcessPoolExecutor(workers, mp_context=context,
                                     initializer=_worker_start) as pool:
        def wait(pending):
            return futures.wait(pending, return_when=futures.FIRST_COMPLETED)

        try:
            yield from _bounded(lambda i: pool.submit(function, *arguments[i]), len(arguments),
                                AHEAD * workers, wait, lambda f: f.result(), {})
        except BaseException:  # a stop or a failed task: the workers end with it
            for process in list(getattr(pool, "_processes", {}).values()):
                process.terminate()
            pool.shutdown(wait=False, cancel_futures=True)
            raise


def _worker_start() -> None:
    """A local worker's first act: no progress line of its own (the parent shows it; a lock
    held by its drawing thread at the fork is not held here), and Ctrl-C left to the parent,
    which answers it by ending the workers (a Ctrl-C at the terminal reaches every process of
    the group)."""
    import signal

    from . import progress

    progress.forget()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):  # (the command holds stop signals while it starts)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGHUP})
    for number in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, signal.SIG_DFL)


def _dask(function, arguments, workers, scheduler):
    from dask.distributed import Client, LocalCluster, wait as dask_wait

    cluster = None
    if scheduler is None:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
    client = Client(scheduler or cluster)
    try:
        def wait(pending):
            done = dask_wait(list(pending), return_when="FIRST_COMPLETED")
            return set(done.done), set(done.not_done)

        limit = AHEAD * max(workers, len(client.scheduler_info().get("workers", ())) or 1)
        yield from _bounded(lambda i: client.submit(function, *arguments[i], pure=False),
                            len(arguments), limit, wait, lambda f: f.result(), {})
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _ray(function, arguments, workers, scheduler):
    import ray

    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False,
                 configure_logging=False)
    try:
        task = ray.remote(function)

        def wait(pending):
            done, rest = ray.wait(list(pending), num_returns=1)
            return set(done), set(rest)

        yield from _bounded(lambda i: task.remote(*arguments[i]), len(arguments),
                            AHEAD * workers, wait, ray.get, {})
    finally:
        if started:
            ray.shutdown()
