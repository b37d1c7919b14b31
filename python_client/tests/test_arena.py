"""The arena against the real server: ratings order bots of known strength, the duplicate format is counted
exactly, files and replays are written and readable, runs are deterministic, plugins and checkpoints play."""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from splendor_rl.arena import BUILT_IN_BOTS, Entrant, main, parse_entrant, places, run
from splendor_rl.arena_replay import game_notation
from splendor_rl.arena_report import build_report
from splendor_rl.vector import SplendorVectorEnv


def bots(*specs: str) -> list[Entrant]:
    return [parse_entrant(spec) for spec in specs]


def report_of(entrants: list[Entrant], records: list[dict], env: str = "splendor-v1", players: int = 2) -> dict:
    run_key = {"env": env, "players": players, "format": "round-robin", "hero": entrants[0].name, "deals": 0,
               "seed": 0, "max_rounds": None,
               "entrants": [{"name": e.name, "kind": e.kind, "source": e.source} for e in entrants]}
    return build_report(run_key, records)


def test_ratings_order_entrants_of_known_strength(url):
    # Measured on 80 games against greedy: mcts:200 finishes ahead 84% of the time, mcts:60 only 49% (no
    # stronger than greedy), so 24 head-to-head games of mcts:200 order them with room to spare, and a report
    # that misreads places (or seats) puts them in another order.
    entrants = bots("mcts:200", "random", "greedy")
    records = run(entrants, deals=12, seed=3, url=url)
    report = report_of(entrants, records)
    assert [row["name"] for row in report["ratings"]] == ["mcts:200", "greedy", "random"]
    rate = {(p["entrant"], p["opponent"]): p["rate"] for p in report["pairwise"]}
    assert rate["greedy", "random"] > 0.75 and rate["mcts:200", "greedy"] > 0.6


def test_every_entrant_plays_every_seat_and_every_deal_once_per_rotation(url):
    entrants = bots("random", "greedy", "other=random", "mcts:10")
    for fmt, tables in (("round-robin", 4), ("gauntlet", 3)):
        records = run(entrants, players=3, fmt=fmt, hero=1, deals=2, seed=11, url=url, num_envs=5)
        assert len(records) == tables * 2 * 3
        assert [r["game"] for r in records] == list(range(len(records)))
        for name in {n for r in records for n in r["seats"]}:
            seats = Counter(r["seats"].index(name) for r in records if name in r["seats"])
            assert len(set(seats.values())) == 1 and len(seats) == 3, (fmt, name, seats)
        # Each table's deal is played once per rotation, by the same entrants, each time seated one seat on.
        deals = Counter((r["table"], r["deal"]) for r in records)
        assert set(deals.values()) == {3}
        for r in records:
            assert r["seed"] == 11 + r["deal"]
            first = records[r["game"] - r["rotation"]]["seats"]
            assert r["seats"] == first[r["rotation"]:] + first[:r["rotation"]]
        if fmt == "gauntlet":
            assert all("greedy" in r["seats"] for r in records)
        assert_points_match_winners(records)


def assert_points_match_winners(records: list[dict]) -> None:
    """Splendor's winners hold the most points: a check that each seat's points are its own."""
    for r in records:
        if not r["truncated"]:
            assert min(r["points"][s] for s in r["winners"]) == max(r["points"]), r


def test_duel_two_player_tables_run(url):
    entrants = bots("random", "greedy")
    records = run(entrants, env_id="splendor-duel-v1", deals=3, seed=5, url=url)
    assert len(records) == 6 and all(len(r["seats"]) == 2 for r in records)
    report = report_of(entrants, records, env="splendor-duel-v1")
    assert report["ratings"][0]["name"] == "greedy"
    assert all(r["decisions"] > 10 and max(r["points"]) > 0 for r in records)


def test_places_share_wins_and_draw_truncated_games():
    assert places([15, 12, 12], [0], False) == [1, 2, 2]
    assert places([16, 16, 9, 3], [0, 1], False) == [1, 1, 3, 4]
    assert places([16, 17], [0], False) == [1, 2]          # Duel: crowns may win with fewer points
    assert places([5, 9], [], True) == [1, 1]


