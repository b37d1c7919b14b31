"""One vector env over several servers (ShardedVectorEnv): the same trajectories as one server, errors that name
the shard, search ops routed to the right server."""

from __future__ import annotations

from contextlib import closing

import numpy as np
import pytest

import splendor_rl
from splendor_rl import BadShape, BadState, ConnectionLost, IllegalAction, LocalServer, ShardedVectorEnv
from splendor_rl.errors import BadEvaluation
from splendor_rl.shards import server_derive, split

from .test_search import fixed_evaluator


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


def assert_same_search(a, b):
    for x, y in ((a.policy, b.policy), (a.value, b.value), (a.action, b.action)):
        np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("algorithm", ["gumbel", "puct"])
def test_search_over_shards_is_one_servers_search_with_one_evaluation_per_round_trip(url, second, algorithm):
    with closing(splendor_rl.make_vec("splendor-v1", 5, url=url, seed=9)) as one:
        one.reset()
        for _ in range(6):  # positions a few decisions in
            one.step(one.bot_actions("random", seed=3))
        states = one.get_state()
        calls_one: list = []
        evaluate = fixed_evaluator(one.single_action_space.n, calls_one)
        alone = one.search(evaluate, simulations=12, seed=21, algorithm=algorithm, leaves_per_env=2, parts=1)
        calls_alone = list(calls_one)
        picked = one.search(evaluate, simulations=12, seed=21, algorithm=algorithm, env_ids=[4, 0, 3])
        seeded = one.search(evaluate, simulations=12, algorithm=algorithm, env_ids=[3, 1], seeds=[5, 6])
        played = one.search(None, simulations=30, seed=21, algorithm=algorithm)
    for urls in ([url, second.url], [url, second.url, url]):
        with closing(splendor_rl.make_vec("splendor-v1", 5, url=urls, seed=9)) as many:
            many.reset()
            many.set_state(states)
            calls: list = []
            evaluate = fixed_evaluator(many.single_action_space.n, calls)
            assert_same_search(many.search(evaluate, simulations=12, seed=21, algorithm=algorithm,
                                           leaves_per_env=2, parts=1), alone)
            # One call per round trip, with every shard's leaves in it: the very calls one server makes.
            assert len(calls) == len(calls_alone) and len(calls[0][1]) == 5
            for (obs, mask), (obs_one, mask_one) in zip(calls, calls_alone):
                np.testing.assert_array_equal(obs, obs_one)
                np.testing.assert_array_equal(mask, mask_one)
            # Pipelined, each shard's envs in two halves: the same search.
            assert_same_search(many.search(evaluate, simulations=12, seed=21, algorithm=algorithm,
                                           leaves_per_env=2), alone)
            assert_same_search(many.search(evaluate, simulations=12, seed=21, algorithm=algorithm,
                                           env_ids=[4, 0, 3]), picked)
            assert_same_search(many.search(evaluate, simulations=12, algorithm=algorithm, env_ids=[3, 1],
                                           seeds=[5, 6]), seeded)
            assert_same_search(many.search(None, simulations=30, seed=21, algorithm=algorithm), played)


def test_a_shards_bad_evaluation_names_it_and_leaves_every_shard_usable(url, second):
    with closing(splendor_rl.make_vec("splendor-v1", 5, url=url, seed=9)) as one, \
            closing(splendor_rl.make_vec("splendor-v1", 5, url=[url, second.url], seed=9)) as two:
        def bad_row(row):  # the roots come first, env by env: row 0 is env 0's on shard 0, row 4 env 4's on shard 1
            def evaluate(obs, mask):
                priors = mask.astype(np.float32)
                priors[row] = -1
                return priors, np.zeros(len(mask), np.float32)
            return evaluate

        for envs in (one, two):
            envs.reset()
        for row, shard in ((0, f"shard 0 ({url})"), (4, f"shard 1 ({second.url})")):
            with pytest.raises(BadEvaluation) as alone:
                one.search(bad_row(row), simulations=4, parts=1)
            with pytest.raises(BadEvaluation) as sharded:
                two.search(bad_row(row), simulations=4, parts=1)
            assert f"leaf {row} (env {row})" in alone.value.message
            assert sharded.value.message == f"{shard}: {alone.value.message}"
        with pytest.raises(BadShape, match="2 seeds for 3 envs"):
            two.search(None, env_ids=[0, 1, 4], seeds=[1, 2])
        evaluate = fixed_evaluator(one.single_action_space.n)
        assert_same_search(two.search(evaluate, simulations=6, seed=2), one.search(evaluate, simulations=6, seed=2))
        actions = one.bot_actions("greedy", seed=1)
        for a, b in zip(one.step(actions), two.step(actions)):
            if isinstance(a, np.ndarray):
                np.testing.assert_array_equal(a, b)
        assert one.get_state() == two.get_state()
