"""Agents and the arena from Python, with the same agent specs as the ``sabacc`` CLI:
``random``, ``greedy``, ``expert``, ``search``, ``search:N``, a checkpoint folder
(``checkpoints/mixed-tables``) or an export bundle folder (``sabacc export``, or
``export_bundle`` from PyTorch weights), optionally ending in ``@argmax`` (most likely action) or
``@sample`` (the default)."""

from __future__ import annotations

import json
from typing import Any, Sequence

from . import _native

Agent = _native.Agent


def agent(spec: str, seed: int = 0) -> _native.Agent:
    """The agent ``spec`` names; its random choices are drawn from ``seed``.

    ``act(obs, mask)`` chooses for a batch of observations (random, checkpoint and bundle
    agents);
    ``act_game(game)`` / ``act_vec(vec_env)`` choose from each acting seat's full view (every
    agent, bots included). An unknown spec raises ``ValueError`` listing the valid ones."""
    return _native.Agent(spec, seed)


def arena(
    agents: Sequence[str],
    players: int | None = None,
    games: int = 240,
    seed: int = 0,
    rules: dict | str | None = None,
    num_threads: int | None = None,
) -> dict[str, Any]:
    """Plays a tournament among ``agents`` (cycled to fill ``players`` seats; default: one seat
    each) with seat rotation and duplicate deals, exactly as ``sabacc eval``, and returns the
    report (the fields of ``report.json``: ``settings``, ``agents`` with win rates and Wilson
    intervals, ``head_to_head``, ``ratings``, ``tokens``, ``notes``, …). ``games`` is rounded up
    to whole deals."""
    if isinstance(agents, str):
        raise TypeError("agents must be a list of agent specs, e.g. ['expert', 'random']")
    return json.loads(_native.arena(list(agents), players, games, seed, rules, num_threads))
