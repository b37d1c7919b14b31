"""Seeds: how they are checked, spread over a batch's envs and derived (PROTOCOL.md §6, Seeds). Shared by the env
adapters and the search ops, which the vector env mixes in."""

from __future__ import annotations

import operator
from collections.abc import Iterable
from typing import Any

import numpy as np

from .errors import BadSeed


def derive_seed(seed: int, *keys: int) -> int:
    """A 64-bit seed from `seed` and `keys`, far from `seed + i`: the first word of
    `numpy.random.SeedSequence([seed, *keys]).generate_state(1, numpy.uint64)`, the same on every machine."""
    return int(np.random.SeedSequence([seed, *keys]).generate_state(1, np.uint64)[0])


SEED_RULE = "seeds must be non-negative integers below 2**64 (or a list of them, one per env)"


def check_seed(seed: Any) -> int:
    """`seed` as an int; anything else is refused with the rule (int() would truncate 1.5 to 1)."""
    try:
        value = operator.index(seed)
    except TypeError:
        value = -1
    if not 0 <= value < 2**64:
        raise BadSeed(f"{SEED_RULE}; got {seed!r}")
    return value


def seed_list(seed: Any, count: int) -> list[int] | None:
    """reset's `seed` as one seed per env reset: an int s gives s, s+1, … modulo 2**64, as `make`'s seed deals
    the envs of a batch (so every allowed seed works for any number of envs); None leaves each env's next seed."""
    if seed is None:
        return None
    if isinstance(seed, (int, np.integer)):
        base = check_seed(seed)
        return [(base + i) % 2**64 for i in range(count)]
    if isinstance(seed, (str, bytes)) or not isinstance(seed, Iterable):
        raise BadSeed(f"{SEED_RULE}; got {seed!r}")
    return [check_seed(s) for s in seed]
