"""Throughput on a Ray cluster: RLlib env-runner sampling with 1 and 2 runners, one PPO training
iteration, an arena tournament and a token-value study in 1 and 2 shards
(``kessel_sabacc.cluster``).

    ray start --head --port 6390 --num-cpus 2            # plus `ray start --address HEAD:6390` per extra node
    python examples/python/ray_bench.py --address 127.0.0.1:6390

Sampling is timed around ``EnvRunner.sample`` and ``get_metrics`` on every runner at once (the runners' clocks, so
actor start-up is excluded); ratios are the two-runner rate over the one-runner rate measured in
the same run. The arena and token-value figures check that the sharded report equals the
one-shard report. ``--skip-rllib`` leaves out the RLlib figures (and needs no torch).
"""

from __future__ import annotations

import argparse
import time


def sampling(address, runners, envs, steps, repeats, hidden):
    """Env steps/s of ``runners`` env runners sampling at once (sum over runners, median of
    ``repeats``), and env steps/s of one PPO ``train()`` iteration with them."""
    from kessel_sabacc import rllib

    config = rllib.ppo_config([["greedy"], ["expert"]], env_runners=runners, envs_per_runner=envs,
                              batch=steps * runners, minibatch=min(4096, steps * runners), hidden=hidden)
    algo = config.build_algo()

    def timed(runner):
        # As RLlib's own sampling does in training (`synchronous_parallel_sample`): sample, then
        # collect the metrics, which also releases the finished episodes the runner keeps for
        # them; sampling alone keeps every episode and the runner's memory grows by the
        # megabyte, which slows the runners that share a machine.
        t = time.perf_counter()
        episodes = runner.sample(num_timesteps=steps, random_actions=False)
        runner.get_metrics()
        return sum(len(e) for e in episodes), time.perf_counter() - t

    rates = []
    algo.env_runner_group.foreach_env_runner(timed, local_env_runner=False)  # warm-up
    for _ in range(repeats):
        out = algo.env_runner_group.foreach_env_runner(timed, local_env_runner=False)
        # The runners sample side by side: total steps over the slowest runner's time.
        rates.append(sum(n for n, _ in out) / max(t for _, t in out))
    rates.sort()
    result = algo.train()
    train_rate = result["env_runners"]["num_env_steps_sampled"] / result["time_this_iter_s"]
    algo.stop()
    return rates[len(rates) // 2], train_rate


def shards(agents, games, n):
    import kessel_sabacc.cluster as cluster

    t = time.perf_counter()
    report = cluster.arena(agents, players=2, games=games, seed=5, shards=n, progress=False)
    return report, time.perf_counter() - t


def value_shards(agents, deals, n):
    import kessel_sabacc.cluster as cluster

    t = time.perf_counter()
    report = cluster.token_values(agents, tokens="all", players=4, deals=deals, seed=5, shards=n, progress=False)
    return report, time.perf_counter() - t


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--address", default=None)
    p.add_argument("--envs-per-runner", type=int, default=256)
    # 65,536 steps take a runner about 5 s: long enough that one garbage-collection pause or Ray
    # call on either runner does not decide the ratio (at 16,384 the two-runner ratio of five
    # runs spread from 1.30x to 1.80x; BENCHMARKS.md).
    p.add_argument("--steps", type=int, default=65536, help="env steps each runner samples per timing")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--hidden", default="256,256")
    p.add_argument("--arena-games", type=int, default=4000)
    p.add_argument("--arena-agents", default="champion@argmax,greedy")
    p.add_argument("--value-deals", type=int, default=2000, help="deals per token of the token-value study")
    p.add_argument("--value-agents", default="expert", help="opponents, each also a focal agent")
    p.add_argument("--skip-rllib", action="store_true")
    p.add_argument("--skip-arena", action="store_true")
    p.add_argument("--skip-values", action="store_true")
    a = p.parse_args()
    import ray

    if not a.skip_rllib:
        import torch

        torch.set_num_threads(1)  # the learner runs in this process; as rllib_ppo.py's default
    ray.init(address=a.address)
    cpus = ray.cluster_resources().get("CPU", 0)
    nodes = len([n for n in ray.nodes() if n["Alive"]])
    print(f"cluster: {nodes} node(s), {cpus:g} CPUs", flush=True)
    hidden = [int(h) for h in a.hidden.split(",")]
    if not a.skip_rllib:
        one, train_one = sampling(a.address, 1, a.envs_per_runner, a.steps, a.repeats, hidden)
        print(f"rllib sampling, 1 env runner x {a.envs_per_runner} games: {one:,.0f} env steps/s "
              f"(a PPO iteration with it: {train_one:,.0f} env steps/s)", flush=True)
        two, train_two = sampling(a.address, 2, a.envs_per_runner, a.steps, a.repeats, hidden)
        print(f"rllib sampling, 2 env runners x {a.envs_per_runner} games: {two:,.0f} env steps/s "
              f"= {two / one:.2f}x one runner (a PPO iteration with them: {train_two:,.0f} env steps/s)", flush=True)
    if not a.skip_arena:
        agents = a.arena_agents.split(",")
        r1, t1 = shards(agents, a.arena_games, 1)
        r2, t2 = shards(agents, a.arena_games, 2)
        same = r1 == r2
        print(f"arena {agents} heads-up, {r1['settings']['games']} games: 1 shard {t1:.1f} s, 2 shards {t2:.1f} s "
              f"= {t1 / t2:.2f}x; reports identical: {same}", flush=True)
        if not same:
            raise SystemExit("the sharded arena report differs from the one-shard report")
    if not a.skip_values:
        agents = a.value_agents.split(",")
        r1, t1 = value_shards(agents, a.value_deals, 1)
        r2, t2 = value_shards(agents, a.value_deals, 2)
        same = r1 == r2
        print(f"token values {agents} at 4 seats, {r1['games']} games ({a.value_deals} deals x "
              f"{len(r1['settings']['tokens'])} tokens x 2 arms per focal agent): 1 shard {t1:.1f} s, "
              f"2 shards {t2:.1f} s = {t1 / t2:.2f}x; reports identical: {same}", flush=True)
        if not same:
            raise SystemExit("the sharded token-value report differs from the one-shard report")
    ray.shutdown()


if __name__ == "__main__":
    main()
