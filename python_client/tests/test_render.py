"""Render modes (the server's view op drawn as text or pixels), the view method, and replays recorded from Python
that replay to their final state."""

from __future__ import annotations

import json
import warnings

import gymnasium
import numpy as np
import pytest

import splendor_rl
from splendor_rl.arena_replay import game_notation
from splendor_rl.vector import SplendorVectorEnv

GAMES = ["splendor-v1", "splendor-duel-v1"]


def play(env, steps: int, rng: np.random.Generator) -> bool:
    """Plays random legal actions for up to `steps` decisions; True once the episode ended."""
    for _ in range(steps):
        _, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        if terminated or truncated:
            return True
    return False


def test_view_hides_what_a_seat_cannot_see(url):
    envs = SplendorVectorEnv("splendor-v1", 2, url=url, seed=4)
    try:
        envs.reset()
        referee, boards = envs.view()
        assert len(referee) == len(boards) == 2
        assert referee[0]["notation"].startswith("players=2 ") and len(referee[0]["decks"]) == 3
        assert referee[0]["over"] is False and "client_seat" not in referee[0]
        mine, board = envs.view([1], seat=0)
        assert "decks" not in mine[0] and "notation" not in mine[0]
        assert mine[0]["deck_sizes"] == [len(d) for d in referee[1]["decks"]]
        assert mine[0]["market"] == referee[1]["market"] and board[0].startswith("Splendor: turn 1, seat 0")
        with pytest.raises(splendor_rl.BadShape):
            envs.view(seat=2)
        with pytest.raises(splendor_rl.BadShape):
            envs.view([2])
    finally:
        envs.close()


@pytest.mark.parametrize("env_id", GAMES)
def test_ansi_and_human_render_the_agents_board(url, env_id, capsys):
    env = splendor_rl.make(env_id, url=url, seed=2, render_mode="ansi", seat=1)
    try:
        env.reset(seed=2)
        board = env.render()
        title, supply = ("Splendor Duel: ", "board") if "duel" in env_id else ("Splendor: ", "bank")
        assert board.startswith(title + "turn 2, seat 1 to act")  # the bot at seat 0 played turn 1
        assert "\n> seat 1 " in board and f"\n{supply} " in board
        env.render_mode = "human"
        assert env.render() is None
        assert capsys.readouterr().out.strip() == board.strip()
    finally:
        env.close()


@pytest.mark.parametrize("env_id", GAMES)
def test_rgb_array_is_a_picture(url, env_id):
    pytest.importorskip("matplotlib")
    env = gymnasium.make(f"splendor_rl/{env_id}", url=url, seed=5, render_mode="rgb_array")
    try:
        env.reset(seed=5)
        play(env.unwrapped, 20, np.random.default_rng(5))
        image = env.render()
        assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3 and min(image.shape[:2]) >= 400
        colours = np.unique(image.reshape(-1, 3), axis=0)
        assert len(colours) > 50, "a blank or nearly blank image"
        red = np.all(np.abs(image.astype(int) - [0xd2, 0x3b, 0x2e]) < 8, axis=-1)
        assert red.any(), "no red gem or card drawn"
    finally:
        env.close()


def test_vector_envs_render_every_env(url, server):
    """A vector env, on one server or two, renders each env's table as the referee sees it."""
    for urls in (url, [url, url]):
        envs = splendor_rl.make_vec("splendor-duel-v1", 3, url=urls, seed=6, render_mode="ansi")
        try:
            assert "ansi" in envs.metadata["render_modes"]
            envs.reset()
            boards = envs.render()
            assert isinstance(boards, tuple) and len(boards) == 3
            assert boards == tuple(envs.view()[1]) and boards[0] != boards[1]  # each env its own deal
            envs.render_mode = "rgb_array"
            images = envs.render()
            assert len(images) == 3 and images[2].dtype == np.uint8 and images[2].ndim == 3
        finally:
            envs.close()


def first_legal(mask: np.ndarray) -> np.ndarray:
    return np.asarray(mask).argmax(axis=-1)


def human_step(kind: str, env, reset_result) -> None:
    """One step of a legal action, however this kind of env says which are legal."""
    if kind == "aec":
        env.step(int(first_legal(env.observe(env.agent_selection)["action_mask"])))
    elif kind == "single":
        env.step(int(first_legal(env.action_masks())))
    else:
        env.step(first_legal(reset_result[1]["action_mask"]))


