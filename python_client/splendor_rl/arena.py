"""Rate built-in bots, checkpoints and your own policies against each other: seeded duplicate tournaments.

    python -m splendor_rl.arena --entrant random greedy mcts:200 --deals 30
    python -m splendor_rl.arena --entrant greedy mcts:800 me=runs/ppo.pt --format gauntlet --hero me --out arena/
    python -m splendor_rl.arena --entrant greedy mine=mybot:make_policy --players 3 --replays replays/
    python -m splendor_rl.arena --env splendor-duel-v1 --entrant random greedy mcts:100

An entrant is a built-in bot (`random`, `greedy`, `mcts`, `mcts:800`…, docs/bots.md), `name=path.pt` (a checkpoint
saved by splendor_rl.ppo, playing its argmax action) or `name=module:function` (a plugin: `function(seed)` returns
a policy, a callable as `evaluate.Policy`). A table seats `--players` distinct entrants: every combination of them
(`round-robin`), or the hero with every combination of the others (`gauntlet`). Each table plays deals 0…D-1, deal
j dealt from `--seed + j`, once per cyclic rotation of its seats, so every entrant plays every seat equally often
and luck of the deal cancels between the rotations (the duplicate format). All games run in self-play mode,
`--num-envs` at once: at each decision the entrant seated at the seat to play acts, a bot through the server's
`bot_actions` with a seed derived from (seed, game, decision), a policy on its rows' observations and masks, so
the results depend on the arguments only, not on batching or timing. Output (arena_report.py): ratings
(openskill's Plackett-Luce), the pairwise matrix, score margins and game lengths, printed and, with `--out`, as
JSON, CSV and PNG files; `--replays DIR` writes every game as JSON Lines (docs/arena.md).
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import os
import sys
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from . import cli
from .arena_replay import ReplayWriter
from .extras import MissingExtra, require
from .evaluate import Policy, bot_kind, checkpoint_env, checkpoint_policy, fail, network_options
from .seeds import derive_seed
from .vector import SplendorVectorEnv

# gumbel, puct: guided searches on playouts; baseline, baseline+search: the server's networks, baseline@EDITION one
# of its named editions (docs/bots.md).
BUILT_IN_BOTS = ("random", "greedy", "mcts", "gumbel", "puct", "baseline", "baseline+search")
FORMATS = ("round-robin", "gauntlet")


@dataclass
class Entrant:
    """One player of the arena. `source` is what the user named: a bot (`mcts:800`), a checkpoint's path or
    `module:function`. A bot is played by the server, so it has no `policy`."""
    name: str
    kind: str                       # "bot", "checkpoint" or "plugin"
    source: str
    policy: Policy | None = None


def parse_entrant(spec: str) -> Entrant:
    """`mcts:800`, `name=mcts:iterations=60`, `name=path.pt` or `name=module:function`. A name holds no colon,
    which tells `mcts:iterations=60` (a bot named by itself) from `m=mcts:iterations=60`."""
    head, named, tail = spec.partition("=")
    name, source = (head, tail) if named and ":" not in head else (spec, spec)
    if not name or not source:
        raise ValueError(f"entrant {spec!r}: expected a bot, name=path.pt or name=module:function")
    if bot_kind(source) in BUILT_IN_BOTS:
        return Entrant(name, "bot", source)
    if source.endswith(".pt") or os.path.isfile(source):
        return Entrant(name, "checkpoint", source)
    if ":" in source:
        return Entrant(name, "plugin", source)
    raise ValueError(f"entrant {spec!r}: {source!r} is no built-in bot ({', '.join(BUILT_IN_BOTS)}), checkpoint "
                     "(.pt) or module:function")


def load_plugin(source: str, seed: int) -> Policy:
    """`module:function` → function(seed), the user's policy; the module is imported as `import module` would."""
    module, _, function = source.partition(":")
    return getattr(importlib.import_module(module), function)(seed)


