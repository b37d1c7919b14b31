"""splendor_rl.alphazero, run as a user would against the test server: a short self-play run that learns from
finished games, resumes bit-identically, and writes a network that `splendor_rl.evaluate` plays."""

from __future__ import annotations

import csv
import re

import pytest

from .conftest import REPO
from .test_examples import EXAMPLES, evaluate, parse, run

torch = pytest.importorskip("torch")
load_file = pytest.importorskip("safetensors.torch").load_file
pvnet = pytest.importorskip("splendor_rl.pvnet")

# Small enough for seconds, long enough that games end and training starts.
TINY = ["--num-envs", "16", "--simulations", "8", "--min-buffer", "64", "--batch-size", "32", "--hidden", "32",
        "--no-progress"]


def alphazero(url: str, out, *args: str) -> str:
    proc = run("-m", "splendor_rl.alphazero", "--url", url, "--out", str(out), *TINY, *args)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def weights(out) -> dict:
    return load_file(str(out / "net.safetensors"))


# The first 60 rounds learn from the mcts bot (its visit counts and root values), the rest from the network's own
# searches: the resume at round 40 crosses from the teacher to the network.
TEACHER = ["--teacher", "mcts:20", "--teacher-rounds", "60", "--value-target", "search"]


@pytest.mark.parametrize("players", [2, 3])
def test_alphazero_resumes_bit_identically(url, tmp_path, players):
    """At 3 players the value head predicts every seat's value (the teacher's and the searches' per-seat targets),
    through the replay buffer and the saved games of state.pt."""
    straight, halves = tmp_path / "straight", tmp_path / "halves"
    table = ["--players", str(players)]
    done = alphazero(url, straight, "--rounds", "120", "--checkpoint-every", "40", "--eval-every", "0", *TEACHER, *table)
    games, positions = map(int, re.search(r"^120 rounds, (\d+) games, (\d+) positions", done).groups())
    assert games > 0 and positions > 64  # games ended, so training ran on their positions
    values = 1 if players == 2 else players
    assert weights(straight)["value.weight"].shape == (values, 32)
    net, _, options = pvnet.load(str(straight / "net.safetensors"))
    assert net.config["values"] == values and options["players"] == players
    alphazero(url, halves, "--rounds", "40", "--checkpoint-every", "40", "--eval-every", "0", *TEACHER, *table)
    first = weights(halves)
    proc = run("-m", "splendor_rl.alphazero", "--resume", str(halves / "state.pt"), "--rounds", "120",
               "--url", url, "--no-progress")
    assert proc.returncode == 0, proc.stderr
    a, b = weights(straight), weights(halves)
    assert a.keys() == b.keys()
    assert all(torch.equal(a[k], b[k]) for k in a)
    assert not all(torch.equal(first[k], b[k]) for k in a)  # it trained after the resume


def test_a_compact_checkpoint_resumes_reproducibly(url, tmp_path):
    """checkpoint.pt holds no buffer and no games: resumed twice, it deals the same new games, refills the buffer
    the same way and trains on to the same weights, its counters going on from where it stopped."""
    first = tmp_path / "first"
    alphazero(url, first, "--rounds", "40", "--checkpoint-every", "40", "--eval-every", "0", "--no-state", *TEACHER)
    checkpoint = first / "checkpoint.pt"
    assert not (first / "state.pt").exists()
    saved = torch.load(checkpoint, map_location="cpu", weights_only=False)
    assert saved["round"] == 40 and not {"replay", "games", "envs"} & saved.keys()
    assert checkpoint.stat().st_size < 200_000  # the 32-wide network, its optimizer and counters
    resumed = []
    for out in (tmp_path / "a", tmp_path / "b"):
        proc = run("-m", "splendor_rl.alphazero", "--resume", str(checkpoint), "--out", str(out), "--rounds", "160",
                   "--url", url, "--no-progress")
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.startswith("160 rounds, ")
        resumed.append(weights(out))
    a, b, before = resumed[0], resumed[1], weights(first)
    assert all(torch.equal(a[k], b[k]) for k in a)
    assert not all(torch.equal(a[k], before[k]) for k in a)  # it refilled the buffer and trained
    # A resume may change how the run learns, not what the network is.
    proc = run("-m", "splendor_rl.alphazero", "--resume", str(checkpoint), "--out", str(tmp_path / "c"),
               "--rounds", "41", "--lr", "0.0005", "--anneal-rounds", "0", "--url", url, "--no-progress")
    assert proc.returncode == 0, proc.stderr
    saved = torch.load(tmp_path / "c" / "checkpoint.pt", map_location="cpu", weights_only=False)
    assert saved["args"]["lr"] == 0.0005 and saved["optimizer"]["param_groups"][0]["lr"] == 0.0005
    assert saved["args"]["simulations"] == 8  # the rest as saved
    proc = run("-m", "splendor_rl.alphazero", "--resume", str(checkpoint), "--hidden", "64", "--url", url)
    assert proc.returncode == 2 and "--hidden shape the run and cannot change" in proc.stderr


