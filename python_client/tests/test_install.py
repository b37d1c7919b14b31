"""`make test` runs in the project's own virtual environment, with this checkout's client installed in it."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import splendor_rl

EXPECTED = os.environ.get("SPLENDOR_EXPECT_VENV")
REPO = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(not EXPECTED, reason="run by `make test` with its own .venv only (PYTHON=... names another)")
def test_make_test_uses_the_project_venv():
    assert Path(sys.prefix).resolve() == Path(EXPECTED).resolve()
    assert sys.prefix != sys.base_prefix, "a virtual environment, not the system Python"
    checkout = Path(EXPECTED).resolve().parent
    assert Path(splendor_rl.__file__).resolve().is_relative_to(checkout / "python_client"), "the editable install of this checkout"


def test_make_test_without_a_c_compiler_stops_at_once_in_one_line():
    """`go test -race` needs cgo, so a C compiler: without one `make test` stops before any test, in one line saying
    what to install; RACE=0 skips the race tests instead."""
    make = subprocess.run(["make", "-s", "test-go", "CC=no-such-cc"], cwd=REPO, capture_output=True, text=True)
    assert make.returncode == 2
    assert make.stdout.strip() == ("make test needs a C compiler for go test -race (Debian: apt-get install gcc), "
                                   "or RACE=0 to skip the race tests")
    skipped = subprocess.run(["make", "-n", "test-go", "RACE=0", "CC=no-such-cc"], cwd=REPO, capture_output=True,
                             text=True)
    assert skipped.returncode == 0 and "-timeout 30m -race" not in skipped.stdout
