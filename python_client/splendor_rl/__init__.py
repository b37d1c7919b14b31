"""splendor_rl: the Python client of the Splendor RL environment server.

    import splendor_rl
    envs = splendor_rl.make_vec("splendor-v1", num_envs=64, seed=0)   # a local server starts if no url= is given
    obs, infos = envs.reset()
    obs, rewards, terminated, truncated, infos = envs.step(actions)   # infos["action_mask"]: legal actions

Importing it registers the Gymnasium ids `splendor_rl/splendor-v1` and `splendor_rl/splendor-duel-v1`.
"""

from __future__ import annotations

from typing import Any, Sequence

from .connection import Connection
from .errors import (BadOption, BadRequest, BadSeed, BadShape, BadState, BadURL, ConnectionLost, EnvClosed,
                     IllegalAction, InternalError, LimitExceeded, ProtocolError, ServerUnreachable, SplendorError,
                     Unauthorized, UnknownEnv, UnknownHandle, UnknownOp)
from .extras import MissingExtra, require
from .record import record
from .sample import sample_legal
from .seeds import derive_seed
from .server import LocalServer, find_binary
from .shards import ShardedVectorEnv
from .single import SplendorEnv
from .vector import SplendorVectorEnv

__all__ = ["make_vec", "make", "make_aec", "make_gym_vec", "GYM_IDS", "Connection", "LocalServer", "find_binary",
           "SplendorVectorEnv", "ShardedVectorEnv", "SplendorEnv", "derive_seed", "SplendorError", "BadRequest", "UnknownOp",
           "Unauthorized", "UnknownEnv", "BadOption", "BadSeed", "BadShape", "BadState", "IllegalAction",
           "UnknownHandle", "LimitExceeded", "InternalError", "BadURL", "ProtocolError", "ConnectionLost", "ServerUnreachable",
           "EnvClosed", "MissingExtra", "sample_legal", "record"]

# Gymnasium ids (namespace splendor_rl) → server env ids.
GYM_IDS = {"splendor_rl/splendor-v1": "splendor-v1", "splendor_rl/splendor-duel-v1": "splendor-duel-v1"}


def make_vec(env_id: str = "splendor-v1", num_envs: int = 1, *, seed: int = 0,
             url: str | Sequence[str] | None = None, reconnect: bool = False,
             **options: Any) -> SplendorVectorEnv | ShardedVectorEnv:
    """A batched `gymnasium.vector.VectorEnv` of `num_envs` server envs (see `SplendorVectorEnv`, also for
    `reconnect=True`); `url` a list of several servers' URLs spreads them over those servers, with the same
    trajectories for the same seeds (`ShardedVectorEnv`)."""
    if url is not None and not isinstance(url, str):
        return ShardedVectorEnv(env_id, num_envs, urls=list(url), seed=seed, reconnect=reconnect, **options)
    return SplendorVectorEnv(env_id, num_envs, seed=seed, url=url, reconnect=reconnect, **options)


def make(env_id: str = "splendor-v1", *, seed: int = 0, url: str | None = None, reconnect: bool = False,
         **options: Any) -> SplendorEnv:
    """A single `gymnasium.Env` playing one seat against built-in bots (see `SplendorEnv`)."""
    return SplendorEnv(env_id, seed=seed, url=url, reconnect=reconnect, **options)


def make_aec(env_id: str = "splendor-v1", *, players: int = 2, seed: int = 0, url: str | None = None,
             **options: Any):
    """A PettingZoo AEC env for self-play (needs the `pettingzoo` extra)."""
    require("make_aec", "pettingzoo", "pettingzoo")
    from .aec import SplendorAEC

    return SplendorAEC(env_id, players=players, seed=seed, url=url, **options)


def make_gym_vec(env_id: str = "splendor-v1", num_envs: int = 1, **kwargs: Any) -> SplendorVectorEnv:
    """`gymnasium.make_vec`'s vector entry point: `make_vec` with the defaults of `make` (one seat against random
    bots, illegal actions forfeit), so that every vectorization mode of a Gymnasium id plays the same game."""
    kwargs.setdefault("mode", "vs_bots")
    kwargs.setdefault("illegal_action", "forfeit")
    return make_vec(env_id, num_envs, **kwargs)


def _register_gym_ids() -> None:
    import gymnasium

    for gym_id, env_id in GYM_IDS.items():
        if gym_id not in gymnasium.registry:  # importing twice (a reload) must not warn about overriding
            gymnasium.register(gym_id, entry_point="splendor_rl:make", vector_entry_point="splendor_rl:make_gym_vec",
                               kwargs={"env_id": env_id})


_register_gym_ids()
