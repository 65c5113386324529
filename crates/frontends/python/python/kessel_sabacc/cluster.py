"""Research spread over a Ray cluster: an arena tournament or a token-value study played as
shards of its deals.

A tournament (``kessel_sabacc.arena``) is a list of games; game ``g`` is deal ``g // S`` under
seating ``g % S`` (``S`` seatings per deal), and every seed in it depends only on the tournament
seed and ``g``. :func:`deal_ranges` cuts the deals into contiguous ranges, each range is played by
one Ray task (``_native.arena_shard``, all the cores Ray gives the task), and the shards merge
(``_native.arena_merge``) into the report the single-machine ``arena`` returns — equal field for
field, since the same games are played with the same seeds and merged in game order.

The token-value study (``kessel_sabacc.token_values``) is cut the same way: deal ``d`` is the
pair of games of every focal agent and token on that deal, its seeds depend only on the study
seed and ``d``; each shard (``_native.token_values_shard``) returns its pairs, and the merge
(``_native.token_values_merge``) computes the statistics once over every deal, so intervals,
p-values and bootstrap ranks equal the single-machine report's.

    import ray, kessel_sabacc.cluster as cluster
    ray.init(address="auto")                     # after `ray start --head` (and `ray start --address` on others)
    report = cluster.arena(["champion@argmax", "greedy"], games=20000, shards=8)
    values = cluster.token_values(["expert"], deals=20000, shards=8)

Ray is needed only here (``pip install "kessel-sabacc[rllib]"`` or ``ray``); the rest of the
package does not import it.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any, Sequence

from . import _native
from .agents import _with_note, specs


def deal_ranges(deals: int, parts: int) -> list[tuple[int, int]]:
    """``0..deals`` cut into ``min(parts, deals)`` contiguous ranges whose sizes differ by at most
    one, in order."""
    if deals < 1:
        raise ValueError(f"deals must be at least 1, got {deals}")
    if parts < 1:
        raise ValueError(f"parts must be at least 1, got {parts}")
    parts = min(parts, deals)
    q, r = divmod(deals, parts)
    out, start = [], 0
    for k in range(parts):
        end = start + q + (1 if k < r else 0)
        out.append((start, end))
        start = end
    return out


def _play_shard(agents, deals, players, games, seed, rules, num_threads, game) -> str:
    """One shard, as a Ray task runs it (and as the tests call it without Ray)."""
    return _native.arena_shard(agents, deals, players, games, seed, rules, num_threads, game)


def _play_values_shard(agents, deal_range, focal, tokens, players, deals, seed, baseline, rules,
                       num_threads) -> str:
    """One shard of the token-value study, as a Ray task runs it."""
    return _native.token_values_shard(agents, deal_range, focal, tokens, players, deals, seed, baseline,
                                      rules, num_threads)


def _connect(address: str | None):
    import ray

    if not ray.is_initialized():
        ray.init(address=address)
    return ray


def _shard_count(ray, shards: int | None, num_cpus: int) -> int:
    """``shards``, or one shard per ``num_cpus`` cores of the cluster."""
    if shards is not None:
        return shards
    cpus = int(ray.cluster_resources().get("CPU", 1))
    return max(1, cpus // max(1, num_cpus))


def _gather(ray, what: str, play, ranges, deals: int, num_cpus: int, progress: bool) -> list[str]:
    """Runs ``play(range)`` for every range as a Ray task of ``num_cpus`` cores and returns the
    shards as they finish, printing each with an ETA to stderr when ``progress``; a task's
    ``ValueError`` is raised here as one."""
    task = ray.remote(num_cpus=num_cpus)(play)
    pending = {task.remote(r): r for r in ranges}
    done: list[str] = []
    t0 = time.time()
    played = 0
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=1)
        r = pending.pop(ready[0])
        try:
            done.append(ray.get(ready[0]))
        except ray.exceptions.RayTaskError as e:
            cause = e.as_instanceof_cause()
            if isinstance(cause, ValueError):
                raise _with_note(ValueError(str(cause))) from None
            raise
        played += r[1] - r[0]
        if progress:
            elapsed = time.time() - t0
            eta = elapsed * (deals - played) / played if played else 0.0
            print(f"{what}: {played}/{deals} deals ({len(done)}/{len(ranges)} shards), "
                  f"{elapsed:.0f} s, ETA {eta:.0f} s", file=sys.stderr, flush=True)
    return done


def arena(
    agents: Sequence[str],
    players: int | None = None,
    games: int = 240,
    seed: int = 0,
    rules: dict | str | None = None,
    game: str = "kessel",
    shards: int | None = None,
    num_cpus: int = 1,
    address: str | None = None,
    progress: bool = True,
) -> dict[str, Any]:
    """The report of ``kessel_sabacc.arena(agents, players, games, seed, rules, game=game)``,
    its deals played as ``shards`` Ray tasks of ``num_cpus`` cores each (default: one shard per
    ``num_cpus`` cores of the cluster). Connects with ``ray.init(address=address)`` unless Ray is
    already initialised. Agent specs must name what every node can load: bots, or checkpoint
    and bundle folders present at the same path on each machine (the shipped checkpoints are
    resolved here, on the driver). ``progress`` prints each finished shard with an ETA to
    stderr."""
    ray = _connect(address)
    resolved = specs(agents, game)
    for spec in resolved:  # a bad spec fails here, before any task is sent
        try:
            _native.Agent(spec, 0, game)
        except ValueError as e:
            raise _with_note(e) from None
    n_players = players if players is not None else max(len(resolved), _native.game_info(game).seats[0])
    deals = _native.arena_deals(n_players, games, game)
    ranges = deal_ranges(deals, _shard_count(ray, shards, num_cpus))

    def arena_shard(r):  # the task's name in Ray's dashboard and logs
        return _play_shard(resolved, r, players, games, seed, rules, num_cpus, game)

    done = _gather(ray, "arena", arena_shard, ranges, deals, num_cpus, progress)
    return json.loads(_native.arena_merge(done, resolved, players, games, seed, rules, game))


def token_values(
    agents: Sequence[str],
    focal: Sequence[str] | None = None,
    tokens: str | Sequence[str] = "all",
    players: int = 4,
    deals: int = 2000,
    seed: int = 0,
    baseline: str = "removed",
    rules: dict | str | None = None,
    shards: int | None = None,
    num_cpus: int = 1,
    address: str | None = None,
    progress: bool = True,
) -> dict[str, Any]:
    """The report of ``kessel_sabacc.token_values(agents, focal, tokens, players, deals, seed,
    baseline, rules)`` (a study of Kessel Sabacc's Shift Tokens), its deals played as ``shards`` Ray tasks of ``num_cpus`` cores each
    (default: one shard per ``num_cpus`` cores of the cluster), as :func:`arena` plays a
    tournament: the same connection, agent specs and progress lines."""
    ray = _connect(address)
    resolved = specs(agents)
    resolved_focal = None if focal is None else specs(focal)
    try:  # an empty shard checks every setting and agent here, before any task is sent
        _native.token_values_shard(resolved, (0, 0), resolved_focal, tokens, players, deals, seed, baseline,
                                   rules, 1)
    except ValueError as e:
        raise _with_note(e) from None
    ranges = deal_ranges(deals, _shard_count(ray, shards, num_cpus))

    def token_values_shard(r):  # the task's name in Ray's dashboard and logs
        return _play_values_shard(resolved, r, resolved_focal, tokens, players, deals, seed, baseline, rules,
                                  num_cpus)

    done = _gather(ray, "token values", token_values_shard, ranges, deals, num_cpus, progress)
    return json.loads(_native.token_values_merge(done, resolved, resolved_focal, tokens, players, deals, seed,
                                                 baseline, rules))
