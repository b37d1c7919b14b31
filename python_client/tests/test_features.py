"""The `features: derived` option (docs/envs/*.md, "Features"): the observation grows by the documented block and
keeps its default part unchanged."""

import numpy as np
import pytest

import splendor_rl

# env id: (default observation size, features block size, one seat's block size)
SIZES = {"splendor-v1": (442, 544, 136), "splendor-duel-v1": (673, 258, 129)}


@pytest.mark.parametrize("env_id", sorted(SIZES))
def test_features_extend_the_observation(url, env_id):
    base, block, _ = SIZES[env_id]
    plain = splendor_rl.make_vec(env_id, num_envs=4, seed=7, url=url)
    derived = splendor_rl.make_vec(env_id, num_envs=4, seed=7, url=url, features="derived")
    assert list(derived.spec_info["obs_shape"]) == [base + block]
    assert derived.single_observation_space.shape == (base + block,)
    obs, _ = derived.reset()
    assert obs.shape == (4, base + block) and obs.dtype == np.uint8
    plain_obs, _ = plain.reset()
    assert np.array_equal(obs[:, :base], plain_obs), "the default part is the default observation"
    plain.close()
    derived.close()


def test_fresh_deals_are_far_from_every_goal(url):
    """At the deal nobody has points, crowns or royals: the distances are the rules' thresholds."""
    base, _, seat = SIZES["splendor-v1"]
    envs = splendor_rl.make_vec("splendor-v1", num_envs=2, seed=1, url=url, players=3, features="derived")
    obs, _ = envs.reset()
    points = obs[:, base + 135: base + 4 * seat: seat]  # each seat block's last value
    assert points.tolist() == [[15, 15, 15, 0]] * 2, "three seats 15 points from winning, no fourth seat"
    envs.close()
    base, _, seat = SIZES["splendor-duel-v1"]
    envs = splendor_rl.make_vec("splendor-duel-v1", num_envs=2, seed=1, url=url, features="derived")
    obs, _ = envs.reset()
    goals = obs[:, base + 120: base + 2 * seat]  # seat 0 from its goals on, then seat 1
    for row in goals:
        assert row[:9].tolist() == [20, 10, 10, 10, 10, 10, 10, 10, 3]
        assert row[seat:seat + 9].tolist() == [20, 10, 10, 10, 10, 10, 10, 10, 3]
    envs.close()
