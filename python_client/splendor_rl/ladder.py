"""A rating that means the same in every paper: play an entrant against a pinned reference field on fixed seeded
deals and fit its Elo rating against the field's published ratings.

    python -m splendor_rl.ladder mcts:800
    python -m splendor_rl.ladder me=runs/az/net.safetensors
    python -m splendor_rl.ladder --env splendor-duel-v1 puct:1000
    python -m splendor_rl.ladder --players 3 me=runs/az3/net.safetensors
    python -m splendor_rl.ladder --calibrate          # how the field's ratings were found (docs/ladder.md)
    python -m splendor_rl.ladder --reach              # how finely the field places entrants of each rating
    python -m splendor_rl.ladder mcts:20000 --results runs/mcts20k.jsonl --resume   # a run of hours, in pieces

The entrant (anything the arena takes: a bot, `name=path` of a checkpoint or network, `name=module:function`) plays
the field of its env and table size on the ladder's deals: at every table of itself and players − 1 members (the
arena's gauntlet), DEALS deals dealt from SEED + j, each once per rotation of the seats (duplicate format), then
likewise, on UPPER_DEALS times the deals, the field's upper members that its interval so far comes within
UPPER_MARGIN of; so the games, and the rating, depend on the entrant alone. The rating is the maximum-likelihood rating R given the members'
fixed ratings under Plackett-Luce, on Elo's scale: a seat of rating r has strength 10^(r/400), a table's first place
goes to a seat with probability its strength over the table's, the next place likewise among the others, and so
on; seats sharing a place count every order among them as equally likely. With two seats that is Elo (a win against
r has probability 1/(1 + 10^((r − R)/400)), a draw scores ½). One virtual draw against a player of 1000 joins the
fit, so that a perfect record has a finite rating; the interval is the 95 % likelihood-ratio one. Each field's
ratings were fitted once from a round-robin of its members on the same deals, greedy anchored at 1000
(`--calibrate` plays it again and prints them); new members join by being laddered, so the scale never moves.

`--results PATH` writes each finished game to PATH (JSON Lines, the arena's record with its `phase`, "field" or
"upper") as it ends; with `--resume`, the games already in PATH are not played again, so that a run stopped at any
point, resumed (on another machine too), rates the entrant as an uninterrupted one would: every game depends on the
ladder's arguments and its index alone.

Why not openskill, which the arena uses (Plackett-Luce too): its online updates depend on the order of the games
and on its prior, while a fixed field calls for the one-parameter fit below, which depends on the results alone.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import math
import sys
from typing import Sequence

from . import cli
from .arena import check_entrants, load_policies, parse_entrant, run

DEALS, SEED = 50, 20261126
# The reference fields, fitted by `--calibrate` (docs/ladder.md), then frozen editions of the shipped networks
# (`baseline@EDITION…`: the server's baselines/ files whose SHA-256 docs/ladder.md lists, which a new `baseline` does
# not replace), laddered against them; tests pin them to the docs.
FIELDS: dict[tuple[str, int], dict[str, float]] = {
    ("splendor-v1", 2): {"random": 380.1, "greedy": 1000.0, "mcts:200": 1267.0, "mcts": 1536.7,
                         "baseline@2026-11-26": 1203.0, "baseline@2026-11-26+search:1024": 1616.0,
                         "baseline@2026-11-28+search:1024": 1757.0, "baseline@2026-11-28+search:4096": 1869.0},
    ("splendor-duel-v1", 2): {"random": 53.1, "greedy": 1000.0, "mcts:200": 1323.4, "mcts": 1986.3,
                              "baseline@2026-11-26": 1923.0, "baseline@2026-11-26+search:1024": 2446.0},
    ("splendor-v1", 3): {"random": 566.2, "greedy": 1000.0, "mcts:200": 1064.9, "mcts": 1319.1},
    ("splendor-v1", 4): {"random": 611.5, "greedy": 1000.0, "mcts:200": 945.5, "mcts": 1303.9},
}
# Members above a field, each played only by an entrant whose rating against the field has a 95 % upper bound within
# UPPER_MARGIN of its own: they search for half a second a move, and an entrant they beat nine games in ten (400
# below them) would spend most of its time on games that say little about it (docs/ladder.md).
UPPER: dict[tuple[str, int], dict[str, float]] = {
    ("splendor-v1", 2): {"baseline@2026-11-28.2+search:24576,exploration=2.5": 2040.0},
}
UPPER_MARGIN = 400.0
# An upper member is played on UPPER_DEALS times the field's deals (150 on the ladder): only an entrant near its
# strength meets it, and the members nearest an entrant's strength say the most about it (--reach).
UPPER_DEALS = 3
ANCHOR = "greedy"
BOUNDS = (-2000.0, 5000.0)  # far beyond any rating the prior allows
# One virtual draw against the anchor's rating joins every fit (as BayesElo's prior does): a player who lost or
# won every game still gets a finite rating, and a few hundred real games outweigh it.
PRIOR = (((None, 1000.0), 0.5), ((1000.0, None), 0.5))
CHI2_95 = 3.841458820694124  # the likelihood-ratio interval's threshold (χ², one degree of freedom)
REACH = range(1000, 2801, 200)  # the entrants' ratings --reach prints
FOUNDERS = ("random", "greedy", "mcts:200", "mcts")  # a new table's field before any network joins it


# A rating r is the Plackett-Luce strength 10^(r/400): a table's first place goes to a seat with probability its
# strength over the table's, the next place likewise among the others, and so on. With two seats that is Elo.
Order = tuple[tuple["float | None", ...], float]  # the seats' ratings, first place first (None: the one fitted), weight


def expected(rating: float, other: float) -> float:
    return 1.0 / (1.0 + 10.0 ** ((other - rating) / 400.0))


def strength(rating: float) -> float:
    return 10.0 ** (rating / 400.0)


def orders(ratings: Sequence["float | None"], places: Sequence[int], weight: float = 1.0) -> list[Order]:
    """A game's finishing order (seat ratings, places from 1) as weighted strict orders: seats sharing a place in
    every order among them, equally likely (with two seats, a draw scores ½ as in Elo)."""
    groups = [[ratings[s] for s in range(len(places)) if places[s] == p] for p in sorted(set(places))]
    ways = list(itertools.product(*(itertools.permutations(g) for g in groups)))
    return [(tuple(r for group in way for r in group), weight / len(ways)) for way in ways]


def pairwise(other: float, score: float) -> list[Order]:
    """A 2-seat game's score (1 ahead, ½ level, 0 behind) against a player of rating `other`, as orders."""
    return [o for o in (((None, other), score), ((other, None), 1.0 - score)) if o[1] > 0]


