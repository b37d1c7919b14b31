"""One `gymnasium.vector.VectorEnv` over several servers: `make_vec(..., url=[url_a, url_b, ...])`."""

from __future__ import annotations

import re
from functools import partial
from typing import Any, Callable, Sequence

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv

from .errors import BadShape, IllegalAction, SplendorError
from .render import check_render_mode, render_frames, render_human
from .search import BotTargets, Evaluator, SearchLeg, SearchResult, check_parts, run_search, search_settings
from .seeds import check_seed, seed_list
from .vector import Pipelined, SplendorVectorEnv, check_num_envs, check_reset_options, setup_spaces

MASK64 = 2**64 - 1

# How a server names the leaf that a bad evaluation came from (PROTOCOL.md §3, guided search): its row and env.
BAD_LEAF = re.compile(r"leaf (\d+) \(env (\d+)\)")


def server_derive(seed: int, stream: int) -> int:
    """The server's `rng.Derive(seed, stream)` (SplitMix64): what `bot_actions` with `seed` gives env `stream`."""
    def mix(z: int) -> int:
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    state = seed ^ mix((stream + 0x632BE59BD9B4E019) & MASK64)
    return mix((state + 0x9E3779B97F4A7C15) & MASK64)


def split(num_envs: int, shards: int) -> list[int]:
    """Contiguous block sizes, as even as possible, the larger ones first."""
    return [num_envs // shards + (k < num_envs % shards) for k in range(shards)]


class ShardedVectorEnv(Pipelined, VectorEnv):
    """`num_envs` envs spread over the servers at `urls` in contiguous blocks (shard k holds envs lo_k…hi_k−1,
    the blocks as even as possible), each shard a `SplendorVectorEnv` with its own connection. Everything a
    `SplendorVectorEnv` offers works alike, with the same seeds: env i is dealt as env i of one server would be
    (shard k is made with seed + lo_k), so the same seeds and actions give the same trajectories whatever the
    number of shards. `step` sends to every shard, then reads every reply, so the servers step concurrently.

    A shard that fails raises the usual exception, its message naming the shard (`shard 1 (ws://…)`) and its
    `envs` given as indices of the whole batch; every other shard's reply is still read, so the batch stays
    usable after a refused request. With `reconnect=True` each shard reconnects to its own server alone (see
    `SplendorVectorEnv`); otherwise a lost shard raises `ConnectionLost` (naming its URL) and the env must be
    closed."""

    def __init__(self, env_id: str = "splendor-v1", num_envs: int = 1, *, urls: Sequence[str], seed: int = 0,
                 **kwargs: Any):
        if not urls:
            raise ValueError("urls: at least one server URL")
        num_envs, seed = check_num_envs(num_envs), check_seed(seed)  # a negative seed must not wrap below
        if num_envs < len(urls):
            raise ValueError(f"num_envs={num_envs} cannot be spread over {len(urls)} servers (at least one each)")
        self.urls = list(urls)
        self.render_mode = check_render_mode(kwargs.pop("render_mode", None))
        sizes = split(num_envs, len(urls))
        self.offsets = np.cumsum([0, *sizes]).tolist()
        self.shards: list[SplendorVectorEnv] = []
        try:
            for k, url in enumerate(self.urls):
                self.shards.append(self._named(k, lambda: SplendorVectorEnv(
                    env_id, sizes[k], seed=(seed + self.offsets[k]) & MASK64, url=url, **kwargs)))
        except BaseException:
            self.close_extras()
            raise
        first = self.shards[0]
        self.spec_info = first.spec_info
        setup_spaces(self, first.spec_info, num_envs)
        self._last = [(shard._obs, {}) for shard in self.shards]  # each shard's last (obs, infos)
        self._in_flight = 0  # steps sent and not yet received
        self._masks: np.ndarray | None = None  # the whole batch's last masks, as returned

    # Stepping

    def reset(self, *, seed: int | Sequence[int] | None = None,
              options: dict | None = None) -> tuple[np.ndarray, dict]:
        """As `SplendorVectorEnv.reset`, over the whole batch."""
        options = check_reset_options(options, ("reset_mask",))
        mask = np.ones(self.num_envs, bool) if "reset_mask" not in options else np.asarray(options["reset_mask"], bool)
        seeds = seed_list(seed, int(mask.sum()))
        firsts = np.cumsum([0, *(mask[lo:hi].sum() for lo, hi in self._blocks())]).tolist()
        for k, (lo, hi) in enumerate(self._blocks()):
            shard_seeds = None if seeds is None else seeds[firsts[k]:firsts[k + 1]]
            shard_options = {"reset_mask": mask[lo:hi]} if "reset_mask" in options else None
            self._last[k] = self._named(k, lambda: self.shards[k].reset(seed=shard_seeds, options=shard_options))
        joined = self._joined_batch()
        render_human(self)
        return joined

    def send(self, actions: Any) -> None:
        """Send each shard its envs' actions without waiting: compute something else, then `recv`."""
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise BadShape(f"actions must be shape [{self.num_envs}], got {list(actions.shape)}")
        self._check_legal(actions)
        for k, (lo, hi) in enumerate(self._blocks()):
            self._named(k, lambda: self.shards[k].send(actions[lo:hi]))
        self._in_flight += 1

    def _check_legal(self, actions: np.ndarray) -> None:
        """Refuse what one server would refuse (env/vector.go's validate) before any shard steps: otherwise the
        shards that accepted their actions would step while the batch reports an error. (A step pipelined behind
        one in flight has no masks yet: the servers check it, each its own envs.)"""
        masks = self._masks
        if self._in_flight or masks is None:
            return  # not reset yet: the servers say so
        rows, na, a = np.arange(self.num_envs), masks.shape[1], actions.astype(np.int64)
        waiting = ~masks.any(axis=1)  # an ended episode: its action is ignored, or a reset is due
        outside = (a < 0) | (a >= na)
        needs_reset = waiting & (self.metadata["autoreset_mode"] == AutoresetMode.DISABLED)
        illegal = ~waiting & ~outside & ~masks[rows, np.clip(a, 0, na - 1)]
        if self.spec_info["illegal_action"] != "error":
            illegal[:] = False  # a forfeit, not a refusal
        bad = np.flatnonzero(needs_reset | outside | illegal)
        if bad.size:
            i = int(bad[0])
            reason = ("the env needs a reset" if needs_reset[i] else f"action {a[i]} outside [0, {na})"
                      if outside[i] else f"action {a[i]} ({self.action_labels[a[i]]}) is not legal")
            raise IllegalAction(f"illegal action in env(s) {bad.tolist()}: env {i}: {reason}; no shard stepped",
                                bad.tolist())

    def recv(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        """Every shard's reply to the oldest step sent, joined; a shard's error is raised once all are read."""
        self._in_flight -= 1
        results = self._each(lambda shard: shard.recv())
        for k, (obs, _, _, _, infos) in enumerate(results):
            self._last[k] = (obs, infos)
        obs, infos = self._joined_batch()
        rewards, terminated, truncated = (np.concatenate([r[i] for r in results]) for i in (1, 2, 3))
        return obs, rewards, terminated, truncated, infos

    # Search ops, routed to the shards that hold the envs named

    def get_state(self, env_ids: Sequence[int] | None = None) -> list[str]:
        return self._gather(env_ids, lambda shard, ids, _: shard.get_state(ids))

    def set_state(self, states: Sequence[str], env_ids: Sequence[int] | None = None) -> tuple[np.ndarray, dict]:
        states = list(states)
        return self._change(env_ids, lambda shard, ids, at: shard.set_state([states[p] for p in at], ids))

    def determinize(self, seeds: Sequence[int], env_ids: Sequence[int] | None = None) -> tuple[np.ndarray, dict]:
        seeds = list(seeds)
        return self._change(env_ids, lambda shard, ids, at: shard.determinize([seeds[p] for p in at], ids))

    def fork(self, src: Sequence[int], dst: Sequence[int]) -> tuple[np.ndarray, dict]:
        """Env dst[j] becomes a copy of env src[j]: by `fork` within a shard, by state strings across shards
        (every src is read before any dst is written, as on one server)."""
        src, dst = [int(i) for i in src], [int(i) for i in dst]
        if len(src) != len(dst):
            raise BadShape(f"fork: {len(src)} sources for {len(dst)} destinations")
        across = [j for j in range(len(src)) if self._shard_of(src[j]) != self._shard_of(dst[j])]
        states = self.get_state([src[j] for j in across])
        within = [j for j in range(len(src)) if j not in set(across)]
        for k, (lo, _) in enumerate(self._blocks()):
            pairs = [(src[j] - lo, dst[j] - lo) for j in within if self._shard_of(dst[j]) == k]
            if pairs:
                self._last[k] = self._named(k, lambda: self.shards[k].fork(*zip(*pairs)))
        if across:
            self.set_state(states, [dst[j] for j in across])
        return self._joined_batch()

    def bot_actions(self, bot: str = "greedy", seed: int = 0, env_ids: Sequence[int] | None = None,
                    seeds: Sequence[int] | None = None, targets: bool = False) -> np.ndarray | BotTargets:
        """As on one server: env i draws from the server's derive(seed, i), i its index in the whole batch."""
        ids = list(range(self.num_envs)) if env_ids is None else [int(i) for i in env_ids]
        seeds = self._seeds(ids, seed, seeds)

        def advise(shard, local, at):
            reply = shard.bot_actions(bot, env_ids=local, seeds=[seeds[p] for p in at], targets=targets)
            return list(zip(*reply)) if targets else list(reply)

        rows = self._gather(ids, advise)
        if not targets:
            return np.asarray(rows, np.int32)
        actions, policy, value, values = zip(*rows) if rows else ((), (), (), ())
        return BotTargets(np.asarray(actions, np.int32), np.asarray(policy, np.float32).reshape(len(rows), -1),
                          np.asarray(value, np.float32), np.asarray(values, np.float32).reshape(len(rows), -1))

    def search(self, evaluate: Evaluator | None, simulations: int = 64, seed: int = 0, algorithm: str = "gumbel",
               env_ids: Sequence[int] | None = None, seeds: Sequence[int] | None = None, parts: int = 2,
               **settings: Any) -> SearchResult:
        """As `SplendorVectorEnv.search`, with the same results as one server: env i searches from the server's
        derive(seed, i), i its index in the whole batch (or from its own of `seeds`). The shards search at once,
        and each round trip calls `evaluate` once with every shard's leaves, shard after shard (one network
        batch), then hands each shard its rows. A refusal names its shard; a bad leaf (`BadEvaluation`) is
        numbered by its row in that call and its env by its index in the whole batch. Every shard's reply is read
        first, so the batch stays usable; the search is over either way."""
        ids = list(range(self.num_envs)) if env_ids is None else [int(i) for i in env_ids]
        seeds = self._seeds(ids, seed, seeds)
        settings = search_settings(evaluate, simulations, algorithm, settings)
        routes = self._route(ids)
        legs = []
        for k, local, at in routes:
            shard = self.shards[k]
            shard._check_open()
            request = {"env_ids": local, "seeds": [seeds[p] for p in at], "settings": settings}
            legs.append(SearchLeg(shard.connection, shard.handle, request, self.single_action_space.n,
                                  self.num_players, partial(self._search_refusal, k)))
        searched = run_search(legs, evaluate, check_parts(parts))
        n = len(ids)
        result = SearchResult(np.zeros((n, self.single_action_space.n), np.float32), np.zeros(n, np.float32),
                              np.zeros((n, self.num_players), np.float32), np.full(n, -1, np.int32))
        for (_, _, at), part in zip(routes, searched):
            result.policy[at], result.value[at], result.action[at] = part.policy, part.value, part.action
            result.values[at] = part.values
        return result

    def _search_refusal(self, k: int, exc: SplendorError, row: int) -> SplendorError:
        """Shard k's refusal of its rows of an evaluation (from `row` on) as one server would word it: the bad
        leaf's row in the whole evaluation and its env's index in the whole batch."""
        message = BAD_LEAF.sub(lambda m: f"leaf {row + int(m[1])} (env {self.offsets[k] + int(m[2])})",
                               exc.message, count=1)
        named = self._renamed(k, exc, message)
        named.__cause__ = exc
        return named

    def view(self, env_ids: Sequence[int] | None = None, seat: int | None = None) -> tuple[list[dict], list[str]]:
        pairs = self._gather(env_ids, lambda shard, ids, _: list(zip(*shard.view(ids, seat))))
        return [v for v, _ in pairs], [b for _, b in pairs]

    def render(self) -> tuple | None:
        """As `SplendorVectorEnv.render`, over the whole batch."""
        frames = render_frames(self, self.render_mode, None, None, self.urls[0])
        return None if frames is None else tuple(frames)

    def close_extras(self, **kwargs: Any) -> None:
        for shard in getattr(self, "shards", []):
            shard.close()

    # Routing

    def _seeds(self, ids: list[int], seed: int, seeds: Sequence[int] | None) -> list[int]:
        """One seed per env of ids: `seeds` as given, or the server's derive(seed, i), i the env's index in the
        whole batch (what one server holding every env would draw)."""
        if seeds is None:
            seed = check_seed(seed)
            return [server_derive(seed, i) for i in ids]
        seeds = [int(s) for s in seeds]
        if len(seeds) != len(ids):
            raise BadShape(f"{len(seeds)} seeds for {len(ids)} envs")
        return seeds

    def _blocks(self) -> list[tuple[int, int]]:
        return list(zip(self.offsets[:-1], self.offsets[1:]))

    def _shard_of(self, i: int) -> int:
        if not 0 <= i < self.num_envs:
            raise BadShape(f"env index {i} outside [0, {self.num_envs})")
        return int(np.searchsorted(self.offsets, i, side="right")) - 1

    def _route(self, env_ids: Sequence[int] | None) -> list[tuple[int, list[int], list[int]]]:
        """(shard, its local env ids, their positions in env_ids) for every shard named, in shard order."""
        ids = list(range(self.num_envs)) if env_ids is None else [int(i) for i in env_ids]
        routes: dict[int, tuple[list[int], list[int]]] = {}
        for p, i in enumerate(ids):
            k = self._shard_of(i)
            local, at = routes.setdefault(k, ([], []))
            local.append(i - self.offsets[k])
            at.append(p)
        return [(k, local, at) for k, (local, at) in sorted(routes.items())]

    def _gather(self, env_ids: Sequence[int] | None, op: Callable) -> list:
        """op(shard, local ids, positions) per shard named, its per-env results put back in env_ids order."""
        routes = self._route(env_ids)
        out: list = [None] * sum(len(at) for _, _, at in routes)
        for k, local, at in routes:
            for p, item in zip(at, self._named(k, lambda: op(self.shards[k], local, at))):
                out[p] = item
        return out

    def _change(self, env_ids: Sequence[int] | None, op: Callable) -> tuple[np.ndarray, dict]:
        for k, local, at in self._route(env_ids):
            self._last[k] = self._named(k, lambda: op(self.shards[k], local, at))
        return self._joined_batch()

    def _joined_batch(self) -> tuple[np.ndarray, dict]:
        """The whole batch's (obs, infos) from each shard's last; a key only some shards sent (`reconnected`)
        is False / zeros for the others."""
        obs = np.concatenate([o for o, _ in self._last])
        keys = dict.fromkeys(key for _, infos in self._last for key in infos)
        infos = {}
        for key in keys:
            like = next(i[key] for _, i in self._last if key in i)
            infos[key] = np.concatenate([i.get(key, np.zeros((hi - lo, *like.shape[1:]), like.dtype))
                                         for (_, i), (lo, hi) in zip(self._last, self._blocks())])
        self._masks = infos.get("action_mask")
        return obs, infos

    def _each(self, op: Callable) -> list:
        """op on every shard; every shard runs even when one fails, then the first failure is raised."""
        results, failure = [], None
        for k, shard in enumerate(self.shards):
            try:
                results.append(self._named(k, lambda: op(shard)))
            except (SplendorError, ConnectionError, TimeoutError) as exc:
                results.append(None)
                failure = failure or exc
        if failure is not None:
            raise failure
        return results

    def _named(self, k: int, call: Callable) -> Any:
        """call(), a server's refusal re-raised naming shard k, with its envs as indices of the whole batch."""
        try:
            return call()
        except SplendorError as exc:
            raise self._renamed(k, exc) from exc

    def _renamed(self, k: int, exc: SplendorError, message: str | None = None) -> SplendorError:
        """exc as shard k's: its message (or `message`) after the shard's name, its envs as indices of the whole
        batch."""
        return type(exc)(f"shard {k} ({self.urls[k]}): {exc.message if message is None else message}",
                         [self.offsets[k] + i for i in exc.envs])
