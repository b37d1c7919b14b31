"""A batch of server envs as a `gymnasium.vector.VectorEnv`, with envpool-style `send` / `recv`."""

from __future__ import annotations

from collections import deque
from typing import Any, Sequence

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .codec import from_numpy, to_numpy
from .connection import Connection
from .server import LocalServer

AUTORESET = {"next_step": AutoresetMode.NEXT_STEP, "same_step": AutoresetMode.SAME_STEP,
             "disabled": AutoresetMode.DISABLED}


class SplendorVectorEnv(VectorEnv):
    """`num_envs` envs of `env_id` stepped together by the server.

    Observations are read-only numpy views of the reply (no copy). `infos` carries `action_mask` (bool,
    [N, actions]), `to_play` (the seat whose decision comes next), and `seat_rewards` ([N, players], absolute
    seats); the `rewards` returned are those of the seat that made each env's decision. Env i's first episode
    is dealt from `seed + i`; options are the env's (docs/envs/splendor.md) plus `autoreset`, `obs_dtype`,
    `illegal_action`. Without `url` (or `connection`) a local server is started and stopped with the env."""

    def __init__(self, env_id: str = "splendor-v1", num_envs: int = 1, *, seed: int = 0, url: str | None = None,
                 token: str | None = None, connection: Connection | None = None, **options: Any):
        self._server = None
        if connection is None:
            if url is None:
                self._server = LocalServer()
                url = self._server.url
            connection = Connection(url, token=token)
            self._owns_connection = True
        else:
            self._owns_connection = False
        self.connection = connection
        made = connection.call("make", env=env_id, num_envs=num_envs, options=options or None, seed=seed)
        self.handle = made["handle"]
        self.spec_info = made["spec"]
        self._setup_spaces(num_envs)
        self._acting: deque[np.ndarray] = deque()
        self._to_play = np.zeros(num_envs, dtype=np.int32)
        self._closed = False

    def _setup_spaces(self, num_envs: int) -> None:
        spec = self.spec_info
        self.num_envs = num_envs
        self.num_players = spec["players"]
        self.action_labels = list(spec["action_labels"])
        dtype = np.uint8 if spec["obs_dtype"] == "uint8" else np.float32
        self.single_observation_space = spaces.Box(0, 255, shape=tuple(spec["obs_shape"]), dtype=dtype)
        self.single_action_space = spaces.Discrete(spec["num_actions"])
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.metadata = {"autoreset_mode": AUTORESET[spec["autoreset"]], "render_modes": []}

    def reset(self, *, seed: int | Sequence[int] | None = None,
              options: dict | None = None) -> tuple[np.ndarray, dict]:
        """seed: an int s deals env i from s + i, a sequence gives one seed per env, None continues each env's
        seed sequence (the first reset deals make's seed + i). options={"reset_mask": bool [N]} resets only those
        envs (for autoreset "disabled")."""
        ids = None
        if options and "reset_mask" in options:
            ids = [int(i) for i in np.flatnonzero(options["reset_mask"])]
        count = self.num_envs if ids is None else len(ids)
        seeds = None
        if isinstance(seed, (int, np.integer)):
            seeds = [int(seed) + i for i in range(count)]
        elif seed is not None:
            seeds = [int(s) for s in seed]
        reply = self.connection.call("reset", handle=self.handle, seeds=seeds, env_ids=ids)
        obs, _, _, _, infos = self._unpack(reply, acting=None)
        return obs, infos

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        self.send(actions)
        return self.recv()

    def send(self, actions: Any) -> None:
        """Send a step without waiting for it: compute something else, then `recv`."""
        tensor = from_numpy(actions, "int32")
        self.connection.send("step", handle=self.handle, actions=tensor)
        self._acting.append(self._to_play.copy())

    def recv(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        """The result of the oldest step sent with `send`."""
        acting = self._acting.popleft()
        return self._unpack(self.connection.recv(), acting)

    def _unpack(self, reply: dict, acting: np.ndarray | None):
        obs = to_numpy(reply["obs"])
        mask = to_numpy(reply["mask"]).view(np.bool_)
        seat_rewards = to_numpy(reply["rewards"])
        self._to_play = to_numpy(reply["to_play"])
        rows = np.arange(self.num_envs)
        rewards = np.zeros(self.num_envs, np.float32) if acting is None else seat_rewards[rows, acting]
        infos = {"action_mask": mask, "to_play": self._to_play, "seat_rewards": seat_rewards}
        if "ended" in reply:
            ended = to_numpy(reply["ended"])
            infos["final_obs"], infos["_final_obs"] = to_numpy(reply["final_obs"]), ended
        return obs, rewards, to_numpy(reply["terminated"]), to_numpy(reply["truncated"]), infos

    def close_extras(self, **kwargs: Any) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            while self._acting:
                self.recv()
            self.connection.call("close", handle=self.handle)
        finally:
            if self._owns_connection:
                self.connection.close()
            if self._server is not None:
                self._server.stop()
