"""Every server error code surfaces as its documented exception, and the connection stays usable."""

import gc
import pickle
import re
import sys

import numpy as np
import pytest
from websockets.sync.client import connect

import splendor_rl
from splendor_rl import LocalServer, errors
from splendor_rl.codec import from_numpy, pack, unpack
from splendor_rl.connection import Connection

from .conftest import REPO


def documented_codes():
    text = (REPO / "encoding" / "wire" / "PROTOCOL.md").read_text()
    table = text[text.index("| code | when |"):text.index("## 8.")]
    return set(re.findall(r"^\| `([a-z_]+)` \|", table, re.M))


def test_every_documented_code_has_an_exception():
    assert set(errors.ERRORS) == documented_codes()
    for code, cls in errors.ERRORS.items():
        assert issubclass(cls, splendor_rl.SplendorError) and cls.code == code
        assert isinstance(errors.from_reply({"code": code, "message": "m"}), cls)


@pytest.fixture
def made(url):
    with Connection(url) as conn:
        handle = conn.call("make", env="splendor-v1", num_envs=2, seed=1)["handle"]
        conn.call("reset", handle=handle)
        yield conn, handle


def test_request_errors(made):
    conn, handle = made
    cases = [
        (splendor_rl.UnknownOp, "teleport", {}),
        (splendor_rl.BadRequest, "reset", {"handle": handle, "seed": 3}),
        (splendor_rl.UnknownEnv, "make", {"env": "chess-v1", "num_envs": 1}),
        (splendor_rl.BadOption, "make", {"env": "splendor-v1", "num_envs": 1, "options": {"players": 9}}),
        (splendor_rl.BadSeed, "make", {"env": "splendor-v1", "num_envs": 1, "seed": -1}),
        (splendor_rl.BadShape, "step", {"handle": handle, "actions": from_numpy([0], "int32")}),
        (splendor_rl.IllegalAction, "step", {"handle": handle, "actions": from_numpy([0, 71], "int32")}),
        (splendor_rl.UnknownHandle, "step", {"handle": 99, "actions": from_numpy([0, 0], "int32")}),
    ]
    for exc, op, fields in cases:
        with pytest.raises(exc) as err:
            conn.call(op, **fields)
        assert err.value.message
    assert conn.call("step", handle=handle, actions=from_numpy([0, 0], "int32"))["obs"]["shape"] == [2, 442]


def test_illegal_action_names_the_envs(made):
    conn, handle = made
    with pytest.raises(splendor_rl.IllegalAction) as err:
        conn.call("step", handle=handle, actions=from_numpy([71, 71], "int32"))
    assert err.value.envs == [0, 1]


def test_malformed_frame_is_bad_request(url):
    with connect(url, max_size=None).__enter__() as ws:
        ws.send(b"\xc1\x00")
        reply = unpack(ws.recv(timeout=10))
        assert errors.from_reply(reply["error"]).__class__ is splendor_rl.BadRequest
        ws.send(pack({"id": 2, "op": "hello"}))
        assert unpack(ws.recv(timeout=10))["protocol"] == 1


def test_limits_and_token():
    with LocalServer(args=("--token", "s3cret", "--max-envs-per-connection", "10")) as srv:
        with pytest.raises(splendor_rl.Unauthorized):
            Connection(srv.url)
        with pytest.raises(splendor_rl.Unauthorized):
            Connection(srv.url, token="guess")
        with Connection(srv.url, token="s3cret") as conn:
            assert conn.hello["limits"]["max_envs_per_connection"] == 10
            with pytest.raises(splendor_rl.LimitExceeded):
                conn.call("make", env="splendor-v1", num_envs=11)
            conn.call("make", env="splendor-v1", num_envs=10)
        envs = splendor_rl.make_vec(num_envs=2, url=srv.url, token="s3cret")
        envs.reset()
        envs.close()


def test_internal_errors_map_to_internal_error():
    # A server bug cannot be provoked on purpose from here; the Go tests provoke one (a panicking env).
    assert isinstance(errors.from_reply({"code": "internal", "message": "boom"}), splendor_rl.InternalError)


def test_python_docs_list_every_exception():
    text = (REPO / "docs" / "python.md").read_text()
    rows = dict(re.findall(r"^\| `([a-z_]+)` \| `(\w+)`", text, re.M))
    assert rows == {code: cls.__name__ for code, cls in errors.ERRORS.items()}


