import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import splendor_rl
from splendor_rl import Connection


def random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row (0 for a row with none)."""
    noise = rng.random(masks.shape) * masks
    return noise.argmax(axis=1)


def test_shapes_and_dtypes(url):
    envs = splendor_rl.make_vec("splendor-v1", num_envs=5, seed=3, url=url, players=3)
    obs, infos = envs.reset()
    assert obs.shape == (5, 442) and obs.dtype == np.uint8
    assert envs.single_observation_space.shape == (442,)
    assert envs.action_space.shape == (5,)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert infos["action_mask"].shape == (5, 78) and infos["action_mask"].dtype == np.bool_
    assert infos["seat_rewards"].shape == (5, 3)
    obs, rewards, terminated, truncated, infos = envs.step(random_legal(infos["action_mask"], np.random.default_rng(0)))
    assert rewards.shape == (5,) and rewards.dtype == np.float32
    assert terminated.dtype == np.bool_ and truncated.shape == (5,)
    assert obs in envs.observation_space
    envs.close()


def test_float32_observations(url):
    envs = splendor_rl.make_vec(num_envs=2, url=url, obs_dtype="float32")
    obs, _ = envs.reset()
    assert obs.dtype == np.float32 and envs.single_observation_space.dtype == np.float32
    envs.close()


def trajectory(url, seed, steps=300):
    envs = splendor_rl.make_vec(num_envs=8, seed=seed, url=url)
    rng = np.random.default_rng(seed)
    obs, infos = envs.reset()
    frames = [obs.copy()]
    for _ in range(steps):
        obs, rewards, terminated, truncated, infos = envs.step(random_legal(infos["action_mask"], rng))
        frames += [obs.copy(), infos["action_mask"].copy(), rewards.copy(), terminated.copy(), truncated.copy()]
    envs.close()
    return frames


def test_same_seeds_same_arrays(url):
    a, b = trajectory(url, 11), trajectory(url, 11)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    c = trajectory(url, 12, steps=1)
    assert not np.array_equal(a[0], c[0])


def test_random_play_respects_masks_for_thousands_of_steps(url):
    envs = splendor_rl.make_vec(num_envs=16, seed=5, url=url, players=4)
    rng = np.random.default_rng(5)
    _, infos = envs.reset()
    episodes = 0
    for _ in range(2000):  # 32,000 env steps; an illegal action would raise IllegalAction
        _, rewards, terminated, truncated, infos = envs.step(random_legal(infos["action_mask"], rng))
        episodes += int(terminated.sum() + truncated.sum())
        assert np.allclose(infos["seat_rewards"].sum(axis=1), 0, atol=1e-5)
    assert episodes > 20
    envs.close()


def test_seeds_reset_and_reset_mask(url):
    envs = splendor_rl.make_vec(num_envs=3, seed=40, url=url, autoreset="disabled")
    first, _ = envs.reset()
    first = first.copy()
    again, _ = envs.reset(seed=40)
    assert np.array_equal(first, again), "seed s deals env i from s + i, like make's seed"
    listed, _ = envs.reset(seed=[40, 41, 42])
    assert np.array_equal(first, listed)
    other, _ = envs.reset(seed=[7, 41, 42])
    assert not np.array_equal(first[0], other[0]) and np.array_equal(first[1:], other[1:])
    partial, _ = envs.reset(seed=[40], options={"reset_mask": np.array([True, False, False])})
    assert np.array_equal(partial, first)
    envs.close()


def test_same_step_autoreset_reports_final_observations(url):
    envs = splendor_rl.make_vec(num_envs=4, seed=2, url=url, autoreset="same_step", max_rounds=2)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    rng = np.random.default_rng(2)
    _, infos = envs.reset()
    seen = 0
    for _ in range(30):
        _, _, terminated, truncated, infos = envs.step(random_legal(infos["action_mask"], rng))
        ended = infos["_final_obs"]
        assert np.array_equal(ended, terminated | truncated)
        assert not infos["final_obs"][~ended].any()
        seen += int(ended.sum())
        assert infos["action_mask"].any(axis=1).all(), "same_step: every env can act at once"
    assert seen > 0
    envs.close()


def test_send_recv_overlaps_two_batches_on_one_connection(url):
    with Connection(url) as conn:
        left = splendor_rl.SplendorVectorEnv(num_envs=4, seed=1, connection=conn)
        right = splendor_rl.SplendorVectorEnv(num_envs=4, seed=1, connection=conn)
        _, li = left.reset()
        _, ri = right.reset()
        rng = np.random.default_rng(0)
        for _ in range(50):
            left.send(random_legal(li["action_mask"], rng))
            right.send(random_legal(ri["action_mask"], rng))  # sent before left's reply is read
            assert conn.in_flight == 2
            lo, *_, li = left.recv()
            ro, *_, ri = right.recv()
        assert lo.shape == ro.shape == (4, 442)
        left.close()
        right.close()


def test_rewards_are_the_acting_seats(url):
    envs = splendor_rl.make_vec(num_envs=8, seed=9, url=url)
    rng = np.random.default_rng(9)
    _, infos = envs.reset()
    checked = 0
    for _ in range(400):
        acting = infos["to_play"].copy()
        _, rewards, terminated, _, infos = envs.step(random_legal(infos["action_mask"], rng))
        for i in np.flatnonzero(terminated):
            assert rewards[i] == infos["seat_rewards"][i, acting[i]] != 0
            checked += 1
    assert checked > 0
    envs.close()


def test_illegal_action_raises_and_changes_nothing(url):
    envs = splendor_rl.make_vec(num_envs=2, seed=4, url=url)
    obs, infos = envs.reset()
    obs = obs.copy()
    bad = random_legal(infos["action_mask"], np.random.default_rng(1))
    bad[1] = 71  # pass: illegal at the start
    with pytest.raises(splendor_rl.IllegalAction) as err:
        envs.step(bad)
    assert err.value.envs == [1]
    twin = splendor_rl.make_vec(num_envs=2, seed=4, url=url)
    twin.reset()
    good = random_legal(infos["action_mask"], np.random.default_rng(2))
    a, *_ = envs.step(good)
    b, *_ = twin.step(good)
    assert np.array_equal(a, b)
    envs.close()
    twin.close()


def test_replies_larger_than_a_frame(url):
    """A reply over the server's 1 MiB write buffer arrives in several WebSocket frames and is reassembled."""
    envs = splendor_rl.make_vec(num_envs=4000, seed=6, url=url)
    obs, infos = envs.reset()
    assert obs.shape == (4000, 442)
    single = splendor_rl.make_vec(num_envs=1, seed=6 + 3999, url=url)
    last, _ = single.reset()
    assert np.array_equal(obs[3999], last[0]), "env i of a batch made with seed s is dealt from s + i"
    envs.step(random_legal(infos["action_mask"], np.random.default_rng(0)))
    envs.close()
    single.close()


def test_arrays_from_a_step_stay_valid_after_the_next(url):
    """Each reply lands in a buffer of its own, so arrays kept from one step (a rollout buffer's rows) are not
    overwritten by the next replies."""
    envs = splendor_rl.make_vec(num_envs=8, seed=9, url=url)
    rng = np.random.default_rng(3)
    obs, infos = envs.reset()
    kept = [(obs, infos["action_mask"])]
    for _ in range(5):
        obs, rewards, terminated, truncated, infos = envs.step(random_legal(infos["action_mask"], rng))
        kept.append((obs, infos["action_mask"]))
    copies = [(o.copy(), m.copy()) for o, m in kept]
    for _ in range(5):
        *_, infos = envs.step(random_legal(infos["action_mask"], rng))
    for (o, m), (o2, m2) in zip(kept, copies):
        assert np.array_equal(o, o2) and np.array_equal(m, m2)
    assert not all(np.array_equal(kept[0][0], o) for o, _ in kept[1:]), "the steps changed nothing: a vacuous test"
    envs.close()
