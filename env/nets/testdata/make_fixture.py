"""Writes the fixtures of env/nets's tests: small random networks saved by splendor_rl.pvnet.save, and torch's own
outputs for them, so that the Go evaluator is checked against the network as Python defines it.

For each case: `<name>.safetensors`, and an entry of `fixtures.json` with the sizes, env id and options, ~50 uint8
observations, a legal-action mask for each, and torch's logits, values (a row of one value or one per seat; computed
in float64 from the file's float32 weights) and argmax over the legal actions. Run from the repository root (needs torch and safetensors):

    PYTHONPATH=python_client python env/nets/testdata/make_fixture.py

A rerun writes the same numbers, but the metadata's keys may come in another order (safetensors keeps them in a hash
map), so the .safetensors files may differ byte for byte: keep the committed ones unless the cases change.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import torch

from splendor_rl import pvnet

HERE = Path(__file__).parent
SAMPLES = 50

# Sizes that are not multiples of 4 or 8, 1 to 3 trunk layers, and a value head of one value or one per seat, so
# that neither a loop's tail nor the chain of layers nor the heads is tested only in its easy shape.
CASES = [
    {"name": "mlp2", "obs": 30, "actions": 11, "hidden": 16, "layers": 2, "env": "splendor-v1",
     "options": {"players": 3, "mode": "vs_bots", "bots": "greedy"}},
    {"name": "mlp3", "obs": 23, "actions": 7, "hidden": 13, "layers": 3, "env": "splendor-duel-v1",
     "options": {"features": "derived"}},
    {"name": "mlp1", "obs": 17, "actions": 5, "hidden": 9, "layers": 1, "env": "splendor-v1", "options": {}},
    {"name": "mlp2seats", "obs": 30, "actions": 11, "hidden": 16, "layers": 2, "values": 3, "env": "splendor-v1",
     "options": {"players": 3}},
]


def observations(rng: np.random.Generator, obs: int) -> np.ndarray:
    """Mostly small counts and zeros as the envs serve them, a row of zeros, and a row of the largest uint8."""
    x = rng.integers(0, 5, size=(SAMPLES, obs)) * (rng.random((SAMPLES, obs)) < 0.4)
    x[0] = 0
    x[1] = 255
    return x.astype(np.uint8)


def masks(rng: np.random.Generator, actions: int) -> np.ndarray:
    """Random legal sets, each with at least one action; the first allows everything, the second one action."""
    m = rng.random((SAMPLES, actions)) < 0.5
    m[0] = True
    m[1] = False
    m[1, actions - 1] = True
    m[np.arange(SAMPLES), rng.integers(0, actions, SAMPLES)] = True
    return m


def make(case: dict, seed: int) -> dict:
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    scale = rng.uniform(0.05, 2.0, case["obs"]).astype(np.float32)
    net = pvnet.PolicyValueNet(case["obs"], case["actions"], case["hidden"], case["layers"], scale,
                               case.get("values", 1))
    with torch.no_grad():  # biases as large as the weights, so that ReLU zeroes a fair share of each layer
        for p in net.parameters():
            p.uniform_(-0.5, 0.5)
    pvnet.save(net, str(HERE / f"{case['name']}.safetensors"), case["env"], case["options"])

    obs, mask = observations(rng, case["obs"]), masks(rng, case["actions"])
    with torch.no_grad():
        logits, values = net.double()(torch.from_numpy(obs))
    legal = torch.where(torch.from_numpy(mask), logits, -torch.inf)
    top2 = legal.topk(2, dim=1).values
    gap = (top2[:, 0] - top2[:, 1]).nan_to_num(posinf=1.0)  # one legal action: no rival
    assert gap.min() > 1e-3, f"{case['name']}: near tie in the argmax ({gap.min():.2e}): pick another seed"
    return {**{k: case[k] for k in ("name", "obs", "actions", "hidden", "layers", "env", "options")},
            "observations": obs.tolist(), "masks": mask.astype(np.uint8).tolist(),
            "logits": logits.tolist(), "values": values.reshape(SAMPLES, -1).tolist(),
            "argmax": legal.argmax(dim=1).tolist()}


def main() -> None:
    fixtures = [make(case, seed) for seed, case in enumerate(CASES, start=1)]
    (HERE / "fixtures.json").write_text(json.dumps(fixtures, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
