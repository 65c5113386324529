"""Vectorised environments: ``N`` games stepped in Rust in one call, with the GIL released.

Each plays any registered game (``game=``, Kessel Sabacc by default): observations are
``(N, obs_len)`` and masks ``(N, num_actions)`` bools of that game (``game_info(game)``).

All keep their observations, masks, rewards and flags in buffers owned by Rust and shared with
numpy as read-only views: ``step`` rewrites them in place, so nothing is copied and no Python
object is made per game. **A returned array changes on the next step**: copy it
(``obs.copy()``) to keep it, or pass ``copy=True``.

* :class:`VecEnv` — self-play: every seat is played by the caller. Rows are games; ``actor[i]``
  is the seat to act in game ``i``; rewards are per absolute seat, shape ``(N, MAX_PLAYERS)``.
* :class:`SingleVecEnv` — one learner per game against agents (bots or checkpoints), a
  ``gymnasium.vector.VectorEnv`` (rewards shape ``(N,)``).
* :class:`PoolVecEnv` — one learner against a pool of opponent lineups, the games split among
  them, with ``{"observations", "action_mask"}`` observations and ``NEXT_STEP`` auto-reset: the
  vector env of ``kessel_sabacc.rllib``.

Both auto-reset in Gymnasium's ``SAME_STEP`` mode: when a game ends, the step reports its final
rewards and flags, and the observation row already shows the first decision of the next game
(episode ``e`` of game ``i`` is dealt from ``episode_seed(seed, i, e)``). ``SingleVecEnv`` also
offers ``NEXT_STEP`` (``autoreset_mode=AutoresetMode.NEXT_STEP``), the mode RLlib's env runners
expect: the ending step shows the learner's last observation, and the next step deals the new
game, ignoring that row's action and reporting reward 0.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
from gymnasium import spaces
from gymnasium.vector import VectorEnv
from gymnasium.vector.utils import batch_space
from gymnasium.vector.vector_env import AutoresetMode

from . import _native
from .aec import game_kind, observation_box
from .agents import default_opponents, specs


def _readonly(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


class VecEnv:
    """``num_envs`` self-play games of ``game`` (Kessel Sabacc by default; ``game="classic"``
    plays classic Sabacc under the rules of ``docs/rules-classic.md``) at tables of
    ``num_players`` (default: the game's default table).

    Attributes (read-only numpy views, rewritten by every ``step``):
    ``obs`` float32 ``(N, obs_len)`` — the acting seat's observation; ``action_mask`` bool
    ``(N, num_actions)``; ``actor`` uint8 ``(N,)`` — the seat to act; ``rewards`` float32
    ``(N, MAX_PLAYERS)`` —
    what every absolute seat received on the last step; ``terminations`` / ``truncations`` bool
    ``(N,)``.

    Where it departs from ``gymnasium.vector.VectorEnv``: rewards are per seat ``(N, MAX_PLAYERS)``, not
    per game, since the game is multi-agent (the acting seat changes from step to step; credit
    each seat's reward to its own last decision); ``info`` holds ``action_mask`` and ``actor``
    (the same views) and no per-episode entries (``finished()`` lists the games that ended).
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        num_envs: int,
        num_players: int | None = None,
        seed: int = 0,
        rules: dict | str | None = None,
        reward: str | None = None,
        num_threads: int | None = None,
        copy: bool = False,
        game: str = "kessel",
    ):
        self._native = _native.VecEnv(num_envs, num_players, seed, rules, reward, num_threads, game)
        self.game = self._native.game
        self.num_envs = num_envs
        self.num_players = self._native.num_players
        self.copy = copy
        self._seed = seed
        self._resets = 0
        self.single_observation_space = observation_box(self.num_players, self.game)
        self.single_action_space = spaces.Discrete(game_kind(self.game).num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.obs = _readonly(self._native.obs_view())
        self.action_mask = _readonly(self._native.mask_view())
        self.actor = _readonly(self._native.actor_view())
        self.rewards = _readonly(self._native.rewards_view())
        self.terminations = _readonly(self._native.terminated_view())
        self.truncations = _readonly(self._native.truncated_view())
        self._info = {"action_mask": self.action_mask, "actor": self.actor}
        self.closed = False

    def _out(self, a: np.ndarray) -> np.ndarray:
        return a.copy() if self.copy else a

    def _infos(self) -> dict[str, np.ndarray]:
        if self.copy:
            return {"action_mask": self.action_mask.copy(), "actor": self.actor.copy()}
        return self._info

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None):
        """Deals episode 0 of every game's seed stream from ``seed`` (or, without one, from a
        seed derived from the constructor's and the number of resets so far)."""
        if seed is None:
            self._resets += 1
            seed = _native.episode_seed(self._seed, 2**63, self._resets)
        else:
            self._seed, self._resets = seed, 0
        self._native.reset(seed)
        return self._out(self.obs), self._infos()

    def step(self, actions):
        """Applies ``actions`` (ints, shape ``(N,)``) for the seat to act in every game."""
        self._native.step(actions)
        return (
            self._out(self.obs),
            self._out(self.rewards),
            self._out(self.terminations),
            self._out(self.truncations),
            self._infos(),
        )

    def sample_actions(self, out: np.ndarray | None = None) -> np.ndarray:
        """A uniformly random legal action per game (chosen in Rust), into ``out`` if given."""
        return self._native.sample_actions(out)

    def step_random(self, steps: int, seed: int = 0) -> None:
        """Steps every game ``steps`` times with random legal actions chosen in Rust, without
        returning to Python between steps (rewards and flags then cover the whole call)."""
        self._native.step_random(steps, seed)

    def finished(self) -> list[dict[str, Any]]:
        """The games that ended on the last step: ``env``, ``episode``, ``seed``, ``returns``
        (per seat), ``length``, ``winners``, ``truncated``, ``rounds``."""
        return self._native.finished()

    def game_seed(self, i: int) -> int:
        """The seed of the game now running in row ``i``."""
        return self._native.game_seed(i)

    def close(self) -> None:
        self.closed = True


class SingleVecEnv(VectorEnv):
    """``num_envs`` games of ``game`` (Kessel Sabacc by default), one learner against
    ``opponents`` (agent specs of that game; default: the game's default opponent at every other
    seat of its default table), stepped in Rust: a ``gymnasium.vector.VectorEnv`` with
    ``SAME_STEP`` auto-reset.

    ``step`` returns ``(obs, rewards, terminations, truncations, infos)`` with ``obs`` ``(N,
    obs_len)``, ``rewards`` ``(N,)``; ``infos["action_mask"]`` is ``(N, num_actions)`` bool (also
    ``action_masks()``), ``infos["learner"]`` the learner's seat per game; for games that just
    ended ``infos["_final_obs"]`` is True and ``infos["final_obs"][i]`` is the learner's last
    observation (a ``(N, obs_len)`` array rather than an object array). Illegal actions raise
    ``ValueError`` (a masked policy never plays one).

    With ``autoreset_mode=AutoresetMode.NEXT_STEP`` (or ``"next_step"``) a game that ends shows
    the learner's last observation in ``obs`` (no ``final_obs`` entry); the next ``step`` ignores
    that row's action, deals the next game and reports reward 0 and no flags for the row.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        num_envs: int = 8,
        opponents: Sequence[str] | None = None,
        seat: int | None = None,
        seed: int = 0,
        rules: dict | str | None = None,
        reward: str | None = None,
        num_threads: int | None = None,
        copy: bool = False,
        autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP,
        game: str = "kessel",
    ):
        kind = game_kind(game)
        if opponents is None:
            opponents = default_opponents(kind.id)
        if isinstance(opponents, str):
            raise TypeError("opponents must be a list of agent specs, e.g. ['expert', 'expert']")
        modes = {"same_step": AutoresetMode.SAME_STEP, "next_step": AutoresetMode.NEXT_STEP,
                 AutoresetMode.SAME_STEP: AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP: AutoresetMode.NEXT_STEP}
        mode = modes.get(autoreset_mode)
        if mode is None:
            raise ValueError("autoreset_mode must be AutoresetMode.SAME_STEP or NEXT_STEP ('same_step' or "
                             f"'next_step'), got {autoreset_mode!r}")
        self.metadata = {**type(self).metadata, "autoreset_mode": mode}
        self._native = _native.VecSingle(
            num_envs, specs(opponents, kind.id), seat=seat, seed=seed, rules=rules, reward=reward,
            num_threads=num_threads, autoreset=True, next_step=mode == AutoresetMode.NEXT_STEP, game=kind.id,
        )
        self.game = kind.id
        self.num_envs = num_envs
        self.copy = copy
        self._seed = seed
        self._resets = 0
        self.num_players = self._native.num_players
        self.single_observation_space = observation_box(self.num_players, kind.id)
        self.single_action_space = spaces.Discrete(kind.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.obs = _readonly(self._native.obs_view())
        self.final_obs = _readonly(self._native.final_obs_view())
        self.action_mask = _readonly(self._native.mask_view())
        self.rewards = _readonly(self._native.reward_view())
        self.terminations = _readonly(self._native.terminated_view())
        self.truncations = _readonly(self._native.truncated_view())
        self.learner = _readonly(self._native.learner_view())
        self._all = np.ones(num_envs, dtype=bool)

    def _infos(self, after_step: bool) -> dict[str, np.ndarray]:
        c = (lambda a: a.copy()) if self.copy else (lambda a: a)
        info = {
            "action_mask": c(self.action_mask),
            "_action_mask": self._all,
            "learner": c(self.learner),
            "_learner": self._all,
        }
        if after_step and self.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP:
            done = self.terminations | self.truncations
            if done.any():
                info["final_obs"] = self.final_obs.copy()
                info["_final_obs"] = done
        return info

    def reset(self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None):
        """Deals episode 0 of every game from ``seed`` (an int; a list uses its first entry)."""
        if isinstance(seed, (list, tuple)):
            seed = seed[0]
        if seed is None:
            self._resets += 1
            seed = _native.episode_seed(self._seed, 2**63, self._resets)
        else:
            self._seed, self._resets = seed, 0
        self._native.reset_all(seed)
        return (self.obs.copy() if self.copy else self.obs), self._infos(False)

    def step(self, actions):
        self._native.step(actions)
        c = (lambda a: a.copy()) if self.copy else (lambda a: a)
        return (
            c(self.obs),
            c(self.rewards),
            c(self.terminations),
            c(self.truncations),
            self._infos(True),
        )

    def action_masks(self) -> np.ndarray:
        """``(N, num_actions)`` bool legal actions of every learner."""
        return self.action_mask.copy()

    def close_extras(self, **kwargs: Any) -> None:
        pass


class PoolVecEnv(VectorEnv):
    """``num_envs`` games of ``game`` (Kessel Sabacc by default) of one learner against ``pool``:
    a list of lineups, each a list of ``players - 1`` agent specs (the seats clockwise from the
    learner; default: one lineup, the game's default opponent heads-up); the games are split into
    ``len(pool)`` contiguous blocks of equal size (± 1), block ``k`` against lineup ``k`` with
    seed ``seed + k`` (``num_envs`` must be at least ``len(pool)``). The
    learner's seat is drawn per game. Every step returns new arrays (RLlib keeps the rows it is
    given), the mask as float32 0/1. ``num_threads`` is the Rust env's thread count per lineup
    (1 suits one env runner per core)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        num_envs: int = 256,
        pool: Sequence[Sequence[str]] | None = None,
        seed: int = 0,
        rules: dict | str | None = None,
        reward: str | None = None,
        num_threads: int | None = 1,
        game: str = "kessel",
    ):
        if pool is None:
            info = game_kind(game)
            pool = [[info.default_opponent] * (info.seats[0] - 1)]
        if isinstance(pool, str) or not pool or any(isinstance(p, str) or not p for p in pool):
            raise ValueError("pool must be a non-empty list of lineups, each a list of agent specs, "
                             "e.g. [['greedy'], ['expert']]")
        if len({len(p) for p in pool}) != 1:
            raise ValueError(f"every lineup of pool must have the same number of seats, got {[list(p) for p in pool]}")
        if num_envs < len(pool):
            raise ValueError(f"num_envs ({num_envs}) must be at least the number of lineups ({len(pool)})")
        self.num_envs = num_envs
        sizes = [num_envs // len(pool) + (1 if k < num_envs % len(pool) else 0) for k in range(len(pool))]
        self.parts = [
            SingleVecEnv(n, opponents=list(lineup), seed=seed + k, rules=rules, reward=reward,
                         num_threads=num_threads, autoreset_mode=AutoresetMode.NEXT_STEP, game=game)
            for k, (n, lineup) in enumerate(zip(sizes, pool))
        ]
        self.pool = [list(p) for p in pool]
        self.game = self.parts[0].game
        self.num_players = self.parts[0].num_players
        self._bounds = np.cumsum([0] + sizes)
        box = self.parts[0].single_observation_space
        self.single_observation_space = spaces.Dict({
            "observations": box,
            "action_mask": spaces.Box(0.0, 1.0, (self.parts[0].single_action_space.n,), np.float32),
        })
        self.single_action_space = self.parts[0].single_action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

    def _gather(self, field: str, dtype=None) -> np.ndarray:
        arrays = [getattr(p, field) for p in self.parts]
        out = np.concatenate(arrays) if len(arrays) > 1 else arrays[0].copy()
        return out if dtype is None else out.astype(dtype, copy=False)

    def _obs(self) -> dict[str, np.ndarray]:
        return {"observations": self._gather("obs"), "action_mask": self._gather("action_mask", np.float32)}

    def reset(self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None):
        if isinstance(seed, (list, tuple)):
            seed = seed[0]
        for k, p in enumerate(self.parts):
            p.reset(seed=None if seed is None else seed + k)
        return self._obs(), {}

    def step(self, actions):
        actions = np.asarray(actions)
        for p, a, b in zip(self.parts, self._bounds[:-1], self._bounds[1:]):
            p.step(actions[a:b])
        return (
            self._obs(),
            self._gather("rewards"),
            self._gather("terminations"),
            self._gather("truncations"),
            {},
        )

    def close_extras(self, **kwargs: Any) -> None:
        pass
