"""The PettingZoo AEC environment (agent-environment cycle), following the conventions of
PettingZoo's classic card games, for every registered game (``kessel_sabacc.games()``).

* ``game`` chooses the game: ``"kessel"`` (Kessel Sabacc, the default), ``"classic"`` (classic
  Sabacc, ``docs/rules-classic.md``), or any other registered game, by its short id or its
  environment id; ``kessel_sabacc.game_info(game)`` gives its sizes and names.
* Agents are ``player_0`` … ``player_{n-1}`` (absolute seats).
* ``observation_space(agent)`` is a ``Dict`` with ``observation`` (float32, ``obs_len`` values,
  each inside the game's documented range: ``docs/observation.md`` for Kessel,
  ``docs/observation-classic.md`` for classic Sabacc) and ``action_mask`` (int8, ``num_actions``
  values; all 0 unless the agent is to act).
* ``action_space(agent)`` is ``Discrete(num_actions)`` (names: ``kessel_sabacc.action_names(game)``).
* Rewards are 0 on every step but the last; at the end every seat gets its terminal reward
  (the game's default convention, win/loss zero-sum for the Sabacc games, or the one given), and
  every agent is terminated (or truncated, when the game's length limit cuts it off; rewards are
  then 0). An eliminated seat stays in ``agents`` but is never selected until the game ends, when
  it gets its reward with the others.
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


def observation_box(num_players: int, game: str = "kessel") -> spaces.Box:
    """The ``observation`` space of ``game`` at a table of ``num_players``: each value inside its
    documented range (``_native.observation_bounds``)."""
    low, high = _native.observation_bounds(game, num_players)
    return spaces.Box(low=low, high=high, dtype=np.float32)


#: The registered games' descriptions (``_native.GameInfo``), by short id, in the registry's order.
GAMES: dict[str, _native.GameInfo] = {g: _native.game_info(g) for g in _native.games()}


def game_kind(game: str) -> _native.GameInfo:
    """The registered game named ``game``: its short id (``kessel``, ``classic``) or its
    environment id (``kessel_sabacc_v1``, ``classic_sabacc_v1``). Raises ``ValueError`` listing
    the games otherwise."""
    if not isinstance(game, str):
        raise TypeError(f"game must be a string, one of {', '.join(map(repr, GAMES))}; got {type(game).__name__}")
    return GAMES[_native.game_info(game).id]


class raw_env(AECEnv):
    """A registered game (``game``: Kessel Sabacc by default) for ``num_players`` players (the
    game's ``seats`` range; default: its default table), without wrappers.

    ``rules`` is a dict (or JSON string) of the game's rule options (Kessel: ``starting_chips``,
    ``round_limit``, the K9 alternatives of ``docs/rules.md``; classic: ``starting_credits``,
    ``hand_limit``, ``hand_limit_end``, the C9 alternatives of ``docs/rules-classic.md``; a field
    of another game's rules is refused), ``reward`` is ``"win-loss"``, ``"placement"`` or
    ``"payoff"`` (default: the game's), ``render_mode`` is ``None``, ``"ansi"`` (``render()``
    returns the position as text, as ``sabacc scenario`` prints it) or ``"human"`` (prints it
    after every step). ``scenario`` (JSON text in the game's scenario format:
    ``docs/scenarios.md`` for Kessel) starts the first game from that position.
    ``metadata["name"]`` is the game's environment id (``game_info(game).env_id``).
    """

    metadata = {
        "render_modes": ["ansi", "human"],
        "name": GAMES["kessel"].env_id,
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        num_players: int | None = None,
        rules: dict | str | None = None,
        reward: str | None = None,
        render_mode: str | None = None,
        scenario: str | None = None,
        game: str = "kessel",
    ):
        super().__init__()
        kind = game_kind(game)
        if kind.env_id != type(self).metadata["name"]:
            self.metadata = {**type(self).metadata, "name": kind.env_id}
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}"
            )
        if scenario is not None:
            self._game = _native.Game.from_scenario(scenario, reward, game=kind.id)
        else:
            self._game = _native.Game(num_players, rules, reward, game=kind.id)
        self.game_name = kind.id
        self._scenario = scenario is not None
        self.render_mode = render_mode
        n = self._game.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.action_spaces = {a: spaces.Discrete(kind.num_actions) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": observation_box(n, kind.id),
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
    def game(self) -> _native.Game:
        """The underlying game (seats, returns, winners; agents of its game act on it with
        ``act_game``)."""
        return self._game


def env(**kwargs) -> AECEnv:
    """The AEC env with PettingZoo's order-enforcing wrapper (``raw_env`` takes the same
    arguments; ``env(game="classic")`` plays classic Sabacc). Wrong actions raise instead of
    being penalised, so bugs surface at once."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))
