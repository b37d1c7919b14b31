"""splendor_rl.sample_legal: legal, close to uniform, reproducible; no server needed."""

import numpy as np

from splendor_rl import sample_legal


def test_picks_only_legal_actions_close_to_uniformly():
    rng = np.random.default_rng(0)
    masks = np.zeros((20000, 78), bool)
    legal = [3, 10, 11, 40, 77]
    masks[:, legal] = True
    picks = sample_legal(masks, rng)
    assert set(picks.tolist()) == set(legal)
    counts = np.bincount(picks, minlength=78)[legal]
    assert np.all(np.abs(counts / len(masks) - 0.2) < 0.01), counts  # 20000 draws: 1 % is > 3 standard errors


def test_rows_differ_uint8_masks_work_and_an_empty_row_gets_0():
    rng = np.random.default_rng(1)
    masks = np.ones((4, 281), np.uint8)
    masks[2] = 0
    picks = sample_legal(masks, rng)
    assert picks[2] == 0 and len(set(picks[[0, 1, 3]].tolist())) > 1


def test_same_generator_state_same_picks():
    masks = np.random.default_rng(5).random((64, 78)) < 0.3
    masks[:, 0] = True
    assert np.array_equal(sample_legal(masks, np.random.default_rng(9)), sample_legal(masks, np.random.default_rng(9)))
