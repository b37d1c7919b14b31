"""The transport: one WebSocket to the server, requests {id, op, ...} and replies in order (PROTOCOL.md §2)."""

from __future__ import annotations

from collections import deque
from typing import Any

from websockets.sync.client import connect

from .codec import pack, unpack
from .errors import ProtocolError, from_reply

PROTOCOL_VERSION = 1


class Connection:
    """A connection to a server. `send` and `recv` may be interleaved to pipeline requests: replies come back in
    request order, each matched to its request id. Server errors are raised as `SplendorError` subclasses by the
    `recv` that reads them; the connection stays usable."""

    def __init__(self, url: str, token: str | None = None, timeout: float = 60.0):
        self.url = url
        self.timeout = timeout
        # Replies of large batches are megabytes: no size limit, no compression (the data is raw tensors).
        # Entering the context is how every websockets version from 13 on hands out the open connection.
        # No client pings: the server pings every connection, and a client busy training (or a loaded machine)
        # must not be dropped for answering a keepalive late; `timeout` still bounds every reply.
        self._ws = connect(url, max_size=None, compression=None, open_timeout=timeout,
                           ping_interval=None).__enter__()
        # Read big replies in few system calls (websockets' default is 64 KiB a call).
        self._ws.recv_bufsize = 1 << 20
        self._next_id = 0
        self._in_flight: deque[int] = deque()
        self.hello = self.call("hello", token=token)
        if self.hello.get("protocol") != PROTOCOL_VERSION:
            self.close()
            raise ProtocolError(f"server speaks protocol {self.hello.get('protocol')}, this client {PROTOCOL_VERSION}")

    def send(self, op: str, **fields: Any) -> int:
        """Send a request without waiting for its reply; returns its id. Fields that are None are left out."""
        self._next_id += 1
        message = {"id": self._next_id, "op": op}
        message.update((k, v) for k, v in fields.items() if v is not None)
        self._ws.send(pack(message))
        self._in_flight.append(self._next_id)
        return self._next_id

    def recv(self) -> dict:
        """Read the reply to the oldest request in flight."""
        if not self._in_flight:
            raise ProtocolError("recv with no request in flight")
        reply = unpack(self._ws.recv(timeout=self.timeout))
        expected = self._in_flight.popleft()
        if reply.get("id") != expected:
            raise ProtocolError(f"reply id {reply.get('id')} where {expected} was expected")
        if "error" in reply:
            raise from_reply(reply["error"])
        return reply

    def call(self, op: str, **fields: Any) -> dict:
        self.send(op, **fields)
        return self.recv()

    @property
    def in_flight(self) -> int:
        return len(self._in_flight)

    def close(self) -> None:
        self._ws.close()

    def __enter__(self) -> "Connection":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
