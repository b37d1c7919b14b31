"""Tests run against the real Go server binary (built by `make build`; $SPLENDOR_SERVER_BIN overrides)."""

from __future__ import annotations

from pathlib import Path

import pytest

from splendor_rl import LocalServer

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "encoding" / "wire" / "testdata"


@pytest.fixture(scope="session")
def server():
    with LocalServer() as srv:
        yield srv


@pytest.fixture(scope="session")
def url(server):
    return server.url
