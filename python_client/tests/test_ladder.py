"""The ladder (`python -m splendor_rl.ladder`): its Elo fit, the field's calibration, the published field, and a
short run against the test server."""

from __future__ import annotations

import hashlib
import json
import math
import re
from pathlib import Path

import pytest

from splendor_rl import ladder

from .test_examples import run

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs" / "ladder.md"


def games(record: dict[float, tuple[int, int]]) -> list[ladder.Order]:
    """(rating, (wins, losses)) as the fit's orders."""
    return [o for r, (w, l) in record.items() for score, n in ((1.0, w), (0.0, l)) for _ in range(n)
            for o in ladder.pairwise(r, score)]


def test_fit_is_elo():
    """With two seats, Plackett-Luce is Elo."""
    g = games({1000.0: (600, 400)})
    rating = ladder.fit(g)
    assert rating == pytest.approx(1000 + 400 * math.log10(1.5), abs=0.5)  # the prior's draw barely moves it
    low, high = ladder.interval(g, rating)
    assert low < rating < high and high - low == pytest.approx(2 * 1.96 * 400 / math.log(10) /
                                                                (1000 * 0.24) ** 0.5, rel=0.05)
    assert ladder.fit(games({1000.0: (0, 300)})) < 1000 - 600  # a perfect loss record: finite, far below


def test_reach_is_the_interval_of_expected_scores():
    # Against one member of equal rating, 100 games: the Fisher interval of 100 coin flips.
    low, high = ladder.reach([1000.0], 1000.0)
    assert (high - low) / 2 == pytest.approx(1.96 * 400 / math.log(10) / (100 * 0.25) ** 0.5, rel=0.05)
    # A member near the entrant narrows its interval; members far below it barely do.
    far = ladder.reach([1000.0, 1200.0], 2000.0)
    near = ladder.reach([1000.0, 1200.0, 1900.0], 2000.0)
    assert near[1] - near[0] < (far[1] - far[0]) / 2 and near[0] < 2000 < near[1]


def test_upper_members_reach_only_entrants_near_them():
    field, upper = [1000.0, 1200.0], [2000.0]
    assert ladder.reach_with_upper(field, upper, 1000.0) == ladder.reach(field, 1000.0)  # too far below to play it
    # Met, an upper member plays UPPER_DEALS times the deals: as that many members of its rating would.
    met = ladder.reach([*field, *upper * ladder.UPPER_DEALS], 2000.0)
    assert ladder.reach_with_upper(field, upper, 2000.0) == pytest.approx(met, abs=1e-6)
    assert ladder.reach(field, 1500.0)[1] < 2000 - ladder.UPPER_MARGIN < ladder.reach(field, 1800.0)[1]


def test_plackett_luce_of_three_seats():
    # A seat of the field's rating finishing first, second and third equally often rates as the field; a draw's
    # orders are equally likely; three seats of equal rating order themselves each way with chance 1/6.
    even = [o for places in ([1, 2, 3], [2, 1, 3], [3, 1, 2]) for o in ladder.orders([None, 1000.0, 1000.0], places)]
    assert ladder.fit(even * 100) == pytest.approx(1000, abs=0.01)
    assert ladder.orders([None, 1200.0], [1, 1]) == [((None, 1200.0), 0.5), ((1200.0, None), 0.5)]
    assert math.exp(ladder.log_likelihood(1000.0, [((None, 1000.0, 1000.0), 1.0)])) == pytest.approx(1 / 6)
    # Winning every game of three seats against 1000s: above them, finite; the prior keeps it so.
    assert 1400 < ladder.fit([((None, 1000.0, 1000.0), 1.0)] * 200) < 3000
    # A second place among three says more than a coin flip: the interval narrows as games add up.
    seconds = [((1000.0, None, 1000.0), 1.0)] * 300
    low, high = ladder.interval(seconds, ladder.fit(seconds))
    assert high - low < 100


