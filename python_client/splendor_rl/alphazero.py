"""AlphaZero (expert iteration) for Splendor and Splendor Duel on a CPU: one file, CleanRL style.

    python -m splendor_rl.alphazero --env splendor-v1 --minutes 30 --out runs/az          # starts a local server
    python -m splendor_rl.alphazero --resume runs/az/state.pt --minutes 60                 # the same run goes on
    python -m splendor_rl.evaluate --policy runs/az/net.safetensors --opponent greedy --games 400

Self-play: every env of a vector env (self-play mode, every seat played by the network) is searched at once by the
server's guided search (`envs.search`, PROTOCOL.md §3) with the network as the evaluator of its leaves; the env
plays the search's action (Gumbel: already a sample, its root noise; `--sample-moves` samples the first decisions
of each game from the improved policy instead). The first `--teacher-rounds` rounds are searched by `--teacher`
instead, a search that needs no network (the server's `mcts:200` bot by default: its visit counts and root value;
or `playouts`, the guided search on greedy playouts): expert iteration's first expert. Each searched position
joins its game's trajectory with the search's improved policy and root value; when the game ends, every position
gets its value target (`--value-target`: the search's root value by default, which teaches the value far more than
the game's outcome does: docs/training.md) and enters a replay buffer. At 3 and 4 players the value head predicts
every seat's value from the seat to play's view (`--value-head`), and the search backs each seat's up as max-n.
Training: each round, `--updates` Adam steps on minibatches drawn uniformly from the buffer, minimizing
cross-entropy to the improved policy plus the value's squared error, at a learning rate that falls along a cosine
from `--lr` to `--lr-final` by round `--anneal-rounds` (about the 30 minutes of the default run, 2 players, on
2 cores: docs/training.md). They run in a thread of their own while the round's searches run (the learner and the
searches each take a core: torch computes without Python's lock), on the buffer as the round began, and the searches
play the network the last round's steps left; the round's finished games join the buffer when both are done. A
run is as reproducible as one that searched and trained in turn: the same seeds give the same weights, whatever
the timing. The network (splendor_rl.pvnet) is a masked policy-value MLP; its portable
file (`net.safetensors`) is what `splendor_rl.evaluate`, the arena and the server's baselines read.

Every `--eval-every` rounds the network alone (argmax) plays `--eval-games` seeded games against each of
`--eval-opponents` (greedy; add `mcts:200` or `mcts`, which cost seconds a game: splendor_rl.evaluate; 95 % Wilson
intervals). The curve goes to `OUT/curve.csv` and TensorBoard (`OUT/tb`).

Checkpoints and resuming: every `--checkpoint-every` rounds and at the end, two files.
- `OUT/checkpoint.pt`, compact (a few MB: what a long run commits to a repository and a fresh machine resumes
  from): the run's arguments, weights, optimizer, counters, generators and curve, without the replay buffer and the
  games in progress. `--resume` from it deals every env a new game (seeded from the round) and refills the buffer
  before training goes on: reproducible (the same checkpoint gives the same run), but not the run that never
  stopped.
- `OUT/state.pt`, whole (the buffer makes it hundreds of MB): the same plus the replay buffer and the games in
  progress (their server states, `get_state`, and their trajectories so far). `--resume` from it puts the games back
  (`set_state`) and goes on exactly: a run resumed from round r gives bit-identical weights to one that went on from
  r (same torch threads). `--no-state` writes only the compact file.
A resume takes every argument from the file but those its command line names again (`--lr`, `--simulations`…),
except the ones that shape the network, the envs or the seeds (FIXED_ARGS). `--init NET` starts a new run from a saved
network's weights instead (a shipped baseline, say, when its run's checkpoint is too large to commit): a new
optimizer, round 0.
It stops after `--rounds` rounds or `--minutes` of wall clock, whichever comes first (the clock counts the time
before a resume too).
"""

from __future__ import annotations

import argparse
import copy
import csv
import math
import os
import shutil
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from .extras import command

