"""Masked PPO in PyTorch (CleanRL style, one file) on the Rust vector env against bots.

The learner plays one seat of each of ``--num-envs`` games against ``--opponents`` (stepped in
Rust by ``kessel_sabacc.SingleVecEnv``); illegal actions get a logit of -1e9. The network is the
Rust trainer's default, with the parameter names of an export bundle's ``policy.safetensors``:
separate actor and critic trunks 654 → 256 → 256 (ReLU), a 48-logit policy head and a value head.

    pip install "./crates/frontends/python[examples]"      # torch, tensorboard, safetensors, …
    python examples/python/ppo_torch.py --smoke                      # a few updates
    python examples/python/ppo_torch.py --total-decisions 3000000 --export exports/ppo-torch
    tensorboard --logdir runs/python-ppo

At the end the policy (argmax) is evaluated against a table of ``random`` and one of ``greedy`` bots
(``--eval-games`` each, learner seat drawn per game), and ``learner decisions/s`` is printed for
comparison with ``sabacc train`` on the same network and batch sizes. ``--export DIR`` writes the
weights as an export bundle (``kessel_sabacc.export_bundle``: the ``sabacc export`` layout), which
every agent spec accepts: ``sabacc eval --agents DIR@argmax,greedy``,
``kessel_sabacc.agent("DIR")``, ``kessel_sabacc.arena([...])``.
"""

from __future__ import annotations

import argparse
import math
import os
import tempfile
import time

import numpy as np
import torch
import torch.nn as nn
from torch.distributions.categorical import Categorical

import kessel_sabacc


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--opponents", default="greedy,greedy,greedy,random,expert",
                   help="comma-separated specs; each game draws players-1 of them (default mix)")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--num-envs", type=int, default=128)
    p.add_argument("--num-steps", type=int, default=64)
    p.add_argument("--total-decisions", type=int, default=2_500_000)
    p.add_argument("--learning-rate", type=float, default=3e-4)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--num-minibatches", type=int, default=4)
    p.add_argument("--update-epochs", type=int, default=4)
    p.add_argument("--clip-coef", type=float, default=0.2)
    p.add_argument("--ent-coef", type=float, default=0.03)
    p.add_argument("--vf-coef", type=float, default=0.5)
    p.add_argument("--max-grad-norm", type=float, default=0.5)
    p.add_argument("--target-kl", type=float, default=None)
    p.add_argument("--threads", type=int, default=None, help="env threads (default: all cores)")
    p.add_argument("--eval-games", type=int, default=2000, help="games per bot at the end (0: none)")
    p.add_argument("--logdir", default="runs/python-ppo")
    p.add_argument("--save", default=None,
                   help="save the weights here (safetensors, the names of an export bundle's policy.safetensors)")
    p.add_argument("--export", default=None,
                   help="write an export bundle here (replacing a previous bundle), playable by every agent spec")
    p.add_argument("--smoke", action="store_true", help="3 small updates and a short evaluation")
    a = p.parse_args()
    if a.smoke:
        a.num_envs, a.num_steps, a.eval_games = 16, 16, 48
        a.total_decisions = 3 * a.num_envs * a.num_steps
    return a


def ppo_step(agent, opt, a, obs, mask, act, logp, adv, ret, val):
    """One minibatch step of CleanRL's PPO: clipped surrogate, clipped value loss, entropy bonus,
    global gradient-norm clip, Adam. Returns the loss, its policy and value terms, the mean entropy
    and the k3 KL estimate."""
    _, newlogp, ent, newv = agent.act(obs, mask, act)
    ratio = (newlogp - logp).exp()
    with torch.no_grad():
        kl = ((ratio - 1) - (newlogp - logp)).mean().item()
    madv = (adv - adv.mean()) / (adv.std() + 1e-8)
    pg = torch.max(-madv * ratio, -madv * ratio.clamp(1 - a.clip_coef, 1 + a.clip_coef)).mean()
    v_clipped = val + (newv - val).clamp(-a.clip_coef, a.clip_coef)
    vloss = 0.5 * torch.max((newv - ret) ** 2, (v_clipped - ret) ** 2).mean()
    loss = pg - a.ent_coef * ent.mean() + a.vf_coef * vloss
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(agent.parameters(), a.max_grad_norm)
    opt.step()
    return loss, pg, vloss, ent.mean(), kl


def linear(m, n, std):
    """CleanRL's layer init: orthogonal weights scaled by ``std``, zero bias."""
    lin = nn.Linear(m, n)
    nn.init.orthogonal_(lin.weight, std)
    nn.init.zeros_(lin.bias)
    return lin


