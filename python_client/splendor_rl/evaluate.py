"""Play a policy against the built-in bots for N seeded games and print its win rate with a 95% Wilson interval.

    python -m splendor_rl.evaluate --policy random --opponent greedy --games 1000
    python -m splendor_rl.evaluate --policy runs/ppo.pt --opponent random --games 1000 --url ws://127.0.0.1:8765/ws

Game j (0-based) is dealt from episode seed `--seed + j`, which also draws the policy's seat; the games are played
`--num-envs` at a time, each env taking the next unplayed game when its game ends. A policy's random choices in
game j come from a generator seeded by (seed, j), so the result depends only on the arguments (not on
`--num-envs` or on timing). A win is a terminal reward > 0 for the policy's seat; a truncated game (turn limit) is
not a win. `--policy random` needs no torch; a checkpoint (saved by examples/ppo.py) needs torch.
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from .connection import Connection
from .server import LocalServer
from .vector import SplendorVectorEnv

# policy(obs [n, obs_dim], mask [n, actions] bool, games [n] int) -> actions [n]; `games` are the game indices
# of the rows, so that a stochastic policy can draw from one generator per game.
Policy = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]


@dataclass
class Result:
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0          # terminated with reward 0 (a shared win)
    truncated: int = 0
    steps: int = 0          # the policy's decisions

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def wilson(successes: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    lo, hi = max(0.0, centre - half), min(1.0, centre + half)
    return (0.0 if successes == 0 else lo), (1.0 if successes == n else hi)


class GameRngs:
    """One numpy Generator per game index, seeded by (seed, game): reproducible whatever the batching."""

    def __init__(self, seed: int):
        self.seed = seed
        self._rngs: dict[int, np.random.Generator] = {}

    def __call__(self, game: int) -> np.random.Generator:
        rng = self._rngs.get(game)
        if rng is None:
            rng = self._rngs[game] = np.random.default_rng([self.seed, game])
        return rng

    def forget(self, game: int) -> None:
        self._rngs.pop(game, None)


def random_policy(seed: int) -> Policy:
    """Uniform over the legal actions, each game with its own generator."""
    rngs = GameRngs(seed)

    def act(obs: np.ndarray, mask: np.ndarray, games: np.ndarray) -> np.ndarray:
        out = np.zeros(len(games), np.int64)
        for row, game in enumerate(games):
            legal = np.flatnonzero(mask[row])
            out[row] = legal[rngs(int(game)).integers(len(legal))] if len(legal) else 0
        return out

    act.rngs = rngs  # type: ignore[attr-defined]
    return act


def checkpoint_policy(path: str, seed: int = 0, sample: bool = False) -> Policy:
    """A network saved by examples/ppo.py: the most probable legal action, or (sample=True) a draw from its
    masked distribution with one generator per game."""
    import torch

    from .policy import load_checkpoint

    model, _ = load_checkpoint(path)
    if not sample:
        return lambda obs, mask, games: model.greedy(obs, mask)
    rngs = GameRngs(seed)

    @torch.no_grad()
    def act(obs: np.ndarray, mask: np.ndarray, games: np.ndarray) -> np.ndarray:
        logits = model.masked_logits(model.prep(obs), torch.as_tensor(np.asarray(mask, dtype=bool)))
        cdf = torch.softmax(logits.double(), -1).cumsum(-1).numpy()
        u = np.array([rngs(int(g)).random() for g in games])
        # The first legal action whose cumulative probability exceeds u (never an illegal one: they add 0).
        picks = np.array([np.searchsorted(cdf[i], u[i] * cdf[i, -1], side="right") for i in range(len(games))])
        picks = np.minimum(picks, mask.shape[1] - 1)
        legal = np.asarray(mask, dtype=bool)
        for i, a in enumerate(picks):  # guard against rounding landing on a masked index
            if not legal[i, a]:
                picks[i] = np.flatnonzero(legal[i])[-1]
        return picks

    act.rngs = rngs  # type: ignore[attr-defined]
    return act


def play(policy: Policy, games: int, *, seed: int = 0, opponent: str = "random", players: int = 2,
         num_envs: int = 64, url: str | None = None, connection: Connection | None = None,
         env_id: str = "splendor-v1", **options) -> Result:
    """Play `games` seeded games of `policy` against `opponent` bots; see the module docstring."""
    num_envs = max(1, min(num_envs, games))
    server = None
    if connection is None and url is None:
        server = LocalServer()
        url = server.url
    envs = SplendorVectorEnv(env_id, num_envs, seed=seed, url=url, connection=connection, mode="vs_bots",
                             bots=opponent, players=players, autoreset="disabled", **options)
    result = Result()
    try:
        game_of = np.arange(num_envs)            # the game each env plays; -1 once there is none left
        next_game = num_envs
        obs, infos = envs.reset(seed=[seed + int(g) for g in game_of])
        outcome: dict[int, str] = {}
        while len(outcome) < games:
            actions = infos["action_mask"].argmax(axis=1)  # any legal action for envs replaying a dummy deal
            live = np.flatnonzero(game_of >= 0)
            actions[live] = policy(obs[live], infos["action_mask"][live], game_of[live])
            obs, rewards, terminated, truncated, infos = envs.step(actions)
            result.steps += len(live)
            ended = np.flatnonzero(terminated | truncated)
            if len(ended) == 0:
                continue
            for i in ended:
                g = int(game_of[i])
                if g >= 0:
                    outcome[g] = ("truncated" if truncated[i] and not terminated[i] else
                                  "win" if rewards[i] > 0 else "loss" if rewards[i] < 0 else "draw")
                    rngs = getattr(policy, "rngs", None)
                    if rngs is not None:
                        rngs.forget(g)
            # Ended envs take the next games in env order; with none left they replay a dummy deal, ignored.
            seeds = []
            for i in ended:
                if next_game < games:
                    game_of[i], next_game = next_game, next_game + 1
                    seeds.append(seed + int(game_of[i]))
                else:
                    game_of[i] = -1
                    seeds.append(seed)
            if len(outcome) < games:
                reset_mask = np.zeros(num_envs, bool)
                reset_mask[ended] = True
                obs, infos = envs.reset(seed=seeds, options={"reset_mask": reset_mask})
        kinds = [outcome[g] for g in range(games)]
        result.games = games
        result.wins, result.losses = kinds.count("win"), kinds.count("loss")
        result.draws, result.truncated = kinds.count("draw"), kinds.count("truncated")
    finally:
        envs.close()
        if server is not None:
            server.stop()
    return result


def format_result(name: str, opponent: str, r: Result) -> str:
    lo, hi = wilson(r.wins, r.games)
    line = (f"policy {name} vs {opponent}: {r.wins}/{r.games} wins = {100 * r.win_rate:.1f}% "
            f"(95% CI {100 * lo:.1f}–{100 * hi:.1f}%), {r.truncated} truncated")
    if r.draws:
        line += f", {r.draws} draws"
    return line


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m splendor_rl.evaluate", description=__doc__.split("\n")[0])
    parser.add_argument("--policy", default="random", help="`random`, or the path of a checkpoint saved by "
                        "examples/ppo.py")
    parser.add_argument("--opponent", default="random", choices=["random", "greedy"], help="the bots' kind")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0, help="game j is dealt from seed + j")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--num-envs", type=int, default=64, help="games played in parallel")
    parser.add_argument("--sample", action="store_true", help="sample a checkpoint's actions instead of argmax")
    parser.add_argument("--max-rounds", type=int, default=None, help="the env's turn limit (default the env's)")
    parser.add_argument("--url", default=None, help="a running server (default: start a local one)")
    parser.add_argument("--torch-threads", type=int, default=1)
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")

    if args.policy == "random":
        policy = random_policy(args.seed)
    else:
        try:
            import torch
        except ImportError:
            parser.error("a checkpoint policy needs torch (pip install 'splendor_rl[train]')")
        torch.set_num_threads(args.torch_threads)
        policy = checkpoint_policy(args.policy, seed=args.seed, sample=args.sample)
    options = {} if args.max_rounds is None else {"max_rounds": args.max_rounds}
    result = play(policy, args.games, seed=args.seed, opponent=args.opponent, players=args.players,
                  num_envs=args.num_envs, url=args.url, **options)
    print(format_result(args.policy, args.opponent, result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
