"""Classic Sabacc through the same seams as Kessel: the PettingZoo AEC env
(``env(game="classic")``) under PettingZoo's own checkers, the Gymnasium env
(``ClassicSabacc-v0``) under ``check_env``, whole games, wrong actions, rules, ids, and the
former per-game names (``ClassicGame``, ``CLASSIC_*``) as aliases of the generic API."""

import json
import re
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import kessel_sabacc
from kessel_sabacc import Game
from lockstep import play_in_lockstep

GYM_ID = "ClassicSabacc-v0"

# As for Kessel (test_pettingzoo.py): PettingZoo warns about every Dict-observation env outside
# its own lists.
ALLOWED = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
}


def unexpected(caught):
    return [str(w.message) for w in caught if str(w.message) not in ALLOWED]


def raw(**kwargs):
    return kessel_sabacc.raw_env(game="classic", **kwargs)


def wrapped(**kwargs):
    return kessel_sabacc.env(game="classic", **kwargs)


def classic_game(*args, **kwargs):
    return Game(*args, game="classic", **kwargs)


@pytest.mark.parametrize("make", [raw, wrapped], ids=["raw", "wrapped"])
@pytest.mark.parametrize("players", [2, 4, 8])
def test_pettingzoo_api_test_passes_without_other_warnings(make, players):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(make(num_players=players), num_cycles=1000)
    assert unexpected(caught) == []


@pytest.mark.parametrize("make", [raw, wrapped], ids=["raw", "wrapped"])
def test_pettingzoo_seed_test_passes(make):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        seed_test(lambda: make(num_players=4), num_cycles=500)
    assert unexpected(caught) == []


@pytest.mark.parametrize("opponents", [None, ["random"], ["greedy", "expert", "random"]])
def test_gymnasium_check_env_passes_without_warnings(opponents):
    kwargs = {} if opponents is None else {"opponents": opponents}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env = gymnasium.make(GYM_ID, **kwargs)
        check_env(env.unwrapped)
    assert [str(w.message) for w in caught] == []
    assert isinstance(env.unwrapped, kessel_sabacc.SingleAgentEnv) and env.unwrapped.game == "classic"


def test_ids_constants_and_spaces():
    assert kessel_sabacc.CLASSIC_ENV_ID == "classic_sabacc_v1"
    assert kessel_sabacc.CLASSIC_GYM_ID == GYM_ID
    assert kessel_sabacc.CLASSIC_ENV_ID.endswith(f"_v{kessel_sabacc.CLASSIC_OBS_VERSION}")
    assert (kessel_sabacc.CLASSIC_OBS_LEN, kessel_sabacc.CLASSIC_NUM_ACTIONS) == (384, 44)
    names = kessel_sabacc.classic_action_names()
    assert len(names) == 44 and names[0] == "check" and len(set(names)) == 44
    env = wrapped(num_players=3)
    assert env.metadata["name"] == kessel_sabacc.CLASSIC_ENV_ID == str(env.unwrapped)
    space = env.observation_space("player_0")
    assert space["observation"].shape == (kessel_sabacc.CLASSIC_OBS_LEN,)
    assert space["action_mask"].shape == (kessel_sabacc.CLASSIC_NUM_ACTIONS,)
    assert env.action_space("player_0") == gymnasium.spaces.Discrete(44)
    # Card values and totals may be negative; credit ratios are capped at the table size.
    assert space["observation"].low.min() < 0
    high3, high8 = space["observation"].high, kessel_sabacc.observation_bounds("classic", 8)[1]
    credits = high3 != high8
    assert credits.sum() > 0 and np.all(high3[credits] == 3) and np.all(high8[credits] == 8)
    gym = gymnasium.make(GYM_ID).unwrapped
    assert gym.num_players == 4 and gym.opponents == ["expert", "expert", "expert"]
    assert gym.observation_space.shape == (384,) and gym.action_space == gymnasium.spaces.Discrete(44)
    # The Kessel env is unchanged and still the default.
    kessel = kessel_sabacc.raw_env()
    assert kessel.metadata["name"] == kessel_sabacc.ENV_ID == kessel_sabacc.raw_env.metadata["name"]
    assert kessel.action_space("player_0") == gymnasium.spaces.Discrete(kessel_sabacc.NUM_ACTIONS)
    assert isinstance(kessel.game, kessel_sabacc.Game) and kessel.game.game == "kessel"
    # A game is named by its short name or its environment id.
    assert kessel_sabacc.raw_env(game="classic_sabacc_v1").game.game == "classic"
    # An unknown game is refused, listing the registered ones.
    listed = re.escape(", ".join(kessel_sabacc.games()))
    with pytest.raises(ValueError, match=f"unknown game `pazaak`; games: {listed}"):
        kessel_sabacc.raw_env(game="pazaak")
    assert {"kessel", "classic"} <= set(kessel_sabacc.games())


