"""splendor_rl.ppo and `python -m splendor_rl.evaluate`, run as a user would, against the test server."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from splendor_rl import cli

from .conftest import HANG_SECONDS, subprocess_env

pytest.importorskip("torch")
pytest.importorskip("tqdm")

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
RESULT = re.compile(r"^policy (\S+) vs (\S+): (\d+)/(\d+) wins = (\d+\.\d)% "
                    r"\(95% CI (\d+\.\d)–(\d+\.\d)%\), (\d+) truncated(, \d+ draws)?$")


def run(*args: str, timeout: float = HANG_SECONDS) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=timeout,
                          env=subprocess_env())


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
    proc = run("-m", "splendor_rl.ppo", "--total-timesteps", "2048", "--num-envs", "4", "--num-steps", "64",
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
    assert model.config == {"obs_dim": 442, "num_actions": 78, "hidden": 256, "layers": 2, "activation": "tanh"}


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


def game_rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]


def finished(path: Path) -> int:
    """Complete game lines so far (after the header line)."""
    return max(0, path.read_bytes().count(b"\n") - 1) if path.exists() else 0


def test_evaluate_resumes_a_shorter_run(url, tmp_path):
    full = evaluate(url, "--games", "40", "--num-envs", "4")
    results = tmp_path / "games.jsonl"
    evaluate(url, "--games", "15", "--num-envs", "4", "--results", str(results))
    assert len(game_rows(results)) == 15
    assert evaluate(url, "--games", "40", "--num-envs", "3", "--results", str(results), "--resume") == full
    assert sorted(row["game"] for row in game_rows(results)) == list(range(40)), "each game played once"
    # Nothing left to play: the summary comes from the file alone.
    assert evaluate(url, "--games", "40", "--results", str(results), "--resume") == full
    proc = run("-m", "splendor_rl.evaluate", "--url", url, "--games", "40", "--seed", "1", "--results",
               str(results), "--resume")
    assert proc.returncode != 0 and "another run" in proc.stderr


def test_evaluate_resumes_a_checkpoint_policy_only_for_the_same_file(url, checkpoint, tmp_path):
    policy, results = tmp_path / "policy.pt", tmp_path / "games.jsonl"
    policy.write_bytes(checkpoint.read_bytes())
    evaluate(url, "--policy", str(policy), "--games", "4", "--results", str(results))
    resumed = evaluate(url, "--policy", str(policy), "--games", "10", "--results", str(results), "--resume")
    assert resumed == evaluate(url, "--policy", str(policy), "--games", "10")
    policy.write_bytes(checkpoint.read_bytes() + b"\0")  # another file at the same path
    proc = run("-m", "splendor_rl.evaluate", "--url", url, "--policy", str(policy), "--games", "10",
               "--results", str(results), "--resume")
    assert proc.returncode != 0 and "another run" in proc.stderr


def test_evaluate_resumes_a_killed_run(url, tmp_path):
    full = evaluate(url, "--games", "120", "--num-envs", "1")
    results = tmp_path / "games.jsonl"
    # One env plays the games one after another (about 20 ms each): killed after a few.
    proc = subprocess.Popen([sys.executable, "-m", "splendor_rl.evaluate", "--url", url, "--games", "120",
                             "--num-envs", "1", "--results", str(results)], stdout=subprocess.DEVNULL,
                            env=subprocess_env())
    deadline = time.monotonic() + 60
    while finished(results) < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    proc.kill()
    proc.wait(10)
    with results.open("a") as f:
        f.write('{"game": 11')  # a line the kill cut short
    assert 3 <= finished(results) < 120, "killed mid-run"
    assert evaluate(url, "--games", "120", "--num-envs", "4", "--results", str(results), "--resume") == full
    assert sorted(row["game"] for row in game_rows(results)) == list(range(120))


@pytest.fixture(scope="module")
def network(url, tmp_path_factory):
    """A small untrained network of splendor_rl.alphazero's kind for 4 players, a value per seat, as a portable
    file: what `ppo --init` fine-tunes."""
    import splendor_rl
    from splendor_rl import pvnet

    envs = splendor_rl.make_vec("splendor-v1", url=url, players=4, features="derived")
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    net = pvnet.PolicyValueNet(envs.single_observation_space.shape[0], envs.single_action_space.n, 16, 1, values=4)
    envs.close()
    path = tmp_path_factory.mktemp("init") / "net.safetensors"
    pvnet.save(net, str(path), "splendor-v1", {"features": "derived", "players": 4})
    return path


def test_ppo_fine_tunes_a_network_of_alphazero(url, network, tmp_path):
    """`--init NET`: PPO trains that network at its table (4 players, its features), here against a search bot,
    and saves it in its own portable format, which evaluate plays."""
    from safetensors.torch import load_file

    from splendor_rl import pvnet

    out = tmp_path / "tuned.safetensors"
    proc = run("-m", "splendor_rl.ppo", "--init", str(network), "--opponent", "mcts:10", "--total-timesteps", "256",
               "--num-envs", "4", "--num-steps", "32", "--eval-every", "256", "--eval-games", "4", "--save", str(out),
               "--url", url, "--no-progress")
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"eval argmax vs mcts:10 \d/4 = ", proc.stdout), proc.stdout
    assert pvnet.read_env(str(out)) == pvnet.read_env(str(network)) == ("splendor-v1",
                                                                        {"features": "derived", "players": 4})
    before, after = load_file(str(network)), load_file(str(out))
    assert before.keys() == after.keys()
    for key in ("trunk.0.weight", "policy.weight", "value.weight"):
        assert not (before[key] == after[key]).all(), f"{key} trained"
    assert (before["scale"] == after["scale"]).all()
    assert parse(evaluate(url, "--policy", str(out), "--players", "4", "--opponent", "greedy", "--games", "4"))[3] == 4


def test_ppo_kl_init_keeps_the_policy_near_the_init_network(url, network, tmp_path):
    """`--kl-init COEF` adds KL(the --init policy ‖ the trained one) to the loss: the same run, at a learning rate
    that moves the policy far, ends nearer its parent with it than without, measured on positions of its table."""
    import torch

    import splendor_rl
    from splendor_rl import pvnet
    from splendor_rl.ppo import kl

    def tuned(*extra: str):
        out = tmp_path / f"tuned{len(extra)}.safetensors"
        proc = run("-m", "splendor_rl.ppo", "--init", str(network), "--opponent", "random", "--url", url,
                   "--total-timesteps", "512", "--num-envs", "4", "--num-steps", "32", "--learning-rate", "0.03",
                   "--ent-coef", "0", "--eval-every", "0", "--eval-games", "0", "--save", str(out), "--no-progress",
                   *extra)
        assert proc.returncode == 0, proc.stderr
        return pvnet.load(str(out))[0]

    envs = splendor_rl.make_vec("splendor-v1", num_envs=64, url=url, players=4, features="derived")
    obs, infos = envs.reset(seed=5)
    envs.close()
    x, mask = torch.tensor(obs), torch.tensor(infos["action_mask"])
    with torch.no_grad():
        parent = pvnet.load(str(network))[0].evaluate(x, mask)[0]
        free, kept = (kl(parent, net.evaluate(x, mask)[0]).item() for net in (tuned(), tuned("--kl-init", "10")))
    assert kept < free / 10, (kept, free)


def test_ppo_kl_init_needs_an_init_network():
    proc = run("-m", "splendor_rl.ppo", "--kl-init", "1")
    assert proc.returncode == 2 and "--kl-init keeps the policy near the --init network's" in proc.stderr, proc.stderr


@pytest.mark.parametrize("args, message", [(["--init", "missing.safetensors"], "--init missing.safetensors: "),
                                           (["--save", "tuned.pt"], "--save tuned.pt: a fine-tuned network is saved")])
def test_ppo_refuses_an_init_it_cannot_use_in_one_line(network, args, message):
    proc = run("-m", "splendor_rl.ppo", "--init", str(network), *args)
    assert proc.returncode == 2 and message in proc.stderr and "Traceback" not in proc.stderr, proc.stderr


def test_ppo_refuses_an_unknown_bot_in_one_line(url):
    proc = run("-m", "splendor_rl.ppo", "--url", url, "--opponent", "mcts:fast", "--no-progress")
    assert proc.returncode == 1 and "BadOption" in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.count("\n") == 1, proc.stderr


@pytest.mark.parametrize("init", [False, True], ids=["mlp", "init"])
def test_ppo_resumes_bit_identically(url, network, tmp_path, init):
    """2 updates + resume for 2 more == 4 updates straight: weights, optimizer and counters; a new MLP's, or a
    fine-tuned network's."""
    import torch

    tiny = ["--url", url, "--num-envs", "2", "--num-steps", "16", "--num-minibatches", "2", "--update-epochs", "2",
            "--hidden", "16", "--layers", "1", "--eval-every", "0", "--eval-games", "0", "--no-progress",
            "--total-timesteps", "128", "--checkpoint-every", "2", *(["--init", str(network)] if init else [])]
    straight, resumed = tmp_path / "straight", tmp_path / "resumed"
    proc = run("-m", "splendor_rl.ppo", *tiny, "--checkpoint", f"{straight}_{{update}}.pt")
    assert proc.returncode == 0, proc.stderr
    # Only where the run goes on the command line: the rest comes from the checkpoint.
    proc = run("-m", "splendor_rl.ppo", "--url", url, "--no-progress", "--resume", f"{straight}_2.pt",
               "--checkpoint", f"{resumed}_{{update}}.pt")
    assert proc.returncode == 0, proc.stderr
    assert "resumed" in proc.stdout and "at update 2" in proc.stdout
    a, b, mid = (torch.load(f"{p}.pt", weights_only=True) for p in (f"{straight}_4", f"{resumed}_4",
                                                                    f"{straight}_2"))
    assert a["train"]["update"] == b["train"]["update"] == 4
    assert a["config"].get("values") == (4 if init else None), "the network trained is the --init one"
    assert any(not torch.equal(a["state_dict"][k], mid["state_dict"][k]) for k in a["state_dict"]), "it trained"
    assert same(a["state_dict"], b["state_dict"]) and same(a["train"], b["train"])