def log_likelihood(rating: float, games: Sequence[Order]) -> float:
    """Of weighted orders for a player of `rating`, the others' ratings fixed."""
    total = 0.0
    for seats, weight in games:
        s = [strength(rating if r is None else r) for r in seats]
        for k in range(len(s) - 1):
            total += weight * math.log(s[k] / sum(s[k:]))
    return total


def surplus(rating: float, games: Sequence[Order]) -> float:
    """The player's places won minus those Plackett-Luce expects at `rating`: the log-likelihood's slope over
    ln 10 / 400, zero at the fit and decreasing in `rating`."""
    total, mine = 0.0, strength(rating)
    for seats, weight in games:
        me = seats.index(None)
        s = [mine if r is None else strength(r) for r in seats]
        for k in range(min(me + 1, len(s) - 1)):
            total += weight * ((k == me) - mine / sum(s[k:]))
    return total


def bisect(f, lo: float, hi: float) -> float:
    """The root of a function decreasing on [lo, hi], or the bound it does not cross."""
    if f(lo) <= 0:
        return lo
    if f(hi) >= 0:
        return hi
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if f(mid) > 0 else (lo, mid)
    return (lo + hi) / 2


def fit(games: Sequence[Order]) -> float:
    """The maximum-likelihood rating, the prior's draw included."""
    games = [*games, *PRIOR]
    return bisect(lambda r: surplus(r, games), *BOUNDS)


def interval(games: Sequence[Order], rating: float) -> tuple[float, float]:
    """The 95 % likelihood-ratio interval around the fitted rating."""
    games = [*games, *PRIOR]
    top = log_likelihood(rating, games)

    def inside(r: float) -> float:  # > 0 inside the interval
        return CHI2_95 / 2 - (top - log_likelihood(r, games))

    low = bisect(lambda r: -inside(r), BOUNDS[0], rating)
    high = bisect(inside, rating, BOUNDS[1])
    return low, high


def expected_games(members: Sequence[float], rating: float, deals: int, players: int) -> list[Order]:
    """The games of an entrant rated `rating` against these members (the ladder's gauntlet: each choice of
    players − 1 members, `deals` deals, each in every rotation), every table finishing as Plackett-Luce expects:
    each order weighted by its chance."""
    games = []
    for table in itertools.combinations(members, players - 1):
        for order in itertools.permutations([None, *table]):
            chance = math.exp(log_likelihood(rating, [(order, 1.0)]))
            games.append((order, chance * deals * players))
    return games


def reach(members: Sequence[float], rating: float, deals: int = DEALS, players: int = 2) -> tuple[float, float]:
    """The 95 % interval of the expected games of an entrant rated `rating` against these members: how finely they
    place it. Members far below or above it say little, so the interval widens past the field's top."""
    games = expected_games(members, rating, deals, players)
    return interval(games, fit(games))


