"""Self-play as an RLlib `MultiAgentEnv` (new API stack), registered with Ray Tune as "splendor-v1" and
"splendor-duel-v1" on import. Needs the `rllib` extra.

    import splendor_rl.rllib  # registers the env names
    config = PPOConfig().environment("splendor-v1", env_config={"players": 3, "seed": 7},
                                     disable_env_checking=True)

Each env runner's envs share one server: this process's local server (see `splendor_rl.server`), or the server
`url` names (a list of URLs spreads the runners over them by worker index).
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
from gymnasium import spaces
from ray.rllib.env.multi_agent_env import MultiAgentEnv
from ray.tune.registry import register_env

from .errors import IllegalAction
from .seeds import check_seed, derive_seed
from .vector import SplendorVectorEnv, one_action

ENV_IDS = ("splendor-v1", "splendor-duel-v1")

# What this adapter decides and env_config["options"] may not: one game per env, every seat's own view (a final
# observation for every seat, which RLlib needs to bootstrap a truncated episode), float observations for torch.
FIXED_OPTIONS = {"mode": "self_play", "autoreset": "disabled", "obs_seats": "all", "obs_dtype": "float32"}

# Open envs per (env id, worker index, vector index) in this process: RLlib hands every env of a multi-agent env
# runner the same EnvContext (vector_index 0), so an env's slot among the open ones tells them apart.
_slots: dict[tuple, set[int]] = {}
_slots_lock = threading.Lock()


def _take_slot(key: tuple) -> int:
    with _slots_lock:
        taken = _slots.setdefault(key, set())
        slot = next(i for i in range(len(taken) + 1) if i not in taken)
        taken.add(slot)
        return slot


def _free_slot(key: tuple, slot: int) -> None:
    with _slots_lock:
        _slots[key].discard(slot)


def _pick_url(url: str | list[str] | None, worker: int) -> str | None:
    """One server per env runner: a list of URLs is spread over the runners by worker index."""
    if url is None or isinstance(url, str):
        return url
    return url[worker % len(url)]


class SplendorMultiAgentEnv(MultiAgentEnv):
    """One self-play game. Agents `player_0`… are the seats; only the seat to play receives an observation,
    `{"observations": float32 [obs], "action_mask": float32 [actions] of 0/1}` (the layout RLlib's
    `ActionMaskingTorchRLModule` reads), and only it may act; a seat may act several times in a row (token
    returns, noble choice…). Rewards go to every seat at every step (zero until the end unless
    `options={"reward": "score_diff"}`); at the end every seat gets its final view and `"__all__"` is set in
    terminateds (the game ended by the rules) or truncateds (turn limit).

    An illegal action raises `IllegalAction` (the server refuses it and nothing changes) rather than being
    penalised, so a policy that ignores the mask fails loudly. RLlib's env checker steps with an unmasked random
    action: set `config.environment(disable_env_checking=True)`, or `options={"illegal_action": "forfeit"}`
    (an illegal action then ends the game as the seat's loss, and the checker passes).

    env_config: `players` (2–4; Duel: 2), `seed` (default 0), `url` (a URL or a list; default: the local
    server), `token`, `options` (the env's server options, e.g. `max_rounds`, `reward`). Every deal seed, the
    one from `seed` as well as one given to `reset`, is combined with the env's place (worker index, vector
    index, slot) by `derive_seed`, so runners play different games even when RLlib hands them all the same reset
    seed (its env checker resets every env with 42), and the same config replays the same games."""

    def __init__(self, config: dict | None = None, env_id: str = "splendor-v1"):
        super().__init__()
        worker, vector = getattr(config, "worker_index", 0), getattr(config, "vector_index", 0)  # an EnvContext's
        config = dict(config or {})
        options = dict(config.get("options") or {})
        clash = sorted(set(options) & set(FIXED_OPTIONS))
        if clash:
            raise ValueError(f"options {clash} are set by the RLlib env itself ({FIXED_OPTIONS})")
        options.setdefault("illegal_action", "error")
        self._slot_key = (env_id, worker, vector)
        self._slot = _take_slot(self._slot_key)
        self._place = (worker, vector, self._slot)
        try:
            self._vec = SplendorVectorEnv(
                env_id, 1, seed=self._deal_seed(config.get("seed", 0)), url=_pick_url(config.get("url"), worker),
                token=config.get("token"), players=config.get("players", 2), **FIXED_OPTIONS, **options)
        except BaseException:
            _free_slot(self._slot_key, self._slot)
            raise
        self._closed = False
        self.possible_agents = [f"player_{i}" for i in range(self._vec.num_players)]
        self.agents = list(self.possible_agents)
        self.observation_spaces = {a: self._seat_space() for a in self.possible_agents}
        self.action_spaces = {a: self._vec.single_action_space for a in self.possible_agents}
        self.action_labels = self._vec.action_labels
        self.to_play: str | None = None

    def _seat_space(self) -> spaces.Dict:
        views = self._vec.single_observation_space  # [players, obs]: one seat's view per row
        return spaces.Dict({
            "observations": spaces.Box(views.low[0], views.high[0], dtype=np.float32),
            "action_mask": spaces.Box(0.0, 1.0, shape=(self._vec.single_action_space.n,), dtype=np.float32),
        })

    def _deal_seed(self, seed: Any) -> int:
        return derive_seed(check_seed(seed), *self._place)

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        """`seed`: a non-negative int (combined with the env's place, see the class), or None to deal the env's
        next game. `options` are not read (RLlib's env checker passes `{}`)."""
        obs, infos = self._vec.reset(seed=None if seed is None else [self._deal_seed(seed)])
        return self._to_play_obs(obs, infos), {}

    def step(self, action_dict: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        if set(action_dict) != {self.to_play}:
            raise ValueError(f"only {self.to_play} is to play; got actions for {sorted(action_dict)}")
        action = one_action(action_dict[self.to_play])
        try:
            obs, _, terminated, truncated, infos = self._vec.step(action)
        except IllegalAction as refused:
            raise IllegalAction(
                f"{self.to_play} chose action {int(action[0])} ({self.action_labels[int(action[0])]}), which its "
                "action_mask forbids. (RLlib's env checker samples unmasked actions: set "
                "config.environment(disable_env_checking=True), or env_config options "
                "{'illegal_action': 'forfeit'}.)") from refused
        rewards = {a: float(r) for a, r in zip(self.possible_agents, infos["seat_rewards"][0])}
        if terminated[0] or truncated[0]:
            self.to_play = None
            observations = self._every_seat_obs(obs, infos)
        else:
            observations = self._to_play_obs(obs, infos)
        return observations, rewards, {"__all__": bool(terminated[0])}, {"__all__": bool(truncated[0])}, {}

    def _to_play_obs(self, obs: np.ndarray, infos: dict) -> dict:
        seat = int(infos["to_play"][0])
        self.to_play = self.possible_agents[seat]
        return {self.to_play: self._seat_obs(obs, infos, seat)}

    def _every_seat_obs(self, obs: np.ndarray, infos: dict) -> dict:
        return {a: self._seat_obs(obs, infos, seat) for seat, a in enumerate(self.possible_agents)}

    @staticmethod
    def _seat_obs(obs: np.ndarray, infos: dict, seat: int) -> dict:
        # The server's mask is the seat to play's; at the end it is all zeros, which suits every seat.
        return {"observations": np.array(obs[0, seat], dtype=np.float32),
                "action_mask": infos["action_mask"][0].astype(np.float32)}

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            self._vec.close()
        finally:
            _free_slot(self._slot_key, self._slot)


def _register() -> None:
    for env_id in ENV_IDS:
        register_env(env_id, lambda config, env_id=env_id: SplendorMultiAgentEnv(config, env_id))


_register()
