"""examples/ppo.py and `python -m splendor_rl.evaluate`, run as a user would, against the test server."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("tqdm")

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
RESULT = re.compile(r"^policy (\S+) vs (random|greedy): (\d+)/(\d+) wins = (\d+\.\d)% "
                    r"\(95% CI (\d+\.\d)–(\d+\.\d)%\), (\d+) truncated(, \d+ draws)?$")


def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=timeout)


def evaluate(url: str, *args: str) -> str:
    proc = run("-m", "splendor_rl.evaluate", "--url", url, *args)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def parse(output: str) -> tuple:
    lines = output.strip().splitlines()
    assert len(lines) == 1, output
    match = RESULT.match(lines[0])
    assert match, lines[0]
    wins, games, pct, lo, hi, truncated = (int(match[3]), int(match[4]), float(match[5]), float(match[6]),
                                           float(match[7]), int(match[8]))
    assert 0 <= wins <= games and lo <= pct <= hi and truncated <= games - wins
    assert pct == pytest.approx(100 * wins / games, abs=0.05)
    return match[1], match[2], wins, games, truncated


@pytest.fixture(scope="module")
def checkpoint(url, tmp_path_factory):
    path = tmp_path_factory.mktemp("ppo") / "ppo.pt"
    proc = run(str(EXAMPLES / "ppo.py"), "--total-timesteps", "2048", "--num-envs", "4", "--num-steps", "64",
               "--eval-every", "1024", "--eval-games", "4", "--save", str(path), "--url", url, "--no-progress")
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"train win rate vs random \d+\.\d%", proc.stdout), proc.stdout
    assert re.search(r"eval argmax vs random \d/4 = +\d+\.\d%", proc.stdout), proc.stdout
    assert path.is_file()
    return path


def test_ppo_saves_a_checkpoint_that_rebuilds(checkpoint):
    from splendor_rl.policy import load_checkpoint

    model, ckpt = load_checkpoint(str(checkpoint))
    assert ckpt["args"]["num_envs"] == 4 and ckpt["env_steps"] == 2048
    assert model.config == {"obs_dim": 423, "num_actions": 72, "hidden": 256, "layers": 2, "activation": "tanh"}


def test_evaluate_checkpoint_is_deterministic(url, checkpoint):
    first = evaluate(url, "--policy", str(checkpoint), "--games", "10")
    assert parse(first)[:2] == (str(checkpoint), "random") and parse(first)[3] == 10
    assert evaluate(url, "--policy", str(checkpoint), "--games", "10") == first
    # Which env plays which game does not change any game.
    assert evaluate(url, "--policy", str(checkpoint), "--games", "10", "--num-envs", "3") == first


def test_evaluate_random_vs_greedy_is_deterministic(url):
    first = evaluate(url, "--policy", "random", "--opponent", "greedy", "--games", "20")
    name, opponent, wins, games, _ = parse(first)
    assert (name, opponent, games) == ("random", "greedy", 20) and wins <= 5  # greedy crushes random
    assert evaluate(url, "--policy", "random", "--opponent", "greedy", "--games", "20") == first
    assert evaluate(url, "--policy", "random", "--opponent", "greedy", "--games", "20", "--num-envs", "7") == first
    other = evaluate(url, "--policy", "random", "--opponent", "greedy", "--games", "20", "--seed", "1")
    parse(other)


def test_evaluate_random_needs_no_torch(url):
    code = ("import sys; sys.modules['torch'] = None; from splendor_rl.evaluate import main; "
            f"main(['--url', {url!r}, '--games', '6', '--players', '3'])")
    proc = run("-c", code)
    assert proc.returncode == 0, proc.stderr
    assert parse(proc.stdout)[3] == 6


def test_wilson_interval():
    from splendor_rl.evaluate import wilson

    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    lo, hi = wilson(812, 1000)
    assert (round(lo, 3), round(hi, 3)) == (0.787, 0.835)
