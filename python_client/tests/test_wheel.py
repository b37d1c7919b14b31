"""The wheel of `make wheel` as a user without Go gets it: built for this machine, installed by pip into a fresh
virtual environment, then used with no Go on PATH, no $SPLENDOR_SERVER_BIN and from outside the checkout, so the
only server it can find is the one inside the package."""

from __future__ import annotations

import os
import platform
import re
import shutil
import struct
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from .conftest import REPO

# Python's name of this machine → the ELF machine number its binaries must carry.
ARCHS = {"x86_64": 62, "aarch64": 183}
MACHINE = platform.machine()
VERSION = re.search(r'const Version = "([^"]+)"',
                    (REPO / "cmd" / "internal" / "version" / "version.go").read_text()).group(1)
EXTRAS_LEFT_OUT = {"torch", "ray", "pettingzoo", "matplotlib", "playwright", "sb3-contrib", "tensorboard"}

pytestmark = pytest.mark.skipif(sys.platform != "linux" or MACHINE not in ARCHS,
                                reason="the wheels are for Linux on x86_64 and arm64")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """`make wheel` as it is: a wheel for this machine's architecture, and the pip install to run next."""
    out = tmp_path_factory.mktemp("dist")
    built = subprocess.run(["make", "-C", str(REPO), "wheel", f"WHEEL_DIR={out}", f"PYTHON={sys.executable}"],
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stdout + built.stderr
    wheels = list(out.glob("*.whl"))
    assert len(wheels) == 1 and MACHINE in wheels[0].name, wheels
    assert f"pip install '{wheels[0]}[train]'" in built.stdout, built.stdout
    return wheels[0]


class User:
    """A fresh virtual environment with the wheel installed, and how to run commands in it as its user would."""

    def __init__(self, root: Path, wheel: Path):
        self.venv = root / "venv"
        self.wheel = wheel
        self.home = root / "work"  # the commands' working directory: no checkout above it
        self.home.mkdir()
        # PATH without the directories holding `go`, and none of the variables that point at the checkout
        # ($SPLENDOR_SERVER_BIN is its bin/ under `make test`, PYTHONPATH its python_client) or at another venv.
        path = [str(self.venv / "bin")] + [d for d in os.environ.get("PATH", "").split(os.pathsep)
                                           if d and not (Path(d) / "go").exists()]
        self.env = {k: v for k, v in os.environ.items() if k not in ("SPLENDOR_SERVER_BIN", "PYTHONPATH", "VIRTUAL_ENV")}
        self.env["PATH"] = os.pathsep.join(path)
        assert shutil.which("go", path=self.env["PATH"]) is None
        subprocess.run([sys.executable, "-m", "venv", str(self.venv)], check=True)
        # The wheel by its path; its dependencies from the package index (or pip's cache).
        self.run("python", "-m", "pip", "install", "-q", str(wheel))
        self.base_packages = self.packages()

    def run(self, *command: str, timeout: float = 120) -> str:
        done = subprocess.run(command, cwd=self.home, env=self.env, capture_output=True, text=True, timeout=timeout)
        assert done.returncode == 0, f"{command}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
        return done.stdout

    def packages(self) -> set[str]:
        listed = self.run("python", "-m", "pip", "list", "--format", "freeze")
        return {line.split("==")[0].lower().replace("_", "-") for line in listed.split()}


@pytest.fixture(scope="module")
def user(wheel, tmp_path_factory) -> User:
    return User(tmp_path_factory.mktemp("user"), wheel)


def readme_examples() -> list[str]:
    """The README's Python examples: its ```python blocks."""
    blocks = re.findall(r"^```python\n(.*?)^```", (REPO / "README.md").read_text(), re.S | re.M)
    assert blocks, "README.md has no ```python block"
    return blocks


def elf_facts(binary: bytes) -> tuple[int, set[int]]:
    """An ELF64 little-endian executable's machine number and the types of its program headers."""
    assert binary[:6] == b"\x7fELF\x02\x01", "a 64-bit little-endian ELF file"
    machine, = struct.unpack_from("<H", binary, 18)
    phoff, = struct.unpack_from("<Q", binary, 32)
    phentsize, phnum = struct.unpack_from("<HH", binary, 54)
    return machine, {struct.unpack_from("<I", binary, phoff + i * phentsize)[0] for i in range(phnum)}


def test_wheel_is_tagged_for_this_platform_and_carries_static_binaries(wheel):
    plat = f"manylinux2014_{MACHINE}.musllinux_1_1_{MACHINE}"
    assert wheel.name == f"splendor_rl-{VERSION}-py3-none-{plat}.whl"
    with zipfile.ZipFile(wheel) as z:
        for name in ("splendor-server", "splendorctl"):
            info = z.getinfo(f"splendor_rl/bin/{name}")
            assert info.external_attr >> 16 & 0o111 == 0o111, f"{name} is executable"
            machine, segments = elf_facts(z.read(info))
            assert machine == ARCHS[MACHINE]
            # No interpreter (PT_INTERP, 3) and no dynamic section (PT_DYNAMIC, 2): it loads no libc, which is what
            # lets one wheel claim both manylinux (glibc) and musllinux.
            assert not segments & {2, 3}, f"{name} is linked dynamically"
        metadata = z.read(f"splendor_rl-{VERSION}.dist-info/METADATA").decode()
    required = {re.match(r"[\w.-]+", line[len("Requires-Dist: "):]).group(0)
                for line in metadata.splitlines() if line.startswith("Requires-Dist: ") and "extra ==" not in line}
    assert required == {"numpy", "msgpack", "websockets", "gymnasium"}


def test_base_install_leaves_the_large_extras_out(user):
    assert {"numpy", "msgpack", "websockets", "gymnasium", "splendor-rl"} <= user.base_packages
    assert not user.base_packages & EXTRAS_LEFT_OUT


def test_readme_examples_run_on_the_bundled_server(user):
    site = user.run("python", "-c", "import splendor_rl; print(splendor_rl.find_binary())").strip()
    assert Path(site).is_relative_to(user.venv) and Path(site).parent.name == "bin", site
    for k, block in enumerate(readme_examples()):
        (user.home / f"example{k}.py").write_text(block)
        assert user.run("python", f"example{k}.py").strip(), "each example prints what it did"


def test_console_scripts_exec_the_bundled_binaries(user):
    for name in ("splendor-server", "splendorctl"):
        assert shutil.which(name, path=user.env["PATH"]) == str(user.venv / "bin" / name)
    assert user.run("splendor-server", "--version").split() == ["splendor-server", VERSION]
    assert "Winner: seat" in user.run("splendorctl", "play", "--seed", "3")


def test_tools_run_as_modules(user):
    assert "wins" in user.run("python", "-m", "splendor_rl.evaluate", "--games", "8", "--num-envs", "8")
    # bench also runs splendorctl, found beside the server in the package.
    assert "inproc" in user.run("python", "-m", "splendor_rl.bench", "--seconds", "0.05")
    # The arena rates with openskill and reports with matplotlib: its extra, which it names when missing.
    done = subprocess.run(["python", "-m", "splendor_rl.arena", "--entrant", "random", "greedy"], cwd=user.home,
                          env=user.env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and done.stderr.strip().endswith("pip install 'splendor_rl[arena]'"), done.stderr
    user.run("python", "-m", "pip", "install", "-q", f"splendor_rl[arena] @ {user.wheel.as_uri()}")
    assert "greedy" in user.run("python", "-m", "splendor_rl.arena", "--entrant", "random", "greedy",
                                "--deals", "1", "--no-progress")


# The training docs' commands, each cut short: later flags override the documented ones.
SHORT = {
    "alphazero": ["--minutes", "0", "--num-envs", "8", "--simulations", "4", "--hidden", "16", "--teacher-rounds",
                  "2", "--min-buffer", "16", "--batch-size", "16", "--eval-every", "0", "--no-progress"],
    "league": ["--minutes", "10", "--updates", "1", "--num-envs", "8", "--num-steps", "16", "--eval-games", "4",
               "--eval-minutes", "0", "--imitate-rounds", "2", "--imitate-envs", "8", "--imitate-steps", "4",
               "--teacher", "mcts:10"],
    "arena": ["--deals", "1", "--no-progress"],
    "ladder": ["--deals", "1"],
}


def training_commands() -> list[list[str]]:
    """The `python -m splendor_rl.…` commands of docs/training.md's shell blocks, in order, as argument lists
    without their `--url` (the wheel's own server plays) or comments; those that resume the repository's committed
    checkpoints need a clone and are left out."""
    text = (REPO / "docs" / "training.md").read_text()
    commands = []
    for block in re.findall(r"^```sh\n(.*?)^```", text, re.S | re.M):
        for line in re.sub(r"\\\n\s*", " ", block).splitlines():
            args = line.split("#")[0].split()
            if args[:2] == ["python", "-m"] and "checkpoints/" not in line:
                if "--url" in args:
                    del args[args.index("--url"):args.index("--url") + 2]
                commands.append(args)
    return commands


def test_the_training_docs_commands_run_from_the_wheel(user):
    """The commands a wheel user with the `train` extra runs from docs/training.md, in order, short: AlphaZero and
    its resume, the ladder of its network, the 3-player run and its resume, the 4-player run with playouts, the
    4-player run taught by a search bot and its resume, the league and the arena of its checkpoint. The extras'
    packages (PyTorch and the rest, gigabytes, and the arena's) are lent from this test's own environment by a .pth
    file that puts them after the user's own, rather than installed a second time; splendor_rl and the server are
    the wheel's."""
    site = Path(user.run("python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").strip())
    lent = site / "lent-train-extra.pth"
    lent.write_text(f"{sysconfig.get_paths()['purelib']}\n")
    try:
        where = user.run("python", "-c", "import splendor_rl, torch; print(splendor_rl.__file__)").strip()
        assert Path(where).is_relative_to(user.venv), where
        commands = training_commands()
        assert [c[2].removeprefix("splendor_rl.") for c in commands] == ["league", "arena", "arena", "alphazero",
                                                                         "alphazero", "ladder", "alphazero",
                                                                         "alphazero", "alphazero", "alphazero",
                                                                         "alphazero"]
        rounds = 2
        for command in commands:
            tool = command[2].removeprefix("splendor_rl.")
            extra = SHORT[tool] + (["--rounds", str(rounds)] if tool == "alphazero" else [])
            rounds += 2
            out = user.run(*command, *extra, timeout=600)
            assert out.strip(), command
        assert (user.home / "runs" / "az" / "net.safetensors").is_file() and (user.home / "duel.pt").is_file()
    finally:
        lent.unlink()
