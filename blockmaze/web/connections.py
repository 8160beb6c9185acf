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
  (no whole request sent yet, and no bytes waiting to be read: a request just sent is read
  first), so a prompt request (the page's) is always taken in. When every one looked at has
  bytes waiting (a burst of connections accepted at once, none read yet), the longest waiting
  gives way all the same: the newcomer's own request is as likely the page's. Only when every
  connection is busy with a request of its own is the newcomer closed.

Example
-------
>>> protocol = timed_protocol(head_seconds=5, body_seconds=20, most=64, per_client=32)
>>> protocol.head_seconds, protocol.body_seconds, protocol.most, protocol.per_client
(5, 20, 64, 32)
"""

from __future__ import annotations

import asyncio
import itertools
import sys

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

# the client's side of a connection while the server waits on it: no request yet, or its body
_ON_CLIENT = (h11.IDLE, h11.SEND_BODY)


class Crowd:
    """A server's open connections: how many from each address, and those waiting on their
    client, longest waiting first (all of them, and each address's), so a newcomer past a cap
    finds the one to close in a step, however many there are.

    >>> crowd = Crowd()
    >>> crowd.joined("a", "127.0.0.1"); crowd.joined("b", "127.0.0.1")
    >>> crowd.waits("a"); crowd.waits("b"); crowd.count("127.0.0.1"), crowd.longest_waiting()
    (2, 'a')
    >>> crowd.busy("a"); crowd.longest_waiting("127.0.0.1")
    'b'
    """

    def __init__(self):
        self.total = 0
        self.by_address: dict = {}
        self.address_of: dict = {}
        self.waiting: dict = {}  # (insertion order: longest waiting first)
        self.waiting_by: dict = {}

    def joined(self, connection, address) -> None:
        self.total += 1
        self.by_address[address] = self.by_address.get(address, 0) + 1
        self.address_of[connection] = address

    def left(self, connection) -> None:
        if connection not in self.address_of:
            return
        self.busy(connection)
        address = self.address_of.pop(connection)
        self.total -= 1
        self.by_address[address] -= 1
        if not self.by_address[address]:
            del self.by_address[address]

    def count(self, address=None) -> int:
        return self.total if address is None else self.by_address.get(address, 0)

    def waits(self, connection) -> None:
        """``connection`` waits on its client from now (the newest waiting)."""
        self.busy(connection)
        self.waiting[connection] = None
        address = self.address_of.get(connection)
        self.waiting_by.setdefault(address, {})[connection] = None

    def busy(self, connection) -> None:
        """``connection`` has a whole request: the server's turn, not to be closed for room."""
        self.waiting.pop(connection, None)
        mine = self.waiting_by.get(self.address_of.get(connection))
        if mine is not None:
            mine.pop(connection, None)
            if not mine:
                del self.waiting_by[self.address_of.get(connection)]

    def longest_waiting(self, address=None, passed=lambda connection: False, looks: int = 32):
        """The connection (of ``address``, or of any) waiting longest, or None when none waits;
        those that ``passed(connection)`` says to leave are passed over (``looks`` at most are
        looked at), unless every one looked at is: then the longest waiting.

        >>> crowd = Crowd()
        >>> crowd.joined("a", None); crowd.joined("b", None); crowd.waits("a"); crowd.waits("b")
        >>> crowd.longest_waiting(passed=lambda c: c == "a"), crowd.longest_waiting(passed=bool)
        ('b', 'a')
        """
        waiting = self.waiting if address is None else self.waiting_by.get(address, {})
        looked = list(itertools.islice(waiting, looks))
        return next((c for c in looked if not passed(c)), looked[0] if looked else None)


class TimedHeads(H11Protocol):
    """An h11 connection closed when a request's head (or body) is not in within its time, and
    let in past the caps by closing the connection that has waited longest on its client."""

    head_seconds: float = 10.0
    body_seconds: float = 20.0
    most: int = 256
    per_client: int = 128
    crowd: Crowd  # (one for each server: timed_protocol makes it)
    _timer: asyncio.TimerHandle | None = None
    _body = False  # the body's time is running

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        address = self.client[0] if self.client else None
        self.crowd.joined(self, address)
        for cap, among in ((self.per_client, address), (self.most, None)):
            if self.crowd.count(among) > cap and not self._make_room(among):
                self.crowd.left(self)
                transport.close()  # every connection is busy: this one waits for none
                return
        self.crowd.waits(self)
        self._arm(self.head_seconds)

    def _make_room(self, address) -> bool:
        """Close the connection (of ``address``, or any) that has waited longest on its client
        (one whose request may wait unread is passed over where another can go); False when
        none waits."""
        oldest = self.crowd.longest_waiting(address, _unread)
        if oldest is None:
            return False
        oldest._disarm()
        self.crowd.left(oldest)
        oldest.transport.close()
        return True

    def handle_events(self) -> None:
        super().handle_events()
        state = self.conn.their_state
        if state is h11.SEND_BODY:
            if not self._body:  # the head is in: the body has its own time
                self._body = True
                self._arm(self.body_seconds)
        elif state is not h11.IDLE:
            self._disarm()  # a whole request: the server's turn
            self.crowd.busy(self)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state in _ON_CLIENT:
            self.crowd.waits(self)
        self._arm(self.head_seconds)  # the next request's head has its own time

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self.crowd.left(self)
        super().connection_lost(exc)

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
        waiting = self.conn.their_state in _ON_CLIENT and not self.transport.is_closing()
        if waiting and (idle or self.conn.their_state is h11.SEND_BODY):
            self.transport.close()


def _unread(connection: TimedHeads) -> bool:
    """Whether a request's head may wait in ``connection``'s socket, not yet read by the server
    (no request on it yet and bytes from the client unread): it is passed over when room is
    made, where another can go. A body's unread bytes do not count: an upload that trickles is closed like any
    other that waits longest."""
    if connection.conn.their_state is not h11.IDLE:
        return False
    try:
        import fcntl
        import termios

        socket = connection.transport.get_extra_info("socket")
        count = fcntl.ioctl(socket.fileno(), termios.FIONREAD, b"\0\0\0\0")
    except (ImportError, AttributeError, OSError, ValueError):  # (no way to tell)
        return False
    return int.from_bytes(count, sys.byteorder) > 0


def timed_protocol(head_seconds: float, body_seconds: float, most: int,
                   per_client: int) -> type[TimedHeads]:
    """The protocol class uvicorn is given (``http=``), with these bounds and a crowd of its
    own."""
    return type("TimedHeads", (TimedHeads,), {
        "head_seconds": head_seconds, "body_seconds": body_seconds, "most": most,
        "per_client": per_client, "crowd": Crowd()})
