"""Bad input raises ValueError/TypeError with a clear message; nothing panics, nothing changes."""

import numpy as np
import pytest

import kessel_sabacc
from kessel_sabacc import Game, VecEnv


def fresh_env():
    env = kessel_sabacc.raw_env(num_players=3)
    env.reset(seed=0)
    return env


def test_aec_wrong_actions_raise_and_change_nothing():
    env = fresh_env()
    agent = env.agent_selection
    before = env.observe(agent)["observation"].copy()
    illegal = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="illegal action"):
        env.step(illegal)
    with pytest.raises(ValueError, match="out of range"):
        env.step(kessel_sabacc.NUM_ACTIONS)
    with pytest.raises(ValueError, match="out of range"):
        env.step(-1)
    with pytest.raises(ValueError, match="out of range"):
        env.step(2**70)
    for bad in [1.0, float("nan"), "stand", True, [0], np.float32(1)]:
        with pytest.raises(TypeError, match="action must be an int"):
            env.step(bad)
    with pytest.raises(TypeError, match="None"):
        env.step(None)
    assert env.agent_selection == agent
    assert np.array_equal(env.observe(agent)["observation"], before)
    legal = env.legal_actions()[0]
    env.step(np.int64(legal))


def test_stepping_a_finished_game_raises():
    game = Game(2)
    game.reset(0)
    while not game.done:
        game.step(game.legal_actions()[0])
    with pytest.raises(ValueError, match="game is over"):
        game.step(0)


def test_stepping_a_finished_aec_env_raises():
    env = kessel_sabacc.raw_env(num_players=2)
    env.reset(seed=5)
    while not env.terminations[env.agent_selection]:
        env.step(env.legal_actions()[0])
    with pytest.raises(ValueError, match="only valid action is None"):
        env.step(0)
    while env.agents:
        env.step(None)
    with pytest.raises(ValueError, match="every agent has finished"):
        env.step(None)


@pytest.mark.parametrize("seed,exc", [(-1, ValueError), (2**64, ValueError), (1.5, TypeError), ("1", TypeError), (True, TypeError)])
def test_bad_seeds(seed, exc):
    with pytest.raises(exc, match="seed"):
        kessel_sabacc.raw_env().reset(seed=seed)
    with pytest.raises(exc, match="seed"):
        VecEnv(2, seed=seed)


def test_bad_settings():
    with pytest.raises(ValueError, match="num_players"):
        kessel_sabacc.raw_env(num_players=9)
    with pytest.raises(ValueError, match="rules.starting_chips"):
        kessel_sabacc.raw_env(rules={"starting_chips": 0})
    with pytest.raises(ValueError, match="rules.*no_such_rule"):
        kessel_sabacc.raw_env(rules={"no_such_rule": 1})
    with pytest.raises(ValueError, match="rules.players"):
        kessel_sabacc.raw_env(num_players=2, rules={"players": 3})
    with pytest.raises(TypeError, match="rules"):
        kessel_sabacc.raw_env(rules=[1, 2])
    with pytest.raises(ValueError, match="reward"):
        kessel_sabacc.raw_env(reward="money")
    with pytest.raises(ValueError, match="scenario"):
        kessel_sabacc.load_scenario('{"actor": 0}')
    with pytest.raises(ValueError, match="num_envs"):
        VecEnv(0)
    with pytest.raises(ValueError, match="num_threads"):
        VecEnv(2, num_threads=0)


def test_vector_env_bad_actions_name_the_game_and_step_nothing():
    venv = VecEnv(4, seed=0)
    before = venv.obs.copy()
    good = venv.sample_actions()
    nan = good.astype(np.float64)
    nan[2] = np.nan
    with pytest.raises(ValueError, match=r"actions\[2\] is NaN"):
        venv.step(nan)
    frac = good.astype(np.float64)
    frac[1] = 0.5
    with pytest.raises(ValueError, match=r"actions\[1\]"):
        venv.step(frac)
    with pytest.raises(ValueError, match="expected 4 actions"):
        venv.step(good[:3])
    with pytest.raises(TypeError, match="dtype"):
        venv.step(good.astype(bool))
    with pytest.raises(ValueError, match="1-d"):
        venv.step(good.reshape(2, 2))
    bad = good.copy()
    bad[3] = kessel_sabacc.NUM_ACTIONS
    with pytest.raises(ValueError, match=rf"actions\[3\] = {kessel_sabacc.NUM_ACTIONS}"):
        venv.step(bad)
    illegal = good.copy()
    illegal[1] = int(np.flatnonzero(~venv.action_mask[1])[0])
    with pytest.raises(ValueError, match="environment 1"):
        venv.step(illegal)
    assert np.array_equal(venv.obs, before)
    venv.step(good.astype(np.int32))
    venv.step(list(venv.sample_actions()))


def test_single_vector_env_bad_actions():
    venv = kessel_sabacc.SingleVecEnv(num_envs=2, opponents=["random"])
    venv.reset(seed=0)
    bad = np.array([int(np.flatnonzero(~m)[0]) for m in venv.action_masks()])
    with pytest.raises(ValueError, match="environment 0: illegal action"):
        venv.step(bad)


def test_an_unknown_game_is_refused_naming_the_argument_and_the_games():
    listed = ", ".join(kessel_sabacc.games())
    for make in (
        lambda g: Game(game=g),
        lambda g: Game.from_scenario("{}", game=g),
        lambda g: VecEnv(2, game=g),
        lambda g: kessel_sabacc._native.VecSingle(1, ["random"], game=g),
        lambda g: kessel_sabacc.game_info(g),
        lambda g: kessel_sabacc.observation_bounds(g, 2),
        lambda g: kessel_sabacc.agent("random", game=g),
        lambda g: kessel_sabacc.arena(["random", "random"], games=2, game=g),
    ):
        with pytest.raises(ValueError, match=f"game: unknown game `chess`; games: {listed}"):
            make("chess")
    with pytest.raises(TypeError, match="game"):
        Game(game=3)