def within_margin(high: float, member: float) -> bool:
    """Whether an upper member rated `member` is played by an entrant whose interval against the field ends at
    `high`."""
    return high >= member - UPPER_MARGIN


def reach_with_upper(field: Sequence[float], upper: Sequence[float], rating: float, deals: int = DEALS,
                     players: int = 2) -> tuple[float, float]:
    """`reach` of a field and its upper members: those that the interval against the field brings within
    UPPER_MARGIN join it on UPPER_DEALS times the deals, as they would join an entrant's games."""
    low, high = reach(field, rating, deals, players)
    reached = [r for r in upper if within_margin(high, r)]
    if not reached:
        return low, high
    games = expected_games(field, rating, deals, players) + expected_games(reached, rating, deals * UPPER_DEALS,
                                                                           players)
    return interval(games, fit(games))


def game_orders(record: dict, name: str, ratings: dict[str, float]) -> list[Order]:
    """A game's record as `name`'s orders, the others' ratings from `ratings`."""
    seats = [None if n == name else ratings[n] for n in record["seats"]]
    return orders(seats, record["places"])


def scores(records: Sequence[dict], name: str) -> dict[str, list[float]]:
    """Each other entrant's games against `name`, as `name`'s scores: 1 ahead of it, ½ level, 0 behind, one per
    game they sat at together."""
    out: dict[str, list[float]] = {}
    for record in records:
        if name not in record["seats"]:
            continue
        me = record["seats"].index(name)
        mine = record["places"][me]
        for other, theirs in zip(record["seats"], record["places"]):
            if other != name:
                out.setdefault(other, []).append(1.0 if mine < theirs else 0.5 if mine == theirs else 0.0)
    return out


def calibrate(names: Sequence[str], records: Sequence[dict], anchor: str = ANCHOR) -> dict[str, float]:
    """Every entrant's rating from a round-robin's records, the anchor held at 1000: each rating refitted in turn
    against the others until none moves by 0.001."""
    ratings = {n: 1000.0 for n in names}
    for _ in range(1000):
        moved = 0.0
        for name in names:
            if name == anchor:
                continue
            new = fit([o for record in records if name in record["seats"] for o in game_orders(record, name, ratings)])
            moved, ratings[name] = max(moved, abs(new - ratings[name])), new
        if moved < 1e-3:
            break
    return {n: round(r, 1) for n, r in ratings.items()}


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = cli.parser(__doc__, "python -m splendor_rl.ladder")
    p.add_argument("entrant", nargs="?", help="a bot, name=path (checkpoint or network) or name=module:function")
    p.add_argument("--env", default=None, help="splendor-v1 or splendor-duel-v1 (default: a network's, else "
                   "splendor-v1)")
    p.add_argument("--players", type=int, default=2, help="Splendor's table size, 2-4")
    p.add_argument("--calibrate", action="store_true", help="play the field's round-robin and fit its ratings")
    p.add_argument("--reach", action="store_true", help="print the interval the field would give entrants of "
                   "each rating (no games)")
    p.add_argument("--deals", type=int, default=DEALS, help=f"deals per table: other than {DEALS}, the rating "
                   "is not on the ladder (for quick checks)")
    p.add_argument("--num-envs", type=int, default=64)
    p.add_argument("--url", default=None, help="a running server (default: start a local one)")
    p.add_argument("--torch-threads", type=int, default=1)
    cli.add_results(p)
    args = p.parse_args(argv)
    if bool(args.entrant) + args.calibrate + args.reach != 1:
        p.error("name an entrant, or pass --calibrate or --reach")
    if args.deals < 1:
        p.error("--deals must be at least 1")
    cli.check_results(p, args)
    args.seed = SEED
    try:
        args.entrants = [parse_entrant(args.entrant)] if args.entrant else []
    except ValueError as exc:
        p.error(str(exc))
    check_args_for(p, args)
    if not args.reach:  # the games' results file, refused now if another run's
        args.results_file = cli.open_results(p, args, run_key(args, field_of(args), upper_of(args)))
    return args


