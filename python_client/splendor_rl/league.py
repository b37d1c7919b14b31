"""Training that beats the strong bots: an imitation warm start from a search teacher (DAgger), then masked PPO
against a schedule of opponents (built-in bots and frozen snapshots of the learner), all in a wall-clock budget.
One file, CleanRL style; the network is splendor_rl.policy.MLPPolicy, so checkpoints load in evaluate and arena.

    python -m splendor_rl.league --minutes 30 --save /tmp/league.pt --log-csv /tmp/league.csv --logdir /tmp/tb
    python -m splendor_rl.arena --entrant greedy me=/tmp/league.pt --format gauntlet --hero me --deals 500

Phase 1, imitation (`--imitate-minutes`, 0 to skip): `--imitate-envs` games against `--imitate-opponent` bots; at
every learner decision the server says what `--teacher` (a built-in bot: `mcts:200`…, docs/bots.md) would play
(`bot_actions`); the game goes on with the teacher's move with probability `--dagger-beta`, else with the
learner's own draw (DAgger: the labels cover the states the learner reaches). Every labelled decision joins a
buffer (the last `--buffer` ones), on which the actor learns cross-entropy on the masked logits and the critic the
discounted return of the game (so PPO starts with a critic that knows the game).

Phase 2, PPO until the budget is spent. Each update plays one rollout (`--num-envs` × `--num-steps` steps)
against one opponent kind, drawn with the weights of `--opponents`, moved linearly towards those of
`--opponents-end` over the phase. A kind is a built-in bot (`greedy`, `mcts:200`…: a `vs_bots` env, the bot plays
inside the server) or `self`: a `self_play` env where the learner acts for one seat of each game (drawn per
episode) and a frozen snapshot from the pool acts for the others (one snapshot per game, drawn uniformly). The pool
starts with the learner as phase 2 begins and gets a copy every `--snapshot-every` updates (the oldest are
dropped past `--pool-size`). Rewards are the learner seat's, summed over the steps until its next decision
(`--reward score_diff` adds the env's score-difference shaping); GAE runs along each game's learner decisions.
`--bc-coef` keeps a cross-entropy term on the imitation buffer, fading linearly to 0 over the phase.

Every `--eval-minutes` the argmax policy plays `--eval-games` seeded games against `--eval-opponent`; the curve
goes to `--log-csv` and, with `--logdir`, to TensorBoard (with the training losses). `--save` is rewritten at
every evaluation and at the end; `--checkpoint` (with `{update}` for one file each) every `--checkpoint-every`
PPO updates also holds the optimizer. `--init` starts from any checkpoint's weights (with the same network shape).
"""

from __future__ import annotations

import argparse
import csv
import random
import sys
import time

from .extras import command

# Before the imports it names: without them, one line.
command("python -m splendor_rl.league", "train", "torch", "tensorboard")

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

from . import cli, derive_seed, make_vec
from .evaluate import play, wilson
from .policy import MLPPolicy, save_checkpoint


def weights(text: str) -> dict[str, float]:
    """"greedy=0.5,self=0.5" → {"greedy": 0.5, "self": 0.5}; a bare name weighs 1."""
    out = {}
    for part in filter(None, text.split(",")):
        name, _, w = part.rpartition("=")
        try:
            out[name] = float(w) if name else 1.0
        except ValueError:  # a bot setting such as mcts:iterations=60, without a weight
            out[part] = 1.0
        if not name:
            out[part] = out.pop("")
    if not out or min(out.values()) < 0 or sum(out.values()) <= 0:
        raise argparse.ArgumentTypeError(f"{text!r}: expected name=weight,… with weights ≥ 0, not all 0")
    return out