def same(x, y) -> bool:
    """Equal, tensors bit for bit, through nested dicts, lists and tuples."""
    import torch

    if isinstance(x, torch.Tensor):
        return isinstance(y, torch.Tensor) and x.dtype == y.dtype and torch.equal(x, y)
    if isinstance(x, dict):
        return isinstance(y, dict) and x.keys() == y.keys() and all(same(x[k], y[k]) for k in x)
    if isinstance(x, (list, tuple)):
        return type(x) is type(y) and len(x) == len(y) and all(same(u, v) for u, v in zip(x, y))
    return x == y


def test_evaluate_plays_duel(url):
    first = evaluate(url, "--env", "splendor-duel-v1", "--opponent", "greedy", "--games", "4", "--num-envs", "2")
    assert parse(first)[:2] == ("random", "greedy") and parse(first)[3] == 4
    assert evaluate(url, "--env", "splendor-duel-v1", "--opponent", "greedy", "--games", "4") == first


@pytest.mark.parametrize("env_id", ["splendor-v1", "splendor-duel-v1"])
def test_evaluate_a_built_in_bot_as_the_policy(url, env_id):
    """`--policy mcts:…` is the server's bot in the policy's seat, seeded per game and decision: the result does
    not depend on the batching, and a small search already beats random."""
    args = ("--env", env_id, "--policy", "mcts:iterations=40", "--opponent", "random", "--games", "6")
    first = evaluate(url, *args, "--num-envs", "3")
    name, opponent, wins, games, _ = parse(first)
    assert (name, opponent, games) == ("mcts:iterations=40", "random", 6) and wins >= 4
    assert evaluate(url, *args, "--num-envs", "2") == first


