import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import splendor_rl


def test_check_env(url):
    env = splendor_rl.make(url=url)
    check_env(env, skip_render_check=True)
    env.close()


def test_single_env_plays_one_seat_against_bots(url):
    env = splendor_rl.make(url=url, seed=3, bots="greedy")
    obs, info = env.reset(seed=3)
    assert obs.shape == (423,) and info["action_mask"].dtype == np.bool_
    rng = np.random.default_rng(3)
    done, steps, reward = False, 0, 0.0
    while not done:
        action = rng.choice(np.flatnonzero(env.action_masks()))
        obs, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated
        steps += 1
    assert reward in (-1.0, 0.0, 1.0)
    assert not env.action_masks().any(), "no legal action once the episode is over"
    with pytest.raises(splendor_rl.IllegalAction):
        env.step(0)  # autoreset is off for a single env: reset first
    env.close()


def test_illegal_action_forfeits_by_default(url):
    env = splendor_rl.make(url=url, seed=1, players=3)
    env.reset(seed=1)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, _, _ = env.step(illegal)
    assert terminated and reward == -1.0
    env.close()


def test_maskable_ppo_runs_unmodified(url):
    sb3_contrib = pytest.importorskip("sb3_contrib")
    env = splendor_rl.make(url=url, seed=0)
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1, seed=0, verbose=0)
    model.learn(total_timesteps=128)
    obs, _ = env.reset(seed=5)
    action, _ = model.predict(obs, action_masks=env.action_masks())
    assert env.action_masks()[action], "MaskablePPO picked a legal action"
    env.close()