def test_reach_prints_the_fields_intervals(capsys):
    assert ladder.main(["--reach", "--env", "splendor-duel-v1"]) == 0
    lines = capsys.readouterr().out.splitlines()[1:]
    field = list(ladder.FIELDS[("splendor-duel-v1", 2)].values())
    assert len(lines) == len(ladder.REACH)
    low, high = ladder.reach(field, 2400.0)
    assert f"  2400: {low:.0f}–{high:.0f} (± {(high - low) / 2:.0f})" in lines


def test_the_published_reach_is_the_fields():
    text = DOCS.read_text().split("**How far the field reaches.**", 1)[1]
    ratings = [float(r) for r in re.search(r"^\| entrant's rating \|(.*)\|$", text, re.M)[1].split("|")]
    for (env, players), field in ladder.FIELDS.items():
        row = re.search(rf"^\| {env}, {players} players \|(.*)\|$", text, re.M)[1]
        published = [int(cell.strip().removeprefix("± ")) for cell in row.split("|")]
        upper = list(ladder.UPPER.get((env, players), {}).values())
        computed = [round((high - low) / 2) for low, high in (ladder.reach_with_upper(list(field.values()), upper, r,
                                                                                       players=players)
                                                              for r in ratings)]
        assert published == computed, env


def record(a: str, b: str, a_ahead: bool) -> dict:
    return {"seats": [a, b], "places": [1, 2] if a_ahead else [2, 1]}


def test_calibration_recovers_the_ratings_that_made_the_scores():
    # Scores exactly as Elo expects for greedy 1000, strong 1200 (76 % against greedy), weak 800.
    rows = []
    for a, b, wins in (("strong", "greedy", 76), ("greedy", "weak", 76), ("strong", "weak", 91)):
        rows += [record(a, b, k < wins) for k in range(100)]
    ratings = ladder.calibrate(["strong", "greedy", "weak"], rows)
    assert ratings["greedy"] == 1000
    assert ratings["strong"] == pytest.approx(1200, abs=15) and ratings["weak"] == pytest.approx(800, abs=15)


def test_the_field_is_the_one_published():
    text = DOCS.read_text()
    for (env, players), field in ladder.FIELDS.items():
        section = text.split(f"### {env}, {players} players", 1)[1].split("###", 1)[0]
        published = {m[1]: float(m[2]) for m in re.finditer(r"^\| `([^`]+)` \| (-?\d+(?:\.\d+)?) \|", section, re.M)}
        assert published == {**field, **ladder.UPPER.get((env, players), {})}, env
    assert f"{ladder.DEALS} deals" in text and str(ladder.SEED) in text


def test_the_baseline_members_are_the_shipped_files():
    # Their ratings belong to these bytes: a network replaced without laddering it again fails here.
    listed = dict(re.findall(r"^\| `([\w.@-]+\.safetensors)` \| `([0-9a-f]{64})` \|", DOCS.read_text(), re.M))
    shipped = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in (REPO / "baselines").glob("*.safetensors")}
    assert listed == shipped


def test_a_short_ladder_run(url):
    args = ["-m", "splendor_rl.ladder", "puct:20", "--deals", "1", "--url", url]
    first, again = run(*args), run(*args)
    assert first.returncode == 0, first.stderr
    assert first.stdout == again.stdout  # the games depend on the entrant alone
    m = re.match(r"ladder rating of puct:20 on splendor-v1, 2 players: (-?\d+) \(95 % (-?\d+)–(-?\d+)\) \(--deals 1",
                 first.stdout)
    assert m and int(m[2]) <= int(m[1]) <= int(m[3]), first.stdout
    lines = re.findall(r"^  vs .*$", first.stdout, re.M)
    upper = ladder.UPPER[("splendor-v1", 2)]
    assert len(lines) == len(ladder.FIELDS[("splendor-v1", 2)]) + len(upper)
    assert all(f"  vs {name} " in first.stdout and "not played" in lines[-1] for name in upper)  # too weak to meet it
    assert len({line.index(" (") for line in lines}) == 1, "the ratings' column is one, whatever the names' lengths"



