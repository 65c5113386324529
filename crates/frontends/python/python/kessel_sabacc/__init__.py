"""Kessel Sabacc as a reinforcement-learning environment, over a Rust engine.

* ``env(...)`` / ``raw_env(...)`` — PettingZoo AEC environment (all seats).
* ``gymnasium.make(GYM_ID, opponents=[...])`` — one learner against agents
  (:class:`KesselSabaccEnv`); ``gymnasium.make_vec(GYM_ID, num_envs=N,
  vectorization_mode="vector_entry_point")`` or :class:`SingleVecEnv` — ``N`` such games in Rust;
  :class:`PoolVecEnv` — the same against a pool of opponent lineups, for RLlib
  (:mod:`kessel_sabacc.rllib`; research over a Ray cluster: :mod:`kessel_sabacc.cluster`).
* :class:`VecEnv` — ``N`` self-play games stepped in Rust, numpy views of its buffers.
* ``agent(spec)`` and ``arena(agents, ...)`` — bots, checkpoints (the shipped ones by name from
  any folder: ``agent("champion")``), export bundles and tournaments; ``token_values(agents,
  ...)`` — what each token kind is worth to an agent (``sabacc tokens value``);
  ``export_bundle(weights, out)`` — weights trained in PyTorch as a bundle those accept.
* :class:`Game` — one game, the engine under the AEC env; ``Game.from_scenario(json)`` loads a
  position (``docs/scenarios.md``).
* Classic Sabacc, the project's second game: ``env(game="classic")`` / ``raw_env(game="classic")``,
  ``gymnasium.make(CLASSIC_GYM_ID, opponents=[...])`` (:class:`ClassicSabaccEnv`; its vector form
  :class:`ClassicSingleVecEnv`), :class:`ClassicGame`, and the ``CLASSIC_`` constants.

One environment, one version, three spellings: ``ENV_ID`` (``kessel_sabacc_v1``) names the
observation layout and reward conventions; it is the PettingZoo ``metadata["name"]`` and the
``env_id`` of an export bundle's contract. ``GYM_ID`` (``KesselSabacc-v1``) is the same id in
Gymnasium's ``Name-vN`` form, derived from ``ENV_ID``, so the two change together.

Classic Sabacc's are ``CLASSIC_ENV_ID`` (``classic_sabacc_v1``, its PettingZoo name and export
id) and ``CLASSIC_GYM_ID`` (``ClassicSabacc-v0``, its first Gymnasium version; see the README).
"""

from __future__ import annotations

import gymnasium

from . import _native
from ._native import (
    CLASSIC_ENV_ID,
    CLASSIC_NUM_ACTIONS,
    CLASSIC_OBS_LEN,
    CLASSIC_OBS_VERSION,
    ENV_ID,
    MAX_PLAYERS,
    NUM_ACTIONS,
    OBS_LEN,
    OBS_VERSION,
    ClassicGame,
    Game,
    action_names,
    classic_action_names,
    episode_seed,
    export_bundle,
)
from .aec import env, raw_env
from . import shipped
from .agents import Agent, agent, arena, token_values
from .single import ClassicSabaccEnv, KesselSabaccEnv
from .vector import ClassicSingleVecEnv, PoolVecEnv, SingleVecEnv, VecEnv

__all__ = [
    "CLASSIC_ENV_ID",
    "CLASSIC_GYM_ID",
    "CLASSIC_NUM_ACTIONS",
    "CLASSIC_OBS_LEN",
    "CLASSIC_OBS_VERSION",
    "ENV_ID",
    "GYM_ID",
    "MAX_PLAYERS",
    "NUM_ACTIONS",
    "OBS_LEN",
    "OBS_VERSION",
    "Agent",
    "ClassicGame",
    "ClassicSabaccEnv",
    "ClassicSingleVecEnv",
    "Game",
    "KesselSabaccEnv",
    "PoolVecEnv",
    "SingleVecEnv",
    "VecEnv",
    "action_names",
    "agent",
    "arena",
    "classic_action_names",
    "env",
    "episode_seed",
    "export_bundle",
    "load_scenario",
    "raw_env",
    "shipped",
    "token_values",
]



def _gym_id(env_id: str) -> str:
    """``kessel_sabacc_v1`` in Gymnasium's form: ``KesselSabacc-v1``."""
    name, _, version = env_id.rpartition("_v")
    return "".join(word.capitalize() for word in name.split("_")) + "-v" + version


GYM_ID = _gym_id(ENV_ID)
# The id the Gymnasium env had before it took ENV_ID's version; it still makes the same env, and
# Gymnasium warns that it is out of date.
_FORMER_GYM_ID = "KesselSabacc-v0"
# Classic Sabacc's Gymnasium id, the one it was first published under. Unlike GYM_ID, its version
# is not derived from CLASSIC_ENV_ID's: registering a ``ClassicSabacc-v1`` beside it would make
# Gymnasium call this id out of date. A change to the classic observation layout or rewards bumps
# both CLASSIC_ENV_ID and this id.
CLASSIC_GYM_ID = "ClassicSabacc-v0"


def load_scenario(path_or_json: str, **kwargs) -> raw_env:
    """A ``raw_env`` whose first game starts at a scenario: a path to a JSON file or the JSON
    text itself (format: ``docs/scenarios.md``). Later resets deal fresh games."""
    text = path_or_json
    if not path_or_json.lstrip().startswith("{"):
        with open(path_or_json, encoding="utf-8") as f:
            text = f.read()
    return raw_env(scenario=text, **kwargs)


for _id in (GYM_ID, _FORMER_GYM_ID):
    if _id not in gymnasium.registry:
        gymnasium.register(
            id=_id,
            entry_point="kessel_sabacc.single:KesselSabaccEnv",
            vector_entry_point="kessel_sabacc.vector:SingleVecEnv",
        )
if CLASSIC_GYM_ID not in gymnasium.registry:
    gymnasium.register(
        id=CLASSIC_GYM_ID,
        entry_point="kessel_sabacc.single:ClassicSabaccEnv",
        vector_entry_point="kessel_sabacc.vector:ClassicSingleVecEnv",
    )
