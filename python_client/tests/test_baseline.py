"""The server's baseline bots play a network exactly as torch does: `bot_actions("baseline")` equals the argmax of
the same file's network (splendor_rl.pvnet) over the legal actions on 10,000 positions of each game, the network
evaluated in pure Go (env/nets): random networks by a server started with `--baselines DIR`, and the shipped ones
(the repository's baselines/) by a server with its defaults, which plays those built into its binary."""

from __future__ import annotations

import re

import numpy as np
import pytest

import splendor_rl
from splendor_rl import LocalServer

from .conftest import REPO

torch = pytest.importorskip("torch")
pvnet = pytest.importorskip("splendor_rl.pvnet")

POSITIONS, ENVS = 10_000, 500
SHIPPED = sorted((REPO / "baselines").glob("*.safetensors"))
GAMES = [("splendor-v1", {"players": 2}, "splendor-v1-2p"), ("splendor-v1", {"players": 3}, "splendor-v1-3p"),
         ("splendor-duel-v1", {}, "splendor-duel-v1-2p")]


def positions(url: str, env_id: str, options: dict, rng: np.random.Generator):
    """POSITIONS positions of random play, ENVS games at a time, as (env, its observations and masks) batches."""
    envs = splendor_rl.make_vec(env_id, num_envs=ENVS, seed=7, url=url, autoreset="same_step", **options)
    obs, infos = envs.reset()
    for _ in range(POSITIONS // ENVS):
        yield envs, obs, infos["action_mask"]
        actions = [rng.choice(np.flatnonzero(m)) for m in infos["action_mask"]]
        obs, _, _, _, infos = envs.step(np.array(actions))
    envs.close()


@pytest.fixture(scope="module")
def networks(tmp_path_factory):
    """A random network per game with a realistic input scale, and a server that plays them as its baselines."""
    folder = tmp_path_factory.mktemp("baselines")
    nets = {}
    with LocalServer() as plain:
        for env_id, options, name in GAMES:
            envs = splendor_rl.make_vec(env_id, num_envs=8, url=plain.url, **options)
            obs, _ = envs.reset()
            torch.manual_seed(len(nets))
            net = pvnet.PolicyValueNet(obs.shape[1], envs.single_action_space.n, 64, 2,
                                       scale=np.full(obs.shape[1], 0.25, np.float32))
            envs.close()
            pvnet.save(net, str(folder / f"{name}.safetensors"), env_id, {"features": "none", **options})
            nets[name] = pvnet.load(str(folder / f"{name}.safetensors"))[0]
    with LocalServer(args=("--baselines", str(folder))) as srv:
        yield srv.url, nets


@pytest.mark.parametrize("env_id,options,name", GAMES)
def test_baseline_is_the_networks_argmax(networks, env_id, options, name):
    url, nets = networks
    rng, checked = np.random.default_rng(1), 0
    for envs, obs, mask in positions(url, env_id, options, rng):
        played = envs.bot_actions("baseline")
        np.testing.assert_array_equal(played, nets[name].greedy(obs, mask))
        checked += len(played)
    assert checked == POSITIONS


def test_the_tools_take_baseline_bots(networks):
    from splendor_rl.arena import parse_entrant

    from .test_examples import evaluate, parse

    url, _ = networks
    assert parse_entrant("baseline").kind == parse_entrant("b=baseline+search:8").kind == "bot"
    assert parse_entrant("baseline@2026-11-26+search:8").kind == "bot"
    assert parse(evaluate(url, "--policy", "baseline+search:8", "--opponent", "baseline", "--games", "4"))[:2] == \
        ("baseline+search:8", "baseline")


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_shipped_baseline_is_its_files_argmax(path):
    net, env_id, options = pvnet.load(str(path))
    named_env, players, edition = re.fullmatch(r"(.+?)-(\d)p(?:@(.+))?", path.stem).groups()
    assert (named_env, options.get("players", 2)) == (env_id, int(players))  # what the name says it was trained for
    bot = f"baseline@{edition}" if edition else "baseline"
    rng, checked = np.random.default_rng(2), 0
    with LocalServer() as srv:
        for envs, obs, mask in positions(srv.url, env_id, options, rng):
            np.testing.assert_array_equal(envs.bot_actions(bot), net.greedy(obs, mask))
            checked += len(obs)
    assert checked == POSITIONS
