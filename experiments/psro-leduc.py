#!/usr/bin/env python3
"""PSRO on Leduc hold'em with the project's own trainer as the best-response oracle.

A population of policies starts with one network. Each round solves the meta-game among them
(exact payoffs from `sabacc exploitability A --against B C …`, a tree walk, no sampling noise,
one process per round so that each network loads once) for its equilibrium mixture, trains a new
policy by PPO against that mixture (the population's checkpoints as the opponent pool, weighted
by the mixture) and adds it. A mixture, not the last network, is PSRO's answer: it is what the
population approaches the equilibrium with.

Every round (or every `--answer-every` rounds, and after the last) the run also measures the
meta-game mixture's exact NashConv (`sabacc exploitability --average … --weights …`; it is only
watched) and finds the population's least exploitable mixture in the full game (`sabacc
exploitability --average … --least-exploitable`: the weights with the least exact NashConv),
which is the run's answer: the meta-game's mixture sends the oracle to new parts of the game,
and the least exploitable one is what to play from the population it builds. With `--meta
least-exploitable` the responses train against that mixture instead; measured, that stalls at
once (a response to it does not lower it; BENCHMARKS.md, "Leduc hold'em").

The responses' settings can change part way (`--late-from`): soft responses (an entropy bonus,
a small learning rate) mix well while the population is far from an equilibrium, but once it is
near one they gain almost nothing against its mixture, so later rounds train sharper ones.

    python3 experiments/psro-leduc.py [--rounds N] [--decisions D] [--warm last|start] [--ent E]
        [--late-from R [--late-ent E] [--late-lr L]] [--meta nash|least-exploitable]
        [--meta-iterations N] [--tables] [--overlap] [--minutes M]
        [--answer-every K] [--out DIR] [--resume] [--sabacc BIN]

Writes DIR/round-K/ (each best response's run folder), DIR/psro.csv (one row per round: the
population's size, the NashConv of the mixture trained against and of the least exploitable
one on the rounds they were measured, the new policy's, its exact gain against the mixture it
trained against, the seconds so far) and DIR/mixture.json (the last mixtures, their members and
weights). With `--tables`, each member's policy table too (DIR/round-K/table.json; the start's is
DIR/start.table.json): the members are then played from them, with the same probabilities.
Every random choice comes from the round's seed. A round stopped part way is continued from its
last checkpoint by `--resume`; `--minutes` ends the run within a wall-time budget.
"""
import argparse
import csv
import json
import pathlib
import subprocess
import sys
import time
from operator import mul

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
actor_learner_overlap = {overlap}
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


def measure(binary, a, others, table):
    """A's exact exploitability and its exact expected payoff against each of `others`, over both
    seatings (chips a hand), in one process so that each network loads once; with `table`, A is
    also written there as a policy table."""
    args = ["exploitability", a, "--json", "--game", "leduc"]
    args += ["--against", *others] if others else []
    args += ["--save-table", str(table)] if table else []
    out = json.loads(sabacc(binary, *args))
    return out, [h["mean"] for h in out["against"]]