def parse_args(argv=None) -> argparse.Namespace:
    p = cli.parser(__doc__, "python -m splendor_rl.league")
    p.add_argument("--env", default="splendor-v1", help="splendor-v1 or splendor-duel-v1")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--seed", type=int, default=1, help="seeds torch, numpy, random and the training envs")
    p.add_argument("--minutes", type=float, default=30, help="the whole run's wall-clock budget")
    p.add_argument("--reward", choices=["terminal", "score_diff"], default="score_diff")
    p.add_argument("--hidden", type=int, default=256)
    p.add_argument("--layers", type=int, default=2)
    p.add_argument("--activation", choices=["tanh", "relu"], default="relu")
    p.add_argument("--init", default=None, metavar="PATH", help="start from this checkpoint's weights")
    # Imitation.
    p.add_argument("--imitate-minutes", type=float, default=0, help="phase 1's share of --minutes (0: none)")
    p.add_argument("--imitate-rounds", type=int, default=0, help="stop phase 1 after this many training rounds "
                   "(0: at --imitate-minutes only)")
    p.add_argument("--teacher", default="mcts:200", help="the built-in bot whose moves are the labels")
    p.add_argument("--imitate-opponent", default="greedy", help="the bots the learner meets while imitating")
    p.add_argument("--imitate-envs", type=int, default=256)
    p.add_argument("--imitate-steps", type=int, default=8, help="decisions per env between training rounds")
    p.add_argument("--imitate-epochs", type=float, default=16, help="passes over the new samples' worth per round")
    p.add_argument("--dagger-beta", type=float, default=0.5, help="chance that the teacher's move is played")
    p.add_argument("--buffer", type=int, default=400_000, help="labelled decisions kept")
    p.add_argument("--imitate-lr", type=float, default=1e-3)
    p.add_argument("--imitate-minibatch", type=int, default=512)
    # PPO.
    p.add_argument("--opponents", type=weights, default=weights("greedy"), help="name=weight,… at the start of "
                   "PPO: greedy, random, mcts:200…, self (frozen snapshots)")
    p.add_argument("--opponents-end", type=weights, default=None, help="the weights at the end (default: same)")
    p.add_argument("--updates", type=int, default=0, help="stop after this many PPO updates (0: at --minutes only)")
    p.add_argument("--num-envs", type=int, default=128)
    p.add_argument("--num-steps", type=int, default=64)
    p.add_argument("--learning-rate", type=float, default=2.5e-4, help="fades linearly to 0 with the time left")
    p.add_argument("--gamma", type=float, default=0.995)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--num-minibatches", type=int, default=4)
    p.add_argument("--update-epochs", type=int, default=2)
    p.add_argument("--clip-coef", type=float, default=0.2)
    p.add_argument("--ent-coef", type=float, default=0.003)
    p.add_argument("--vf-coef", type=float, default=0.5)
    p.add_argument("--max-grad-norm", type=float, default=0.5)
    p.add_argument("--bc-coef", type=float, default=0.0, help="imitation cross-entropy weight at PPO's start")
    p.add_argument("--snapshot-every", type=int, default=10, help="PPO updates between snapshots into the pool")
    p.add_argument("--pool-size", type=int, default=8)
    # Evaluation and output.
    p.add_argument("--eval-minutes", type=float, default=2.0, help="minutes between evaluations (0: only at the end)")
    p.add_argument("--eval-games", type=int, default=200)
    p.add_argument("--eval-opponent", default="greedy")
    p.add_argument("--eval-seed", type=int, default=10_000_000, help="eval game j is dealt from eval-seed + j")
    p.add_argument("--save", default=None, metavar="PATH", help="the weights, at every evaluation and at the end")
    p.add_argument("--checkpoint", default=None, metavar="PATH", help="weights and optimizer every "
                   "--checkpoint-every PPO updates; `{update}` in PATH is replaced by the update count")
    p.add_argument("--checkpoint-every", type=int, default=0, metavar="K")
    p.add_argument("--log-csv", default=None, metavar="PATH", help="append the learning curve here")
    p.add_argument("--logdir", default=None, help="TensorBoard event files here (torch.utils.tensorboard)")
    p.add_argument("--url", default=None, help="a running server (default: start a local one)")
    p.add_argument("--torch-threads", type=int, default=1, help="the server shares the cores: keep this small")
    args = p.parse_args(argv)
    args.opponents_end = args.opponents_end or args.opponents
    if args.imitate_minutes > args.minutes:
        p.error("--imitate-minutes is a share of --minutes: it cannot be larger")
    return args


class Log:
    """The learning curve (CSV) and, with --logdir, every scalar for TensorBoard; x is env steps played."""

    FIELDS = ["minutes", "phase", "env_steps", "updates", "eval_win_rate", "eval_lo", "eval_hi", "eval_games"]

    def __init__(self, args: argparse.Namespace):
        self.file = open(args.log_csv, "a", newline="") if args.log_csv else None
        self.csv = csv.writer(self.file) if self.file else None
        if self.file and self.file.tell() == 0:
            self.csv.writerow(self.FIELDS)
        self.tb = None
        if args.logdir:
            from torch.utils.tensorboard import SummaryWriter
            self.tb = SummaryWriter(args.logdir)

    def scalars(self, step: int, **values: float) -> None:
        if self.tb:
            for key, value in values.items():
                self.tb.add_scalar(key, value, step)

    def row(self, **values) -> None:
        if self.csv:
            self.csv.writerow([values[k] for k in self.FIELDS])
            self.file.flush()

    def close(self) -> None:
        if self.file:
            self.file.close()
        if self.tb:
            self.tb.close()


