"""The Gymnasium single-agent env and its vector form."""

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import kessel_sabacc

ID = kessel_sabacc.GYM_ID


@pytest.mark.parametrize("opponents", [None, ["random"], ["greedy", "expert", "random"]])
def test_check_env_passes_without_warnings(opponents):
    kwargs = {} if opponents is None else {"opponents": opponents}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(gymnasium.make(ID, **kwargs).unwrapped)
    assert [str(w.message) for w in caught] == []


def test_masks_in_info_and_action_masks_agree_and_episodes_end():
    env = gymnasium.make(ID, opponents=["random", "random", "random"]).unwrapped
    rng = np.random.default_rng(0)
    returns = []
    for seed in range(200):
        obs, info = env.reset(seed=seed)
        done = False
        total = 0.0
        while not done:
            mask = info["action_mask"]
            assert mask.dtype == np.int8
            assert np.array_equal(mask.astype(bool), env.action_masks())
            assert env.observation_space.contains(obs)
            a = int(rng.choice(np.flatnonzero(mask)))
            obs, r, term, trunc, info = env.step(a)
            total += r
            done = term or trunc
        returns.append(total)
    returns = np.array(returns)
    assert set(np.round(returns, 4)) <= {1.0, round(-1 / 3, 4), 0.0}
    # A random learner against three random players wins about a quarter of its games.
    assert 0.1 < np.mean(returns > 0) < 0.45


def test_illegal_action_penalty_ends_the_episode():
    env = gymnasium.make(ID, opponents=["expert"]).unwrapped
    obs, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, r, term, trunc, info = env.step(illegal)
    assert (r, term, trunc, info["illegal_action"]) == (-1.0, True, False, True)
    with pytest.raises(ValueError, match="episode is over"):
        env.step(0)


def test_illegal_action_raise_changes_nothing():
    env = gymnasium.make(ID, opponents=["expert"], illegal_action="raise").unwrapped
    obs, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="illegal action"):
        env.step(illegal)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    env.step(legal)


def test_bad_options_are_refused():
    with pytest.raises(ValueError, match="illegal_action"):
        gymnasium.make(ID, illegal_action="ignore")
    with pytest.raises(ValueError, match="unknown agent"):
        gymnasium.make(ID, opponents=["nobody"])
    with pytest.raises(TypeError, match="list of agent specs"):
        gymnasium.make(ID, opponents="expert")
    env = gymnasium.make(ID).unwrapped
    env.reset(seed=0)
    with pytest.raises(ValueError, match="out of range"):
        env.step(kessel_sabacc.NUM_ACTIONS)
    with pytest.raises(TypeError):
        env.step(1.0)


def test_same_seed_same_episode_and_seat_rotates():
    a = gymnasium.make(ID, opponents=["greedy", "greedy"]).unwrapped
    b = gymnasium.make(ID, opponents=["greedy", "greedy"]).unwrapped
    seats = set()
    for seed in range(30):
        oa, ia = a.reset(seed=seed)
        ob, ib = b.reset(seed=seed)
        assert np.array_equal(oa, ob) and ia["learner"] == ib["learner"]
        seats.add(ia["learner"])
    assert seats == {0, 1, 2}


def test_vector_env_matches_single_envs():
    n = 4
    venv = kessel_sabacc.SingleVecEnv(num_envs=n, opponents=["expert", "random"], seed=5, num_threads=2)
    singles = [gymnasium.make(ID, opponents=["expert", "random"]).unwrapped for _ in range(n)]
    episode = [0] * n
    obs, info = venv.reset(seed=5)
    for i, s in enumerate(singles):
        o, _ = s.reset(seed=kessel_sabacc.episode_seed(5, i, 0))
        assert np.array_equal(o, obs[i])
    rng = np.random.default_rng(1)
    finished = 0
    for _ in range(300):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in venv.action_masks()])
        obs, rew, term, trunc, info = venv.step(actions)
        for i, s in enumerate(singles):
            o, r, t, u, _ = s.step(int(actions[i]))
            assert (r, t, u) == (float(rew[i]), bool(term[i]), bool(trunc[i]))
            if t or u:
                finished += 1
                assert info["_final_obs"][i]
                assert np.array_equal(info["final_obs"][i], o)
                episode[i] += 1
                o, _ = s.reset(seed=kessel_sabacc.episode_seed(5, i, episode[i]))
            assert np.array_equal(o, obs[i])
    assert finished > 0


def test_make_vec_uses_the_rust_vector_env():
    venv = gymnasium.make_vec(ID, num_envs=3, vectorization_mode="vector_entry_point", opponents=["random"])
    obs, info = venv.reset(seed=0)
    assert obs.shape == (3, kessel_sabacc.OBS_LEN)
    assert info["action_mask"].shape == (3, kessel_sabacc.NUM_ACTIONS)
