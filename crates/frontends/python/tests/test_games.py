"""Every registered game (``kessel_sabacc.games()``) through every seam, with nothing named: its
description (``game_info``), the one game class, the PettingZoo and Gymnasium envs, the two
vector classes (masks of ``num_actions`` bools), agents and the arena. A game added to the
registry is tested here without a change."""

import json
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import kessel_sabacc
from kessel_sabacc import Game, SingleVecEnv, VecEnv, _native
from lockstep import play_in_lockstep

GAMES = _native.games()

# As in test_pettingzoo.py: PettingZoo warns about every Dict-observation env outside its lists.
ALLOWED = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
}


def tables(info):
    """The smallest and largest table of a game."""
    return sorted({info.seats[0], info.seats[1]})


def test_the_registry_lists_the_games_default_first():
    assert GAMES[0] == "kessel"
    assert len(GAMES) == len(set(GAMES)) >= 2


@pytest.mark.parametrize("game", GAMES)
def test_game_info_describes_the_game(game):
    info = kessel_sabacc.game_info(game)
    assert info.id == game and kessel_sabacc.game_info(info.env_id).id == game
    assert info.obs_len > 0 and info.num_actions > 0 and info.obs_version >= 1
    assert info.env_id.endswith(f"_v{info.obs_version}")
    names = info.action_names
    assert len(names) == info.num_actions == len(set(names)) and names == kessel_sabacc.action_names(game)
    low, high = info.seats
    assert 2 <= low <= info.default_players <= high <= info.max_players == kessel_sabacc.MAX_PLAYERS
    assert info.default_reward in ("win-loss", "placement", "payoff")
    assert info.default_opponent in [n.split(":")[0] for n in _native.agent_names(game)]
    for n in tables(info):
        lo, hi = kessel_sabacc.observation_bounds(game, n)
        assert lo.shape == hi.shape == (info.obs_len,) and lo.dtype == hi.dtype == np.float32
        assert np.all(lo <= hi)
    with pytest.raises(ValueError, match="num_players"):
        kessel_sabacc.observation_bounds(game, high + 1)
    assert kessel_sabacc.gym_id(game) in gymnasium.registry


@pytest.mark.parametrize("game", GAMES)
def test_the_game_class_plays_whole_games_with_masks_of_num_actions(game):
    info = kessel_sabacc.game_info(game)
    for players in tables(info):
        lo, hi = kessel_sabacc.observation_bounds(game, players)
        g = Game(players, game=game)
        assert (g.game, g.num_players) == (game, players)
        rng = np.random.default_rng(players)
        for seed in range(5):
            g.reset(seed)
            assert g.seed == seed and g.episode_steps == 0 and not g.done
            while not g.done:
                mask = g.action_mask()
                assert mask.shape == (info.num_actions,) and mask.dtype == bool
                assert np.flatnonzero(mask).tolist() == g.legal_actions()
                for seat in range(players):
                    obs, seat_mask = g.observe(seat)
                    assert obs.shape == (info.obs_len,) and seat_mask.shape == (info.num_actions,)
                    assert np.all(lo <= obs) and np.all(obs <= hi), f"{game}: observation out of bounds"
                    assert np.array_equal(seat_mask.astype(bool), mask if seat == g.actor else np.zeros_like(mask))
                g.step(int(rng.choice(g.legal_actions())))
            assert g.actor is None and not g.action_mask().any() and g.terminated != g.truncated
            assert len(g.returns) == players and abs(sum(g.returns)) < 1e-4
            assert g.returns == g.rewards
    # The default table, and the default rules in force.
    assert Game(game=game).num_players == info.default_players
    with pytest.raises(ValueError, match="num_players"):
        Game(info.seats[1] + 1, game=game)


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_api_test_passes_for_every_game(game):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env = kessel_sabacc.env(game=game)
        api_test(env, num_cycles=300)
    assert [str(w.message) for w in caught if str(w.message) not in ALLOWED] == []
    assert env.metadata["name"] == kessel_sabacc.game_info(game).env_id


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_check_env_passes_for_every_game(game):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env = gymnasium.make(kessel_sabacc.gym_id(game), opponents=None).unwrapped
        check_env(env)
    assert [str(w.message) for w in caught] == []
    info = kessel_sabacc.game_info(game)
    assert env.game == game and env.num_players == info.default_players
    assert env.opponents == [info.default_opponent] * (info.default_players - 1)
    assert env.action_space == gymnasium.spaces.Discrete(info.num_actions)