def meta_nash(m, iterations=20000):
    """An equilibrium of the symmetric zero-sum game with payoff matrix m (m[i][j] = -m[j][i]):
    regret matching+ with linearly weighted averaging, the row player against itself. A fixed
    number of iterations, not a tolerance: stopping early changes the mixture, and with it every
    later round, so a run replays only with the same count."""
    k = len(m)
    regret = [0.0] * k
    avg = [0.0] * k
    x = [1.0 / k] * k
    for t in range(1, iterations + 1):
        u = [sum(map(mul, row, x)) for row in m]
        ux = sum(map(mul, x, u))
        regret = [max(0.0, r + ui - ux) for r, ui in zip(regret, u)]
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
    p.add_argument(
        "--late-from",
        type=int,
        default=None,
        help="from this round on, responses train with --late-ent and --late-lr: once the population "
        "is near an equilibrium, a soft response gains almost nothing against its mixture",
    )
    p.add_argument("--late-ent", type=float, default=0.0)
    p.add_argument("--late-lr", type=float, default=3e-3)
    p.add_argument(
        "--meta",
        choices=["nash", "least-exploitable"],
        default="nash",
        help="the mixture: the meta-game's equilibrium, or the population's least exploitable mixture",
    )
    p.add_argument(
        "--meta-iterations",
        type=int,
        default=20000,
        help="regret matching+ iterations for the meta-game's equilibrium; in pure Python they cost "
        "about 45 ms per 1,000 at 88 members (2,000 leave it within 0.0005 chips of one, against "
        "0.0001 for 20,000), and runs replay only with the same count",
    )
    p.add_argument(
        "--tables",
        action="store_true",
        help="play the members from policy tables (`sabacc exploitability --save-table`), as the "
        "responses' opponents and in every walk: the same probabilities, a lookup in place of a "
        "network's forward pass (a round at 85 members: 12 s instead of 19 s)",
    )
    p.add_argument(
        "--overlap",
        action="store_true",
        help="train the responses with actor_learner_overlap: the rollout on the second core, one "
        "update behind the learner",
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--minutes",
        type=float,
        default=None,
        help="a wall-time budget in minutes: the run ends with the round after which another as long "
        "would end past it (the least exploitable mixture is then found, on top of the budget)",
    )
    p.add_argument(
        "--answer-every",
        type=int,
        default=1,
        help="find the least exploitable mixture, and measure the meta-game mixture, every this many "
        "rounds (and after the last); neither takes part in training under --meta nash, so a "
        "budgeted run spends its time on rounds",
    )
    p.add_argument("--out", default="runs/psro-leduc")
    p.add_argument("--sabacc", default="sabacc", help="the sabacc binary")
    p.add_argument(
        "--resume",
        action="store_true",
        help="continue the run in --out from its last round up to --rounds in all (the other options as it ran)",
    )
    a = p.parse_args()
    out = pathlib.Path(a.out)
    if a.answer_every < 1:
        sys.exit("--answer-every must be at least 1")
    if a.meta_iterations < 1:
        sys.exit("--meta-iterations must be at least 1")
    if a.late_from is not None and a.late_from < 1:
        sys.exit("--late-from must be a round, 1 or more")
    population, m, sigma, rows, before = [a.start], [[0.0]], [1.0], [], 0.0
    # The last least exploitable mixture found: its NashConv, bound and weights (members added
    # since it was found have none), and its round.
    answer = None
    if a.resume:
        state = out / "mixture.json"
        if not state.exists():
            sys.exit(f"{state} does not exist: nothing to resume")
        saved = json.loads(state.read_text())
        if saved.get("meta", "nash") != a.meta:
            sys.exit(f"the run in {out} used --meta {saved.get('meta', 'nash')}; resume it with the same")
        # A run from before the option was recorded ran with its default.
        saved_iterations = saved.get("meta_iterations", p.get_default("meta_iterations"))
        if saved_iterations != a.meta_iterations:
            sys.exit(f"the run in {out} used --meta-iterations {saved_iterations}; resume it with the same")
        for flag in ["tables", "overlap"]:
            if saved.get(flag, False) != getattr(a, flag):
                sys.exit(f"the run in {out} ran {'with' if saved.get(flag, False) else 'without'} --{flag}; resume it the same")
        population, m, sigma = saved["members"], saved["payoffs"], saved["weights"]
        answer = saved.get("least_exploitable")
        with open(out / "psro.csv", newline="") as f:
            for row in csv.DictReader(f):
                rows.append(
                    [
                        int(row["round"]),
                        int(row["population"]),
                        float(row["mixture_nash_conv"]) if row["mixture_nash_conv"] else "",
                        float(row["least_exploitable_nash_conv"]) if row.get("least_exploitable_nash_conv") else "",
                        float(row["new_policy_nash_conv"]),
                        float(row["response_gain"]) if row.get("response_gain") else "",
                        float(row["seconds"]),
                    ]
                )
        if len(rows) != len(population) - 1:
            sys.exit(f"{out}: {len(rows)} rounds in psro.csv for a population of {len(population)}")
        before = rows[-1][-1] if rows else 0.0
    elif out.exists() and any(out.iterdir()):
        sys.exit(f"{out} is not empty; choose another --out, or continue the run there with --resume")
    out.mkdir(parents=True, exist_ok=True)
    started = time.time() - before

    def table_of(member):
        """Where a member's policy table is kept: beside its round's folder, or in DIR for --start."""
        path = pathlib.Path(member)
        return path.parent / "table.json" if path.name == "checkpoint" else out / "start.table.json"

    def played(members):
        """The members as the run plays them: their tables under --tables, else their checkpoints."""
        return [str(table_of(m)) for m in members] if a.tables else list(members)

    if a.tables and not table_of(population[0]).exists():
        measure(a.sabacc, population[0], [], table_of(population[0]))
    for r in range(len(rows) + 1, a.rounds + 1):
        round_started = time.time()
        opponents = "\n".join(f'"{path}" = {w:.6f}' for path, w in zip(played(population), sigma) if w > 1e-4)
        run = out / f"round-{r}"
        late = a.late_from is not None and r >= a.late_from
        cfg = out / f"round-{r}.toml"
        cfg.write_text(
            CONFIG.format(
                round=r,
                seed=a.seed * 1000 + r,
                decisions=a.decisions,
                lr=a.late_lr if late else a.lr,
                ent=a.late_ent if late else a.ent,
                init=population[-1] if a.warm == "last" else a.start,
                overlap="true" if a.overlap else "false",
                opponents=opponents,
            )
        )
        if run.exists():
            # A round stopped part way (the run was interrupted): its training continues from its
            # last checkpoint rather than starting over or failing on the folder it left.
            sabacc(a.sabacc, "train", "--resume", str(run), "--quiet")
        else:
            sabacc(a.sabacc, "train", "--config", str(cfg), "--out", str(run), "--quiet")
        new = str(run / "checkpoint")
        gain = ""
        # The new policy's exact NashConv and (under --meta nash) its payoff against every member.
        alone, row = measure(a.sabacc, new, played(population) if a.meta == "nash" else [], a.tables and table_of(new))
        if a.meta == "nash":
            # The matrix grown by the new policy's row.
            # What the response won against the mixture it trained against: a best response would
            # win half that mixture's NashConv (the seatings make the game symmetric).
            gain = sum(map(mul, row, sigma))
            m = [mi + [-row[i]] for i, mi in enumerate(m)] + [row + [0.0]]
            population.append(new)
            sigma = meta_nash(m, a.meta_iterations)
        else:
            population.append(new)
        # Whether this round is the last: the budget would be passed by another as long as this.
        now = time.time()
        last = r == a.rounds or (
            a.minutes is not None and (now - started) + (now - round_started) > a.minutes * 60
        )
        # The meta-game mixture's NashConv is only watched, so it is measured when the answer is.
        due = a.meta == "least-exploitable" or last or r % a.answer_every == 0
        mix = None
        if a.meta == "nash" and due:
            mix = json.loads(
                sabacc(
                    a.sabacc, "exploitability", "--game", "leduc", "--json", "--average", *played(population),
                    "--weights", ",".join(f"{w:.9f}" for w in sigma),
                )
            )
        # The run's answer: the population's least exploitable mixture (under `--meta nash` it
        # differs from the mixture the responses train against, and is less exploitable).
        found = ""
        if due:
            best = json.loads(
                sabacc(
                    a.sabacc, "exploitability", "--game", "leduc", "--json", "--average", *played(population),
                    "--least-exploitable",
                )
            )
            found = best["nash_conv"]
            answer = {
                "weights": best["least_exploitable"]["weights"],
                "nash_conv": found,
                "lower_bound": best["least_exploitable"]["lower_bound"],
                "round": r,
            }
            if a.meta == "least-exploitable":
                mix = best
                sigma = answer["weights"]
        seconds = time.time() - started
        mixed = mix["nash_conv"] if mix else ""
        rows.append([r, len(population), mixed, found, alone["nash_conv"], gain, round(seconds, 1)])
        print(
            f"round {r}: population {len(population)}, "
            + (f"the mixture's NashConv {mixed:.4f}, " if mixed != "" else "")
            + (f"the least exploitable mixture's {found:.4f}, " if found != "" else "")
            + f"the new policy's {alone['nash_conv']:.4f}"
            + (f", its gain against the mixture {gain:.4f}" if gain != "" else "")
            + f", {seconds:.0f} s",
            flush=True,
        )
        with open(out / "psro.csv", "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(
                [
                    "round",
                    "population",
                    "mixture_nash_conv",
                    "least_exploitable_nash_conv",
                    "new_policy_nash_conv",
                    "response_gain",
                    "seconds",
                ]
            )
            w.writerows(rows)
        (out / "mixture.json").write_text(
            json.dumps(
                {
                    "members": population,
                    "weights": sigma,
                    "nash_conv": mixed if mixed != "" else None,
                    "meta": a.meta,
                    "meta_iterations": a.meta_iterations,
                    "tables": a.tables,
                    "overlap": a.overlap,
                    "least_exploitable": answer
                    and dict(answer, weights=answer["weights"] + [0.0] * (len(population) - len(answer["weights"]))),
                    "payoffs": m,
                },
                indent=1,
            )
        )
        if last and r < a.rounds:
            print(f"stopping after round {r}: another would end past the {a.minutes:g}-minute budget", flush=True)
            break


if __name__ == "__main__":
    main()
