"""The studio's HTTP connections: uvicorn's h11 protocol with time limits on a request's head
and body and a cap on open connections (all of them, and each client's), so slow or idle
clients cannot hold the server's file handles or starve its page.

uvicorn closes a connection idle between requests (its keep-alive timeout), but a client that
sends a request's head or body a byte at a time is waited for without end, and every connection
it opens holds a file handle until the process has none left. Here:

- a connection must send a whole head within ``head_seconds`` of opening (or of its last
  answer) and a whole body within ``body_seconds`` of its head, or it is closed;
- at most ``most`` connections are open at once, and at most ``per_client`` from one address;
  a connection past either cap takes the place of the one that has waited longest on its client
  (no whole request sent yet), so a prompt request (the page's) is always taken in. Only when
  every connection is busy with a request of its own is the newcomer closed.

Example
-------
>>> protocol = timed_protocol(head_seconds=5, body_seconds=20, most=64, per_client=32)
>>> protocol.head_seconds, protocol.body_seconds, protocol.most, protocol.per_client
(5, 20, 64, 32)
"""

from __future__ import annotations

import asyncio

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

# the client's side of a connection while the server waits on it: no request yet, or its body
_ON_CLIENT = (h11.IDLE, h11.SEND_BODY)


class TimedHeads(H11Protocol):
    """An h11 connection closed when a request's head (or body) is not in within its time, and
    let in past the caps by closing the connection that has waited longest on its client."""

    head_seconds: float = 10.0
    body_seconds: float = 20.0
    most: int = 256
    per_client: int = 128
    _timer: asyncio.TimerHandle | None = None
    _waiting_since = 0.0
    _body = False  # the body's time is running

    def connection_made(self, transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._waiting_since = self.loop.time()
        address = self.client[0] if self.client else None
        for cap, crowd in ((self.per_client, lambda c: c.client and c.client[0] == address),
                           (self.most, lambda c: True)):
            open_ = [c for c in self.connections if not c.transport.is_closing() and crowd(c)]
            if len(open_) > cap and not _make_room(open_, self):
                transport.close()  # connection_lost takes it out of the server's set
                return
        self._arm(self.head_seconds)

    def handle_events(self) -> None:
        super().handle_events()
        state = self.conn.their_state
        if state is h11.SEND_BODY:
            if not self._body:  # the head is in: the body has its own time
                self._body = True
                self._arm(self.body_seconds)
        elif state is not h11.IDLE:
            self._disarm()  # a whole request: the server's turn

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._waiting_since = self.loop.time()
        self._arm(self.head_seconds)  # the next request's head has its own time

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def waiting_on_client(self) -> bool:
        """Whether this connection waits for its client to send a request (or the rest of one)."""
        return self.conn.their_state in _ON_CLIENT and not self.transport.is_closing()

    def _arm(self, seconds: float) -> None:
        self._disarm()
        if self.conn.their_state is h11.IDLE:
            self._body = False
        if not self.transport.is_closing():
            self._timer = self.loop.call_later(seconds, self._overdue)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _overdue(self) -> None:
        self._timer = None
        idle = self.cycle is None or self.cycle.response_complete
        if self.waiting_on_client() and (idle or self.conn.their_state is h11.SEND_BODY):
            self.transport.close()


def _make_room(crowd: list, newcomer: TimedHeads) -> bool:
    """Close the connection of ``crowd`` (not ``newcomer``) that has waited longest on its
    client; False when every one is busy with a whole request."""
    waiting = [c for c in crowd if c is not newcomer and isinstance(c, TimedHeads)
               and c.waiting_on_client()]
    if not waiting:
        return False
    oldest = min(waiting, key=lambda c: c._waiting_since)
    oldest._disarm()
    oldest.transport.close()
    return True


def timed_protocol(head_seconds: float, body_seconds: float, most: int,
                   per_client: int) -> type[TimedHeads]:
    """The protocol class uvicorn is given (``http=``), with these bounds."""
    return type("TimedHeads", (TimedHeads,), {
        "head_seconds": head_seconds, "body_seconds": body_seconds, "most": most,
        "per_client": per_client})