def test_python_docs_list_every_client_error():
    text = (REPO / "docs" / "python.md").read_text()
    rows = dict(re.findall(r"^\| `([A-Z]\w+)` \| `(\w+)` \|", text, re.M))
    assert rows == {cls.__name__: cls.__mro__[1].__name__ for cls in errors.CLIENT_ERRORS}
    assert all(getattr(splendor_rl, name) is getattr(errors, name) for name in rows)


def test_dead_url_is_server_unreachable_naming_it(free_url, url):
    for make in (lambda: Connection(free_url), lambda: splendor_rl.make_vec(url=free_url),
                 lambda: splendor_rl.make(url=free_url)):
        with pytest.raises(splendor_rl.ServerUnreachable) as err:
            make()
        assert err.value.url == free_url and free_url in str(err.value) and "make run" in str(err.value)
        assert "`splendor-server --listen 127.0.0.1:8765`" in str(err.value)  # the wheel's command, not only the clone's
    assert isinstance(err.value, ConnectionError)


@pytest.mark.parametrize("path", ["/nope", "/", ""])
def test_a_wrong_path_says_where_the_websocket_is(url, path):
    wrong = url.removesuffix("/ws") + path  # a live server, but no WebSocket there
    with pytest.raises(splendor_rl.ServerUnreachable, match="handshake") as err:
        Connection(wrong)
    assert f"a splendor-server's is at /ws ({url})" in str(err.value)
    assert "Is a server running there?" not in str(err.value)  # one is
    assert pickle.loads(pickle.dumps(err.value)).hint == err.value.hint


def test_float_actions_are_refused_not_truncated(url):
    envs = splendor_rl.make_vec(num_envs=2, seed=1, url=url)
    _, infos = envs.reset()
    legal = infos["action_mask"].argmax(axis=1)
    for bad in (legal + 0.5, legal.astype(np.float32), [float(a) for a in legal]):
        with pytest.raises(splendor_rl.BadShape, match="integers"):
            envs.step(bad)
    envs.step(legal.astype(np.int32))  # nothing was sent: the batch steps on
    envs.close()
    env = splendor_rl.make(seed=1, url=url)
    env.reset()
    a = int(np.flatnonzero(env.action_masks())[0])
    for bad in (a + 0.5, np.float64(a), np.array([a + 0.5])):
        with pytest.raises(splendor_rl.BadShape, match="integers"):
            env.step(bad)
    env.close()


def test_single_env_takes_one_int_or_a_shape_1_array(url):
    env = splendor_rl.make(seed=2, url=url, illegal_action="error")
    for wrap in (int, np.int64, np.array, lambda a: np.array([a]), lambda a: [a]):
        env.reset(seed=2)
        env.step(wrap(int(np.flatnonzero(env.action_masks())[0])))
    a = int(np.flatnonzero(env.action_masks())[0])
    with pytest.raises(splendor_rl.BadShape, match=r"one action \(an int\) expected"):
        env.step(np.array([a, a]))
    env.close()


def test_seeds_must_be_non_negative_integers(url):
    with pytest.raises(splendor_rl.BadSeed):
        splendor_rl.make_vec(num_envs=1, seed=1.5, url=url)
    envs, env = splendor_rl.make_vec(num_envs=2, url=url), splendor_rl.make(url=url)
    for reset in (envs.reset, env.reset):
        for seed in (1.5, -1, "3", np.float64(2.0), [1.5, 2]):
            with pytest.raises(splendor_rl.BadSeed, match="non-negative integers"):
                reset(seed=seed)
        reset(seed=np.int64(3))  # numpy integers are integers
    envs.reset(seed=[4, np.uint64(5)])
    envs.close()
    env.close()


def test_reset_refuses_unknown_options(url):
    envs = splendor_rl.make_vec(num_envs=2, url=url, autoreset="disabled")
    envs.reset()
    with pytest.raises(splendor_rl.BadOption, match="'reset_mask'") as err:
        envs.reset(options={"rest_mask": np.array([True, False])})
    assert "rest_mask" in str(err.value)
    envs.reset(options={"reset_mask": np.array([True, False])})
    envs.close()
    env = splendor_rl.make(url=url)
    with pytest.raises(splendor_rl.BadOption, match="takes no options"):
        env.reset(options={"seat": 1})
    env.reset(options={})
    env.close()


