"""splendor_rl.rllib: the MultiAgentEnv contract on its own, then PPO on a local Ray cluster (the `rllib` extra)."""

from __future__ import annotations

import math
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import splendor_rl

pytest.importorskip("ray.rllib")
pytest.importorskip("torch")
import ray  # noqa: E402
from ray.rllib.algorithms.ppo import PPOConfig  # noqa: E402
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec  # noqa: E402
from ray.rllib.core.rl_module.rl_module import RLModuleSpec  # noqa: E402
from ray.rllib.env.env_context import EnvContext  # noqa: E402
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule  # noqa: E402
from ray.tune.registry import ENV_CREATOR, _global_registry  # noqa: E402

from splendor_rl.rllib import SplendorMultiAgentEnv  # noqa: E402

from .conftest import HANG_SECONDS, subprocess_env  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "rllib_ppo.py"

GAMES = [("splendor-v1", 2), ("splendor-v1", 3), ("splendor-v1", 4), ("splendor-duel-v1", 2)]


def legal(obs: dict, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(obs["action_mask"])))


def play(env: SplendorMultiAgentEnv, seed: int, reset_seed: int | None = None) -> list[tuple]:
    """A game of random legal moves to the end: (agent, action, observation bytes) per decision."""
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=reset_seed)
    trajectory = []
    while True:
        (agent, seen), = obs.items()
        action = legal(seen, rng)
        trajectory.append((agent, action, seen["observations"].tobytes()))
        obs, _, terminateds, truncateds, _ = env.step({agent: action})
        if terminateds["__all__"] or truncateds["__all__"]:
            return trajectory


@pytest.mark.parametrize("env_id, players", GAMES)
def test_only_the_seat_to_play_observes_and_every_seat_is_paid_at_the_end(url, env_id, players):
    env = SplendorMultiAgentEnv({"players": players, "seed": 11, "url": url}, env_id)
    assert env.possible_agents == [f"player_{i}" for i in range(players)]
    rng = np.random.default_rng(11)
    obs, infos = env.reset()
    totals = dict.fromkeys(env.possible_agents, 0.0)
    movers = set()
    for _ in range(5000):
        assert list(obs) == [env.to_play], "one observation: the seat to play's"
        agent = env.to_play
        assert env.observation_spaces[agent].contains(obs[agent])
        movers.add(agent)
        obs, rewards, terminateds, truncateds, infos = env.step({agent: legal(obs[agent], rng)})
        assert set(rewards) == set(env.possible_agents) and set(terminateds) == set(truncateds) == {"__all__"}
        for a, r in rewards.items():
            totals[a] += r
        if terminateds["__all__"] or truncateds["__all__"]:
            break
    else:
        pytest.fail("no end within 5000 decisions")
    assert movers == set(env.possible_agents)
    assert set(obs) == set(env.possible_agents), "every seat's final view, for bootstrapping a truncated game"
    assert all(not o["action_mask"].any() for o in obs.values())
    assert sum(totals.values()) == pytest.approx(0, abs=1e-6), "zero-sum"
    if terminateds["__all__"]:
        assert max(totals.values()) > 0 > min(totals.values())
    env.close()


def test_only_the_seat_to_play_may_act(url):
    env = SplendorMultiAgentEnv({"players": 3, "url": url})
    obs, _ = env.reset()
    other = next(a for a in env.possible_agents if a != env.to_play)
    action = legal(obs[env.to_play], np.random.default_rng(0))
    with pytest.raises(ValueError, match=f"only {env.to_play} is to play"):
        env.step({other: action})
    with pytest.raises(ValueError, match="only"):
        env.step({env.to_play: action, other: action})
    env.step({env.to_play: action})
    env.close()