# Before the imports it names: without them, one line.
command("python -m splendor_rl.alphazero", "train", "torch", "tqdm", "tensorboard", "safetensors")

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.tensorboard import SummaryWriter
from tqdm import tqdm

from . import cli, make_vec, pvnet
from .errors import BadOption
from .evaluate import play, wilson
from .seeds import derive_seed
from .server import LocalServer, default_workers

# A resume takes these from its command line; every other argument from the checkpoint unless given again (a long
# run may lower its learning rate, search more…), but for FIXED_ARGS, which shape the network, the envs and the seeds.
RUN_ARGS = {"url", "minutes", "rounds", "progress", "resume", "torch_threads", "state"}
FIXED_ARGS = {"env", "players", "features", "seed", "num_envs", "hidden", "layers", "value_head"}
# The self-play searches' settings unless --setting says otherwise: mctx's value_scale (c_scale), which every run of
# docs/training.md set, rather than the server's 1.
SETTINGS = {"value_scale": 0.1}
CURVE = ["round", "seconds", "games", "positions", "loss_policy", "loss_value"]  # then per opponent: vs_X, _low, _high


def parse_args(argv=None) -> argparse.Namespace:
    p = cli.parser(__doc__, "python -m splendor_rl.alphazero")
    p.add_argument("--env", default="splendor-v1", help="splendor-v1 or splendor-duel-v1")
    p.add_argument("--players", type=int, default=2, help="Splendor's players (2–4)")
    p.add_argument("--features", choices=["none", "derived"], default="derived", help="the env's derived block")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--num-envs", type=int, default=256, help="games searched at once")
    p.add_argument("--simulations", type=int, default=32)
    p.add_argument("--algorithm", choices=["gumbel", "puct"], default="gumbel")
    p.add_argument("--fast-simulations", type=int, default=0, help="playout-cap randomisation (KataGo): a share of "
                   "the positions (--full-share) is searched with --simulations and trains the network, the others "
                   "are searched with this many and only played (0: every position is searched fully)")
    p.add_argument("--full-share", type=float, default=0.25, help="with --fast-simulations: the share of full "
                   "searches, drawn per env and round")
    p.add_argument("--teacher", default="mcts:200", help="who searches the first --teacher-rounds rounds instead of "
                   "the network (expert iteration's first expert): `playouts`, the guided search on the server's "
                   "greedy playouts (evaluate=None), or a built-in search bot such as `mcts:200` (bot_actions with "
                   "targets: its visit counts and root value)")
    p.add_argument("--teacher-rounds", type=int, default=1000, help="rounds, first, searched by --teacher")
    p.add_argument("--setting", action="append", default=[], metavar="KEY=VALUE", help="a search setting "
                   "over SETTINGS (PROTOCOL.md §3: pb_c_init=2, max_num_considered_actions=8…), repeatable")
    p.add_argument("--sample-moves", type=int, default=6, help="decisions of each game drawn from the improved "
                   "policy (temperature 1) rather than the search's action")
    p.add_argument("--value-target", choices=["outcome", "mixed", "search"], default="search", help="what the "
                   "value learns: the game's outcome for the seat to play, the search's root value, or their mean")
    p.add_argument("--value-head", choices=["auto", "own", "seats"], default="auto", help="what the value head "
                   "predicts: the seat to play's outcome (own), or every seat's from its view (seats), which the "
                   "server's search backs up as max-n; auto: own with 2 players (zero-sum: the same), seats with 3-4")
    p.add_argument("--hidden", type=int, default=256)
    p.add_argument("--layers", type=int, default=2)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--lr-final", type=float, default=1e-4, help="with --anneal-rounds: the learning rate it ends at")
    p.add_argument("--anneal-rounds", type=int, default=15000, help="the learning rate falls from --lr to --lr-final "
                   "along a cosine over rounds 0 to this one and stays there (0: --lr throughout)")
    p.add_argument("--weight-decay", type=float, default=1e-4)
    p.add_argument("--batch-size", type=int, default=512)
    p.add_argument("--updates", type=int, default=4, help="training steps per round of searches")
    p.add_argument("--buffer", type=int, default=200_000, help="positions the replay buffer holds")
    p.add_argument("--min-buffer", type=int, default=4096, help="positions before training starts")
    p.add_argument("--rounds", type=int, default=0, help="stop after this many rounds (0: no limit)")
    p.add_argument("--minutes", type=float, default=30, help="stop after this much wall clock (0: no limit)")
    p.add_argument("--eval-every", type=int, default=1000, help="rounds between evaluations (0: never)")
    p.add_argument("--eval-games", type=int, default=200, help="games against each opponent")
    p.add_argument("--eval-opponents", nargs="+", default=["greedy"], metavar="BOT", help="built-in bots")
    p.add_argument("--eval-seed", type=int, default=10_000_000, help="eval game j is dealt from eval-seed + j")
    p.add_argument("--checkpoint-every", type=int, default=1000, help="rounds between checkpoints")
    p.add_argument("--out", default=None, help="checkpoint.pt, state.pt, net.safetensors, curve.csv, tb/ (default: "
                   "runs/alphazero, or the resumed run's)")
    p.add_argument("--resume", default=None, metavar="FILE", help="continue the run saved in this state.pt (exactly) "
                   "or checkpoint.pt (compact: new games, the buffer refilled)")
    p.add_argument("--init", default=None, metavar="NET", help="start from this saved network's weights (a "
                   ".safetensors of --hidden and --layers' shape, such as a shipped baseline) rather than at random; "
                   "the optimizer starts afresh")
    p.add_argument("--keep-nets", action="store_true", help="also keep each checkpoint's network, "
                   "nets/round-N.safetensors, to ladder the run's curve afterwards")
    p.add_argument("--no-state", dest="state", action="store_false", help="save only the compact checkpoint.pt")
    p.add_argument("--url", default=None, help="a running server (default: start one of its own, a search slot "
                   "per core)")
    p.add_argument("--torch-threads", type=int, default=1, help="the server shares the cores: keep this small")
    p.add_argument("--no-progress", dest="progress", action="store_false")
    args = p.parse_args(argv)
    if args.resume:
        saved = torch.load(args.resume, map_location="cpu", weights_only=False)["args"]
        given = given_args(p, argv)
        if fixed := sorted(k for k in given.keys() & FIXED_ARGS if given[k] != saved.get(k, given[k])):
            p.error(f"--resume: {', '.join('--' + k.replace('_', '-') for k in fixed)} shape the run and cannot change")
        # Arguments added since the checkpoint take their defaults, but a run saved before --anneal-rounds keeps the
        # constant learning rate it had.
        saved = {"anneal_rounds": 0, **saved}
        args = argparse.Namespace(**{**vars(p.parse_args([])), **saved, **given,
                                     **{k: getattr(args, k) for k in RUN_ARGS}})
    args.out = args.out or "runs/alphazero"
    return args


