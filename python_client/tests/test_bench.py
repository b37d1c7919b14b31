import re
import subprocess
import sys


def test_bench_runs_and_reports_every_batch(url):
    out = subprocess.run([sys.executable, "-m", "splendor_rl.bench", "--seconds", "0.2", "--url", url],
                         capture_output=True, text=True, check=True, timeout=120).stdout
    rows = [line.split() for line in out.splitlines() if re.match(r"\s+\d+\s", line)]
    assert [row[0] for row in rows] == ["1", "64", "1024"]
    for row in rows:
        assert float(row[1].replace(",", "")) > 0 and row[-1].endswith("µs")
