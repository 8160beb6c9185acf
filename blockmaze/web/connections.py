"""The studio's HTTP connections: uvicorn's h11 protocol with a time limit on a request's head
and a cap on open connections, so slow or idle clients cannot hold the server's file handles.

uvicorn closes a connection idle between requests (its keep-alive timeout) and the studio bounds
a body's stalls (:func:`blockmaze.web.app.read_body`), but a client that sends a request's head
a byte at a time is waited for without end. Here a connection must send a whole head within
``head_seconds`` of opening, or of its last answer, and at most ``most`` connections are open
at once (more are closed as they arrive, before any byte is read).

Example
-------
>>> protocol = timed_protocol(head_seconds=5, most=64)
>>> protocol.head_seconds, protocol.most
(5, 64)
"""

from __future__ import annotations

import asyncio

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol


class TimedHeads(H11Protocol):
    """An h11 connection closed when a request's head is not in within ``head_seconds``."""

    head_seconds: float = 10.0
    most: int = 256
    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.most:
            transport.close()  # connection_lost takes it out of the server's set
            return
        self._arm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._arm()  # the next request's head has its own time

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        if not self.transport.is_closing():
            self._head_timer = self.loop.call_later(self.head_seconds, self._head_overdue)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_overdue(self) -> None:
        self._head_timer = None
        waiting = self.conn.their_state is h11.IDLE and (self.cycle is None or self.cycle.response_complete)
        if waiting and not self.transport.is_closing():
            self.transport.close()


def timed_protocol(head_seconds: float, most: int) -> type[TimedHeads]:
    """The protocol class uvicorn is given (``http=``), with these bounds."""
    return type("TimedHeads", (TimedHeads,), {"head_seconds": head_seconds, "most": most})
