"""The studio's jobs, each in a process of its own: a job can be stopped (its client gone, its
time up, the server stopping) without harm to the server, and its temporary folder goes with it.

At most ``count`` jobs run at once and ``queue`` more wait; a request past that is answered 503
at once, so the server's page never waits behind work. Processes come from a fork server that
has the library loaded already, so a job starts in milliseconds. The fork server is started
without the current folder on its module path (a folder there named ``blockmaze``, a clone's,
would hide the installed package), and its jobs ignore Ctrl-C from their first instant (the
server answers it). A job ends with the server: when it is stopped (:meth:`Workers.close`) or
when it dies (the job sees its pipe to the server close). Every job's folder is in one folder
of the server's, removed when it stops.

Example
-------
>>> import asyncio
>>> async def never_gone():
...     return False
>>> asyncio.run(Workers(1, 1, 30).run((_double, 21), never_gone))
42
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import shutil
import signal
import sys
import tempfile
import threading
import time

from ..errors import BadFileError, BlockmazeError
from .jobs import RequestError

_CONTEXT = None


def _context():
    """The fork server's context, started on first use with the library's job code loaded."""
    global _CONTEXT
    if _CONTEXT is None:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["blockmaze.web.forkserved", "blockmaze.web.jobs",
                                        "blockmaze.jobs", "numpy"])
        _start_fork_server()
        _CONTEXT = context
    return _CONTEXT


def _start_fork_server() -> None:
    """Start the fork server without the current folder on its module path: it runs ``python
    -c``, which puts the current folder first, and a folder there named ``blockmaze`` (the
    clone's, run from the folder that holds it) would be imported in place of the package."""
    from multiprocessing import forkserver

    before = os.environ.get("PYTHONSAFEPATH")
    os.environ["PYTHONSAFEPATH"] = "1"  # Python 3.11 and later: no current folder on the path
    os.environ["BLOCKMAZE_FORK_SERVER"] = "1"  # (for .forkserved)
    try:
        if sys.version_info >= (3, 11):
            forkserver.ensure_running()
        else:  # (older ones: started in the folder holding this package, whose blockmaze is it)
            cwd = os.getcwd()
            os.chdir(os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
            try:
                forkserver.ensure_running()
            finally:
                os.chdir(cwd)
    finally:
        del os.environ["BLOCKMAZE_FORK_SERVER"]
        if before is None:
            del os.environ["PYTHONSAFEPATH"]
        else:
            os.environ["PYTHONSAFEPATH"] = before


def _double(number: int, folder: str) -> int:
    """A task for the example: twice ``number``."""
    return 2 * number


def _work(task: tuple, folder: str, out, server) -> None:
    """In the worker process: run ``task`` (a function and its arguments, given the job's
    folder last) and send back ``("ok", value)`` or ``(status, one-line message)``; end at once
    when the pipe ``server`` closes (the server has gone)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to answer
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
    threading.Thread(target=_end_with, args=(server,), daemon=True).start()
    function, *arguments = task
    try:
        answer: tuple = ("ok", function(*arguments, folder))
    except RequestError as error:
        answer = (error.status, str(error))
    except MemoryError:
        answer = (413, "not enough memory for a maze this large; choose a smaller size")
    except (BadFileError, BlockmazeError) as error:
        answer = (400, str(error))
    except RecursionError:
        answer = (400, "the input is nested too deeply")
    except Exception as error:  # a bug: one line, never a traceback in the page
        answer = (500, f"internal error ({type(error).__name__}); please report it with the "
                       f"options used")
    if answer[0] != "ok":  # the server's folders are not the client's business
        answer = (answer[0], " ".join(answer[1].replace(folder + "/", "").replace(folder, "")
                                      .split()))
    out.send(answer)
    out.close()


def _end_with(server) -> None:
    """(A thread of the job) End the job when ``server``, a pipe the server never writes to,
    closes: the server has ended, and nobody waits for this job's answer."""
    try:
        server.recv()
    except (EOFError, OSError):
        pass
    os._exit(1)


class Workers:
    """Run tasks in worker processes: ``count`` at once, ``queue`` waiting, ``seconds`` each."""

    def __init__(self, count: int, queue: int, seconds: float):
        self.count, self.queue, self.seconds = count, queue, seconds
        self.running: set = set()
        self.waiting = 0
        self.closed = False
        self._slots: asyncio.Semaphore | None = None
        self._root: str | None = None  # the jobs' folders are in it

    async def run(self, task: tuple, gone):
        """The value of ``task`` run in a worker, or RequestError (its status and line); the
        worker is stopped when ``await gone()`` says the client left or the time is up."""
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.count)
        if self.waiting >= self.count + self.queue:
            raise RequestError(f"the studio is busy ({self.count} jobs running, {self.queue} "
                               "waiting); try again in a moment", 503)
        self.waiting += 1
        try:
            async with self._slots:
                if self.closed:
                    raise RequestError(STOPPING, 503)
                if await gone():
                    raise RequestError("the client went away", 499)
                return await self._run(task, gone)
        finally:
            self.waiting -= 1

    async def _run(self, task: tuple, gone):
        context = _context()
        if self._root is None:
            self._root = tempfile.mkdtemp(prefix="blockmaze-studio-")
        folder = tempfile.mkdtemp(prefix="job-", dir=self._root)
        receive, send = context.Pipe(duplex=False)
        server, kept = context.Pipe(duplex=False)  # kept open here while the job runs
        process = context.Process(target=_work, args=(task, folder, send, server), daemon=True)
        try:
            process.start()
            send.close()
            server.close()
            self.running.add(process)
            deadline = time.monotonic() + self.seconds
            while not receive.poll():
                if self.closed:
                    raise RequestError(STOPPING, 503)
                if not process.is_alive() and not receive.poll():
                    raise RequestError("the job stopped before it finished (out of memory?); "
                                       "choose a smaller size", 500)
                if time.monotonic() > deadline:
                    raise RequestError(f"the job took more than {self.seconds:g} seconds, this "
                                       "studio's limit; choose a smaller size", 504)
                if await gone():
                    raise RequestError("the client went away", 499)
                await asyncio.sleep(0.02)
            status, value = receive.recv()
        except (EOFError, OSError):
            if self.closed:
                raise RequestError(STOPPING, 503) from None
            raise RequestError("the job stopped before it finished; choose a smaller size",
                               500) from None
        finally:
            if process.is_alive():
                process.kill()
            if process.pid is not None:
                process.join()
            self.running.discard(process)
            receive.close()
            kept.close()
            shutil.rmtree(folder, ignore_errors=True)
            if not self.running and self._root is not None:  # (no folder left for a moment)
                shutil.rmtree(self._root, ignore_errors=True)
                self._root = None
        if status != "ok":
            raise RequestError(value, status)
        return value

    def close(self) -> None:
        """Stop every running job and refuse new ones (the server is stopping), and remove the
        jobs' folders. Safe to call from a signal handler, and more than once."""
        self.closed = True
        processes = list(self.running)
        for process in processes:
            with contextlib.suppress(OSError, ValueError, AttributeError):
                process.kill()
        for process in processes:
            with contextlib.suppress(OSError, ValueError, AttributeError, AssertionError):
                process.join(1)
        if self._root is not None:
            shutil.rmtree(self._root, ignore_errors=True)
            self._root = None


STOPPING = "the studio is stopping"