def test_the_learning_rate_anneals_along_a_cosine_by_rounds(url, tmp_path):
    """--anneal-rounds 40: the step of round 20 runs at the midpoint of --lr and --lr-final, round 40's and every
    later one's at --lr-final; a resume goes on along the same schedule."""
    schedule = ["--lr", "0.001", "--lr-final", "0.0001", "--anneal-rounds", "40", "--eval-every", "0"]

    def lr(out) -> float:
        return torch.load(out / "checkpoint.pt", map_location="cpu", weights_only=False)["optimizer"][
            "param_groups"][0]["lr"]

    alphazero(url, tmp_path / "half", "--rounds", "21", *schedule)
    assert lr(tmp_path / "half") == pytest.approx(0.00055)
    proc = run("-m", "splendor_rl.alphazero", "--resume", str(tmp_path / "half" / "checkpoint.pt"), "--out",
               str(tmp_path / "end"), "--rounds", "46", "--url", url, "--no-progress")
    assert proc.returncode == 0, proc.stderr
    assert lr(tmp_path / "end") == pytest.approx(0.0001)


def test_playout_cap_randomisation_trains_on_the_full_searches_only(url, tmp_path):
    """With --fast-simulations a quarter of the positions is searched fully and joins the buffer; the others only
    play: about a quarter of the positions of the same number of finished games."""
    counts = {}
    for name, extra in (("full", []), ("capped", ["--fast-simulations", "2", "--full-share", "0.25"])):
        done = alphazero(url, tmp_path / name, "--rounds", "90", "--teacher-rounds", "0", "--eval-every", "0",
                         "--checkpoint-every", "90", *extra)
        games, positions = map(int, re.search(r"^90 rounds, (\d+) games, (\d+) positions", done).groups())
        assert games > 0
        counts[name] = positions / games
    assert 0.1 < counts["capped"] / counts["full"] < 0.45, counts


def test_a_run_starts_from_a_saved_networks_weights(url, tmp_path):
    """--init: a run that has not trained yet (--min-buffer unreached) saves the weights it started from, another
    seed's, not its own."""
    alphazero(url, tmp_path / "first", "--rounds", "2", "--eval-every", "0", "--seed", "1")
    start = tmp_path / "first" / "net.safetensors"
    alphazero(url, tmp_path / "warm", "--rounds", "2", "--min-buffer", "100000", "--eval-every", "0", "--init",
              str(start))
    a, b = weights(tmp_path / "first"), weights(tmp_path / "warm")
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)
    cold = tmp_path / "cold"
    alphazero(url, cold, "--rounds", "2", "--min-buffer", "100000", "--eval-every", "0")
    assert not torch.equal(weights(cold)["trunk.0.weight"], a["trunk.0.weight"])


# The long runs' compact checkpoints committed to the repository (docs/training.md): the next session resumes them.
COMMITTED = sorted((REPO / "checkpoints").glob("*/checkpoint.pt"))


