"""A small masked actor-critic MLP for splendor-v1, shared by examples/ppo.py and `python -m splendor_rl.evaluate`.

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

# Masked logits: large and negative, but finite (so 0 * logit stays 0 in the entropy).
MASKED_LOGIT = -1e8


def splendor_obs_scale(obs_dim: int = 442) -> np.ndarray:
    """Per-feature divisors that bring splendor-v1's (version 2) uint8 observation roughly into [0, 1]
    (offsets from docs/envs/splendor.md); any other layout is divided by 8."""
    if obs_dim != 442:
        return np.full(obs_dim, 8.0, np.float32)
    s = np.ones(442, np.float32)
    s[5], s[6], s[7], s[8], s[9] = 100, 4, 4, 3, 3     # rounds, passes, players, my seat, seat to play
    s[10:16] = 7                                        # supply
    s[16:19] = 40                                       # cards left in decks
    s[19:24] = 7                                        # gems still due

    def card(at: int) -> None:                          # present, points, bonus one-hot, cost
        s[at + 1] = 5
        s[at + 7:at + 12] = 7

    card(24)                                            # the card being paid for
    for i in range(12):
        card(36 + 12 * i)
    for i in range(5):
        s[180 + 6 * i + 1:180 + 6 * i + 6] = 4          # noble requirements
    for seat in range(4):
        at = 210 + 58 * seat
        s[at + 1:at + 7] = 7                            # tokens
        s[at + 7:at + 12] = 7                           # bonuses
        s[at + 12] = 15                                 # points
        s[at + 13] = 20                                 # cards bought
        s[at + 14] = 3                                  # nobles
        s[at + 15] = 3                                  # reserved count
        for r in range(3):
            card(at + 16 + 14 * r)
            s[at + 16 + 14 * r + 13] = 3                # reserved level
    return s


def layer_init(layer: nn.Linear, std: float = np.sqrt(2), bias: float = 0.0) -> nn.Linear:
    nn.init.orthogonal_(layer.weight, std)
    nn.init.constant_(layer.bias, bias)
    return layer


class MLPPolicy(nn.Module):
    """Separate actor and critic MLPs (CleanRL style) over the scaled observation. Illegal actions get
    `MASKED_LOGIT` before the Categorical."""

    def __init__(self, obs_dim: int = 442, num_actions: int = 78, hidden: int = 256, layers: int = 2,
                 activation: str = "tanh"):
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

        self.register_buffer("obs_scale", torch.from_numpy(1.0 / splendor_obs_scale(obs_dim)))
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

    def act_value(self, x: torch.Tensor, mask: torch.Tensor, action: torch.Tensor | None = None):
        """(action, log_prob, entropy, value); samples the action when none is given."""
        dist = Categorical(logits=self.masked_logits(x, mask))
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.value(x)

    @torch.no_grad()
    def greedy(self, obs: Any, mask: Any) -> np.ndarray:
        """The most probable legal action per row (numpy in, numpy out)."""
        logits = self.masked_logits(self.prep(obs), torch.as_tensor(np.asarray(mask, dtype=bool)))
        return logits.argmax(-1).numpy()


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
