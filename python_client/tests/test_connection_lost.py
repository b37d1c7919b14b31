"""Every way a connection ends surfaces as one `ConnectionLost` carrying the close code and reason, and every
close() after it is silent. Each test starts its own real server (loopback) with the limits it needs."""

import os
import pickle
import re
import signal
import socket
import time

import numpy as np
import pytest

import splendor_rl
from splendor_rl import Connection, ConnectionLost, LocalServer, errors

from .conftest import REPO, await_metric

TIMEOUT = 10.0  # bounds each reply a test waits for
# The idle timeout of the tests that let a connection idle: longer than a busy machine stalls between two
# requests of one call (make_vec's make and reset), so that only the idling the test means closes a connection.
IDLE = "500ms"
IDLE_CLOSES = 'splendor_dropped_connections_total{reason="idle_timeout"}'


def server(*args: str, port: int = 0) -> LocalServer:
    return LocalServer(args=args, port=port)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stop(pid: int) -> None:
    """SIGSTOP, waiting until every thread has stopped: kill returns before a thread busy on another core has."""
    os.kill(pid, signal.SIGSTOP)
    deadline = time.monotonic() + TIMEOUT
    while any(open(f"/proc/{pid}/task/{t}/stat").read().rsplit(")", 1)[1].split()[0] != "T"
              for t in os.listdir(f"/proc/{pid}/task")):
        assert time.monotonic() < deadline, "the server did not stop"
        time.sleep(0.001)


def lost(call, code: int, reason: str | None = None) -> ConnectionLost:
    with pytest.raises(ConnectionLost) as err:
        call()
    assert err.value.code == code, err.value
    if reason is not None:
        assert err.value.reason == reason
    return err.value


def test_idle_timeout_is_close_1000_and_close_stays_silent():
    with server("--idle-timeout", IDLE, "--ping-interval", "10s") as srv:
        conn = Connection(srv.url, timeout=TIMEOUT)
        envs = splendor_rl.make_vec(num_envs=2, url=srv.url)
        envs.reset()
        await_metric(srv.url, IDLE_CLOSES, 2)  # both closed (the watcher may read the close frame between calls)
        exc = lost(lambda: conn.call("hello"), 1000, "idle timeout")
        assert srv.url in str(exc) and "idle timeout" in str(exc)
        lost(lambda: conn.call("hello"), 1000, "idle timeout")  # and on every later call
        lost(lambda: envs.step(np.zeros(2, np.int64)), 1000, "idle timeout")
        for _ in range(2):
            conn.close()
            envs.close()


@pytest.mark.parametrize("watcher", [True, False])
def test_shutdown_is_close_1001(watcher, monkeypatch):
    if not watcher:  # nothing reads the close frame before the call: the call meets the closed socket itself
        monkeypatch.setattr(splendor_rl.connection, "PING_CHECK_SECONDS", 3600)
    srv = server()
    conn = Connection(srv.url, timeout=TIMEOUT)
    env = splendor_rl.make(url=srv.url)
    env.reset()
    srv.stop()
    lost(lambda: conn.call("hello"), 1001, "server shutting down")
    lost(lambda: env.step(0), 1001, "server shutting down")
    env.close()
    env.close()
    conn.close()


def test_request_too_large_is_close_1009():
    with server("--max-message-bytes", "1024") as srv:
        conn = Connection(srv.url, timeout=TIMEOUT)
        lost(lambda: conn.call("make", env="x" * 4096, num_envs=1), 1009)
        conn.close()


def test_killed_server_is_1006_even_mid_request():
    srv = server()
    conn = Connection(srv.url, timeout=TIMEOUT)
    handle = conn.call("make", env="splendor-v1", num_envs=1)["handle"]
    stop(srv.process.pid)  # so that the request below is never answered
    conn.send("reset", handle=handle)
    os.kill(srv.process.pid, signal.SIGKILL)
    srv.process.wait(TIMEOUT)
    assert lost(conn.recv, 1006, "").reason == ""
    lost(lambda: conn.call("hello"), 1006)
    conn.close()
    srv.stop()


def test_broken_pipe_on_send_is_connection_lost():
    with server() as srv:
        conn = Connection(srv.url, timeout=TIMEOUT)
        conn._sock.shutdown(socket.SHUT_WR)  # the next write fails with EPIPE, as to a peer that is gone
        exc = lost(lambda: conn.send("hello"), 1006)
        assert isinstance(exc.__cause__, (BrokenPipeError, ConnectionResetError)), repr(exc.__cause__)
        conn.close()


def test_call_after_the_server_restarted():
    port = free_port()
    first = server(port=port)
    conn = Connection(first.url, timeout=TIMEOUT)
    first.stop()
    with server(port=port) as second:
        assert second.url == first.url
        lost(lambda: conn.call("hello"), 1001)
        conn.close()
        with Connection(second.url, timeout=TIMEOUT) as fresh:
            assert fresh.call("hello")["protocol"] == 1


def test_connection_lost_is_a_connection_error_and_pickles():
    exc = ConnectionLost("ws://127.0.0.1:1/ws", 1001, "server shutting down")
    assert isinstance(exc, ConnectionError) and splendor_rl.ConnectionLost is ConnectionLost
    again = pickle.loads(pickle.dumps(exc))
    assert (again.url, again.code, again.reason, str(again)) == (exc.url, exc.code, exc.reason, str(exc))
    assert "1006" in str(ConnectionLost("ws://h:1/ws")) and "no close frame" in str(ConnectionLost("ws://h:1/ws"))


def test_python_docs_list_every_close_code():
    text = (REPO / "docs" / "python.md").read_text()
    rows = re.findall(r"^\| (\d{4}) \|", text, re.M)
    assert sorted(int(code) for code in rows) == sorted(errors.CLOSE_CODES)
