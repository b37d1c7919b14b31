"""Tests run against the real Go server binary (built by `make build`; $SPLENDOR_SERVER_BIN overrides)."""

from __future__ import annotations

import os
import socket
import time
import urllib.request
from pathlib import Path

import pytest

from splendor_rl import LocalServer

REPO = Path(__file__).resolve().parents[2]
# How long a subprocess a test starts (an example, a tool) may run before the test calls it hung: the runs take
# seconds to a minute on an idle machine, several times that on one busy with other work.
HANG_SECONDS = 900
GOLDEN = REPO / "encoding" / "wire" / "testdata"
PACKAGE_ROOT = Path(__file__).resolve().parents[1]


def subprocess_env() -> dict[str, str]:
    """The environment of a Python subprocess (a tool run as a user would): it must import the splendor_rl under
    test, wherever an installed (even editable) copy points."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PACKAGE_ROOT), env.get("PYTHONPATH")]))
    return env


@pytest.fixture(scope="session")
def server():
    with LocalServer() as srv:
        yield srv


@pytest.fixture(scope="session")
def url(server):
    return server.url


@pytest.fixture
def free_url() -> str:
    """A WebSocket URL that nothing listens at (a loopback port just bound and released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"ws://127.0.0.1:{s.getsockname()[1]}/ws"


def metric(base: str, name: str) -> float:
    """A counter's value in the server's /metrics (0 when absent); base is the server's http://host:port/."""
    with urllib.request.urlopen(base + "metrics") as response:
        for line in response.read().decode().splitlines():
            if line.startswith(name + " "):
                return float(line.split()[-1])
    return 0.0


def await_metric(ws_url: str, name: str, at_least: float) -> None:
    """Wait until the server at ws_url counts at_least of name: a test of a timeout waits for the server to have
    kept it, not for a sleep that a busy machine may outlast. The minute only catches a hang."""
    base = ws_url.replace("ws://", "http://", 1).removesuffix("ws")
    deadline = time.monotonic() + 60
    while metric(base, name) < at_least:
        assert time.monotonic() < deadline, f"{name} below {at_least} after a minute"
        time.sleep(0.01)
