"""Masked PPO for splendor-v1 (or `--env splendor-duel-v1`) against the server's built-in bots: one file, CleanRL
style (cleanrl/ppo.py).

    python -m splendor_rl.ppo --total-timesteps 4194304 --save /tmp/ppo.pt          # starts a local server
    python -m splendor_rl.evaluate --policy /tmp/ppo.pt --opponent random --games 1000   # on the checkpoint's env

The learner owns one seat of each game (drawn per episode from the episode seed); the bots play the others inside
the server. Illegal actions are masked (logit -1e8) before the Categorical. Rewards are the learner's (at the end +1
for a win, −1/(players − 1) for a loss; `--reward score_diff` adds the documented score-difference shaping), and the
win rate printed is always by actual wins: a finished episode whose terminal reward is > 0. Every `--eval-every` env
steps the greedy (argmax) policy plays `--eval-games` fixed seeded games (splendor_rl.evaluate) against the bots.
Training proceeds a rollout (`--num-envs` × `--num-steps` env steps) at a time, so `--total-timesteps` and
`--eval-every` must be multiples of it: other values are refused, with the nearest ones that work.

Checkpoints and resuming (exactly):

    python -m splendor_rl.ppo --checkpoint /tmp/ppo-state.pt --checkpoint-every 50 ...   # killed at some point
    python -m splendor_rl.ppo --resume /tmp/ppo-state.pt          # the same run goes on, saving to the same path

A checkpoint holds the full training state: weights, optimizer, counters, recent win record, and the torch, numpy
and Python random generators. The games in progress live in the server and cannot be saved, so with
`--checkpoint-every K` every env is reset at each multiple of K updates, with seed `derive_seed(--seed, update)`
(splendor_rl.derive_seed; env i is dealt from that + i), in a straight run and in a resumed one alike: resuming
from the checkpoint of update u gives bit-identical weights to the run that went on (same torch threads). A
resumed run takes its arguments from the checkpoint, except those of RUN_ARGS and OUTPUT_ARGS (see below).

Fine-tuning a network of splendor_rl.alphazero (its portable file, such as a shipped baseline) against the bots:

    python -m splendor_rl.ppo --init baselines/splendor-v1-4p.safetensors --opponent greedy --save /tmp/4p.safetensors

Its policy is the actor and its value (the seat to play's own, with a value per seat) the critic; the env, the
table size and the features are the network's, and `--save` writes the same portable file, which
`splendor_rl.evaluate` and the server's `baseline` bots (`--baselines DIR`) play. The learner holds one seat of
every game, so this teaches the network to beat these bots, not the game: a ladder says what it did to the rest of
its play. It also makes the policy surer, and a search guided by those priors looks at fewer moves (at 4 players
it searched far worse: docs/training.md). `--kl-init COEF` adds COEF × KL(the --init network's policy ‖ the policy
trained) to the loss, on the positions of each update, so that the moves the parent thought worth a look keep their
share of the priors.
"""

from __future__ import annotations

import argparse
import csv
import random
import sys
import time
from collections import deque

from .extras import command

# Before the imports it names: without them, one line.
command("python -m splendor_rl.ppo", "train", "torch", "tqdm")

import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim
from tqdm import tqdm

from . import cli, derive_seed, make_vec
from .evaluate import play, wilson
from .policy import MLPPolicy, act, save_checkpoint

# A resumed run takes the arguments that say where and how this process runs from its command line, the output
# paths from its command line when given there, and every other argument (they shape the run) from the checkpoint.
RUN_ARGS = {"url", "time_limit", "torch_threads", "progress", "resume"}
OUTPUT_ARGS = {"save", "log_csv", "checkpoint"}


