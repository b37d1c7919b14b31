"""A batch of server envs as a `gymnasium.vector.VectorEnv`, with envpool-style `send` / `recv`."""

from __future__ import annotations

import time
from collections import deque
from contextlib import suppress
from typing import Any, Sequence

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space
from websockets.exceptions import InvalidHandshake

from .codec import from_numpy, to_numpy
from .connection import Connection
from .errors import BadOption, BadShape, ConnectionLost, EnvClosed, SplendorError
from .layout import Layout
from .render import RENDER_MODES, check_render_mode, render_frames, render_human
from .search import SearchOps
from .seeds import check_seed, derive_seed, seed_list
from .server import LocalServer, acquire_shared_server, release_shared_server

AUTORESET = {"next_step": AutoresetMode.NEXT_STEP, "same_step": AutoresetMode.SAME_STEP,
             "disabled": AutoresetMode.DISABLED}

# Reconnect attempts wait 0.1 s, then twice as long each time, at most 2 s, until reconnect_timeout has passed.
RECONNECT_FIRST_DELAY = 0.1
RECONNECT_MAX_DELAY = 2.0


def check_reset_options(options: dict | None, accepted: tuple[str, ...]) -> dict:
    """`options` (a dict), refused if it has keys reset does not read: ignoring a misspelt key would hide it, and
    `make` refuses unknown options too."""
    options = options or {}
    unknown = [key for key in options if key not in accepted]
    if unknown:
        takes = f"accepts only {', '.join(map(repr, accepted))}" if accepted else "takes no options"
        raise BadOption(f"unknown reset option(s) {unknown}: this env's reset {takes}")
    return options


def check_num_envs(num_envs: Any) -> int:
    """`num_envs` as an int ≥ 1, else refused naming it (left to the server, None would be "got 0")."""
    if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
        raise BadOption(f"num_envs must be a positive integer (how many envs to make), got {num_envs!r}")
    return int(num_envs)


def actions_tensor(actions: Any) -> dict:
    """`actions` as an int64 tensor (int64: no silent wrap of large values into int32). Anything but integers
    is refused; floats rather than truncated: 2.7 is no action index, and a float usually means a policy output
    went unconverted."""
    a = np.asarray(actions)
    if a.size and a.dtype.kind not in "iu":
        raise BadShape(f"actions must be integers (action indices), got {not_integers(a)}; pass ints (e.g. an "
                       "argmax or a Categorical sample)")
    return from_numpy(a, "int64")


def not_integers(a: np.ndarray) -> str:
    """What a non-integer actions array holds, for the message: a single action by its value (None, True, 'x')."""
    if a.dtype.kind == "f":
        return f"{a.dtype} values (floats are refused, not truncated)"
    if a.size == 1:
        return repr(a.item())
    return f"{a.dtype} values"


def one_action(action: Any) -> np.ndarray:
    """A single env's action as a batch of one: an int, or an array of shape () or (1,)."""
    a = np.asarray(action)
    if a.shape not in ((), (1,)):
        raise BadShape(f"one action (an int) expected, got an array of shape {a.shape}")
    return a.reshape(1)


def setup_spaces(env: VectorEnv, spec: dict, num_envs: int) -> None:
    """A vector env's spaces, sizes and metadata from make's `spec`."""
    env.num_envs = num_envs
    env.num_players = spec["players"]
    env.action_labels = list(spec["action_labels"])
    env.layout = Layout.from_spec(spec)
    dtype = np.uint8 if spec["obs_dtype"] == "uint8" else np.float32
    env.single_observation_space = spaces.Box(0, 255, shape=tuple(spec["obs_shape"]), dtype=dtype)
    env.single_action_space = spaces.Discrete(spec["num_actions"])
    env.observation_space = batch_space(env.single_observation_space, num_envs)
    env.action_space = batch_space(env.single_action_space, num_envs)
    env.metadata = {"autoreset_mode": AUTORESET[spec["autoreset"]], "render_modes": RENDER_MODES}


def lost_hint(server: LocalServer | None, reconnect: bool) -> str:
    """What a `ConnectionLost` adds for an env on the local server this library started: the user never named
    that URL, and an env made with reconnect=True would start a new server and play on."""
    if server is None or reconnect:
        return ""
    return (f"it was the local server splendor_rl started (pid {server.process.pid}); if it died, an env made with "
            "reconnect=True starts a new one and plays on")


class Pipelined:
    """`step` as `send` then `recv` (which the vector env defines), rendered in "human" mode."""

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        self.send(actions)
        result = self.recv()
        render_human(self)
        return result