def test_an_illegal_action_raises_and_changes_nothing(url):
    env = SplendorMultiAgentEnv({"url": url, "seed": 2}, "splendor-duel-v1")
    obs, _ = env.reset()
    agent, mask = env.to_play, obs[env.to_play]["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(splendor_rl.IllegalAction, match=f"{agent} chose action {illegal} .* action_mask forbids"):
        env.step({agent: illegal})
    assert env.to_play == agent
    env.step({agent: int(np.flatnonzero(mask)[0])})
    env.close()


def test_the_same_config_replays_the_same_games(url):
    config = {"players": 3, "seed": 5, "url": url}
    first = SplendorMultiAgentEnv(config)
    games = [play(first, seed=1), play(first, seed=2)]  # the env's first two deals
    replayed = play(first, seed=1, reset_seed=40)
    first.close()
    again = SplendorMultiAgentEnv(config)
    assert [play(again, seed=1), play(again, seed=2)] == games
    assert play(again, seed=1, reset_seed=40) == replayed
    again.close()
    other = SplendorMultiAgentEnv({**config, "seed": 6})
    assert play(other, seed=1) != games[0]
    other.close()


def test_runners_and_the_envs_of_one_runner_deal_different_games(url):
    """RLlib gives every env of a multi-agent runner the same EnvContext, and the checker resets all with 42."""
    def first_view(env):
        obs, _ = env.reset(seed=42)
        return next(iter(obs.values()))["observations"].tobytes()

    runner_1a = SplendorMultiAgentEnv(EnvContext({"url": url}, worker_index=1))
    runner_1b = SplendorMultiAgentEnv(EnvContext({"url": url}, worker_index=1))
    runner_2 = SplendorMultiAgentEnv(EnvContext({"url": url}, worker_index=2))
    views = [first_view(e) for e in (runner_1a, runner_1b, runner_2)]
    assert len(set(views)) == 3
    runner_1a.close()
    remade = SplendorMultiAgentEnv(EnvContext({"url": url}, worker_index=1))  # takes the freed slot
    assert first_view(remade) == views[0]
    for env in (remade, runner_1b, runner_2):
        env.close()


def test_a_url_list_gives_each_runner_one_server(url, free_url):
    urls = [url, free_url]
    SplendorMultiAgentEnv(EnvContext({"url": urls}, worker_index=2)).close()
    with pytest.raises(splendor_rl.ServerUnreachable):
        SplendorMultiAgentEnv(EnvContext({"url": urls}, worker_index=1))


def test_options_the_adapter_sets_are_refused(url):
    with pytest.raises(ValueError, match="obs_seats"):
        SplendorMultiAgentEnv({"url": url, "options": {"obs_seats": "to_play"}})


@pytest.mark.parametrize("env_id, obs_size", [("splendor-v1", 442), ("splendor-duel-v1", 673)])
def test_registered_with_ray_tune(url, env_id, obs_size):
    env = _global_registry.get(ENV_CREATOR, env_id)(EnvContext({"url": url}, worker_index=0))
    assert env.observation_spaces["player_0"]["observations"].shape == (obs_size,)
    env.close()


def test_the_example_trains_and_evaluates():
    """examples/rllib_ppo.py as a user runs it (its own Ray), on a tiny budget."""
    proc = subprocess.run([sys.executable, str(EXAMPLE), "--iterations", "1", "--batch", "400", "--eval-games", "4",
                           "--num-env-runners", "1"], capture_output=True, text=True, timeout=HANG_SECONDS,
                          env=subprocess_env())
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert re.search(r"^iter 1: episode return [-+]\d\.\d{3} \(player_0 [-+]\d\.\d{3} player_1 [-+]\d\.\d{3}\), "
                     r"length \d+, \d+ env steps, \d+ env steps/s$", proc.stdout, re.M), proc.stdout
    for name in ("untrained", "trained"):
        assert re.search(rf"^policy {name} vs random: \d/4 wins = .*\(95% CI", proc.stdout, re.M), proc.stdout


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def ppo_config(env_id: str, players: int, num_env_runners: int, module_class=ActionMaskingTorchRLModule):
    """Tiny PPO: the point is the plumbing, not the play."""
    return (
        PPOConfig()
        .environment(env_id, env_config={"players": players, "seed": 3}, disable_env_checking=True)
        .env_runners(num_env_runners=num_env_runners, num_envs_per_env_runner=1)
        # A failed runner must fail training: restarting it would hide an illegal action.
        .fault_tolerance(restart_failed_env_runners=False)
        .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent_id, episode, **kwargs: "shared")
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"shared": RLModuleSpec(
            module_class=module_class, model_config={"fcnet_hiddens": [32], "head_fcnet_hiddens": [32]})}))
        .training(train_batch_size_per_learner=400, minibatch_size=100, num_epochs=2)
        .debugging(seed=3)
    )