@dataclass(frozen=True)
class Seating:
    """Game `game` of the arena: table `table`'s deal `deal` with its seats turned by `rotation`; `seats` holds
    the entrant (index) of each seat, seat 0 first."""
    game: int
    table: int
    deal: int
    rotation: int
    seats: tuple[int, ...]


def tables(fmt: str, entrants: int, players: int, hero: int = 0) -> list[tuple[int, ...]]:
    """The tables of a format, each a tuple of distinct entrants in seat order before rotation."""
    if fmt == "round-robin":
        return list(itertools.combinations(range(entrants), players))
    field = [e for e in range(entrants) if e != hero]
    return [(hero, *others) for others in itertools.combinations(field, players - 1)]


def schedule(table_list: Sequence[tuple[int, ...]], deals: int) -> list[Seating]:
    """Every table plays every deal once per cyclic rotation: rotation r seats the table's entrant r at seat 0."""
    games: list[Seating] = []
    for t, table in enumerate(table_list):
        for deal in range(deals):
            for r in range(len(table)):
                games.append(Seating(len(games), t, deal, r, table[r:] + table[:r]))
    return games


def places(points: Sequence[int], winners: Sequence[int], truncated: bool) -> list[int]:
    """The winners share first place, the others follow by points (equal points share a place); a truncated game
    (turn limit, or blocked) has no winner and is a draw among all."""
    if truncated:
        return [1] * len(points)

    def key(seat: int) -> tuple[bool, int]:
        return seat in winners, points[seat]

    return [1 + sum(key(other) > key(seat) for other in range(len(points))) for seat in range(len(points))]


def game_record(seating: Seating, seed: int, seats: list[str], points: list[int], winners: list[int],
                truncated: bool, decisions: int) -> dict:
    """A finished game as the report and the replays write it: `seats` and `points` per seat, seat 0 first."""
    return {"game": seating.game, "table": seating.table, "deal": seating.deal, "seed": seed + seating.deal,
            "rotation": seating.rotation, "seats": seats, "points": points, "winners": winners,
            "places": places(points, winners, truncated), "truncated": truncated, "decisions": decisions}


