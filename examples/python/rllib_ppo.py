"""RLlib PPO at speed on the Rust vector env, on one machine or a Ray cluster: trains, reports win
rates, saves a checkpoint and writes an export bundle.

Each env runner steps one ``kessel_sabacc.rllib.PoolVecEnv`` of ``--envs-per-runner`` games (one
Rust call per step for all of them, observations and masks as numpy batches); the learner plays
one seat of each game against a pool of opponent lineups played in Rust (``--pool``, lineups
separated by ``;``), which can hold snapshots of the learner itself (``--league N`` adds the
learner as it was N iterations ago, exported as a bundle, refreshed every N iterations). The
network is the project's (``kessel_sabacc.rllib.MaskedPPOModule``: separate actor/critic trunks,
illegal logits -1e9), so the weights become a standard export bundle.

Every ``--eval-every`` iterations the policy is exported and played (argmax) heads-up against
``greedy`` and ``expert`` in the Rust arena (``--eval-games`` games each, seat rotation and
duplicate deals), printing win rates with 95 % Wilson intervals. At the end: an RLlib checkpoint
(``--checkpoint``) and the bundle (``--export``), which ``sabacc eval --agents DIR@argmax,greedy
--players 2`` and ``kessel_sabacc.agent("DIR")`` play.

    pip install "./crates/frontends/python[rllib]"
    python examples/python/rllib_ppo.py --smoke
    ray start --head --num-cpus 2                                 # a cluster (see crates/frontends/python/README.md)
    python examples/python/rllib_ppo.py --address auto --env-runners 1 --pool "greedy;greedy;greedy;expert" \\
        --hidden 128,128 --batch 16384 --minibatch 4096 --entropy 0.01 --minutes 24 --eval-every 25 \\
        --export exports/rllib-ppo --checkpoint checkpoints-rllib/ppo    # BENCHMARKS.md, "RLlib and Ray"

Throughput: each iteration prints env steps/s (learner decisions sampled per second of the
iteration's wall time: sampling and training, one after the other) and RLlib's own timers
(running means over iterations, not this iteration's). ``ray_bench.py`` times sampling alone.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time

import kessel_sabacc


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--address", default=None, help="Ray cluster address ('auto' after `ray start --head`); default: a local Ray")
    p.add_argument("--env-runners", type=int, default=1, help="remote env runners (0: the driver samples)")
    p.add_argument("--envs-per-runner", type=int, default=256, help="games per env runner")
    p.add_argument("--pool", default="greedy;greedy;expert;expert;random;loose;aggressive;tight",
                   help="opponent lineups, ';' between lineups, ',' between seats of one (table = seats + 1)")
    p.add_argument("--league", type=int, default=0,
                   help="add the learner as of N iterations ago to the pool, refreshed every N iterations (0: off)")
    p.add_argument("--batch", type=int, default=32768, help="learner decisions per training iteration")
    p.add_argument("--minibatch", type=int, default=8192)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--entropy", type=float, default=0.01)
    p.add_argument("--hidden", default="256,256", help="hidden widths of each trunk")
    p.add_argument("--iterations", type=int, default=1000)
    p.add_argument("--minutes", type=float, default=None, help="stop after this many minutes of training")
    p.add_argument("--eval-every", type=int, default=5, help="arena evaluation every N iterations (0: only at the end)")
    p.add_argument("--eval-games", type=int, default=400, help="arena games per opponent")
    p.add_argument("--torch-threads", type=int, default=1,
                   help="torch threads of the learner (in this process); 1 avoids spinning threads on a busy machine")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--checkpoint", default=None, help="save the RLlib checkpoint here at the end")
    p.add_argument("--export", default=None, help="write the export bundle here at the end (replacing a previous bundle)")
    p.add_argument("--smoke", action="store_true", help="2 small iterations and a short evaluation")
    a = p.parse_args()
    if a.smoke:
        a.iterations, a.envs_per_runner, a.batch, a.minibatch, a.eval_games, a.eval_every = 2, 64, 2048, 1024, 48, 1
    return a


def evaluate(bundle: str, games: int, seed: int) -> dict[str, tuple[float, float, float]]:
    """Heads-up win rates of ``bundle@argmax`` against greedy and expert: (rate, low, high)."""
    out = {}
    for bot in ("greedy", "expert"):
        report = kessel_sabacc.arena([f"{bundle}@argmax", bot], players=2, games=games, seed=seed)
        me = report["agents"][0]
        out[bot] = (me["win_rate"], me["ci_low"], me["ci_high"])
    return out


def main():
    a = parse_args()
    import ray
    from kessel_sabacc import rllib

    for tool in ("safetensors",):
        try:
            __import__(tool)
        except ImportError:
            sys.exit(f"{tool} is not installed: pip install \"./crates/frontends/python[rllib]\"")
    import torch

    torch.set_num_threads(a.torch_threads)
    pool = rllib.parse_pool(a.pool)
    hidden = [int(h) for h in a.hidden.split(",")]
    players = len(pool[0]) + 1
    ray.init(address=a.address)
    scratch = tempfile.mkdtemp(prefix="rllib-ppo-")
    league_dir = os.path.join(scratch, "league-0")
    if a.league:
        # The league entry starts as the untrained network, exported once so the spec loads.
        pool = pool + [[league_dir] * (players - 1)]
    config = rllib.ppo_config(pool, env_runners=a.env_runners, envs_per_runner=a.envs_per_runner, batch=a.batch,
                              minibatch=a.minibatch, epochs=a.epochs, lr=a.lr, entropy=a.entropy, hidden=hidden,
                              seed=a.seed)
    if a.league:
        # The league lineup needs a bundle before the env runners start: an untrained network.
        probe = rllib.PoolVecEnv(1, pool[:1])
        module = rllib.MaskedPPOModule(observation_space=probe.single_observation_space,
                                       action_space=probe.single_action_space, model_config={"hidden": hidden})
        rllib.export({k: v.detach().contiguous() for k, v in module.state_dict().items()}, league_dir,
                     hidden=hidden, num_players=players)
    algo = config.build_algo()
    print(f"RLlib PPO: {a.env_runners} env runner(s) x {a.envs_per_runner} games, {players} seats, "
          f"pool {pool}, batch {a.batch}", flush=True)
    t0 = time.time()
    steps = 0
    last = None
    for i in range(1, a.iterations + 1):
        result = algo.train()
        runners = result.get("env_runners", {})
        steps = int(result.get("num_env_steps_sampled_lifetime", steps))
        it_steps = int(runners.get("num_env_steps_sampled", 0))
        it_time = result.get("time_this_iter_s", float("nan"))
        ret = runners.get("episode_return_mean")
        timers = result.get("timers", {})
        sample_s = timers.get("env_runner_sampling_timer", float("nan"))
        learn_s = timers.get("learner_update_timer", float("nan"))
        elapsed = time.time() - t0
        budget = a.minutes * 60 if a.minutes else None
        left = (budget - elapsed) if budget else elapsed / i * (a.iterations - i)
        print(f"iteration {i}: env steps {steps:,} ({it_steps / it_time:,.0f}/s), "
              f"mean return {'-' if ret is None else f'{ret:+.3f}'}, {it_time:.1f} s "
              f"(RLlib's running-mean timers: sampling {sample_s:.1f} s, learner {learn_s:.1f} s), "
              f"elapsed {elapsed:.0f} s, ETA {max(left, 0):.0f} s", flush=True)
        stop = i == a.iterations or (budget is not None and elapsed + it_time > budget)
        if a.league and i % a.league == 0:
            # A new folder per snapshot, so no snapshot is rewritten while a runner may be reading
            # it; each runner rebuilds its env with the pool's league lineup pointing at it.
            league_dir = rllib.export(rllib.state_dict(algo), os.path.join(scratch, f"league-{i}"), hidden=hidden,
                                      num_players=players)
            pool[-1] = [league_dir] * (players - 1)
            algo.env_runner_group.foreach_env_runner(
                lambda r, lineups=[list(x) for x in pool]: rllib.refresh_pool(r, lineups),
                local_env_runner=a.env_runners == 0)
        if (a.eval_every and i % a.eval_every == 0) or stop:
            # One folder, rewritten: agents are cached by folder and write time, so the arena
            # below plays the new weights.
            bundle = rllib.export(rllib.state_dict(algo), os.path.join(scratch, "eval"), hidden=hidden,
                                  num_players=players, training_step=steps, seed=a.seed)
            last = evaluate(bundle, a.eval_games, seed=a.seed + 7)
            print("  arena (argmax, heads-up): " + ", ".join(
                f"vs {b} {100 * r:.1f} % [{100 * lo:.1f}, {100 * hi:.1f}]" for b, (r, lo, hi) in last.items()),
                flush=True)
        if stop:
            break
    elapsed = time.time() - t0
    print(f"trained {steps:,} env steps in {elapsed:.0f} s ({steps / elapsed:,.0f} env steps/s)")
    if a.checkpoint:
        path = algo.save(os.path.abspath(a.checkpoint))
        print(f"RLlib checkpoint saved to {path.checkpoint.path}")
    if a.export:
        rllib.export(rllib.state_dict(algo), a.export, hidden=hidden, num_players=players, training_step=steps,
                     seed=a.seed)
        print(f"export bundle written to {a.export}; an agent spec: {a.export}@argmax "
              f"(sabacc eval --agents {a.export}@argmax,greedy --players 2)")
    algo.stop()
    ray.shutdown()
    shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
