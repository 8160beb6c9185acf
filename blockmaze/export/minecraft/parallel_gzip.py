"""A gzip stream deflated in fixed blocks on worker threads: the same bytes for any thread count.

The data written is cut into blocks of :data:`BLOCK` bytes (whatever the sizes of the writes).
Each block is deflated on its own, primed with the 32 KiB before it (so it compresses almost as
well as one stream), and ends on a byte boundary (a sync flush); an empty final block closes the
stream. zlib releases the GIL while it deflates, so blocks compress on several cores at once;
since every block's bytes depend only on the data, the file is the same for 0 (all in the
calling thread), 1 or N threads. The CRC is taken in order in the calling thread.

Example
-------
>>> import gzip, io
>>> out = io.BytesIO()
>>> with ParallelGzip(out, threads=2, block=1 << 16) as stream:
...     _ = stream.write(b"maze " * 50_000)
>>> gzip.decompress(out.getvalue()) == b"maze " * 50_000
True
"""

from __future__ import annotations

import os
import struct
import zlib
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from typing import BinaryIO

BLOCK = 1 << 20  # bytes of data a block: large enough that the per-block flush costs nothing
WINDOW = 1 << 15  # deflate's window: each block is primed with this much of the data before it
# Threads that deflate blocks; the calling thread meanwhile prepares the next data (0: deflate
# in the calling thread).
THREADS = min(4, os.cpu_count() or 1)
# mtime 0, no name, OS "unknown" (255), as Python's gzip module writes with mtime=0
_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"


def _deflate_block(data: bytes, primer: bytes, level: int) -> bytes:
    """Raw deflate of ``data`` primed with ``primer``, ended by a sync flush (not final)."""
    if primer:
        compressor = zlib.compressobj(level, zlib.DEFLATED, -15, zdict=primer)
    else:
        compressor = zlib.compressobj(level, zlib.DEFLATED, -15)
    return compressor.compress(data) + compressor.flush(zlib.Z_SYNC_FLUSH)


class ParallelGzip:
    """A writable binary stream: gzip of what is written, into ``file``, deflated in blocks.

    ``write`` takes bytes or any buffer; ``close`` (or leaving the ``with``) finishes the gzip
    member but leaves ``file`` open. At most ``2 * threads`` blocks are in flight.
    """

    def __init__(self, file: BinaryIO, level: int = 4, threads: int | None = None,
                 block: int | None = None):
        self.file, self.level = file, level
        self.block = BLOCK if block is None else block
        self.threads = THREADS if threads is None else threads
        self._pool = ThreadPoolExecutor(self.threads) if self.threads else None
        self._pending: deque = deque()
        self._buffer = bytearray()
        self._primer = b""
        self._crc = 0
        self._size = 0
        self._closed = False
        file.write(_HEADER)

    def write(self, data) -> int:
        view = memoryview(data).cast("B")
        written = view.nbytes
        if self._buffer:  # fill the block begun by earlier writes first
            room = self.block - len(self._buffer)
            self._buffer += view[:room]
            view = view[room:]
            if len(self._buffer) < self.block:
                return written
            self._submit(bytes(self._buffer))
            self._buffer.clear()
        whole = view.nbytes - view.nbytes % self.block
        for at in range(0, whole, self.block):  # whole blocks straight from the data: one copy
            self._submit(bytes(view[at:at + self.block]))
        self._buffer += view[whole:]
        return written

    def _submit(self, data: bytes) -> None:
        self._crc = zlib.crc32(data, self._crc)
        self._size += len(data)
        primer, self._primer = self._primer, data[-WINDOW:]
        if self._pool is None:
            self.file.write(_deflate_block(data, primer, self.level))
            return
        self._pending.append(self._pool.submit(_deflate_block, data, primer, self.level))
        while len(self._pending) > 2 * self.threads:
            self.file.write(self._pending.popleft().result())

    def close(self) -> None:
        """Deflate what is left, write the final block and the trailer (CRC and size)."""
        if self._closed:
            return
        self._closed = True
        try:
            if self._buffer:
                self._submit(bytes(self._buffer))
                self._buffer.clear()
            while self._pending:
                self.file.write(self._pending.popleft().result())
            self.file.write(b"\x03\x00")  # an empty final block, fixed codes
            self.file.write(struct.pack("<II", self._crc, self._size & 0xFFFFFFFF))
        finally:
            self._shutdown()

    def _shutdown(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)

    def __enter__(self) -> ParallelGzip:
        return self

    def __exit__(self, kind, value, traceback) -> None:
        if kind is None:
            self.close()
        else:  # failed: stop the workers, write no trailer (the file is discarded)
            self._closed = True
            self._shutdown()
