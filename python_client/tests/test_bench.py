import re
import subprocess
import sys

import pytest

from .conftest import HANG_SECONDS, subprocess_env


def bench(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "splendor_rl.bench", *args], capture_output=True, text=True,
                          timeout=HANG_SECONDS, env=subprocess_env())


@pytest.mark.parametrize("env_id, seconds", [("splendor-v1", "0.2"), ("splendor-duel-v1", "0.05")])
def test_bench_runs_and_reports_every_batch(url, env_id, seconds):
    proc = bench("--seconds", seconds, "--url", url, "--env", env_id)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"{env_id} self-play")
    rates, parts = proc.stdout.split("µs per step()")
    rows = [line.split() for line in rates.splitlines() if re.match(r"\s+\d+\s", line)]
    assert [row[0] for row in rows] == ["1", "64", "1024"]
    for row in rows:
        assert float(row[1].replace(",", "")) > 0 and row[-2].endswith("µs") and float(row[-1].rstrip("x")) > 0
    split = [[float(x) for x in line.split()] for line in parts.splitlines()[1:] if line.strip()]
    assert [row[0] for row in split] == [1, 64, 1024]
    for batch, policy, transport, decode, rest, inproc in split:
        assert policy > 0 and transport > 0 and decode > 0 and inproc > 0  # rest may round to 0 or below


def test_bench_dead_url_is_one_line(free_url):
    proc = bench("--url", free_url)
    assert proc.returncode == 1 and proc.stderr.strip().count("\n") == 0, proc.stderr
    assert free_url in proc.stderr and "make run" in proc.stderr


def test_bench_unknown_env_is_one_line_before_any_output(url):
    proc = bench("--url", url, "--env", "nope-v1", "--seconds", "0.05")
    assert proc.returncode == 1 and proc.stdout == "", proc.stdout
    assert proc.stderr.startswith("splendor_rl.bench: UnknownEnv") and "splendor-v1" in proc.stderr
    assert proc.stderr.count("\n") == 1, proc.stderr