class Agent(nn.Module):
    """Actor and critic trunks, named as in ``docs/export.md`` so the state dict is a bundle's
    ``policy.safetensors``."""

    def __init__(self, obs_dim, num_actions, hidden=(256, 256)):
        super().__init__()
        widths = [obs_dim, *hidden]
        self.actor_trunk = nn.ModuleList(linear(m, n, math.sqrt(2)) for m, n in zip(widths, widths[1:]))
        self.critic_trunk = nn.ModuleList(linear(m, n, math.sqrt(2)) for m, n in zip(widths, widths[1:]))
        self.policy_head = linear(widths[-1], num_actions, 0.01)
        self.value_head = linear(widths[-1], 1, 1.0)

    @staticmethod
    def trunk(layers, x):
        for layer in layers:
            x = torch.relu(layer(x))
        return x

    def logits(self, x):
        return self.policy_head(self.trunk(self.actor_trunk, x))

    def value(self, x):
        return self.value_head(self.trunk(self.critic_trunk, x)).squeeze(-1)

    def act(self, x, mask, action=None):
        logits = self.logits(x).masked_fill(~mask, -1e9)
        dist = Categorical(logits=logits)
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.value(x)


def evaluate(agent, opponents, players, games, seed):
    """Win rate of the argmax policy against ``opponents`` (learner seat drawn per game)."""
    venv = kessel_sabacc.SingleVecEnv(num_envs=min(games, 64), opponents=[opponents] * (players - 1), seed=seed)
    obs, info = venv.reset(seed=seed)
    wins, played = 0, 0
    with torch.no_grad():
        while played < games:
            x = torch.from_numpy(np.array(obs))
            mask = torch.from_numpy(np.array(info["action_mask"]))
            logits = agent.logits(x).masked_fill(~mask, -1e9)
            obs, rew, term, trunc, info = venv.step(logits.argmax(1).numpy())
            done = term | trunc
            played += int(done.sum())
            wins += int((rew[done] > 0).sum())
    rate = wins / played
    half = 1.96 * math.sqrt(rate * (1 - rate) / played)
    return rate, half, played


