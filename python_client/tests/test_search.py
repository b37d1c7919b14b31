"""Search over the wire: states round-trip exactly, bad ones are refused, forks copy, bots advise."""

import numpy as np
import pytest

import splendor_rl
from splendor_rl.errors import BadState


def random_legal(infos, rng):
    keys = rng.random(infos["action_mask"].shape) * infos["action_mask"]
    return keys.argmax(axis=1)


@pytest.mark.parametrize("env_id", ["splendor-v1", "splendor-duel-v1"])
def test_set_state_of_get_state_continues_identically(url, env_id):
    a = splendor_rl.make_vec(env_id, num_envs=8, seed=1, url=url)
    b = splendor_rl.make_vec(env_id, num_envs=8, seed=50, url=url)
    rng = np.random.default_rng(0)
    _, infos = a.reset()
    b.reset()
    for _ in range(30):
        obs_a, _, _, _, infos = a.step(random_legal(infos, rng))
    obs_b, infos_b = b.set_state(a.get_state())
    np.testing.assert_array_equal(obs_b, obs_a)
    np.testing.assert_array_equal(infos_b["action_mask"], infos["action_mask"])
    for _ in range(40):
        actions = random_legal(infos, rng)
        oa, ra, ta, ua, infos = a.step(actions)
        ob, rb, tb, ub, _ = b.step(actions)
        for x, y in ((oa, ob), (ra, rb), (ta, tb), (ua, ub)):
            np.testing.assert_array_equal(x, y)
    with pytest.raises(BadState):
        b.set_state(["garbage"], env_ids=[0])
    a.close()
    b.close()


def test_fork_determinize_and_bot_actions(url):
    envs = splendor_rl.make_vec("splendor-v1", num_envs=4, seed=3, url=url)
    obs, infos = envs.reset()
    obs, infos = envs.fork(src=[0], dst=[3])
    np.testing.assert_array_equal(obs[3], obs[0])
    assert envs.get_state([3])[0].split("; ")[1] == envs.get_state([0])[0].split("; ")[1]
    before = obs.copy()
    obs, infos = envs.determinize(seeds=[7, 8, 9, 10])
    np.testing.assert_array_equal(obs, before)
    advice = envs.bot_actions("greedy", seed=1)
    assert advice.shape == (4,) and (advice == envs.bot_actions("greedy", seed=1)).all()
    assert infos["action_mask"][np.arange(4), advice].all()
    envs.close()


@pytest.mark.parametrize("env_id", ["splendor-v1", "splendor-duel-v1"])
def test_bot_actions_with_targets(url, env_id):
    envs = splendor_rl.make_vec(env_id, num_envs=4, seed=3, url=url)
    _, infos = envs.reset()
    plain = envs.bot_actions("mcts:60", seed=2)
    actions, policy, value = envs.bot_actions("mcts:60", seed=2, targets=True)
    np.testing.assert_array_equal(actions, plain)
    assert policy.dtype == np.float32 and policy.shape == (4, envs.single_action_space.n)
    assert value.dtype == np.float32 and value.shape == (4,)
    np.testing.assert_allclose(policy.sum(axis=1), 1, atol=1e-5)
    assert (policy[infos["action_mask"] == 0] == 0).all()
    assert (policy[np.arange(4), actions] == policy.max(axis=1)).all()
    assert ((-1 <= value) & (value <= 1)).all()
    with pytest.raises(splendor_rl.BadOption):
        envs.bot_actions("greedy", targets=True)
    envs.close()


@pytest.mark.parametrize("algorithm", ["gumbel", "puct"])
def test_guided_search(url, algorithm):
    envs = splendor_rl.make_vec("splendor-v1", num_envs=4, seed=3, url=url)
    _, infos = envs.reset()
    seen = []

    def uniform(obs, mask):
        seen.append(len(mask))
        return mask.astype(np.float32), np.zeros(len(mask), np.float32)

    result = envs.search(uniform, simulations=8, seed=1, algorithm=algorithm)
    again = envs.search(uniform, simulations=8, seed=1, algorithm=algorithm)
    assert seen[0] == 4 and len(seen) == 18  # the roots, then one leaf per env per round trip
    np.testing.assert_array_equal(result.policy, again.policy)
    assert result.policy.shape == (4, envs.single_action_space.n) and result.value.shape == (4,)
    np.testing.assert_allclose(result.policy.sum(axis=1), 1, atol=1e-5)
    assert infos["action_mask"][np.arange(4), result.action].all()
    assert infos["action_mask"][np.arange(4), envs.search(None, simulations=30).action].all()
    with pytest.raises(splendor_rl.errors.BadEvaluation, match="leaf 0"):
        envs.search(lambda obs, mask: (-mask.astype(np.float32), np.zeros(len(mask))), simulations=2)
    envs.close()
