"""Kessel Sabacc — and every other game the engine registers — as a reinforcement-learning
environment, over a Rust engine.

Every class and function takes ``game=`` (a short id from ``games()``: ``"kessel"``, the default,
``"classic"`` for classic Sabacc, …, or an environment id); ``game_info(game)`` says what the
game is (ids, observation and action sizes, table sizes, action names, defaults).

* ``env(...)`` / ``raw_env(...)`` — PettingZoo AEC environment (all seats).
* ``gymnasium.make(gym_id(game), opponents=[...])`` — one learner against agents
  (:class:`SingleAgentEnv`); ``gymnasium.make_vec(gym_id(game), num_envs=N,
  vectorization_mode="vector_entry_point")`` or :class:`SingleVecEnv` — ``N`` such games in Rust;
  :class:`PoolVecEnv` — the same against a pool of opponent lineups, for RLlib
  (:mod:`kessel_sabacc.rllib`; research over a Ray cluster: :mod:`kessel_sabacc.cluster`).
* :class:`VecEnv` — ``N`` self-play games stepped in Rust, numpy views of its buffers.
* ``agent(spec)`` and ``arena(agents, ...)`` — bots, checkpoints (the shipped ones by name from
  any folder: ``agent("champion")``), export bundles and tournaments; ``token_values(agents,
  ...)`` — what each Shift Token kind is worth to an agent (``sabacc tokens value``);
  ``export_bundle(weights, out)`` — weights trained in PyTorch as a bundle those accept.
* :class:`Game` — one game, the engine under the AEC env; ``Game.from_scenario(json)`` loads a
  position (``docs/scenarios.md``).

One environment, one version, three spellings: a game's environment id (``ENV_ID``,
``kessel_sabacc_v1``, for the default game) names the observation layout and reward conventions;
it is the PettingZoo ``metadata["name"]`` and the ``env_id`` of an export bundle's contract. Its
Gymnasium id (``GYM_ID``, ``KesselSabacc-v1``) is the same id in Gymnasium's ``Name-vN`` form
(:mod:`kessel_sabacc.gym_ids`). ``OBS_LEN``, ``OBS_VERSION`` and ``NUM_ACTIONS`` are the default
game's sizes; :mod:`kessel_sabacc.compat` keeps the former per-game names (``CLASSIC_ENV_ID``,
``ClassicGame``, …).
"""

from __future__ import annotations

from . import _native
from ._native import (
    MAX_PLAYERS,
    Game,
    GameInfo,
    action_names,
    episode_seed,
    export_bundle,
    game_info,
    games,
    observation_bounds,
)
from .aec import env, raw_env
from . import shipped
from .agents import Agent, agent, arena, token_values
from .gym_ids import gym_id, register as _register_gymnasium
from .single import SingleAgentEnv
from .vector import PoolVecEnv, SingleVecEnv, VecEnv
from .compat import (
    CLASSIC_ENV_ID,
    CLASSIC_GYM_ID,
    CLASSIC_NUM_ACTIONS,
    CLASSIC_OBS_LEN,
    CLASSIC_OBS_VERSION,
    ClassicGame,
    ClassicSabaccEnv,
    ClassicSingleVecEnv,
    KesselSabaccEnv,
    classic_action_names,
)

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
    "GameInfo",
    "KesselSabaccEnv",
    "PoolVecEnv",
    "SingleAgentEnv",
    "SingleVecEnv",
    "VecEnv",
    "action_names",
    "agent",
    "arena",
    "classic_action_names",
    "env",
    "episode_seed",
    "export_bundle",
    "game_info",
    "games",
    "gym_id",
    "load_scenario",
    "observation_bounds",
    "raw_env",
    "shipped",
    "token_values",
]

_DEFAULT = game_info("kessel")
#: The default game's environment id (``kessel_sabacc_v1``).
ENV_ID = _DEFAULT.env_id
#: The default game's Gymnasium id (``KesselSabacc-v1``).
GYM_ID = gym_id("kessel")
#: Floats per observation of the default game.
OBS_LEN = _DEFAULT.obs_len
#: Version of the default game's observation layout.
OBS_VERSION = _DEFAULT.obs_version
#: Size of the default game's action space.
NUM_ACTIONS = _DEFAULT.num_actions


def load_scenario(path_or_json: str, **kwargs) -> raw_env:
    """A ``raw_env`` whose first game starts at a scenario: a path to a JSON file or the JSON
    text itself (the game's scenario format: ``docs/scenarios.md`` for Kessel; ``game=`` as for
    ``raw_env``). Later resets deal fresh games."""
    text = path_or_json
    if not path_or_json.lstrip().startswith("{"):
        with open(path_or_json, encoding="utf-8") as f:
            text = f.read()
    return raw_env(scenario=text, **kwargs)


_register_gymnasium()
