"""`make test` runs in the project's own virtual environment, with this checkout's client installed in it."""

import os
import sys
from pathlib import Path

import pytest

import splendor_rl

EXPECTED = os.environ.get("SPLENDOR_EXPECT_VENV")


@pytest.mark.skipif(not EXPECTED, reason="run by `make test` with its own .venv only (PYTHON=... names another)")
def test_make_test_uses_the_project_venv():
    assert Path(sys.prefix).resolve() == Path(EXPECTED).resolve()
    assert sys.prefix != sys.base_prefix, "a virtual environment, not the system Python"
    checkout = Path(EXPECTED).resolve().parent
    assert Path(splendor_rl.__file__).resolve().is_relative_to(checkout / "python_client"), "the editable install of this checkout"