def test_upper_members_are_played_once_the_interval_reaches_them(url, monkeypatch, capsys):
    monkeypatch.setitem(ladder.FIELDS, ("splendor-v1", 2), {"random": 380.1})
    monkeypatch.setitem(ladder.UPPER, ("splendor-v1", 2), {"greedy": 1000.0, "mcts:30": 5000.0})
    assert ladder.main(["mcts:20", "--deals", "2", "--url", url]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^  vs random +\(   380\): [\d.]+/4$", out, re.M), out
    # Within reach of mcts:20's interval: played on UPPER_DEALS times the 2 deals.
    assert re.search(rf"^  vs greedy +\(  1000\): [\d.]+/{4 * ladder.UPPER_DEALS}$", out, re.M), out
    assert re.search(r"^  vs mcts:30 +\(  5000\): not played", out, re.M), out
    with pytest.raises(SystemExit):
        ladder.main(["mcts:30", "--url", url])  # an upper member is a member


def test_a_ladder_run_resumes_in_both_phases(url, monkeypatch, capsys, tmp_path):
    """Cut short anywhere (here: after a few field games, a last line half written), a run resumed plays only the
    games its results file lacks, the upper member's too, and rates as one uninterrupted run."""
    monkeypatch.setitem(ladder.FIELDS, ("splendor-v1", 2), {"random": 380.1, "greedy": 1000.0})
    monkeypatch.setitem(ladder.UPPER, ("splendor-v1", 2), {"mcts:30": 1200.0})
    args = ["mcts:20", "--deals", "2", "--num-envs", "3", "--url", url]
    assert ladder.main(args) == 0
    straight = capsys.readouterr().out
    results = tmp_path / "games.jsonl"
    assert ladder.main(args + ["--results", str(results)]) == 0
    rows = results.read_text().splitlines()
    phases = [json.loads(row)["phase"] for row in rows[1:]]
    assert (phases.count("field"), phases.count("upper")) == (8, 4 * ladder.UPPER_DEALS), "every game once"
    results.write_text("\n".join(rows[:4]) + '\n{"phase": "field", "ga')
    capsys.readouterr()
    assert ladder.main(args + ["--results", str(results), "--resume"]) == 0
    assert capsys.readouterr().out == straight
    resumed = [json.loads(row) for row in results.read_text().splitlines()[1:]]
    assert sorted((r["phase"], r["game"]) for r in resumed) == sorted((r["phase"], r["game"]) for r in
                                                                        map(json.loads, rows[1:]))
    assert ladder.main(args + ["--results", str(results), "--resume"]) == 0, "nothing left to play"
    assert capsys.readouterr().out == straight


def test_a_results_file_of_another_run_is_refused(url, tmp_path):
    results = tmp_path / "games.jsonl"
    first = run("-m", "splendor_rl.ladder", "puct:20", "--deals", "1", "--url", url, "--results", str(results))
    assert first.returncode == 0, first.stderr
    for other in (["puct:21", "--deals", "1"], ["puct:20", "--deals", "2"]):
        proc = run("-m", "splendor_rl.ladder", *other, "--url", url, "--results", str(results), "--resume")
        assert proc.returncode == 2 and "holds the results of another run" in proc.stderr, proc.stderr
    alone = run("-m", "splendor_rl.ladder", "puct:20", "--resume", "--url", url)
    assert alone.returncode == 2 and "--resume needs --results" in alone.stderr


def test_refusals_are_one_line(url):
    member = run("-m", "splendor_rl.ladder", "greedy", "--url", url)
    assert member.returncode == 2 and "member of the field" in member.stderr
    neither = run("-m", "splendor_rl.ladder", "--url", url)
    assert neither.returncode == 2 and "name an entrant, or pass --calibrate" in neither.stderr
    unknown = run("-m", "splendor_rl.ladder", "minimax", "--url", url)
    assert unknown.returncode == 2 and "is no built-in bot" in unknown.stderr, unknown.stderr


def test_a_dead_url_is_one_line(free_url):
    proc = run("-m", "splendor_rl.ladder", "mcts:10", "--deals", "1", "--url", free_url)
    assert proc.returncode == 1 and proc.stderr.startswith("splendor_rl.ladder: ServerUnreachable"), proc.stderr
    assert proc.stderr.count("\n") == 1 and free_url in proc.stderr, proc.stderr
