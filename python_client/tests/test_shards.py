"""One vector env over several servers (ShardedVectorEnv): the same trajectories as one server, errors that name
the shard, search ops routed to the right server."""

from __future__ import annotations

from contextlib import closing

import numpy as np
import pytest

import splendor_rl
from splendor_rl import BadShape, BadState, ConnectionLost, IllegalAction, LocalServer, ShardedVectorEnv
from splendor_rl.shards import server_derive, split


@pytest.fixture(scope="module")
def second():
    with LocalServer(workers=1) as srv:
        yield srv


def rollout(envs, steps: int, seed: int = 5):
    """Observations, rewards, masks and flags of `steps` steps of seeded random legal play."""
    obs, infos = envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    out = [obs.copy(), infos["action_mask"].copy()]
    for _ in range(steps):
        obs, rewards, terminated, truncated, infos = envs.step(splendor_rl.sample_legal(infos["action_mask"], rng))
        out += [obs.copy(), rewards.copy(), terminated.copy(), truncated.copy(), infos["to_play"].copy(),
                infos["seat_rewards"].copy()]
    return out


@pytest.mark.parametrize("env_id", ["splendor-v1", "splendor-duel-v1"])
def test_same_trajectories_whatever_the_number_of_shards(url, second, env_id):
    runs = []
    for urls in ([url], [url, second.url], [url, second.url, url]):
        with closing(splendor_rl.make_vec(env_id, 7, url=urls if len(urls) > 1 else urls[0], seed=3)) as envs:
            runs.append(rollout(envs, 150))  # games end and autoreset within 150 steps
    for other in runs[1:]:
        assert len(other) == len(runs[0])
        for a, b in zip(runs[0], other):
            np.testing.assert_array_equal(a, b)


def test_make_vec_spreads_envs_in_blocks(url, second):
    with closing(splendor_rl.make_vec("splendor-v1", 5, url=[url, second.url])) as envs:
        assert isinstance(envs, ShardedVectorEnv)
        assert [s.num_envs for s in envs.shards] == [3, 2] == split(5, 2)
        assert envs.observation_space.shape[0] == 5 and envs.action_space.shape == (5,)
        assert envs.shards[1].connection.url == second.url


def test_reset_with_seed_lists_and_masks_matches_one_server(url, second):
    seeds = [11, 12, 13, 14]
    with closing(splendor_rl.make_vec("splendor-v1", 6, url=url, autoreset="disabled")) as one, \
            closing(splendor_rl.make_vec("splendor-v1", 6, url=[url, second.url], autoreset="disabled")) as two:
        mask = np.array([1, 0, 1, 1, 0, 1], bool)
        for envs in (one, two):
            envs.reset(seed=0)
        a, _ = one.reset(seed=seeds, options={"reset_mask": mask})
        b, _ = two.reset(seed=seeds, options={"reset_mask": mask})
        np.testing.assert_array_equal(a, b)
        assert one.get_state() == two.get_state()


def test_a_refused_step_changes_no_shard(url, second):
    with closing(splendor_rl.make_vec("splendor-v1", 4, url=[url, second.url], seed=1)) as envs:
        _, infos = envs.reset()
        before = envs.get_state()
        actions = splendor_rl.sample_legal(infos["action_mask"], np.random.default_rng(0))
        for env, action in ((3, int(np.flatnonzero(~infos["action_mask"][3])[0])), (0, 999), (1, -1)):
            bad = actions.copy()
            bad[env] = action
            with pytest.raises(IllegalAction, match=rf"env {env}: .*no shard stepped") as refused:
                envs.step(bad)
            assert refused.value.envs == [env]
            assert envs.get_state() == before
        with pytest.raises(BadShape):
            envs.step(actions[:3])
        envs.step(actions)


def test_a_server_refusal_names_the_shard_and_its_envs(url, second):
    with closing(splendor_rl.make_vec("splendor-v1", 4, url=[url, second.url], seed=1)) as envs:
        _, infos = envs.reset()
        with pytest.raises(BadState, match=rf"shard 1 \({second.url}\)") as refused:
            envs.set_state(["garbage"], env_ids=[3])
        assert refused.value.envs in ([], [3])  # whole-batch indices, where the server names envs


def test_a_lost_shard_raises_naming_its_url(url):
    extra = LocalServer(workers=1)
    envs = splendor_rl.make_vec("splendor-v1", 4, url=[url, extra.url])
    try:
        _, infos = envs.reset()
        extra.stop()
        with pytest.raises(ConnectionLost, match=extra.url.split("/ws")[0]):
            for _ in range(3):  # the loss shows on the first request that needs the socket
                _, _, _, _, infos = envs.step(splendor_rl.sample_legal(infos["action_mask"],
                                                                        np.random.default_rng(0)))
    finally:
        envs.close()


def test_search_ops_route_to_the_right_shard(url, second):
    with closing(splendor_rl.make_vec("splendor-v1", 5, url=url, seed=9)) as one, \
            closing(splendor_rl.make_vec("splendor-v1", 5, url=[url, second.url], seed=9)) as two:
        for envs in (one, two):
            envs.reset()
        ids = [4, 0, 3]
        assert one.get_state(ids) == two.get_state(ids)
        for bot in ("random", "greedy"):
            np.testing.assert_array_equal(one.bot_actions(bot, seed=77), two.bot_actions(bot, seed=77))
            np.testing.assert_array_equal(one.bot_actions(bot, env_ids=ids, seeds=[1, 2, 3]),
                                          two.bot_actions(bot, env_ids=ids, seeds=[1, 2, 3]))
        for envs in (one, two):
            envs.fork(src=[0, 4], dst=[4, 1])  # within shard 0, and across shards
        assert one.get_state() == two.get_state()
        a, infos_a = one.determinize([5, 6], env_ids=[1, 4])
        b, infos_b = two.determinize([5, 6], env_ids=[1, 4])
        np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(infos_a["action_mask"], infos_b["action_mask"])
        assert one.get_state() == two.get_state()
        states = one.get_state([2])
        for envs in (one, two):
            envs.set_state(states * 2, env_ids=[0, 4])
        assert one.get_state() == two.get_state()


def test_server_derive_is_the_servers_derive():
    # internal/rng's Derive(1, 0), Derive(0, 5) and Derive(2^64-1, 2^40), printed by the Go package.
    assert [server_derive(1, 0), server_derive(0, 5), server_derive(2**64 - 1, 2**40)] == [
        10485490772303966843, 277656850385010861, 8875948811365914967]


def test_bot_targets_route_to_the_right_shard(url, second):
    with closing(splendor_rl.make_vec("splendor-v1", 5, url=url, seed=9)) as one, \
            closing(splendor_rl.make_vec("splendor-v1", 5, url=[url, second.url], seed=9)) as two:
        for envs in (one, two):
            envs.reset()
        for ids in (None, [4, 0, 3]):
            for a, b in zip(one.bot_actions("mcts:40", seed=7, env_ids=ids, targets=True),
                            two.bot_actions("mcts:40", seed=7, env_ids=ids, targets=True)):
                np.testing.assert_array_equal(a, b)
