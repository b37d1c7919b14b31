"""`record(env, directory)`: write every episode an env plays as a replay file the browser viewer opens, in the
decision/result lines of `splendorctl trace` (docs/trace.md), with each decision's state view (docs/python.md)."""

from __future__ import annotations

import os
from typing import Any

import gymnasium
import numpy as np

from .arena_replay import ReplayWriter, episode_seed, game_notation, write_replay


class EpisodeRecorder:
    """Collects the decisions of one server env (row 0 of `vec`) and writes each ended episode to
    `directory/game-NNNNNN.jsonl`, counting episodes from 0."""

    def __init__(self, vec: Any, directory: str):
        self.vec, self.episodes = vec, 0
        self.paths = ReplayWriter(directory, vec.spec_info["id"], vec.action_labels)
        self.decisions: list[dict] = []

    def start(self) -> None:
        self.decisions, self.seed = [], episode_seed(self.vec.get_state([0])[0])

    def decide(self, action: Any, mask: np.ndarray) -> None:
        """Records the decision about to be stepped: the referee's view of the table before it, the legal
        actions, the action."""
        state = self.vec.view([0])[0][0]
        action, legal = int(action), np.flatnonzero(mask).tolist()
        labels = self.vec.action_labels
        self.decisions.append({
            "type": "decision", "game": self.episodes, "seed": self.seed, "decision": len(self.decisions),
            "turn": state["turn"], "seat": state["seat"], "phase": state["phase"], "state": state, "legal": legal,
            "legal_labels": [labels[a] for a in legal], "action": action, "label": labels[action]})

    def finish(self, truncated: bool) -> None:
        """Writes the ended episode: its decisions, then a result line with the final state."""
        final = self.vec.view([0])[0][0]
        write_replay(self.paths.path(self.episodes), self.decisions, {
            "type": "result", "game": self.episodes, "seed": self.seed, "turns": final["turn"],
            "decisions": len(self.decisions), "scores": [s["points"] for s in final["seats"]],
            "winners": final.get("winners", []), "truncated": truncated,
            "final_state": game_notation(self.vec.get_state([0])[0]), "env": self.paths.env_id,
            "players": len(final["seats"]), "options": self.vec.spec_info["options"]})
        self.episodes += 1


class RecordedEnv(gymnasium.Wrapper):
    """A `SplendorEnv` whose episodes are written as replays (`record`)."""

    def __init__(self, env: Any, directory: str):
        super().__init__(env)
        self.recorder = EpisodeRecorder(env.unwrapped._vec, directory)

    def reset(self, **kwargs: Any):
        result = self.env.reset(**kwargs)
        self.recorder.start()
        return result

    def step(self, action: Any):
        self.recorder.decide(action, self.env.unwrapped.action_masks())
        obs, reward, terminated, truncated, info = self.env.step(action)
        if terminated or truncated:
            self.recorder.finish(bool(truncated))
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal actions (MaskablePPO looks for this method on the env it is given)."""
        return self.env.unwrapped.action_masks()


def record(env: Any, directory: str | os.PathLike) -> Any:
    """`env` (from `splendor_rl.make` or `make_aec`) wrapped so that every episode it plays is written to
    `directory` as a replay: `game-000000.jsonl`, `game-000001.jsonl`… A vs_bots env records the agent's
    decisions only (the bots play inside the server); replaying them in an env of the same options and seed plays
    the same game."""
    from .single import SplendorEnv

    if isinstance(env.unwrapped, SplendorEnv):
        return RecordedEnv(env, str(directory))
    if type(env.unwrapped).__name__ == "SplendorAEC":  # not imported here: pettingzoo is an extra
        return _recorded_aec(env, str(directory))
    raise TypeError(f"record() takes an env of splendor_rl.make or make_aec, got {type(env).__name__}")


def _recorded_aec(env: Any, directory: str) -> Any:
    from pettingzoo.utils.wrappers import BaseWrapper

    class RecordedAEC(BaseWrapper):
        """A `SplendorAEC` whose episodes are written as replays (`record`)."""

        def __init__(self, env: Any, directory: str):
            super().__init__(env)
            self.recorder = EpisodeRecorder(env.unwrapped._vec, directory)

        def reset(self, seed: int | None = None, options: dict | None = None) -> None:
            self.env.reset(seed=seed, options=options)
            self.recorder.start()

        def step(self, action: Any) -> None:
            agent = self.env.agent_selection
            deciding = action is not None and not (self.env.terminations[agent] or self.env.truncations[agent])
            if deciding:  # not the dead steps after the end, nor a None the env refuses
                self.recorder.decide(action, self.env.observe(agent)["action_mask"])
            self.env.step(action)
            if deciding and (self.env.terminations[agent] or self.env.truncations[agent]):
                self.recorder.finish(bool(self.env.truncations[agent]))

    return RecordedAEC(env, directory)
