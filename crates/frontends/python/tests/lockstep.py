"""Playing a self-play ``VecEnv`` in lockstep with one single game per row (the same seeds, the
same random legal actions), checking observations, masks, rewards and end flags at every step
and across auto-resets. Shared by the Kessel and classic vector-env tests."""

import numpy as np

import kessel_sabacc
from kessel_sabacc import episode_seed


def play_in_lockstep(venv, games, seed, steps, rng):
    """Steps ``venv`` and ``games`` (row ``i`` is ``games[i]``, dealt by ``episode_seed(seed, i,
    episode)``) side by side for ``steps`` steps; returns how many games ended."""
    players = venv.num_players
    episode = [0] * len(games)
    for i, g in enumerate(games):
        g.reset(episode_seed(seed, i, 0))
    ended = 0
    for step in range(steps):
        for i, g in enumerate(games):
            assert venv.actor[i] == g.actor
            obs, mask = g.observe(g.actor)
            assert np.array_equal(venv.obs[i], obs), f"step {step}, game {i}: observations differ"
            assert np.array_equal(venv.action_mask[i], mask.astype(bool))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in venv.action_mask])
        _, rewards, term, trunc, _ = venv.step(actions)
        for i, g in enumerate(games):
            g.step(int(actions[i]))
            want = np.zeros(kessel_sabacc.MAX_PLAYERS, dtype=np.float32)
            want[:players] = g.rewards
            assert np.array_equal(rewards[i], want)
            assert (bool(term[i]), bool(trunc[i])) == (g.terminated, g.truncated)
            if g.done:
                ended += 1
                episode[i] += 1
                g.reset(episode_seed(seed, i, episode[i]))
                assert venv.game_seed(i) == g.seed
    return ended
