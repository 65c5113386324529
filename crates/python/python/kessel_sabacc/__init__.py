"""Kessel Sabacc as a reinforcement-learning environment, over a Rust engine.

* ``env(...)`` / ``raw_env(...)`` — PettingZoo AEC environment (all seats).
* ``gymnasium.make("KesselSabacc-v0", opponents=[...])`` — one learner against agents
  (:class:`KesselSabaccEnv`); ``gymnasium.make_vec("KesselSabacc-v0", num_envs=N,
  vectorization_mode="vector_entry_point")`` or :class:`SingleVecEnv` — ``N`` such games in Rust.
* :class:`VecEnv` — ``N`` self-play games stepped in Rust, numpy views of its buffers.
* ``agent(spec)`` and ``arena(agents, ...)`` — bots, checkpoints, export bundles and tournaments;
  ``export_bundle(weights, out)`` — weights trained in PyTorch as a bundle those accept.
* :class:`Game` — one game, the engine under the AEC env; ``Game.from_scenario(json)`` loads a
  position (``docs/scenarios.md``).
"""

from __future__ import annotations

import gymnasium

from . import _native
from ._native import (
    ENV_ID,
    MAX_PLAYERS,
    NUM_ACTIONS,
    OBS_LEN,
    OBS_VERSION,
    Game,
    action_names,
    episode_seed,
    export_bundle,
)
from .aec import env, raw_env
from .agents import Agent, agent, arena
from .single import KesselSabaccEnv
from .vector import SingleVecEnv, VecEnv

__all__ = [
    "ENV_ID",
    "MAX_PLAYERS",
    "NUM_ACTIONS",
    "OBS_LEN",
    "OBS_VERSION",
    "Agent",
    "Game",
    "KesselSabaccEnv",
    "SingleVecEnv",
    "VecEnv",
    "action_names",
    "agent",
    "arena",
    "env",
    "episode_seed",
    "export_bundle",
    "load_scenario",
    "raw_env",
]

GYM_ID = "KesselSabacc-v0"


def load_scenario(path_or_json: str, **kwargs) -> raw_env:
    """A ``raw_env`` whose first game starts at a scenario: a path to a JSON file or the JSON
    text itself (format: ``docs/scenarios.md``). Later resets deal fresh games."""
    text = path_or_json
    if not path_or_json.lstrip().startswith("{"):
        with open(path_or_json, encoding="utf-8") as f:
            text = f.read()
    return raw_env(scenario=text, **kwargs)


if GYM_ID not in gymnasium.registry:
    gymnasium.register(
        id=GYM_ID,
        entry_point="kessel_sabacc.single:KesselSabaccEnv",
        vector_entry_point="kessel_sabacc.vector:SingleVecEnv",
    )