def test_former_names_are_aliases_of_the_generic_api():
    info = kessel_sabacc.game_info("classic")
    assert (kessel_sabacc.CLASSIC_ENV_ID, kessel_sabacc.CLASSIC_OBS_LEN) == (info.env_id, info.obs_len)
    assert (kessel_sabacc.CLASSIC_OBS_VERSION, kessel_sabacc.CLASSIC_NUM_ACTIONS) == (info.obs_version, info.num_actions)
    assert kessel_sabacc.classic_action_names() == kessel_sabacc.action_names("classic") == info.action_names
    assert kessel_sabacc.CLASSIC_GYM_ID == kessel_sabacc.gym_id("classic")
    game = kessel_sabacc.ClassicGame(3)
    assert isinstance(game, Game) and game.game == "classic" and game.num_players == 3
    assert kessel_sabacc.ClassicSabaccEnv(opponents=["random"]).game == "classic"
    assert kessel_sabacc.ClassicSingleVecEnv(2, opponents=["random"]).game == "classic"
    assert kessel_sabacc.KesselSabaccEnv is kessel_sabacc.SingleAgentEnv


def play_random_episode(env, rng):
    """Plays one episode with random legal actions, checking every observation against its
    space; returns (each agent's total reward, steps)."""
    total = {a: 0.0 for a in env.possible_agents}
    steps = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        assert env.observation_space(agent).contains(obs), f"observation out of bounds for {agent}"
        total[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0 and sorted(legal.tolist()) == env.legal_actions()
        env.step(int(rng.choice(legal)))
        steps += 1
    assert env.agents == []
    return total, steps


@pytest.mark.parametrize("players", [2, 3, 4, 8])
@pytest.mark.parametrize("hand_limit_end", ["truncate", "most-credits"])
def test_random_games_play_to_the_end_with_zero_sum_rewards(players, hand_limit_end):
    # Games of 100 hands that the limit truncates, and games of 30 that it decides by credits.
    rules = {"hand_limit_end": "truncate"} if hand_limit_end == "truncate" else {"hand_limit": 30, "hand_limit_end": hand_limit_end}
    env = raw(num_players=players, rules=rules)
    rng = np.random.default_rng(players)
    decided = 0
    for seed in range(30):
        env.reset(seed=seed)
        total, steps = play_random_episode(env, rng)
        values = np.array([total[a] for a in env.possible_agents])
        assert steps > 0
        assert abs(values.sum()) < 1e-5, f"seed {seed}: rewards {values} do not sum to 0"
        assert np.allclose(values, env.game.returns)
        if env.game.truncated:
            assert hand_limit_end == "truncate" and np.all(values == 0)
        else:
            decided += 1
            assert values.max() > 0
            assert sorted(f"player_{w}" for w in env.game.winners) == sorted(
                a for a in env.possible_agents if total[a] > 0
            )
    if hand_limit_end == "most-credits":
        assert decided == 30


def test_a_whole_default_game_ends():
    game = classic_game(4)
    game.reset(7)
    rng = np.random.default_rng(7)
    while not game.done:
        game.step(int(rng.choice(game.legal_actions())))
    assert game.terminated != game.truncated
    assert abs(sum(game.returns)) < 1e-5
    mask = game.action_mask()
    assert mask.shape == (kessel_sabacc.CLASSIC_NUM_ACTIONS,) and mask.dtype == bool
    assert game.actor is None and game.legal_actions() == [] and not mask.any()
    with pytest.raises(ValueError, match="game is over"):
        game.step(0)


def test_illegal_actions_raise_and_change_nothing():
    env = raw(num_players=3)
    env.reset(seed=0)
    agent = env.agent_selection
    before = {a: env.observe(a)["observation"].copy() for a in env.possible_agents}
    seed, steps = env.game.seed, env.game.episode_steps
    mask = env.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="illegal action"):
        env.step(illegal)
    with pytest.raises(ValueError, match=r'out of range 0\.\.44.*action_names\("classic"\)'):
        env.step(kessel_sabacc.CLASSIC_NUM_ACTIONS)
    with pytest.raises(ValueError, match="out of range"):
        env.step(-1)
    for bad in [1.0, "check", True, None]:
        with pytest.raises(TypeError, match="action must be an int|None"):
            env.step(bad)
    assert env.agent_selection == agent
    assert (env.game.seed, env.game.episode_steps) == (seed, steps)
    for a in env.possible_agents:
        assert np.array_equal(env.observe(a)["observation"], before[a])
    assert np.array_equal(env.observe(agent)["action_mask"], mask)
    env.step(np.int64(env.legal_actions()[0]))
    assert env.game.episode_steps == steps + 1


