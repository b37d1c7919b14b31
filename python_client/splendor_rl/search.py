"""Search over the wire (PROTOCOL.md §3, search ops): whole env states, redeals of hidden information, forks and
bots' advice, as methods of `SplendorVectorEnv`; and `view`, which shows tables to people. A state includes hidden
information (deck order, others' blind reserves): it is for search and tools, never for a policy's input."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, replace
from typing import Any, Callable, NamedTuple, Sequence

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
    the terminal rewards' scale), every seat's root value from the seat to play's view (column j is seat
    (s + j) mod players's for seat s to play, as observations rotate seats; column 0 is `value`) and the action
    chosen (-1 where the episode is over)."""
    policy: np.ndarray  # float32 [K, actions]
    value: np.ndarray  # float32 [K]
    values: np.ndarray  # float32 [K, players]
    action: np.ndarray  # int32 [K]

    @classmethod
    def of(cls, reply: dict) -> "SearchResult":
        """The result in a search's last (done) reply."""
        return cls(*(to_numpy(reply[field]) for field in ("policy", "value", "values", "action")))

    @classmethod
    def joined(cls, parts: list["SearchResult"]) -> "SearchResult":
        """The results of consecutive shares of the envs as one."""
        if len(parts) == 1:
            return parts[0]
        return cls(*(np.concatenate(rows) for rows in zip(*((r.policy, r.value, r.values, r.action) for r in parts))))


class BotTargets(NamedTuple):
    """`bot_actions(targets=True)`: row k for the k-th env asked (PROTOCOL.md §3, search targets)."""
    actions: np.ndarray  # int32 [K]: the bot's actions, as without targets (-1 where the episode is over)
    policy: np.ndarray  # float32 [K, actions]: the search's root visits (or improved policy), zero where illegal
    value: np.ndarray  # float32 [K]: the position's value to its seat to play, the terminal rewards' scale
    values: np.ndarray  # float32 [K, players]: every seat's, the seat to play's first (as `SearchResult.values`)


Evaluator = Callable[[np.ndarray, np.ndarray], tuple[Any, Any]]


def search_settings(evaluate: Evaluator | None, simulations: int, algorithm: str, settings: dict) -> dict:
    """A `search` request's settings map (PROTOCOL.md §3): no evaluator means the server plays its leaves out."""
    return {"algorithm": algorithm, "simulations": int(simulations), "playouts": evaluate is None, **settings}


@dataclass
class SearchLeg:
    """One batch's share of a guided search that may span several batches (a `ShardedVectorEnv`'s shards, each on
    its own server): the connection and handle its requests go to, its `search` request's fields, its env's
    numbers of actions and players, and `refused`, which turns its refusal of an `evaluate` whose rows for its leaves
    start at `row` into the error to raise."""
    connection: Any
    handle: int
    request: dict
    actions: int
    players: int
    refused: Callable[[SplendorError, int], Exception] = lambda exc, row: exc


def check_parts(parts: int) -> int:
    """`parts` as run_search takes it: 1 or 2 (PROTOCOL.md §3, search, `part`)."""
    if parts not in (1, 2):
        raise ValueError(f"parts {parts!r}: want 1 (one batch per round trip) or 2 (pipelined)")
    return parts


def run_search(legs: Sequence[SearchLeg], evaluate: Evaluator | None, parts: int = 2) -> list[SearchResult]:
    """Every leg's search at once, one network batch per round trip; returns each leg's result. Each leg's request
    names its envs. With `parts` 2 (and an evaluator: a playout search makes no round trips) each leg's envs are
    searched in two halves, the batch's search parts 0 and 1 (PROTOCOL.md §3, search), which take turns: one
    half's evaluations are sent before the other's leaves are evaluated, so the server advances one half while
    `evaluate` answers the other. An env's search is the same either way (its seed and its leaves' evaluations
    decide it); only the network's batches are smaller. The searches are packed (PROTOCOL.md §3, search): masks
    come as bits and only the legal actions' priors go back. On a failure every reply sent for is read before it
    is raised, so that every connection stays in step: the first leg's failure."""
    pieces: list[list[Piece]] = [[] for _ in range(parts)]
    for k, leg in enumerate(legs):
        leg = replace(leg, request={**leg.request, "packed": True})
        for p, sub in enumerate(split(leg, parts if evaluate is not None else 1)):
            pieces[p].append(Piece(k, p, sub))
    results: list[dict[int, SearchResult]] = [{} for _ in legs]  # by part
    flights: deque[Flight] = deque()
    try:
        for group in pieces:
            if group:
                flights.append(post(group, "search", [piece.leg.request for piece in group], [0] * len(group)))
        while flights:
            flight = flights.popleft()
            waiting = []
            for piece, reply in zip(flight.pieces, collect(flight)):
                if reply["done"]:
                    results[piece.index][piece.part] = SearchResult.of(reply)
                else:
                    waiting.append((piece, reply))
            if waiting:
                flights.append(answer(waiting, evaluate))
    except BaseException:
        drain(flights)
        raise
    return [SearchResult.joined([by_part[p] for p in sorted(by_part)]) for by_part in results]


