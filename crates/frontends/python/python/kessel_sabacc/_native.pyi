"""Type stubs of the native module (Rust, pyo3)."""

from typing import Any, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

MAX_PLAYERS: int

Rules = Union[dict[str, Any], str, None]

def games() -> list[str]:
    """The short ids of the registered games, the default game (``"kessel"``) first."""

def game_info(game: str) -> GameInfo:
    """What a front-end needs to know of ``game`` (a short id or an environment id)."""

def observation_bounds(game: str, num_players: int) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """The lower and upper bound of every observation value of ``game`` at a table of
    ``num_players``."""

def action_names(game: str = "kessel") -> list[str]:
    """The documented name of every action index of ``game`` (``num_actions`` of them)."""

def episode_seed(base: int, env_index: int, episode: int) -> int:
    """Game seed of episode ``episode`` of game ``env_index`` in a vector env seeded ``base``."""

def agent_names(game: str = "kessel") -> list[str]:
    """The bots of ``game`` as agent specs name them (``search:N`` for bots that take a number);
    checkpoint folders, export bundles, levels and ``mistakes:P+SPEC`` are accepted besides."""

def export_bundle(
    weights: str,
    out: str,
    hidden: Sequence[int] = (256, 256),
    activation: str = "relu",
    shared_trunk: bool = False,
    num_players: Optional[int] = None,
    rules: Rules = None,
    reward: Optional[str] = None,
    training_step: int = 0,
    seed: Optional[int] = None,
    force: bool = False,
    game: str = "kessel",
) -> list[tuple[str, int]]:
    """Writes an export bundle (``sabacc export`` layout) of ``game`` from a
    ``policy.safetensors``-layout weights file trained in Python; returns the files written with
    their sizes."""

def resolve_spec(spec: str, game: str = "kessel") -> str:
    """``spec`` with its shipped folder found (``"champion"`` → ``".../checkpoints/champion"``);
    ``game``'s bots and names found nowhere come back unchanged."""

def shipped_roots() -> list[str]:
    """The folders searched for shipped checkpoints after the current one, in order."""

def arena(
    agents: Sequence[str],
    players: Optional[int] = None,
    games: int = 240,
    seed: int = 0,
    rules: Rules = None,
    num_threads: Optional[int] = None,
    game: str = "kessel",
) -> str:
    """Runs a tournament of ``game``; returns the report as JSON text."""

def arena_shard(
    agents: Sequence[str],
    deals: tuple[int, int],
    players: Optional[int] = None,
    games: int = 240,
    seed: int = 0,
    rules: Rules = None,
    num_threads: Optional[int] = None,
    game: str = "kessel",
) -> str:
    """Plays deals ``start..end`` of the tournament ``arena`` would play; returns the shard as
    JSON text for ``arena_merge``."""

def arena_deals(players: int, games: int, game: str = "kessel") -> int:
    """The number of deals of a tournament of ``games`` games at ``players`` seats of ``game``."""

def arena_merge(
    shards: Sequence[str],
    agents: Sequence[str],
    players: Optional[int] = None,
    games: int = 240,
    seed: int = 0,
    rules: Rules = None,
    game: str = "kessel",
) -> str:
    """The report (JSON text) of the tournament whose every deal is in exactly one of
    ``shards``."""

def token_values(
    agents: Sequence[str],
    focal: Optional[Sequence[str]] = None,
    tokens: Union[str, Sequence[str], None] = None,
    players: int = 4,
    deals: int = 2000,
    seed: int = 0,
    baseline: str = "removed",
    rules: Rules = None,
    num_threads: Optional[int] = None,
) -> str:
    """Runs the token-value study (``sabacc tokens value``, Kessel Sabacc's Shift Tokens); returns
    the report as JSON text.
    ``tokens``: ``"all"`` (the default), comma-separated names or a list of names."""

def token_values_shard(
    agents: Sequence[str],
    deal_range: tuple[int, int],
    focal: Optional[Sequence[str]] = None,
    tokens: Union[str, Sequence[str], None] = None,
    players: int = 4,
    deals: int = 2000,
    seed: int = 0,
    baseline: str = "removed",
    rules: Rules = None,
    num_threads: Optional[int] = None,
) -> str:
    """Plays deals ``start..end`` of the study ``token_values`` would run; returns the shard as
    JSON text for ``token_values_merge``."""

def token_values_merge(
    shards: Sequence[str],
    agents: Sequence[str],
    focal: Optional[Sequence[str]] = None,
    tokens: Union[str, Sequence[str], None] = None,
    players: int = 4,
    deals: int = 2000,
    seed: int = 0,
    baseline: str = "removed",
    rules: Rules = None,
) -> str:
    """The report (JSON text) of the study whose every deal is in exactly one of ``shards``."""

class GameInfo:
    """What a front-end needs to know of one registered game."""

    @property
    def id(self) -> str:
        """The short id (``"kessel"``), what ``game=`` takes."""
    @property
    def name(self) -> str:
        """The name for people (``"Kessel Sabacc"``)."""
    @property
    def env_id(self) -> str:
        """The versioned environment id (``"kessel_sabacc_v1"``)."""
    @property
    def obs_version(self) -> int: ...
    @property
    def obs_len(self) -> int: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def max_players(self) -> int: ...
    @property
    def seats(self) -> tuple[int, int]:
        """The smallest and largest table."""
    @property
    def default_players(self) -> int: ...
    @property
    def default_reward(self) -> str: ...
    @property
    def default_opponent(self) -> str: ...
    @property
    def progress(self) -> str:
        """What the game counts its progress in (``"rounds"``, ``"hands"``)."""
    @property
    def action_names(self) -> list[str]: ...

