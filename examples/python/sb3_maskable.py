"""Stable-Baselines3-contrib's MaskablePPO on the Gymnasium env (one learner against bots).

    pip install ./crates/frontends/python sb3-contrib
    python examples/python/sb3_maskable.py --smoke
    python examples/python/sb3_maskable.py --timesteps 500000 --opponents greedy,greedy,greedy

The env exposes ``action_masks()``, which MaskablePPO reads by itself; illegal actions are never
sampled. At the end the policy (deterministic) is evaluated against the same opponents.
"""

from __future__ import annotations

import argparse

import gymnasium
import numpy as np
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks
from stable_baselines3.common.env_util import make_vec_env

import kessel_sabacc  # registers the Gymnasium ids (kessel_sabacc.GYM_ID)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--opponents", default="random,random,random")
    p.add_argument("--timesteps", type=int, default=200_000)
    p.add_argument("--num-envs", type=int, default=8)
    p.add_argument("--eval-games", type=int, default=500)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--smoke", action="store_true", help="a few thousand steps and 50 games")
    a = p.parse_args()
    if a.smoke:
        a.timesteps, a.eval_games = 4096, 50
    opponents = a.opponents.split(",")
    # make_vec_env asks for render_mode="rgb_array" unless told otherwise; the env renders text only.
    venv = make_vec_env(kessel_sabacc.GYM_ID, n_envs=a.num_envs, seed=a.seed,
                        env_kwargs={"opponents": opponents, "render_mode": None})
    model = MaskablePPO("MlpPolicy", venv, n_steps=256, batch_size=512, ent_coef=0.03, seed=a.seed,
                        policy_kwargs={"net_arch": [256, 256]}, verbose=1)
    model.learn(total_timesteps=a.timesteps)

    env = gymnasium.make(kessel_sabacc.GYM_ID, opponents=opponents).unwrapped
    wins = 0
    for g in range(a.eval_games):
        obs, info = env.reset(seed=10_000 + g)
        done = False
        while not done:
            action, _ = model.predict(obs, action_masks=get_action_masks(env), deterministic=True)
            obs, r, term, trunc, info = env.step(int(action))
            done = term or trunc
        wins += r > 0
    rate = wins / a.eval_games
    print(f"MaskablePPO vs {opponents}: win rate {rate:.3f} ± {1.96 * np.sqrt(rate * (1 - rate) / a.eval_games):.3f} "
          f"over {a.eval_games} games (chance {1 / (len(opponents) + 1):.2f})")


if __name__ == "__main__":
    main()
