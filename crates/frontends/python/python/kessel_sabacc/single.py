"""The Gymnasium single-agent environment: one learner against agents (bots or checkpoints), for
every registered game.

Registered for each game under its Gymnasium id (``kessel_sabacc.gym_id(game)``:
``KesselSabacc-v1`` for Kessel Sabacc, ``ClassicSabacc-v0`` for classic Sabacc)::

    env = gymnasium.make(kessel_sabacc.GYM_ID, opponents=["expert", "expert", "expert"])
    env = gymnasium.make(kessel_sabacc.gym_id("classic"), opponents=["expert", "expert", "expert"])

* Observation: float32 ``Box`` of the game's ``obs_len`` values (``docs/observation.md`` for
  Kessel, ``docs/observation-classic.md`` for classic Sabacc); action: ``Discrete(num_actions)``
  (``kessel_sabacc.game_info(game)``).
* The legal actions are in ``info["action_mask"]`` (int8) after every ``reset``/``step``, and
  ``action_masks()`` returns them as bools (the Stable-Baselines3-contrib ``MaskablePPO``
  convention).
* The opponents act inside ``reset`` and ``step``; the learner's reward is its terminal reward
  (0 before the end).
* ``illegal_action`` says what an illegal (but in-range) action does: ``"penalty"`` (default)
  ends the episode at once with reward ``illegal_penalty`` (-1) and ``info["illegal_action"]``
  set, which suits checkers and unmasked learners that sample any action; ``"raise"`` raises
  ``ValueError`` and changes nothing. Out-of-range or non-int actions always raise.
"""

from __future__ import annotations

import operator
from typing import Any, Sequence

import gymnasium
import numpy as np
from gymnasium import spaces

from . import _native
from .aec import game_kind, observation_box
from .agents import default_opponents, specs


class SingleAgentEnv(gymnasium.Env):
    """One learner seat of ``game`` (a registered game; Kessel Sabacc by default) against
    ``opponents``: agent specs of that game (its bots, e.g. ``random``, ``greedy``, ``expert``,
    ``search:N`` for the Sabacc games — ``kessel_sabacc.agent_names(game)`` lists them — or a
    checkpoint or bundle folder, optionally ``@argmax``; the shipped checkpoints by name from any
    folder, e.g. ``champion@argmax``). The default is the game's default opponent at each other
    seat of its default table. The table has ``len(opponents) + 1`` seats; the learner sits at
    ``seat`` or, when ``seat`` is None, at a seat drawn from each game's seed. ``rules`` takes the
    game's rule fields (Kessel: ``docs/rules.md``, K9; classic: ``docs/rules-classic.md``, C9)."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(
        self,
        opponents: Sequence[str] | None = None,
        seat: int | None = None,
        rules: dict | str | None = None,
        reward: str | None = None,
        illegal_action: str = "penalty",
        illegal_penalty: float = -1.0,
        render_mode: str | None = None,
        game: str = "kessel",
    ):
        kind = game_kind(game)
        if opponents is None:
            opponents = default_opponents(kind.id)
        if isinstance(opponents, str):
            raise TypeError("opponents must be a list of agent specs, e.g. ['expert', 'expert']")
        if illegal_action not in ("penalty", "raise"):
            raise ValueError(
                f"illegal_action must be 'penalty' or 'raise', got {illegal_action!r}"
            )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}")
        self._native = _native.VecSingle(
            1, specs(opponents, kind.id), seat=seat, rules=rules, reward=reward, num_threads=1, autoreset=False,
            game=kind.id,
        )
        self.game = kind.id
        self._num_actions = kind.num_actions
        self._action_names = kind.action_names
        self.illegal_action = illegal_action
        self.illegal_penalty = float(illegal_penalty)
        self.render_mode = render_mode
        self.opponents = list(opponents)
        self.num_players = self._native.num_players
        self.observation_space = observation_box(self.num_players, kind.id)
        self.action_space = spaces.Discrete(self._num_actions)
        self._obs = self._native.obs_view()[0]
        self._mask = self._native.mask_view()[0]
        self._reward = self._native.reward_view()
        self._terminated = self._native.terminated_view()
        self._truncated = self._native.truncated_view()
        self._learner = self._native.learner_view()
        self._done = True

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask.astype(np.int8), "learner": int(self._learner[0])}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        game_seed = seed if seed is not None else int(self.np_random.integers(0, 2**63))
        self._native.reset_one(0, game_seed)
        self._done = False
        if self.render_mode == "human":
            self.render()
        return self._obs.copy(), self._info()

    def step(self, action):
        if self._done:
            raise ValueError("the episode is over; call reset()")
        if isinstance(action, (bool, np.bool_)) or isinstance(action, (float, np.floating)):
            raise TypeError(
                f"action must be an int in 0..{self._num_actions}, got {type(action).__name__}"
            )
        try:
            a = operator.index(action)
        except TypeError:
            raise TypeError(
                f"action must be an int in 0..{self._num_actions}, got {type(action).__name__}"
            ) from None
        if not 0 <= a < self._num_actions:
            raise ValueError(f"action {a} is out of range 0..{self._num_actions}")
        if not self._mask[a]:
            if self.illegal_action == "raise":
                legal = np.flatnonzero(self._mask).tolist()
                raise ValueError(
                    f"illegal action {a} ({self._action_names[a]}); legal: {legal}"
                )
            self._done = True
            info = self._info()
            info["illegal_action"] = True
            return self._obs.copy(), self.illegal_penalty, True, False, info
        self._native.step(np.array([a], dtype=np.int64))
        terminated, truncated = bool(self._terminated[0]), bool(self._truncated[0])
        info = self._info()
        if terminated or truncated:
            self._done = True
            info["returns"] = self._native.returns(0)
            info["winners"] = self._native.winners(0)
        if self.render_mode == "human":
            self.render()
        return self._obs.copy(), float(self._reward[0]), terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as bools (for ``MaskablePPO``)."""
        return self._mask.copy()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn(
                "You are calling render method without specifying any render mode."
            )
            return None
        text = self._native.render(0)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
