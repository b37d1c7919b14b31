"""Play a policy against the built-in bots for N seeded games and print its win rate with a 95% Wilson interval.

    python -m splendor_rl.evaluate --policy random --opponent greedy --games 1000
    python -m splendor_rl.evaluate --policy mcts --opponent greedy --games 500
    python -m splendor_rl.evaluate --policy runs/ppo.pt --opponent random --games 1000 --url ws://127.0.0.1:8765/ws
    python -m splendor_rl.evaluate --env splendor-duel-v1 --policy random --opponent greedy --games 1000

Game j (0-based) is dealt from episode seed `--seed + j`, which also draws the policy's seat; the games are played
`--num-envs` at a time, each env taking the next unplayed game when its game ends. A policy's random choices in
game j come from a generator seeded by (seed, j), so the result depends only on the arguments (not on
`--num-envs` or on timing). A win is a terminal reward > 0 for the policy's seat; a truncated game (turn limit) is
not a win. `--policy random` needs no torch; a checkpoint (saved by splendor_rl.ppo) needs torch, and plays the
env it was trained on unless `--env` names it. A built-in bot's name (`greedy`, `mcts`, `mcts:800`…, docs/bots.md)
as the policy asks the server what that bot would play (`bot_actions`), drawing its decision j of game i from a
seed derived from (seed, i, j); `--opponent` takes any bot name too. A failure the user can act on (a dead `--url`, an unknown env, a
lost connection, which suggests `--resume`) prints one line on stderr and exits 1; a `--policy` file that is missing
or no checkpoint, one line and exit 2.

`--results PATH` writes each finished game to PATH (JSON Lines) as it ends; with `--resume`, the games already in
PATH are not played again and the new ones are appended, so that an interrupted run, resumed, prints what an
uninterrupted one would have. (Since every game depends only on the arguments and its index, this is exact.)
"""

from __future__ import annotations

import argparse
import errno
import hashlib
import math
import os
import re
import sys
from dataclasses import asdict, dataclass
from typing import Callable, NoReturn, Sequence

import numpy as np

from . import cli
from .connection import Connection
from .extras import MissingExtra, require
from .seeds import derive_seed
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


@dataclass
class Game:
    """One finished game: its outcome for the policy and the policy's decisions in it."""
    outcome: str            # "win", "loss", "draw" or "truncated"
    steps: int


def summarize(games: Sequence[Game]) -> Result:
    kinds = [g.outcome for g in games]
    return Result(games=len(games), wins=kinds.count("win"), losses=kinds.count("loss"), draws=kinds.count("draw"),
                  truncated=kinds.count("truncated"), steps=sum(g.steps for g in games))


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


BOTS = ("greedy", "mcts", "gumbel", "puct", "baseline", "baseline+search")  # docs/bots.md


def bot_kind(name: str) -> str:
    """The kind of bot a name says, settings and edition aside: `mcts:800` → `mcts`, `baseline@2026-11-26+search:8`
    → `baseline+search` (the server checks the rest)."""
    return re.sub(r"@[^+:]*", "", name.split(":", 1)[0])


def is_bot(name: str) -> bool:
    """Whether a --policy names a built-in bot."""
    return bot_kind(name) in BOTS


def bot_policy(bot: str, seed: int) -> Policy:
    """A built-in bot playing the policy's seat on the server. It needs the envs, which `play` hands it as
    `act.envs`; decision j of game i draws from a seed derived from (seed, i, j), whatever the batching."""
    decisions: dict[int, int] = {}

    def act(obs: np.ndarray, mask: np.ndarray, games: np.ndarray, env_ids: np.ndarray) -> np.ndarray:
        seeds = []
        for g in games.tolist():
            j = decisions.get(g, 0)
            decisions[g] = j + 1
            seeds.append(derive_seed(seed, g, j))
        return act.envs.bot_actions(bot, env_ids=env_ids, seeds=seeds)

    act.bot = bot  # type: ignore[attr-defined]
    act.envs = None  # type: ignore[attr-defined]
    return act


