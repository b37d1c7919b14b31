"""The transport: one WebSocket to the server, requests {id, op, ...} and replies in order (PROTOCOL.md §2).

It drives websockets' protocol implementation (handshake, sending, control frames) directly on a blocking socket
in the calling thread: handing every reply across threads, as a background reader does, cost about 30 µs of each
round trip. Data frames, the replies, are read here instead: each payload goes from the socket straight into one
buffer of its message's size (`recv_into`), where websockets' reader would copy a half-megabyte batch reply
three times on its way. Between calls (a training update can take minutes) a watcher thread answers the server's
pings every quarter second, so that an idle client is not taken for a dead one."""

from __future__ import annotations

import select
import socket
import ssl
import threading
import time
from collections import deque
from typing import Any

from websockets.client import ClientProtocol
from websockets.exceptions import InvalidHandshake, InvalidStatus, InvalidURI
from websockets.http11 import Response
from websockets.protocol import State
from websockets.uri import WebSocketURI, parse_uri

from .codec import pack, unpack
from .errors import BadURL, ConnectionLost, ProtocolError, ServerUnreachable, from_reply

PROTOCOL_VERSION = 1

# Frame opcodes (RFC 6455 §5.2) read here; the rest (ping, pong, close) are handed to websockets.
CONT, TEXT, BINARY = 0x0, 0x1, 0x2

# How often an idle connection answers pings: well within the server's ping interval (30 s by default).
PING_CHECK_SECONDS = 0.25

# How long recv polls for a reply before sleeping, while replies come that quickly (_poll_until_readable).
SPIN_SECONDS = 100e-6

# How long close() waits to send its close frame to a peer that does not read.
CLOSE_SEND_SECONDS = 1.0


def websocket_uri(url: str) -> WebSocketURI:
    """`url` parsed, or refused as a `BadURL` that says what one looks like (websockets' InvalidURI does not)."""
    try:
        return parse_uri(url)
    except InvalidURI:
        raise BadURL(f"{url!r} is not a WebSocket URL: use ws://host:port/ws (wss:// for TLS), e.g. "
                     "ws://127.0.0.1:8765/ws") from None


def wrong_path_hint(uri: WebSocketURI) -> str:
    """What to try when an HTTP server at `uri` refused the WebSocket upgrade: a splendor-server's WebSocket is
    at /ws (its other paths serve the viewer, health and metrics)."""
    scheme = "wss" if uri.secure else "ws"
    return (f"An HTTP server answers there but not with a WebSocket at {uri.resource_name!r}: a splendor-server's "
            f"is at /ws ({scheme}://{uri.host}:{uri.port}/ws)")


