import gymnasium
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
    assert obs.shape == (442,) and info["action_mask"].dtype == np.bool_
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


@pytest.mark.parametrize("gym_id", splendor_rl.GYM_IDS)
def test_gymnasium_make(url, gym_id):
    env = gymnasium.make(gym_id, url=url, seed=4, bots="greedy")
    assert env.spec.id == gym_id and isinstance(env.unwrapped, splendor_rl.SplendorEnv)
    assert env.unwrapped._vec.spec_info["id"] == splendor_rl.GYM_IDS[gym_id] == gym_id.split("/")[1]
    with pytest.warns(UserWarning, match="wrapper"):  # check_env would rather see the unwrapped env; it passes
        check_env(env, skip_render_check=True)
    env.close()


@pytest.mark.parametrize("gym_id", splendor_rl.GYM_IDS)
def test_gymnasium_make_vec_plays_what_make_plays(url, gym_id):
    envs = gymnasium.make_vec(gym_id, num_envs=3, vectorization_mode="vector_entry_point", url=url, seed=2)
    assert isinstance(envs, splendor_rl.SplendorVectorEnv) and envs.spec.id == gym_id
    assert envs.spec_info["id"] == splendor_rl.GYM_IDS[gym_id]
    obs, _ = envs.reset()
    seats = []
    for i in range(3):  # env i of the batch is dealt like a single env seeded 2 + i: one seat against bots
        env = gymnasium.make(gym_id, url=url, seed=2 + i)
        single, info = env.reset()
        assert np.array_equal(obs[i], single)
        seats.append(info["seat"])
        env.close()
    assert 1 in seats, "some env has its bot move first, which self-play would not do"
    envs.close()


def test_sb3_make_vec_env_with_the_gymnasium_id(url):
    pytest.importorskip("sb3_contrib")
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.env_util import make_vec_env

    drawn = gymnasium.make("splendor_rl/splendor-v1", url=url, render_mode="rgb_array")  # as make_vec_env makes it
    assert drawn.render_mode == "rgb_array"
    drawn.close()
    venv = make_vec_env("splendor_rl/splendor-v1", n_envs=4, env_kwargs={"url": url})
    venv.reset()
    masks = get_action_masks(venv)
    assert masks.shape == (4, venv.action_space.n) and masks.any(axis=1).all()
    venv.close()
