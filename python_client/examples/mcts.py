"""Batched PUCT search over the wire against the greedy bot: one file, the pattern an AlphaZero user copies.

    python examples/mcts.py --games 100 --simulations 200                       # starts a local server
    python examples/mcts.py --env splendor-duel-v1 --url ws://127.0.0.1:8765/ws

Many games are played at once, each with its own search tree. The real games run in one self-play vector env:
the searcher plays seat `game % players`, and the seats it does not play take the greedy bot's move
(`bot_actions`). Every decision of the searcher with more than one legal action is searched with
`--simulations` simulations, in waves of `--width` simulations per game at once, all games together in a second
self-play vector env whose envs are scratch slots. A wave:

1. loads the root (the real game's state, cached as a string) into the game's slots and `determinize`s each
   slot from its own seed: the hidden cards are redealt as the searcher could imagine them, so the deck order
   of the real game never reaches the search (information-set search);
2. walks down every slot's tree by PUCT, one level per batched `step` of all slots (the legal actions at a node
   depend on the redeal, so each level's choice waits for the previous level's masks), adding one node per
   simulation;
3. plays each slot from its new leaf to the end of the game with the `--rollout` bot (`bot_actions` + `step`);
4. backs the final rewards up the path, each edge scored from the view of the seat that chose it.

Priors are uniform over the legal actions. A network replaces step 3: evaluate the leaves' observations for
priors and a value, and end the simulation there. The searcher then plays its root's most visited action. The
result depends only on the arguments (every seed is derived from `--seed`), never on timing.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from contextlib import closing

import numpy as np

import splendor_rl
from splendor_rl import cli
from splendor_rl import derive_seed
from splendor_rl.evaluate import wilson

VIRTUAL_LOSS = 1.0  # a slot on its way down counts as a loss, so the slots of one wave spread over the tree


class Node:
    """One node of a game's tree: visit counts and value sums of its edges, per seat to play (after a redeal the
    same actions can, rarely, lead to another seat's decision), and children keyed by (seat, action)."""

    __slots__ = ("stats", "children")

    def __init__(self):
        self.stats: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self.children: dict[tuple[int, int], Node] = {}

    def edges(self, seat: int, num_actions: int) -> tuple[np.ndarray, np.ndarray]:
        if seat not in self.stats:
            self.stats[seat] = np.zeros(num_actions), np.zeros(num_actions)
        return self.stats[seat]


def puct(visits: np.ndarray, values: np.ndarray, legal: np.ndarray, c_puct: float) -> int:
    """argmax over the legal actions of Q + c·P·sqrt(N)/(1 + n), with P uniform. N counts only the visits of the
    actions legal now, as information-set search does: an action missing from this redeal is not held against
    the others. Ties go to the lowest index, so the search is deterministic."""
    n, w = visits[legal], values[legal]
    q = np.divide(w, n, out=np.zeros_like(w), where=n > 0)
    u = c_puct * math.sqrt(n.sum()) / (len(legal) * (1 + n))
    return int(legal[np.argmax(q + u)])


