"""RLlib multi-agent PPO with action masking on the PettingZoo env, on a Ray cluster.

For training at speed use ``rllib_ppo.py`` instead: this example steps one PettingZoo game per
``MultiAgentEnv`` through RLlib's multi-agent runner, which steps its envs one by one in Python
with per-agent dicts at every step (a few hundred env steps/s per runner; ``BENCHMARKS.md``,
"RLlib and Ray"), while ``rllib_ppo.py`` steps hundreds of games per runner in one Rust call. It
stays as the plain PettingZoo route (self-play of every seat by one policy).

Every seat is played by one shared policy (self-play). RLlib's action-masking module reads
observations shaped ``{"observations": …, "action_mask": …}`` with a float mask, so a small
wrapper renames the PettingZoo ``observation`` key and casts the mask.

A local Ray cluster (one machine)::

    pip install "./crates/frontends/python[rllib]"
    ray start --head
    python examples/python/rllib_multiagent.py --address auto --env-runners 2 --smoke
    ray stop

A real multi-machine cluster (every node on the same private network, able to reach the head
on port 6379 and each other on Ray's worker ports):

1. On every machine, the same Python version and the same packages: this package with its
   ``[rllib]`` extra, built once into a wheel (``maturin build --release -m
   crates/frontends/python/Cargo.toml``, then ``pip install "target/wheels/kessel_sabacc-*.whl[rllib]"`` on
   each node; the wheel is abi3, one file for CPython ≥ 3.11 on the same OS and CPU
   architecture), and Ray's cluster token on every node (crates/frontends/python/README.md, "RLlib and
   Ray").
2. On the head node: ``ray start --head --port 6379``.
3. On each worker node: ``ray start --address HEAD_IP:6379`` (``--num-cpus N`` to offer fewer
   cores than the machine has).
4. ``ray status`` on the head lists the nodes and their CPUs.
5. On the head node: ``python examples/python/rllib_multiagent.py --address auto
   --env-runners R`` with ``R`` up to the cluster's CPUs minus one for the learner (the driver
   process); Ray places the env runners on whichever nodes have free CPUs.
6. ``ray stop`` on every node when done.
"""

from __future__ import annotations

import argparse

import numpy as np
from gymnasium import spaces
from pettingzoo.utils import BaseWrapper

import kessel_sabacc


class RenameObservation(BaseWrapper):
    """Presents ``{"observations", "action_mask"}`` instead of ``{"observation", "action_mask"}``,
    the mask as float32."""

    def __init__(self, env):
        super().__init__(env)
        # The masking module takes log(mask), so the mask is float32 in [0, 1] (the env's is int8).
        self._spaces = {
            a: spaces.Dict({
                "observations": env.observation_space(a)["observation"],
                "action_mask": spaces.Box(0.0, 1.0, env.observation_space(a)["action_mask"].shape, np.float32),
            })
            for a in env.possible_agents
        }

    def observation_space(self, agent):
        return self._spaces[agent]

    def observe(self, agent):
        o = self.env.observe(agent)
        return {"observations": o["observation"], "action_mask": o["action_mask"].astype(np.float32)}


def env_creator(config):
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    return PettingZooEnv(RenameObservation(kessel_sabacc.raw_env(num_players=config.get("players", 4))))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--address", default=None, help="Ray cluster address ('auto' after `ray start --head`)")
    p.add_argument("--env-runners", type=int, default=2)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--iterations", type=int, default=100)
    p.add_argument("--smoke", action="store_true", help="2 small iterations")
    a = p.parse_args()
    if a.smoke:
        a.iterations = 2

    import ray
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
    from ray.tune.registry import register_env

    ray.init(address=a.address)
    register_env("kessel_sabacc", env_creator)
    batch = 2000 if a.smoke else 16000
    config = (
        PPOConfig()
        # RLlib's env check steps an unmasked random action, which the AEC env refuses as
        # illegal (ValueError); the masked module never picks one, so the check is skipped.
        .environment("kessel_sabacc", env_config={"players": a.players}, disable_env_checking=True)
        # A generous sample timeout: on a busy machine the first rollouts (torch start-up in each
        # runner) can take over RLlib's default 60 s, and a timed-out iteration trains on nothing.
        .env_runners(num_env_runners=a.env_runners, sample_timeout_s=600)
        .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent_id, *args, **kwargs: "shared")
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={
                    "shared": RLModuleSpec(
                        module_class=ActionMaskingTorchRLModule,
                        model_config={"fcnet_hiddens": [256, 256], "head_fcnet_hiddens": []},
                    )
                }
            )
        )
        .training(train_batch_size_per_learner=batch, minibatch_size=batch // 4, num_epochs=4,
                  lr=3e-4, entropy_coeff=0.03, gamma=0.99, lambda_=0.95)
    )
    algo = config.build_algo()
    for i in range(a.iterations):
        result = algo.train()
        runners = result.get("env_runners", {})
        length = runners.get("episode_len_mean")
        print(f"iteration {i + 1}: env steps {result.get('num_env_steps_sampled_lifetime')}, "
              f"episodes {runners.get('num_episodes_lifetime')}, "
              f"mean episode length {'-' if length is None else f'{length:.1f}'}, "
              f"{result.get('time_this_iter_s', float('nan')):.1f} s", flush=True)
    algo.stop()
    ray.shutdown()


if __name__ == "__main__":
    main()
