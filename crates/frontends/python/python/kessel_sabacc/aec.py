"""The PettingZoo AEC environment (agent-environment cycle), following the conventions of
PettingZoo's classic card games.

* ``game`` chooses the game: ``"kessel"`` (Kessel Sabacc, the default) or ``"classic"`` (classic
  Sabacc, ``docs/rules-classic.md``); the sizes below are then the ``CLASSIC_`` constants and the
  observation layout ``docs/observation-classic.md``.
* Agents are ``player_0`` … ``player_{n-1}`` (absolute seats).
* ``observation_space(agent)`` is a ``Dict`` with ``observation`` (float32, ``OBS_LEN`` values,
  layout in ``docs/observation.md``) and ``action_mask`` (int8, ``NUM_ACTIONS`` values; all 0
  unless the agent is to act).
* ``action_space(agent)`` is ``Discrete(NUM_ACTIONS)`` (names: ``kessel_sabacc.action_names()``).
* Rewards are 0 on every step but the last; at the end every seat gets its terminal reward
  (win/loss zero-sum by default, or placement), and every agent is terminated (or truncated,
  when the round limit, or classic's hand limit, cuts the game off; rewards are then 0). An
  eliminated seat stays in
  ``agents`` but is never selected until the game ends, when it gets its reward with the others.
* A wrong action (illegal, out of range, not an int) raises ``ValueError``/``TypeError`` and
  changes nothing; a finished agent's only action is ``None``.
* ``reset(seed=s)`` deals game ``s``: the same seed, the same deal. ``reset()`` without a seed
  deals the next game of the stream of the last seed given (``episode_seed(s, 0, k)`` for the
  ``k``-th reset since), starting from seed 0, so every game comes from an explicit seed.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import _native


def observation_box(num_players: int) -> spaces.Box:
    """The ``observation`` space: 0 ≤ value ≤ 1, chip ratios up to ``num_players``."""
    high = np.asarray(_native.observation_high(num_players), dtype=np.float32)
    return spaces.Box(low=np.zeros_like(high), high=high, dtype=np.float32)


def classic_observation_box(num_players: int) -> spaces.Box:
    """Classic Sabacc's ``observation`` space: each value inside its documented range
    (``docs/observation-classic.md``; card values and totals may be negative), credit ratios up
    to ``num_players``."""
    low = np.asarray(_native.classic_observation_low(num_players), dtype=np.float32)
    high = np.asarray(_native.classic_observation_high(num_players), dtype=np.float32)
    return spaces.Box(low=low, high=high, dtype=np.float32)


class _GameKind:
    """What the AEC env needs of one game: its native class, sizes, spaces and id."""

    def __init__(self, name: str, env_id: str, game_class, num_actions: int, box):
        self.name = name
        self.env_id = env_id
        self.game_class = game_class
        self.num_actions = num_actions
        self.observation_box = box


GAMES = {
    "kessel": _GameKind("kessel", _native.ENV_ID, _native.Game, _native.NUM_ACTIONS, observation_box),
    "classic": _GameKind(
        "classic",
        _native.CLASSIC_ENV_ID,
        _native.ClassicGame,
        _native.CLASSIC_NUM_ACTIONS,
        classic_observation_box,
    ),
}


def game_kind(game: str) -> _GameKind:
    """The game named ``game``: its short name (``kessel``, ``classic``) or its environment id
    (``kessel_sabacc_v1``, ``classic_sabacc_v1``)."""
    if isinstance(game, str):
        for kind in GAMES.values():
            if game in (kind.name, kind.env_id):
                return kind
    raise ValueError(f"game must be 'kessel' or 'classic', got {game!r}")


class raw_env(AECEnv):
    """Kessel Sabacc (or, with ``game="classic"``, classic Sabacc) for ``num_players`` (2 to
    ``MAX_PLAYERS``) players, without wrappers.

    ``rules`` is a dict (or JSON string) of engine rule options (Kessel: ``starting_chips``,
    ``round_limit``, the K9 alternatives of ``docs/rules.md``; classic: ``starting_credits``,
    ``hand_limit``, ``hand_limit_end``, the C9 alternatives of ``docs/rules-classic.md``; a field
    of the other game's rules is refused), ``reward`` is ``"win-loss"`` or ``"placement"``,
    ``render_mode`` is ``None``, ``"ansi"`` (``render()`` returns the position as text, as
    ``sabacc scenario`` prints it) or ``"human"`` (prints it after every step). ``scenario``
    (JSON text, format of ``docs/scenarios.md``, or for classic the "Scenario files" of
    ``docs/rules-classic.md``) starts the first game from that position. ``metadata["name"]`` is
    the game's environment id (``ENV_ID`` or ``CLASSIC_ENV_ID``).
    """

    metadata = {
        "render_modes": ["ansi", "human"],
        "name": _native.ENV_ID,
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        num_players: int = 4,
        rules: dict | str | None = None,
        reward: str = "win-loss",
        render_mode: str | None = None,
        scenario: str | None = None,
        game: str = "kessel",
    ):
        super().__init__()
        kind = game_kind(game)
        if kind.name != "kessel":
            self.metadata = {**type(self).metadata, "name": kind.env_id}
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}"
            )
        if scenario is not None:
            self._game = kind.game_class.from_scenario(scenario, reward)
        else:
            self._game = kind.game_class(num_players, rules, reward)
        self.game_name = kind.name
        self._scenario = scenario is not None
        self.render_mode = render_mode
        n = self._game.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.action_spaces = {a: spaces.Discrete(kind.num_actions) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": kind.observation_box(n),
                    "action_mask": spaces.Box(0, 1, (kind.num_actions,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._base_seed = 0
        self._episode = 0
        self.agents = self.possible_agents[:]
        self.agent_selection = self.possible_agents[0]

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observe(self, agent) -> dict[str, np.ndarray]:
        obs, mask = self._game.observe(self._seat[agent])
        return {"observation": obs, "action_mask": mask}

    def _begin(self) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        actor = self._game.actor
        self.agent_selection = self.possible_agents[actor if actor is not None else 0]
        if self._game.done:
            self._finish(self._game.terminated, self._game.truncated)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if self._scenario and seed is None and self._episode == 0:
            # The first game is the scenario's position, already set up.
            self._episode = 1
        else:
            if seed is not None:
                self._base_seed = seed
                self._episode = 0
                game_seed = seed
            else:
                game_seed = _native.episode_seed(self._base_seed, 0, self._episode)
            self._game.reset(game_seed)
            self._episode += 1
        self._begin()

    def _finish(self, terminated: bool, truncated: bool) -> None:
        for a, r in zip(self.possible_agents, self._game.rewards):
            if a in self.rewards:
                self.rewards[a] = float(r)
            self.terminations[a] = terminated
            self.truncations[a] = truncated
            self.infos[a] = {"winners": [f"player_{w}" for w in self._game.winners]}
        self._accumulate_rewards()

    def step(self, action) -> None:
        agent = self.agent_selection
        if agent not in self.terminations:
            raise ValueError("the game is over and every agent has finished; call reset()")
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        actor, terminated, truncated = self._game.step(action)
        self._cumulative_rewards[agent] = 0.0
        if terminated or truncated:
            self._finish(terminated, truncated)
        else:
            self.agent_selection = self.possible_agents[actor]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn(
                "You are calling render method without specifying any render mode."
            )
            return None
        text = self._game.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    def legal_actions(self) -> list[int]:
        """The acting agent's legal action indices."""
        return self._game.legal_actions()

    @property
    def game(self) -> _native.Game | _native.ClassicGame:
        """The underlying game (seats, returns, winners; agents act on a Kessel game with
        ``act_game``)."""
        return self._game


def env(**kwargs) -> AECEnv:
    """The AEC env with PettingZoo's order-enforcing wrapper (``raw_env`` takes the same
    arguments; ``env(game="classic")`` plays classic Sabacc). Wrong actions raise instead of
    being penalised, so bugs surface at once."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))
