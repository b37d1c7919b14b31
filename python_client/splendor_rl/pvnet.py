"""The policy-value network of splendor_rl.alphazero, and its portable file, which the server's `baseline` bots
read without Python (env/nets): a multilayer perceptron over one seat's observation with a policy head (logits over
the fixed action space) and a value head (tanh): the seat to play's expected terminal reward, or with `values` =
players every seat's, from the seat to play's view (column k is seat (s + k) mod players's for seat s to play, as
observations rotate seats), which the server's search backs up as max-n.

The file is safetensors (chosen because it is a plain, documented layout that Go reads in a few lines, and torch
writes it without pickle): float32 tensors `scale` [obs] (the observation is multiplied by it), `trunk.{i}.weight`
[out, in] and `trunk.{i}.bias` [out] for each hidden layer (ReLU after each), `policy.weight` [actions, hidden],
`policy.bias`, `value.weight` [values, hidden], `value.bias` [values] (values 1, or one per seat); metadata
`format` (FORMAT), `env` (the env id) and `options` (the env options it was trained with, JSON). Needs torch and safetensors (the `train` extra).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import torch
from safetensors.torch import load_file, safe_open, save_file
from torch import nn

FORMAT = "splendor-rl/pv-mlp/1"

# Masked logits: large and negative, but finite.
MASKED_LOGIT = -1e8


class PolicyValueNet(nn.Module):
    """`forward(obs)` → (logits [B, actions], value [B] in (−1, 1)), or with `values` > 1 every seat's values
    [B, values] (the seat to play's first). `scale` multiplies the raw observation (uint8 or float32 values as the
    env serves them) before the first layer."""

    def __init__(self, obs_dim: int, num_actions: int, hidden: int = 256, layers: int = 2,
                 scale: np.ndarray | None = None, values: int = 1):
        super().__init__()
        self.config = {"obs_dim": int(obs_dim), "num_actions": int(num_actions), "hidden": int(hidden),
                       "layers": int(layers), "values": int(values)}
        self.register_buffer("scale", torch.ones(obs_dim) if scale is None else torch.as_tensor(scale, dtype=torch.float32))
        widths = [obs_dim] + [hidden] * layers
        self.trunk = nn.ModuleList(nn.Linear(a, b) for a, b in zip(widths, widths[1:]))
        self.policy = nn.Linear(widths[-1], num_actions)
        self.value = nn.Linear(widths[-1], values)

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        x = obs.float() * self.scale
        for layer in self.trunk:
            x = torch.relu(layer(x))
        value = torch.tanh(self.value(x))
        return self.policy(x), value.squeeze(-1) if value.shape[-1] == 1 else value

    def evaluate(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(logits with MASKED_LOGIT where mask is False, value)."""
        logits, value = self(obs)
        return logits.masked_fill(~mask, MASKED_LOGIT), value

    # The interface of splendor_rl.policy.MLPPolicy that `splendor_rl.evaluate` plays.

    def prep(self, obs: Any) -> torch.Tensor:
        """numpy observations as a tensor (the scaling is the network's own)."""
        return torch.from_numpy(np.array(obs))

    def masked_logits(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return self.evaluate(x, mask)[0]

    @torch.no_grad()
    def greedy(self, obs: Any, mask: Any) -> np.ndarray:
        """The most probable legal action per row (numpy in, numpy out)."""
        return self.masked_logits(self.prep(obs), torch.from_numpy(np.array(mask, bool))).argmax(-1).numpy()


def observation_scale(obs: np.ndarray) -> np.ndarray:
    """Per-feature multipliers that bring a sample of observations into [0, 1]: 1 / max(1, the feature's largest
    value in the sample)."""
    return (1.0 / np.maximum(1.0, obs.reshape(-1, obs.shape[-1]).max(axis=0))).astype(np.float32)


def save(net: PolicyValueNet, path: str, env_id: str, options: dict[str, Any]) -> None:
    """Write net as a portable file for env_id made with options (the module docstring has the layout)."""
    tensors = {k: v.detach().to(torch.float32).contiguous() for k, v in net.state_dict().items()}
    save_file(tensors, path, metadata={"format": FORMAT, "env": env_id, "options": json.dumps(options, sort_keys=True)})


def read_env(path: str) -> tuple[str, dict[str, Any]]:
    """The env id and env options a portable file's network was trained on (ValueError if it is no such file)."""
    try:
        with safe_open(path, framework="pt") as f:
            meta = f.metadata() or {}
    except Exception as exc:  # OSError, or whatever safetensors raises on a file that is not one
        raise ValueError(f"{path}: {exc}") from exc
    if meta.get("format") != FORMAT:
        raise ValueError(f"{path}: format {meta.get('format')!r}, want {FORMAT!r}")
    return meta["env"], json.loads(meta["options"])


def load(path: str) -> tuple[PolicyValueNet, str, dict[str, Any]]:
    """A portable file's network, env id and env options."""
    env_id, options = read_env(path)
    tensors = load_file(path)
    layers = sum(1 for k in tensors if k.startswith("trunk.") and k.endswith(".weight"))
    hidden, obs_dim = tensors["trunk.0.weight"].shape
    net = PolicyValueNet(obs_dim, tensors["policy.weight"].shape[0], hidden, layers,
                         values=tensors["value.weight"].shape[0])
    net.load_state_dict(tensors)
    return net, env_id, options