def check_args_for(p: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """As the arena checks its entrants (a network plays its own env; a plugin imports), then the env's field."""
    args.env, args.env_options = check_entrants(p, args.entrants, args.env, args.players)
    if args.players not in ((2,) if args.env == "splendor-duel-v1" else (2, 3, 4)):
        p.error(f"{args.env} has no table of {args.players} players")
    if (args.env, args.players) not in FIELDS and not args.calibrate:
        p.error(f"no ladder field for {args.env} with {args.players} players")
    members = {**field_of(args), **upper_of(args)}
    if args.entrants and args.entrants[0].name in members:
        p.error(f"{args.entrants[0].name} is a member of the field: its rating is {members[args.entrants[0].name]:.0f}")


def field_of(args: argparse.Namespace) -> dict[str, float]:
    """The field of the args' table, or the founding members to calibrate one (their ratings unknown)."""
    return FIELDS.get((args.env, args.players), dict.fromkeys(FOUNDERS, math.nan))


def upper_of(args: argparse.Namespace) -> dict[str, float]:
    """The upper members of the args' table (none to calibrate)."""
    return {} if args.calibrate else UPPER.get((args.env, args.players), {})


def play(args: argparse.Namespace, entrants: list, deals: int, phase: str, results: cli.ResultsFile) -> list[dict]:
    """The games of the args' entrant (or the calibration's round-robin) against these members on `deals` deals:
    the `phase` ("field" or "upper") of the ladder's games, those already in `results` not played again."""
    played = [{k: v for k, v in row.items() if k != "phase"} for row in results.rows if row["phase"] == phase]
    return run(entrants, env_id=args.env, players=args.players, fmt="round-robin" if args.calibrate else "gauntlet",
               hero=0, deals=deals, seed=SEED, num_envs=args.num_envs, url=args.url, played=played,
               on_game=lambda record: results.add({"phase": phase, **record}), **args.env_options)


def run_key(args: argparse.Namespace, field: dict[str, float], upper: dict[str, float]) -> dict:
    """What decides the ladder's games (a results file's first line): the entrant, the table, the deals and the
    members, a network by its content."""
    entrants = [{"name": e.name, "kind": e.kind, "source": e.source, **file_sha256(e)} for e in args.entrants]
    return {"ladder": "calibrate" if args.calibrate else "entrant", "entrants": entrants, "env": args.env,
            "players": args.players, "deals": args.deals, "seed": SEED, "field": list(field), "upper": list(upper)}


def file_sha256(entrant) -> dict:
    """A checkpoint's or network's SHA-256 (`sha256`): a results file of one file's games is not another's."""
    if entrant.kind != "checkpoint":
        return {}
    with open(entrant.source, "rb") as f:
        return {"sha256": hashlib.sha256(f.read()).hexdigest()}


def ladder_games(args: argparse.Namespace, field: dict[str, float], upper: dict[str, float],
                 results: cli.ResultsFile) -> tuple[list[dict], dict[str, float]]:
    """The entrant's games against the field, then against the upper members that its interval so far reaches (on
    UPPER_DEALS times the deals); and the upper members it did not reach."""
    records = play(args, args.entrants + [parse_entrant(name) for name in field], args.deals, "field", results)
    if not upper:
        return records, {}
    games = [o for record in records for o in game_orders(record, args.entrants[0].name, field)]
    high = interval(games, fit(games))[1]
    reached = {name: rating for name, rating in upper.items() if within_margin(high, rating)}
    if reached:
        records += play(args, args.entrants + [parse_entrant(name) for name in reached], args.deals * UPPER_DEALS,
                        "upper", results)
    return records, {name: rating for name, rating in upper.items() if name not in reached}


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    field, upper, table = field_of(args), upper_of(args), f"{args.env}, {args.players} players"
    if args.reach:
        print(f"95 % intervals against the {table} field ({args.deals} deals a table, every table finishing as "
              f"Plackett-Luce expects):")
        for rating in REACH:
            low, high = reach_with_upper(list(field.values()), list(upper.values()), rating, args.deals,
                                         args.players)
            print(f"  {rating}: {low:.0f}–{high:.0f} (± {(high - low) / 2:.0f})")
        return 0
    load_policies(args.entrants, args)
    try:
        records, unplayed = ladder_games(args, field, upper, args.results_file)
    except cli.EXPECTED as exc:
        return cli.failed("splendor_rl.ladder", cli.with_resume_hint(exc, args.results))
    finally:
        args.results_file.close()
    note = "" if args.deals == DEALS else f" (--deals {args.deals}: not the ladder's deals, not comparable)"
    if args.calibrate:
        for name, rating in calibrate(list(field), records).items():
            print(f"{name:>12}  {rating:7.1f}")
        print(f"{len(records)} games{note}")
        return 0
    name, members = args.entrants[0].name, {**field, **upper}
    games = [o for record in records for o in game_orders(record, name, members)]
    rating = fit(games)
    low, high = interval(games, rating)
    print(f"ladder rating of {name} on {table}: {rating:.0f} (95 % {low:.0f}–{high:.0f}){note}")
    width = max(map(len, members))
    for member, ss in scores(records, name).items():
        print(f"  vs {member:<{width}} ({members[member]:6.0f}): {sum(ss):g}/{len(ss)}")
    for member, r in unplayed.items():
        print(f"  vs {member:<{width}} ({r:6.0f}): not played, more than {UPPER_MARGIN:.0f} above the field's "
              "interval")
    return 0


if __name__ == "__main__":
    sys.exit(main())
