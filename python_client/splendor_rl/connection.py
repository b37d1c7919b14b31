"""The transport: one WebSocket to the server, requests {id, op, ...} and replies in order (PROTOCOL.md §2).

It drives websockets' protocol implementation (handshake, framing, pings) directly on a blocking socket in the
calling thread: handing every reply across threads, as a background reader does, cost about 30 µs of each round
trip. Between calls (a training update can take minutes) a watcher thread answers the server's pings every
quarter second, so that an idle client is not taken for a dead one."""

from __future__ import annotations

import select
import socket
import ssl
import threading
import time
from collections import deque
from typing import Any

from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.protocol import State
from websockets.uri import parse_uri

from .codec import pack, unpack
from .errors import ProtocolError, from_reply

PROTOCOL_VERSION = 1

# Bytes read per system call: a 1024-env reply is about 0.5 MiB.
READ_SIZE = 1 << 20

# How often an idle connection answers pings: well within the server's ping interval (30 s by default).
PING_CHECK_SECONDS = 0.25


class Connection:
    """A connection to a server. `send` and `recv` may be interleaved to pipeline requests: replies come back in
    request order, each matched to its request id. Server errors are raised as `SplendorError` subclasses by the
    `recv` that reads them; the connection stays usable. `timeout` bounds the wait for each reply."""

    def __init__(self, url: str, token: str | None = None, timeout: float = 60.0):
        self.url = url
        self.timeout = timeout
        uri = parse_uri(url)
        sock = socket.create_connection((uri.host, uri.port), timeout=timeout)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if uri.secure:
            sock = ssl.create_default_context().wrap_socket(sock, server_hostname=uri.host)
        self._sock = sock
        self._ws = ClientProtocol(uri, max_size=None)
        self._messages: deque[bytes] = deque()
        self._partial: list[bytes] = []
        self._next_id = 0
        self._in_flight: deque[int] = deque()
        self._lock = threading.Lock()  # the protocol and socket: the caller's, or the watcher's between calls
        self._closed = False
        self._handshake()
        threading.Thread(target=self._answer_pings, daemon=True).start()
        self.hello = self.call("hello", token=token)
        if self.hello.get("protocol") != PROTOCOL_VERSION:
            self.close()
            raise ProtocolError(f"server speaks protocol {self.hello.get('protocol')}, this client {PROTOCOL_VERSION}")

    def _handshake(self) -> None:
        self._ws.send_request(self._ws.connect())
        self._flush()
        while True:
            for event in self._ws.events_received():
                if isinstance(event, Response):
                    if self._ws.handshake_exc is not None:
                        self._sock.close()
                        raise self._ws.handshake_exc
                    return
            self._read()

    def send(self, op: str, **fields: Any) -> int:
        """Send a request without waiting for its reply; returns its id. Fields that are None are left out."""
        message = {"id": self._next_id + 1, "op": op}
        message.update((k, v) for k, v in fields.items() if v is not None)
        frame = pack(message)
        with self._lock:
            self._next_id += 1
            self._ws.send_binary(frame)
            self._flush()
            self._in_flight.append(self._next_id)
        return self._next_id

    def recv(self) -> dict:
        """Read the reply to the oldest request in flight."""
        if not self._in_flight:
            raise ProtocolError("recv with no request in flight")
        with self._lock:
            frame = self._message()
            expected = self._in_flight.popleft()
        reply = unpack(frame)
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

    def _message(self) -> bytes:
        """The next whole binary message; pings are answered on the way (by the protocol object)."""
        while not self._messages:
            for event in self._ws.events_received():
                self._take(event)
            self._flush()
            if not self._messages:
                self._read()
        return self._messages.popleft()

    def _take(self, frame: Frame) -> None:
        if frame.opcode is Opcode.TEXT:
            raise ProtocolError("the server sent a text message")
        if frame.opcode in (Opcode.BINARY, Opcode.CONT):
            self._partial.append(frame.data)
            if frame.fin:
                self._messages.append(b"".join(self._partial) if len(self._partial) > 1 else self._partial[0])
                self._partial = []

    def _read(self) -> None:
        try:
            data = self._sock.recv(READ_SIZE)
        except socket.timeout:
            raise TimeoutError(f"no reply from {self.url} within {self.timeout}s") from None
        if not data:
            self._ws.receive_eof()
            raise self._ws.close_exc
        self._ws.receive_data(data)

    def _answer_pings(self) -> None:
        """Between calls, read what the server sent (pings, whose pongs the protocol queues) and flush."""
        while True:
            time.sleep(PING_CHECK_SECONDS)
            with self._lock:
                if self._closed:
                    return
                try:
                    while select.select([self._sock], [], [], 0)[0]:
                        self._read()
                        for event in self._ws.events_received():
                            self._take(event)
                        self._flush()
                except Exception:  # the connection ended; the caller's next call reports how
                    return

    def _flush(self) -> None:
        for data in self._ws.data_to_send():
            if data:
                self._sock.sendall(data)

    def close(self) -> None:
        """Close the WebSocket (the server frees this connection's batches) and the socket."""
        with self._lock:
            self._closed = True
            try:
                if self._ws.state is State.OPEN:
                    self._ws.send_close()
                    self._flush()
            except OSError:
                pass
            finally:
                self._sock.close()

    def __enter__(self) -> "Connection":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