class Buffer:
    """The last `size` labelled decisions: observation, mask, the teacher's action, the game's return (NaN until
    the game ends)."""

    def __init__(self, size: int, obs_dim: int, num_actions: int):
        self.obs = np.zeros((size, obs_dim), np.uint8)
        self.mask = np.zeros((size, num_actions), bool)
        self.label = np.zeros(size, np.int64)
        self.ret = np.full(size, np.nan, np.float32)
        self.size, self.next, self.full = size, 0, False

    def add(self, obs, mask, label) -> np.ndarray:
        rows = (self.next + np.arange(len(label))) % self.size
        self.obs[rows], self.mask[rows], self.label[rows], self.ret[rows] = obs, mask, label, np.nan
        self.next = int(rows[-1] + 1) % self.size
        self.full |= self.next <= rows[0]
        return rows

    def __len__(self) -> int:
        return self.size if self.full else self.next

    def sample(self, n: int, model: MLPPolicy):
        i = torch.from_numpy(np.random.randint(0, len(self), n))
        return (model.prep(torch.from_numpy(self.obs)[i]), torch.from_numpy(self.mask)[i],
                torch.from_numpy(self.label)[i], torch.from_numpy(self.ret)[i])


def imitation_loss(model: MLPPolicy, batch) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(cross-entropy to the teacher, critic error on the finished games' returns, agreement with the teacher)."""
    x, mask, label, ret = batch
    logits = model.masked_logits(x, mask)
    ce = F.cross_entropy(logits, label)
    known = ~torch.isnan(ret)
    v_loss = 0.5 * ((model.value(x[known]) - ret[known]) ** 2).mean() if known.any() else torch.zeros(())
    return ce, v_loss, (logits.argmax(-1) == label).float().mean()


def imitate(args, model, optimizer, buffer, clock, evaluator, log) -> int:
    """Phase 1 (DAgger); returns the env steps played."""
    envs = make_vec(args.env, num_envs=args.imitate_envs, seed=args.seed, url=args.url, mode="vs_bots",
                                bots=args.imitate_opponent, players=args.players, reward=args.reward,
                                autoreset="same_step")
    n = args.imitate_envs
    obs, infos = envs.reset(seed=args.seed)
    games: list[list[tuple[int, float]]] = [[] for _ in range(n)]  # per env: (buffer row, reward) of its game
    steps = rounds = 0
    for g in optimizer.param_groups:
        g["lr"] = args.imitate_lr
    while clock() < args.imitate_minutes and not (args.imitate_rounds and rounds >= args.imitate_rounds):
        for _ in range(args.imitate_steps):
            obs, mask = obs.copy(), infos["action_mask"].copy()  # the reply's arrays are read-only views
            label = envs.bot_actions(args.teacher, seed=derive_seed(args.seed, steps))
            rows = buffer.add(obs, mask, label)
            with torch.no_grad():
                own = model.act_value(model.prep(obs), torch.from_numpy(mask))[0].numpy()
            action = np.where(np.random.random(n) < args.dagger_beta, label, own)
            obs, reward, terminated, truncated, infos = envs.step(action)
            steps += n
            for i in range(n):
                games[i].append((int(rows[i]), float(reward[i])))
                if terminated[i] or truncated[i]:
                    ret = 0.0
                    for row, r in reversed(games[i]):
                        ret = r + args.gamma * ret
                        buffer.ret[row] = ret  # (a row overwritten since, rare, gets a stray return)
                    games[i] = []
        rounds += 1
        for _ in range(max(1, int(args.imitate_epochs * n * args.imitate_steps / args.imitate_minibatch))):
            ce, v_loss, agree = imitation_loss(model, buffer.sample(args.imitate_minibatch, model))
            optimizer.zero_grad()
            (ce + args.vf_coef * v_loss).backward()
            nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm)
            optimizer.step()
        log.scalars(steps, **{"imitate/cross_entropy": ce.item(), "imitate/value_loss": v_loss.item(),
                              "imitate/agreement": agree.item(), "imitate/buffer": len(buffer)})
        if rounds % 10 == 0:
            print(f"imitate {clock():5.1f} min | {steps:,} decisions | ce {ce.item():.3f} agree "
                  f"{100 * agree.item():.1f}% v {v_loss.item():.3f}", flush=True)
        evaluator.maybe("imitate", steps, 0)
    envs.close()
    return steps


