"""RLlib PPO (new API stack) in self-play on splendor-v1 or splendor-duel-v1, then the greedy policy against the
random bot. Needs the `rllib` extra (`pip install -e 'python_client[rllib]'`).

    python examples/rllib_ppo.py --iterations 10                         # each env runner starts a local server
    python examples/rllib_ppo.py --env splendor-duel-v1 --url ws://127.0.0.1:8765/ws

Every seat of every game is played by one shared policy ("shared"), an RLlib `ActionMaskingTorchRLModule`:
illegal actions get a -inf logit before the distribution, so none is ever sampled (the env raises if one is,
and training stops).
Each iteration prints the sampled episodes' mean return per seat (self-play is zero-sum, so the sum over seats
is 0 except for truncated games) and length, and the env steps sampled per second of the iteration's wall time
(sampling and learning). At the end the greedy (argmax) policy plays `--eval-games` seeded games against the random
bot (`splendor_rl.evaluate.play`: game j is dealt from `--seed + j`, which also draws the policy's seat) and the
win rate is printed with its 95% Wilson interval; the untrained network plays the same games first, as the
baseline.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import ray
import torch
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

import splendor_rl.rllib  # noqa: F401  (registers "splendor-v1" and "splendor-duel-v1" with Ray Tune)
from splendor_rl import cli
from splendor_rl.evaluate import format_result, play

POLICY = "shared"


def parse_args(argv=None) -> argparse.Namespace:
    p = cli.parser(__doc__)
    p.add_argument("--env", default="splendor-v1", choices=splendor_rl.rllib.ENV_IDS)
    p.add_argument("--players", type=int, default=2, help="seats at the table (splendor-v1: 2-4)")
    p.add_argument("--iterations", type=int, default=5, help="PPO training iterations")
    p.add_argument("--seed", type=int, default=0, help="seeds RLlib (torch, numpy) and the env runners' games")
    p.add_argument("--num-env-runners", type=int, default=2, help="Ray actors sampling games, one CPU each")
    p.add_argument("--batch", type=int, default=4000, help="env steps sampled per iteration")
    p.add_argument("--eval-games", type=int, default=200, help="games of the final evaluation against random")
    p.add_argument("--url", default=None, help="a running server (default: a local server per process)")
    return p.parse_args(argv)


def build_config(args: argparse.Namespace) -> PPOConfig:
    return (
        PPOConfig()
        .environment(args.env, env_config={"players": args.players, "seed": args.seed, "url": args.url},
                     # RLlib's checker steps an unmasked random action, which the env refuses.
                     disable_env_checking=True)
        .env_runners(num_env_runners=args.num_env_runners, num_envs_per_env_runner=1)
        # RLlib restarts a failed runner by default, which would hide an illegal action: fail instead.
        .fault_tolerance(restart_failed_env_runners=False)
        .multi_agent(policies={POLICY}, policy_mapping_fn=lambda agent_id, episode, **kwargs: POLICY)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={POLICY: RLModuleSpec(
            module_class=ActionMaskingTorchRLModule,
            model_config={"fcnet_hiddens": [128, 128], "head_fcnet_hiddens": [128]})}))
        .training(train_batch_size_per_learner=args.batch, minibatch_size=min(500, args.batch), num_epochs=4,
                  lr=3e-4, entropy_coeff=0.01)
        .debugging(seed=args.seed)
    )


def greedy_policy(module):
    """`splendor_rl.evaluate`'s policy signature over the trained module: the most probable legal action."""

    @torch.no_grad()
    def act(obs: np.ndarray, mask: np.ndarray, games: np.ndarray) -> np.ndarray:
        batch = {Columns.OBS: {"observations": torch.as_tensor(obs, dtype=torch.float32),
                               "action_mask": torch.as_tensor(mask, dtype=torch.float32)}}
        logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
        return logits.argmax(-1).numpy()

    return act


def report(iteration: int, result: dict) -> None:
    runners = result["env_runners"]
    steps = runners["num_env_steps_sampled"]
    rate = f"{steps} env steps, {steps / result['time_this_iter_s']:.0f} env steps/s"
    if "episode_return_mean" not in runners:  # RLlib reports returns of finished games only
        print(f"iter {iteration}: no game finished yet, {rate}")
        return
    seats = " ".join(f"{agent} {ret:+.3f}" for agent, ret in sorted(runners["agent_episode_returns_mean"].items()))
    print(f"iter {iteration}: episode return {runners['episode_return_mean']:+.3f} ({seats}), "
          f"length {runners['episode_len_mean']:.0f}, {rate}")


def evaluate(algo, args: argparse.Namespace, name: str) -> None:
    result = play(greedy_policy(algo.get_module(POLICY)), args.eval_games, seed=args.seed, opponent="random",
                  players=args.players, url=args.url, env_id=args.env, obs_dtype="float32")
    print(format_result(name, "random", result))


def main(argv=None) -> None:
    args = parse_args(argv)
    # A CPU per env runner; the learner runs in this process, outside Ray's count.
    ray.init(num_cpus=max(1, args.num_env_runners), include_dashboard=False)
    algo = build_config(args).build_algo()
    try:
        evaluate(algo, args, "untrained")
        started = time.monotonic()
        for i in range(1, args.iterations + 1):
            report(i, algo.train())
        print(f"trained {args.iterations} iterations in {time.monotonic() - started:.0f} s")
        evaluate(algo, args, "trained")
    finally:
        algo.stop()
        ray.shutdown()


if __name__ == "__main__":
    main()