@pytest.mark.parametrize("kind, make, boards", [
    ("single", lambda url: splendor_rl.make(url=url, seed=3, render_mode="human"), 1),
    ("vector", lambda url: splendor_rl.make_vec(num_envs=2, url=url, seed=3, render_mode="human"), 2),
    ("shards", lambda url: splendor_rl.make_vec(num_envs=2, url=[url, url], seed=3, render_mode="human"), 2),
    ("aec", lambda url: splendor_rl.make_aec(url=url, seed=3, render_mode="human"), 1)])
def test_human_mode_prints_at_every_reset_and_step(url, kind, make, boards, capsys):
    """Gymnasium's (and PettingZoo's) convention: in "human" mode, reset() and step() render by themselves,
    each env of a vector env its board."""
    env = make(url)
    try:
        assert capsys.readouterr().out == "", "making the env prints nothing"
        reset_result = env.reset(seed=3)
        first = capsys.readouterr().out
        assert first.count("Splendor: turn") == boards, first
        human_step(kind, env, reset_result)
        after = capsys.readouterr().out
        assert after.count("Splendor: turn") == boards and after != first
    finally:
        env.close()


def test_unknown_render_mode_is_refused(url):
    with pytest.raises(ValueError, match="render_mode='bogus'"):
        splendor_rl.make(url=url, render_mode="bogus")


def test_pettingzoo_render(url):
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test, render_test

    env = splendor_rl.make_aec(url=url, seed=1, render_mode="ansi")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=50)
    assert not [w for w in caught if "render" in str(w.message)], [str(w.message) for w in caught]
    env.close()
    render_test(lambda render_mode: splendor_rl.make_aec(url=url, seed=1, render_mode=render_mode))


def replayed_final_state(url: str, result: dict, decisions: list[dict]) -> str:
    """Plays the decisions' actions in a fresh env of the recorded options and seed: its final game state."""
    envs = SplendorVectorEnv(result["env"], 1, url=url, **result["options"])
    try:
        envs.reset(seed=[result["seed"]])
        for d in decisions:
            envs.step(np.array([d["action"]]))
        return game_notation(envs.get_state([0])[0])
    finally:
        envs.close()


def read_replay(path) -> tuple[list[dict], dict]:
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    return lines[:-1], lines[-1]


@pytest.mark.parametrize("env_id", GAMES)
def test_recorded_episodes_replay_to_their_final_state(url, tmp_path, env_id):
    env = splendor_rl.record(splendor_rl.make(env_id, url=url, seed=7, bots="greedy"), tmp_path)
    rng = np.random.default_rng(7)
    try:
        for episode in range(2):
            env.reset(seed=70 + episode)
            assert play(env, 2000, rng)
    finally:
        env.close()
    files = sorted(tmp_path.iterdir())
    assert [f.name for f in files] == ["game-000000.jsonl", "game-000001.jsonl"]
    decisions, result = read_replay(files[1])
    assert result["type"] == "result" and result["seed"] == 71 and result["decisions"] == len(decisions)
    first = decisions[0]
    assert first["type"] == "decision" and first["action"] in first["legal"]
    assert first["label"] == first["legal_labels"][first["legal"].index(first["action"])]
    assert first["state"]["notation"] and first["seat"] == first["state"]["client_seat"]
    assert result["truncated"] or result["winners"] in ([0], [1], [0, 1])
    assert replayed_final_state(url, result, decisions) == result["final_state"]


def test_recorded_self_play_replays_to_its_final_state(url, tmp_path):
    pytest.importorskip("pettingzoo")
    env = splendor_rl.record(splendor_rl.make_aec(url=url, players=3, seed=9), tmp_path)
    env.reset(seed=9)
    rng = np.random.default_rng(9)
    for agent in env.agent_iter(5000):
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    env.close()
    decisions, result = read_replay(tmp_path / "game-000000.jsonl")
    assert {d["seat"] for d in decisions} == {0, 1, 2} and result["players"] == 3
    assert [d["decision"] for d in decisions] == list(range(len(decisions)))
    assert replayed_final_state(url, result, decisions) == result["final_state"]