def given_args(p: argparse.ArgumentParser, argv) -> dict:
    """The arguments the command line names (not their defaults)."""
    bare = copy.deepcopy(p)
    for action in bare._actions:
        action.default = argparse.SUPPRESS
    return vars(bare.parse_args(argv))


def env_options(args) -> dict:
    options = {"features": args.features}
    if args.env == "splendor-v1":
        options["players"] = args.players
    return options


def search_settings(args) -> dict:
    """SETTINGS and the --setting KEY=VALUE pairs over them, numbers as numbers."""
    settings = dict(SETTINGS)
    for item in args.setting:
        key, _, value = item.partition("=")
        settings[key] = float(value) if "." in value or "e" in value else int(value)
    return settings


def value_width(args) -> int:
    """The value head's outputs (--value-head): 1, or one per seat."""
    players = args.players if args.env == "splendor-v1" else 2
    seats = args.value_head == "seats" or args.value_head == "auto" and players > 2
    return players if seats else 1


class Replay:
    """A ring buffer of (observation, mask, improved policy, value target) rows; a value target is one number, or
    one per seat (value_width)."""

    def __init__(self, size: int, obs: int, actions: int, values: int = 1):
        self.obs = np.zeros((size, obs), np.uint8)
        self.mask = np.zeros((size, actions), bool)
        self.policy = np.zeros((size, actions), np.float32)
        self.value = np.zeros((size, values) if values > 1 else size, np.float32)
        self.next = self.len = 0

    def add(self, obs, mask, policy, value) -> None:
        for k in range(len(value)):
            i = self.next
            self.obs[i], self.mask[i], self.policy[i], self.value[i] = obs[k], mask[k], policy[k], value[k]
            self.next = (i + 1) % len(self.value)
            self.len = min(self.len + 1, len(self.value))

    def sample(self, rng: np.random.Generator, n: int):
        i = rng.integers(0, self.len, n)
        return (torch.from_numpy(self.obs[i]), torch.from_numpy(self.mask[i]), torch.from_numpy(self.policy[i]),
                torch.from_numpy(self.value[i]))


