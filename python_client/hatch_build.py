"""The wheel's build hook (hatchling): with SPLENDOR_WHEEL_GOARCH=amd64 or arm64 (`make wheel` sets it), the wheel
carries splendor-server and splendorctl cross-compiled for Linux on that architecture, in splendor_rl/bin/, and is
tagged for that platform. Without it the wheel is pure Python (`pip install -e python_client`, as `make test`
does) and finds the server as splendor_rl/server.py's find_binary says: the checkout's bin/, $PATH…"""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

# With CGO_ENABLED=0, Go's binaries are static: they load no libc at all, so they run on glibc systems (manylinux)
# and musl ones (musllinux: Alpine) alike, on any kernel Go supports (3.2 and later). The wheel says both, with the
# oldest tags of each that pip knows: manylinux2014 (glibc 2.17, pip 19.3+) and musllinux_1_1 (pip 21.3+).
# tests/test_wheel.py checks that the binary has no ELF interpreter, the fact these tags rest on.
PLATFORMS = {
    "amd64": "manylinux2014_x86_64.musllinux_1_1_x86_64",
    "arm64": "manylinux2014_aarch64.musllinux_1_1_aarch64",
}
BINARIES = ("splendor-server", "splendorctl")


class BinariesHook(BuildHookInterface):
    _built: tempfile.TemporaryDirectory | None = None

    def initialize(self, version: str, build_data: dict) -> None:
        goarch = os.environ.get("SPLENDOR_WHEEL_GOARCH")
        if not goarch or version == "editable":  # an editable install uses the checkout's bin/
            return
        if goarch not in PLATFORMS:
            raise ValueError(f"SPLENDOR_WHEEL_GOARCH={goarch!r}: the wheel is built for one of {', '.join(PLATFORMS)}")
        # Built fresh for each wheel, outside the source tree, so a wheel never carries another build's binaries.
        self._built = tempfile.TemporaryDirectory(prefix="splendor-wheel-")
        env = {**os.environ, "CGO_ENABLED": "0", "GOOS": "linux", "GOARCH": goarch}
        # -trimpath: no path of this machine inside; -s -w: no symbol table or DWARF (30 % smaller; a panic's
        # stack trace keeps its function names and lines).
        subprocess.run([os.environ.get("GO", "go"), "build", "-trimpath", "-ldflags=-s -w", "-o", self._built.name + "/",
                        *(f"./cmd/{name}" for name in BINARIES)],
                       cwd=Path(self.root).parent, env=env, check=True)
        for name in BINARIES:
            build_data["force_include"][os.path.join(self._built.name, name)] = f"splendor_rl/bin/{name}"
        build_data["pure_python"] = False
        build_data["tag"] = f"py3-none-{PLATFORMS[goarch]}"

    def finalize(self, version: str, build_data: dict, artifact_path: str) -> None:
        if self._built is not None:
            self._built.cleanup()
