"""A random legal action per row of a batch of masks, fast: what smoke tests, baselines and the bench use."""

from __future__ import annotations

import numpy as np


def sample_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One legal action per row of `masks` ([n, actions], bool or 0/1), nearly uniform: the argmax of random 16-bit
    keys, made non-zero, where the mask allows (two legal actions drawing the same key, about 1 % of rows with 30
    legal actions, go to the lower index). The keys are the generator's raw 64-bit output cut in four, which is
    twice as fast as `rng.integers`; a row with no legal action gets 0."""
    masks = np.asarray(masks)
    if masks.dtype == np.bool_:
        masks = masks.view(np.uint8)
    words = rng.bit_generator.random_raw(-(-masks.size // 4))
    keys = words.view(np.uint16)[:masks.size].reshape(masks.shape) | np.uint16(1)
    keys *= masks
    return keys.argmax(axis=1)
