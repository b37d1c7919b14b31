"""One server env as a `gymnasium.Env`: the agent plays one seat against built-in bots."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from .render import RENDER_MODES, Renderer, check_render_mode, render_human
from .seeds import check_seed
from .vector import SplendorVectorEnv, check_reset_options, one_action


class SplendorEnv(Renderer, gym.Env):
    """The agent owns one seat of a `vs_bots` game (the seat is drawn per episode unless `seat` is given); the
    bots play the others on the server. `action_masks()` returns the legal actions, as sb3-contrib's
    `MaskablePPO` expects. An illegal action defaults to `illegal_action="forfeit"`: the episode ends as a loss
    (-1), which keeps generic tools that sample any action working; pass "error" to raise instead.

    With `reconnect=True` a lost connection ends the episode as truncated, with `info["reconnected"]` True, and
    the step returns the first observation of a new one (see `SplendorVectorEnv`).

    `render_mode` "ansi" renders the table as the agent's seat sees it as text, "human" prints that at every
    reset() and step(), "rgb_array" draws it (docs/python.md)."""

    metadata = {"render_modes": RENDER_MODES, "render_fps": 4}  # fps: for video recorders; a turn a quarter second

    def __init__(self, env_id: str = "splendor-v1", *, seed: int = 0, url: str | None = None, bots: Any = "random",
                 illegal_action: str = "forfeit", reconnect: bool = False, reconnect_timeout: float = 60.0,
                 render_mode: str | None = None, **options: Any):
        self.render_mode = check_render_mode(render_mode)
        self._vec = SplendorVectorEnv(env_id, 1, seed=seed, url=url, mode="vs_bots", bots=bots,
                                      autoreset="disabled", illegal_action=illegal_action, reconnect=reconnect,
                                      reconnect_timeout=reconnect_timeout, **options)
        self.observation_space = self._vec.single_observation_space
        self.action_space = self._vec.single_action_space
        self.action_labels = self._vec.action_labels
        self.layout = self._vec.layout
        self._mask = np.zeros(self.action_space.n, dtype=bool)
        self._seat = 0

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        """`seed`: a non-negative int, else `BadSeed`; `options`: none are read, so any key raises `BadOption`."""
        check_reset_options(options, ())
        seed = None if seed is None else check_seed(seed)  # before gymnasium's, whose error says less
        super().reset(seed=seed)
        obs, infos = self._vec.reset(seed=None if seed is None else [seed])
        info = self._info(infos)
        render_human(self)
        return obs[0], info

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        """`action`: an int, or an integer array of shape () or (1,); else `BadShape`."""
        obs, rewards, terminated, truncated, infos = self._vec.step(one_action(action))
        info = self._info(infos)
        render_human(self)
        return obs[0], float(rewards[0]), bool(terminated[0]), bool(truncated[0]), info

    def _info(self, infos: dict) -> dict:
        self._mask, self._seat = infos["action_mask"][0], int(infos["to_play"][0])
        info = {"action_mask": self._mask.copy(), "seat": self._seat}
        if "reconnected" in infos:
            info["reconnected"] = True
        return info

    def _render_seat(self) -> int:
        return self._seat  # the agent's: render shows what it may see

    def action_masks(self) -> np.ndarray:
        return self._mask.copy()

    def close(self) -> None:
        self._vec.close()
