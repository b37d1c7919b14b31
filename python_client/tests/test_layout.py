"""The spec's `layout` (PROTOCOL.md; docs/envs/*.md, "Layout"): named blocks that cover the observation once, read by
name in Python as the server encodes, and the divisors of splendor_rl.policy found through it."""

import numpy as np
import pytest

import splendor_rl
from splendor_rl.policy import obs_divisors


@pytest.mark.parametrize("env_id,features", [("splendor-v1", "none"), ("splendor-v1", "derived"),
                                             ("splendor-duel-v1", "derived")])
def test_the_blocks_cover_the_observation_once(url, env_id, features):
    envs = splendor_rl.make_vec(env_id, num_envs=1, seed=0, url=url, features=features)
    layout = envs.layout
    assert layout.size == envs.single_observation_space.shape[0]
    seen = np.concatenate([b.index.ravel() for b in layout])
    assert np.array_equal(np.sort(seen), np.arange(layout.size))
    for block in layout:
        assert block.index.shape == block.shape and len(block.fields) == block.shape[-1]
    envs.close()


def test_a_fresh_deal_read_by_name(url):
    """Three players at the deal: every seat present but the fourth, 5 tokens of each gem and 5 gold in the bank,
    12 cards in the market whose points and costs are a card's, 4 nobles out of 5 slots, empty hands."""
    envs = splendor_rl.make_vec("splendor-v1", num_envs=8, seed=3, url=url, players=3)
    obs, _ = envs.reset()
    layout = envs.layout
    assert (obs[:, layout["seats"].at("present")] == [1, 1, 1, 0]).all()
    assert (obs[:, layout["bank"].index] == [5, 5, 5, 5, 5, 5]).all()
    market = obs[:, layout["market"].index]                     # [8, 3 levels, 4 slots, 12]
    fields = layout["market"].fields
    assert (market[..., fields.index("present")] == 1).all()
    bonus = market[..., [f.startswith("bonus_") for f in fields]]
    assert (bonus.sum(-1) == 1).all(), "one bonus colour per card"
    cost = market[..., [f.startswith("cost_") for f in fields]].sum(-1)
    assert (cost[:, 0] <= 5).all() and (cost[:, 2] >= 7).all(), "level 1 is cheap, level 3 dear"
    assert (obs[:, layout["nobles"].at("present")].sum(-1) == 4).all()
    assert (obs[:, layout["seats"].at("reserved")] == 0).all() and (obs[:, layout["hands"].index] == 0).all()
    assert (obs[:, layout["turn"].at("players")] == 3).all()
    envs.close()


def test_duel_reads_by_name(url):
    """Duel at the deal: 25 board cells hold 25 tokens, the bag is empty, the pyramid is full (5 + 4 + 3), and the
    second player starts with the privilege (the seat block of the one not to play first)."""
    envs = splendor_rl.make_vec("splendor-duel-v1", num_envs=4, seed=3, url=url)
    obs, _ = envs.reset()
    layout = envs.layout
    assert (obs[:, layout["board"].index].sum((1, 2)) == 25).all()
    assert (obs[:, layout["bag"].index].sum(-1) == 0).all()
    assert (obs[:, layout["pyramid"].at("present")].sum(-1) == 12).all()
    assert (obs[:, layout["seats"].at("privileges")] == [0, 1]).all()
    envs.close()


def test_policy_divisors_follow_the_layout(url):
    """Splendor's divisors land on the fields they name wherever the layout puts them; Duel is divided by 8."""
    envs = splendor_rl.make_vec("splendor-v1", num_envs=1, seed=0, url=url)
    layout, d = envs.layout, obs_divisors(envs.layout)
    assert (d[layout["market"].at("cost_red")] == 7).all() and (d[layout["market"].at("points")] == 5).all()
    assert (d[layout["hands"].at("level")] == 3).all() and (d[layout["seats"].at("points")] == 15).all()
    assert (d[layout["phase"].index] == 1).all() and (d[layout["market"].at("present")] == 1).all()
    envs.close()
    duel = splendor_rl.make_vec("splendor-duel-v1", num_envs=1, seed=0, url=url)
    assert (obs_divisors(duel.layout) == 8).all()
    duel.close()
