"""One PPO minibatch step in PyTorch on the Rust trainer's network, timed: the anchor for the
``minibatch_4096_step_ms`` figure of ``sabacc bench train``.

The network is ``ppo_torch.py``'s (the trainer's default: separate actor and critic trunks
654 → 256 → 256, ReLU, 48 logits and a value), the step its ``ppo_step`` (CleanRL's loss,
global gradient-norm clip, Adam), the rows real observations and masks of four-seat games
against ``greedy`` bots, the learner's actions random legal ones. The Rust figure to compare with:

    python examples/python/update_bench.py --rows 4096 --steps 40
    sabacc bench train --config CONFIG --json   # minibatch_4096_step_ms(_min), the same network

``--threads`` sets PyTorch's intra-op threads (default 2, both cores of the reference machine).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kessel_sabacc  # noqa: E402
from ppo_torch import Agent, ppo_step  # noqa: E402


def rows_from_play(n, seed):
    """``n`` observations and masks from four-seat games against ``greedy``, random legal actions."""
    env = kessel_sabacc.SingleVecEnv(num_envs=64, opponents=["greedy"] * 3, seed=seed)
    obs, info = env.reset()
    mask = info["action_mask"]
    rng = np.random.default_rng(seed)
    got_obs, got_mask, got_act = [], [], []
    while sum(len(o) for o in got_obs) < n:
        act = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        got_obs.append(obs.copy())
        got_mask.append(mask.copy())
        got_act.append(act)
        obs, _, _, _, info = env.step(act)
        mask = info["action_mask"]
    cat = lambda xs: np.concatenate(xs)[:n]  # noqa: E731
    return torch.from_numpy(cat(got_obs)), torch.from_numpy(cat(got_mask)), torch.from_numpy(cat(got_act))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rows", type=int, default=4096)
    p.add_argument("--steps", type=int, default=40, help="timed steps, after 3 untimed ones")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    if a.rows < 2 or a.steps < 1 or a.threads < 1:
        p.error("--rows must be at least 2, --steps and --threads at least 1")
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    obs, mask, act = rows_from_play(a.rows, a.seed)
    agent = Agent(obs.shape[1], mask.shape[1])
    opt = torch.optim.Adam(agent.parameters(), lr=3e-4, eps=1e-5)
    with torch.no_grad():
        _, logp, _, val = agent.act(obs.float(), mask.bool(), act.long())
    g = torch.Generator().manual_seed(a.seed)
    adv, ret = torch.randn(a.rows, generator=g), torch.randn(a.rows, generator=g)
    settings = argparse.Namespace(clip_coef=0.2, ent_coef=0.03, vf_coef=0.5, max_grad_norm=0.5)
    times = []
    for k in range(3 + a.steps):
        t = time.perf_counter()
        ppo_step(agent, opt, settings, obs.float(), mask.bool(), act.long(), logp, adv, ret, val)
        if k >= 3:
            times.append(time.perf_counter() - t)
    nonzero = float((obs != 0).float().mean())
    print(f"PyTorch {torch.__version__}, {a.threads} threads, {a.rows} rows of {obs.shape[1]} "
          f"({nonzero:.1%} nonzero), {a.steps} steps: median {statistics.median(times) * 1e3:.1f} ms, "
          f"fastest {min(times) * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
