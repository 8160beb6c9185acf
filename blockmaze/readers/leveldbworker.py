"""The worker process that holds Mojang's LevelDB while ``info`` reads a Bedrock world: run as a
script (``python -I -S leveldbworker.py FOLDER SITE BYTES SECONDS``), it imports nothing of
blockmaze, only ``leveldb`` from SITE, opens the database in FOLDER (one that
:mod:`.leveldbcage` filled and checked) and writes every record to its standard output as a
frame: ``<II`` key and value lengths, then the key and the value. The last frame has key length
:data:`END` (done) or :data:`FAILED` (the value is LevelDB's message, UTF-8).

LevelDB's calls hold the interpreter while they run, so a process of their own is what lets the
reader answer a stop or its time bound at once: the reader ends this process. Bounded on its
own too, should the reader be gone: its CPU time and wall time (an alarm) end it two seconds
after SECONDS, a file it writes may not grow past BYTES, its memory past twice BYTES and 512 MiB,
and a broken pipe (the reader ended) ends it at its next write.

Example (a folder that holds no database)::

    $ python -I -S leveldbworker.py /tmp/empty /usr/lib/python3/dist-packages 1000 5 | od -c
    (one FAILED frame: LevelDB's "does not exist" message)
"""

import os
import resource
import signal
import struct
import sys

END, FAILED = 0xFFFFFFFF, 0xFFFFFFFE
FRAME = struct.Struct("<II")


def main(argv: list) -> int:
    folder, site, budget, seconds = argv[1], argv[2], int(argv[3]), float(argv[4])
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # the reader gone: end at the next write
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    signal.alarm(int(seconds) + 2)
    limit = int(seconds) + 2
    _limit(resource.RLIMIT_CPU, limit)
    _limit(resource.RLIMIT_FSIZE, budget + (1 << 20))  # LevelDB rewrites what it replays
    _limit(resource.RLIMIT_AS, 2 * budget + (512 << 20))  # a table block inflating without end
    sys.path.insert(0, site)
    out = os.fdopen(1, "wb", buffering=1 << 20)
    try:
        from leveldb import LevelDB

        db = LevelDB(folder)
    except Exception as error:  # LevelDB's own exception type, or an import that failed
        _failed(out, f"{type(error).__name__}: {error}")
        return 0
    try:
        for key, value in db.iterate():  # (the reader counts the bytes, and ends this process)
            out.write(FRAME.pack(len(key), len(value)))
            out.write(key)
            out.write(value)
    except Exception as error:  # a damaged table found while iterating
        _failed(out, f"{type(error).__name__}: {error}")
        return 0
    out.write(FRAME.pack(END, 0))
    out.flush()
    return 0


def _limit(which: int, value: int) -> None:
    """Lower a resource limit to ``value`` (never above the limit it has)."""
    soft, hard = resource.getrlimit(which)
    value = value if hard == resource.RLIM_INFINITY else min(value, hard)
    if soft == resource.RLIM_INFINITY or value < soft:
        resource.setrlimit(which, (value, hard))


def _failed(out, message: str) -> None:
    data = message.encode("utf-8", "replace")[:4096]
    out.write(FRAME.pack(FAILED, len(data)) + data)
    out.flush()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
