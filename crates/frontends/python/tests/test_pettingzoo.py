"""The PettingZoo AEC env: PettingZoo's own checkers, then what they do not cover (whole games
over many seeds, seeding, bounds, rewards, rendering, scenarios)."""

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import kessel_sabacc
from kessel_sabacc import _native

# PettingZoo raises these two for every Dict-observation env outside its own lists (its masked
# classic games are listed): the observation is a dict, and its space is neither Box nor Discrete.
ALLOWED = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
}


def unexpected(caught):
    return [str(w.message) for w in caught if str(w.message) not in ALLOWED]


@pytest.mark.parametrize("make", [kessel_sabacc.raw_env, kessel_sabacc.env], ids=["raw", "wrapped"])
@pytest.mark.parametrize("players", [2, 4, 8])
def test_pettingzoo_api_test_passes_without_other_warnings(make, players):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(make(num_players=players), num_cycles=1000)
    assert unexpected(caught) == []


@pytest.mark.parametrize("make", [kessel_sabacc.raw_env, kessel_sabacc.env], ids=["raw", "wrapped"])
def test_pettingzoo_seed_test_passes(make):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        seed_test(lambda: make(num_players=4), num_cycles=500)
    assert unexpected(caught) == []


def play_random_episode(env, rng):
    """Plays one episode with random legal actions; returns (final rewards, steps)."""
    total = {a: 0.0 for a in env.possible_agents}
    steps = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        space = env.observation_space(agent)
        assert space.contains(obs), f"observation out of bounds for {agent}"
        assert obs["action_mask"].dtype == np.int8
        assert isinstance(terminated, bool) and isinstance(truncated, bool)
        total[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0, "a live agent always has a legal action"
        assert sorted(legal.tolist()) == sorted(env.legal_actions())
        env.step(int(rng.choice(legal)))
        steps += 1
    assert env.agents == []
    return total, steps


@pytest.mark.parametrize("players", [2, 3, 4, 6, 8])
def test_whole_games_over_many_seeds_pay_zero_sum_rewards(players):
    env = kessel_sabacc.raw_env(num_players=players)
    rng = np.random.default_rng(players)
    episodes = 400 if players <= 4 else 150
    wins = np.zeros(players)
    for seed in range(episodes):
        env.reset(seed=seed)
        total, steps = play_random_episode(env, rng)
        values = np.array([total[a] for a in env.possible_agents])
        assert steps > 0
        assert abs(values.sum()) < 1e-5, f"seed {seed}: rewards {values} do not sum to 0"
        if env.game.truncated:
            assert np.all(values == 0)
        else:
            assert values.max() > 0
            wins[np.argmax(values)] += 1
    # Random play wins from every seat.
    assert np.all(wins > 0)


def first_observations(env, seed):
    env.reset(seed=seed)
    return np.stack([env.observe(a)["observation"] for a in env.possible_agents])


def test_same_seed_same_deal_and_game():
    a, b = kessel_sabacc.raw_env(), kessel_sabacc.raw_env()
    for seed in [0, 1, 12345, 2**64 - 1]:
        assert np.array_equal(first_observations(a, seed), first_observations(b, seed))
        rng_a, rng_b = np.random.default_rng(7), np.random.default_rng(7)
        a.reset(seed=seed)
        b.reset(seed=seed)
        ta, sa = play_random_episode(a, rng_a)
        tb, sb = play_random_episode(b, rng_b)
        assert (ta, sa) == (tb, sb)


def test_different_seeds_deal_different_hands():
    env = kessel_sabacc.raw_env(num_players=4)
    # Hands are dealt at the start of round 1; the first decision may be a token choice before it,
    # so compare the seats' whole first observations and the engine's own seed.
    deals = {first_observations(env, seed).tobytes() for seed in range(50)}
    assert len(deals) >= 45


def test_reset_without_seed_continues_the_seed_stream():
    a, b = kessel_sabacc.raw_env(), kessel_sabacc.raw_env()
    a.reset(seed=9)
    b.reset(seed=9)
    seeds_a, seeds_b = [], []
    for _ in range(3):
        a.reset()
        b.reset()
        seeds_a.append(a.game.seed)
        seeds_b.append(b.game.seed)
    assert seeds_a == seeds_b
    assert len(set(seeds_a)) == 3 and 9 not in seeds_a


def test_spaces_are_the_same_objects_and_dtypes_match():
    env = kessel_sabacc.raw_env()
    env.reset(seed=0)
    for a in env.possible_agents:
        assert env.observation_space(a) is env.observation_space(a)
        assert env.action_space(a) is env.action_space(a)
        obs = env.observe(a)
        assert obs["observation"].dtype == env.observation_space(a)["observation"].dtype
        assert obs["action_mask"].dtype == env.observation_space(a)["action_mask"].dtype


def test_render_ansi_shows_every_seat_chips_and_tokens():
    # The text of `sabacc scenario`: seats are `seat i` (agent `player_i`).
    env = kessel_sabacc.raw_env(num_players=3, render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    for i in range(3):
        assert f"seat {i}: " in text
    assert "stock" in text and "hand pot" in text and "tokens:" in text
    assert f"decision: seat {env.game.actor} " in text and "legal actions: " in text
    assert "what happened" not in text  # the env keeps no event log
    while not env.game.done:
        env.step(env.legal_actions()[0])
    end = env.render()
    assert "game over: seat 0 " in end and "settlement of round " in end


def test_scenario_loads_from_json(repo):
    path = repo / "crates" / "games" / "kessel" / "scenarios" / "embargo_wrap.json"
    env = kessel_sabacc.load_scenario(str(path))
    env.reset()
    game = _native.Game.from_scenario(path.read_text())
    agent = env.agent_selection
    assert agent == f"player_{game.actor}"
    assert np.array_equal(env.observe(agent)["observation"], game.observe(game.actor)[0])
    # A later reset deals a fresh game.
    env.reset(seed=1)
    assert env.game.seed == 1
