"""Former names, kept as thin aliases of the generic API so code written when each game had its
own classes and constants keeps working. New code passes ``game=`` and reads
``game_info(game)``."""

from __future__ import annotations

from ._native import Game, action_names, game_info
from .gym_ids import gym_id
from .single import SingleAgentEnv
from .vector import SingleVecEnv

_CLASSIC = game_info("classic")

#: ``game_info("classic").env_id``.
CLASSIC_ENV_ID = _CLASSIC.env_id
#: ``gym_id("classic")``.
CLASSIC_GYM_ID = gym_id("classic")
#: ``game_info("classic").obs_len``.
CLASSIC_OBS_LEN = _CLASSIC.obs_len
#: ``game_info("classic").obs_version``.
CLASSIC_OBS_VERSION = _CLASSIC.obs_version
#: ``game_info("classic").num_actions``.
CLASSIC_NUM_ACTIONS = _CLASSIC.num_actions

#: ``SingleAgentEnv`` (Kessel Sabacc is the default game).
KesselSabaccEnv = SingleAgentEnv


def classic_action_names() -> list[str]:
    """``action_names("classic")``."""
    return action_names("classic")


class ClassicGame:
    """``Game(..., game="classic")``: calling it makes a ``Game`` of classic Sabacc."""

    def __new__(cls, num_players: int | None = None, rules=None, reward: str | None = None) -> Game:
        return Game(num_players, rules, reward, game="classic")

    @staticmethod
    def from_scenario(text: str, reward: str | None = None) -> Game:
        """``Game.from_scenario(text, reward, game="classic")``."""
        return Game.from_scenario(text, reward, game="classic")


class ClassicSabaccEnv(SingleAgentEnv):
    """``SingleAgentEnv(..., game="classic")``."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("game", "classic")
        super().__init__(*args, **kwargs)


class ClassicSingleVecEnv(SingleVecEnv):
    """``SingleVecEnv(..., game="classic")``."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("game", "classic")
        super().__init__(*args, **kwargs)