def checkpoint_policy(path: str, seed: int = 0, sample: bool = False) -> Policy:
    """A network saved by splendor_rl.ppo, or the portable file of splendor_rl.alphazero (`.safetensors`): the
    most probable legal action, or (sample=True) a draw from its masked distribution with one generator per game.
    It reads the first values of each observation, as many as it was trained on: a network trained without the
    `features` block plays in an env that serves it (which appends it) as well."""
    import torch

    from .policy import load_checkpoint

    if path.endswith(".safetensors"):
        from . import pvnet

        model, _, _ = pvnet.load(path)
    else:
        model, _ = load_checkpoint(path)
    width = model.config["obs_dim"]
    if not sample:
        return lambda obs, mask, games: model.greedy(obs[:, :width], mask)
    rngs = GameRngs(seed)

    @torch.no_grad()
    def act(obs: np.ndarray, mask: np.ndarray, games: np.ndarray) -> np.ndarray:
        logits = model.masked_logits(model.prep(obs[:, :width]), torch.as_tensor(np.asarray(mask, dtype=bool)))
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
         env_id: str = "splendor-v1", done: dict[int, Game] | None = None,
         on_game: Callable[[int, Game], None] | None = None, **options) -> Result:
    """Play `games` seeded games of `policy` against `opponent` bots; see the module docstring. Games already in
    `done` (index → Game) are not played again; `on_game(index, game)` is called as each other game ends."""
    done = done or {}
    finished = {g: done[g] for g in range(games) if g in done}
    todo = [g for g in range(games) if g not in finished]

    def record(g: int, game: Game) -> None:
        finished[g] = game
        if on_game is not None:
            on_game(g, game)

    if todo:
        envs = SplendorVectorEnv(env_id, max(1, min(num_envs, len(todo))), seed=seed, url=url,
                                 connection=connection, mode="vs_bots", bots=opponent, players=players,
                                 autoreset="disabled", **options)
        if hasattr(policy, "bot"):
            policy.envs = envs  # type: ignore[attr-defined]
        try:
            _play_games(policy, envs, todo, seed, record)
        finally:
            envs.close()
    return summarize([finished[g] for g in range(games)])


def _play_games(policy: Policy, envs: SplendorVectorEnv, todo: list[int], seed: int,
                record: Callable[[int, Game], None]) -> None:
    """Play the games `todo` on `envs` (autoreset disabled), each env taking the next one when its game ends."""
    num_envs = envs.num_envs
    game_of = np.array(todo[:num_envs])     # the game each env plays; -1 once there is none left
    queue = todo[num_envs:][::-1]           # the games no env has taken yet, the next one last
    steps = np.zeros(max(todo) + 1, np.int64)
    left = len(todo)
    obs, infos = envs.reset(seed=[seed + int(g) for g in game_of])
    while left:
        actions = infos["action_mask"].argmax(axis=1)  # any legal action for envs replaying a dummy deal
        live = np.flatnonzero(game_of >= 0)
        if hasattr(policy, "bot"):
            actions[live] = policy(obs[live], infos["action_mask"][live], game_of[live], live)
        else:
            actions[live] = policy(obs[live], infos["action_mask"][live], game_of[live])
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        steps[game_of[live]] += 1
        ended = np.flatnonzero(terminated | truncated)
        for i in ended[game_of[ended] >= 0]:
            g = int(game_of[i])
            record(g, Game(_outcome(terminated[i], truncated[i], rewards[i]), int(steps[g])))
            left -= 1
            rngs = getattr(policy, "rngs", None)
            if rngs is not None:
                rngs.forget(g)
        if len(ended) and left:
            # Ended envs take the next games in env order; with none left they replay a dummy deal, ignored.
            game_of[ended] = [queue.pop() if queue else -1 for _ in ended]
            seeds = [seed + max(0, int(game_of[i])) for i in ended]
            reset_mask = np.zeros(num_envs, bool)
            reset_mask[ended] = True
            obs, infos = envs.reset(seed=seeds, options={"reset_mask": reset_mask})


def _outcome(terminated: bool, truncated: bool, reward: float) -> str:
    if truncated and not terminated:
        return "truncated"
    return "win" if reward > 0 else "loss" if reward < 0 else "draw"


def format_result(name: str, opponent: str, r: Result) -> str:
    lo, hi = wilson(r.wins, r.games)
    line = (f"policy {name} vs {opponent}: {r.wins}/{r.games} wins = {100 * r.win_rate:.1f}% "
            f"(95% CI {100 * lo:.1f}–{100 * hi:.1f}%), {r.truncated} truncated")
    if r.draws:
        line += f", {r.draws} draws"
    return line


def run_key(args: argparse.Namespace) -> dict:
    """What decides the games, a checkpoint by its content (not --games: a resumed run may ask for more)."""
    run = {k: getattr(args, k) for k in ("env", "policy", "opponent", "seed", "players", "sample", "max_rounds")}
    if args.policy != "random" and not is_bot(args.policy):
        with open(args.policy, "rb") as f:
            run["policy_sha256"] = hashlib.sha256(f.read()).hexdigest()
    return run


def fail(parser: argparse.ArgumentParser, message: str) -> NoReturn:
    """Exit 2 with one line, as argparse's own errors do but without the usage, for arguments that name
    something missing (a file, a module)."""
    parser.exit(2, f"{parser.prog}: error: {message}\n")