class Rollout:
    """One opponent kind's envs and games in progress. A bot kind is a `vs_bots` env (every step a learner
    decision); `self` is a `self_play` env with every seat's view (`obs_seats: all`), where the learner acts for
    `seat[i]` and snapshot `opponent[i]` of the pool for the others."""

    def __init__(self, args, kind: str, seed: int):
        self.kind, self.selfplay, self.n = kind, kind == "self", args.num_envs
        options = dict(mode="self_play", obs_seats="all") if self.selfplay else dict(mode="vs_bots", bots=kind)
        self.envs = make_vec(args.env, num_envs=self.n, seed=seed, url=args.url, players=args.players,
                                         reward=args.reward, autoreset="same_step", **options)
        self.players = args.players
        self.obs, self.infos = self.envs.reset(seed=seed)
        self.seat = np.random.randint(0, self.players, self.n)
        self.opponent = np.zeros(self.n, np.int64)
        self.pending = np.full(self.n, -1)       # the rollout row of each env's last learner decision (-1: none)

    def learner_rows(self) -> np.ndarray:
        return self.infos["to_play"] == self.seat if self.selfplay else np.ones(self.n, bool)

    def acting_obs(self) -> np.ndarray:
        """Each env's observation from the seat to play."""
        return self.obs[np.arange(self.n), self.infos["to_play"]] if self.selfplay else self.obs

    def learner_obs(self) -> np.ndarray:
        return self.obs[np.arange(self.n), self.seat] if self.selfplay else self.obs

    def new_games(self, ended: np.ndarray, pool_size: int) -> None:
        k = int(ended.sum())
        self.seat[ended] = np.random.randint(0, self.players, k)
        self.opponent[ended] = np.random.randint(0, pool_size, k)