def evaluator(net: pvnet.PolicyValueNet):
    """The search's evaluate: softmax of the masked logits and the value, for each leaf."""

    @torch.no_grad()
    def evaluate(obs: np.ndarray, mask: np.ndarray):
        logits, value = net.evaluate(net.prep(obs), torch.from_numpy(mask))
        return torch.softmax(logits, -1).numpy(), value.numpy()

    return evaluate


def sample_scale(args) -> np.ndarray:
    """Observation multipliers from 64 games of random play (seeded: the same on every run)."""
    envs = make_vec(args.env, num_envs=64, seed=derive_seed(args.seed, 1), url=args.url,
                                autoreset="same_step", **env_options(args))
    obs, infos = envs.reset()
    rng, seen = np.random.default_rng(args.seed), [obs]
    for _ in range(100):
        mask = infos["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        obs, _, _, _, infos = envs.step(actions)
        seen.append(obs)
    envs.close()
    return pvnet.observation_scale(np.concatenate(seen))


def train_step(net, optimizer, replay: Replay, rng, args) -> tuple[float, float]:
    obs, mask, target, z = replay.sample(rng, args.batch_size)
    logits, value = net.evaluate(obs, mask)
    loss_policy = -(target * F.log_softmax(logits, -1)).sum(-1).mean()
    loss_value = F.mse_loss(value, z)
    optimizer.zero_grad()
    (loss_policy + loss_value).backward()
    optimizer.step()
    return loss_policy.item(), loss_value.item()


class Run:
    """The training state that a checkpoint saves."""

    def __init__(self, args, envs, scale: np.ndarray):
        obs_dim, actions = envs.single_observation_space.shape[0], envs.single_action_space.n
        values = value_width(args)
        self.net = pvnet.PolicyValueNet(obs_dim, actions, args.hidden, args.layers, scale, values)  # the learner's
        self.actor = pvnet.PolicyValueNet(obs_dim, actions, args.hidden, args.layers, scale, values)  # the searches'
        self.actor.load_state_dict(self.net.state_dict())
        self.optimizer = torch.optim.AdamW(self.net.parameters(), lr=args.lr, weight_decay=args.weight_decay)
        self.replay = Replay(args.buffer, obs_dim, actions, values)
        self.rng = np.random.default_rng(derive_seed(args.seed, 2))  # the searches' move sampling
        self.train_rng = np.random.default_rng(derive_seed(args.seed, 3))  # the learner's minibatches
        # Each env's game so far: (obs, mask, policy, seat to play, the search's root value, whether it was a full
        # search: only those positions are learned).
        self.games = [[] for _ in range(args.num_envs)]
        self.round = self.finished = 0
        self.seconds = 0.0
        self.curve: list[dict] = []

    def warm_start(self, path: str) -> None:
        """The learner's and the searches' weights (and observation scale) from a saved network of their shape."""
        net, _, _ = pvnet.load(path)
        if net.config != self.net.config:
            sys.exit(f"python -m splendor_rl.alphazero: --init {path}: a network of {net.config}, the run's is "
                     f"{self.net.config}")
        self.net.load_state_dict(net.state_dict())
        self.actor.load_state_dict(net.state_dict())

    def checkpoint(self, args) -> dict:
        """The compact checkpoint: everything but the replay buffer and the games in progress."""
        return {"args": vars(args), "net": self.net.state_dict(), "optimizer": self.optimizer.state_dict(),
                "rng": self.rng.bit_generator.state, "train_rng": self.train_rng.bit_generator.state,
                "torch": torch.get_rng_state(), "round": self.round, "finished": self.finished,
                "seconds": self.seconds, "curve": self.curve}

    def state(self, args, envs) -> dict:
        """The whole state: the checkpoint, the buffer and the games in progress."""
        return {**self.checkpoint(args), "replay": vars(self.replay), "games": self.games, "envs": envs.get_state()}

    def load(self, saved: dict, envs, args):
        """Puts a saved state or checkpoint back; returns the envs' (obs, infos): the games in progress of a state,
        new games (seeded from the round) after a checkpoint."""
        self.net.load_state_dict(saved["net"])
        self.actor.load_state_dict(saved["net"])
        self.optimizer.load_state_dict(saved["optimizer"])
        self.rng.bit_generator.state = saved["rng"]
        self.train_rng.bit_generator.state = saved["train_rng"]
        torch.set_rng_state(saved["torch"])
        self.round, self.finished, self.seconds, self.curve = (saved["round"], saved["finished"], saved["seconds"],
                                                               saved["curve"])
        if "replay" not in saved:
            return envs.reset(seed=derive_seed(args.seed, 2_000_000 + self.round))
        vars(self.replay).update(saved["replay"])
        self.games = saved["games"]
        return envs.set_state(saved["envs"])


def improve(run: Run, envs, args) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every env's searched action, improved policy and root value (every seat's with a value per seat), and whether
    its search was a full one: the teacher's in its rounds, else the guided search's with the network evaluating its
    leaves; with --fast-simulations, a share of the envs drawn anew each round (--full-share) searches
    --simulations, the others that many (KataGo's playout-cap randomisation)."""
    seed = derive_seed(args.seed, 1_000_000 + run.round)
    teaching = run.round < args.teacher_rounds
    full = np.ones(args.num_envs, bool)
    seats = value_width(args) > 1
    if teaching and args.teacher != "playouts":
        taught = envs.bot_actions(args.teacher, seed=seed, targets=True)
        return taught.actions, taught.policy, taught.values if seats else taught.value, full
    if args.fast_simulations and not teaching:
        full = run.rng.random(args.num_envs) < args.full_share
    actions = np.zeros(args.num_envs, np.int64)
    policy = np.zeros((args.num_envs, envs.single_action_space.n), np.float32)
    value = np.zeros((args.num_envs, envs.num_players) if seats else args.num_envs, np.float32)
    for simulations, ids, part_seed in ((args.simulations, np.flatnonzero(full), seed),
                                        (args.fast_simulations, np.flatnonzero(~full), derive_seed(seed, 1))):
        if len(ids):
            r = envs.search(None if teaching else evaluator(run.actor), simulations=simulations, seed=part_seed,
                            env_ids=None if full.all() else ids, algorithm=args.algorithm, **search_settings(args))
            actions[ids], policy[ids], value[ids] = r.action, r.policy, r.values if seats else r.value
    return actions, policy, value, full


def value_targets(game: list, rewards, kind: str) -> np.ndarray:
    """What the value learns at each position of a finished game (see --value-target): one number a position, or
    with a value per seat each seat's from the seat to play's view (the search's values are so already; the outcome
    is rotated to it)."""
    searched = np.array([g[4] for g in game], np.float32)
    if searched.ndim == 1:
        outcome = np.array([rewards[g[3]] for g in game], np.float32)
    else:
        outcome = np.array([np.roll(rewards, -g[3]) for g in game], np.float32)
    return {"outcome": outcome, "search": searched, "mixed": (outcome + searched) / 2}[kind]


def self_play_round(run: Run, envs, obs, infos, args):
    """One search of every env, one step each; returns the next (obs, infos) and the finished games' rows for the
    replay buffer."""
    mask = infos["action_mask"]
    actions, policy, value, full = improve(run, envs, args)
    actions = actions.copy()
    for i, game in enumerate(run.games):
        if len(game) < args.sample_moves:
            actions[i] = run.rng.choice(len(policy[i]), p=policy[i] / policy[i].sum())
        game.append((obs[i].copy(), mask[i].copy(), policy[i].copy(), int(infos["to_play"][i]), value[i].copy(),
                     bool(full[i])))
    obs, _, terminated, truncated, infos = envs.step(actions)
    finished = []
    for i in np.flatnonzero(terminated | truncated):
        game, rewards = run.games[i], infos["seat_rewards"][i]
        z = value_targets(game, rewards, args.value_target)
        game, z = [g for g in game if g[5]], z[[g[5] for g in game]]  # the fast searches' positions only played
        if game:
            finished.append((np.stack([g[0] for g in game]), np.stack([g[1] for g in game]),
                             np.stack([g[2] for g in game]), z))
        run.games[i] = []
        run.finished += 1
    return obs, infos, finished


def learning_rate(args, round_: int) -> float:
    """The round's learning rate: --lr, or with --anneal-rounds its cosine fall to --lr-final (a function of the
    round alone, so that a run stays reproducible whatever its timing)."""
    if not args.anneal_rounds:
        return args.lr
    done = min(round_ / args.anneal_rounds, 1.0)
    return args.lr_final + (args.lr - args.lr_final) * (1 + math.cos(math.pi * done)) / 2


def learn(run: Run, args) -> tuple[float, float]:
    """The round's training steps (the learner's thread): the last one's losses."""
    losses = (0.0, 0.0)
    for _ in range(args.updates):
        losses = train_step(run.net, run.optimizer, run.replay, run.train_rng, args)
    return losses


def evaluate_now(run: Run, args, opponent: str) -> tuple[float, float, float]:
    """The network's argmax against a bot: its win rate and 95 % Wilson interval."""
    r = play(lambda obs, mask, games: run.net.greedy(obs, mask), args.eval_games, seed=args.eval_seed,
             opponent=opponent, players=args.players, env_id=args.env, url=args.url,
             num_envs=min(100, args.eval_games), features=args.features)
    return (r.wins / r.games, *wilson(r.wins, r.games))


def save_atomic(obj, path: str) -> None:
    """torch.save to a temporary file, then renamed: a run killed while saving keeps its last checkpoint."""
    torch.save(obj, f"{path}.tmp")
    os.replace(f"{path}.tmp", path)


def curve_columns(args) -> list[str]:
    return CURVE + [f"vs_{o}{end}" for o in args.eval_opponents for end in ("", "_low", "_high")]


def check_teacher(envs, args) -> None:
    """A teacher the server cannot search with (greedy, a misspelt bot) is one line, before any round."""
    if args.teacher_rounds and args.teacher != "playouts":
        try:
            envs.bot_actions(args.teacher, env_ids=[0], targets=True)
        except BadOption as exc:
            sys.exit(f"python -m splendor_rl.alphazero: --teacher {args.teacher}: {exc}")


def own_server() -> LocalServer:
    """The server of a run without --url: a search slot per core, as the runs of docs/training.md had, since the
    teacher's searches take every core while the client waits for them."""
    return LocalServer(args=("--search-slots", str(default_workers())))


def main(argv=None) -> None:
    args = parse_args(argv)
    torch.set_num_threads(args.torch_threads)
    torch.manual_seed(args.seed)
    os.makedirs(args.out, exist_ok=True)
    server = None if args.url else own_server()
    args.url = args.url or server.url
    envs = make_vec(args.env, num_envs=args.num_envs, seed=args.seed, url=args.url,
                                autoreset="same_step", **env_options(args))
    obs, infos = envs.reset()
    check_teacher(envs, args)
    run = Run(args, envs, sample_scale(args))
    if args.resume:
        obs, infos = run.load(torch.load(args.resume, map_location="cpu", weights_only=False), envs, args)
        for group in run.optimizer.param_groups:  # the resume's own, if given (the learning rate: each round's)
            group["weight_decay"] = args.weight_decay
    elif args.init:  # a resumed run's weights are its own
        run.warm_start(args.init)
    writer = SummaryWriter(os.path.join(args.out, "tb"), purge_step=run.round)
    bar = tqdm(total=args.minutes * 60 or None, unit="s", disable=not args.progress, initial=int(run.seconds))
    losses, started = (0.0, 0.0), time.perf_counter() - run.seconds

    def save() -> None:
        run.seconds = time.perf_counter() - started
        save_atomic(run.checkpoint(args), os.path.join(args.out, "checkpoint.pt"))
        if args.state:
            save_atomic(run.state(args, envs), os.path.join(args.out, "state.pt"))
        net = os.path.join(args.out, "net.safetensors")
        pvnet.save(run.net, net, args.env, env_options(args))
        if args.keep_nets:  # the file just written, not a second serialization
            os.makedirs(os.path.join(args.out, "nets"), exist_ok=True)
            shutil.copyfile(net, os.path.join(args.out, "nets", f"round-{run.round}.safetensors"))
        with open(os.path.join(args.out, "curve.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, curve_columns(args))
            w.writeheader()
            w.writerows(run.curve)

    # The learner's thread computes on as many threads as the searches' (torch's setting is per thread).
    learner = ThreadPoolExecutor(max_workers=1, initializer=torch.set_num_threads, initargs=(args.torch_threads,))
    while not (args.rounds and run.round >= args.rounds or
               args.minutes and time.perf_counter() - started >= args.minutes * 60):
        for group in run.optimizer.param_groups:
            group["lr"] = learning_rate(args, run.round)
        training = learner.submit(learn, run, args) if run.replay.len >= args.min_buffer else None
        obs, infos, finished = self_play_round(run, envs, obs, infos, args)
        if training is not None:
            losses = training.result()
            run.actor.load_state_dict(run.net.state_dict())
        for rows in finished:
            run.replay.add(*rows)
        run.round += 1
        seconds = time.perf_counter() - started
        bar.update(int(seconds) - bar.n)
        writer.add_scalar("loss/policy", losses[0], run.round)
        writer.add_scalar("loss/value", losses[1], run.round)
        if args.eval_every and run.round % args.eval_every == 0:
            row = dict(zip(CURVE, (run.round, round(seconds, 1), run.finished, run.replay.len, *losses)))
            for opponent in args.eval_opponents:
                win, low, high = evaluate_now(run, args, opponent)
                row.update({f"vs_{opponent}": win, f"vs_{opponent}_low": low, f"vs_{opponent}_high": high})
                writer.add_scalar(f"eval/win_rate_vs_{opponent}", win, run.round)
            run.curve.append(row)
            bar.set_postfix(games=run.finished, **{f"vs_{o}": f"{row[f'vs_{o}']:.0%}" for o in args.eval_opponents})
        if run.round % args.checkpoint_every == 0:
            save()
    save()
    learner.shutdown()
    bar.close()
    writer.close()
    envs.close()
    if server:
        server.stop()
    print(f"{run.round} rounds, {run.finished} games, {run.replay.len} positions in the buffer; "
          f"{os.path.join(args.out, 'net.safetensors')}")


if __name__ == "__main__":
    main()
