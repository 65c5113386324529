"""Next-step auto-reset of the learner vector env and the opponent-pool vector env of
``kessel_sabacc.rllib``: the same games as same-step auto-reset, shifted by one step per episode."""

import numpy as np
import pytest
from gymnasium.vector.vector_env import AutoresetMode

import kessel_sabacc
from kessel_sabacc import PoolVecEnv, SingleVecEnv


def first_legal(mask):
    return np.argmax(np.asarray(mask) > 0, axis=1)


def test_next_step_plays_the_same_games_as_same_step_one_reset_step_later():
    # The ending step shows the learner's last observation (same-step's final_obs); the next
    # step ignores its action and shows the first decision same-step showed at the end.
    same = SingleVecEnv(1, opponents=["expert"], seed=3, copy=True)
    nxt = SingleVecEnv(1, opponents=["expert"], seed=3, copy=True, autoreset_mode="next_step")
    assert nxt.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert same.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    o_s, i_s = same.reset(seed=3)
    o_n, i_n = nxt.reset(seed=3)
    finished = 0
    for _ in range(300):
        a = first_legal(i_s["action_mask"])
        assert np.array_equal(o_s, o_n)
        o_s, r_s, t_s, u_s, i_s = same.step(a)
        o_n, r_n, t_n, u_n, i_n = nxt.step(a)
        assert r_s[0] == r_n[0] and t_s[0] == t_n[0]
        if t_s[0] or u_s[0]:
            finished += 1
            assert np.array_equal(o_n, i_s["final_obs"]) and "final_obs" not in i_n
            o_n, r_n, t_n, u_n, i_n = nxt.step(np.array([47]))  # ignored, even if illegal
            assert r_n[0] == 0 and not t_n[0] and not u_n[0]
    assert finished >= 3


def test_bad_autoreset_mode_is_a_clear_error():
    with pytest.raises(ValueError, match="autoreset_mode"):
        SingleVecEnv(2, opponents=["greedy"], autoreset_mode="sometimes")


def test_pool_splits_games_among_lineups_and_returns_fresh_float_masks():
    env = PoolVecEnv(7, pool=[["greedy"], ["expert"], ["random"]], seed=1)
    assert [p.num_envs for p in env.parts] == [3, 2, 2]
    assert [p._native.num_players for p in env.parts] == [2, 2, 2]
    obs, info = env.reset(seed=1)
    assert info == {}
    assert obs["observations"].shape == (7, kessel_sabacc.OBS_LEN)
    assert obs["action_mask"].dtype == np.float32 and set(np.unique(obs["action_mask"])) <= {0.0, 1.0}
    assert env.observation_space.contains(obs)
    # Block k is lineup k's SingleVecEnv with seed + k.
    alone = SingleVecEnv(2, opponents=["expert"], seed=2, autoreset_mode="next_step")
    o, _ = alone.reset(seed=2)
    assert np.array_equal(obs["observations"][3:5], o)
    seen = obs["observations"]
    episodes = 0
    for _ in range(200):
        obs, rew, term, trunc, info = env.step(first_legal(obs["action_mask"]))
        assert not np.shares_memory(obs["observations"], seen)
        episodes += int((term | trunc).sum())
        assert set(np.unique(rew)) <= {-1.0, 0.0, 1.0}
    assert episodes > 0


@pytest.mark.parametrize("pool, message", [
    ([], "non-empty"),
    ("greedy", "non-empty"),
    ([["greedy"], ["greedy", "expert"]], "same number of seats"),
    ([["nobody"]], "nobody"),
])
def test_pool_bad_input_is_a_clear_error(pool, message):
    with pytest.raises(ValueError, match=message):
        PoolVecEnv(4, pool=pool)


def test_pool_needs_a_game_per_lineup():
    with pytest.raises(ValueError, match="at least the number of lineups"):
        PoolVecEnv(1, pool=[["greedy"], ["expert"]])