def ppo(args, model, optimizer, buffer, clock, evaluator, log, env_steps: int, obs_dim: int, num_actions: int):
    """Phase 2 until the budget is spent; returns the env steps played in all."""
    kinds = sorted(set(args.opponents) | set(args.opponents_end))
    rollouts = {k: Rollout(args, k, derive_seed(args.seed, 1, j)) for j, k in enumerate(kinds)}
    pool: list[MLPPolicy] = []

    def snapshot() -> None:
        frozen = MLPPolicy(**model.config)
        frozen.load_state_dict(model.state_dict())
        frozen.eval()
        pool.append(frozen)
        del pool[:-args.pool_size]

    snapshot()
    for r in rollouts.values():
        r.new_games(np.ones(r.n, bool), len(pool))
    T, N = args.num_steps, args.num_envs
    start, update = clock(), 0
    wins = {k: [] for k in kinds}
    played = dict.fromkeys(kinds, 0)
    while clock() < args.minutes and not (args.updates and update >= args.updates):
        update += 1
        progress = (clock() - start) / max(1e-9, args.minutes - start)
        if args.updates:
            progress = max(progress, (update - 1) / args.updates)
        w = np.array([(1 - progress) * args.opponents.get(k, 0) + progress * args.opponents_end.get(k, 0)
                      for k in kinds])
        r = rollouts[kinds[np.random.choice(len(kinds), p=w / w.sum())]]
        for g in optimizer.param_groups:
            g["lr"] = args.learning_rate * max(0.05, 1 - progress)

        obs_b = torch.zeros((T, N, obs_dim), dtype=torch.uint8)
        mask_b = torch.zeros((T, N, num_actions), dtype=torch.bool)
        act_b, logp_b, val_b = torch.zeros((T, N), dtype=torch.long), torch.zeros((T, N)), torch.zeros((T, N))
        rew_b, done_b, mine = torch.zeros((T, N)), torch.zeros((T, N)), torch.zeros((T, N), dtype=torch.bool)
        r.pending[:] = -1
        played[r.kind] += 1
        for t in range(T):
            rows = r.learner_rows()
            obs = torch.from_numpy(r.acting_obs().copy())
            mask = torch.from_numpy(r.infos["action_mask"].copy())
            with torch.no_grad():
                action, logp, _, value = model.act_value(model.prep(obs), mask)
                for j in np.unique(r.opponent[~rows]):  # each snapshot plays its own games
                    them = torch.from_numpy(~rows & (r.opponent == j))
                    action[them] = pool[j].act_value(pool[j].prep(obs[them]), mask[them])[0]
            mine[t] = torch.from_numpy(rows)
            obs_b[t], mask_b[t], act_b[t], logp_b[t], val_b[t] = obs, mask, action, logp, value
            r.obs, reward, terminated, truncated, r.infos = r.envs.step(action.numpy())
            env_steps += N
            ended = terminated | truncated
            if r.selfplay:
                reward = r.infos["seat_rewards"][np.arange(N), r.seat]
            r.pending[rows] = t
            has = r.pending >= 0
            rew_b[r.pending[has], np.flatnonzero(has)] += torch.from_numpy(reward[has].astype(np.float32))
            done_b[r.pending[ended & has], np.flatnonzero(ended & has)] = 1.0
            if ended.any():
                for i in np.flatnonzero(ended):
                    seat_reward = r.infos["seat_rewards"][i, r.seat[i]] if r.selfplay else reward[i]
                    wins[r.kind].append(float(terminated[i] and seat_reward > 0))
                r.pending[ended] = -1
                r.new_games(ended, len(pool))

        # GAE along each env's learner decisions; the last one bootstraps from the learner's current view.
        with torch.no_grad():
            next_value = model.value(model.prep(r.learner_obs().copy()))
            adv = torch.zeros((T, N))
            last_gae, next_nonterminal = torch.zeros(N), torch.ones(N)
            for t in reversed(range(T)):
                rows = mine[t]
                nonterminal = 1.0 - done_b[t]
                delta = rew_b[t] + args.gamma * next_value * nonterminal - val_b[t]
                gae = delta + args.gamma * args.gae_lambda * nonterminal * last_gae
                adv[t] = torch.where(rows, gae, torch.zeros(()))
                last_gae = torch.where(rows, gae, last_gae)
                next_value = torch.where(rows, val_b[t], next_value)
            ret = adv + val_b

        keep = mine.reshape(-1)
        b_x = model.prep(obs_b.reshape(-1, obs_dim)[keep])
        b_mask, b_act = mask_b.reshape(-1, num_actions)[keep], act_b.reshape(-1)[keep]
        b_logp, b_adv, b_ret, b_val = logp_b.reshape(-1)[keep], adv.reshape(-1)[keep], ret.reshape(-1)[keep], \
            val_b.reshape(-1)[keep]
        batch = len(b_act)
        bc = args.bc_coef * (1 - progress) if len(buffer) else 0.0
        for _ in range(args.update_epochs):
            for mb in torch.randperm(batch).chunk(args.num_minibatches):  # equal parts: none of one row
                _, newlogp, entropy, newvalue = model.act_value(b_x[mb], b_mask[mb], b_act[mb])
                logratio = newlogp - b_logp[mb]
                ratio = logratio.exp()
                mb_adv = (b_adv[mb] - b_adv[mb].mean()) / (b_adv[mb].std() + 1e-8)
                pg_loss = torch.max(-mb_adv * ratio,
                                    -mb_adv * torch.clamp(ratio, 1 - args.clip_coef, 1 + args.clip_coef)).mean()
                v_clipped = b_val[mb] + torch.clamp(newvalue - b_val[mb], -args.clip_coef, args.clip_coef)
                v_loss = 0.5 * torch.max((newvalue - b_ret[mb]) ** 2, (v_clipped - b_ret[mb]) ** 2).mean()
                loss = pg_loss - args.ent_coef * entropy.mean() + args.vf_coef * v_loss
                if bc > 0:
                    loss = loss + bc * imitation_loss(model, buffer.sample(len(mb), model))[0]
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm)
                optimizer.step()
        with torch.no_grad():
            approx_kl = ((ratio - 1) - logratio).mean().item()
        recent = {k: np.mean(v[-500:]) for k, v in wins.items() if v}
        log.scalars(env_steps, **{"ppo/policy_loss": pg_loss.item(), "ppo/value_loss": v_loss.item(),
                                  "ppo/entropy": entropy.mean().item(), "ppo/approx_kl": approx_kl,
                                  "ppo/learning_rate": optimizer.param_groups[0]["lr"], "ppo/pool": len(pool),
                                  **{f"train_win_rate/{k}": v for k, v in recent.items()}})
        if update % 10 == 0:
            print(f"ppo {clock():5.1f} min | update {update} vs {r.kind} | train win " +
                  " ".join(f"{k} {100 * v:.1f}%" for k, v in recent.items()) +
                  f" | ent {entropy.mean().item():.2f} kl {approx_kl:.3f} v {v_loss.item():.3f}", flush=True)
        if update % args.snapshot_every == 0:
            snapshot()
        if args.checkpoint and args.checkpoint_every and update % args.checkpoint_every == 0:
            save_checkpoint(args.checkpoint.format(update=update), model, args=vars_plain(args),
                            env_steps=env_steps, update=update, optimizer=optimizer.state_dict())
        evaluator.maybe("ppo", env_steps, update)
    for r in rollouts.values():
        r.envs.close()
    print(f"ppo done: {update} updates (" + ", ".join(f"{k} {n}" for k, n in played.items()) + f"), pool of "
          f"{len(pool)} snapshots", flush=True)
    return env_steps


