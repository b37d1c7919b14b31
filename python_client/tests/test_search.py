"""Search over the wire: states round-trip exactly, bad ones are refused, forks copy, bots advise."""

import numpy as np
import pytest

import splendor_rl
from splendor_rl.codec import from_numpy, to_numpy
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
    actions, policy, value, values = envs.bot_actions("mcts:60", seed=2, targets=True)
    np.testing.assert_array_equal(actions, plain)
    assert policy.dtype == np.float32 and policy.shape == (4, envs.single_action_space.n)
    assert value.dtype == np.float32 and value.shape == (4,)
    assert values.dtype == np.float32 and values.shape == (4, 2)
    np.testing.assert_array_equal(values[:, 0], value)
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

    result = envs.search(uniform, simulations=8, seed=1, algorithm=algorithm, parts=1)
    again = envs.search(uniform, simulations=8, seed=1, algorithm=algorithm, parts=1)
    assert seen[0] == 4 and len(seen) == 18  # the roots, then one leaf per env per round trip
    np.testing.assert_array_equal(result.policy, again.policy)
    assert result.policy.shape == (4, envs.single_action_space.n) and result.value.shape == (4,)
    assert result.values.shape == (4, 2) and (result.values[:, 0] == result.value).all()
    np.testing.assert_allclose(result.policy.sum(axis=1), 1, atol=1e-5)
    assert infos["action_mask"][np.arange(4), result.action].all()
    assert infos["action_mask"][np.arange(4), envs.search(None, simulations=30).action].all()
    with pytest.raises(splendor_rl.errors.BadEvaluation, match="leaf 0"):
        envs.search(lambda obs, mask: (-mask.astype(np.float32), np.zeros(len(mask))), simulations=2)
    envs.close()


def fixed_evaluator(num_actions: int, log: list | None = None):
    """An evaluator whose priors and values are a fixed function of each leaf's observation alone, in integer
    arithmetic (exact, whatever the batch's size or order): searches given the same leaves get the same answers.
    `log` collects each call's (obs, mask)."""
    weights = np.random.default_rng(7).integers(-50, 50, size=(2, 1000, num_actions + 1))

    def evaluate(obs, mask):
        if log is not None:
            log.append((obs.copy(), mask.copy()))
        x = obs.astype(np.int64)
        w = weights[:, :x.shape[1]]
        h = (x @ w[0]) ^ (x @ w[1])
        priors = (h[:, :-1] % 97 + 1).astype(np.float32) * mask
        values = (h[:, -1] % 201 - 100).astype(np.float32) / 100
        return priors, values

    return evaluate


def uniform_zero(obs, mask):
    """Uniform priors over the legal actions and value 0: a search so guided learns only from games it ends."""
    return mask.astype(np.float32), np.zeros(len(mask), np.float32)


@pytest.mark.parametrize("players", [3, 4])
def test_every_seats_values_search_as_the_one_value_they_spread(url, players):
    """An evaluator may value every seat ([L, players], the leaf's seat to play first); given what one value v
    implies (−v/(players−1) for each other seat) it searches exactly as that one value, and the results hold every
    seat's root value, summing to zero as the terminal rewards do."""
    envs = splendor_rl.make_vec("splendor-v1", num_envs=4, seed=5, url=url, players=players)
    envs.reset()
    one = fixed_evaluator(envs.single_action_space.n)

    def every_seat(obs, mask):
        priors, values = one(obs, mask)
        others = np.repeat(-values[:, None] / (players - 1), players - 1, axis=1)
        return priors, np.concatenate([values[:, None], others], axis=1)

    a = envs.search(one, simulations=12, seed=2)
    b = envs.search(every_seat, simulations=12, seed=2)
    np.testing.assert_array_equal(a.policy, b.policy)
    np.testing.assert_array_equal(a.action, b.action)
    assert b.values.shape == (4, players) and (b.values[:, 0] == b.value).all()
    np.testing.assert_allclose(b.values.sum(axis=1), 0, atol=1e-5)
    with pytest.raises(splendor_rl.BadShape, match=rf"values \[2, 2\] for 2 leaves: .* or \[2, {players}\]"):
        envs.search(lambda obs, mask: (mask, np.zeros((len(mask), 2))), simulations=4)
    envs.close()


