"""python -m splendor_rl.bench: env-steps/s over the wire from Python, next to the server's in-process rate.

Batches of 1, 64 and 1024 envs of `--env` (splendor-v1 by default, or splendor-duel-v1) step self-play games with
uniformly random legal actions sampled by numpy from the masks, first one `step()` at a time, then two batches of
that size double-buffered with `send`/`recv`; the in-process figure comes from the server's own
`splendorctl bench --mode inproc` run in the same invocation (its env-steps/s: time spent in `Step`, its own
sampling left out, as here); the `step()` round trip gives the latency (p50, p99).
The wire overhead is a `step()`'s time (the policy's sampling left out) over the in-process time of the same batch,
and a second table splits a step's time: the policy (numpy sampling), the transport (sending, waiting for and
reading the reply: the server's step and encoding included), msgpack decoding, and the rest (numpy views,
Gymnasium's tuple, glue)."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from . import cli
from .connection import Connection
from .errors import UnknownEnv
from .sample import sample_legal
from .server import LocalServer, find_binary
from .vector import SplendorVectorEnv

BATCHES = (1, 64, 1024)


def check_env(url: str, env_id: str) -> None:
    """Refuse an env the server lacks before the header is printed, as the server's own make would."""
    with Connection(url) as conn:
        known = conn.hello["envs"]
    if env_id not in known:
        raise UnknownEnv(f"unknown env id {env_id!r} (this server has: {', '.join(known)})")


def wire_rate(url: str, env_id: str, num_envs: int, seconds: float,
              obs_dtype: str) -> tuple[float, np.ndarray, dict[str, float]]:
    """step() at a time: env-steps/s, each step()'s seconds, and the mean seconds per step of each part."""
    envs = SplendorVectorEnv(env_id, num_envs, seed=1, url=url, obs_dtype=obs_dtype)
    rng = np.random.default_rng(1)
    _, infos = envs.reset()
    conn = envs.connection
    conn.transport_seconds = conn.decode_seconds = 0.0
    rtts, policy = [], 0.0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        sampling = time.perf_counter()
        actions = sample_legal(infos["action_mask"], rng)
        sent = time.perf_counter()
        _, _, _, _, infos = envs.step(actions)
        rtts.append(time.perf_counter() - sent)
        policy += sent - sampling
    elapsed = time.perf_counter() - start
    steps = len(rtts)
    parts = {"policy": policy / steps, "transport": conn.transport_seconds / steps,
             "decode": conn.decode_seconds / steps}
    parts["rest"] = sum(rtts) / steps - parts["transport"] - parts["decode"]
    envs.close()
    return steps * num_envs / elapsed, np.array(rtts), parts


def pipelined_rate(url: str, env_id: str, num_envs: int, seconds: float, obs_dtype: str) -> float:
    """Two batches of num_envs on one connection, double-buffered with send/recv: while the server steps one,
    the client samples actions for the other (the overlap `send`/`recv` exist for)."""
    with Connection(url) as conn:
        batches = [SplendorVectorEnv(env_id, num_envs, seed=1 + k * num_envs, connection=conn,
                                     obs_dtype=obs_dtype) for k in range(2)]
        rng = np.random.default_rng(1)
        masks = [b.reset()[1]["action_mask"] for b in batches]
        a, b = batches
        a.send(sample_legal(masks[0], rng))
        steps = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            b.send(sample_legal(masks[1], rng))  # b steps on the server while a's reply is read and answered
            masks[0] = a.recv()[4]["action_mask"]
            a.send(sample_legal(masks[0], rng))
            masks[1] = b.recv()[4]["action_mask"]
            steps += 2 * num_envs
        elapsed = time.perf_counter() - start
        a.recv()
        for b in batches:
            b.close()
    return steps / elapsed


def inproc_rate(env_id: str, num_envs: int, seconds: float, obs_dtype: str) -> float:
    """The server's in-process self-play rate for the same batch, from splendorctl beside the server binary."""
    ctl = Path(find_binary()).with_name("splendorctl")
    out = subprocess.run([str(ctl), "bench", "--mode", "inproc", "--env", env_id, "--num-envs", str(num_envs),
                          "--seconds", str(seconds), "--obs-dtype", obs_dtype],
                         capture_output=True, text=True, check=True).stdout
    return float(re.search(r"self_play\s+(\d+)", out).group(1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m splendor_rl.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per measurement")
    parser.add_argument("--url", help="a running server (default: start a local one)")
    parser.add_argument("--obs-dtype", default="uint8", choices=["uint8", "float32"])
    parser.add_argument("--env", default="splendor-v1", help="the env id: splendor-v1 or splendor-duel-v1")
    args = parser.parse_args(argv)
    server = None if args.url else LocalServer()
    url = args.url or server.url
    try:
        check_env(url, args.env)
        print(f"{args.env} self-play, {args.obs_dtype} observations, {args.seconds:g}s per measurement")
        print(f"{'batch':>6} {'step() steps/s':>15} {'ratio':>6} {'send/recv x2':>13} {'ratio':>6} {'inproc':>11} "
              f"{'p50 rtt':>9} {'p99 rtt':>9} {'overhead':>9}")
        breakdown = []
        for n in BATCHES:
            rate, rtts, parts = wire_rate(url, args.env, n, args.seconds, args.obs_dtype)
            piped = pipelined_rate(url, args.env, n, args.seconds, args.obs_dtype)
            inproc = inproc_rate(args.env, n, args.seconds, args.obs_dtype)
            p50, p99 = np.percentile(rtts, [50, 99]) * 1e6
            overhead = rtts.mean() / (n / inproc)
            print(f"{n:>6} {rate:>15,.0f} {rate / inproc:>6.0%} {piped:>13,.0f} {piped / inproc:>6.0%} "
                  f"{inproc:>11,.0f} {p50:>7.0f}µs {p99:>7.0f}µs {overhead:>8.2f}x")
            breakdown.append((n, parts, n / inproc))
        print(f"\nµs per step() {'policy':>9} {'transport':>10} {'decode':>8} {'rest':>8} {'inproc batch':>13}")
        for n, parts, batch_seconds in breakdown:
            us = {k: v * 1e6 for k, v in parts.items()}
            print(f"{n:>13} {us['policy']:>9.0f} {us['transport']:>10.0f} {us['decode']:>8.0f} {us['rest']:>8.0f} "
                  f"{batch_seconds * 1e6:>13.1f}")
    except cli.EXPECTED as exc:  # a dead --url, an unknown --env
        return cli.failed("splendor_rl.bench", exc)
    finally:
        if server:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
