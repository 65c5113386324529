"""An arena tournament or a token-value study cut into shards of deals merges into the
single-machine report, in-process and (when Ray is installed) over Ray tasks."""

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


VALUES = dict(focal=["greedy", "expert"], tokens=["embargo", "refund", "markdown"], players=3, deals=14, seed=6)


def test_token_value_shards_merge_into_the_single_machine_report():
    whole = kessel_sabacc.token_values(["expert", "random"], **VALUES)
    assert whole["settings"]["deals"] == 14 and len(whole["tables"]) == 2
    assert [r["token"] for r in whole["tables"][0]["rows"]] == VALUES["tokens"]
    # Uneven shards (one empty, one reaching past the end), merged out of order.
    ranges = [(4, 9), (0, 4), (9, 9), (9, 100)]
    shards = [_native.token_values_shard(["expert", "random"], r, **VALUES) for r in ranges]
    assert [len(json.loads(s)["deals"]) for s in shards] == [5, 4, 0, 5]
    merged = json.loads(_native.token_values_merge(shards[::-1], ["expert", "random"], **VALUES))
    assert merged == whole
    # Tokens as a comma-separated string are the same study.
    again = dict(VALUES, tokens="embargo,refund,markdown")
    assert json.loads(_native.token_values_merge(shards, ["expert", "random"], **again)) == whole


def test_token_value_shards_of_other_studies_or_missing_deals_are_refused():
    settings = dict(tokens="embargo,refund", players=2, deals=6, seed=1)
    shards = [_native.token_values_shard(["expert"], r, **settings) for r in [(0, 4), (4, 6)]]
    with pytest.raises(ValueError, match="hold 4 of the study's 6 deals"):
        _native.token_values_merge(shards[:1], ["expert"], **settings)
    with pytest.raises(ValueError, match="deal 0 is in more than one shard"):
        _native.token_values_merge(shards + shards[:1], ["expert"], **settings)
    with pytest.raises(ValueError, match=r"other settings than given here \(baseline, seed differ\)"):
        _native.token_values_merge(shards, ["expert"], **dict(settings, seed=2, baseline="replaced"))
    other = _native.token_values_shard(["expert"], (4, 6), **dict(settings, rules={"round_limit": 40}))
    with pytest.raises(ValueError, match=r"shard 1 .*rules.round_limit"):
        _native.token_values_merge([shards[0], other], ["expert"], **settings)
    with pytest.raises(ValueError, match="not a token_values_shard result"):
        _native.token_values_merge(["{}"], ["expert"], **settings)
    with pytest.raises(ValueError, match="reversed"):
        _native.token_values_shard(["expert"], (4, 2), **settings)
    with pytest.raises(ValueError, match="at least 2 deals"):
        kessel_sabacc.token_values(["expert"], deals=1)
    with pytest.raises(ValueError, match="nobody"):
        kessel_sabacc.token_values(["nobody"], deals=2)
    with pytest.raises(ValueError, match="unknown token `embargoo`"):
        kessel_sabacc.token_values(["expert"], tokens=["embargoo"], deals=2)
    with pytest.raises(TypeError, match="tokens must be"):
        kessel_sabacc.token_values(["expert"], tokens=3, deals=2)


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


def test_ray_tasks_reproduce_the_single_machine_token_values():
    ray = pytest.importorskip("ray")
    ray.init(address=os.environ.get("RAY_ADDRESS"), ignore_reinit_error=True)
    try:
        settings = dict(tokens=["embargo", "immunity", "refund"], players=4, deals=40, seed=3)
        whole = kessel_sabacc.token_values(["champion@argmax", "expert"], **settings)
        merged = cluster.token_values(["champion@argmax", "expert"], shards=3, progress=False, **settings)
        assert merged == whole
        with pytest.raises(ValueError, match="not enabled by the rules"):
            enabled = {"enabled_tokens": ["refund", "immunity", "markdown"]}
            cluster.token_values(["expert"], tokens="embargo", rules=enabled, deals=4, shards=2, progress=False)
    finally:
        ray.shutdown()
