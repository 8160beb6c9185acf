"""The studio's jobs, each in a process of its own: a job can be stopped (its client gone, its
time up, the server stopping) without harm to the server, and its temporary folder goes with it.

At most ``count`` jobs run at once and ``queue`` more wait; a request past that is answered 503
at once, so the server's page never waits behind work. Processes come from a fork server that
has the library loaded already, so a job starts in milliseconds.

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
import multiprocessing
import shutil
import signal
import tempfile
import time

from ..errors import BadFileError, BlockmazeError
from .jobs import RequestError

_CONTEXT = None


def _context():
    """The fork server's context, started on first use with the library's job code loaded."""
    global _CONTEXT
    if _CONTEXT is None:
        _CONTEXT = multiprocessing.get_context("forkserver")
        _CONTEXT.set_forkserver_preload(["blockmaze.web.jobs", "blockmaze.jobs", "numpy"])
    return _CONTEXT


def _double(number: int, folder: str) -> int:
    """A task for the example: twice ``number``."""
    return 2 * number


def _work(task: tuple, folder: str, out) -> None:
    """In the worker process: run ``task`` (a function and its arguments, given the job's
    folder last) and send back ``("ok", value)`` or ``(status, one-line message)``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to answer
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
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


class Workers:
    """Run tasks in worker processes: ``count`` at once, ``queue`` waiting, ``seconds`` each."""

    def __init__(self, count: int, queue: int, seconds: float):
        self.count, self.queue, self.seconds = count, queue, seconds
        self.running: set = set()
        self.waiting = 0
        self._slots: asyncio.Semaphore | None = None

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
                if await gone():
                    raise RequestError("the client went away", 499)
                return await self._run(task, gone)
        finally:
            self.waiting -= 1

    async def _run(self, task: tuple, gone):
        context = _context()
        folder = tempfile.mkdtemp(prefix="blockmaze-studio-")
        receive, send = context.Pipe(duplex=False)
        process = context.Process(target=_work, args=(task, folder, send), daemon=True)
        try:
            process.start()
            send.close()
            self.running.add(process)
            deadline = time.monotonic() + self.seconds
            while not receive.poll():
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
        except EOFError:
            raise RequestError("the job stopped before it finished; choose a smaller size",
                               500) from None
        finally:
            if process.is_alive():
                process.kill()
            if process.pid is not None:
                process.join()
            self.running.discard(process)
            receive.close()
            shutil.rmtree(folder, ignore_errors=True)
        if status != "ok":
            raise RequestError(value, status)
        return value

    def close(self) -> None:
        """Stop every running job (the server is stopping); their folders are removed by the
        requests that started them."""
        for process in list(self.running):
            if process.is_alive():
                process.kill()
