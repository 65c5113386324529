#!/usr/bin/env python3
"""Inference throughput of an exported bundle, in one run:

* burn: the checkpoint as Rust agents run it, and the bundle loaded back in Rust
  (`export_bench` example, run as a subprocess);
* onnxruntime: the bundle's policy.onnx, and the anchor, a minimal hand-built ONNX graph of the
  same network (onnx.helper: two towers, masked logits, softmax, value) with random weights;

at batch 1, 64 and 1024 on real rows from reference.json, with ratios against the anchor and
against burn.

Usage:
  cargo build --release -p policy --example export_bench
  python export-checks/export_bench.py CHECKPOINT BUNDLE [--rust target/release/examples/export_bench]
      [--seconds 1.0] [--threads 2]
"""

import argparse
import json
import subprocess
import time
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

BATCHES = (1, 64, 1024)


def anchor_model(obs_len, num_actions, hidden, shared):
    """The minimal graph: Gemm/Relu towers, Where on a bool mask, Softmax, value Squeeze."""
    rng = np.random.default_rng(0)
    inits, nodes = [], []

    def tower(prefix, x):
        d = obs_len
        for i, h in enumerate(hidden):
            w = numpy_helper.from_array((rng.standard_normal((h, d)) * 0.05).astype(np.float32), f"{prefix}{i}.w")
            b = numpy_helper.from_array(np.zeros(h, np.float32), f"{prefix}{i}.b")
            inits.extend([w, b])
            nodes.append(helper.make_node("Gemm", [x, w.name, b.name], [f"{prefix}{i}.g"], transB=1))
            nodes.append(helper.make_node("Relu", [f"{prefix}{i}.g"], [f"{prefix}{i}.r"]))
            x, d = f"{prefix}{i}.r", h
        return x

    def head(name, x, out):
        w = numpy_helper.from_array((rng.standard_normal((out, hidden[-1])) * 0.05).astype(np.float32), name + ".w")
        b = numpy_helper.from_array(np.zeros(out, np.float32), name + ".b")
        inits.extend([w, b])
        nodes.append(helper.make_node("Gemm", [x, w.name, b.name], [name], transB=1))

    a = tower("a", "obs")
    c = a if shared else tower("c", "obs")
    head("raw", a, num_actions)
    head("v2", c, 1)
    inits.append(numpy_helper.from_array(np.array(-1e9, np.float32), "neg"))
    inits.append(numpy_helper.from_array(np.array([1], np.int64), "ax"))
    nodes += [
        helper.make_node("Where", ["mask", "raw", "neg"], ["logits"]),
        helper.make_node("Softmax", ["logits"], ["probs"], axis=-1),
        helper.make_node("Squeeze", ["v2", "ax"], ["value"]),
    ]
    graph = helper.make_graph(
        nodes,
        "anchor",
        [
            helper.make_tensor_value_info("obs", TensorProto.FLOAT, ["batch", obs_len]),
            helper.make_tensor_value_info("mask", TensorProto.BOOL, ["batch", num_actions]),
        ],
        [
            helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", num_actions]),
            helper.make_tensor_value_info("probs", TensorProto.FLOAT, ["batch", num_actions]),
            helper.make_tensor_value_info("value", TensorProto.FLOAT, ["batch"]),
        ],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model, full_check=True)
    return model.SerializeToString()


def session(model, threads):
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    return ort.InferenceSession(model, sess_options=opts, providers=["CPUExecutionProvider"])


def timed(seconds, f):
    for _ in range(3):
        f()
    calls, start = 0, time.perf_counter()
    while calls < 5 or time.perf_counter() - start < seconds:
        f()
        calls += 1
    return (time.perf_counter() - start) / calls


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("checkpoint")
    p.add_argument("bundle")
    p.add_argument("--rust", default="target/release/examples/export_bench")
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--threads", type=int, default=2)
    a = p.parse_args()
    bundle = Path(a.bundle)
    contract = json.loads((bundle / "contract.json").read_text())
    rows = json.loads((bundle / "reference.json").read_text())["rows"]
    cfg = contract["network"]["config"]
    obs_len, num_actions = contract["observation"]["length"], contract["actions"]["count"]

    exported = session(str(bundle / "policy.onnx"), a.threads)
    anchor = session(anchor_model(obs_len, num_actions, cfg["hidden"], cfg["shared_trunk"]), a.threads)

    rust = subprocess.run(
        [a.rust, a.checkpoint, a.bundle, str(a.seconds)], check=True, capture_output=True, text=True
    )
    burn = {c["batch"]: c for c in json.loads(rust.stdout)["cases"]}

    src_obs = np.asarray(rows["obs"], np.float32)
    src_mask = np.asarray(rows["mask"], np.float32)
    print(f"network {obs_len} -> {cfg['hidden']} ({cfg['activation']}, shared={cfg['shared_trunk']}); "
          f"onnxruntime {ort.__version__}, {a.threads} threads; {a.seconds:.1f}s per case")
    header = ("batch", "anchor us", "onnx us", "onnx/anchor", "burn us", "bundle us", "bundle/burn",
              "onnx rows/s", "burn rows/s")
    print(" ".join(f"{h:>12}" for h in header))
    out = []
    for n in BATCHES:
        idx = np.arange(n) % len(src_obs)
        obs, mask = src_obs[idx], src_mask[idx]
        feeds_x = {"obs": obs, "mask": mask}
        feeds_a = {"obs": obs, "mask": mask != 0}
        t_x, t_a = 0.0, 0.0
        for _ in range(3):  # interleaved so load changes hit both alike
            t_a += timed(a.seconds / 3, lambda: anchor.run(None, feeds_a)) / 3
            t_x += timed(a.seconds / 3, lambda: exported.run(None, feeds_x)) / 3
        b = burn[n]
        row = {
            "batch": n,
            "anchor_us": t_a * 1e6,
            "onnx_us": t_x * 1e6,
            "onnx_over_anchor": t_x / t_a,
            "burn_us": b["burn_checkpoint_us_per_call"],
            "rust_bundle_us": b["rust_bundle_us_per_call"],
            "rust_bundle_over_burn": b["rust_bundle_us_per_call"] / b["burn_checkpoint_us_per_call"],
            "onnx_rows_per_sec": n / t_x,
            "anchor_rows_per_sec": n / t_a,
            "burn_rows_per_sec": b["burn_checkpoint_rows_per_sec"],
        }
        out.append(row)
        print(f"{n:>12} {row['anchor_us']:>12.1f} {row['onnx_us']:>12.1f} {row['onnx_over_anchor']:>12.2f} "
              f"{row['burn_us']:>12.1f} {row['rust_bundle_us']:>12.1f} {row['rust_bundle_over_burn']:>12.2f} "
              f"{row['onnx_rows_per_sec']:>12.0f} {row['burn_rows_per_sec']:>12.0f}")
    print(json.dumps({"cases": out}))


if __name__ == "__main__":
    main()
