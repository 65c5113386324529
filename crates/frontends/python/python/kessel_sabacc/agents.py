"""Agents and the arena from Python, with the same agent specs as the ``sabacc`` CLI, for every
registered game (``game=``): the game's bots (``kessel_sabacc.agent_names(game)``; for Kessel
``random``, ``greedy``, ``expert``, the style bots ``tight``, ``loose``, ``aggressive``,
``hoarder``, ``chipaware``, ``leader``, ``search``, ``search:N``, the deliberately flawed
``stander`` and ``notokens``, ``handdraft``, the panel bots ``gambler`` and ``mirror``), a checkpoint folder (``checkpoints/mixed-tables``,
or the shipped checkpoints by name from any folder: ``champion``; see
:mod:`kessel_sabacc.shipped`), guided search (``search:N+champion``), the levels ``level:1`` to
``level:5``, ``mistakes:P+SPEC``, or an export bundle folder (``sabacc export``, or
``export_bundle`` from PyTorch weights), optionally ending in ``@argmax`` (most likely action) or
``@sample`` (the default). ``GAME:SPEC`` (``classic:expert``) says which game a spec is for."""

from __future__ import annotations

import json
from typing import Any, Sequence

from . import _native, shipped

Agent = _native.Agent


def _with_note(e: ValueError) -> ValueError:
    """An unknown-agent error with where shipped checkpoints were looked for."""
    if "unknown agent" in str(e) or "does not exist" in str(e):
        return ValueError(str(e) + shipped.not_found_note())
    return e


def specs(agents: Sequence[str], game: str = "kessel") -> list[str]:
    """The specs of ``game``'s agents with their shipped folders found
    (:func:`kessel_sabacc.shipped.resolve`)."""
    if isinstance(agents, str):
        raise TypeError("agents must be a list of agent specs, e.g. ['expert', 'random']")
    return [shipped.resolve(a, game) if isinstance(a, str) else a for a in agents]


def default_opponents(game: str = "kessel") -> list[str]:
    """The lineup a learner of ``game`` meets unless told otherwise: the game's default opponent
    at every other seat of its default table."""
    info = _native.game_info(game)
    return [info.default_opponent] * (info.default_players - 1)


def agent(spec: str, seed: int = 0, game: str = "kessel") -> _native.Agent:
    """The agent ``spec`` names; its random choices are drawn from ``seed``. Shipped checkpoints
    are found from any folder, by name (``agent("champion")``, ``agent("champion@argmax")``) or
    path (``agent("checkpoints/mixed-tables")``).

    ``act(obs, mask)`` chooses for a batch of observations (random, checkpoint and bundle
    agents);
    ``act_game(game)`` / ``act_vec(vec_env)`` choose from each acting seat's full view (every
    agent, bots included). ``game`` chooses the game: ``game="classic"`` builds a classic Sabacc
    agent (its bots ``random``, ``greedy``, ``expert``, ``search:N``, or a classic checkpoint or
    bundle such as ``"classic-champion"``). An unknown spec raises ``ValueError`` listing the valid
    ones."""
    try:
        return _native.Agent(shipped.resolve(spec, game) if isinstance(spec, str) else spec, seed, game)
    except ValueError as e:
        raise _with_note(e) from None


def arena(
    agents: Sequence[str],
    players: int | None = None,
    games: int = 240,
    seed: int = 0,
    rules: dict | str | None = None,
    num_threads: int | None = None,
    game: str = "kessel",
) -> dict[str, Any]:
    """Plays a tournament among ``agents`` (cycled to fill ``players`` seats; default: one seat
    each) with seat rotation and duplicate deals, exactly as ``sabacc eval``, and returns the
    report (the fields of ``report.json``: ``settings``, ``agents`` with win rates and Wilson
    intervals, ``head_to_head``, ``ratings``, ``tokens``, ``notes``, …). ``games`` is rounded up
    to whole deals. ``game`` chooses the game: ``game="classic"`` plays classic Sabacc (classic
    agents and rules)."""
    resolved = specs(agents, game)
    try:
        return json.loads(_native.arena(resolved, players, games, seed, rules, num_threads, game))
    except ValueError as e:
        raise _with_note(e) from None


def token_values(
    agents: Sequence[str],
    focal: Sequence[str] | None = None,
    tokens: str | Sequence[str] = "all",
    players: int = 4,
    deals: int = 2000,
    seed: int = 0,
    baseline: str = "removed",
    rules: dict | str | None = None,
    num_threads: int | None = None,
) -> dict[str, Any]:
    """What each token kind is worth to each ``focal`` agent (default: each of ``agents``), as
    ``sabacc tokens value``: for every focal agent and token, ``deals`` paired deals at
    ``players`` seats against ``agents`` (cycled over the other seats), the token held in arm A
    and, in arm B, held but never playable (``baseline="removed"``) or swapped for another kind
    (``"replaced"``). Returns the report (the fields of ``value.json``: ``settings``, ``tables``
    with each token's win and chip differences, paired and unpaired intervals, Holm-adjusted
    p-values and bootstrap ranks, ``notes``). ``tokens`` is ``"all"`` (every enabled kind) or
    names, as a list or comma-separated. Shift Tokens are Kessel Sabacc's: the study plays Kessel."""
    try:
        return json.loads(_native.token_values(specs(agents), None if focal is None else specs(focal), tokens,
                                               players, deals, seed, baseline, rules, num_threads))
    except ValueError as e:
        raise _with_note(e) from None