def test_the_gymnasium_env_treats_illegal_actions_as_configured():
    env = gymnasium.make(GYM_ID, opponents=["expert"], illegal_action="raise").unwrapped
    obs, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="illegal action"):
        env.step(illegal)
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    env = gymnasium.make(GYM_ID, opponents=["expert"]).unwrapped
    obs, info = env.reset(seed=1)
    obs, r, term, trunc, info = env.step(illegal)
    assert (r, term, trunc, info["illegal_action"]) == (-1.0, True, False, True)
    env.reset(seed=2)
    with pytest.raises(ValueError, match="out of range"):
        env.step(44)


def test_gymnasium_episodes_end_and_masks_agree():
    env = gymnasium.make(GYM_ID, opponents=["random", "random"], rules={"hand_limit": 20}).unwrapped
    rng = np.random.default_rng(0)
    seats = set()
    for seed in range(30):
        obs, info = env.reset(seed=seed)
        seats.add(info["learner"])
        done, total = False, 0.0
        while not done:
            assert env.observation_space.contains(obs)
            assert np.array_equal(info["action_mask"].astype(bool), env.action_masks())
            obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            total += r
            done = term or trunc
        assert total == pytest.approx(info["returns"][info["learner"]])
        assert abs(sum(info["returns"])) < 1e-5
    assert seats == {0, 1, 2}


def test_make_vec_uses_the_rust_vector_env_and_matches_single_envs():
    n = 3
    venv = gymnasium.make_vec(
        GYM_ID, num_envs=n, vectorization_mode="vector_entry_point", opponents=["expert", "random"], seed=5
    )
    assert isinstance(venv, kessel_sabacc.SingleVecEnv) and venv.game == "classic"
    singles = [gymnasium.make(GYM_ID, opponents=["expert", "random"]).unwrapped for _ in range(n)]
    obs, info = venv.reset(seed=5)
    assert obs.shape == (n, 384) and info["action_mask"].shape == (n, 44)
    episode = [0] * n
    for i, s in enumerate(singles):
        o, _ = s.reset(seed=kessel_sabacc.episode_seed(5, i, 0))
        assert np.array_equal(o, obs[i])
    rng = np.random.default_rng(1)
    for _ in range(200):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in venv.action_masks()])
        obs, rew, term, trunc, info = venv.step(actions)
        for i, s in enumerate(singles):
            o, r, t, u, _ = s.step(int(actions[i]))
            assert (r, t, u) == (float(rew[i]), bool(term[i]), bool(trunc[i]))
            if t or u:
                assert np.array_equal(info["final_obs"][i], o)
                episode[i] += 1
                o, _ = s.reset(seed=kessel_sabacc.episode_seed(5, i, episode[i]))
            assert np.array_equal(o, obs[i])


def test_classic_rules_are_accepted_and_kessel_rules_refused_by_name():
    rules = {"starting_credits": 50, "hand_limit": 5, "hand_limit_end": "most-credits", "stakes": "no-cap"}
    env = raw(num_players=3, rules=rules)
    in_force = json.loads(env.game.rules_json())
    assert {k: in_force[k] for k in rules} == rules and in_force["players"] == 3
    env.reset(seed=0)
    assert "seat 0: 48 credits" in env.game.render()  # 50, less the antes to both pots
    assert json.loads(classic_game(2, json.dumps(rules)).rules_json())["hand_limit"] == 5
    env = gymnasium.make(GYM_ID, opponents=["random"], rules=rules).unwrapped
    env.reset(seed=0)
    # A field of Kessel's rules is not a classic rule: refused, naming it.
    for make in (
        lambda r: raw(rules=r),
        lambda r: gymnasium.make(GYM_ID, rules=r),
        lambda r: classic_game(4, r),
    ):
        with pytest.raises(ValueError, match="starting_chips"):
            make({"starting_chips": 8})
    with pytest.raises(ValueError, match="rules.hand_limit"):
        raw(rules={"hand_limit": 0})
    with pytest.raises(ValueError, match="rules.hand_limit_end"):
        raw(rules={"hand_limit_end": "never"})
    with pytest.raises(ValueError, match="rules.players"):
        raw(num_players=2, rules={"players": 3})
    with pytest.raises(ValueError, match="num_players"):
        raw(num_players=9)
    # And the other way round: classic fields are not Kessel rules.
    with pytest.raises(ValueError, match="starting_credits"):
        kessel_sabacc.raw_env(rules={"starting_credits": 50})


def test_opponents_are_classic_agents():
    with pytest.raises(ValueError, match="classic"):
        gymnasium.make(GYM_ID, opponents=["grandmaster"])
    with pytest.raises(TypeError, match="list of agent specs"):
        gymnasium.make(GYM_ID, opponents="expert")
    env = gymnasium.make(GYM_ID, opponents=["search:2", "classic:greedy"]).unwrapped
    obs, info = env.reset(seed=3)
    assert env.num_players == 3


