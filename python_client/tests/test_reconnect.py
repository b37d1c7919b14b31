"""reconnect=True: a lost connection truncates the episodes in progress and play goes on, on a new connection
with deterministically re-seeded batches; a server that stays away raises ConnectionLost in bounded time."""

import threading
import time

import numpy as np
import pytest

import splendor_rl
from splendor_rl import ConnectionLost, LocalServer, derive_seed

from .conftest import await_metric
from .test_connection_lost import IDLE, IDLE_CLOSES, free_port, server
from .test_vector import random_legal


def play(envs, infos, steps: int, rng: np.random.Generator):
    for _ in range(steps):
        _, _, _, _, infos = envs.step(random_legal(infos["action_mask"], rng))
    return infos


def test_step_survives_a_server_restart():
    port = free_port()
    first = server(port=port)
    envs = splendor_rl.make_vec(num_envs=3, seed=5, url=first.url, reconnect=True, reconnect_timeout=20,
                                illegal_action="forfeit")
    rng = np.random.default_rng(0)
    _, infos = envs.reset()
    infos = play(envs, infos, 3, rng)
    actions = random_legal(infos["action_mask"], rng)
    actions[0] = np.flatnonzero(~infos["action_mask"][0])[0]  # env 0 forfeits: its episode is over, not cut
    _, _, terminated, _, infos = envs.step(actions)
    assert terminated.tolist() == [True, False, False]
    first.stop()
    # The new server comes up a little later: the step retries with backoff until it does.
    holder: list[LocalServer] = []
    later = threading.Timer(0.7, lambda: holder.append(server(port=port)))
    later.start()
    try:
        obs, rewards, terminated, truncated, infos = envs.step(random_legal(infos["action_mask"], rng))
        later.join()
        assert truncated.tolist() == [False, True, True] and not terminated.any() and not rewards.any()
        assert infos["reconnected"].all() and envs.reconnects == 1
        twin = splendor_rl.make_vec(num_envs=3, seed=derive_seed(5, 1), url=holder[0].url,
                                    illegal_action="forfeit")
        twin_obs, twin_infos = twin.reset()
        assert np.array_equal(obs, twin_obs), "re-made with derive_seed(seed, 1): env i dealt from it + i"
        for _ in range(20):  # and the same game goes on from there
            actions = random_legal(infos["action_mask"], rng)
            obs, *_, infos = envs.step(actions)
            twin_obs, *_, twin_infos = twin.step(actions)
            assert np.array_equal(obs, twin_obs)
        twin.close()
        envs.close()
    finally:
        later.join()
        for srv in holder:
            srv.stop()


def test_idle_timeout_reconnects_step_and_reset():
    with server("--idle-timeout", IDLE, "--ping-interval", "10s") as srv:
        envs = splendor_rl.make_vec(num_envs=2, seed=7, url=srv.url, reconnect=True, reconnect_timeout=10,
                                    autoreset="same_step")
        obs, infos = envs.reset()
        last = obs.copy()
        await_metric(srv.url, IDLE_CLOSES, 1)
        obs, _, terminated, truncated, infos = envs.step(random_legal(infos["action_mask"], np.random.default_rng(1)))
        assert truncated.all() and not terminated.any() and infos["reconnected"].all()
        assert np.array_equal(infos["final_obs"], last) and infos["_final_obs"].all(), "same_step: the last obs seen"
        await_metric(srv.url, IDLE_CLOSES, 2)
        obs, infos = envs.reset(seed=[3, 4])
        assert infos["reconnected"].all() and envs.reconnects == 2
        twin = splendor_rl.make_vec(num_envs=2, seed=0, url=srv.url, autoreset="same_step")
        assert np.array_equal(obs, twin.reset(seed=3)[0]), "the reset asked for, after reconnecting"
        twin.close()
        envs.close()


def test_single_env_reports_a_truncated_episode():
    with server("--idle-timeout", IDLE, "--ping-interval", "10s") as srv:
        env = splendor_rl.make(url=srv.url, seed=2, reconnect=True, reconnect_timeout=10)
        env.reset()
        await_metric(srv.url, IDLE_CLOSES, 1)
        _, reward, terminated, truncated, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
        assert truncated and not terminated and reward == 0.0 and info["reconnected"]
        assert env.action_masks().any(), "a new episode is under way"
        env.reset()
        env.close()


def test_gives_up_after_reconnect_timeout():
    srv = server()
    envs = splendor_rl.make_vec(num_envs=2, url=srv.url, reconnect=True, reconnect_timeout=1.0)
    _, infos = envs.reset()
    srv.stop()
    began = time.monotonic()
    with pytest.raises(ConnectionLost) as err:
        envs.step(random_legal(infos["action_mask"], np.random.default_rng(0)))
    assert time.monotonic() - began < 10.0, "gave up after its 1 s (and backoff), not the default minute"
    assert err.value.code == 1001 and srv.url in str(err.value)
    envs.close()
    envs.close()


def test_reconnect_needs_a_connection_of_its_own(url):
    with splendor_rl.Connection(url) as conn, pytest.raises(ValueError):
        splendor_rl.SplendorVectorEnv(num_envs=1, connection=conn, reconnect=True)


def kill_local_server(envs) -> LocalServer:
    """SIGKILL the shared local server `envs` uses (an OOM kill, say): no close frame, no drain."""
    local = envs._server
    local.process.kill()
    local.process.wait(10)
    return local


def test_a_lost_local_server_says_so_and_how_to_go_on():
    envs = splendor_rl.make_vec(num_envs=2, seed=1)
    _, infos = envs.reset()
    pid = kill_local_server(envs).process.pid
    with pytest.raises(ConnectionLost) as err:
        envs.step(random_legal(infos["action_mask"], np.random.default_rng(0)))
    assert err.value.code == 1006 and f"local server splendor_rl started (pid {pid})" in str(err.value)
    assert "reconnect=True starts a new one" in err.value.hint and str(err.value).endswith(err.value.hint)
    envs.close()


def test_reconnect_starts_a_new_local_server_when_the_old_one_died():
    envs = splendor_rl.make_vec(num_envs=2, seed=4, reconnect=True, reconnect_timeout=30)
    _, infos = envs.reset()
    dead = kill_local_server(envs)
    obs, rewards, terminated, truncated, infos = envs.step(random_legal(infos["action_mask"], np.random.default_rng(0)))
    assert infos["reconnected"].all() and truncated.all() and envs.reconnects == 1
    assert envs._server is not dead and envs._server.running and envs.connection.url == envs._server.url
    twin = splendor_rl.make_vec(num_envs=2, seed=derive_seed(4, 1))  # the same new local server, shared
    assert twin._server is envs._server and np.array_equal(obs, twin.reset()[0])
    twin.close()
    envs.close()
