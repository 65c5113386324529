"""An arena tournament cut into shards of deals merges into the single-machine report, in-process
and (when Ray is installed) over Ray tasks."""

import json
import os

import pytest

import kessel_sabacc
from kessel_sabacc import _native, cluster

AGENTS = ["expert", "greedy", "random"]


def test_deal_ranges_partition_evenly_in_order():
    assert cluster.deal_ranges(10, 3) == [(0, 4), (4, 7), (7, 10)]
    assert cluster.deal_ranges(2, 5) == [(0, 1), (1, 2)]
    assert cluster.deal_ranges(7, 1) == [(0, 7)]
    with pytest.raises(ValueError, match="deals"):
        cluster.deal_ranges(0, 2)
    with pytest.raises(ValueError, match="parts"):
        cluster.deal_ranges(5, 0)


def test_shards_merge_into_the_single_machine_report():
    whole = kessel_sabacc.arena(AGENTS, games=150, seed=4)
    deals = _native.arena_deals(3, 150)
    assert deals == 25 and whole["settings"]["deals"] == 25
    shards = [_native.arena_shard(AGENTS, r, games=150, seed=4) for r in cluster.deal_ranges(deals, 4)]
    merged = json.loads(_native.arena_merge(shards[::-1], AGENTS, games=150, seed=4))
    assert merged == whole


def test_missing_or_repeated_shards_and_other_tournaments_are_refused():
    r = [(0, 3), (3, 5)]
    shards = [_native.arena_shard(AGENTS, x, games=30, seed=1) for x in r]
    with pytest.raises(ValueError, match="cover 3 of the tournament's 5 deals"):
        _native.arena_merge(shards[:1], AGENTS, games=30, seed=1)
    with pytest.raises(ValueError, match="more than one shard"):
        _native.arena_merge(shards + shards[:1], AGENTS, games=30, seed=1)
    with pytest.raises(ValueError, match="other agents"):
        _native.arena_merge(shards, ["expert", "random", "greedy"], games=30, seed=1)
    with pytest.raises(ValueError, match="not an arena_shard result"):
        _native.arena_merge(["{}"], AGENTS, games=30, seed=1)
    with pytest.raises(ValueError, match="reversed"):
        _native.arena_shard(AGENTS, (4, 2), games=30)
    with pytest.raises(ValueError, match="players"):
        _native.arena_deals(9, 10)


def test_ray_tasks_reproduce_the_single_machine_report():
    ray = pytest.importorskip("ray")
    # A running cluster when RAY_ADDRESS names one (.ci/rllib starts two nodes), else a local Ray.
    ray.init(address=os.environ.get("RAY_ADDRESS"), ignore_reinit_error=True)
    try:
        agents = ["champion@argmax", "greedy"]
        whole = kessel_sabacc.arena(agents, players=2, games=300, seed=2)
        merged = cluster.arena(agents, players=2, games=300, seed=2, shards=3, progress=False)
        assert merged == whole
        with pytest.raises(ValueError, match="nobody"):
            cluster.arena(["nobody", "greedy"], games=10, shards=2, progress=False)
    finally:
        ray.shutdown()