class Searcher:
    """`width` scratch slots per game in one self-play vector env: game g owns slots g·width … g·width+width−1."""

    def __init__(self, env_id: str, games: int, args: argparse.Namespace):
        self.width, self.simulations, self.c_puct = args.width, args.simulations, args.c_puct
        self.rollout, self.seed = args.rollout, args.seed
        # Same id and options as the real games' env, so their states load here. next_step autoreset: a slot
        # whose rollout has ended takes any action while the others finish theirs.
        self.env = splendor_rl.make_vec(env_id, num_envs=games * self.width, url=args.url, mode="self_play")
        self.num_actions = self.env.single_action_space.n
        self.env.reset()  # a batch steps only when every env has an episode, the slots no wave uses too
        self.simulations_run = self.env_steps = 0

    def choose(self, games: np.ndarray, seats: np.ndarray, states: list[str], turn: int) -> np.ndarray:
        """The action of seat `seats[k]` in game `games[k]`, whose real state is `states[k]`, at decision `turn`."""
        roots = [Node() for _ in games]
        # Each game's redeal seeds come from (seed, game, turn) alone: its search ignores which games run with it.
        seeds = [np.random.default_rng([self.seed, int(g), turn]).integers(2**63, size=self.simulations)
                 for g in games]
        for done in range(0, self.simulations, self.width):
            self.wave(games, states, roots, [s[done:done + self.width] for s in seeds],
                      derive_seed(self.seed, turn, done))
        return np.array([np.argmax(root.edges(int(seat), self.num_actions)[0]) for root, seat in zip(roots, seats)])

    def wave(self, games: np.ndarray, states: list[str], roots: list[Node], seeds: list[np.ndarray],
             rollout_seed: int) -> None:
        count = len(seeds[0])
        slots = (games[:, None] * self.width + np.arange(count)).ravel()
        first = slots[::count]
        # A step moves every env of a batch, so no slot can hold a root (or a tree node, to fork from) for long:
        # the root is a cached string.
        # It is loaded once per game and forked to the game's other slots inside the server, so a request stays
        # small (a state is about 560 bytes; max_message_bytes is 1 MiB by default) however wide the wave.
        self.env.set_state(states, env_ids=first)
        if count > 1:
            self.env.fork(src=np.repeat(first, count - 1), dst=slots[np.arange(len(slots)) % count != 0])
        _, infos = self.env.determinize([int(s) for row in seeds for s in row], env_ids=slots)

        node: list[Node | None] = [roots[k // count] for k in range(len(slots))]  # None: rolling out
        path: list[list[tuple[np.ndarray, np.ndarray, int, int]]] = [[] for _ in slots]
        returns = np.zeros((len(slots), self.env.num_players))
        running = np.ones(len(slots), bool)
        depth = 0
        while running.any():
            mask, to_play = infos["action_mask"], infos["to_play"]
            actions = mask.argmax(axis=1)  # slots not in this wave: any legal action (0 once ended: ignored)
            rolling = np.flatnonzero(running & np.array([n is None for n in node]))
            if len(rolling):
                actions[slots[rolling]] = self.env.bot_actions(self.rollout, seed=(rollout_seed + depth) % 2**64,
                                                               env_ids=slots[rolling])
            for k in np.flatnonzero(running & np.array([n is not None for n in node])):
                actions[slots[k]] = self.descend(k, node, path, int(to_play[slots[k]]), mask[slots[k]])
            _, _, terminated, truncated, infos = self.env.step(actions)
            returns[running] += infos["seat_rewards"][slots[running]]
            self.env_steps += int(running.sum())
            running &= ~(terminated | truncated)[slots]
            depth += 1
        for k, edges in enumerate(path):
            for visits, values, action, seat in edges:
                values[action] += VIRTUAL_LOSS + returns[k, seat]
        self.simulations_run += len(slots)

    def close(self) -> None:
        self.env.close()

    def descend(self, k: int, node: list[Node | None], path: list, seat: int, mask: np.ndarray) -> int:
        """Slot k's next action down its tree by PUCT; past a new node it rolls out."""
        here = node[k]
        visits, values = here.edges(seat, self.num_actions)
        action = puct(visits, values, np.flatnonzero(mask), self.c_puct)
        visits[action] += 1
        values[action] -= VIRTUAL_LOSS  # undone by the backup
        path[k].append((visits, values, action, seat))
        child = here.children.get((seat, action))
        if child is None:
            here.children[(seat, action)] = Node()
        node[k] = child
        return action


def play(args: argparse.Namespace) -> tuple[dict[str, int], Searcher, float]:
    """Play `--games` games (game j dealt from seed + j) of the searcher against the greedy bot: the outcomes, the
    searcher (its counters) and the seconds spent searching. The real games are self-play with the bot's advice
    for the other seat, not vs_bots: a state loads only into a batch of the same options as the search slots'."""
    real_games = splendor_rl.make_vec(args.env, num_envs=args.games, seed=args.seed, url=args.url, mode="self_play")
    with closing(real_games) as real, closing(Searcher(args.env, args.games, args)) as searcher:
        _, infos = real.reset()
        my_seat = np.arange(args.games) % real.num_players
        live = np.ones(args.games, bool)
        outcomes = {"win": 0, "loss": 0, "draw": 0, "truncated": 0}
        search_time, turn = 0.0, 0
        while live.any():
            mask, to_play = infos["action_mask"], infos["to_play"]
            actions = mask.argmax(axis=1)  # finished games: any action (next_step autoreset ignores or redeals)
            theirs = np.flatnonzero(live & (to_play != my_seat))
            if len(theirs):
                actions[theirs] = real.bot_actions("greedy", seed=derive_seed(args.seed, turn), env_ids=theirs)
            mine = np.flatnonzero(live & (to_play == my_seat) & (mask.sum(axis=1) > 1))  # one legal action: no search
            if len(mine):
                start = time.perf_counter()
                actions[mine] = searcher.choose(mine, my_seat[mine], real.get_state(mine), turn)
                search_time += time.perf_counter() - start
            _, _, terminated, truncated, infos = real.step(actions)
            for g in np.flatnonzero(live & (terminated | truncated)):
                outcomes[outcome(terminated[g], truncated[g], infos["seat_rewards"][g, my_seat[g]])] += 1
                live[g] = False
            turn += 1
    return outcomes, searcher, search_time


def outcome(terminated: bool, truncated: bool, reward: float) -> str:
    if truncated and not terminated:
        return "truncated"
    return "win" if reward > 0 else "loss" if reward < 0 else "draw"


def main(argv=None) -> int:
    p = cli.parser(__doc__)
    p.add_argument("--env", default="splendor-v1", choices=["splendor-v1", "splendor-duel-v1"])
    p.add_argument("--games", type=int, default=100, help="games played at once; game j is dealt from seed + j")
    p.add_argument("--simulations", type=int, default=200, help="simulations per searched decision")
    p.add_argument("--width", type=int, default=8, help="simulations per game run together in one wave")
    p.add_argument("--c-puct", type=float, default=2.0, help="exploration constant of PUCT")
    p.add_argument("--rollout", default="greedy", choices=["greedy", "random"], help="the bot that plays leaves out")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--url", default=None, help="a running server (default: start a local one)")
    args = p.parse_args(argv)
    if min(args.games, args.simulations, args.width) < 1:
        p.error("--games, --simulations and --width must be at least 1")
    args.width = min(args.width, args.simulations)

    start = time.perf_counter()
    outcomes, searcher, search_time = play(args)
    elapsed = time.perf_counter() - start
    wins, games = outcomes["win"], args.games
    lo, hi = wilson(wins, games)
    print(f"mcts.py vs greedy: {wins}/{games} wins = {100 * wins / games:.1f}% "
          f"(95% CI {100 * lo:.1f}–{100 * hi:.1f}%), {outcomes['truncated']} truncated, {outcomes['draw']} draws; "
          f"{args.env}, {args.simulations} simulations, width {args.width}, c_puct {args.c_puct:g}, "
          f"{args.rollout} rollouts, seed {args.seed}")
    search_time = max(search_time, 1e-9)  # no decision had a choice: nothing was searched
    print(f"speed: {searcher.simulations_run / search_time:.0f} simulations/s, "
          f"{searcher.env_steps / search_time:.0f} env-steps/s in search ({searcher.simulations_run} simulations, "
          f"{elapsed:.1f} s in all)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