class Connection:
    """A connection to a server. `send` and `recv` may be interleaved to pipeline requests: replies come back in
    request order, each matched to its request id. Server errors are raised as `SplendorError` subclasses by the
    `recv` that reads them; the connection stays usable. However the connection ends (a close frame, a reset, the
    server gone), `send` and `recv` raise `ConnectionLost`, then and on every later call, with `lost_hint` (what
    to do) at the end of its message. `timeout` bounds the wait for each reply; `connect_timeout` (default
    `timeout`) bounds connecting, the handshake and hello."""

    def __init__(self, url: str, token: str | None = None, timeout: float = 60.0,
                 connect_timeout: float | None = None, lost_hint: str = ""):
        self.url = url
        self.timeout = timeout
        self.lost_hint = lost_hint
        uri = websocket_uri(url)
        self._ws = ClientProtocol(uri, max_size=None)
        self._messages: deque[bytearray] = deque()
        self._partial: bytearray | None = None  # a message whose last frame has not come yet
        self._quick = False  # the last reply came within SPIN_SECONDS
        self._next_id = 0
        self._in_flight: deque[int] = deque()
        self._lock = threading.Lock()  # the protocol and socket: the caller's, or the watcher's between calls
        self._closed = False
        self._lost = False
        # Seconds spent sending, waiting for and reading replies (transport) and decoding them (msgpack): what
        # `python -m splendor_rl.bench` sets apart from the rest of a step.
        self.transport_seconds = 0.0
        self.decode_seconds = 0.0
        self._open(uri, connect_timeout or timeout)
        threading.Thread(target=self._answer_pings, daemon=True).start()
        try:
            self.hello = self.call("hello", token=token)
        except BaseException:
            self.close()  # a refused token, say: do not leave the socket and the watcher behind
            raise
        self._sock.settimeout(timeout)
        if self.hello.get("protocol") != PROTOCOL_VERSION:
            self.close()
            raise ProtocolError(f"server speaks protocol {self.hello.get('protocol')}, this client {PROTOCOL_VERSION}")

    def _open(self, uri: WebSocketURI, timeout: float) -> None:
        """`_sock`, with the WebSocket handshake done; any failure is a `ServerUnreachable` naming the URL (a
        bare ConnectionRefusedError does not say which server was meant)."""
        try:
            sock = socket.create_connection((uri.host, uri.port), timeout=timeout)
        except OSError as exc:
            raise ServerUnreachable(self.url, exc.strerror or str(exc) or type(exc).__name__) from exc
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            if uri.secure:
                sock = ssl.create_default_context().wrap_socket(sock, server_hostname=uri.host)
            self._sock = sock
            self._handshake()
        except InvalidStatus as exc:  # something answers HTTP there, but no WebSocket: most likely the path
            sock.close()
            raise ServerUnreachable(self.url, f"WebSocket handshake failed ({exc})", wrong_path_hint(uri)) from exc
        except (OSError, InvalidHandshake) as exc:
            sock.close()
            raise ServerUnreachable(self.url, f"WebSocket handshake failed ({exc})") from exc
        except BaseException:
            sock.close()
            raise

    def _handshake(self) -> None:
        """The HTTP upgrade, read a byte at a time so that nothing after the response (the server sends nothing
        before hello, but still) is taken from the frames that follow."""
        self._ws.send_request(self._ws.connect())
        self._flush()
        while True:
            for event in self._ws.events_received():
                if isinstance(event, Response):
                    if self._ws.handshake_exc is not None:
                        raise self._ws.handshake_exc
                    return
            data = self._recv(1)
            self._ws.receive_data(bytes(data))

    def send(self, op: str, **fields: Any) -> int:
        """Send a request without waiting for its reply; returns its id. Fields that are None are left out."""
        started = time.perf_counter()
        message = {"id": self._next_id + 1, "op": op}
        message.update((k, v) for k, v in fields.items() if v is not None)
        frame = pack(message)
        with self._lock:
            self._check_open()
            self._next_id += 1
            self._ws.send_binary(frame)
            self._flush()
            self._in_flight.append(self._next_id)
        self.transport_seconds += time.perf_counter() - started
        return self._next_id

    def recv(self) -> dict:
        """Read the reply to the oldest request in flight."""
        if not self._in_flight:
            raise ProtocolError("recv with no request in flight")
        started = time.perf_counter()
        with self._lock:
            if self._quick and not self._messages:
                self._poll_until_readable(started + SPIN_SECONDS)
            frame = self._message()
            expected = self._in_flight.popleft()
        read = time.perf_counter()
        self._quick = read - started < SPIN_SECONDS
        reply = unpack(frame)
        self.decode_seconds += time.perf_counter() - read
        self.transport_seconds += read - started
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

    def _check_open(self) -> None:
        """Fail fast on a connection known to be over (the watcher may have read its close frame): a request
        sent now could never be answered."""
        if self._closed or self._lost or self._ws.state is not State.OPEN:
            raise self._lost_error()

    def _lost_error(self) -> ConnectionLost:
        """Why the connection ended: the server's close frame if one came, else 1006. Marks it lost for good."""
        self._lost = True
        if self._closed:
            return ConnectionLost(self.url, 1000, "closed by this client")
        rcvd = self._ws.close_rcvd
        code, reason = (1006, "") if rcvd is None else (rcvd.code, rcvd.reason)
        return ConnectionLost(self.url, code, reason, self.lost_hint)

    def _poll_until_readable(self, deadline: float) -> None:
        """Poll the socket until a reply starts to arrive or deadline passes. A thread sleeping in recv is woken
        50–100 µs late on a VM whose idle cores are halted, more than a small batch's whole round trip; so while
        replies come within SPIN_SECONDS, recv polls for that long before it sleeps (a slow reply, say a large
        batch, turns it off: the polling never costs more than it can save)."""
        while time.perf_counter() < deadline and not select.select([self._sock], [], [], 0)[0]:
            pass

    def _message(self) -> bytearray:
        """The next whole binary message; pings are answered on the way (by the protocol object)."""
        while not self._messages:
            if self._closed or self._lost or self._ws.close_rcvd is not None:  # nothing more will come
                raise self._lost_error()
            self._read_frame()
            if not self._messages:  # pongs, a close reply; not once a reply is in (the peer may have left since)
                self._flush()
        return self._messages.popleft()

    def _read_frame(self) -> None:
        """Read one frame: a data frame's payload into its message's buffer, a control frame into websockets
        (which queues the pong or the close reply and records the close)."""
        head = self._recv(2)
        fin, opcode, length = head[0] & 0x80, head[0] & 0x0F, head[1] & 0x7F
        if head[1] & 0x80:
            raise ProtocolError("the server masked a frame")
        extended = self._recv({126: 2, 127: 8}.get(length, 0))
        if extended:
            length = int.from_bytes(extended, "big")
        if opcode == TEXT:
            raise ProtocolError("the server sent a text message")
        if opcode not in (BINARY, CONT):
            self._ws.receive_data(bytes(head + extended + self._recv(length)))
            for _ in self._ws.events_received():
                pass  # pings and closes act on the protocol object itself
            return
        self._read_payload(length)
        if fin:
            self._messages.append(self._partial)
            self._partial = None

    def _read_payload(self, length: int) -> None:
        """Append a data frame's payload to the message being read, straight from the socket."""
        if self._partial is None:
            self._partial = bytearray(length)
            start = 0
        else:  # a message in several frames (larger than the server's write buffer)
            start = len(self._partial)
            self._partial.extend(bytes(length))
        self._recv_into(memoryview(self._partial)[start:])

    def _recv(self, n: int) -> bytearray:
        data = bytearray(n)
        self._recv_into(memoryview(data))
        return data

    def _recv_into(self, view: memoryview) -> None:
        """Fill view from the socket; the end of the stream or a reset is a lost connection."""
        while len(view):
            try:
                got = self._sock.recv_into(view)
            except TimeoutError:
                raise TimeoutError(f"no reply from {self.url} within {self._sock.gettimeout()}s") from None
            except OSError as exc:  # reset, or the socket closed under us
                raise self._lost_error() from exc
            if not got:
                self._ws.receive_eof()
                raise self._lost_error()
            view = view[got:]

    def _answer_pings(self) -> None:
        """Between calls, read what the server sent (pings, whose pongs the protocol queues) and flush."""
        while True:
            time.sleep(PING_CHECK_SECONDS)
            with self._lock:
                if self._closed:
                    return
                try:
                    while select.select([self._sock], [], [], 0)[0]:
                        self._read_frame()
                        self._flush()
                except Exception:  # the connection ended; the caller's next call reports how
                    return

    def _flush(self) -> None:
        for data in self._ws.data_to_send():
            if data:
                try:
                    self._sock.sendall(data)
                except TimeoutError:
                    raise
                except OSError as exc:  # BrokenPipeError, ConnectionResetError: the peer is gone
                    raise self._lost_error() from exc

    def close(self) -> None:
        """Close the WebSocket (the server frees this connection's batches) and the socket. Idempotent, and
        silent whatever state the connection is in."""
        with self._lock:
            if self._closed:
                return
            try:
                if self._ws.state is State.OPEN and not self._lost:
                    self._sock.settimeout(CLOSE_SEND_SECONDS)
                    self._ws.send_close()
                    self._flush()
            except OSError:  # ConnectionLost or a timeout: the peer is gone or not listening
                pass
            finally:
                self._closed = True
                self._sock.close()

    def __enter__(self) -> "Connection":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
