"""A small masked actor-critic MLP for splendor-v1, shared by splendor_rl.ppo and `python -m splendor_rl.evaluate`.

Needs torch (the `train` extra). A checkpoint is a dict {"state_dict", "config", ...}; `config` holds the keyword
arguments of `MLPPolicy`, so `load_checkpoint` rebuilds the network without the training script.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

from .layout import Layout

# Masked logits: large and negative, but finite (so 0 * logit stays 0 in the entropy).
MASKED_LOGIT = -1e8


# Divisors that bring splendor-v1's uint8 fields roughly into [0, 1], by block and field (a key ending in "_", or
# "", names every field that starts so); a field not named here is a 0/1 flag. Any other layout (Duel, features on) is divided by 8.
SPLENDOR_DIVISORS = {
    "turn": {"round": 100, "passes": 4, "players": 4, "my_seat": 3, "to_play": 3},
    "bank": {"": 7}, "decks": {"": 40}, "due": {"": 7},
    "buying": {"points": 5, "cost_": 7}, "market": {"points": 5, "cost_": 7},
    "nobles": {"needs_": 4},
    "seats": {"tokens_": 7, "bonus_": 7, "points": 15, "cards": 20, "nobles": 3, "reserved": 3},
    "hands": {"points": 5, "cost_": 7, "level": 3},
}
SPLENDOR_BLOCKS = {"phase", "turn", "bank", "decks", "due", "buying", "market", "nobles", "seats", "hands"}


def obs_divisors(layout: Layout) -> np.ndarray:
    """Per-value divisors of an observation with this layout (SPLENDOR_DIVISORS), found by name."""
    if set(layout.names()) != SPLENDOR_BLOCKS:
        return np.full(layout.size, 8.0, np.float32)
    s = np.ones(layout.size, np.float32)
    for name, divisors in SPLENDOR_DIVISORS.items():
        block = layout[name]
        for field in block.fields:
            for key, d in divisors.items():
                if field == key or key[-1:] in ("", "_") and field.startswith(key):
                    s[block.at(field)] = d
    return s


def layer_init(layer: nn.Linear, std: float = np.sqrt(2), bias: float = 0.0) -> nn.Linear:
    nn.init.orthogonal_(layer.weight, std)
    nn.init.constant_(layer.bias, bias)
    return layer


class MLPPolicy(nn.Module):
    """Separate actor and critic MLPs (CleanRL style) over the scaled observation. Illegal actions get
    `MASKED_LOGIT` before the Categorical."""

    def __init__(self, obs_dim: int = 442, num_actions: int = 78, hidden: int = 256, layers: int = 2,
                 activation: str = "tanh", layout: Layout | None = None):
        super().__init__()
        obs_dim, num_actions, hidden, layers = int(obs_dim), int(num_actions), int(hidden), int(layers)
        self.config = {"obs_dim": obs_dim, "num_actions": num_actions, "hidden": hidden, "layers": layers,
                       "activation": str(activation)}
        act = {"tanh": nn.Tanh, "relu": nn.ReLU}[activation]

        def mlp(out: int, out_std: float) -> nn.Sequential:
            mods: list[nn.Module] = []
            width = obs_dim
            for _ in range(layers):
                mods += [layer_init(nn.Linear(width, hidden)), act()]
                width = hidden
            mods.append(layer_init(nn.Linear(width, out), std=out_std))
            return nn.Sequential(*mods)

        divisors = obs_divisors(layout) if layout is not None else np.full(obs_dim, 8.0, np.float32)
        self.register_buffer("obs_scale", torch.from_numpy(1.0 / divisors))  # a checkpoint's own wins on load
        self.actor = mlp(num_actions, 0.01)
        self.critic = mlp(1, 1.0)

    def prep(self, obs: Any) -> torch.Tensor:
        """uint8/float observations (numpy or torch) → scaled float32 tensor."""
        x = torch.as_tensor(np.asarray(obs) if not isinstance(obs, torch.Tensor) else obs)
        return x.to(torch.float32) * self.obs_scale

    def value(self, x: torch.Tensor) -> torch.Tensor:
        return self.critic(x).squeeze(-1)

    def masked_logits(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return torch.where(mask, self.actor(x), torch.full((), MASKED_LOGIT))

    def policy_value(self, x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(masked logits, value): what act_value samples from, for a loss that needs the whole policy."""
        return self.masked_logits(x, mask), self.value(x)

    def act_value(self, x: torch.Tensor, mask: torch.Tensor, action: torch.Tensor | None = None):
        """(action, log_prob, entropy, value); samples the action when none is given."""
        logits, value = self.policy_value(x, mask)
        return (*act(logits, action), value)

    @torch.no_grad()
    def greedy(self, obs: Any, mask: Any) -> np.ndarray:
        """The most probable legal action per row (numpy in, numpy out)."""
        logits = self.masked_logits(self.prep(obs), torch.as_tensor(np.asarray(mask, dtype=bool)))
        return logits.argmax(-1).numpy()


def act(logits: torch.Tensor, action: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(action, log_prob, entropy) of the Categorical over masked logits; samples the action when none is given."""
    dist = Categorical(logits=logits)
    if action is None:
        action = dist.sample()
    return action, dist.log_prob(action), dist.entropy()


def _plain(value: Any) -> Any:
    """numpy scalars → Python scalars (recursively), so that the checkpoint loads with weights_only=True."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_plain(v) for v in value)
    if isinstance(value, np.generic):
        return value.item()
    return value


def save_checkpoint(path: str, model: MLPPolicy, **extra: Any) -> None:
    """state_dict + the config that rebuilds the network, + any plain metadata (args, steps, win rate...).
    Written to a temporary file first, then renamed: a run killed while saving leaves the previous checkpoint."""
    extra = _plain(extra)
    tmp = f"{path}.tmp"
    torch.save({"state_dict": model.state_dict(), "config": dict(model.config), **extra}, tmp)
    os.replace(tmp, path)


def load_checkpoint(path: str) -> tuple[MLPPolicy, dict]:
    """The network saved at `path` (in eval mode) and the whole checkpoint dict."""
    ckpt = torch.load(path, map_location="cpu", weights_only=True)
    model = MLPPolicy(**ckpt["config"])
    model.load_state_dict(ckpt["state_dict"])
    model.eval()
    return model, ckpt