class Game:
    """One game of any registered game: ``reset(seed)``, ``step(action)``, ``observe(seat)``."""

    def __init__(
        self,
        num_players: Optional[int] = None,
        rules: Rules = None,
        reward: Optional[str] = None,
        game: str = "kessel",
    ) -> None: ...
    @staticmethod
    def from_scenario(text: str, reward: Optional[str] = None, game: str = "kessel") -> "Game":
        """A game positioned at a scenario (JSON, the game's scenario format)."""
    @property
    def game(self) -> str: ...
    def reset(self, seed: int) -> None: ...
    def step(self, action: int) -> tuple[Optional[int], bool, bool]:
        """Applies the acting seat's action; returns ``(next actor, terminated, truncated)``."""
    def observe(self, seat: int) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
        """``seat``'s observation and legal-action mask (zeros unless it is to act)."""
    def action_mask(self) -> npt.NDArray[np.bool_]:
        """The acting seat's legal actions, ``num_actions`` bools."""
    def legal_actions(self) -> list[int]: ...
    def rules_json(self) -> str: ...
    def render(self) -> str: ...
    @property
    def actor(self) -> Optional[int]: ...
    @property
    def rewards(self) -> list[float]: ...
    @property
    def returns(self) -> list[float]: ...
    @property
    def terminated(self) -> bool: ...
    @property
    def truncated(self) -> bool: ...
    @property
    def done(self) -> bool: ...
    @property
    def winners(self) -> list[int]: ...
    @property
    def num_players(self) -> int: ...
    @property
    def seed(self) -> int: ...
    @property
    def episode_steps(self) -> int: ...
    @property
    def progress(self) -> int:
        """Rounds (Kessel) or hands (classic) so far: ``game_info(game).progress``."""

class VecEnv:
    """``num_envs`` self-play games of any registered game stepped in Rust; numpy views of its
    buffers."""

    def __init__(
        self,
        num_envs: int,
        num_players: Optional[int] = None,
        seed: Optional[int] = None,
        rules: Rules = None,
        reward: Optional[str] = None,
        num_threads: Optional[int] = None,
        game: str = "kessel",
    ) -> None: ...
    @property
    def game(self) -> str: ...
    def reset(self, seed: int) -> None: ...
    def step(self, actions: npt.ArrayLike) -> None: ...
    def step_random(self, steps: int, seed: int) -> None: ...
    def sample_actions(self, out: Optional[npt.NDArray[np.int64]] = None) -> npt.NDArray[np.int64]: ...
    def obs_view(self) -> npt.NDArray[np.float32]: ...
    def mask_view(self) -> npt.NDArray[np.bool_]: ...
    def rewards_view(self) -> npt.NDArray[np.float32]: ...
    def actor_view(self) -> npt.NDArray[np.uint8]: ...
    def terminated_view(self) -> npt.NDArray[np.bool_]: ...
    def truncated_view(self) -> npt.NDArray[np.bool_]: ...
    def finished(self) -> list[dict[str, Any]]: ...
    def game_seed(self, i: int) -> int: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def num_players(self) -> int: ...

class VecSingle:
    """``num_envs`` learner-versus-agents games of any registered game stepped in Rust."""

    def __init__(
        self,
        num_envs: int,
        opponents: Sequence[str],
        seat: Optional[int] = None,
        seed: Optional[int] = None,
        rules: Rules = None,
        reward: Optional[str] = None,
        num_threads: Optional[int] = None,
        autoreset: bool = True,
        next_step: bool = False,
        game: str = "kessel",
    ) -> None: ...
    @property
    def game(self) -> str: ...
    def reset_all(self, seed: int) -> None: ...
    def reset_one(self, i: int, seed: int) -> None: ...
    def step(self, actions: npt.ArrayLike) -> None: ...
    def game_seed(self, i: int) -> int: ...
    def render(self, i: int) -> str: ...
    def returns(self, i: int) -> list[float]: ...
    def winners(self, i: int) -> list[int]: ...
    def obs_view(self) -> npt.NDArray[np.float32]: ...
    def final_obs_view(self) -> npt.NDArray[np.float32]: ...
    def mask_view(self) -> npt.NDArray[np.bool_]: ...
    def reward_view(self) -> npt.NDArray[np.float32]: ...
    def terminated_view(self) -> npt.NDArray[np.bool_]: ...
    def truncated_view(self) -> npt.NDArray[np.bool_]: ...
    def learner_view(self) -> npt.NDArray[np.uint8]: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def num_players(self) -> int: ...

class Agent:
    """An agent built from a spec (bots, checkpoints, export bundles)."""

    def __init__(self, spec: str, seed: int = 0, game: str = "kessel") -> None: ...
    @property
    def spec(self) -> str: ...
    @property
    def game(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def acts_from_obs(self) -> bool: ...
    def act(self, obs: npt.ArrayLike, mask: npt.ArrayLike) -> Union[int, npt.NDArray[np.int64]]:
        """Actions for a batch of observations (random, checkpoint and bundle agents)."""
    def act_game(self, game: Game) -> int:
        """The action of the seat to act in ``game`` (any agent)."""
    def act_vec(self, vec_env: VecEnv) -> npt.NDArray[np.int64]:
        """Actions for the seat to act in every game of ``vec_env`` (any agent)."""
