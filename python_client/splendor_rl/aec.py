"""Self-play as a PettingZoo AEC env: every seat is an agent, the server plays the rules."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .errors import IllegalAction
from .render import RENDER_MODES, Renderer, check_render_mode, render_human
from .vector import SplendorVectorEnv, one_action


class SplendorAEC(Renderer, AECEnv):
    """Agents `player_0`… act in turn; observations are {"observation", "action_mask"} (mask int8). Every agent's
    observation is current: the server serves every seat's view each step (option `obs_seats="all"`), each with
    what that seat cannot see hidden; the mask is all zeros when it is not the agent's turn. An illegal action
    forfeits by default (the PettingZoo convention: -1 for the offender). `render_mode` "ansi", "human" (printed
    at every reset() and step()) or "rgb_array" renders the whole table, every seat's cards included
    (docs/python.md)."""

    metadata = {"name": "splendor_v1", "is_parallelizable": False, "render_modes": RENDER_MODES}  # name per env id

    def __init__(self, env_id: str = "splendor-v1", *, players: int = 2, seed: int = 0, url: str | None = None,
                 illegal_action: str = "forfeit", render_mode: str | None = None, **options: Any):
        super().__init__()
        self.render_mode = check_render_mode(render_mode)
        options["obs_seats"] = "all"  # every agent's own current view
        self._vec = SplendorVectorEnv(env_id, 1, seed=seed, url=url, mode="self_play", players=players,
                                      autoreset="disabled", illegal_action=illegal_action, **options)
        self.metadata = {**self.metadata, "name": env_id.replace("-", "_")}  # splendor_duel_v1 for Duel
        self.possible_agents = [f"player_{i}" for i in range(players)]
        views = self._vec.single_observation_space  # [players, obs]: one seat's view per row
        obs_space = spaces.Box(views.low[0], views.high[0], dtype=views.dtype)
        n = self._vec.single_action_space.n
        self._spaces = spaces.Dict({"observation": obs_space,
                                    "action_mask": spaces.Box(0, 1, shape=(n,), dtype=np.int8)})
        self.observation_spaces = {a: self._spaces for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._zero_mask = np.zeros(n, np.int8)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """`seed`: a non-negative int, else `BadSeed`. `options` are ignored: PettingZoo's `api_test` resets with
        made-up ones and expects no error (the Gymnasium adapters refuse unknown keys)."""
        obs, infos = self._vec.reset(seed=None if seed is None else [seed])
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._show(obs, infos)
        render_human(self)

    def _show(self, obs: np.ndarray, infos: dict) -> None:
        seat = int(infos["to_play"][0])
        self.agent_selection = self.possible_agents[seat]
        self._views = obs[0]
        self._mask = infos["action_mask"][0].astype(np.int8)

    def observe(self, agent: str) -> dict:
        to_act = agent == self.agent_selection and not (self.terminations[agent] or self.truncations[agent])
        view = self._views[self.possible_agents.index(agent)]
        return {"observation": view, "action_mask": self._mask if to_act else self._zero_mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalAction(f"step(None) is only for agents that are done (terminated or truncated); {agent} "
                                "is to act: pass one of its legal actions (observe(agent)['action_mask'])")
        obs, _, terminated, truncated, infos = self._vec.step(one_action(action))
        self._cumulative_rewards[agent] = 0.0
        seat_rewards = infos["seat_rewards"][0]
        self.rewards = {a: float(seat_rewards[i]) for i, a in enumerate(self.possible_agents) if a in self.agents}
        if terminated[0] or truncated[0]:
            self.terminations = {a: bool(terminated[0]) for a in self.agents}
            self.truncations = {a: bool(truncated[0]) for a in self.agents}
            self._views = obs[0]
            self._mask = self._zero_mask
        else:
            self._show(obs, infos)
        self._accumulate_rewards()
        render_human(self)

    def close(self) -> None:
        self._vec.close()