def vars_plain(args: argparse.Namespace) -> dict:
    """The arguments as a checkpoint keeps them (plain types only, for weights_only loading)."""
    return {k: (",".join(f"{n}={w}" for n, w in v.items()) if isinstance(v, dict) else v)
            for k, v in vars(args).items()}


class Evaluator:
    """Plays the argmax policy every --eval-minutes (of the clock) and logs the curve."""

    def __init__(self, args, model, clock, log):
        self.args, self.model, self.clock, self.log = args, model, clock, log
        self.next = args.eval_minutes if args.eval_minutes > 0 else float("inf")
        self.best = -1.0

    def maybe(self, phase: str, env_steps: int, updates: int) -> None:
        if self.clock() >= self.next:
            self.run(phase, env_steps, updates)
            while self.next <= self.clock():
                self.next += self.args.eval_minutes

    def run(self, phase: str, env_steps: int, updates: int) -> float:
        a, minutes = self.args, self.clock()
        if a.eval_games <= 0:
            return float("nan")
        result = play(lambda o, m, g: self.model.greedy(o, m), a.eval_games, seed=a.eval_seed,
                      opponent=a.eval_opponent, players=a.players, num_envs=min(64, a.eval_games), url=a.url,
                      env_id=a.env)
        lo, hi = wilson(result.wins, result.games)
        print(f"eval {minutes:5.1f} min | {phase} | {env_steps:,} env steps | argmax vs {a.eval_opponent} "
              f"{result.wins}/{result.games} = {100 * result.win_rate:.1f}% (95% CI {100 * lo:.1f}–{100 * hi:.1f}%)",
              flush=True)
        self.log.row(minutes=f"{minutes:.2f}", phase=phase, env_steps=env_steps, updates=updates,
                     eval_win_rate=f"{result.win_rate:.4f}", eval_lo=f"{lo:.4f}", eval_hi=f"{hi:.4f}",
                     eval_games=result.games)
        self.log.scalars(env_steps, **{"eval/win_rate": result.win_rate, "eval/minutes": minutes})
        if a.save:
            save_checkpoint(a.save, self.model, args=vars_plain(a), env_steps=env_steps, eval_win_rate=result.win_rate)
        return result.win_rate


def main(argv=None) -> int:
    args = parse_args(argv)
    t0 = time.time()

    def clock() -> float:
        return (time.time() - t0) / 60

    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.torch_threads)
    probe = make_vec(args.env, num_envs=1, seed=args.seed, url=args.url, players=args.players)
    obs_dim, num_actions, layout = probe.single_observation_space.shape[0], probe.single_action_space.n, probe.layout
    probe.close()
    model = MLPPolicy(obs_dim, num_actions, hidden=args.hidden, layers=args.layers, activation=args.activation,
                      layout=layout)
    if args.init:
        model.load_state_dict(torch.load(args.init, map_location="cpu", weights_only=True)["state_dict"])
    optimizer = optim.Adam(model.parameters(), lr=args.learning_rate, eps=1e-5)
    log = Log(args)
    evaluator = Evaluator(args, model, clock, log)
    buffer = Buffer(args.buffer if args.imitate_minutes > 0 else 1, obs_dim, num_actions)
    steps = 0
    if args.imitate_minutes > 0:
        steps = imitate(args, model, optimizer, buffer, clock, evaluator, log)
        print(f"imitation done: {steps:,} labelled decisions in {clock():.1f} min", flush=True)
    if clock() < args.minutes:
        steps = ppo(args, model, optimizer, buffer, clock, evaluator, log, steps, obs_dim, num_actions)
    evaluator.run("end", steps, 0)
    print(f"done: {steps:,} env steps in {clock():.1f} min", flush=True)
    if args.save:
        print(f"saved {args.save}")
    log.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
