"""python -m splendor_rl.movetime BOT: how long a built-in bot takes a move, measured as docs/bots.md's move times are.

The bot plays --games seeded games against --opponent (game g dealt from seed + g, the bot in seat g mod --players),
and each of its first --decisions decisions of a game is timed as one `bot_actions` call: the round trip, the
server's search included. It prints the median, the fastest and the slowest, then every time in game order. A
search's moves depend on its simulations alone, so the times are the machine's: run it against a server with one
search slot on an otherwise idle machine (`--url`; without it, a local server of this process's CPUs).

    python -m splendor_rl.movetime "baseline+search:24576,exploration=2.5,fpu=0,policy_temp=1.4" --url ws://…"""

from __future__ import annotations

import statistics
import sys
import time
from typing import Sequence

from . import cli
from .vector import SplendorVectorEnv


def times(bot: str, *, env_id: str = "splendor-v1", players: int = 2, games: int = 6, decisions: int = 4,
          opponent: str = "greedy", seed: int = 0, url: str | None = None) -> list[float]:
    """The seconds of each of bot's first `decisions` decisions in each of `games` games, in game order. The
    server's own bots play the other seats (`vs_bots`), so that every decision the client sees is the bot's."""
    out, envs = [], []
    try:
        for g in range(games):  # all made before the first is timed: a local server then starts once
            envs.append(SplendorVectorEnv(env_id, 1, seed=seed + g, url=url, players=players, mode="vs_bots",
                                          bots=opponent, seat=g % players))
        for env in envs:
            env.reset()
            for turn in range(decisions):
                start = time.perf_counter()
                action = env.bot_actions(bot, seed=turn)
                out.append(time.perf_counter() - start)
                _, _, terminated, truncated, _ = env.step(action)
                if terminated[0] or truncated[0]:
                    break  # a game over before the bot's last timed decision: it has fewer
    finally:
        for env in envs:
            env.close()
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = cli.parser(__doc__, "python -m splendor_rl.movetime")
    parser.add_argument("bot", help="a built-in bot: mcts:800, baseline+search:4096,exploration=2.5…")
    parser.add_argument("--env", default="splendor-v1", help="splendor-v1 or splendor-duel-v1")
    parser.add_argument("--players", type=int, default=2, help="the table (Duel's is 2)")
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--decisions", type=int, default=4, help="the bot's decisions timed in each game")
    parser.add_argument("--opponent", default="greedy", help="the bot of the other seats")
    parser.add_argument("--seed", type=int, default=0, help="game g is dealt from seed + g")
    parser.add_argument("--url", default=None, help="a running server (default: start a local one)")
    args = parser.parse_args(argv)
    if args.games < 1 or args.decisions < 1:
        parser.error("--games and --decisions must be at least 1")
    try:
        seconds = times(args.bot, env_id=args.env, players=args.players, games=args.games,
                        decisions=args.decisions, opponent=args.opponent, seed=args.seed, url=args.url)
    except cli.EXPECTED as exc:
        return cli.failed("splendor_rl.movetime", exc)
    ms = [s * 1000 for s in seconds]
    print(f"{args.bot} on {args.env}: median {statistics.median(ms):.1f} ms a move "
          f"({min(ms):.1f}–{max(ms):.1f}), {len(ms)} decisions of {args.games} games against {args.opponent}")
    print("ms:", " ".join(f"{m:.1f}" for m in ms))
    return 0


if __name__ == "__main__":
    sys.exit(main())
