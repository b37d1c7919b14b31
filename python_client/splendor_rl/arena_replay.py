"""Replay files: one JSON Lines file per game, in the line types of `splendorctl trace` (docs/trace.md), so that
tools reading traces read them too. The arena's have a `decision` line per decision without the trace's state views
and legal lists (`record`, in record.py, adds them from the server's `view` op), then a `result` line with the
arena's own fields added. Replaying a game needs only its seed and actions: reset a self-play env of the same id
and players with `seed`, then step the `action` of every decision line in order (docs/arena.md)."""

from __future__ import annotations

import json
import os
from typing import Sequence


def game_notation(state: str) -> str:
    """The game's own notation (docs/notation.md) in a `get_state` string: after the row's bookkeeping and "; ",
    before the env's bookkeeping, which " | " begins (env/snapshot.go)."""
    return state.split("; ", 1)[1].split(" | ", 1)[0]


def episode_seed(state: str) -> int:
    """The episode's seed in a `get_state` string: the row's `seed=S` (env/state.go)."""
    return int(state.split(" ", 1)[0].removeprefix("seed="))


def write_replay(path: str, decisions: Sequence[dict], result: dict) -> None:
    """One game's replay file: its decision lines in order, then its result line (docs/trace.md)."""
    with open(path, "w") as f:
        f.writelines(json.dumps(line) + "\n" for line in [*decisions, result])


class ReplayWriter:
    """Writes `game-NNNNNN.jsonl` files (the arena's game index) into `directory`."""

    def __init__(self, directory: str, env_id: str, labels: Sequence[str]):
        os.makedirs(directory, exist_ok=True)
        self.directory, self.env_id, self.labels = directory, env_id, labels

    def path(self, game: int) -> str:
        return os.path.join(self.directory, f"game-{game:06d}.jsonl")

    def write(self, record: dict, moves: Sequence[tuple[int, int]], state: str) -> None:
        """`record` is the arena's game record, `moves` (seat, action) per decision, `state` the ended env's
        `get_state`."""
        game, seed = record["game"], record["seed"]
        lines = [{"type": "decision", "game": game, "seed": seed, "decision": k, "seat": seat, "action": action,
                  "label": self.labels[action]} for k, (seat, action) in enumerate(moves)]
        write_replay(self.path(game), lines, {
            "type": "result", "game": game, "seed": seed, "decisions": len(moves), "scores": record["points"],
            "winners": record["winners"], "truncated": record["truncated"], "final_state": game_notation(state),
            "env": self.env_id, "players": len(record["seats"]), "entrants": record["seats"],
            "places": record["places"], "table": record["table"], "deal": record["deal"],
            "rotation": record["rotation"]})
