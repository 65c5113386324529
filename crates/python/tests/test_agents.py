"""Agents and the arena from Python."""

import numpy as np
import pytest

import kessel_sabacc
from kessel_sabacc import Game, VecEnv


def checkpoint(repo, mode=""):
    return str(repo / "checkpoints" / "quick-4p") + mode


@pytest.mark.parametrize("spec", ["random", "greedy", "expert", "search:8"])
def test_bots_play_legal_actions_on_games_and_vector_envs(spec):
    agent = kessel_sabacc.agent(spec, seed=1)
    venv = VecEnv(8, seed=3)
    for _ in range(30):
        actions = agent.act_vec(venv)
        assert venv.action_mask[np.arange(8), actions].all()
        venv.step(actions)
    game = Game(3)
    game.reset(4)
    while not game.done:
        a = agent.act_game(game)
        assert a in game.legal_actions()
        game.step(a)


def test_checkpoint_acts_from_observations_in_batches(repo):
    agent = kessel_sabacc.agent(checkpoint(repo, "@argmax"))
    assert agent.acts_from_obs
    venv = VecEnv(16, seed=2)
    actions = agent.act(venv.obs, venv.action_mask)
    assert actions.shape == (16,) and actions.dtype == np.int64
    assert venv.action_mask[np.arange(16), actions].all()
    # Argmax play from observations equals the same agent playing from the seats' views.
    assert np.array_equal(actions, agent.act_vec(venv))
    # One row in, one int out.
    one = agent.act(venv.obs[0], venv.action_mask[0].astype(np.int8))
    assert one == actions[0]


def test_random_agent_acts_from_masks_reproducibly():
    venv = VecEnv(8, seed=0)
    a = kessel_sabacc.agent("random", seed=5).act(venv.obs, venv.action_mask)
    b = kessel_sabacc.agent("random", seed=5).act(venv.obs, venv.action_mask)
    assert np.array_equal(a, b)
    assert venv.action_mask[np.arange(8), a].all()


def test_bots_refuse_observation_only_acting():
    venv = VecEnv(2, seed=0)
    with pytest.raises(TypeError, match="full view"):
        kessel_sabacc.agent("expert").act(venv.obs, venv.action_mask)


def test_unknown_specs_list_what_exists():
    with pytest.raises(ValueError, match="random, greedy, expert"):
        kessel_sabacc.agent("grandmaster")
    with pytest.raises(ValueError, match="search budget"):
        kessel_sabacc.agent("search:0")
    with pytest.raises(ValueError, match="unknown agent `no/such/checkpoint`.*sabacc agents"):
        kessel_sabacc.agent("no/such/checkpoint")


def test_arena_returns_the_report_and_ranks_the_bots():
    report = kessel_sabacc.arena(["expert", "random"], games=200, seed=1)
    assert report["settings"]["players"] == 2
    assert report["settings"]["games"] >= 200
    rates = {a["name"]: a["win_rate"] for a in report["agents"]}
    assert rates["expert"] > 0.7 > rates["random"]
    # Same seed, same tournament.
    again = kessel_sabacc.arena(["expert", "random"], games=200, seed=1)
    assert again["agents"] == report["agents"]


def test_arena_refuses_bad_settings():
    with pytest.raises(ValueError, match="unknown agent"):
        kessel_sabacc.arena(["expert", "nobody"])
    with pytest.raises(ValueError, match="seats"):
        kessel_sabacc.arena(["expert", "random", "greedy"], players=2)