def parse_args(argv=None) -> argparse.Namespace:
    p = cli.parser(__doc__, "python -m splendor_rl.ppo")
    p.add_argument("--env", default="splendor-v1", help="the env id: splendor-v1 or splendor-duel-v1")
    p.add_argument("--seed", type=int, default=1, help="seeds torch, numpy, random and the training envs")
    p.add_argument("--total-timesteps", type=int, default=6_291_456, help="learner decisions, over all envs: a "
                   "multiple of a rollout (--num-envs × --num-steps)")
    p.add_argument("--time-limit", type=float, default=0, help="stop after this many minutes (0: no limit)")
    p.add_argument("--num-envs", type=int, default=64)
    p.add_argument("--num-steps", type=int, default=128, help="rollout length per env and update")
    p.add_argument("--learning-rate", type=float, default=2.5e-4)
    p.add_argument("--no-anneal-lr", dest="anneal_lr", action="store_false", help="keep the learning rate fixed")
    p.add_argument("--gamma", type=float, default=0.995)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--num-minibatches", type=int, default=4)
    p.add_argument("--update-epochs", type=int, default=4)
    p.add_argument("--clip-coef", type=float, default=0.2)
    p.add_argument("--no-clip-vloss", dest="clip_vloss", action="store_false")
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--vf-coef", type=float, default=0.5)
    p.add_argument("--max-grad-norm", type=float, default=0.5)
    p.add_argument("--target-kl", type=float, default=None)
    p.add_argument("--hidden", type=int, default=256, help="width of the actor's and the critic's hidden layers")
    p.add_argument("--layers", type=int, default=2)
    p.add_argument("--activation", choices=["tanh", "relu"], default="tanh")
    p.add_argument("--reward", choices=["terminal", "score_diff"], default="terminal")
    p.add_argument("--opponent", default="random", help="the bots' kind: random, greedy, mcts:200, baseline… "
                   "(docs/bots.md)")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--features", choices=["none", "derived"], default="none",
                   help="append the derived features block to the observation (docs/envs/<env>.md)")
    p.add_argument("--eval-every", type=int, default=262_144, help="env steps between evaluations (0: never), a "
                   "multiple of a rollout")
    p.add_argument("--eval-games", type=int, default=200)
    p.add_argument("--eval-seed", type=int, default=10_000_000, help="eval game j is dealt from eval-seed + j")
    p.add_argument("--url", default=None, help="a running server (default: start a local one)")
    p.add_argument("--save", default=None, metavar="PATH", help="write a checkpoint here (at every eval and at "
                   "the end)")
    p.add_argument("--log-csv", default=None, metavar="PATH", help="append the learning curve here")
    p.add_argument("--checkpoint", default=None, metavar="PATH", help="save the full training state here every "
                   "--checkpoint-every updates and at the end; `{update}` in PATH is replaced by the update count")
    p.add_argument("--checkpoint-every", type=int, default=0, metavar="K", help="updates between checkpoints "
                   "(0: only at the end); the envs are reset with seeds derived from (seed, update) at each")
    p.add_argument("--kl-init", type=float, default=0, metavar="COEF", help="with --init: add COEF × KL(the --init "
                   "network's policy ‖ the policy trained) to the loss, so that the priors a search reads stay near "
                   "the parent's (0: no such term)")
    p.add_argument("--init", default=None, metavar="NET", help="fine-tune this network of splendor_rl.alphazero "
                   "(a .safetensors file) instead of training a new MLP: its env, players and features are used")
    p.add_argument("--resume", default=None, metavar="PATH", help="continue the run saved in this checkpoint")
    p.add_argument("--torch-threads", type=int, default=1, help="the server shares the cores: keep this small")
    p.add_argument("--no-progress", dest="progress", action="store_false", help="no tqdm bar")
    args = p.parse_args(argv)
    if args.init:
        init_options(p, args)
    elif args.kl_init:
        p.error("--kl-init keeps the policy near the --init network's: pass --init NET")
    args.batch_size = args.num_envs * args.num_steps
    for flag, steps in (("--total-timesteps", args.total_timesteps), ("--eval-every", args.eval_every)):
        if steps % args.batch_size:  # rounding it silently would train or evaluate at other steps than asked
            p.error(not_whole_rollouts(flag, steps, args))
    args.minibatch_size = args.batch_size // args.num_minibatches
    args.num_iterations = max(1, args.total_timesteps // args.batch_size)
    return args


def init_options(p: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """The env, players and features of the --init network, which its observations and actions are shaped for."""
    from . import pvnet

    try:
        args.env, options = pvnet.read_env(args.init)
    except (OSError, ValueError) as exc:
        p.error(f"--init {args.init}: {exc}")
    args.players, args.features = options.get("players", 2), options.get("features", "none")
    if args.save and not args.save.endswith(".safetensors"):
        p.error(f"--save {args.save}: a fine-tuned network is saved as its portable file: name it *.safetensors")


class ActorCritic(nn.Module):
    """A network of splendor_rl.alphazero with the interface of MLPPolicy that PPO trains: the policy its actor,
    the seat to play's own value its critic. `net` is what --save writes (pvnet's portable file)."""

    def __init__(self, net: nn.Module):
        super().__init__()
        self.net = net
        self.config = net.config

    def prep(self, obs) -> torch.Tensor:
        return self.net.prep(obs)

    def value(self, x: torch.Tensor) -> torch.Tensor:
        return own(self.net(x)[1])

    def policy_value(self, x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        logits, value = self.net.evaluate(x, mask)
        return logits, own(value)

    def act_value(self, x: torch.Tensor, mask: torch.Tensor, action: torch.Tensor | None = None):
        logits, value = self.policy_value(x, mask)
        return (*act(logits, action), value)

    def greedy(self, obs, mask) -> np.ndarray:
        return self.net.greedy(obs, mask)


def own(value: torch.Tensor) -> torch.Tensor:
    """The seat to play's value: all of a single value, column 0 of a value per seat."""
    return value if value.dim() == 1 else value[:, 0]


def build_model(args: argparse.Namespace, envs) -> nn.Module:
    """The --init network as an actor-critic, or a new MLPPolicy for the envs."""
    if args.init:
        from . import pvnet

        return ActorCritic(pvnet.load(args.init)[0])
    return MLPPolicy(envs.single_observation_space.shape[0], envs.single_action_space.n, hidden=args.hidden,
                     layers=args.layers, activation=args.activation, layout=envs.layout)


def parent_of(args: argparse.Namespace) -> nn.Module | None:
    """The --init network as loaded, frozen, when --kl-init keeps the trained policy near it."""
    if not args.kl_init:
        return None
    from . import pvnet

    return pvnet.load(args.init)[0].requires_grad_(False)


def kl(p_logits: torch.Tensor, q_logits: torch.Tensor) -> torch.Tensor:
    """The mean KL(p ‖ q) of two batches of masked logits (a masked action has probability 0 under both): forward,
    so that q is penalised for leaving out a move p plays, which the search's priors must keep."""
    log_p, log_q = p_logits.log_softmax(-1), q_logits.log_softmax(-1)
    return (log_p.exp() * (log_p - log_q)).sum(-1).mean()


def save_network(args: argparse.Namespace, model: nn.Module, **extra) -> None:
    """--save: a fine-tuned network as its portable file, with the --init file's env and options; else the MLP's
    checkpoint."""
    if args.init:
        from . import pvnet

        pvnet.save(model.net, args.save, *pvnet.read_env(args.init))
    else:
        save_checkpoint(args.save, model, args=vars(args), **extra)


def not_whole_rollouts(flag: str, steps: int, args: argparse.Namespace) -> str:
    below = steps // args.batch_size * args.batch_size
    near = " or ".join(str(n) for n in (below, below + args.batch_size) if n > 0)
    return (f"{flag} {steps} is not a multiple of a rollout (--num-envs {args.num_envs} × --num-steps "
            f"{args.num_steps} = {args.batch_size} env steps): pass {near}")


def rng_state() -> dict:
    """The torch, numpy and Python generators, in types a weights_only checkpoint holds."""
    name, keys, *rest = np.random.get_state()
    return {"torch": torch.get_rng_state(), "numpy": (name, keys.tolist(), *rest), "python": random.getstate()}


def set_rng_state(state: dict) -> None:
    torch.set_rng_state(state["torch"])
    name, keys, *rest = state["numpy"]
    np.random.set_state((name, np.array(keys, dtype=np.uint32), *rest))
    version, internal, gauss = state["python"]
    random.setstate((version, tuple(internal), gauss))


def env_seed(args: argparse.Namespace, update: int) -> int:
    """The seed every env is reset with before update `update` (0-based): --seed first, then one derived from
    (seed, update) at each checkpoint boundary, so that a resumed run deals what the straight run dealt."""
    return args.seed if update == 0 else derive_seed(args.seed, update)


def load_resume(args: argparse.Namespace) -> dict | None:
    """The checkpoint to resume from (None for a new run); its training arguments replace the command line's."""
    if not args.resume:
        return None
    ckpt = torch.load(args.resume, map_location="cpu", weights_only=True)
    if "train" not in ckpt:
        raise SystemExit(f"{args.resume} holds weights only (--save); resume from a --checkpoint file")
    for key, value in ckpt["args"].items():
        if key not in RUN_ARGS and not (key in OUTPUT_ARGS and getattr(args, key) is not None):
            setattr(args, key, value)
    return ckpt


def main(argv=None) -> int:
    args = parse_args(argv)
    resumed = load_resume(args)
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.torch_threads)

    # Without --url, the envs and the evaluations share this process's local server. same_step autoreset: the step
    # that ends an episode returns the next episode's first observation, so every stored transition is a real
    # decision and `dones` marks where the GAE recursion stops.
    try:
        envs = make_vec(args.env, num_envs=args.num_envs, seed=args.seed, url=args.url, mode="vs_bots",
                        bots=args.opponent, players=args.players, reward=args.reward, autoreset="same_step",
                        features=args.features)
    except cli.EXPECTED as exc:  # a dead --url, an unknown bot
        return cli.failed("splendor_rl.ppo", exc)
    obs_dim = envs.single_observation_space.shape[0]
    num_actions = envs.single_action_space.n
    model = build_model(args, envs)
    parent = parent_of(args)
    optimizer = optim.Adam(model.parameters(), lr=args.learning_rate, eps=1e-5)

    T, N = args.num_steps, args.num_envs
    obs_buf = torch.zeros((T, N, obs_dim), dtype=torch.uint8)
    mask_buf = torch.zeros((T, N, num_actions), dtype=torch.bool)
    obs_np, mask_np = obs_buf.numpy(), mask_buf.numpy()   # the same memory: replies are copied straight in
    actions = torch.zeros((T, N), dtype=torch.long)
    logprobs = torch.zeros((T, N))
    rewards = torch.zeros((T, N))
    dones = torch.zeros((T, N))
    values = torch.zeros((T, N))

    log_file = open(args.log_csv, "a", newline="") if args.log_csv else None
    log = csv.writer(log_file) if log_file else None
    if log and log_file.tell() == 0:
        log.writerow(["env_steps", "minutes", "train_win_rate", "train_episodes", "eval_win_rate", "eval_lo",
                      "eval_hi", "eval_truncated"])

    def evaluate(step: int, minutes: float, recent: deque) -> float:
        result = play(lambda o, m, g: model.greedy(o, m), args.eval_games, seed=args.eval_seed,
                      opponent=args.opponent, players=args.players, num_envs=min(64, args.eval_games),
                      url=args.url, env_id=args.env, features=args.features)
        lo, hi = wilson(result.wins, result.games)
        train = np.mean(recent) if recent else float("nan")
        tqdm.write(f"step {step:>9,} {minutes:5.1f} min | train win {100 * train:5.1f}% (last {len(recent)}) | "
                   f"eval argmax vs {args.opponent} {result.wins}/{result.games} = {100 * result.win_rate:5.1f}% "
                   f"(95% CI {100 * lo:.1f}–{100 * hi:.1f}%), {result.truncated} truncated")
        if log:
            log.writerow([step, f"{minutes:.2f}", f"{train:.4f}", len(recent), f"{result.win_rate:.4f}",
                          f"{lo:.4f}", f"{hi:.4f}", result.truncated])
            log_file.flush()
        if args.save:
            save_network(args, model, env_steps=step, eval_win_rate=result.win_rate)
        return result.win_rate

    start = time.time()
    global_step, next_eval = 0, args.eval_every
    recent_wins: deque = deque(maxlen=1000)   # 1 per finished training episode won, else 0
    episodes = 0
    last_eval_step = -1
    done_updates = saved_at = 0

    def save_state(update: int) -> None:
        train = {"optimizer": optimizer.state_dict(), "rng": rng_state(), "update": update,
                 "global_step": global_step, "next_eval": next_eval, "last_eval_step": last_eval_step,
                 "episodes": episodes, "recent_wins": list(recent_wins)}
        save_checkpoint(args.checkpoint.format(update=update), model, args=vars(args), env_steps=global_step,
                        train=train)

    if resumed is not None:
        train = resumed["train"]
        model.load_state_dict(resumed["state_dict"])
        optimizer.load_state_dict(train["optimizer"])
        done_updates = saved_at = train["update"]
        global_step, next_eval, last_eval_step = train["global_step"], train["next_eval"], train["last_eval_step"]
        episodes = train["episodes"]
        recent_wins.extend(train["recent_wins"])
        set_rng_state(train["rng"])
        print(f"resumed {args.resume} at update {done_updates} ({global_step:,} env steps)", flush=True)
    bar = tqdm(total=args.num_iterations * args.batch_size, initial=done_updates * args.batch_size, unit="step",
               disable=not args.progress, dynamic_ncols=True, mininterval=2.0)

    first, first_step = done_updates + 1, global_step  # where this process starts
    for iteration in range(first, args.num_iterations + 1):
        if args.anneal_lr:
            optimizer.param_groups[0]["lr"] = (1.0 - (iteration - 1.0) / args.num_iterations) * args.learning_rate
        if iteration == first or args.checkpoint_every and (iteration - 1) % args.checkpoint_every == 0:
            # A checkpoint boundary (or this process's start): a resumed run restarts every game here too.
            next_obs, infos = envs.reset(seed=env_seed(args, iteration - 1))
            next_mask = infos["action_mask"].copy()
            next_done = torch.zeros(N)

        # Rollout.
        for t in range(T):
            global_step += N
            obs_np[t], mask_np[t] = next_obs, next_mask
            dones[t] = next_done
            with torch.no_grad():
                action, logprob, _, value = model.act_value(model.prep(obs_buf[t]), mask_buf[t])
            actions[t], logprobs[t], values[t] = action, logprob, value
            next_obs, reward, terminated, truncated, infos = envs.step(action.numpy())
            ended = terminated | truncated
            rewards[t] = torch.from_numpy(reward)
            next_done = torch.from_numpy(ended.astype(np.float32))
            next_mask = infos["action_mask"]
            if ended.any():
                for i in np.flatnonzero(ended):
                    recent_wins.append(1.0 if terminated[i] and reward[i] > 0 else 0.0)
                    episodes += 1

        # GAE; a truncated episode is cut like a terminated one (no bootstrap).
        with torch.no_grad():
            next_value = model.value(model.prep(next_obs.copy()))
            advantages = torch.zeros_like(rewards)
            lastgaelam = torch.zeros(N)
            for t in reversed(range(T)):
                if t == T - 1:
                    nextnonterminal, nextvalues = 1.0 - next_done, next_value
                else:
                    nextnonterminal, nextvalues = 1.0 - dones[t + 1], values[t + 1]
                delta = rewards[t] + args.gamma * nextvalues * nextnonterminal - values[t]
                advantages[t] = lastgaelam = delta + args.gamma * args.gae_lambda * nextnonterminal * lastgaelam
            returns = advantages + values

        # Optimise the policy and the value network.
        b_x = model.prep(obs_buf.reshape(-1, obs_dim))
        b_masks = mask_buf.reshape(-1, num_actions)
        b_logprobs, b_actions = logprobs.reshape(-1), actions.reshape(-1)
        b_advantages, b_returns, b_values = advantages.reshape(-1), returns.reshape(-1), values.reshape(-1)
        b_inds = np.arange(args.batch_size)
        if parent is not None:
            with torch.no_grad():
                b_parent = parent.evaluate(b_x, b_masks)[0]
        clipfracs = []
        for epoch in range(args.update_epochs):
            np.random.shuffle(b_inds)
            for begin in range(0, args.batch_size, args.minibatch_size):
                mb = torch.from_numpy(b_inds[begin:begin + args.minibatch_size])
                logits, newvalue = model.policy_value(b_x[mb], b_masks[mb])
                _, newlogprob, entropy = act(logits, b_actions[mb])
                logratio = newlogprob - b_logprobs[mb]
                ratio = logratio.exp()
                with torch.no_grad():
                    approx_kl = ((ratio - 1) - logratio).mean()
                    clipfracs.append(((ratio - 1.0).abs() > args.clip_coef).float().mean().item())
                mb_adv = b_advantages[mb]
                mb_adv = (mb_adv - mb_adv.mean()) / (mb_adv.std() + 1e-8)
                pg_loss = torch.max(-mb_adv * ratio,
                                    -mb_adv * torch.clamp(ratio, 1 - args.clip_coef, 1 + args.clip_coef)).mean()
                if args.clip_vloss:
                    v_unclipped = (newvalue - b_returns[mb]) ** 2
                    v_clipped = b_values[mb] + torch.clamp(newvalue - b_values[mb], -args.clip_coef, args.clip_coef)
                    v_loss = 0.5 * torch.max(v_unclipped, (v_clipped - b_returns[mb]) ** 2).mean()
                else:
                    v_loss = 0.5 * ((newvalue - b_returns[mb]) ** 2).mean()
                entropy_loss = entropy.mean()
                loss = pg_loss - args.ent_coef * entropy_loss + v_loss * args.vf_coef
                if parent is not None:
                    kl_parent = kl(b_parent[mb], logits)
                    loss = loss + args.kl_init * kl_parent
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm)
                optimizer.step()
            if args.target_kl is not None and approx_kl > args.target_kl:
                break

        minutes = (time.time() - start) / 60
        bar.update(args.batch_size)
        win = np.mean(recent_wins) if recent_wins else float("nan")
        bar.set_postfix_str(f"win {100 * win:.1f}% ep {episodes} ent {entropy_loss.item():.2f} "
                            f"kl {approx_kl.item():.3f} clip {np.mean(clipfracs):.2f} v {v_loss.item():.3f}"
                            + (f" kl-init {kl_parent.item():.3f}" if parent is not None else ""),
                            refresh=False)
        if not args.progress and iteration % 10 == 0:
            print(f"step {global_step:>9,} {minutes:5.1f} min | train win {100 * win:5.1f}% (episodes {episodes}) | "
                  f"{(global_step - first_step) / (minutes * 60):.0f} steps/s"
                  + (f" | kl to --init {kl_parent.item():.3f}" if parent is not None else ""), flush=True)
        out_of_time = args.time_limit and minutes >= args.time_limit
        if args.eval_every and args.eval_games > 0 and global_step >= next_eval and not out_of_time:
            evaluate(global_step, minutes, recent_wins)
            last_eval_step = global_step
            next_eval += args.eval_every
        done_updates = iteration
        if args.checkpoint and args.checkpoint_every and iteration % args.checkpoint_every == 0:
            save_state(iteration)
            saved_at = iteration
        if out_of_time:
            tqdm.write(f"time limit of {args.time_limit} min reached")
            break

    bar.close()
    minutes = (time.time() - start) / 60
    win = np.mean(recent_wins) if recent_wins else float("nan")
    rate = (global_step - first_step) / (minutes * 60)
    print(f"done: {global_step:,} env steps in {minutes:.1f} min ({rate:.0f} steps/s), "
          f"{episodes} training episodes, train win rate vs {args.opponent} {100 * win:.1f}% "
          f"(last {len(recent_wins)} episodes)", flush=True)
    if args.eval_games > 0 and last_eval_step != global_step:
        evaluate(global_step, minutes, recent_wins)
    elif args.save and last_eval_step != global_step:
        save_network(args, model, env_steps=global_step)
    if args.save:
        print(f"saved {args.save}")
    if args.checkpoint and saved_at != done_updates:
        save_state(done_updates)
    if args.checkpoint:
        print(f"training state of update {done_updates} in {args.checkpoint.format(update=done_updates)}")
    envs.close()
    if log_file:
        log_file.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