def test_same_seed_same_game():
    a, b = raw(), raw()
    for seed in [0, 1, 2**64 - 1]:
        a.reset(seed=seed)
        b.reset(seed=seed)
        ta = play_random_episode(a, np.random.default_rng(3))
        tb = play_random_episode(b, np.random.default_rng(3))
        assert ta == tb
    deals = set()
    for seed in range(20):
        a.reset(seed=seed)
        deals.add(np.stack([a.observe(p)["observation"] for p in a.possible_agents]).tobytes())
    assert len(deals) == 20


def test_render_ansi_shows_the_position():
    env = raw(num_players=3, render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert text.startswith("hand 1, round 1")
    for i in range(3):
        assert f"seat {i}: " in text
    assert "hand pot" in text and "legal actions: " in text
    while not env.game.done:
        env.step(env.legal_actions()[0])
    assert "game over: " in env.render()
    gym = gymnasium.make(GYM_ID, opponents=["random"], render_mode="ansi").unwrapped
    gym.reset(seed=0)
    assert "legal actions: " in gym.render()


def test_scenario_loads(repo):
    path = repo / "crates" / "games" / "classic" / "scenarios" / "raise_at_the_cap.json"
    env = kessel_sabacc.load_scenario(str(path), game="classic")
    env.reset()
    game = Game.from_scenario(path.read_text(), game="classic")
    assert env.agent_selection == f"player_{game.actor}"
    assert np.array_equal(env.observe(env.agent_selection)["observation"], game.observe(game.actor)[0])
    env.reset(seed=1)
    assert env.game.seed == 1
    with pytest.raises(ValueError, match="scenario"):
        Game.from_scenario('{"hand": 1}', game="classic")


def test_the_self_play_vector_env_plays_classic_games_like_single_games():
    """``VecEnv(game="classic")``: the same games as ``Game(game="classic")`` step by step, across
    auto-resets, with classic-sized observations and masks."""
    from kessel_sabacc import VecEnv

    n, seed, players = 4, 9, 3
    rules = {"hand_limit": 3, "hand_limit_end": "most-credits"}
    venv = VecEnv(n, num_players=players, seed=seed, rules=rules, num_threads=2, game="classic")
    assert venv.game == "classic"
    assert venv.obs.shape == (n, kessel_sabacc.CLASSIC_OBS_LEN)
    assert venv.action_mask.shape == (n, kessel_sabacc.CLASSIC_NUM_ACTIONS)
    assert venv.single_action_space.n == kessel_sabacc.CLASSIC_NUM_ACTIONS
    games = [classic_game(players, rules=rules) for _ in range(n)]
    ended = play_in_lockstep(venv, games, seed, 600, np.random.default_rng(5))
    assert ended >= 4
    venv.step_random(200, seed=1)
    assert all(f["rounds"] >= 1 for f in venv.finished())


def test_classic_agents_act_on_vector_envs_observations_and_games():
    from kessel_sabacc import VecEnv

    venv = VecEnv(8, num_players=2, seed=3, game="classic")
    expert = kessel_sabacc.agent("expert", seed=1, game="classic")
    assert expert.game == "classic" and not expert.acts_from_obs
    for _ in range(20):
        actions = expert.act_vec(venv)
        assert all(venv.action_mask[i, a] for i, a in enumerate(actions))
        venv.step(actions)
    champion = kessel_sabacc.agent("classic-champion@argmax", game="classic")
    assert champion.acts_from_obs
    actions = champion.act(venv.obs, venv.action_mask)
    assert all(venv.action_mask[i, a] for i, a in enumerate(actions))
    g = classic_game(2)
    g.reset(4)
    assert g.legal_actions().count(champion.act_game(g)) == 1
    # An agent of the other game is refused with a message naming both.
    kessel_expert = kessel_sabacc.agent("expert")
    with pytest.raises(ValueError, match="kessel.*classic"):
        kessel_expert.act_vec(venv)
    with pytest.raises(ValueError, match="kessel.*classic"):
        kessel_expert.act_game(g)
    with pytest.raises(ValueError, match="obs must have"):
        kessel_sabacc.agent("random").act(venv.obs, venv.action_mask)


def test_the_arena_plays_classic_sabacc():
    report = kessel_sabacc.arena(
        ["expert", "random"], games=40, seed=2, rules={"hand_limit": 10, "hand_limit_end": "most-credits"}, game="classic"
    )
    rates = {a["name"]: a["win_rate"] for a in report["agents"]}
    assert report["settings"]["game"] == "classic"
    assert rates["expert"] > rates["random"], rates
    with pytest.raises(ValueError, match="tight"):
        kessel_sabacc.arena(["tight", "random"], games=4, game="classic")
    with pytest.raises(ValueError, match="game"):
        kessel_sabacc.arena(["expert", "random"], games=4, game="poker")
