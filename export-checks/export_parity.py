#!/usr/bin/env python3
"""Parity check of `sabacc export` bundles outside Rust.

For each bundle folder given: the ONNX model passes onnx.checker's full check, declares the
contract's interface and metadata, and onnxruntime reproduces the Rust policy's outputs in
reference.json; a plain-numpy forward pass over policy.safetensors does too; the contract and
the reference states are self-consistent. Tolerances: |diff| <= 1e-5 * max(1, |reference|) for
logits, probs and value (float32 sums taken in another order differ by a few units in the last
place, and legal logits reach the tens); identical argmax; probabilities exactly 0 on illegal
actions.

Usage: python export-checks/export_parity.py BUNDLE [BUNDLE ...]
Needs only export-checks/requirements-export.txt (numpy, onnx, onnxruntime, safetensors).
"""

import json
import sys
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from safetensors.numpy import load_file

# The contract versions this check reads: 2 added the optional `level` section.
CONTRACT_VERSIONS = (1, 2)


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, ok, what):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print(f"FAIL {what}", file=sys.stderr)
        return ok


def numpy_forward(contract, tensors, obs, mask):
    """The contract's network, computed with numpy from the safetensors weights."""
    net = contract["network"]
    acts = {"relu": lambda x: np.maximum(x, 0.0), "tanh": np.tanh, "none": lambda x: x}

    def path(layers):
        x = obs
        for layer in layers:
            w = tensors[layer["name"] + ".weight"]
            b = tensors[layer["name"] + ".bias"]
            x = acts[layer["activation"]](x @ w.T + b)
        return x

    raw = path(net["actor"])
    logits = np.where(mask != 0, raw, np.float32(contract["masking"]["masked_logit"])).astype(np.float32)
    z = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(z)
    probs = e / e.sum(axis=1, keepdims=True)
    value = path(net["critic"])[:, 0]
    return logits, probs, value


def scaled_diff(got, ref):
    """Largest |got - ref| / max(1, |ref|): absolute below 1, relative above."""
    ref = np.asarray(ref, dtype=np.float64)
    return float(np.max(np.abs(np.asarray(got, dtype=np.float64) - ref) / np.maximum(1.0, np.abs(ref))))


def compare(c, name, got, ref, mask, tol):
    logits, probs, value = got
    d_logits = scaled_diff(logits, ref["logits"])
    d_probs = scaled_diff(probs, ref["probs"])
    d_value = scaled_diff(value, ref["value"])
    c.check(d_logits <= tol["logits"], f"{name}: logits differ by {d_logits:.3g}")
    c.check(d_probs <= tol["logits"], f"{name}: probs differ by {d_probs:.3g}")
    c.check(d_value <= tol["value"], f"{name}: value differs by {d_value:.3g}")
    argmax = np.argmax(logits, axis=1)
    c.check(np.array_equal(argmax, ref["argmax"]), f"{name}: argmax differs in {int(np.sum(argmax != ref['argmax']))} rows")
    illegal = probs[mask == 0]
    c.check(bool(np.all(illegal == 0.0)), f"{name}: {int(np.sum(illegal != 0))} illegal actions with probability > 0")
    c.check(bool(np.all(np.isfinite(probs))), f"{name}: non-finite probabilities")
    return d_logits, d_probs, d_value


def check_contract(c, contract, reference):
    obs_spec = contract["observation"]
    c.check(contract["contract_version"] in CONTRACT_VERSIONS, f"contract_version {contract['contract_version']}")
    end = 0
    for seg in obs_spec["segments"]:
        c.check(seg["offset"] == end, f"segment {seg['name']} starts at {seg['offset']}, expected {end}")
        end = seg["offset"] + seg["length"]
    c.check(end == obs_spec["length"], f"segments end at {end}, obs length {obs_spec['length']}")
    names = contract["actions"]["names"]
    c.check(len(names) == contract["actions"]["count"] and len(set(names)) == len(names), "action names")
    for s in reference["states"]:
        for seat in s["seats"]:
            c.check(len(seat["obs"]) == obs_spec["length"], f"state obs length of seat {seat['seat']}")
        c.check(all(0 <= a < len(names) for a in s["legal"]), "state legal actions in range")


def check_level(c, contract, rows, mask, meta):
    """A difficulty level's section, and its rule applied as a front-end would: argmax of the
    network's probabilities, replaced with probability mistake_rate by a uniformly random legal
    action."""
    level = contract.get("level")
    if level is None:
        c.check("sabacc.level" not in meta, "metadata names a level the contract does not have")
        return
    c.check(contract["contract_version"] >= 2, "a level needs contract version 2")
    rate = level["mistake_rate"]
    c.check(0.0 <= rate <= 1.0, f"level mistake_rate {rate}")
    c.check(level["selection"] == "argmax", f"level selection {level['selection']}")
    c.check(level["spec"] == f"level:{level['number']}", f"level spec {level['spec']}")
    r = level["rating"]
    c.check(r["low"] <= r["rating"] <= r["high"], f"level rating {r['rating']} outside [{r['low']}, {r['high']}]")
    c.check(len(r["ladder_sha256"]) == 64, "level ladder_sha256")
    if meta:
        c.check(meta.get("sabacc.level") == str(level["number"]), "metadata level")
        c.check(float(meta.get("sabacc.level_mistake_rate", "nan")) == rate, "metadata level_mistake_rate")
    rng = np.random.default_rng(7)
    probs = np.asarray(rows["probs"], dtype=np.float32)
    chosen, changed = [], 0
    for p, m in zip(probs, mask):
        if rng.random() < rate:
            a = int(rng.choice(np.flatnonzero(m != 0)))
        else:
            a = int(np.argmax(p))
        chosen.append(a)
        changed += a != int(np.argmax(p))
    c.check(all(mask[i, a] != 0 for i, a in enumerate(chosen)), "the level's rule plays legal actions only")
    if rate == 0.0:
        c.check(changed == 0, "mistake_rate 0 plays the network's argmax")
    else:
        c.check(0 < changed <= len(chosen), f"mistake_rate {rate} changed {changed} of {len(chosen)} choices")