@pytest.mark.parametrize("algorithm", ["gumbel", "puct"])
def test_a_pipelined_search_is_the_same_search(url, algorithm):
    envs = splendor_rl.make_vec("splendor-v1", num_envs=5, seed=4, url=url)
    envs.reset()
    log: list = []
    evaluate = fixed_evaluator(envs.single_action_space.n, log)
    whole = envs.search(evaluate, simulations=12, seed=3, algorithm=algorithm, parts=1)
    calls = len(log)
    log.clear()
    halves = envs.search(evaluate, simulations=12, seed=3, algorithm=algorithm)  # parts=2, the default
    for a, b in ((whole.policy, halves.policy), (whole.value, halves.value), (whole.action, halves.action)):
        np.testing.assert_array_equal(a, b)
    # The halves (envs 0–1 and 2–4) take turns: each call evaluates one half's leaves, twice as many calls.
    assert [len(mask) for _, mask in log[:2]] == [2, 3]
    assert max(len(mask) for _, mask in log) <= 3 and len(log) == 2 * calls
    with pytest.raises(ValueError, match="parts 3"):
        envs.search(evaluate, simulations=2, parts=3)
    # A failure in one half's round trip leaves the other's reply read: the connection stays in step.
    with pytest.raises(splendor_rl.errors.BadEvaluation, match="leaf 0"):
        envs.search(lambda obs, mask: (-mask.astype(np.float32), np.zeros(len(mask))), simulations=2)
    np.testing.assert_array_equal(envs.search(evaluate, simulations=12, seed=3, algorithm=algorithm).action,
                                  whole.action)
    envs.close()


@pytest.mark.parametrize("env_id", ["splendor-v1", "splendor-duel-v1"])
def test_the_clients_packed_search_is_the_whole_rows_search(url, env_id):
    """The client packs its searches (mask bits in, the legal actions' priors out): the same leaves reach the
    evaluator, and the results are those of a search driven by hand over the raw protocol with whole rows."""
    envs = splendor_rl.make_vec(env_id, num_envs=4, seed=9, url=url)
    envs.reset()
    log: list = []
    evaluate = fixed_evaluator(envs.single_action_space.n, log)
    packed = envs.search(evaluate, simulations=10, seed=5, parts=1)
    conn, calls = envs.connection, [(obs.copy(), mask.copy()) for obs, mask in log]
    reply = conn.call("search", handle=envs.handle, seed=5, settings={"algorithm": "gumbel", "simulations": 10})
    for obs, mask in calls:
        assert "mask_bits" not in reply
        np.testing.assert_array_equal(to_numpy(reply["obs"]), obs)
        np.testing.assert_array_equal(to_numpy(reply["mask"]).view(bool), mask)
        priors, values = evaluate(to_numpy(reply["obs"]), to_numpy(reply["mask"]).view(bool))
        reply = conn.call("evaluate", handle=envs.handle, priors=from_numpy(priors, "float32"),
                          values=from_numpy(values, "float32"))
    assert reply["done"]
    np.testing.assert_array_equal(to_numpy(reply["policy"]), packed.policy)
    np.testing.assert_array_equal(to_numpy(reply["value"]), packed.value)
    np.testing.assert_array_equal(to_numpy(reply["action"]), packed.action)
    envs.close()


