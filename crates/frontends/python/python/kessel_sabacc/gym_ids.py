"""The Gymnasium ids of the registered games, and their registration with Gymnasium.

A game's Gymnasium id is its environment id in Gymnasium's ``Name-vN`` form
(``kessel_sabacc_v1`` → ``KesselSabacc-v1``), so the two change together, except for ids
published before that rule, which stay as published: classic Sabacc's ``ClassicSabacc-v0``
(registering a ``ClassicSabacc-v1`` beside it would make Gymnasium call it out of date; the next
change to the classic observation layout or rewards bumps both). An id a game had before it took
its environment id's version (``KesselSabacc-v0``) still makes the same env, and Gymnasium warns
that it is out of date. A newly registered game gets its derived id with no change here.
"""

from __future__ import annotations

import gymnasium

from . import _native

# Gymnasium ids published before they were derived from the environment id, by environment id.
_PUBLISHED = {"classic_sabacc_v1": "ClassicSabacc-v0"}
# Earlier Gymnasium ids that still make a game's env, by environment id.
_FORMER = {"kessel_sabacc_v1": ("KesselSabacc-v0",)}


def derived_gym_id(env_id: str) -> str:
    """``kessel_sabacc_v1`` in Gymnasium's form: ``KesselSabacc-v1``."""
    name, _, version = env_id.rpartition("_v")
    return "".join(word.capitalize() for word in name.split("_")) + "-v" + version


def gym_id(game: str = "kessel") -> str:
    """The Gymnasium id of ``game`` (a short id or an environment id), the one
    ``gymnasium.make`` and ``gymnasium.make_vec`` take."""
    env_id = _native.game_info(game).env_id
    return _PUBLISHED.get(env_id, derived_gym_id(env_id))


def register() -> None:
    """Registers every registered game with Gymnasium (once): the single-agent env
    (``kessel_sabacc.single:SingleAgentEnv``) and its vector form
    (``kessel_sabacc.vector:SingleVecEnv``), with ``game`` set."""
    for game in _native.games():
        env_id = _native.game_info(game).env_id
        for name in (gym_id(game), *_FORMER.get(env_id, ())):
            if name not in gymnasium.registry:
                gymnasium.register(
                    id=name,
                    entry_point="kessel_sabacc.single:SingleAgentEnv",
                    vector_entry_point="kessel_sabacc.vector:SingleVecEnv",
                    kwargs={"game": game},
                )
