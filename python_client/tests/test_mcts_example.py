"""examples/mcts.py, run as a user would with a tiny budget: its output, and the same result for the same seed."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import subprocess_env

MCTS = Path(__file__).resolve().parents[1] / "examples" / "mcts.py"
RESULT = re.compile(r"^mcts\.py vs greedy: (\d+)/(\d+) wins = (\d+\.\d)% \(95% CI (\d+\.\d)–(\d+\.\d)%\), "
                    r"(\d+) truncated, (\d+) draws; (\S+), (\d+) simulations, width (\d+), c_puct \S+, "
                    r"(greedy|random) rollouts, seed (\d+)$")
SPEED = re.compile(r"^speed: \d+ simulations/s, \d+ env-steps/s in search \((\d+) simulations, \d+\.\d s in all\)$")
HANG = 300  # seconds; bounds a hang only: a run takes ~15 s on a two-core machine kept busy by other work


def mcts(*args: str) -> tuple[re.Match, int]:
    """Run the example; its result line parsed, and the simulations it ran."""
    proc = subprocess.run([sys.executable, str(MCTS), *args], capture_output=True, text=True, timeout=HANG,
                          env=subprocess_env())
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == 2, proc.stdout
    result, speed = RESULT.match(lines[0]), SPEED.match(lines[1])
    assert result and speed, proc.stdout
    wins, games, pct, lo, hi = int(result[1]), int(result[2]), float(result[3]), float(result[4]), float(result[5])
    assert 0 <= wins <= games and lo <= pct <= hi and int(result[6]) + int(result[7]) <= games - wins
    assert pct == pytest.approx(100 * wins / games, abs=0.05)
    return result, int(speed[1])


@pytest.mark.parametrize("env_id, rollout", [("splendor-v1", "random"), ("splendor-duel-v1", "greedy")])
def test_mcts_plays_and_repeats_itself(url, env_id, rollout):
    tiny = ["--env", env_id, "--games", "2", "--simulations", "2", "--width", "2", "--rollout", rollout,
            "--seed", "5"]
    first, simulations = mcts(*tiny, "--url", url)
    assert (first[2], first[8], first[9], first[10], first[11], first[12]) == ("2", env_id, "2", "2", rollout, "5")
    assert simulations > 0 and simulations % 2 == 0, "whole waves of 2"
    # Without --url it starts its own local server; the games are the same.
    again, simulations_again = mcts(*tiny)
    assert (again[0], simulations_again) == (first[0], simulations)
