"""A missing extra is one line naming the pip install that brings it, in every tool and library call alike (issue
35): the tools run here in a Python where the extra's modules cannot be imported."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import splendor_rl

REPO = Path(__file__).resolve().parents[2]
NETWORK = str(REPO / "baselines" / "splendor-v1-2p.safetensors")
TRAIN = "needs torch (the 'train' extra): pip install 'splendor_rl[train]'"


def without(modules: list[str], tool: str, *args: str) -> subprocess.CompletedProcess:
    """`python -m tool args` with `modules` unimportable (as in a venv without their extra)."""
    hide = "; ".join(f"sys.modules[{m!r}] = None" for m in modules)
    code = f"import runpy, sys; {hide}; sys.argv = ['{tool}', *{list(args)!r}]; runpy.run_module({tool!r}, " \
           "run_name='__main__')"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("tool, args", [
    ("splendor_rl.arena", ["--entrant", f"az={NETWORK}", "greedy", "--deals", "1"]),
    ("splendor_rl.ladder", [f"az={NETWORK}", "--deals", "1"]),
    ("splendor_rl.evaluate", ["--policy", NETWORK, "--games", "1"]),
])
def test_a_network_without_torch_is_one_line(tool, args):
    proc = without(["torch"], tool, *args)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip().endswith(f"the network {NETWORK} {TRAIN}"), proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_a_missing_file_is_named_before_a_missing_extra():
    proc = without(["torch"], "splendor_rl.evaluate", "--policy", "missing.pt", "--games", "1")
    assert proc.returncode == 2 and "'missing.pt' as a checkpoint saved by splendor_rl.ppo: No such file" in proc.stderr, \
        proc.stderr
    assert "torch" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_the_arena_without_its_extra_is_one_line():
    proc = without(["openskill"], "splendor_rl.arena", "--entrant", "random", "greedy", "--deals", "1")
    assert proc.returncode == 1
    assert proc.stderr.strip() == ("python -m splendor_rl.arena: the arena needs openskill (the 'arena' extra): "
                                   "pip install 'splendor_rl[arena]'")


def test_make_aec_without_pettingzoo_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "pettingzoo", None)
    with pytest.raises(splendor_rl.MissingExtra, match=r"^make_aec needs pettingzoo \(the 'pettingzoo' extra\): "
                                                       r"pip install 'splendor_rl\[pettingzoo\]'$"):
        splendor_rl.make_aec()


@pytest.mark.parametrize("trainer", ["alphazero", "ppo", "league"])
def test_a_trainer_without_torch_is_one_line(trainer):
    proc = without(["torch"], f"splendor_rl.{trainer}", "--help")
    assert proc.returncode == 1
    assert proc.stderr.strip() == f"python -m splendor_rl.{trainer} {TRAIN}"
