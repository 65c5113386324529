#!/usr/bin/env python3
"""PSRO on Leduc hold'em with the project's own trainer as the best-response oracle.

A population of policies starts with one network. Each round solves the meta-game among them
(exact payoffs from `sabacc exploitability A --against B`, a tree walk, no sampling noise) for
its equilibrium mixture, trains a new policy by PPO against that mixture (the population's
checkpoints as the opponent pool, weighted by the mixture), adds it, and measures the mixture's
exact NashConv (`sabacc exploitability --average … --weights …`). The mixture, not the last
network, is PSRO's answer: it is what the population approaches the equilibrium with.

    python3 experiments/psro-leduc.py [--rounds N] [--decisions D] [--warm last|start] [--ent E]
        [--out DIR] [--sabacc BIN]

Writes DIR/round-K/ (each best response's run folder), DIR/psro.csv (one row per round: the
population's size, the mixture's NashConv, the seconds so far) and DIR/mixture.json (the last
mixture, its members and weights). Every random choice comes from the round's seed.
"""
import argparse
import csv
import json
import pathlib
import subprocess
import sys
import time

CONFIG = """game = "leduc"
name = "psro-round-{round}"
seed = {seed}
players = 2
total_decisions = {decisions}
num_envs = 64
num_steps = 32
learning_rate = {lr}
anneal_lr = true
gamma = 1.0
gae_lambda = 0.95
num_minibatches = 4
update_epochs = 4
norm_adv = true
clip_coef = 0.2
clip_vloss = true
ent_coef = {ent}
vf_coef = 0.5
max_grad_norm = 0.5
hidden = [128, 128]
learner_seats = 1
init_from = "{init}"
checkpoint_every = 100000
snapshot_every = 100000
eval_every = 0
eval_games = 100
eval_bots = ["cfr"]
final_eval_games = 0

[opponents]
{opponents}
"""


def sabacc(binary, *args):
    out = subprocess.run([binary, *args], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"`sabacc {' '.join(args)}` failed:\n{out.stderr}")
    return out.stdout


def value(binary, a, b):
    """A's exact expected payoff against B, over both seatings (chips a hand)."""
    out = json.loads(sabacc(binary, "exploitability", a, "--against", b, "--json", "--game", "leduc"))
    return out["against"]["mean"]


def meta_nash(m, iterations=20000):
    """An equilibrium of the symmetric zero-sum game with payoff matrix m (m[i][j] = -m[j][i]):
    regret matching+ with linearly weighted averaging, the row player against itself."""
    k = len(m)
    regret = [0.0] * k
    avg = [0.0] * k
    x = [1.0 / k] * k
    for t in range(1, iterations + 1):
        u = [sum(m[i][j] * x[j] for j in range(k)) for i in range(k)]
        ux = sum(x[i] * u[i] for i in range(k))
        regret = [max(0.0, regret[i] + u[i] - ux) for i in range(k)]
        total = sum(regret)
        x = [r / total for r in regret] if total > 0 else [1.0 / k] * k
        avg = [a + t * xi for a, xi in zip(avg, x)]
    s = sum(avg)
    return [a / s for a in avg]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=20)
    p.add_argument("--decisions", type=int, default=500_000, help="learner decisions per best response")
    p.add_argument("--start", default="checkpoints/leduc-ppo", help="the population's first policy")
    p.add_argument(
        "--warm",
        choices=["last", "start"],
        default="last",
        help="each best response starts from the population's last policy, or from --start",
    )
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--ent", type=float, default=0.01)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default="runs/psro-leduc")
    p.add_argument("--sabacc", default="sabacc", help="the sabacc binary")
    a = p.parse_args()
    out = pathlib.Path(a.out)
    if out.exists() and any(out.iterdir()):
        sys.exit(f"{out} is not empty; choose another --out")
    out.mkdir(parents=True, exist_ok=True)
    started = time.time()
    population = [a.start]
    m = [[0.0]]
    rows = []
    for r in range(1, a.rounds + 1):
        sigma = meta_nash(m)
        opponents = "\n".join(f'"{path}" = {w:.6f}' for path, w in zip(population, sigma) if w > 1e-4)
        run = out / f"round-{r}"
        cfg = out / f"round-{r}.toml"
        cfg.write_text(
            CONFIG.format(
                round=r,
                seed=a.seed * 1000 + r,
                decisions=a.decisions,
                lr=a.lr,
                ent=a.ent,
                init=population[-1] if a.warm == "last" else a.start,
                opponents=opponents,
            )
        )
        sabacc(a.sabacc, "train", "--config", str(cfg), "--out", str(run), "--quiet")
        new = str(run / "checkpoint")
        # The new policy's exact payoff against every member, and the matrix grown by it.
        row = [value(a.sabacc, new, q) for q in population]
        m = [mi + [-row[i]] for i, mi in enumerate(m)] + [row + [0.0]]
        population.append(new)
        sigma = meta_nash(m)
        mix = json.loads(
            sabacc(
                a.sabacc, "exploitability", "--game", "leduc", "--json", "--average", *population,
                "--weights", ",".join(f"{w:.9f}" for w in sigma),
            )
        )
        alone = json.loads(sabacc(a.sabacc, "exploitability", "--game", "leduc", "--json", new))
        seconds = time.time() - started
        rows.append([r, len(population), mix["nash_conv"], alone["nash_conv"], round(seconds, 1)])
        print(
            f"round {r}: population {len(population)}, the mixture's NashConv {mix['nash_conv']:.4f}, "
            f"the new policy's {alone['nash_conv']:.4f}, {seconds:.0f} s",
            flush=True,
        )
        with open(out / "psro.csv", "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["round", "population", "mixture_nash_conv", "new_policy_nash_conv", "seconds"])
            w.writerows(rows)
        (out / "mixture.json").write_text(
            json.dumps({"members": population, "weights": sigma, "nash_conv": mix["nash_conv"], "payoffs": m}, indent=1)
        )


if __name__ == "__main__":
    main()