def check_onnx(c, bundle, contract, rows, mask, tol):
    path = bundle / contract["onnx"]["file"]
    model = onnx.load(str(path))
    try:
        onnx.checker.check_model(model, full_check=True)
        c.check(True, "onnx.checker")
    except onnx.checker.ValidationError as e:
        c.check(False, f"onnx.checker: {e}")
    opset = {o.domain: o.version for o in model.opset_import}
    c.check(opset.get("", opset.get("ai.onnx")) == contract["onnx"]["opset"], f"opset {opset}")
    meta = {p.key: p.value for p in model.metadata_props}
    c.check(meta.get("sabacc.contract_version") == str(contract["contract_version"]), "metadata contract_version")
    c.check(meta.get("sabacc.obs_len") == str(contract["observation"]["length"]), "metadata obs_len")
    c.check(meta.get("sabacc.num_actions") == str(contract["actions"]["count"]), "metadata num_actions")
    c.check(meta.get("sabacc.action_names", "").split(",") == contract["actions"]["names"], "metadata action_names")
    c.check(meta.get("sabacc.source_model_sha256") == contract["source"]["model_sha256"], "metadata source sha256")

    sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    c.check([i.name for i in sess.get_inputs()] == ["obs", "mask"], "onnx input names")
    c.check([o.name for o in sess.get_outputs()] == ["logits", "probs", "value"], "onnx output names")
    obs = np.asarray(rows["obs"], dtype=np.float32)
    logits, probs, value = sess.run(None, {"obs": obs, "mask": mask})
    diffs = compare(c, "onnxruntime", (logits, probs, value), rows, mask, tol)
    check_level(c, contract, {"probs": probs}, mask, meta)
    # Dynamic batch: one row and an odd batch give the same rows.
    for n in (1, 7):
        part = sess.run(None, {"obs": obs[:n], "mask": mask[:n]})
        c.check(part[0].shape == (n, mask.shape[1]) and part[2].shape == (n,), f"batch {n} shapes")
        c.check(scaled_diff(part[0], logits[:n]) <= tol["logits"], f"batch {n} logits")
    # An all-illegal row stays finite (the mask uses a large finite negative, not -inf).
    empty = sess.run(None, {"obs": obs[:1], "mask": np.zeros_like(mask[:1])})
    c.check(bool(np.all(np.isfinite(empty[1]))), "all-illegal row gives finite probabilities")
    return diffs


def check_safetensors(c, bundle, contract, rows, mask, tol):
    tensors = load_file(str(bundle / "policy.safetensors"))
    expected = {}
    for path in (contract["network"]["actor"], contract["network"]["critic"]):
        for layer in path:
            expected[layer["name"] + ".weight"] = (layer["outputs"], layer["inputs"])
            expected[layer["name"] + ".bias"] = (layer["outputs"],)
    got = {k: tuple(v.shape) for k, v in tensors.items()}
    c.check(got == expected, f"safetensors names/shapes {sorted(set(got.items()) ^ set(expected.items()))}")
    obs = np.asarray(rows["obs"], dtype=np.float32)
    return compare(c, "numpy", numpy_forward(contract, tensors, obs, mask), rows, mask, tol)


def check_bundle(c, bundle):
    contract = json.loads((bundle / "contract.json").read_text())
    reference = json.loads((bundle / "reference.json").read_text())
    rows = reference["rows"]
    tol = reference["tolerance"]
    ref = {
        "logits": np.asarray(rows["logits"], dtype=np.float32),
        "probs": np.asarray(rows["probs"], dtype=np.float32),
        "value": np.asarray(rows["value"], dtype=np.float32),
        "argmax": np.asarray(rows["argmax"]),
        "obs": rows["obs"],
    }
    mask = np.asarray(rows["mask"], dtype=np.float32)
    check_contract(c, contract, reference)
    if (bundle / contract["onnx"]["file"]).exists():
        d = check_onnx(c, bundle, contract, ref, mask, tol)
        print(f"{bundle.name}: onnxruntime max scaled |diff| logits {d[0]:.2e} probs {d[1]:.2e} value {d[2]:.2e}")
    else:
        check_level(c, contract, ref, mask, {})
    if (bundle / "policy.safetensors").exists():
        d = check_safetensors(c, bundle, contract, ref, mask, tol)
        print(f"{bundle.name}: numpy       max scaled |diff| logits {d[0]:.2e} probs {d[1]:.2e} value {d[2]:.2e}")


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    c = Checks()
    for arg in argv[1:]:
        bundle = Path(arg)
        if not (bundle / "contract.json").is_file():
            c.check(False, f"{bundle}: not an export bundle (no contract.json)")
            continue
        check_bundle(c, bundle)
    print(f"export parity: {c.passed} passed, {c.failed} failed")
    return 0 if c.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
