"""RLlib (Ray 2.60, new API stack) on the Rust vector env: many games per env runner, observations
and masks as numpy batches, the opponents played in Rust.

* :class:`kessel_sabacc.PoolVecEnv` — a ``gymnasium.vector.VectorEnv`` of ``num_envs`` games of one learner
  against a pool of opponent lineups (each lineup plays an equal share of the games), stepped in
  Rust by :class:`kessel_sabacc.SingleVecEnv` in Gymnasium's ``NEXT_STEP`` auto-reset mode, the
  mode RLlib's ``SingleAgentEnvRunner`` expects, for any registered game (``game`` in the
  ``env_config``; Kessel Sabacc by default). Observations are
  ``{"observations": float32 (N, obs_len), "action_mask": float32 (N, num_actions)}``.
* :func:`env_creator` — what ``ray.tune.registry.register_env`` takes; with
  ``config.env_runners(gym_env_vectorize_mode="vector_entry_point")`` the runner asks it for one
  vector env of ``num_envs_per_env_runner`` games instead of wrapping single games.
* :class:`MaskedPPOModule` — a torch ``RLModule`` with the project's network (separate actor and
  critic trunks, ReLU, a policy head of one logit per action and a value head; ``docs/export.md``) whose
  parameter names are those of an export bundle's ``policy.safetensors``, illegal actions set to
  -1e9: :func:`export` writes it as a bundle with ``kessel_sabacc.export_bundle``.
* :func:`ppo_config` — PPO settings that run at speed on CPUs.

Why not RLlib's ``MultiAgentEnvRunner``: it steps a list of ``MultiAgentEnv`` objects one by one
in Python (``SyncVectorMultiAgentEnv``), building per-agent dicts for every game and every step,
so a runner's throughput is bounded by Python work per game whatever the engine's speed. Here
the learner holds one seat per game and the other seats are played in Rust by bots, checkpoints
or export bundles (snapshots of the learner, for a league), so each RLlib step is one Rust call
for all the runner's games.

Importing this module imports ``ray`` and ``torch`` (``pip install "kessel-sabacc[rllib]"``).
"""

from __future__ import annotations

import math
import os
import tempfile
from typing import Any, Sequence

import numpy as np
import torch
import torch.nn as nn
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.torch.torch_rl_module import TorchRLModule

from . import _native
from .vector import PoolVecEnv

#: The logit of an illegal action, as in an export bundle's ONNX graph.
MASKED_LOGIT = -1e9


def parse_pool(text: str) -> list[list[str]]:
    """``"greedy;expert;greedy,random"`` → ``[["greedy"], ["expert"], ["greedy", "random"]]``:
    lineups separated by ``;``, the seats of a lineup by ``,``."""
    pool = [[s.strip() for s in lineup.split(",") if s.strip()] for lineup in text.split(";") if lineup.strip()]
    if not pool:
        raise ValueError(f"no lineup in {text!r}; write e.g. 'greedy;expert' (';' between lineups, ',' between seats)")
    return pool


def env_creator(config: dict) -> PoolVecEnv:
    """RLlib's env creator: ``config`` is the ``env_config`` (``game``, ``pool``, ``seed``,
    ``rules``, ``reward``, ``num_threads``) plus ``num_envs`` (set by the env runner in
    ``vector_entry_point`` mode). Each runner's games get their own seeds (its
    ``worker_index``)."""
    worker = getattr(config, "worker_index", 0)
    return PoolVecEnv(
        num_envs=int(config.get("num_envs", 1)),
        pool=config.get("pool"),
        seed=int(config.get("seed", 0)) + 1_000_003 * worker,
        rules=config.get("rules"),
        reward=config.get("reward"),
        num_threads=config.get("num_threads", 1),
        game=config.get("game", "kessel"),
    )


def refresh_pool(env_runner, pool: Sequence[Sequence[str]]) -> None:
    """Rebuilds an env runner's :class:`PoolVecEnv` with the lineups ``pool`` (for
    ``algo.env_runner_group.foreach_env_runner``), e.g. to put a new snapshot of the learner in
    a league. A snapshot must be a new folder: agents are loaded once per path and process."""
    env_runner.config.env_config["pool"] = [list(p) for p in pool]
    env_runner.make_env()


def _linear(m: int, n: int, std: float) -> nn.Linear:
    lin = nn.Linear(m, n)
    nn.init.orthogonal_(lin.weight, std)
    nn.init.zeros_(lin.bias)
    return lin


