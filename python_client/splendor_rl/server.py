"""Start a local server (the built Go binary) for the user, and stop it cleanly."""

from __future__ import annotations

import atexit
import os
import queue
import re
import shutil
import subprocess
import threading
from pathlib import Path

BINARY_ENV = "SPLENDOR_SERVER_BIN"


def find_binary() -> str:
    """The server binary: $SPLENDOR_SERVER_BIN, else bin/splendor-server of the checkout this package lives in
    (an editable install), else splendor-server on PATH."""
    if os.environ.get(BINARY_ENV):
        return os.environ[BINARY_ENV]
    for parent in Path(__file__).resolve().parents:
        candidate = parent / "bin" / "splendor-server"
        if candidate.is_file():
            return str(candidate)
    found = shutil.which("splendor-server")
    if found:
        return found
    raise FileNotFoundError(
        "splendor-server binary not found: run `make build` in the repository, set $SPLENDOR_SERVER_BIN, "
        "or pass url= to connect to a running server")


class LocalServer:
    """A splendor-server process on a loopback port (a free one unless `port` is given), stopped by `stop()`, on
    leaving a `with` block, or when Python exits. `url` is its WebSocket address.

    It also exits when this Python process dies without stopping it, even by SIGKILL: it runs with
    `--exit-on-stdin-close`, and its stdin is a pipe whose write end only this process holds (the kernel closes it
    when the process dies). A child made by a bare fork (multiprocessing's "fork") inherits that end too, and keeps
    the server alive until it exits as well."""

    def __init__(self, binary: str | None = None, args: tuple[str, ...] = ("--log-level", "warn"),
                 startup_timeout: float = 30.0, port: int = 0):
        self.binary = binary or find_binary()
        command = [self.binary, "--listen", f"127.0.0.1:{port}", "--exit-on-stdin-close", *args]
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        lines: queue.Queue[str] = queue.Queue()
        # The server prints its address first; the rest of stdout is drained so that it never blocks on it.
        threading.Thread(target=self._drain, args=(lines,), daemon=True).start()
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
        """SIGTERM (the server drains), then SIGKILL if it has not exited within timeout."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process.stdin is not None:
            self.process.stdin.close()
        atexit.unregister(self.stop)

    @property
    def running(self) -> bool:
        return self.process.poll() is None

    def __enter__(self) -> "LocalServer":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
