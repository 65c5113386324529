"""Agents and the arena from Python."""

import json
import struct

import numpy as np
import pytest

import kessel_sabacc
from kessel_sabacc import Game, VecEnv


def checkpoint(repo, mode=""):
    return str(repo / "checkpoints" / "quick-4p") + mode


@pytest.mark.parametrize("spec", ["random", "greedy", "expert", "search:8"])
def test_bots_play_legal_actions_on_games_and_vector_envs(spec):
    agent = kessel_sabacc.agent(spec, seed=1)
    venv = VecEnv(8, seed=3)
    for _ in range(30):
        actions = agent.act_vec(venv)
        assert venv.action_mask[np.arange(8), actions].all()
        venv.step(actions)
    game = Game(3)
    game.reset(4)
    while not game.done:
        a = agent.act_game(game)
        assert a in game.legal_actions()
        game.step(a)


def test_checkpoint_acts_from_observations_in_batches(repo):
    agent = kessel_sabacc.agent(checkpoint(repo, "@argmax"))
    assert agent.acts_from_obs
    venv = VecEnv(16, seed=2)
    actions = agent.act(venv.obs, venv.action_mask)
    assert actions.shape == (16,) and actions.dtype == np.int64
    assert venv.action_mask[np.arange(16), actions].all()
    # Argmax play from observations equals the same agent playing from the seats' views.
    assert np.array_equal(actions, agent.act_vec(venv))
    # One row in, one int out.
    one = agent.act(venv.obs[0], venv.action_mask[0].astype(np.int8))
    assert one == actions[0]


def test_random_agent_acts_from_masks_reproducibly():
    venv = VecEnv(8, seed=0)
    a = kessel_sabacc.agent("random", seed=5).act(venv.obs, venv.action_mask)
    b = kessel_sabacc.agent("random", seed=5).act(venv.obs, venv.action_mask)
    assert np.array_equal(a, b)
    assert venv.action_mask[np.arange(8), a].all()


def test_bots_refuse_observation_only_acting():
    venv = VecEnv(2, seed=0)
    with pytest.raises(TypeError, match="full view"):
        kessel_sabacc.agent("expert").act(venv.obs, venv.action_mask)


def test_unknown_specs_list_what_exists():
    with pytest.raises(ValueError, match="random, greedy, expert"):
        kessel_sabacc.agent("grandmaster")
    with pytest.raises(ValueError, match=r"`search:0`.*budget.*whole number from 1"):
        kessel_sabacc.agent("search:0")
    with pytest.raises(ValueError, match="unknown agent `no/such/checkpoint`.*sabacc agents"):
        kessel_sabacc.agent("no/such/checkpoint")


def test_arena_returns_the_report_and_ranks_the_bots():
    report = kessel_sabacc.arena(["expert", "random"], games=200, seed=1)
    assert report["settings"]["players"] == 2
    assert report["settings"]["games"] >= 200
    rates = {a["name"]: a["win_rate"] for a in report["agents"]}
    assert rates["expert"] > 0.7 > rates["random"]
    # Same seed, same tournament.
    again = kessel_sabacc.arena(["expert", "random"], games=200, seed=1)
    assert again["agents"] == report["agents"]


def test_arena_refuses_bad_settings():
    with pytest.raises(ValueError, match="unknown agent"):
        kessel_sabacc.arena(["expert", "nobody"])
    with pytest.raises(ValueError, match="seats"):
        kessel_sabacc.arena(["expert", "random", "greedy"], players=2)


