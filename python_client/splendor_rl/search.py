"""Search over the wire (PROTOCOL.md §3, search ops): whole env states, redeals of hidden information, forks and
bots' advice, as methods of `SplendorVectorEnv`; and `view`, which shows tables to people. A state includes hidden
information (deck order, others' blind reserves): it is for search and tools, never for a policy's input."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

from .codec import from_numpy, to_numpy
from .errors import BadShape, SplendorError
from .seeds import seed_list


# Views are asked for this many envs at a time: the server shows at most as many as a batch's reply memory holds,
# and always 16 (PROTOCOL.md §3, view).
VIEWS_PER_REQUEST = 16


def _ids(env_ids: Sequence[int] | np.ndarray | None) -> list[int] | None:
    return None if env_ids is None else [int(i) for i in env_ids]


@dataclass
class SearchResult:
    """A guided search's result, row k for the k-th env searched: the improved policy (the visit distribution
    for PUCT, softmax(logits + σ(completed Q)) for Gumbel), the root's value for its seat to play (in [-1, 1],
    the terminal rewards' scale) and the action chosen (-1 where the episode is over)."""
    policy: np.ndarray  # float32 [K, actions]
    value: np.ndarray  # float32 [K]
    action: np.ndarray  # int32 [K]

    @classmethod
    def of(cls, reply: dict) -> "SearchResult":
        """The result in a search's last (done) reply."""
        return cls(to_numpy(reply["policy"]), to_numpy(reply["value"]), to_numpy(reply["action"]))


Evaluator = Callable[[np.ndarray, np.ndarray], tuple[Any, Any]]


def search_settings(evaluate: Evaluator | None, simulations: int, algorithm: str, settings: dict) -> dict:
    """A `search` request's settings map (PROTOCOL.md §3): no evaluator means the server plays its leaves out."""
    return {"algorithm": algorithm, "simulations": int(simulations), "playouts": evaluate is None, **settings}


@dataclass
class SearchLeg:
    """One batch's share of a guided search that may span several batches (a `ShardedVectorEnv`'s shards, each on
    its own server): the connection and handle its requests go to, its `search` request's fields, and `refused`,
    which turns its refusal of an `evaluate` whose rows for its leaves start at `row` into the error to raise."""
    connection: Any
    handle: int
    request: dict
    refused: Callable[[SplendorError, int], Exception] = lambda exc, row: exc


def run_search(legs: Sequence[SearchLeg], evaluate: Evaluator | None) -> list[dict]:
    """Every leg's search at once, one network batch per round trip: `search` goes to every leg before any reply is
    read; then, while some leg has leaves out, one call of `evaluate` answers all of them (the legs' leaves one
    after another), each leg gets its rows back in an `evaluate`, and every reply is read. Returns each leg's last
    (done) reply."""
    replies = exchange(legs, "search", [leg.request for leg in legs], [0] * len(legs))
    while waiting := [k for k, reply in enumerate(replies) if not reply["done"]]:
        masks = [to_numpy(replies[k]["mask"]).astype(bool) for k in waiting]
        obs = joined([to_numpy(replies[k]["obs"]) for k in waiting])
        priors, values = evaluations(evaluate, obs, joined(masks))
        rows = np.cumsum([0, *map(len, masks)]).tolist()
        answers = [{"priors": from_numpy(priors[lo:hi], "float32"), "values": from_numpy(values[lo:hi], "float32")}
                   for lo, hi in zip(rows, rows[1:])]
        for k, reply in zip(waiting, exchange([legs[k] for k in waiting], "evaluate", answers, rows)):
            replies[k] = reply
    return replies


def joined(arrays: list[np.ndarray]) -> np.ndarray:
    """The arrays one after another; one alone as it is (one server's leaves are not copied again)."""
    return arrays[0] if len(arrays) == 1 else np.concatenate(arrays)


def evaluations(evaluate: Evaluator, obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`evaluate`'s priors and values for these leaves as float32 arrays, refused (`BadShape`, before any server
    is sent any) unless they are `[L, actions]` and `[L]`: cut into the legs' rows, a wrong count could reach
    some servers and not others."""
    priors, values = evaluate(obs, mask)
    priors, values = np.asarray(priors, np.float32), np.asarray(values, np.float32)
    if priors.shape != mask.shape or values.shape != mask.shape[:1]:
        raise BadShape(f"evaluate returned priors {list(priors.shape)} and values {list(values.shape)} for "
                       f"{len(mask)} leaves: want priors {list(mask.shape)} and values [{len(mask)}]")
    return priors, values


def exchange(legs: Sequence[SearchLeg], op: str, fields: Sequence[dict], rows: Sequence[int]) -> list[dict]:
    """Send `op` to every leg, each with its fields, then read every reply, so that the servers work at once. A
    refusal (named by its leg's `refused`, given the leg's first row) or a lost connection is raised once every
    reply sent for is read, so that every connection stays in step: the first leg's failure."""
    failures: dict[int, BaseException] = {}
    sent = []
    for k, leg in enumerate(legs):
        try:
            leg.connection.send(op, handle=leg.handle, **fields[k])
            sent.append(k)
        except (ConnectionError, TimeoutError) as exc:
            failures[k] = exc
    replies: list[Any] = [None] * len(legs)
    for k in sent:
        try:
            replies[k] = legs[k].connection.recv()
        except SplendorError as exc:
            failures[k] = legs[k].refused(exc, rows[k])
        except (ConnectionError, TimeoutError) as exc:
            failures[k] = exc
    if failures:
        raise failures[min(failures)]
    return replies