@pytest.mark.parametrize("spec, expected", [
    ("mcts:iterations=60", ("mcts:iterations=60", "bot", "mcts:iterations=60")),
    ("m=mcts:800", ("m", "bot", "mcts:800")),
    ("me=runs/ppo.pt", ("me", "checkpoint", "runs/ppo.pt")),
    ("mine=mybot:make_policy", ("mine", "plugin", "mybot:make_policy")),
])
def test_entrant_specs(spec, expected):
    e = parse_entrant(spec)
    assert (e.name, e.kind, e.source) == expected


def test_bad_arguments_are_refused(capsys):
    for argv in (["--entrant", "greedy", "greedy"], ["--entrant", "greedy", "nonsense"],
                 ["--entrant", "random", "greedy", "--players", "3"],
                 ["--entrant", "random", "greedy", "--format", "gauntlet", "--hero", "mcts"]):
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 2
    capsys.readouterr()


@pytest.mark.parametrize("entrant, says", [
    ("x=missing.pt", "cannot load 'missing.pt' as a checkpoint saved by splendor_rl.ppo: No such file"),
    ("x=nomod:make", "entrant x: no module named 'nomod'"),
    ("x=os:no_such_function", "entrant x: module 'os' has no function 'no_such_function'")])
def test_an_entrant_naming_something_missing_is_one_line(entrant, says, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--entrant", "random", entrant, "--no-progress"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err.startswith(f"python -m splendor_rl.arena: error: {says}"), err
    assert err.count("\n") == 1, err


def test_a_bot_setting_the_server_refuses_fails_before_any_game(url, capsys):
    assert main(["--url", url, "--entrant", "random", "mcts:iterations=0", "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("splendor_rl.arena: BadOption") and err.count("\n") == 1


def test_an_env_the_server_lacks_is_one_line(url, capsys):
    assert main(["--url", url, "--env", "nope-v1", "--entrant", "random", "greedy", "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("splendor_rl.arena: UnknownEnv") and "splendor-v1" in err and err.count("\n") == 1


PLUGIN = '''
import numpy as np

CALLS = []


def make(seed):
    """The first legal action: a plugin policy."""
    def act(obs, mask, games):
        CALLS.append((obs.shape, mask.shape, list(games)))
        return np.asarray(mask).argmax(axis=1)
    return act
'''


def arena_cli(url: str, out, *extra: str) -> int:
    return main(["--url", url, "--entrant", "random", "greedy", "first=arena_plugin:make", "--deals", "2",
                 "--seed", "7", "--no-progress", "--num-envs", "4", "--out", str(out), *extra])


@pytest.fixture
def plugin(tmp_path, monkeypatch):
    (tmp_path / "arena_plugin.py").write_text(PLUGIN)
    monkeypatch.syspath_prepend(str(tmp_path))
    import arena_plugin
    arena_plugin.CALLS.clear()
    return arena_plugin


def test_files_are_written_and_readable_and_runs_are_deterministic(url, tmp_path, plugin, capsys):
    assert arena_cli(url, tmp_path / "a", "--replays", str(tmp_path / "replays")) == 0
    printed = capsys.readouterr().out
    assert "rank  entrant" in printed and "row finished ahead of column" in printed
    assert arena_cli(url, tmp_path / "b", "--num-envs", "64") == 0
    first = json.loads((tmp_path / "a" / "arena.json").read_text())
    assert first == json.loads((tmp_path / "b" / "arena.json").read_text())
    assert first["totals"]["games"] == 3 * 2 * 2
    with open(tmp_path / "a" / "ratings.csv") as f:
        assert [row["name"] for row in csv.DictReader(f)] == [row["name"] for row in first["ratings"]]
    with open(tmp_path / "a" / "pairwise.csv") as f:
        assert len(list(csv.DictReader(f))) == 6
    with open(tmp_path / "a" / "games.csv") as f:
        assert len(list(csv.DictReader(f))) == 12
    assert (tmp_path / "a" / "arena.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plugin_entrant_plays_its_seats(url, tmp_path, plugin, capsys):
    assert arena_cli(url, tmp_path) == 0
    report = json.loads((tmp_path / "arena.json").read_text())
    assert {"name": "first", "kind": "plugin", "source": "arena_plugin:make"} in report["run"]["entrants"]
    row = next(r for r in report["ratings"] if r["name"] == "first")
    assert row["games"] == 8 and row["seats"] == [4, 4]
    assert plugin.CALLS and all(o == (m[0], 442) and m[1] == 78 for o, m, _ in plugin.CALLS)
    assert {g for _, _, games in plugin.CALLS for g in games} <= set(range(12))
    capsys.readouterr()


def test_replays_replay_to_their_final_state(url, tmp_path, plugin, capsys):
    assert arena_cli(url, tmp_path / "out", "--players", "3", "--replays", str(tmp_path / "replays")) == 0
    capsys.readouterr()
    files = sorted((tmp_path / "replays").iterdir())
    assert len(files) == 1 * 2 * 3
    lines = [json.loads(line) for line in files[-1].read_text().splitlines()]
    decisions, result = lines[:-1], lines[-1]
    assert result["type"] == "result" and result["decisions"] == len(decisions) and result["players"] == 3
    envs = SplendorVectorEnv(result["env"], 1, url=url, mode="self_play", players=3, autoreset="disabled")
    try:
        envs.reset(seed=[result["seed"]])
        for d in decisions:
            assert d["type"] == "decision" and d["label"] == envs.action_labels[d["action"]]
            envs.step(np.array([d["action"]]))
        assert game_notation(envs.get_state()[0]) == result["final_state"]
        views, _ = envs.view()
        assert [seat["points"] for seat in views[0]["seats"]] == result["scores"], "this game's points, per seat"
    finally:
        envs.close()


def test_checkpoint_entrant_plays(url, tmp_path, capsys):
    torch = pytest.importorskip("torch")
    from splendor_rl.policy import MLPPolicy, save_checkpoint

    torch.manual_seed(0)
    save_checkpoint(str(tmp_path / "net.pt"), MLPPolicy(hidden=16, layers=1), args={"env": "splendor-v1"})
    assert main(["--url", url, "--entrant", "random", f"net={tmp_path / 'net.pt'}", "--deals", "2",
                 "--no-progress", "--out", str(tmp_path)]) == 0
    report = json.loads((tmp_path / "arena.json").read_text())
    assert next(r for r in report["ratings"] if r["name"] == "net")["games"] == 4
    capsys.readouterr()


def test_networks_with_and_without_the_features_block_meet(url, tmp_path, capsys):
    # The env serves the derived block because one network needs it; the other reads the observation's first 442
    # values, as it was trained.
    torch = pytest.importorskip("torch")
    from splendor_rl import pvnet

    torch.manual_seed(0)
    for name, width, features in (("plain", 442, "none"), ("derived", 986, "derived")):
        pvnet.save(pvnet.PolicyValueNet(width, 78, 16, 1), str(tmp_path / f"{name}.safetensors"), "splendor-v1",
                   {"features": features, "players": 2})
    entrants = ["--entrant", f"plain={tmp_path / 'plain.safetensors'}", f"derived={tmp_path / 'derived.safetensors'}"]
    assert main(["--url", url, *entrants, "--deals", "2", "--no-progress", "--out", str(tmp_path)]) == 0
    report = json.loads((tmp_path / "arena.json").read_text())
    assert sorted(r["games"] for r in report["ratings"]) == [4, 4]
    with pytest.raises(SystemExit):
        main(["--url", url, *entrants, "random", "--players", "3", "--deals", "1", "--no-progress"])
    assert "trained with 2 players, not 3" in capsys.readouterr().err


def test_the_docs_list_every_kind_of_entrant():
    """docs/arena.md's entrant table names every bot kind the arena takes, and both kinds of network file."""
    table = (Path(__file__).resolve().parents[2] / "docs" / "arena.md").read_text().split("## Entrants", 1)[1]
    specs = " ".join(line.split(" | ")[0] for line in table.splitlines() if line.startswith("| `"))
    for kind in BUILT_IN_BOTS:
        assert f"`{kind}" in specs, kind
    assert "`name=path.pt`" in specs and "`name=path.safetensors`" in specs


def test_the_tools_know_the_servers_bots(url):
    """The arena's and evaluate's bot kinds are the server's (hello's `bots` choices), `baseline+search` being
    `baseline` searching and `random` evaluate's own policy."""
    from splendor_rl import Connection
    from splendor_rl.evaluate import BOTS

    with Connection(url) as connection:
        bots = next(o for o in connection.hello["env_options"]["splendor-v1"] if o["name"] == "bots")
    assert set(BUILT_IN_BOTS) - {"baseline+search"} == set(bots["choices"])
    assert set(BOTS) == set(BUILT_IN_BOTS) - {"random"}
