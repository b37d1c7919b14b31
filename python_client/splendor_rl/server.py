"""Start a local server (the built Go binary) for the user, and stop it cleanly."""

from __future__ import annotations

import atexit
import os
import queue
import re
import shutil
import subprocess
import sysconfig
import threading
from pathlib import Path

BINARY_ENV = "SPLENDOR_SERVER_BIN"


def find_binary(name: str = "splendor-server") -> str:
    """A Go binary of the project, the server unless `name` says "splendorctl", found in this order:
    1. $SPLENDOR_SERVER_BIN (the server only);
    2. the one inside this package, splendor_rl/bin/ (a wheel built by `make wheel` carries both binaries);
    3. bin/<name> of the checkout this package lives in (an editable install; a checkout is a directory with go.mod);
    4. <name> on PATH, except this environment's own console script of that name, which runs this search itself."""
    if name == "splendor-server" and os.environ.get(BINARY_ENV):
        return os.environ[BINARY_ENV]
    bundled = Path(__file__).resolve().parent / "bin" / name
    if bundled.is_file():
        return str(bundled)
    for parent in Path(__file__).resolve().parents:
        candidate = parent / "bin" / name
        if candidate.is_file() and (parent / "go.mod").is_file():
            return str(candidate)
    scripts = Path(sysconfig.get_path("scripts")).resolve()
    path = os.pathsep.join(d for d in os.environ.get("PATH", os.defpath).split(os.pathsep)
                           if d and Path(d).resolve() != scripts)
    found = shutil.which(name, path=path)
    if found:
        return found
    server_only = f", set ${BINARY_ENV}, or pass url= to connect to a running server" if name == "splendor-server" else ""
    raise FileNotFoundError(f"{name} binary not found: install a wheel built by `make wheel` (it carries the "
                            f"binaries), run `make build` in the repository, put {name} on PATH{server_only}")


def default_workers() -> int:
    """The CPUs this process may run on (its affinity, which a container or `taskset` may narrow)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


class LocalServer:
    """A splendor-server process on a loopback port (a free one unless `port` is given), stepping envs with
    `workers` goroutines (default: one per CPU this process may use), stopped by `stop()`, on leaving a `with`
    block, or when Python exits. `url` is its WebSocket address.

    It also exits when this Python process dies without stopping it, even by SIGKILL: it runs with
    `--exit-on-stdin-close`, and its stdin is a pipe whose write end only this process holds (the kernel closes it
    when the process dies). A child made by a bare fork (multiprocessing's "fork") inherits that end too, and keeps
    the server alive until it exits as well; only the process that started it stops it."""

    def __init__(self, binary: str | None = None, args: tuple[str, ...] = (), startup_timeout: float = 30.0,
                 port: int = 0, workers: int | None = None):
        self.binary = binary or find_binary()
        # `args`, more of the server's flags, come last: a flag given there again (`--log-level info`) wins.
        command = [self.binary, "--listen", f"127.0.0.1:{port}", "--exit-on-stdin-close",
                   "--workers", str(workers or default_workers()), "--log-level", "warn", *args]
        self._owner = os.getpid()
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        lines: queue.Queue[str] = queue.Queue()
        # The server prints its address first; the rest of stdout is drained so that it never blocks on it.
        self._drainer = threading.Thread(target=self._drain, args=(lines,), daemon=True)
        self._drainer.start()
        atexit.register(self.stop)
        try:
            first = lines.get(timeout=startup_timeout)
        except queue.Empty:
            self.stop()
            raise RuntimeError(f"{self.binary} did not start within {startup_timeout}s") from None
        match = re.search(r"ws://\S+/ws", first)
        if not match:
            self.stop()
            raise RuntimeError(f"unexpected first line from {self.binary}: {first!r}")
        self.url = match.group(0)

    def _drain(self, lines: "queue.Queue[str]") -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            lines.put(line)

    def stop(self, timeout: float = 10.0) -> None:
        """SIGTERM (the server drains), then SIGKILL if it has not exited within timeout; then its pipes are
        closed (left open, they warn at exit). A forked child that inherited this object does nothing."""
        if os.getpid() != self._owner:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._close_pipes()
        atexit.unregister(self.stop)

    def _close_pipes(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        # stdout ends (EOF) with the process: the drainer finishes, and only then is it safe to close.
        self._drainer.join(1.0)
        if self.process.stdout is not None and not self._drainer.is_alive():
            self.process.stdout.close()

    @property
    def running(self) -> bool:
        return self.process.poll() is None

    def __enter__(self) -> "LocalServer":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


# The local server of this process, shared by every env made without url=: one server process, not one per env
# (sb3's make_vec_env(n_envs=16) makes 16 envs). Reference-counted: started by the first user, stopped when the
# last one releases it, and at exit by LocalServer's own atexit hook.
_shared: LocalServer | None = None
_shared_users = 0
_shared_lock = threading.Lock()


def acquire_shared_server() -> LocalServer:
    """The shared local server, started if there is none (or it died); pair each call with a release."""
    global _shared, _shared_users
    with _shared_lock:
        if _shared is None or not _shared.running:
            if _shared is not None:
                _shared.stop()  # reaps a dead one; its users keep their count and release it as they close
            _shared = LocalServer()
        _shared_users += 1
        return _shared


def release_shared_server() -> None:
    """One user fewer; the last one stops the server."""
    global _shared, _shared_users
    with _shared_lock:
        _shared_users -= 1
        if _shared_users == 0 and _shared is not None:
            _shared.stop()
            _shared = None


def _forget_shared_in_child() -> None:
    """A forked child does not own the parent's server (it may not stop it): it starts its own if it needs one."""
    global _shared, _shared_users, _shared_lock
    _shared, _shared_users, _shared_lock = None, 0, threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_shared_in_child)