@pytest.mark.parametrize("num_envs", [1, 3])
@pytest.mark.parametrize("algorithm", ["gumbel", "puct"])
def test_two_leaves_per_env_under_virtual_loss(url, num_envs, algorithm):
    envs = splendor_rl.make_vec("splendor-v1", num_envs=num_envs, seed=4, url=url)
    _, infos = envs.reset()
    sizes, sims = [], 16
    evaluate = fixed_evaluator(envs.single_action_space.n)

    def counted(obs, mask):
        sizes.append(len(mask))
        return evaluate(obs, mask)

    result = envs.search(counted, simulations=sims, seed=5, algorithm=algorithm, leaves_per_env=2, parts=1)
    # The roots come alone (a second descent would reach the root, still waiting for its evaluation); then each
    # env has up to leaves_per_env = 2 leaves out per round trip, a second one found under the first's virtual
    # loss. No game ends within 16 decisions of the start, so every simulation ends at a leaf: 1 + 16 per env.
    assert sizes[0] == num_envs
    assert max(sizes) <= 2 * num_envs and max(sizes) > num_envs
    assert sum(sizes) == num_envs * (1 + sims)
    assert len(sizes) < 1 + sims  # fewer round trips than one leaf at a time
    again = envs.search(evaluate, simulations=sims, seed=5, algorithm=algorithm, leaves_per_env=2)
    for a, b in ((result.policy, again.policy), (result.value, again.value), (result.action, again.action)):
        np.testing.assert_array_equal(a, b)
    mask = infos["action_mask"]
    np.testing.assert_allclose(result.policy.sum(axis=1), 1, atol=1e-5)
    assert (result.policy[~mask] == 0).all()
    assert mask[np.arange(num_envs), result.action].all()
    assert ((-1 <= result.value) & (result.value <= 1)).all()
    envs.close()


@pytest.mark.parametrize("evaluate", [uniform_zero, None])
def test_a_search_of_no_envs_is_empty_and_leaves_the_batch_usable(url, evaluate):
    envs = splendor_rl.make_vec("splendor-v1", num_envs=3, seed=4, url=url)
    _, infos = envs.reset()
    empty = envs.search(evaluate, env_ids=[], simulations=8, leaves_per_env=2)
    assert empty.policy.shape == (0, envs.single_action_space.n)
    assert empty.value.shape == empty.action.shape == (0,)
    result = envs.search(uniform_zero, simulations=8)
    assert infos["action_mask"][np.arange(3), result.action].all()
    envs.close()


def test_playout_search_values_are_means_of_outcomes(url):
    envs = splendor_rl.make_vec("splendor-v1", num_envs=16, seed=4, url=url)
    envs.reset()
    for algorithm in ("gumbel", "puct"):
        result = envs.search(None, simulations=64, seed=1, algorithm=algorithm, leaves_per_env=2)
        assert ((-1 <= result.value) & (result.value <= 1)).all(), result.value
    envs.close()


@pytest.mark.parametrize("players", [2, 4])
def test_a_playout_weight_of_one_hears_only_the_playouts(url, players):
    """`playout_weight=1` backs up each leaf's greedy playout alone: evaluators that differ only in their values
    search alike; at 0.5 their values count; with `evaluate=None` it is refused."""
    envs = splendor_rl.make_vec("splendor-v1", num_envs=4, seed=6, url=url, players=players)
    envs.reset()

    def valuing(v):
        return lambda obs, mask: (mask.astype(np.float32), np.full(len(mask), v, np.float32))

    def search(v, weight):
        return envs.search(valuing(v), simulations=24, seed=3, algorithm="puct", leaves_per_env=2,
                           playout_weight=weight)

    win, loss = search(1.0, 1.0), search(-1.0, 1.0)
    np.testing.assert_array_equal(win.policy, loss.policy)
    np.testing.assert_array_equal(win.values, loss.values)
    assert ((-1 <= win.values) & (win.values <= 1)).all()
    assert (search(1.0, 0.5).value != search(-1.0, 0.5).value).all()
    with pytest.raises(splendor_rl.BadOption, match="playout_weight: .*not with playouts"):
        envs.search(None, simulations=4, playout_weight=0.5)
    envs.close()


def test_three_leaves_per_env_are_refused(url):
    envs = splendor_rl.make_vec("splendor-v1", num_envs=2, seed=4, url=url)
    _, infos = envs.reset()
    for leaves in (3, 0):
        with pytest.raises(splendor_rl.BadOption, match=r"leaves_per_env: want an integer in \[1, 2\], got "
                                                        f"{leaves}"):
            envs.search(uniform_zero, simulations=4, leaves_per_env=leaves)
    assert infos["action_mask"][[0, 1], envs.search(uniform_zero, simulations=4, leaves_per_env=2).action].all()
    envs.close()