def main():
    a = parse_args()
    if a.save or a.export:
        # Checked before training, not after it: the weights are written with safetensors.
        try:
            import safetensors.torch  # noqa: F401
        except ImportError:
            raise SystemExit("--save/--export write safetensors, which is not installed: "
                             "pip install safetensors (or \"./crates/frontends/python[examples]\")")
    torch.manual_seed(a.seed)
    np.random.seed(a.seed)
    try:
        from torch.utils.tensorboard import SummaryWriter

        writer = SummaryWriter(a.logdir)
    except ImportError:
        writer = None
        print("tensorboard is not installed: logging to stdout only")
    pool = a.opponents.split(",")
    rng = np.random.default_rng(a.seed)
    # One opponent mix per game, drawn from the pool: several vector envs, one per mix.
    groups = 4 if a.num_envs >= 16 else 1
    per = a.num_envs // groups
    envs = [
        kessel_sabacc.SingleVecEnv(num_envs=per, opponents=list(rng.choice(pool, a.players - 1)),
                                   seed=a.seed * 1000 + g, num_threads=a.threads)
        for g in range(groups)
    ]
    n = per * groups
    obs_dim, num_actions = kessel_sabacc.OBS_LEN, kessel_sabacc.NUM_ACTIONS
    agent = Agent(obs_dim, num_actions)
    opt = torch.optim.Adam(agent.parameters(), lr=a.learning_rate, eps=1e-5)

    obs_buf = torch.zeros((a.num_steps, n, obs_dim))
    mask_buf = torch.zeros((a.num_steps, n, num_actions), dtype=torch.bool)
    act_buf = torch.zeros((a.num_steps, n), dtype=torch.long)
    logp_buf = torch.zeros((a.num_steps, n))
    rew_buf = torch.zeros((a.num_steps, n))
    done_buf = torch.zeros((a.num_steps, n))
    val_buf = torch.zeros((a.num_steps, n))

    def gather(results):
        return [np.concatenate([np.asarray(r[k]) for r in results]) for k in range(len(results[0]))]

    starts = [e.reset(seed=a.seed * 1000 + g) for g, e in enumerate(envs)]
    next_obs = torch.from_numpy(np.concatenate([s[0] for s in starts]))
    next_mask = torch.from_numpy(np.concatenate([s[1]["action_mask"] for s in starts]))
    next_done = torch.zeros(n)
    batch = a.num_steps * n
    updates = max(1, a.total_decisions // batch)
    decisions, episodes, wins = 0, 0, 0
    t0 = time.time()
    rollout_s = update_s = 0.0  # where the time goes (wall clock)
    rollout_cpu = update_cpu = 0.0  # and the CPU time of all threads (fair on a shared machine)
    for update in range(1, updates + 1):
        for g in opt.param_groups:
            g["lr"] = a.learning_rate * (1.0 - (update - 1.0) / updates)
        t_rollout, c_rollout = time.time(), time.process_time()
        for step in range(a.num_steps):
            obs_buf[step], mask_buf[step], done_buf[step] = next_obs, next_mask, next_done
            with torch.no_grad():
                action, logp, _, value = agent.act(next_obs, next_mask)
            act_buf[step], logp_buf[step], val_buf[step] = action, logp, value
            acts = action.numpy()
            results = [e.step(acts[g * per:(g + 1) * per]) for g, e in enumerate(envs)]
            o, r, te, tr = gather([x[:4] for x in results])
            m = np.concatenate([x[4]["action_mask"] for x in results])
            d = te | tr
            rew_buf[step] = torch.from_numpy(r.copy())
            next_obs, next_mask = torch.from_numpy(o.copy()), torch.from_numpy(m.copy())
            next_done = torch.from_numpy(d.astype(np.float32))
            episodes += int(d.sum())
            wins += int((r[d] > 0).sum())
            decisions += n
        t_update, c_update = time.time(), time.process_time()
        rollout_s += t_update - t_rollout
        rollout_cpu += c_update - c_rollout
        with torch.no_grad():
            next_value = agent.value(next_obs)
            adv = torch.zeros_like(rew_buf)
            last = 0
            for t in reversed(range(a.num_steps)):
                nonterminal = 1.0 - (next_done if t == a.num_steps - 1 else done_buf[t + 1])
                nv = next_value if t == a.num_steps - 1 else val_buf[t + 1]
                delta = rew_buf[t] + a.gamma * nv * nonterminal - val_buf[t]
                adv[t] = last = delta + a.gamma * a.gae_lambda * nonterminal * last
            ret = adv + val_buf
        b_obs, b_mask = obs_buf.reshape(batch, -1), mask_buf.reshape(batch, -1)
        b_act, b_logp = act_buf.reshape(-1), logp_buf.reshape(-1)
        b_adv, b_ret, b_val = adv.reshape(-1), ret.reshape(-1), val_buf.reshape(-1)
        mb = batch // a.num_minibatches
        for epoch in range(a.update_epochs):
            perm = torch.randperm(batch)
            kls = []
            for s in range(0, batch, mb):
                idx = perm[s:s + mb]
                loss, pg, vloss, ent, kl = ppo_step(agent, opt, a, b_obs[idx], b_mask[idx], b_act[idx],
                                                    b_logp[idx], b_adv[idx], b_ret[idx], b_val[idx])
                kls.append(kl)
            if a.target_kl is not None and np.mean(kls) > a.target_kl:
                break
        update_s += time.time() - t_update
        update_cpu += time.process_time() - c_update
        sps = decisions / (time.time() - t0)
        win_rate = wins / max(episodes, 1)
        if writer:
            writer.add_scalar("charts/learner_decisions_per_s", sps, decisions)
            writer.add_scalar("charts/win_rate", win_rate, decisions)
            writer.add_scalar("losses/policy", pg.item(), decisions)
            writer.add_scalar("losses/value", vloss.item(), decisions)
            writer.add_scalar("losses/entropy", ent.item(), decisions)
            writer.add_scalar("losses/approx_kl", float(np.mean(kls)), decisions)
        print(f"update {update}/{updates}  decisions {decisions}  episodes {episodes}  "
              f"win rate {win_rate:.3f}  loss {loss.item():.4f}  learner decisions/s {sps:,.0f}", flush=True)
        episodes = wins = 0
    elapsed = time.time() - t0
    print(f"trained {decisions} learner decisions in {elapsed:.1f} s ({decisions / elapsed:,.0f} learner "
          f"decisions/s): rollouts {rollout_s:.1f} s ({decisions / rollout_s:,.0f}/s), "
          f"updates {update_s:.1f} s ({decisions / update_s:,.0f} rows/s); CPU time: rollouts "
          f"{rollout_cpu:.1f} s, updates {update_cpu:.1f} s "
          f"({decisions / (rollout_cpu + update_cpu):,.0f} learner decisions per CPU second)")
    scratch = tempfile.TemporaryDirectory()
    weights = a.save or (os.path.join(scratch.name, "ppo_torch.safetensors") if a.export else None)
    if weights:
        from safetensors.torch import save_file

        save_file({k: v.contiguous() for k, v in agent.state_dict().items()}, weights)
        print(f"weights saved to {weights}")
    for bot in ("random", "greedy") if a.eval_games > 0 else ():
        rate, half, played = evaluate(agent, bot, a.players, a.eval_games, seed=a.seed + 99)
        print(f"argmax policy vs {a.players - 1} x {bot}: win rate {rate:.3f} ± {half:.3f} over {played} games "
              f"(chance {1 / a.players:.2f})")
    if a.export:
        kessel_sabacc.export_bundle(weights, a.export, num_players=a.players, training_step=decisions,
                                    seed=a.seed, force=True)
        print(f"export bundle written to {a.export}; an agent spec: {a.export}@argmax")
    scratch.cleanup()


if __name__ == "__main__":
    main()