@dataclass
class Piece:
    """One leg's share of one search part: the leg's index among the legs, the part, and its own leg (the leg's
    connection and handle, a request for its half of the envs)."""
    index: int
    part: int
    leg: SearchLeg


def split(leg: SearchLeg, parts: int) -> list[SearchLeg]:
    """The leg as `parts` legs over consecutive shares of its envs (and seeds), each asking for its part; one leg,
    as it is, where there are fewer envs than parts. Part 0's request is the leg's own but for its envs, so that
    an unpipelined search sends what it always did."""
    ids = leg.request["env_ids"]
    if parts == 1 or len(ids) < parts:
        return [leg]
    cuts = [len(ids) * p // parts for p in range(parts + 1)]
    legs = []
    for p, (lo, hi) in enumerate(zip(cuts, cuts[1:])):
        request = {**leg.request, "env_ids": ids[lo:hi]}
        if "seeds" in request:
            request["seeds"] = request["seeds"][lo:hi]
        if p:
            request["part"] = p
        legs.append(replace(leg, request=request))
    return legs


@dataclass
class Flight:
    """Requests sent and not yet read: the pieces they were for, each one's first row in its op's rows (for a
    refusal's wording), the pieces sent, and the failures met sending."""
    pieces: list[Piece]
    rows: list[int]
    sent: list[int]
    failures: dict[int, BaseException]


def post(pieces: list[Piece], op: str, fields: Sequence[dict], rows: Sequence[int]) -> Flight:
    """Send `op` for every piece, each with its fields, without reading a reply, so that the servers work at once."""
    flight = Flight(pieces, list(rows), [], {})
    for k, piece in enumerate(pieces):
        try:
            piece.leg.connection.send(op, handle=piece.leg.handle, **fields[k])
            flight.sent.append(k)
        except (ConnectionError, TimeoutError) as exc:
            flight.failures[k] = exc
    return flight


def collect(flight: Flight) -> list[dict]:
    """The flight's replies, in its pieces' order. A refusal (named by its leg's `refused`, given the leg's first
    row) or a lost connection is raised once every reply of the flight is read: the first piece's failure."""
    replies: list[Any] = [None] * len(flight.pieces)
    for k in flight.sent:
        leg = flight.pieces[k].leg
        try:
            replies[k] = leg.connection.recv()
        except SplendorError as exc:
            flight.failures[k] = leg.refused(exc, flight.rows[k])
        except (ConnectionError, TimeoutError) as exc:
            flight.failures[k] = exc
    if flight.failures:
        raise flight.failures[min(flight.failures)]
    return replies


def drain(flights: deque[Flight]) -> None:
    """Read every reply still in flight, whatever it is, so that the connections stay in step after a failure."""
    for flight in flights:
        try:
            collect(flight)
        except (SplendorError, ConnectionError, TimeoutError):
            pass


def answer(waiting: list[tuple[Piece, dict]], evaluate: Evaluator) -> Flight:
    """One call of `evaluate` for every waiting piece's leaves (one after another), and each piece's rows sent back
    in an `evaluate` for its part: the priors of the leaves' legal actions."""
    masks = [unpacked(reply, piece.leg.actions) for piece, reply in waiting]
    obs = joined([to_numpy(reply["obs"]) for _, reply in waiting])
    mask = joined(masks)
    priors, values = evaluations(evaluate, obs, mask, waiting[0][0].leg.players)
    rows = np.cumsum([0, *map(len, masks)]).tolist()
    answers = []
    for (piece, _), lo, hi in zip(waiting, rows, rows[1:]):
        legal = np.compress(mask[lo:hi].ravel(), priors[lo:hi].ravel())  # priors[mask], 3× as fast
        fields = {"legal_priors": from_numpy(legal, "float32"),
                  "values": from_numpy(values[lo:hi], "float32")}
        if piece.part:
            fields["part"] = piece.part
        answers.append(fields)
    return post([piece for piece, _ in waiting], "evaluate", answers, rows[:-1])


def unpacked(reply: dict, actions: int) -> np.ndarray:
    """A packed search reply's masks, bool `[L, actions]`."""
    bits = to_numpy(reply["mask_bits"])
    return np.unpackbits(bits, axis=1, count=actions, bitorder="little").view(bool)


def joined(arrays: list[np.ndarray]) -> np.ndarray:
    """The arrays one after another; one alone as it is (one server's leaves are not copied again)."""
    return arrays[0] if len(arrays) == 1 else np.concatenate(arrays)


def evaluations(evaluate: Evaluator, obs: np.ndarray, mask: np.ndarray, players: int
                ) -> tuple[np.ndarray, np.ndarray]:
    """`evaluate`'s priors and values for these leaves as float32 arrays, refused (`BadShape`, before any server
    is sent any) unless they are `[L, actions]` and `[L]` (each leaf's seat to play's value) or `[L, players]`
    (every seat's, its seat to play's first): cut into the legs' rows, a wrong count could reach some servers and
    not others."""
    priors, values = evaluate(obs, mask)
    priors, values = np.asarray(priors, np.float32), np.asarray(values, np.float32)
    if priors.shape != mask.shape or values.shape not in ((len(mask),), (len(mask), players)):
        raise BadShape(f"evaluate returned priors {list(priors.shape)} and values {list(values.shape)} for "
                       f"{len(mask)} leaves: want priors {list(mask.shape)} and values [{len(mask)}] or "
                       f"[{len(mask)}, {players}]")
    return priors, values


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
                    seeds: Sequence[int] | None = None, targets: bool = False) -> np.ndarray | BotTargets:
        """The action a built-in bot (`random`, `greedy`, `mcts`, `mcts:800`…: docs/bots.md) would choose now in
        each env (-1 where the episode is over); nothing moves. Env i draws from derive(seed, i), or, given
        `seeds` (one per env listed), from its own seed: advice that does not depend on where an env sits.

        With `targets=True` (a bot that searches: `mcts`, `gumbel`, `puct`, `baseline+search:N`; else `BadOption`)
        returns `BotTargets(actions, policy, value, values)`: the same actions, each search's root visit
        distribution (float32 `[K, actions]`, zero where illegal, summing to 1), the position's value to its seat
        to play (float32 `[K]`, on the terminal rewards' scale: PROTOCOL.md §3, search targets) and every seat's
        (float32 `[K, players]`, the seat to play's first); zeros where the episode is over."""
        self._check_open()
        fields = {"seed": seed} if seeds is None else {"seeds": [int(s) for s in seeds]}
        if targets:
            fields["targets"] = True
        reply = self.connection.call("bot_actions", handle=self.handle, env_ids=_ids(env_ids), bot=bot, **fields)
        if targets:
            return BotTargets(*(to_numpy(reply[field]) for field in ("actions", "policy", "value", "values")))
        return to_numpy(reply["actions"])

    def search(self, evaluate: Evaluator | None, simulations: int = 64, seed: int = 0, algorithm: str = "gumbel",
               env_ids: Sequence[int] | None = None, seeds: Sequence[int] | None = None, parts: int = 2,
               **settings: Any) -> SearchResult:
        """Guided search of each env's position for its seat to play (PROTOCOL.md §3, search): the tree lives in
        the server, which redeals what that seat cannot see at every simulation; `evaluate(obs, mask)` (obs
        `[L, obs]` as the env serves it, each leaf's seat to play's own view; mask `[L, actions]` bool) returns
        `(priors [L, actions], values [L])` for the leaves of one round trip (one per searching env, or
        `leaves_per_env`), or values `[L, players]`, every seat's value with the leaf's seat to play's first, which
        the search backs up as max-n: any function, a torch module wrapped in one; other shapes raise `BadShape`.
        `evaluate=None` lets the server evaluate with uniform priors and greedy playouts, with no round trip.
        `algorithm` is "gumbel" or "puct"; the other settings are mctx's names (`leaves_per_env`, `pb_c_init`,
        `pb_c_base`, `dirichlet_alpha`, `dirichlet_fraction`, `max_num_considered_actions`, `gumbel_scale`,
        `maxvisit_init`, `value_scale`). `parts` 2 pipelines the search: the server advances half the envs'
        searches while `evaluate` answers the other half's leaves (`run_search`), for the same results; 1 sends
        every leaf of a round in one batch."""
        self._check_open()
        fields: dict[str, Any] = {"seed": seed} if seeds is None else {"seeds": [int(s) for s in seeds]}
        ids = _ids(env_ids) if env_ids is not None or parts == 1 else list(range(self.num_envs))
        request = {"env_ids": ids, "settings": search_settings(evaluate, simulations, algorithm, settings), **fields}
        leg = SearchLeg(self.connection, self.handle, request, self.single_action_space.n, self.num_players)
        return run_search([leg], evaluate, check_parts(parts))[0]

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
