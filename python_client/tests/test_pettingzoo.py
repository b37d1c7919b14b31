import numpy as np
import pytest

import splendor_rl

pettingzoo = pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test  # noqa: E402


@pytest.mark.parametrize("players", [2, 3])
def test_api(url, players):
    env = splendor_rl.make_aec(url=url, players=players, seed=1)
    api_test(env, num_cycles=1000)
    env.close()


def test_self_play_game_to_the_end(url):
    env = splendor_rl.make_aec(url=url, players=2, seed=8)
    env.reset(seed=8)
    rng = np.random.default_rng(8)
    totals = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter(5000):
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].any()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert not env.agents, "the game ended"
    assert sum(totals.values()) == pytest.approx(0)
    assert sorted(totals.values()) in ([-1.0, 1.0], [0.0, 0.0])
    env.close()


def test_step_none_is_only_for_agents_that_are_done(url):
    env = splendor_rl.make_aec(url=url, seed=3)
    env.reset(seed=3)
    agent = env.agent_selection
    with pytest.raises(splendor_rl.IllegalAction, match="only for agents that are done"):
        env.step(None)
    assert env.agent_selection == agent, "nothing was stepped"
    with pytest.raises(splendor_rl.BadShape, match="integers"):
        env.step(0.5)
    with pytest.raises(splendor_rl.BadSeed):
        env.reset(seed=1.5)
    env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))
    env.close()
    with pytest.raises(splendor_rl.EnvClosed):
        env.reset()


@pytest.mark.parametrize("env_id, name", [("splendor-v1", "splendor_v1"), ("splendor-duel-v1", "splendor_duel_v1")])
def test_metadata_name_is_the_env_id(url, env_id, name):
    env = splendor_rl.make_aec(env_id, url=url)
    assert env.metadata["name"] == name and splendor_rl.aec.SplendorAEC.metadata["name"] == "splendor_v1"
    env.close()


@pytest.mark.parametrize("env_id, players", [("splendor-v1", 3), ("splendor-duel-v1", 2)])
def test_a_waiting_agents_observation_follows_the_table(url, env_id, players):
    """observe(agent) is that agent's current view, not the one from its last decision: a seat that has not
    decided yet sees the table, and sees it change while others play."""
    env = splendor_rl.make_aec(env_id, url=url, players=players, seed=3)
    env.reset(seed=3)
    last = env.possible_agents[-1]  # plays last: waits through the first decisions
    before = env.observe(last)["observation"].copy()
    assert before.any(), "a seat that has not decided yet sees the table"
    space = env.observation_space(last)["observation"]
    assert before.shape == space.shape and space.contains(before)
    mask = env.observe(env.agent_selection)["action_mask"]
    env.step(int(np.flatnonzero(mask)[0]))  # the first seat takes tokens or reserves: the table changes
    if env.agent_selection != last:
        assert not np.array_equal(before, env.observe(last)["observation"]), "the waiting agent sees the change"
    env.close()