@pytest.mark.parametrize("game", GAMES)
def test_the_self_play_vector_env_equals_single_games_for_every_game(game):
    info = kessel_sabacc.game_info(game)
    n, seed, players = 4, 13, info.seats[0]
    venv = VecEnv(n, num_players=players, seed=seed, num_threads=2, game=game)
    assert venv.game == game
    assert venv.obs.shape == (n, info.obs_len) and venv.action_mask.shape == (n, info.num_actions)
    assert venv.action_mask.dtype == bool and venv.single_action_space.n == info.num_actions
    games = [Game(players, game=game) for _ in range(n)]
    assert play_in_lockstep(venv, games, seed, 400, np.random.default_rng(2)) >= 1
    for _ in range(20):
        a = venv.sample_actions()
        assert venv.action_mask[np.arange(n), a].all()
        venv.step(a)
    venv.step_random(100, seed=1)
    assert all(len(f["returns"]) == players for f in venv.finished())


@pytest.mark.parametrize("game", GAMES)
def test_the_learner_vector_env_equals_single_learner_envs_for_every_game(game):
    info = kessel_sabacc.game_info(game)
    n, opponents = 3, ["random"] * (info.seats[0] - 1)
    venv = SingleVecEnv(n, opponents=opponents, seed=5, game=game)
    assert venv.game == game and venv._native.game == game
    singles = [kessel_sabacc.SingleAgentEnv(opponents=opponents, game=game) for _ in range(n)]
    obs, info_ = venv.reset(seed=5)
    assert obs.shape == (n, info.obs_len) and info_["action_mask"].shape == (n, info.num_actions)
    assert venv.action_masks().dtype == bool
    episode = [0] * n
    for i, s in enumerate(singles):
        o, _ = s.reset(seed=kessel_sabacc.episode_seed(5, i, 0))
        assert np.array_equal(o, obs[i])
    rng = np.random.default_rng(1)
    finished = 0
    for _ in range(150):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in venv.action_masks()])
        obs, rew, term, trunc, info_ = venv.step(actions)
        for i, s in enumerate(singles):
            o, r, t, u, _ = s.step(int(actions[i]))
            assert (r, t, u) == (float(rew[i]), bool(term[i]), bool(trunc[i]))
            if t or u:
                finished += 1
                assert np.array_equal(info_["final_obs"][i], o)
                episode[i] += 1
                o, _ = s.reset(seed=kessel_sabacc.episode_seed(5, i, episode[i]))
            assert np.array_equal(o, obs[i])
    assert finished > 0
    with pytest.raises(ValueError, match="opponents must list"):
        SingleVecEnv(1, opponents=["random"] * info.seats[1], game=game)


@pytest.mark.parametrize("game", GAMES)
def test_agents_and_the_arena_play_every_game(game):
    info = kessel_sabacc.game_info(game)
    venv = VecEnv(4, num_players=info.seats[0], seed=1, game=game)
    random = kessel_sabacc.agent("random", seed=2, game=game)
    assert random.game == game and random.acts_from_obs
    actions = random.act(venv.obs, venv.action_mask)
    assert actions.shape == (4,) and venv.action_mask[np.arange(4), actions].all()
    bot = kessel_sabacc.agent(info.default_opponent, seed=3, game=game)
    actions = bot.act_vec(venv)
    assert venv.action_mask[np.arange(4), actions].all()
    g = Game(info.seats[0], game=game)
    g.reset(0)
    assert bot.act_game(g) in g.legal_actions()
    other = next((o for o in GAMES if o != game), None)
    if other is not None:
        with pytest.raises(ValueError, match=f"plays {game} but the game is {other}"):
            bot.act_game(Game(kessel_sabacc.game_info(other).seats[0], game=other))
    report = kessel_sabacc.arena(["random", info.default_opponent], games=8, seed=1, game=game)
    # The default game's reports leave the game out, as they always have.
    assert report["settings"].get("game", "kessel") == game and report["settings"]["games"] >= 8
    deals = _native.arena_deals(info.seats[0], 8, game)
    shards = [_native.arena_shard(["random", "random"], r, games=8, game=game) for r in [(0, 1), (1, deals)]]
    merged = _native.arena_merge(shards, ["random", "random"], games=8, game=game)
    assert kessel_sabacc.arena(["random", "random"], games=8, game=game) == json.loads(merged)