def checkpoint_env(parser: argparse.ArgumentParser, path: str, env: str | None) -> str:
    """The env a checkpoint of splendor_rl.ppo was trained on (its args hold `env`; older ones, splendor-v1):
    the default of --env, and a mismatch is refused, since the network's input and output sizes are that env's.
    A file that is missing or no checkpoint, or no torch to read it with, is one line, not a traceback."""
    if not os.path.exists(path):  # said before a missing extra: installing it would not help
        kind = "a network of splendor_rl.alphazero" if path.endswith(".safetensors") else \
            "a checkpoint saved by splendor_rl.ppo"
        fail(parser, f"cannot load {path!r} as {kind}: {os.strerror(errno.ENOENT)}")
    try:
        torch, _ = require(f"the network {path}", "train", "torch", "safetensors")
    except MissingExtra as exc:
        fail(parser, str(exc))

    if path.endswith(".safetensors"):
        trained = network_env(parser, path)[0]
        if env is not None and env != trained:
            parser.error(f"{path} was trained on {trained}, not {env}: pass --env {trained} (or no --env)")
        return trained
    try:
        saved = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as exc:  # OSError, or whatever unpickling raises
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc).splitlines()[0]
        fail(parser, f"cannot load {path!r} as a checkpoint saved by splendor_rl.ppo: {reason}")
    trained = saved.get("args", {}).get("env", "splendor-v1")
    if env is not None and env != trained:
        parser.error(f"{path} was trained on {trained}, not {env}: pass --env {trained} (or no --env)")
    return trained


def network_env(parser: argparse.ArgumentParser, path: str) -> tuple[str, dict]:
    """The env id and options of a portable network (splendor_rl.alphazero); a file that is none is one line."""
    from . import pvnet

    try:
        return pvnet.read_env(path)
    except ValueError as exc:
        fail(parser, f"cannot load {path!r} as a network saved by splendor_rl.alphazero: {exc}")


def network_options(parser: argparse.ArgumentParser, path: str, players: int) -> dict:
    """The env options a portable network's observations need (its features block); another player count than
    its own is refused, since its value and policy learned that game."""
    if not path.endswith(".safetensors"):
        return {}
    _, trained = network_env(parser, path)
    if trained.get("players", players) != players:
        parser.error(f"{path} was trained with {trained['players']} players, not {players}: pass --players "
                     f"{trained['players']}")
    return {k: v for k, v in trained.items() if k == "features"}


def main(argv: Sequence[str] | None = None) -> int:
    parser = cli.parser(__doc__, "python -m splendor_rl.evaluate")
    parser.add_argument("--env", default=None, help="the env id: splendor-v1, splendor-duel-v1 (default: the "
                        "checkpoint's, else splendor-v1)")
    parser.add_argument("--policy", default="random", help="`random`, a built-in bot (`greedy`, `mcts`, "
                        "`mcts:800`…), the path of a checkpoint saved by splendor_rl.ppo, or of a network "
                        "(.safetensors) saved by splendor_rl.alphazero")
    parser.add_argument("--opponent", default="random", help="the bots' kind: random, greedy, mcts, mcts:800…")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0, help="game j is dealt from seed + j")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--num-envs", type=int, default=64, help="games played in parallel")
    parser.add_argument("--sample", action="store_true", help="sample a checkpoint's actions instead of argmax")
    parser.add_argument("--max-rounds", type=int, default=None, help="the env's turn limit (default the env's)")
    parser.add_argument("--url", default=None, help="a running server (default: start a local one)")
    parser.add_argument("--torch-threads", type=int, default=1)
    cli.add_results(parser)
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    cli.check_results(parser, args)

    if args.policy == "random":
        policy = random_policy(args.seed)
    elif is_bot(args.policy):
        policy = bot_policy(args.policy, args.seed)
    else:
        args.env = checkpoint_env(parser, args.policy, args.env)
        import torch

        torch.set_num_threads(args.torch_threads)
        policy = checkpoint_policy(args.policy, seed=args.seed, sample=args.sample)
    args.env = args.env or "splendor-v1"
    options = {} if args.max_rounds is None else {"max_rounds": args.max_rounds}
    if not is_bot(args.policy) and args.policy != "random":
        options.update(network_options(parser, args.policy, args.players))
    results = cli.open_results(parser, args, run_key(args))
    try:
        result = play(policy, args.games, seed=args.seed, opponent=args.opponent, players=args.players,
                      num_envs=args.num_envs, url=args.url, env_id=args.env,
                      done={row["game"]: Game(row["outcome"], row["steps"]) for row in results.rows},
                      on_game=lambda g, game: results.add({"game": g, **asdict(game)}), **options)
    except cli.EXPECTED as exc:
        return cli.failed("splendor_rl.evaluate", cli.with_resume_hint(exc, args.results))
    finally:
        results.close()
    print(format_result(args.policy, args.opponent, result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