class SplendorVectorEnv(SearchOps, Pipelined, VectorEnv):
    """`num_envs` envs of `env_id` stepped together by the server.

    Observations are read-only numpy views of the reply (no copy). `infos` carries `action_mask` (bool,
    [N, actions]), `to_play` (the seat whose decision comes next), and `seat_rewards` ([N, players], absolute
    seats); the `rewards` returned are those of the seat that made each env's decision. Env i's first episode
    is dealt from `seed + i`; options are the env's (docs/envs/splendor.md) plus `autoreset`, `obs_dtype`,
    `illegal_action`. Without `url` (or `connection`) the env uses this process's shared local server (started
    by its first user, stopped when the last one closes). Actions must be integers: floats raise `BadShape`
    rather than being truncated. After `close()`, every call raises `EnvClosed`.

    A lost connection raises `ConnectionLost`, unless `reconnect=True`: then the `reset` or `step` that lost it
    dials the same URL again (retrying for up to `reconnect_timeout` seconds, else raising `ConnectionLost`),
    re-makes the batch with seed `derive_seed(seed, k)` at the k-th reconnect and resets it. That step returns the
    new episodes' first observations, zero rewards, `truncated` set for every env whose episode was in progress,
    and `infos["reconnected"]` (bool [N], all True); with same_step autoreset `final_obs` holds the last
    observations seen. `reconnects` counts them. On the local server (no `url`) a reconnect starts a new local
    server if the old one died."""

    _closed = True  # until __init__ succeeds: a constructor that failed leaves nothing for close() (or __del__)

    def __init__(self, env_id: str = "splendor-v1", num_envs: int = 1, *, seed: int = 0, url: str | None = None,
                 token: str | None = None, connection: Connection | None = None, reconnect: bool = False,
                 reconnect_timeout: float = 60.0, render_mode: str | None = None, **options: Any):
        self.render_mode = check_render_mode(render_mode)
        if reconnect and connection is not None:
            raise ValueError("reconnect=True needs an env that owns its connection: pass url=, not connection=")
        self._seed, self._token = check_seed(seed), token
        num_envs = check_num_envs(num_envs)
        self.reconnect, self.reconnect_timeout, self.reconnects = reconnect, reconnect_timeout, 0
        self._make_fields = {"env": env_id, "num_envs": num_envs, "options": options or None}
        self._closed = False
        self._owns_connection = connection is None
        self._server = acquire_shared_server() if connection is None and url is None else None
        try:
            self.connection = connection if connection is not None else Connection(
                url or self._server.url, token=token, lost_hint=lost_hint(self._server, reconnect))
            self._make(self._seed)
        except BaseException:  # a refused option, say: give back the server and connection taken for it
            self._closed = True
            self._release()
            raise
        setup_spaces(self, self.spec_info, num_envs)
        self._acting: deque[np.ndarray] = deque()
        self._to_play = np.zeros(num_envs, dtype=np.int32)
        self._obs = np.zeros(self.observation_space.shape, self.observation_space.dtype)  # the last seen
        self._over = np.ones(num_envs, dtype=bool)  # envs with no episode in progress (what a reconnect truncates)
        self._lost: ConnectionLost | None = None    # a send lost the connection: its recv reconnects

    def _make(self, seed: int) -> None:
        made = self.connection.call("make", seed=seed, **self._make_fields)
        self.handle = made["handle"]
        self.spec_info = made["spec"]

    def reset(self, *, seed: int | Sequence[int] | None = None,
              options: dict | None = None) -> tuple[np.ndarray, dict]:
        """seed: an int s deals env i from (s + i) mod 2**64 (i counting the envs reset), as make's seed does; a
        sequence gives one seed per env; None continues each env's seed sequence (the first reset deals make's
        seed + i); anything but integers in [0, 2**64) raises `BadSeed`.
        options={"reset_mask": bool [N]} resets only those envs (for autoreset "disabled"); other keys raise
        `BadOption`."""
        self._check_open()
        options = check_reset_options(options, ("reset_mask",))
        ids = None
        if "reset_mask" in options:
            ids = [int(i) for i in np.flatnonzero(options["reset_mask"])]
        seeds = seed_list(seed, self.num_envs if ids is None else len(ids))
        try:
            reply = self.connection.call("reset", handle=self.handle, seeds=seeds, env_ids=ids)
        except ConnectionLost as lost:
            if not self.reconnect:
                raise
            obs, infos = self._reset_after(lost, seeds, ids)
        else:
            obs, _, _, _, infos = self._unpack(reply, acting=None)
        render_human(self)
        return obs, infos

    def _reset_after(self, lost: ConnectionLost, seeds: list[int] | None,
                     ids: list[int] | None) -> tuple[np.ndarray, dict]:
        """The reset that lost the connection, on a new one: every env restarts, then the reset asked for."""
        reply = self._reconnect(lost)
        if seeds is not None or ids is not None:
            reply = self.connection.call("reset", handle=self.handle, seeds=seeds, env_ids=ids)
        obs, _, _, _, infos = self._unpack(reply, acting=None)
        infos["reconnected"] = np.ones(self.num_envs, dtype=bool)
        return obs, infos

    def send(self, actions: Any) -> None:
        """Send a step without waiting for it: compute something else, then `recv`."""
        self._check_open()
        tensor = actions_tensor(actions)
        try:
            self.connection.send("step", handle=self.handle, actions=tensor)
        except ConnectionLost as lost:
            if not self.reconnect:
                raise
            self._lost = lost
        self._acting.append(self._to_play.copy())

    def recv(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        """The result of the oldest step sent with `send`."""
        self._check_open()
        acting = self._acting.popleft()
        if self._lost is None:
            try:
                return self._unpack(self.connection.recv(), acting)
            except ConnectionLost as lost:
                if not self.reconnect:
                    raise
                self._lost = lost
        lost, self._lost = self._lost, None
        return self._recover(lost)

    def _check_open(self) -> None:
        if self._closed:
            raise EnvClosed("this env is closed (close() was called): make a new one")

    def _recover(self, lost: ConnectionLost) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        """The step that lost the connection, answered after reconnecting: see the class docstring."""
        if self._acting:  # more steps of this batch in flight: no honest answer for each
            raise lost
        truncated, last_obs = ~self._over, self._obs
        obs, rewards, terminated, _, infos = self._unpack(self._reconnect(lost), acting=None)
        infos["reconnected"] = np.ones(self.num_envs, dtype=bool)
        if "final_obs" in infos:
            infos["final_obs"] = np.zeros_like(obs)
            infos["final_obs"][truncated] = last_obs[truncated]
            infos["_final_obs"] = truncated
        return obs, rewards, terminated, truncated, infos

    def _reconnect(self, lost: ConnectionLost) -> dict:
        """A new connection, a re-made batch and its reset's reply, retried with backoff until reconnect_timeout
        has passed; then `lost` is raised."""
        deadline = time.monotonic() + self.reconnect_timeout
        delay = RECONNECT_FIRST_DELAY
        while True:
            self.connection.close()
            try:
                return self._remake(deadline)
            except (OSError, InvalidHandshake) as exc:  # refused, reset, or 503 while the old server drains
                if time.monotonic() + delay > deadline:
                    raise lost from exc
                time.sleep(delay)
                delay = min(2 * delay, RECONNECT_MAX_DELAY)

    def _remake(self, deadline: float) -> dict:
        old = self.connection
        self.connection = Connection(self._server_url(), token=self._token, timeout=old.timeout,
                                     connect_timeout=max(0.1, deadline - time.monotonic()))
        self._make(derive_seed(self._seed, self.reconnects + 1))
        reply = self.connection.call("reset", handle=self.handle)
        self.reconnects += 1
        return reply

    def _server_url(self) -> str:
        """The URL to dial again: the same one, unless the local server this env uses died: then a new one."""
        if self._server is None:
            return self.connection.url
        if not self._server.running:
            release_shared_server()
            self._server = None  # holds no server while a new one starts (a failure must not release twice)
            self._server = acquire_shared_server()
        return self._server.url

    def _unpack(self, reply: dict, acting: np.ndarray | None):
        obs = to_numpy(reply["obs"])
        mask = to_numpy(reply["mask"]).view(np.bool_)
        seat_rewards = to_numpy(reply["rewards"])
        self._to_play = to_numpy(reply["to_play"])
        rows = np.arange(self.num_envs)
        rewards = np.zeros(self.num_envs, np.float32) if acting is None else seat_rewards[rows, acting]
        infos = {"action_mask": mask, "to_play": self._to_play, "seat_rewards": seat_rewards}
        terminated, truncated = to_numpy(reply["terminated"]), to_numpy(reply["truncated"])
        self._obs, self._over = obs, terminated | truncated  # an ended row waits for its next episode…
        if "ended" in reply:
            ended = to_numpy(reply["ended"])
            infos["final_obs"], infos["_final_obs"] = to_numpy(reply["final_obs"]), ended
            self._over = np.zeros_like(ended)  # …except under same_step, where the next one has begun
        return obs, rewards, terminated, truncated, infos

    def render(self) -> tuple | None:
        """Every env's table as the referee sees it: a tuple of text boards ("ansi") or images ("rgb_array"), or
        the boards printed ("human", which reset() and step() also do); `render_mode` is given to `make_vec`."""
        frames = render_frames(self, self.render_mode, None, None, self.connection.url)
        return None if frames is None else tuple(frames)

    def close_extras(self, **kwargs: Any) -> None:
        """Idempotent and silent, whatever state the connection is in."""
        if self._closed:
            return
        self._closed = True
        try:
            self._close_batch()
        finally:
            self._release()

    def _release(self) -> None:
        """Close the connection if it is this env's own, and give back its use of the shared local server."""
        if self._owns_connection and hasattr(self, "connection"):
            self.connection.close()
        if self._server is not None:
            release_shared_server()

    def _close_batch(self) -> None:
        """Read the replies still in flight (their errors no longer matter) and close the batch on the server."""
        if self._lost is not None:
            return  # the connection is gone, and the server freed the batch with it
        try:
            for _ in range(len(self._acting)):
                with suppress(SplendorError):
                    self.connection.recv()
            self._acting.clear()
            self.connection.call("close", handle=self.handle)
        except (ConnectionLost, TimeoutError):
            pass  # likewise, or a server that no longer answers