def test_a_wrongly_shaped_evaluation_is_refused_before_it_is_sent(url):
    envs = splendor_rl.make_vec("splendor-v1", num_envs=4, seed=4, url=url)  # two halves of 2
    envs.reset()
    with pytest.raises(splendor_rl.BadShape, match=r"priors \[1, 78\] and values \[2\] for 2 leaves"):
        envs.search(lambda obs, mask: (mask[:1], np.zeros(2)), simulations=4)
    with pytest.raises(splendor_rl.BadShape, match=r"values \[2, 1\]"):
        envs.search(lambda obs, mask: (mask, np.zeros((2, 1))), simulations=4)
    assert envs.search(uniform_zero, simulations=4).action.shape == (4,)  # the connection is still in step
    envs.close()


# Splendor Duel, seat 0 to play with 16 prestige (cards 53, 66 and six 1-point or 0-point ones; no colour near 10
# points, no crowns): buying the level-3 card 61 (4 points, pyramid L3 slot 1) reaches 20 and wins at once. It is
# one of 13 legal actions: 7 takes of lone tokens, 2 golds (then a reserve), buying 13 or 22 (L1 slots 3 and 5)
# or the reserved 0, none of which scores. Whatever else seat 0 does, seat 1 (17 prestige) buys its reserved 60
# (3 points) and wins. Every card and token is placed, as a state must; decks are redealt by each simulation.
DUEL_WIN_IN_ONE = (
    "seat=0 phase=main turn=20 passes=0 again=0 replenished=0 pending=- chance=09205e5c0c2a7dff bag=0000000 "
    "board=w.w.o/...../w.b.g/...../p.w.o pyramid=1.3.13.8.22/31.35.36.40/61.63.54 "
    "decks=2.5.6.7.10.11.12.16.17.18.20.21.23.25.26.27.28/32.33.37.38.39.41.42.43.44.45.46.47.48.49.50.51.52/"
    "56.58.62.64.65 p0=0014100|0|53.66.4.9.14.19.24.15|0|- p1=0320311|0|29.55.57.59.30.34|60|-")


def with_game(state: str, game: str) -> str:
    """An env's state (get_state) with its game (the engine's notation, between "; " and " | ") replaced."""
    row, rest = state.split("; ", 1)
    return f"{row}; {game} | {rest.split(' | ', 1)[1]}"


@pytest.mark.parametrize("algorithm", ["gumbel", "puct"])
def test_search_finds_a_win_in_one(url, algorithm):
    envs = splendor_rl.make_vec("splendor-duel-v1", num_envs=13, seed=3, url=url)
    envs.reset()
    state = with_game(envs.get_state([0])[0], DUEL_WIN_IN_ONE)
    _, infos = envs.set_state([state] * 13)
    legal = np.flatnonzero(infos["action_mask"][0])
    assert len(legal) == 13 and (infos["to_play"] == 0).all()
    _, _, terminated, _, step_infos = envs.step(legal)  # every legal action, one per env
    wins = legal[terminated & (step_infos["seat_rewards"][:, 0] == 1)]
    assert wins.tolist() == [220] and envs.action_labels[220] == "buy L3 slot1"
    assert legal[0] not in wins and legal[-1] not in wins  # nor the first legal action nor the last

    # Eight searches, each from its own seed: a search blind to games' ends would pick the win 1 time in 13.
    for evaluate, simulations in ((uniform_zero, 64), (None, 200)):
        envs.set_state([state] * 13)
        result = envs.search(evaluate, simulations=simulations, seed=11, algorithm=algorithm, env_ids=range(8))
        assert np.isin(result.action, wins).all(), (evaluate, result.action)
        assert (result.policy[:, wins].sum(axis=1) > 0.5).all()
        _, _, terminated, _, step_infos = envs.step(np.r_[result.action, [legal[0]] * 5])  # 8–12: not searched
        assert terminated[:8].all()
        np.testing.assert_array_equal(step_infos["seat_rewards"][:8], [[1, -1]] * 8)  # seat 0 won
    envs.close()