@pytest.mark.parametrize("checkpoint", COMMITTED, ids=lambda p: p.parent.name)
def test_a_committed_checkpoint_resumes_on_a_fresh_machine(url, tmp_path, checkpoint):
    """One more round from a committed checkpoint: it loads, deals its games, searches with its network and saves
    again, its counters going on, at the constant learning rate it was saved with (before --anneal-rounds)."""
    saved = torch.load(checkpoint, map_location="cpu", weights_only=False)
    assert checkpoint.stat().st_size < 8_000_000 and not {"replay", "games", "envs"} & saved.keys()
    proc = run("-m", "splendor_rl.alphazero", "--resume", str(checkpoint), "--out", str(tmp_path),
               "--rounds", str(saved["round"] + 1), "--minutes", "0", "--url", url, "--no-progress")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"{saved['round'] + 1} rounds, ")
    assert (tmp_path / "net.safetensors").exists()
    resumed = torch.load(tmp_path / "checkpoint.pt", map_location="cpu", weights_only=False)
    assert resumed["optimizer"]["param_groups"][0]["lr"] == saved["args"]["lr"]


@pytest.mark.parametrize("env_id", ["splendor-v1", "splendor-duel-v1"])
def test_alphazero_curve_and_network_play(url, tmp_path, env_id):
    alphazero(url, tmp_path, "--env", env_id, "--rounds", "80", "--eval-every", "40", "--eval-games", "8",
              "--eval-opponents", "greedy", "mcts:20", "--checkpoint-every", "40", "--teacher-rounds", "40",
              "--keep-nets")
    kept = tmp_path / "nets" / "round-40.safetensors", tmp_path / "nets" / "round-80.safetensors"
    assert sorted((tmp_path / "nets").iterdir()) == sorted(kept)
    last, final = load_file(kept[1]), load_file(tmp_path / "net.safetensors")
    assert last.keys() == final.keys() and all(torch.equal(last[k], final[k]) for k in final)
    with open(tmp_path / "curve.csv") as f:
        rows = list(csv.DictReader(f))
    assert [int(r["round"]) for r in rows] == [40, 80]
    for opponent in ("greedy", "mcts:20"):
        assert all(float(r[f"vs_{opponent}_low"]) <= float(r[f"vs_{opponent}"]) <= float(r[f"vs_{opponent}_high"])
                   for r in rows)
    assert any((tmp_path / "tb").iterdir())
    policy, opponent, wins, games, _ = parse(evaluate(url, "--policy", str(tmp_path / "net.safetensors"),
                                                      "--opponent", "greedy", "--games", "6"))
    assert (opponent, games) == ("greedy", 6)
    rated = run("-m", "splendor_rl.ladder", f"az={tmp_path / 'net.safetensors'}", "--deals", "1", "--url", url)
    assert rated.returncode == 0 and rated.stdout.startswith(f"ladder rating of az on {env_id}, 2 players: "), \
        rated.stderr


def test_evaluate_refuses_a_network_of_other_players_in_one_line(url, tmp_path):
    alphazero(url, tmp_path, "--rounds", "1", "--eval-every", "0")
    proc = run("-m", "splendor_rl.evaluate", "--url", url, "--policy", str(tmp_path / "net.safetensors"),
               "--players", "3", "--games", "2")
    assert proc.returncode == 2 and "trained with 2 players, not 3" in proc.stderr
    (tmp_path / "bad.safetensors").write_bytes(b"not a network")
    proc = run("-m", "splendor_rl.evaluate", "--url", url, "--policy", str(tmp_path / "bad.safetensors"))
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr


# A teacher that cannot search, and a network of another shape than the run's (a shipped 2 x 256 for TINY's 2 x 32).
@pytest.mark.parametrize("flag, value", [("--teacher", "greedy"), ("--teacher", "mcts:bogus=1"),
                                         ("--init", str(REPO / "baselines" / "splendor-v1-2p.safetensors"))])
def test_a_teacher_or_network_the_run_cannot_use_is_one_line(url, tmp_path, flag, value):
    proc = run("-m", "splendor_rl.alphazero", "--url", url, "--out", str(tmp_path), *TINY, flag, value, "--rounds", "1")
    assert proc.returncode == 1 and proc.stderr.strip().startswith(f"python -m splendor_rl.alphazero: {flag} {value}: ")
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_a_run_of_its_own_has_a_search_slot_per_core():
    from splendor_rl import Connection
    from splendor_rl.alphazero import own_server
    from splendor_rl.server import default_workers

    with own_server() as server, Connection(server.url) as connection:
        assert connection.hello["limits"]["search_slots"] == default_workers()