@pytest.mark.parametrize("env_id, players", [("splendor-v1", 3), ("splendor-duel-v1", 2)])
def test_ppo_learns_from_legal_actions_only(local_ray, env_id, players):
    """Two env runners, each with its own local server; an illegal action would raise in a runner and fail
    `train()` (restarts are off)."""
    algo = ppo_config(env_id, players, num_env_runners=2).build_algo()
    try:
        for _ in range(2):
            result = algo.train()
    finally:
        algo.stop()
    assert result["env_runners"]["num_env_steps_sampled"] >= 400
    assert result["env_runners"]["num_episodes"] > 0, "games ended within the batch"
    stats = result["learners"]["shared"]
    for name in ("total_loss", "policy_loss", "vf_loss", "entropy", "mean_kl_loss"):
        assert math.isfinite(stats[name]), (name, stats[name])
    assert stats["entropy"] > 0


def test_rllibs_env_checker_passes_with_forfeit_and_fails_with_error(url):
    """RLlib's checker resets with seed 42 and steps once with an action sampled from the whole action space,
    mask unseen: usually illegal. Under `illegal_action: forfeit` that ends the game as the seat's loss, a valid
    step; under the default `error` the env raises. 20 checks each: the chance that `error` draws a legal action
    every time is below 1e-15."""
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments

    for policy, refusals in (("forfeit", 0), ("error", range(1, 21))):
        env = SplendorMultiAgentEnv({"url": url, "options": {"illegal_action": policy}})
        failed = 0
        for _ in range(20):
            try:
                check_multiagent_environments(env)
            except ValueError as exc:
                assert "action_mask forbids" in "".join(str(e) for e in _chain(exc))
                failed += 1
        env.close()
        assert failed in (refusals or [0]), (policy, failed)


def test_ppo_runs_with_the_env_checker_on_under_forfeit(local_ray):
    """The real thing: an algorithm built with RLlib's env checker on (a local runner checks its env while it is
    built), then one training iteration."""
    config = ppo_config("splendor-v1", 2, num_env_runners=0).environment(
        env_config={"players": 2, "seed": 3, "options": {"illegal_action": "forfeit"}}, disable_env_checking=False)
    algo = config.build_algo()
    try:
        result = algo.train()
    finally:
        algo.stop()
    assert result["env_runners"]["num_env_steps_sampled"] >= 400


class IgnoresTheMask(ActionMaskingTorchRLModule):
    def _mask_action_logits(self, batch, action_mask):
        return batch


def test_a_policy_that_ignores_the_mask_fails_training(local_ray):
    # No remote runner: sampling runs in this process, where the test's module class is importable.
    algo = ppo_config("splendor-v1", 2, num_env_runners=0, module_class=IgnoresTheMask).build_algo()
    try:
        with pytest.raises(Exception) as failed:
            algo.train()
    finally:
        algo.stop()
    assert "action_mask forbids" in "".join(str(e) for e in _chain(failed.value))


def _chain(error: BaseException):
    while error is not None:
        yield error
        error = error.__cause__ or error.__context__
