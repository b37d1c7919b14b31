"""Splendor Duel through the same client, unchanged."""

import numpy as np
from gymnasium.utils.env_checker import check_env

import splendor_rl

from .test_vector import random_legal


def test_duel_vector_env(url):
    envs = splendor_rl.make_vec("splendor-duel-v1", num_envs=8, seed=1, url=url)
    assert envs.single_observation_space.shape == (673,)
    assert envs.single_action_space.n == 281
    _, infos = envs.reset()
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(1500):
        _, rewards, terminated, truncated, infos = envs.step(random_legal(infos["action_mask"], rng))
        ended += int(terminated.sum())
        assert np.allclose(infos["seat_rewards"].sum(axis=1), 0)
    assert ended > 0
    envs.close()


def test_duel_single_env_and_aec(url):
    env = splendor_rl.make("splendor-duel-v1", url=url, bots="greedy")
    check_env(env, skip_render_check=True)
    env.close()
    aec = splendor_rl.make_aec("splendor-duel-v1", url=url, seed=2)
    aec.reset(seed=2)
    rng = np.random.default_rng(2)
    for agent in aec.agent_iter(20000):
        obs, _, terminated, truncated, _ = aec.last()
        aec.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert not aec.agents
    aec.close()