class Arena:
    """Plays seatings on one self-play batch (autoreset disabled), each env taking the next unplayed game when its
    game ends; `replays` receives each finished game with its moves."""

    def __init__(self, envs: SplendorVectorEnv, entrants: Sequence[Entrant], seatings: Sequence[Seating],
                 seed: int, replays: ReplayWriter | None = None, played: dict[int, dict] | None = None):
        self.envs, self.entrants, self.seed, self.replays = envs, entrants, seed, replays
        self.seatings, self.played = seatings, played or {}
        self.seat_of = np.array([s.seats for s in seatings])            # [game, seat] → entrant
        self.queue = [g for g in range(len(seatings)) if g not in self.played][::-1]  # unplayed, the next one last
        self.game_of = np.full(envs.num_envs, -1)                        # each env's game; -1: a dummy deal
        self.decisions = np.zeros(envs.num_envs, np.int64)
        self.moves: list[list[tuple[int, int]]] = [[] for _ in range(envs.num_envs)]

    def play(self, on_game: Callable[[dict], None] | None = None) -> list[dict]:
        """Every game's record (`game_record`), in game order; `on_game(record)` as each game ends."""
        records = dict(self.played)
        obs, infos = self._deal(np.arange(self.envs.num_envs))
        self._check_bots()
        while len(records) < len(self.seatings):
            actions = self._choose(obs, infos)
            self._note(infos["to_play"], actions)
            obs, _, terminated, truncated, infos = self.envs.step(actions)
            ended = np.flatnonzero(terminated | truncated)
            finished = ended[self.game_of[ended] >= 0].tolist()
            for i, points in zip(finished, self._final_points(finished)):
                record = self._finish(i, points, infos["seat_rewards"][i], bool(truncated[i] and not terminated[i]))
                records[record["game"]] = record
                if on_game is not None:
                    on_game(record)
            if len(ended) and len(records) < len(self.seatings):
                obs, infos = self._deal(ended)
        return [records[g] for g in range(len(self.seatings))]

    def _check_bots(self) -> None:
        """Ask each bot once before any game, so that a setting the server refuses fails now, not when the bot's
        first table comes up, possibly hours in."""
        for entrant in self.entrants:
            if entrant.policy is None:
                self.envs.bot_actions(entrant.source, env_ids=[0], seeds=[0])

    def _deal(self, rows: np.ndarray) -> tuple[np.ndarray, dict]:
        """Give each env of `rows` the next game; with none left, a dummy deal (played with any legal action,
        ignored) keeps it stepping with the others."""
        self.game_of[rows] = [self.queue.pop() if self.queue else -1 for _ in rows]
        self.decisions[rows] = 0
        seeds = [self.seed + self.seatings[g].deal if g >= 0 else self.seed for g in self.game_of[rows].tolist()]
        if len(rows) == self.envs.num_envs:
            return self.envs.reset(seed=seeds)
        reset_mask = np.zeros(self.envs.num_envs, bool)
        reset_mask[rows] = True
        return self.envs.reset(seed=seeds, options={"reset_mask": reset_mask})

    def _choose(self, obs: np.ndarray, infos: dict) -> np.ndarray:
        """Each live env's action by the entrant at its seat to play, asked once per entrant for all its rows."""
        mask = infos["action_mask"]
        actions = mask.argmax(axis=1)
        rows = np.flatnonzero(self.game_of >= 0)
        acting = self.seat_of[self.game_of[rows], infos["to_play"][rows]]
        for e in np.unique(acting).tolist():
            mine = rows[acting == e]
            actions[mine] = self._act(self.entrants[e], mine, obs, mask)
        return actions

    def _final_points(self, rows: list[int]) -> list[list[int]]:
        """Each seat's prestige, seat 0 first, in the ended games of `rows`: the server's view of an ended env
        shows its final position until the env is reset (autoreset disabled)."""
        if not rows:
            return []
        views, _ = self.envs.view(rows)
        return [[seat["points"] for seat in view["seats"]] for view in views]

    def _act(self, entrant: Entrant, rows: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        games = self.game_of[rows]
        if entrant.policy is not None:
            return np.asarray(entrant.policy(obs[rows], mask[rows], games))
        # Decision d of game g draws from its own seed: the same whichever env or batch the game is in.
        seeds = [derive_seed(self.seed, g, d) for g, d in zip(games.tolist(), self.decisions[rows].tolist())]
        return self.envs.bot_actions(entrant.source, env_ids=rows, seeds=seeds)

    def _note(self, to_play: np.ndarray, actions: np.ndarray) -> None:
        live = np.flatnonzero(self.game_of >= 0)
        self.decisions[live] += 1
        if self.replays is not None:
            for i in live.tolist():
                self.moves[i].append((int(to_play[i]), int(actions[i])))

    def _finish(self, row: int, points: list[int], seat_rewards: np.ndarray, truncated: bool) -> dict:
        """The record of env `row`'s ended game, its replay written; the policies forget the game."""
        seating = self.seatings[int(self.game_of[row])]
        # A winner's terminal reward is > 0, or 0 when every seat shares the win; a loser's is < 0.
        winners = [] if truncated else np.flatnonzero(seat_rewards >= 0).tolist()
        record = game_record(seating, self.seed, [self.entrants[e].name for e in seating.seats], points, winners,
                             truncated, int(self.decisions[row]))
        if self.replays is not None:
            self.replays.write(record, self.moves[row], self.envs.get_state([row])[0])
        self.moves[row] = []
        for entrant in self.entrants:
            rngs = getattr(entrant.policy, "rngs", None)
            if rngs is not None:
                rngs.forget(seating.game)
        return record


def run(entrants: Sequence[Entrant], *, env_id: str = "splendor-v1", players: int = 2, fmt: str = "round-robin",
        hero: int = 0, deals: int = 10, seed: int = 0, num_envs: int = 64, url: str | None = None,
        replays: str | None = None, on_game: Callable[[dict], None] | None = None,
        played: Sequence[dict] = (), **options) -> list[dict]:
    """Play the arena (see the module docstring) and return every game's record, in game order; `options` are
    the env's (`max_rounds`…). The games of `played` (records of an earlier run of the same arguments) are not
    played again: every game depends on the arguments and its index alone, so the records are the same."""
    seatings = schedule(tables(fmt, len(entrants), players, hero), deals)
    if not seatings:
        raise ValueError(f"no table: {fmt} with {len(entrants)} entrants and {players} players")
    done = {record["game"]: record for record in played}
    if len(done) == len(seatings):
        return [done[g] for g in range(len(seatings))]
    envs = SplendorVectorEnv(env_id, max(1, min(num_envs, len(seatings) - len(done))), seed=seed, url=url,
                             mode="self_play", players=players, autoreset="disabled", **options)
    try:
        writer = None if replays is None else ReplayWriter(replays, env_id, envs.action_labels)
        return Arena(envs, entrants, seatings, seed, writer, done).play(on_game)
    finally:
        envs.close()


def parse_args(argv: Sequence[str] | None) -> tuple[argparse.Namespace, list[Entrant]]:
    parser = cli.parser(__doc__, "python -m splendor_rl.arena")
    parser.add_argument("--entrant", action="extend", nargs="+", required=True, metavar="SPEC",
                        help="a bot (random, greedy, mcts, mcts:800…), name=path.pt or name=module:function")
    parser.add_argument("--env", default=None, help="the env id, one the server has: splendor-v1, "
                        "splendor-duel-v1 (default: the checkpoints', else splendor-v1)")
    parser.add_argument("--format", default="round-robin", choices=FORMATS)
    parser.add_argument("--hero", default=None, help="the gauntlet's entrant against the field (default: the "
                        "first entrant)")
    parser.add_argument("--players", type=int, default=2, help="seats at a table (2-4; Duel: 2)")
    parser.add_argument("--deals", type=int, default=20, help="deals per table, each played once per rotation")
    parser.add_argument("--seed", type=int, default=0, help="deal j is dealt from seed + j")
    parser.add_argument("--num-envs", type=int, default=64, help="games played at once")
    parser.add_argument("--max-rounds", type=int, default=None, help="the env's turn limit (default the env's)")
    parser.add_argument("--out", default=None, metavar="DIR", help="write arena.json, CSV files and arena.png here")
    parser.add_argument("--replays", default=None, metavar="DIR", help="write every game here as JSON Lines")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--url", default=None, help="a running server (default: start a local one)")
    parser.add_argument("--torch-threads", type=int, default=1, help="torch threads for checkpoints")
    args = parser.parse_args(argv)
    try:
        entrants = [parse_entrant(spec) for spec in args.entrant]
    except ValueError as exc:
        parser.error(str(exc))
    check_args(parser, args, entrants)
    return args, entrants


def check_args(parser: argparse.ArgumentParser, args: argparse.Namespace, entrants: list[Entrant]) -> None:
    """Refuse what cannot make an arena; settle --env (a checkpoint plays the env it was trained on) and --hero."""
    names = [e.name for e in entrants]
    if len(set(names)) < len(names):
        parser.error(f"entrant names must differ: {names}")
    if not 2 <= args.players <= len(entrants):
        parser.error(f"--players {args.players}: needs 2 or more, and at least that many entrants")
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    args.env, args.env_options = check_entrants(parser, entrants, args.env, args.players)
    args.hero = args.hero or names[0]
    if args.hero not in names:
        parser.error(f"--hero {args.hero!r} is not an entrant ({', '.join(names)})")


def check_entrants(parser: argparse.ArgumentParser, entrants: Sequence[Entrant], env: str | None,
                   players: int) -> tuple[str, dict]:
    """The env the entrants play (a checkpoint or network plays the one it was trained on; else `env`, else
    splendor-v1) and the env options their networks need (`features: derived` if any was trained with it: the
    others read the observation's first values), each network trained for `players` and each plugin's module
    importing: a mismatch or misspelling is one line."""
    options: dict = {}
    for entrant in entrants:
        if entrant.kind == "checkpoint":
            env = checkpoint_env(parser, entrant.source, env)
            if network_options(parser, entrant.source, players).get("features") == "derived":
                options["features"] = "derived"
        elif entrant.kind == "plugin":
            check_plugin(parser, entrant)
    return env or "splendor-v1", options


def check_plugin(parser: argparse.ArgumentParser, entrant: Entrant) -> None:
    """A plugin's module imports and has its function: a misspelt name is one line, not an import traceback."""
    module, _, function = entrant.source.partition(":")
    try:
        imported = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name is None or not (module == exc.name or module.startswith(exc.name + ".")):
            raise  # the plugin's own import of something else failed: its traceback says where
        fail(parser, f"entrant {entrant.name}: no module named {module!r} (a plugin is module:function, the module "
                     "on the Python path, e.g. a .py file in the current directory)")
    if not callable(getattr(imported, function, None)):
        fail(parser, f"entrant {entrant.name}: module {module!r} has no function {function!r}")


def load_policies(entrants: list[Entrant], args: argparse.Namespace) -> None:
    for entrant in entrants:
        if entrant.kind == "checkpoint":
            import torch

            torch.set_num_threads(args.torch_threads)
            entrant.policy = checkpoint_policy(entrant.source, seed=args.seed)
        elif entrant.kind == "plugin":
            entrant.policy = load_plugin(entrant.source, args.seed)


def run_key(args: argparse.Namespace, entrants: Sequence[Entrant]) -> dict:
    """The arguments that decide the games (arena.json's `run`): the same ones replay the same games."""
    hero = args.hero if args.format == "gauntlet" else None
    return {"env": args.env, "players": args.players, "format": args.format, "hero": hero,
            "deals": args.deals, "seed": args.seed, "max_rounds": args.max_rounds,
            "entrants": [{"name": e.name, "kind": e.kind, "source": e.source} for e in entrants]}


def main(argv: Sequence[str] | None = None) -> int:
    try:  # the arena's own dependencies are an extra: the base install stays small
        require("the arena", "arena", "tqdm", "openskill", "matplotlib")
    except MissingExtra as exc:
        sys.exit(f"python -m splendor_rl.arena: {exc}")
    from tqdm import tqdm

    from .arena_report import build_report, summary, write_files

    args, entrants = parse_args(argv)
    load_policies(entrants, args)
    options = dict(args.env_options, **({} if args.max_rounds is None else {"max_rounds": args.max_rounds}))
    hero = [e.name for e in entrants].index(args.hero)
    total = len(schedule(tables(args.format, len(entrants), args.players, hero), args.deals))
    with tqdm(total=total, unit="game", disable=args.no_progress, file=sys.stderr) as bar:
        try:
            records = run(entrants, env_id=args.env, players=args.players, fmt=args.format, hero=hero,
                          deals=args.deals, seed=args.seed, num_envs=args.num_envs, url=args.url,
                          replays=args.replays, on_game=lambda record: bar.update(), **options)
        except cli.EXPECTED as exc:
            return cli.failed("splendor_rl.arena", exc)
    report = build_report(run_key(args, entrants), records)
    files = write_files(report, args.out) if args.out else []
    print(summary(report, files))
    return 0


if __name__ == "__main__":
    sys.exit(main())