def test_calls_after_close_raise_env_closed(url):
    envs = splendor_rl.make_vec(num_envs=2, url=url)
    again = splendor_rl.make_vec(num_envs=2, url=url, reconnect=True)  # a closed env must not reconnect
    env = splendor_rl.make(url=url)
    for e in (envs, again, env):
        e.reset()
        e.close()
    for call in (lambda: envs.step(np.zeros(2, np.int64)), lambda: envs.send(np.zeros(2, np.int64)), envs.reset,
                 lambda: again.step(np.zeros(2, np.int64)), lambda: env.step(0), env.reset):
        with pytest.raises(splendor_rl.EnvClosed, match="closed"):
            call()
    assert again.reconnects == 0


def test_an_int_reset_seed_deals_env_i_from_seed_plus_i_modulo_2_64(url):
    envs = splendor_rl.make_vec(num_envs=3, url=url)
    last = 2**64 - 1
    obs, _ = envs.reset(seed=last)
    assert np.array_equal(obs, envs.reset(seed=[last, 0, 1])[0]), "env 1 is dealt from 0, env 2 from 1"
    envs.close()
    made = splendor_rl.make_vec(num_envs=3, seed=last, url=url)  # the server's make wraps the same way
    assert np.array_equal(obs, made.reset()[0])
    made.close()
    with pytest.raises(splendor_rl.BadSeed, match=r"below 2\*\*64"):
        splendor_rl.make_vec(num_envs=1, seed=2**64, url=url)


def unraisable_after(make) -> list:
    """What garbage collection reports ("Exception ignored in …") after `make()` failed."""
    reported = []
    old, sys.unraisablehook = sys.unraisablehook, reported.append
    try:
        with pytest.raises(splendor_rl.SplendorError):
            make()
        gc.collect()
    finally:
        sys.unraisablehook = old
    return reported


def test_a_constructor_that_refuses_its_arguments_leaves_nothing_behind(url):
    for make in (lambda: splendor_rl.make_vec(seed=-1), lambda: splendor_rl.make_vec(num_envs=0),
                 lambda: splendor_rl.make_vec(url="http://127.0.0.1:1/ws"),
                 lambda: splendor_rl.make_vec(num_envs=2, url=url, players=9),
                 lambda: splendor_rl.make_vec(num_envs=2, url=[url, url], seed=-1)):
        assert unraisable_after(make) == []


@pytest.mark.parametrize("num_envs", [None, 0, -2, 2.5, 2.0, "4", True])
def test_num_envs_must_be_a_positive_integer(url, num_envs):
    for make in (lambda: splendor_rl.make_vec(num_envs=num_envs, url=url),
                 lambda: splendor_rl.make_vec(num_envs=num_envs, url=[url, url])):
        with pytest.raises(splendor_rl.BadOption, match=rf"^num_envs must be a positive integer .*, got {re.escape(repr(num_envs))}$"):
            make()


def test_actions_that_are_not_integers_say_what_they_are(url):
    envs = splendor_rl.make_vec(num_envs=2, seed=1, url=url)
    _, infos = envs.reset()
    legal = infos["action_mask"].argmax(axis=1)
    for bad, named in ((legal > 0, "got bool values"), (None, "got None"), (["a", "b"], "got <U1 values"),
                       ([legal[0], None], "got object values")):
        with pytest.raises(splendor_rl.BadShape, match=r"^actions must be integers \(action indices\), " + re.escape(named)) as err:
            envs.step(bad)
        assert "float" not in str(err.value)
    envs.step(legal)
    envs.close()
    env = splendor_rl.make(seed=1, url=url)
    env.reset()
    for bad, named in ((True, "got True"), (None, "got None"), ("3", "got '3'")):
        with pytest.raises(splendor_rl.BadShape, match=re.escape(named)):
            env.step(bad)
    env.close()


@pytest.mark.parametrize("bad_url", ["http://127.0.0.1:8765/ws", "127.0.0.1:8765", "localhost:8765/ws"])
def test_a_url_that_is_not_a_websocket_url_says_what_one_is(bad_url):
    for make in (lambda: Connection(bad_url), lambda: splendor_rl.make_vec(url=bad_url),
                 lambda: splendor_rl.make(url=bad_url), lambda: splendor_rl.make_vec(num_envs=2, url=[bad_url])):
        with pytest.raises(splendor_rl.BadURL, match=r"is not a WebSocket URL: use ws://host:port/ws") as err:
            make()
        assert isinstance(err.value, ValueError) and bad_url in str(err.value)