class MaskedPPOModule(TorchRLModule, ValueFunctionAPI):
    """The project's policy network as an RLlib module: actor and critic trunks
    ``obs_len → hidden… `` (ReLU; ``model_config["hidden"]``, default ``[256, 256]``), a policy
    head of ``num_actions`` logits (illegal ones set to ``MASKED_LOGIT``) and a value head. The
    parameter names (``actor_trunk.0.weight``, …, ``value_head.bias``) are an export bundle's."""

    def setup(self):
        hidden = list(self.model_config.get("hidden", [256, 256]))
        obs_len = self.observation_space["observations"].shape[0]
        widths = [obs_len, *hidden]
        self.actor_trunk = nn.ModuleList(_linear(m, n, math.sqrt(2)) for m, n in zip(widths, widths[1:]))
        self.critic_trunk = nn.ModuleList(_linear(m, n, math.sqrt(2)) for m, n in zip(widths, widths[1:]))
        self.policy_head = _linear(widths[-1], self.action_space.n, 0.01)
        self.value_head = _linear(widths[-1], 1, 1.0)

    @staticmethod
    def _trunk(layers, x):
        for layer in layers:
            x = torch.relu(layer(x))
        return x

    def _forward(self, batch, **kwargs):
        obs = batch[Columns.OBS]
        logits = self.policy_head(self._trunk(self.actor_trunk, obs["observations"]))
        return {Columns.ACTION_DIST_INPUTS: logits.masked_fill(obs["action_mask"] == 0, MASKED_LOGIT)}

    def compute_values(self, batch, embeddings=None):
        x = batch[Columns.OBS]["observations"]
        return self.value_head(self._trunk(self.critic_trunk, x)).squeeze(-1)


def module_spec(hidden: Sequence[int] = (256, 256)):
    """The ``RLModuleSpec`` of :class:`MaskedPPOModule` with ``hidden`` widths."""
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    return RLModuleSpec(module_class=MaskedPPOModule, model_config={"hidden": list(hidden)})


def ppo_config(
    pool: Sequence[Sequence[str]],
    env_runners: int = 1,
    envs_per_runner: int = 256,
    batch: int = 32768,
    minibatch: int = 8192,
    epochs: int = 4,
    lr: float = 3e-4,
    entropy: float = 0.03,
    hidden: Sequence[int] = (256, 256),
    seed: int = 0,
    rules: dict | str | None = None,
    game: str = "kessel",
):
    """A ``PPOConfig`` for :class:`PoolVecEnv` of ``game`` (registered as ``"kessel_sabacc_pool"``) and
    :class:`MaskedPPOModule` that runs at speed on CPUs: one vector env of ``envs_per_runner``
    games per runner (``vector_entry_point``), one core and one torch thread per runner, the Rust
    env single-threaded inside it, and large batches (one train batch = ``batch`` learner
    decisions; the rollout fragment is ``batch / (env_runners × envs_per_runner)`` steps, at
    least 1). With ``env_runners=0`` the driver samples itself."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.tune.registry import register_env

    register_env("kessel_sabacc_pool", env_creator)
    runners = max(env_runners, 1)
    fragment = max(1, batch // (runners * envs_per_runner))
    return (
        PPOConfig()
        .environment(
            "kessel_sabacc_pool",
            env_config={"game": game, "pool": [list(p) for p in pool], "seed": seed, "rules": rules,
                        "num_threads": 1},
            # RLlib's check steps unmasked random actions, which the env refuses as illegal.
            disable_env_checking=True,
        )
        .env_runners(
            num_env_runners=env_runners,
            num_envs_per_env_runner=envs_per_runner,
            gym_env_vectorize_mode="vector_entry_point",
            num_cpus_per_env_runner=1,
            rollout_fragment_length=fragment,
            # Torch start-up in each runner can take over RLlib's default 60 s on a busy machine.
            sample_timeout_s=600,
        )
        .rl_module(rl_module_spec=module_spec(hidden))
        .training(
            train_batch_size_per_learner=batch,
            minibatch_size=minibatch,
            num_epochs=epochs,
            lr=lr,
            entropy_coeff=entropy,
            gamma=0.99,
            lambda_=0.95,
            vf_loss_coeff=0.5,
            grad_clip=0.5,
        )
        .debugging(seed=seed)
    )


def state_dict(algo) -> dict[str, torch.Tensor]:
    """The learner's weights from an ``Algorithm``, as tensors named for an export bundle."""
    from ray.rllib.core import DEFAULT_MODULE_ID

    module = algo.get_module(DEFAULT_MODULE_ID)
    return {k: v.detach().cpu().contiguous() for k, v in module.state_dict().items()}


def export(weights: dict[str, torch.Tensor], out: str, hidden: Sequence[int] = (256, 256), num_players: int = 2,
           rules: dict | str | None = None, training_step: int = 0, seed: int = 0, game: str = "kessel") -> str:
    """Writes ``weights`` (:func:`state_dict`) as an export bundle folder ``out`` of ``game``
    (replacing a previous bundle) with ``kessel_sabacc.export_bundle``; returns ``out``, an agent
    spec that ``agent``, ``arena`` and ``sabacc eval`` play."""
    from safetensors.torch import save_file

    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "policy.safetensors")
        save_file(weights, path)
        _native.export_bundle(path, out, hidden=list(hidden), num_players=num_players, rules=rules,
                              training_step=training_step, seed=seed, force=True, game=game)
    return out
