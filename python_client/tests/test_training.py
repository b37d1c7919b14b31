"""splendor_rl.league (training against bots, snapshots and a teacher), run as a user would with tiny budgets."""

from __future__ import annotations

import csv
import re
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import subprocess_env

torch = pytest.importorskip("torch")
pytest.importorskip("torch.utils.tensorboard")

TINY = ("--num-envs", "8", "--num-steps", "16", "--eval-games", "4", "--eval-minutes", "0", "--minutes", "5")
# Bounds a hang only: a run takes 15–25 s on a two-core machine kept busy by other work.
HANG = 300


def league(url: str, tmp_path: Path, *args: str) -> str:
    proc = subprocess.run([sys.executable, "-m", "splendor_rl.league", "--url", url, *TINY, "--save", str(tmp_path / "w.pt"),
                           "--log-csv", str(tmp_path / "curve.csv"), *args],
                          capture_output=True, text=True, timeout=HANG, env=subprocess_env())
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "w.pt").is_file()
    return proc.stdout


def curve(tmp_path: Path) -> list[dict]:
    with open(tmp_path / "curve.csv", newline="") as f:
        return list(csv.DictReader(f))


def test_greedy_opponent_logs_a_curve_tensorboard_and_checkpoints(url, tmp_path):
    out = league(url, tmp_path, "--opponents", "greedy", "--updates", "3", "--logdir", str(tmp_path / "tb"),
                 "--checkpoint", str(tmp_path / "c{update}.pt"), "--checkpoint-every", "2")
    assert "ppo done: 3 updates (greedy 3), pool of 1 snapshots" in out, out
    assert re.search(r"argmax vs greedy \d/4 = ", out), out
    rows = curve(tmp_path)
    assert [r["phase"] for r in rows] == ["end"] and rows[0]["eval_games"] == "4"
    assert list((tmp_path / "tb").glob("events.out.tfevents.*"))
    ckpt = torch.load(tmp_path / "c2.pt", map_location="cpu", weights_only=True)
    assert ckpt["update"] == 2 and "optimizer" in ckpt
    # The saved weights are a checkpoint the evaluator (and the arena) load.
    proc = subprocess.run([sys.executable, "-m", "splendor_rl.evaluate", "--url", url, "--policy",
                           str(tmp_path / "w.pt"), "--opponent", "greedy", "--games", "4"],
                          capture_output=True, text=True, timeout=HANG, env=subprocess_env())
    assert proc.returncode == 0 and proc.stdout.startswith("policy "), proc.stderr


def test_mcts_opponent(url, tmp_path):
    out = league(url, tmp_path, "--opponents", "mcts:10", "--updates", "1", "--num-steps", "8")
    assert "ppo done: 1 updates (mcts:10 1)" in out, out


@pytest.mark.parametrize("env_id", ["splendor-v1", "splendor-duel-v1"])
def test_snapshot_league_on_a_schedule(url, tmp_path, env_id):
    # From snapshots only to greedy only: both kinds are met, and the pool grows by one snapshot per update.
    out = league(url, tmp_path, "--env", env_id, "--opponents", "self", "--opponents-end", "greedy",
                 "--updates", "4", "--snapshot-every", "1", "--pool-size", "3", "--seed", "3")
    done = re.search(r"ppo done: 4 updates \((\S+) (\d+), (\S+) (\d+)\), pool of 3 snapshots", out)
    assert done, out
    assert done.group(1, 3) == ("greedy", "self") and int(done[2]) > 0 and int(done[4]) > 0, out


def test_imitation_warm_start_then_ppo(url, tmp_path):
    out = league(url, tmp_path, "--imitate-minutes", "5", "--imitate-rounds", "2", "--imitate-envs", "8",
                 "--imitate-steps", "4", "--teacher", "mcts:10", "--updates", "1", "--bc-coef", "0.1")
    assert "imitation done: 64 labelled decisions" in out, out
    assert "ppo done: 1 updates (greedy 1)" in out, out


def test_refuses_bad_weights(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "splendor_rl.league", "--opponents", "greedy=-1"],
                          capture_output=True, text=True, timeout=HANG, env=subprocess_env())
    assert proc.returncode == 2 and "weights" in proc.stderr