class SearchOps:
    """Mixed into `SplendorVectorEnv`. `env_ids` None means every env, in order. The ops that change envs return
    the whole batch's `(obs, infos)` as `reset` does."""

    def get_state(self, env_ids: Sequence[int] | None = None) -> list[str]:
        """The whole state of each env (hidden information included), as text that `set_state` loads back."""
        self._check_open()
        return list(self.connection.call("get_state", handle=self.handle, env_ids=_ids(env_ids))["states"])

    def set_state(self, states: Sequence[str], env_ids: Sequence[int] | None = None) -> tuple[np.ndarray, dict]:
        """Load states (one per env listed); every one is checked before any is loaded (`BadState`)."""
        self._check_open()
        return self._changed(self.connection.call("set_state", handle=self.handle, env_ids=_ids(env_ids),
                                                  states=list(states)))

    def determinize(self, seeds: Sequence[int], env_ids: Sequence[int] | None = None) -> tuple[np.ndarray, dict]:
        """Redeal what each listed env's seat to play cannot see, one seed per env: its observation stays."""
        self._check_open()
        ids = _ids(env_ids)
        seeds = seed_list(list(seeds), self.num_envs if ids is None else len(ids))
        return self._changed(self.connection.call("determinize", handle=self.handle, env_ids=ids, seeds=seeds))

    def fork(self, src: Sequence[int], dst: Sequence[int]) -> tuple[np.ndarray, dict]:
        """Make env dst[k] a copy of env src[k] (search nodes without moving states through Python)."""
        self._check_open()
        return self._changed(self.connection.call("fork", handle=self.handle, src=_ids(src), dst=_ids(dst)))

    def bot_actions(self, bot: str = "greedy", seed: int = 0, env_ids: Sequence[int] | None = None,
                    seeds: Sequence[int] | None = None, targets: bool = False
                    ) -> np.ndarray | tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The action a built-in bot (`random`, `greedy`, `mcts`, `mcts:800`…: docs/bots.md) would choose now in
        each env (-1 where the episode is over); nothing moves. Env i draws from derive(seed, i), or, given
        `seeds` (one per env listed), from its own seed: advice that does not depend on where an env sits.

        With `targets=True` (an mcts bot only, else `BadOption`) returns `(actions, policy, value)`: the same
        actions, each search's root visit distribution (float32 `[K, actions]`, zero where illegal, summing to 1)
        and the position's value to its seat to play (float32 `[K]`, on the terminal rewards' scale: PROTOCOL.md
        §3, search targets); zeros where the episode is over."""
        self._check_open()
        fields = {"seed": seed} if seeds is None else {"seeds": [int(s) for s in seeds]}
        if targets:
            fields["targets"] = True
        reply = self.connection.call("bot_actions", handle=self.handle, env_ids=_ids(env_ids), bot=bot, **fields)
        if targets:
            return to_numpy(reply["actions"]), to_numpy(reply["policy"]), to_numpy(reply["value"])
        return to_numpy(reply["actions"])

    def search(self, evaluate: Evaluator | None, simulations: int = 64, seed: int = 0, algorithm: str = "gumbel",
               env_ids: Sequence[int] | None = None, seeds: Sequence[int] | None = None,
               **settings: Any) -> SearchResult:
        """Guided search of each env's position for its seat to play (PROTOCOL.md §3, search): the tree lives in
        the server, which redeals what that seat cannot see at every simulation; `evaluate(obs, mask)` (obs
        `[L, obs]` as the env serves it, each leaf's seat to play's own view; mask `[L, actions]` bool) returns
        `(priors [L, actions], values [L])` for the leaves of one round trip (one per searching env, or
        `leaves_per_env`): any function, a torch module wrapped in one; other shapes raise `BadShape`.
        `evaluate=None` lets the server evaluate with uniform priors and greedy playouts, with no round trip.
        `algorithm` is "gumbel" or "puct"; the other settings are mctx's names (`leaves_per_env`, `pb_c_init`,
        `pb_c_base`, `dirichlet_alpha`, `dirichlet_fraction`, `max_num_considered_actions`, `gumbel_scale`,
        `maxvisit_init`, `value_scale`)."""
        self._check_open()
        fields: dict[str, Any] = {"seed": seed} if seeds is None else {"seeds": [int(s) for s in seeds]}
        request = {"env_ids": _ids(env_ids), "settings": search_settings(evaluate, simulations, algorithm, settings),
                   **fields}
        return SearchResult.of(run_search([SearchLeg(self.connection, self.handle, request)], evaluate)[0])

    def view(self, env_ids: Sequence[int] | None = None, seat: int | None = None) -> tuple[list[dict], list[str]]:
        """Each env's table for people (PROTOCOL.md §3, view): `(views, boards)`, a view being a dict in the state
        view schema of docs/trace.md (plus `deck_sizes`, `over`, and `client_seat` in vs_bots) and a board its text.
        `seat` None is the referee's view (everything); a seat's view hides what that seat cannot see."""
        self._check_open()
        fields = {} if seat is None else {"seat": int(seat)}
        ids = list(range(self.num_envs)) if env_ids is None else _ids(env_ids)
        views: list[dict] = []
        boards: list[str] = []
        for lo in range(0, len(ids), VIEWS_PER_REQUEST):
            reply = self.connection.call("view", handle=self.handle, env_ids=ids[lo:lo + VIEWS_PER_REQUEST], **fields)
            views += reply["views"]
            boards += reply["boards"]
        return views, boards

    def _changed(self, reply: dict) -> tuple[np.ndarray, dict]:
        obs, _, _, _, infos = self._unpack(reply, acting=None)
        return obs, infos

    # Provided by SplendorVectorEnv.
    connection: Any
    handle: int
    num_envs: int