def write_safetensors(path, tensors):
    """The safetensors layout (8-byte header length, JSON header, raw little-endian data),
    written with numpy so the test needs no extra package."""
    header, offset, blobs = {}, 0, []
    for name, array in tensors.items():
        data = np.ascontiguousarray(array, dtype="<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(array.shape), "data_offsets": [offset, offset + len(data)]}
        offset += len(data)
        blobs.append(data)
    text = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def random_network(hidden, seed, obs_len=kessel_sabacc.OBS_LEN, num_actions=kessel_sabacc.NUM_ACTIONS):
    """Random weights of the bundle layout (separate actor and critic trunks)."""
    rng = np.random.default_rng(seed)
    widths = [obs_len, *hidden]
    tensors = {}
    for trunk in ("actor_trunk", "critic_trunk"):
        for i, (m, n) in enumerate(zip(widths, widths[1:])):
            tensors[f"{trunk}.{i}.weight"] = rng.normal(0, 1 / np.sqrt(m), (n, m))
            tensors[f"{trunk}.{i}.bias"] = rng.normal(0, 0.1, n)
    tensors["policy_head.weight"] = rng.normal(0, 1 / np.sqrt(widths[-1]), (num_actions, widths[-1]))
    tensors["policy_head.bias"] = rng.normal(0, 0.1, num_actions)
    tensors["value_head.weight"] = rng.normal(0, 1 / np.sqrt(widths[-1]), (1, widths[-1]))
    tensors["value_head.bias"] = np.zeros(1)
    return {k: v.astype(np.float32) for k, v in tensors.items()}


def numpy_logits(tensors, obs, layers):
    x = obs.astype(np.float64)
    for i in range(layers):
        x = np.maximum(x @ tensors[f"actor_trunk.{i}.weight"].T + tensors[f"actor_trunk.{i}.bias"], 0)
    return x @ tensors["policy_head.weight"].T + tensors["policy_head.bias"]


def test_exported_weights_make_a_bundle_that_acts_from_observations_in_batches(tmp_path):
    tensors = random_network([32, 16], seed=7)
    weights = tmp_path / "weights.safetensors"
    write_safetensors(weights, tensors)
    bundle = tmp_path / "bundle"
    files = dict(kessel_sabacc.export_bundle(str(weights), str(bundle), hidden=[32, 16], training_step=123, seed=9))
    assert {"contract.json", "policy.safetensors", "policy.onnx", "reference.json", "README.md"} <= set(files)
    contract = json.loads((bundle / "contract.json").read_text())
    assert contract["network"]["config"]["hidden"] == [32, 16]
    assert contract["source"]["checkpoint"] == "weights.safetensors"
    assert contract["source"]["training_step"] == 123

    agent = kessel_sabacc.agent(str(bundle) + "@argmax")
    assert agent.acts_from_obs
    venv = VecEnv(32, seed=4)
    for _ in range(20):
        actions = agent.act(venv.obs, venv.action_mask)
        assert actions.shape == (32,) and actions.dtype == np.int64
        # The bundle plays exactly the argmax of the weights it was made from.
        logits = np.where(venv.action_mask, numpy_logits(tensors, venv.obs, 2), -np.inf)
        assert np.array_equal(actions, logits.argmax(1))
        # From observations or from the seats' views: the same choice.
        assert np.array_equal(actions, agent.act_vec(venv))
        venv.step(actions)
    # A sampling bundle agent: legal, and reproducible from its seed.
    a = kessel_sabacc.agent(str(bundle), seed=3).act(venv.obs, venv.action_mask)
    b = kessel_sabacc.agent(str(bundle), seed=3).act(venv.obs, venv.action_mask)
    assert np.array_equal(a, b) and venv.action_mask[np.arange(32), a].all()
    # The arena plays it like any agent spec.
    report = kessel_sabacc.arena([str(bundle) + "@argmax", "random"], games=20, seed=1)
    assert report["settings"]["games"] >= 20


def test_classic_weights_export_as_a_classic_bundle_that_plays_classic_games_only(tmp_path):
    tensors = random_network([16], seed=5, obs_len=kessel_sabacc.CLASSIC_OBS_LEN,
                             num_actions=kessel_sabacc.CLASSIC_NUM_ACTIONS)
    weights = tmp_path / "classic.safetensors"
    write_safetensors(weights, tensors)
    # Classic-sized weights are not a Kessel network: the shape mismatch is named.
    with pytest.raises(ValueError, match="actor_trunk|shape"):
        kessel_sabacc.export_bundle(str(weights), str(tmp_path / "kessel"), hidden=[16])
    with pytest.raises(ValueError, match="unknown game `poker`"):
        kessel_sabacc.export_bundle(str(weights), str(tmp_path / "x"), hidden=[16], game="poker")
    bundle = tmp_path / "bundle"
    kessel_sabacc.export_bundle(str(weights), str(bundle), hidden=[16], num_players=2,
                                rules={"hand_limit_end": "most-credits"}, game="classic")
    contract = json.loads((bundle / "contract.json").read_text())
    assert contract["env_id"] == kessel_sabacc.CLASSIC_ENV_ID
    assert contract["game"]["config"]["rules"]["hand_limit_end"] == "most-credits"
    assert contract["actions"]["count"] == kessel_sabacc.CLASSIC_NUM_ACTIONS
    venv = VecEnv(8, num_players=2, seed=2, game="classic")
    agent = kessel_sabacc.agent(str(bundle) + "@argmax", game="classic")
    for _ in range(10):
        actions = agent.act(venv.obs, venv.action_mask)
        logits = np.where(venv.action_mask, numpy_logits(tensors, venv.obs, 1), -np.inf)
        assert np.array_equal(actions, logits.argmax(1))
        venv.step(actions)
    report = kessel_sabacc.arena([str(bundle) + "@argmax", "random"], games=8, seed=1, game="classic")
    assert report["settings"]["games"] >= 8
    with pytest.raises(ValueError, match="classic"):
        kessel_sabacc.agent(str(bundle))


def test_export_bundle_refuses_bad_weights_and_settings(tmp_path):
    tensors = random_network([32], seed=1)
    weights = tmp_path / "weights.safetensors"
    write_safetensors(weights, tensors)
    with pytest.raises(ValueError, match="activation must be 'relu' or 'tanh'"):
        kessel_sabacc.export_bundle(str(weights), str(tmp_path / "a"), hidden=[32], activation="gelu")
    with pytest.raises(ValueError, match="hidden"):
        kessel_sabacc.export_bundle(str(weights), str(tmp_path / "a"), hidden=[])
    # Weights of another shape than `hidden` says: the mismatch is named, nothing is written.
    with pytest.raises(ValueError, match="actor_trunk|shape"):
        kessel_sabacc.export_bundle(str(weights), str(tmp_path / "b"), hidden=[64])
    assert not (tmp_path / "b").exists()
    missing = dict(tensors)
    del missing["value_head.bias"]
    write_safetensors(tmp_path / "missing.safetensors", missing)
    with pytest.raises(ValueError, match="value_head.bias"):
        kessel_sabacc.export_bundle(str(tmp_path / "missing.safetensors"), str(tmp_path / "c"), hidden=[32])
    kessel_sabacc.export_bundle(str(weights), str(tmp_path / "d"), hidden=[32])
    with pytest.raises(ValueError, match="already exists"):
        kessel_sabacc.export_bundle(str(weights), str(tmp_path / "d"), hidden=[32])
    kessel_sabacc.export_bundle(str(weights), str(tmp_path / "d"), hidden=[32], force=True)
    with pytest.raises(ValueError, match="num_players"):
        kessel_sabacc.export_bundle(str(weights), str(tmp_path / "e"), hidden=[32], num_players=9)
