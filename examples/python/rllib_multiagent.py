"""RLlib multi-agent PPO with action masking on the PettingZoo env, on a Ray cluster.

Every seat is played by one shared policy (self-play). RLlib's action-masking module reads
observations shaped ``{"observations": …, "action_mask": …}``, so a small wrapper renames the
PettingZoo ``observation`` key.

A local Ray cluster (one machine)::

    pip install ./crates/python "ray[rllib]" torch
    ray start --head
    python examples/python/rllib_multiagent.py --address auto --env-runners 2 --smoke
    ray stop

A real multi-machine cluster: install the same packages (and this package, built on each
machine or from one wheel: ``maturin build --release -m crates/python/Cargo.toml`` then
``pip install target/wheels/kessel_sabacc-*.whl``) on every machine, run
``ray start --head --port 6379`` on the head node and ``ray start --address HEAD_IP:6379`` on
each worker, then run this script on the head node with ``--address auto`` and as many
``--env-runners`` as the cluster has spare cores; RLlib spreads the env runners over the nodes.
``ray status`` shows the nodes and their cores.
"""

from __future__ import annotations

import argparse

import numpy as np
from gymnasium import spaces
from pettingzoo.utils import BaseWrapper

import kessel_sabacc


class RenameObservation(BaseWrapper):
    """Presents ``{"observations", "action_mask"}`` instead of ``{"observation", "action_mask"}``."""

    def __init__(self, env):
        super().__init__(env)
        self._spaces = {
            a: spaces.Dict({
                "observations": env.observation_space(a)["observation"],
                "action_mask": env.observation_space(a)["action_mask"],
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
        .environment("kessel_sabacc", env_config={"players": a.players})
        .env_runners(num_env_runners=a.env_runners)
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
        print(f"iteration {i + 1}: env steps {result.get('num_env_steps_sampled_lifetime')}, "
              f"episodes {runners.get('num_episodes_lifetime')}, "
              f"mean episode length {runners.get('episode_len_mean')}", flush=True)
    algo.stop()
    ray.shutdown()


if __name__ == "__main__":
    main()
