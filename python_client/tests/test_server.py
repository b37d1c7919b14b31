"""The local server helper starts the real binary and leaves no process behind."""

import os
import time
import signal

import pytest

import splendor_rl
from splendor_rl import Connection, LocalServer


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_local_server_stops_cleanly():
    with LocalServer() as srv:
        pid = srv.process.pid
        with Connection(srv.url) as conn:
            assert "splendor-v1" in conn.hello["envs"]
    assert srv.process.returncode == 0, "SIGTERM drains and exits with status 0"
    assert not alive(pid)


def test_make_vec_without_url_owns_its_server():
    envs = splendor_rl.make_vec(num_envs=2, seed=0)
    pid = envs._server.process.pid
    assert alive(pid)
    envs.reset()
    envs.close()
    assert not alive(pid)


def test_stop_kills_a_server_that_ignores_sigterm():
    srv = LocalServer()
    pid = srv.process.pid
    os.kill(pid, signal.SIGSTOP)  # a stopped process cannot drain
    srv.stop(timeout=1)
    assert not alive(pid)


def test_missing_binary_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("SPLENDOR_SERVER_BIN", "/nonexistent/splendor-server")
    with pytest.raises(FileNotFoundError):
        LocalServer()


def test_idle_client_answers_pings():
    """The server drops a peer that answers no ping for two intervals; a client idle between calls must not be."""
    with LocalServer(args=("--log-level", "warn", "--ping-interval", "300ms")) as srv:
        with Connection(srv.url) as conn:
            time.sleep(2)  # several ping intervals with no call
            assert conn.call("hello")["protocol"] == 1