def test_evaluate_refuses_an_unknown_bot_in_one_line(url):
    proc = run("-m", "splendor_rl.evaluate", "--url", url, "--games", "2", "--opponent", "mcts:fast")
    assert proc.returncode == 1 and "BadOption" in proc.stderr and "Traceback" not in proc.stderr, proc.stderr


def test_evaluate_dead_url_is_one_line(free_url):
    proc = run("-m", "splendor_rl.evaluate", "--url", free_url, "--games", "2")
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert "ServerUnreachable" in proc.stderr and free_url in proc.stderr and "make run" in proc.stderr


def test_ppo_trains_on_duel_and_evaluate_follows_the_checkpoint(url, tmp_path):
    path = tmp_path / "duel.pt"
    proc = run("-m", "splendor_rl.ppo", "--env", "splendor-duel-v1", "--total-timesteps", "64", "--num-envs", "2",
               "--num-steps", "32", "--eval-every", "64", "--eval-games", "2", "--hidden", "16", "--layers", "1",
               "--save", str(path), "--url", url, "--no-progress")
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"eval argmax vs random \d/2 = ", proc.stdout), proc.stdout
    import splendor_rl
    from splendor_rl.policy import load_checkpoint

    model, ckpt = load_checkpoint(str(path))
    duel = splendor_rl.make_vec("splendor-duel-v1", url=url)
    assert ckpt["args"]["env"] == "splendor-duel-v1"
    assert (model.config["obs_dim"], model.config["num_actions"]) == (duel.single_observation_space.shape[0],
                                                                      duel.single_action_space.n)
    duel.close()
    assert parse(evaluate(url, "--policy", str(path), "--games", "2"))[3] == 2, "the checkpoint's env by default"
    proc = run("-m", "splendor_rl.evaluate", "--url", url, "--policy", str(path), "--env", "splendor-v1")
    assert proc.returncode == 2 and "trained on splendor-duel-v1" in proc.stderr


