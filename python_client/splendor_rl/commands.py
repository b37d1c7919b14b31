"""The console scripts `splendor-server` and `splendorctl` that pip installs with the package: each replaces
itself (exec) with the Go binary of its name that `find_binary` finds, the one inside the package in a wheel built
by `make wheel`, so the binary gets the arguments, stdin, signals and exit code unchanged."""

from __future__ import annotations

import os
import sys

from .server import find_binary


def _exec(name: str) -> None:
    try:
        binary = find_binary(name)
    except FileNotFoundError as exc:
        sys.exit(f"{name}: {exc}")
    os.execv(binary, [binary, *sys.argv[1:]])


def splendor_server() -> None:
    _exec("splendor-server")


def splendorctl() -> None:
    _exec("splendorctl")
