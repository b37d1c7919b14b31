"""splendor_rl: the Python client of the Splendor RL environment server.

    import splendor_rl
    envs = splendor_rl.make_vec("splendor-v1", num_envs=64, seed=0)   # a local server starts if no url= is given
    obs, infos = envs.reset()
    obs, rewards, terminated, truncated, infos = envs.step(actions)   # infos["action_mask"]: legal actions
"""

from __future__ import annotations

from typing import Any

from .connection import Connection
from .errors import (BadOption, BadRequest, BadSeed, BadShape, ConnectionLost, IllegalAction, InternalError,
                     LimitExceeded, ProtocolError, SplendorError, Unauthorized, UnknownEnv, UnknownHandle, UnknownOp)
from .server import LocalServer, find_binary
from .single import SplendorEnv
from .vector import SplendorVectorEnv, derive_seed

__all__ = ["make_vec", "make", "make_aec", "Connection", "LocalServer", "find_binary", "SplendorVectorEnv",
           "SplendorEnv", "derive_seed", "SplendorError", "BadRequest", "UnknownOp", "Unauthorized", "UnknownEnv",
           "BadOption", "BadSeed", "BadShape", "IllegalAction", "UnknownHandle", "LimitExceeded", "InternalError",
           "ProtocolError", "ConnectionLost"]


def make_vec(env_id: str = "splendor-v1", num_envs: int = 1, *, seed: int = 0, url: str | None = None,
             reconnect: bool = False, **options: Any) -> SplendorVectorEnv:
    """A batched `gymnasium.vector.VectorEnv` of `num_envs` server envs (see `SplendorVectorEnv`, also for
    `reconnect=True`)."""
    return SplendorVectorEnv(env_id, num_envs, seed=seed, url=url, reconnect=reconnect, **options)


def make(env_id: str = "splendor-v1", *, seed: int = 0, url: str | None = None, reconnect: bool = False,
         **options: Any) -> SplendorEnv:
    """A single `gymnasium.Env` playing one seat against built-in bots (see `SplendorEnv`)."""
    return SplendorEnv(env_id, seed=seed, url=url, reconnect=reconnect, **options)


def make_aec(env_id: str = "splendor-v1", *, players: int = 2, seed: int = 0, url: str | None = None,
             **options: Any):
    """A PettingZoo AEC env for self-play (needs the `pettingzoo` extra)."""
    from .aec import SplendorAEC

    return SplendorAEC(env_id, players=players, seed=seed, url=url, **options)