@pytest.mark.parametrize("flag, value, nearest", [("--total-timesteps", "1000", "pass 768 or 1024"),
                                                  ("--eval-every", "100", "pass 256")])
def test_ppo_refuses_steps_that_are_not_whole_rollouts(flag, value, nearest, capsys):
    from splendor_rl import ppo
    rollout = ["--num-envs", "4", "--num-steps", "64"]
    assert ppo.parse_args([*rollout, "--total-timesteps", "1024", "--eval-every", "256"]).num_iterations == 4
    with pytest.raises(SystemExit):
        ppo.parse_args([*rollout, "--total-timesteps", "1024", "--eval-every", "256", flag, value])
    err = capsys.readouterr().err
    assert f"{flag} {value} is not a multiple of a rollout" in err and nearest in err, err
    ppo.parse_args([])  # the defaults are whole rollouts


def test_evaluate_a_missing_or_broken_checkpoint_is_one_line(tmp_path):
    broken = tmp_path / "broken.pt"
    broken.write_text("not a checkpoint")
    for policy, reason in (("missing.pt", "No such file or directory"), (str(broken), "")):
        proc = run("-m", "splendor_rl.evaluate", "--policy", policy, "--games", "2")
        assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
        assert proc.stderr.startswith(f"python -m splendor_rl.evaluate: error: cannot load {policy!r} as a "
                                      "checkpoint") and reason in proc.stderr, proc.stderr


def test_evaluate_a_lost_connection_says_how_to_resume(tmp_path):
    from splendor_rl import LocalServer

    results = tmp_path / "games.jsonl"
    with LocalServer() as srv:
        proc = subprocess.Popen([sys.executable, "-m", "splendor_rl.evaluate", "--url", srv.url, "--games", "100000",
                                 "--num-envs", "1", "--results", str(results)], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=subprocess_env())
        deadline = time.monotonic() + 60
        while finished(results) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        srv.process.kill()  # no close frame: 1006, mid-game
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 1 and err.count("\n") == 1, err
    assert err.startswith("splendor_rl.evaluate: ConnectionLost:") and "reconnect=True" not in err
    assert f"the games finished are in {results}: run the same command with --resume" in err


@pytest.mark.parametrize("tool", [*(str(EXAMPLES / name) for name in ("mcts.py", "search_bench.py")),
                                  *(f"-m splendor_rl.{name}" for name in ("alphazero", "ppo", "league", "arena", "ladder",
                                                                          "evaluate", "movetime"))])
def test_help_describes_the_tool_whole_and_shows_the_defaults(tool):
    proc = run(*tool.split(), "--help")
    assert proc.returncode == 0, proc.stderr
    description = " ".join(proc.stdout.split("\n\n")[1].split())
    assert description.endswith("."), f"cut mid-sentence: {description!r}"
    assert "default: " in proc.stdout and "default: None" not in proc.stdout


def test_every_option_with_a_default_says_it():
    p = cli.parser("Plays games.\n\nMore.", "tool")
    p.add_argument("--games", type=int, default=32)
    p.add_argument("--url", default=None, help="a server")
    p.add_argument("--out", default="runs", help="where (default: runs/NAME)")
    p.add_argument("--fast", action="store_true")
    text = " ".join(p.format_help().split())
    assert "Plays games. options:" in text and "More" not in text
    assert "--games GAMES default: 32" in text and "--url URL a server --out" in text
    assert "(default: runs/NAME) --fast" in text
