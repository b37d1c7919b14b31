"""The local server helper starts the real binary and leaves no process behind."""

import os
import signal
import subprocess
import sys
import time

import pytest

import splendor_rl
from splendor_rl.codec import pack, unpack
from splendor_rl import Connection, LocalServer

from .conftest import HANG_SECONDS, subprocess_env


def alive(pid: int) -> bool:
    """Running (a zombie, exited but not yet reaped by whoever adopted it, counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_local_server_stops_cleanly():
    with LocalServer() as srv:
        pid = srv.process.pid
        with Connection(srv.url) as conn:
            assert "splendor-v1" in conn.hello["envs"]
    assert srv.process.returncode == 0, "SIGTERM drains and exits with status 0"
    assert not alive(pid)


def test_make_vec_without_url_stops_the_shared_server_with_the_last_env():
    envs = splendor_rl.make_vec(num_envs=2, seed=0)
    other = splendor_rl.make(seed=1)
    pid = envs._server.process.pid
    assert other._vec._server is envs._server and alive(pid)
    envs.reset()
    envs.close()
    assert alive(pid), "another env still uses it"
    other.close()
    assert not alive(pid)


# Run in a fresh Python: it counts the server processes that are children of the process that made the envs.
SHARED_SERVER_SCRIPT = """
import os, gymnasium, splendor_rl

binary = os.path.realpath(splendor_rl.find_binary())

def servers():
    pids = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                state, ppid = f.read().rsplit(")", 1)[1].split()[:2]
            if int(ppid) == os.getpid() and state != "Z" and os.path.realpath(f"/proc/{pid}/exe") == binary:
                pids.append(int(pid))
        except OSError:
            pass  # exited meanwhile
    return pids

envs = [splendor_rl.make(seed=i) for i in range(16)]
envs += [splendor_rl.make_vec(num_envs=2), splendor_rl.make_aec(), gymnasium.make("splendor_rl/splendor-v1")]
[pid] = servers()
with open(f"/proc/{pid}/cmdline") as f:
    args = f.read().split("\\0")
print(len(servers()), args[args.index("--workers") + 1])
for env in envs:
    env.reset()
    env.close()
print(len(servers()))
try:
    splendor_rl.make(players=9)
except splendor_rl.BadOption:
    print(len(servers()))  # a refused make gives its server back
again = splendor_rl.make()
print(len(servers()), servers()[0])  # and exits without closing it: the atexit hook stops it
"""


def test_envs_without_url_share_one_server_per_process():
    proc = subprocess.run([sys.executable, "-X", "dev", "-c", SHARED_SERVER_SCRIPT], capture_output=True,
                          text=True, timeout=HANG_SECONDS, env=subprocess_env())
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.split("\n")
    cpus = len(os.sched_getaffinity(0))
    assert lines[:3] == [f"1 {cpus}", "0", "0"], proc.stdout
    count, pid = lines[3].split()
    assert count == "1" and not alive(int(pid)), "stopped at exit"
    assert "ResourceWarning" not in proc.stderr and "Traceback" not in proc.stderr, proc.stderr


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
    # Pings every second, answered by a thread that looks every quarter second: a pong may be late by more than
    # a second of a busy machine's stalls before the server (two intervals) drops the client.
    with LocalServer(args=("--ping-interval", "1s")) as srv:
        with Connection(srv.url) as conn:
            time.sleep(3.5)  # several ping intervals with no call, past the two a silent peer gets
            assert conn.call("hello")["protocol"] == 1


def test_plain_websockets_client_stays_connected_while_idle():
    """Any client whose library answers pings stays connected, however long it sends nothing."""
    from websockets.sync.client import connect

    with LocalServer(args=("--ping-interval", "1s")) as srv:  # as above
        with connect(srv.url, max_size=None) as ws:
            time.sleep(3.5)
            ws.send(pack({"id": 1, "op": "hello"}))
            assert unpack(ws.recv(timeout=10))["protocol"] == 1


def test_server_exits_when_its_python_parent_is_killed():
    """Even SIGKILL, which runs no atexit handler: the server sees its stdin close and exits."""
    code = ("import time; from splendor_rl import LocalServer; srv = LocalServer(); "
            "print(srv.process.pid, flush=True); time.sleep(120)")
    parent = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, env=subprocess_env())
    pid = None
    try:
        pid = int(parent.stdout.readline())  # bounded: LocalServer gives up after its startup timeout
        assert alive(pid)
        parent.kill()
        parent.wait(10)
        deadline = time.monotonic() + 5
        while alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not alive(pid), "the server outlived its parent"
    finally:
        parent.kill()
        parent.wait(10)
        parent.stdout.close()
        if pid is not None and alive(pid):
            os.kill(pid, signal.SIGKILL)
