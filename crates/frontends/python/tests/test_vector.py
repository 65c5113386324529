"""The self-play vector env: step-by-step equality with single games (the Rust `SabaccEnv`
through `Game`), auto-reset, thread-count independence, views."""

import numpy as np
import pytest

import kessel_sabacc
from kessel_sabacc import Game, VecEnv
from lockstep import play_in_lockstep


def test_equals_single_games_step_by_step_across_auto_resets():
    n, seed, players = 6, 42, 4
    venv = VecEnv(n, num_players=players, seed=seed, num_threads=2)
    games = [Game(players) for _ in range(n)]
    assert play_in_lockstep(venv, games, seed, 2000, np.random.default_rng(3)) >= 20


def run(threads, steps=300):
    venv = VecEnv(64, seed=11, num_threads=threads)
    trace = []
    for _ in range(steps):
        venv.step(venv.sample_actions())
        trace.append((venv.obs.copy(), venv.rewards.copy(), venv.terminations.copy()))
    return trace


def test_results_do_not_depend_on_thread_count():
    a, b = run(1), run(2)
    for (oa, ra, ta), (ob, rb, tb) in zip(a, b):
        assert np.array_equal(oa, ob) and np.array_equal(ra, rb) and np.array_equal(ta, tb)


def test_views_are_read_only_and_updated_in_place():
    venv = VecEnv(8, seed=0)
    obs, info = venv.reset(seed=0)
    assert obs is venv.obs and not obs.flags.writeable
    with pytest.raises(ValueError):
        obs[0, 0] = 1.0
    before = obs.copy()
    venv.step(venv.sample_actions())
    assert not np.array_equal(before, venv.obs)
    assert venv.obs.shape == (8, kessel_sabacc.OBS_LEN)
    assert venv.action_mask.dtype == bool and venv.rewards.shape == (8, kessel_sabacc.MAX_PLAYERS)


def test_copy_mode_returns_fresh_arrays():
    venv = VecEnv(4, seed=0, copy=True)
    obs, _ = venv.reset(seed=0)
    venv.step(venv.sample_actions())
    assert not np.shares_memory(obs, venv.obs)


def test_step_random_finishes_games_and_reports_them():
    venv = VecEnv(16, num_players=2, seed=1)
    venv.step_random(500, seed=2)
    done = venv.finished()
    assert len(done) > 0
    for ep in done:
        assert abs(sum(ep["returns"])) < 1e-5
        assert ep["truncated"] or len(ep["winners"]) >= 1


def test_sampled_actions_are_legal():
    venv = VecEnv(32, seed=5)
    for _ in range(50):
        a = venv.sample_actions()
        assert venv.action_mask[np.arange(32), a].all()
        venv.step(a)
