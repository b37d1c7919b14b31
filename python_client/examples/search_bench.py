"""Guided search throughput: simulations per second of `envs.search` with a 2×256 MLP torch evaluator in this
process, and where the time goes: the evaluator (the network), the round trips (the server's tree work and the
wire: `go test ./env/splendorenv -bench Guided` times the server's share alone) and the Python glue between them.

    python examples/search_bench.py --num-envs 1024 --simulations 32 [--parts 1]

`--parts 2` (the default) pipelines the search: the server advances half the envs while the network evaluates the
other half's leaves, so the two shares overlap and add up to more than the wall time; `--parts 1` sends every leaf
of a round in one batch.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch

import splendor_rl
from splendor_rl import cli


def main() -> None:
    p = cli.parser(__doc__)
    p.add_argument("--env", default="splendor-v1")
    p.add_argument("--num-envs", type=int, default=1024)
    p.add_argument("--simulations", type=int, default=32)
    p.add_argument("--algorithm", default="gumbel")
    p.add_argument("--leaves-per-env", type=int, default=1)
    p.add_argument("--searches", type=int, default=3)
    p.add_argument("--parts", type=int, default=2, choices=[1, 2])
    p.add_argument("--url", default=None)
    args = p.parse_args()
    torch.set_num_threads(1)
    envs = splendor_rl.make_vec(args.env, num_envs=args.num_envs, seed=0, url=args.url)
    obs, _ = envs.reset()
    n_obs, n_act = obs.shape[1], envs.single_action_space.n
    net = torch.nn.Sequential(torch.nn.Linear(n_obs, 256), torch.nn.ReLU(), torch.nn.Linear(256, 256),
                              torch.nn.ReLU(), torch.nn.Linear(256, n_act + 1))
    spent = [0.0]

    @torch.no_grad()
    def evaluate(obs: np.ndarray, mask: np.ndarray):
        t = time.perf_counter()
        out = net(torch.from_numpy(np.asarray(obs, np.float32)))
        logits = out[:, :n_act].masked_fill(~torch.from_numpy(mask), -1e9)
        priors, values = torch.softmax(logits, 1).numpy(), torch.tanh(out[:, n_act]).numpy()
        spent[0] += time.perf_counter() - t
        return priors, values

    # Warm up with a search like those measured: the server's pooled trees and heap grow to their size once.
    envs.search(evaluate, simulations=args.simulations, seed=-1 % 2**63, algorithm=args.algorithm,
                leaves_per_env=args.leaves_per_env, parts=args.parts)
    spent[0] = 0.0
    conn = envs.connection  # its counters: sending and waiting for replies, and decoding them
    conn.transport_seconds = conn.decode_seconds = 0.0
    start = time.perf_counter()
    for s in range(args.searches):
        envs.search(evaluate, simulations=args.simulations, seed=s, algorithm=args.algorithm,
                    leaves_per_env=args.leaves_per_env, parts=args.parts)
    wall = time.perf_counter() - start
    trips = conn.transport_seconds + conn.decode_seconds
    sims = args.searches * args.num_envs * args.simulations
    print(f"{sims / wall:,.0f} simulations/s ({args.num_envs} envs × {args.simulations} simulations × "
          f"{args.searches} searches in {wall:.2f} s, {args.parts} part(s)): evaluator {spent[0] / wall:.0%}, round trips (server + wire) "
          f"{trips / wall:.0%}, Python glue {1 - (spent[0] + trips) / wall:.0%}")
    envs.close()


if __name__ == "__main__":
    main()
