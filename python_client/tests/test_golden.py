"""The golden frames of encoding/wire/testdata, shared with the Go tests, decode to their documented values."""

import json

import numpy as np
import pytest

from splendor_rl.codec import pack, to_numpy, unpack

from .conftest import GOLDEN

FRAMES = sorted(p.stem for p in GOLDEN.glob("*.msgpack"))


def plain(value):
    """The frame's value as its .json rendering writes it: bin as {"bin": hex}."""
    if isinstance(value, bytes):
        return {"bin": value.hex()}
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def test_every_message_kind_has_a_frame():
    assert {"hello_request", "hello_reply", "make_request", "make_reply", "reset_request", "step_request",
            "step_reply", "close_request", "close_reply", "error_reply", "get_state_request", "get_state_reply",
            "set_state_request", "determinize_request", "fork_request", "bot_actions_request",
            "bot_actions_reply", "bot_actions_targets_request", "bot_actions_targets_reply", "view_request",
            "view_reply"} <= set(FRAMES)


@pytest.mark.parametrize("name", FRAMES)
def test_frame_decodes_to_its_json(name):
    frame = (GOLDEN / f"{name}.msgpack").read_bytes()
    described = json.loads((GOLDEN / f"{name}.json").read_text())
    assert plain(unpack(frame)) == described


@pytest.mark.parametrize("name", [n for n in FRAMES if n.endswith("_request")])
def test_requests_encode_to_the_same_bytes(name):
    """The client writes requests byte for byte as the Go codec does (field order of the frame kept)."""
    frame = (GOLDEN / f"{name}.msgpack").read_bytes()
    assert pack(unpack(frame)) == frame


def test_step_reply_tensors():
    reply = unpack((GOLDEN / "step_reply.msgpack").read_bytes())
    assert np.array_equal(to_numpy(reply["obs"]), np.array([[1, 2, 3], [4, 5, 6]], np.uint8))
    assert np.array_equal(to_numpy(reply["mask"]), np.array([[0, 0], [1, 1]], np.uint8))
    assert np.array_equal(to_numpy(reply["rewards"]), np.array([[1, -1], [0, 0]], np.float32))
    assert to_numpy(reply["terminated"]).tolist() == [True, False]
    assert to_numpy(reply["to_play"]).tolist() == [1, 0]


def test_step_request_actions_and_reset_seeds():
    step = unpack((GOLDEN / "step_request.msgpack").read_bytes())
    assert to_numpy(step["actions"]).tolist() == [0, 1]
    reset = unpack((GOLDEN / "reset_request.msgpack").read_bytes())
    assert reset["seeds"] == [7, 2**63]


def test_search_frames():
    """The search ops' frames as the client sends and reads them (splendor_rl.search)."""
    states = unpack((GOLDEN / "get_state_reply.msgpack").read_bytes())["states"]
    assert len(states) == 1 and states[0].startswith("seed=8 next=") and "; players=2 " in states[0]
    set_state = unpack((GOLDEN / "set_state_request.msgpack").read_bytes())
    assert (set_state["op"], set_state["env_ids"], set_state["states"]) == ("set_state", [0], states)
    determinize = unpack((GOLDEN / "determinize_request.msgpack").read_bytes())
    assert (determinize["env_ids"], determinize["seeds"]) == ([0, 1], [11, 2**63])
    fork = unpack((GOLDEN / "fork_request.msgpack").read_bytes())
    assert (fork["src"], fork["dst"]) == ([0, 0], [1, 2])
    advise = unpack((GOLDEN / "bot_actions_request.msgpack").read_bytes())
    assert (advise["bot"], advise["seed"], advise["env_ids"]) == ("greedy", 3, [0, 1])
    actions = to_numpy(unpack((GOLDEN / "bot_actions_reply.msgpack").read_bytes())["actions"])
    assert actions.dtype == np.int32 and actions.tolist() == [5, -1]
    advise = unpack((GOLDEN / "bot_actions_targets_request.msgpack").read_bytes())
    assert (advise["bot"], advise["targets"]) == ("mcts:800", True)
    targets = unpack((GOLDEN / "bot_actions_targets_reply.msgpack").read_bytes())
    policy, value = to_numpy(targets["policy"]), to_numpy(targets["value"])
    assert policy.dtype == np.float32 and policy.tolist() == [[0.25, 0.75], [0, 0]] and value.tolist() == [0.5, 0]
    assert to_numpy(targets["values"]).tolist() == [[0.5, -0.5], [0, 0]]  # every seat's, the seat to play's first
    seats = unpack((GOLDEN / "evaluate_seats_request.msgpack").read_bytes())
    assert to_numpy(seats["values"]).tolist() == [[0.5, -0.5]]


def test_view_frames():
    """The view op's frames as `SplendorVectorEnv.view` sends and reads them: views are plain maps."""
    request = unpack((GOLDEN / "view_request.msgpack").read_bytes())
    assert (request["op"], request["env_ids"], request["seat"]) == ("view", [0], 1)
    reply = unpack((GOLDEN / "view_reply.msgpack").read_bytes())
    assert reply["views"][0]["deck_sizes"] == [36, 26, 16] and reply["views"][0]["over"] is False
    assert reply["boards"][0].startswith("Splendor: turn 1, seat 0 to act")
