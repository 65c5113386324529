"""Type stubs of the native module (Rust, pyo3)."""

from typing import Any, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

OBS_LEN: int
OBS_VERSION: int
NUM_ACTIONS: int
MAX_PLAYERS: int
ENV_ID: str
CLASSIC_ENV_ID: str
CLASSIC_OBS_LEN: int
CLASSIC_OBS_VERSION: int
CLASSIC_NUM_ACTIONS: int

Rules = Union[dict[str, Any], str, None]

def action_names() -> list[str]:
    """The documented name of every action index (``NUM_ACTIONS`` of them)."""

def episode_seed(base: int, env_index: int, episode: int) -> int:
    """Game seed of episode ``episode`` of game ``env_index`` in a vector env seeded ``base``."""

def observation_high(num_players: int) -> list[float]:
    """Upper bounds of the observation values at a table of ``num_players``."""

def classic_action_names() -> list[str]:
    """The documented name of every classic Sabacc action index (``CLASSIC_NUM_ACTIONS``)."""

def classic_observation_low(num_players: int) -> list[float]:
    """Lower bounds of the classic Sabacc observation values at a table of ``num_players``."""

def classic_observation_high(num_players: int) -> list[float]:
    """Upper bounds of the classic Sabacc observation values at a table of ``num_players``."""

def agent_names() -> list[str]:
    """The built-in agent names, as ``sabacc agents`` lists them (checkpoint folders and export
    bundles are accepted besides)."""

def export_bundle(
    weights: str,
    out: str,
    hidden: Sequence[int] = (256, 256),
    activation: str = "relu",
    shared_trunk: bool = False,
    num_players: int = 4,
    rules: Rules = None,
    reward: str = "win-loss",
    training_step: int = 0,
    seed: Optional[int] = None,
    force: bool = False,
    game: str = "kessel",
) -> list[tuple[str, int]]:
    """Writes an export bundle (``sabacc export`` layout) of ``game`` (``"kessel"`` or
    ``"classic"``) from a ``policy.safetensors``-layout weights file trained in Python; returns
    the files written with their sizes."""

def resolve_spec(spec: str) -> str:
    """``spec`` with its shipped folder found (``"champion"`` → ``".../checkpoints/champion"``);
    bots and names found nowhere come back unchanged."""

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
    """Runs a tournament of ``game`` (``"kessel"`` or ``"classic"``); returns the report as JSON text."""

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

def arena_deals(players: int, games: int) -> int:
    """The number of deals of a tournament of ``games`` games at ``players`` seats."""

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
    """Runs the token-value study (``sabacc tokens value``); returns the report as JSON text.
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

class Game:
    """One game: ``reset(seed)``, ``step(action)``, ``observe(seat)``."""

    def __init__(self, num_players: int = 4, rules: Rules = None, reward: str = "win-loss") -> None: ...
    @staticmethod
    def from_scenario(text: str, reward: str = "win-loss") -> "Game":
        """A game positioned at a scenario (JSON, ``docs/scenarios.md``)."""
    def reset(self, seed: int) -> None: ...
    def step(self, action: int) -> tuple[Optional[int], bool, bool]:
        """Applies the acting seat's action; returns ``(next actor, terminated, truncated)``."""
    def observe(self, seat: int) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
        """``seat``'s observation and legal-action mask (zeros unless it is to act)."""
    def legal_actions(self) -> list[int]: ...
    def rules_json(self) -> str: ...
    def render(self) -> str: ...
    @property
    def actor(self) -> Optional[int]: ...
    @property
    def mask_bits(self) -> int: ...
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
    def round(self) -> int: ...

class ClassicGame:
    """One game of classic Sabacc: ``reset(seed)``, ``step(action)``, ``observe(seat)``."""

    def __init__(self, num_players: int = 4, rules: Rules = None, reward: str = "win-loss") -> None: ...
    @staticmethod
    def from_scenario(text: str, reward: str = "win-loss") -> "ClassicGame":
        """A game positioned at a classic scenario (JSON, ``docs/rules-classic.md``)."""
    def reset(self, seed: int) -> None: ...
    def step(self, action: int) -> tuple[Optional[int], bool, bool]:
        """Applies the acting seat's action; returns ``(next actor, terminated, truncated)``."""
    def observe(self, seat: int) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
        """``seat``'s observation and legal-action mask (zeros unless it is to act)."""
    def legal_actions(self) -> list[int]: ...
    def rules_json(self) -> str: ...
    def render(self) -> str: ...
    @property
    def actor(self) -> Optional[int]: ...
    @property
    def mask_bits(self) -> int: ...
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
    def hand(self) -> int: ...

class VecEnv:
    """``num_envs`` self-play games stepped in Rust; numpy views of its buffers."""

    def __init__(
        self,
        num_envs: int,
        num_players: int = 4,
        seed: int = 0,
        rules: Rules = None,
        reward: str = "win-loss",
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
    """``num_envs`` learner-versus-agents games stepped in Rust."""

    def __init__(
        self,
        num_envs: int,
        opponents: Sequence[str],
        seat: Optional[int] = None,
        seed: int = 0,
        rules: Rules = None,
        reward: str = "win-loss",
        num_threads: Optional[int] = None,
        autoreset: bool = True,
        next_step: bool = False,
    ) -> None: ...
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

class ClassicVecSingle:
    """``num_envs`` learner-versus-agents games of classic Sabacc stepped in Rust."""

    def __init__(
        self,
        num_envs: int,
        opponents: Sequence[str],
        seat: Optional[int] = None,
        seed: int = 0,
        rules: Rules = None,
        reward: str = "win-loss",
        num_threads: Optional[int] = None,
        autoreset: bool = True,
        next_step: bool = False,
    ) -> None: ...
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
