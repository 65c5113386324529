"""Throughput from Python: ``python -m kessel_sabacc.bench [--game G] [--seconds T] [--json]``.

Measures, in one run, for one registered game (``--game``, Kessel Sabacc by default) at a table
of 4 (or the nearest size the game seats):

* the PettingZoo AEC loop over ``raw_env`` and over the wrapped ``env``: each step
  reads the observation and mask with ``last()`` and plays a random legal action;
* the same loop over PettingZoo's classic envs as anchors (those importable here: the card games
  need ``rlcard``);
* the self-play ``VecEnv`` on 1 and 2 threads driven from Python, one ``step`` call per batch,
  with actions sampled in Rust (``sample_actions``) or chosen in numpy from the masks, and
  ``step_random`` (the env's own speed, no Python between steps);
* the learner-versus-bots ``SingleVecEnv`` against ``random`` players at the other seats.
"""

from __future__ import annotations

import argparse
import json
import random
import time

import numpy as np


def aec_loop(env, seconds: float) -> float:
    """Steps per second of the AEC loop with random legal actions (every ``step`` call counts,
    including a finished agent's ``step(None)``)."""
    rnd = random.Random(0)
    steps, episodes = 0, 0
    env.reset(seed=0)
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                action = None
            else:
                mask = obs["action_mask"] if isinstance(obs, dict) else info["action_mask"]
                legal = np.flatnonzero(mask)
                action = int(legal[rnd.randrange(len(legal))])
            env.step(action)
            steps += 1
        episodes += 1
        if time.perf_counter() >= deadline:
            break
        env.reset(seed=episodes)
    return steps / (time.perf_counter() - start)


def anchors(seconds: float) -> dict[str, float]:
    """The AEC loop over PettingZoo's classic envs that import here."""
    out = {}
    candidates = [
        ("pettingzoo leduc_holdem_v4", "pettingzoo.classic", "leduc_holdem_v4"),
        ("pettingzoo texas_holdem_v4", "pettingzoo.classic", "texas_holdem_v4"),
        ("pettingzoo connect_four_v3", "pettingzoo.classic", "connect_four_v3"),
        ("pettingzoo tictactoe_v3", "pettingzoo.classic", "tictactoe_v3"),
    ]
    for name, module, attr in candidates:
        try:
            mod = __import__(module, fromlist=[attr])
            env = getattr(mod, attr).env()
        except Exception as e:  # the card games need rlcard
            out[name] = f"unavailable ({type(e).__name__}: {e})".split("\n")[0][:100]
            continue
        out[name] = aec_loop(env, seconds)
    return out


def table(game: str) -> int:
    """4 seats, or the nearest table size ``game`` seats."""
    from . import game_info

    low, high = game_info(game).seats
    return min(max(4, low), high)


def vec_python(num_envs: int, threads: int, seconds: float, numpy_policy: bool, game: str = "kessel") -> float:
    from . import VecEnv

    venv = VecEnv(num_envs, num_players=table(game), seed=0, num_threads=threads, game=game)
    actions = np.zeros(num_envs, dtype=np.int64)
    rng = np.random.default_rng(0)
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(20):
            if numpy_policy:
                # A stand-in for a batched policy: argmax of random scores over legal actions.
                scores = rng.random(venv.action_mask.shape, dtype=np.float32)
                scores[~venv.action_mask] = -1.0
                actions = scores.argmax(axis=1)
            else:
                venv.sample_actions(actions)
            obs, rewards, term, trunc, info = venv.step(actions)
        steps += 20 * num_envs
    return steps / (time.perf_counter() - start)


def vec_random(num_envs: int, threads: int, seconds: float, game: str = "kessel") -> float:
    from . import VecEnv

    venv = VecEnv(num_envs, num_players=table(game), seed=0, num_threads=threads, game=game)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        venv.step_random(128, seed=steps)
        steps += 128 * num_envs
    return steps / (time.perf_counter() - start)


def single_vec(num_envs: int, threads: int, seconds: float, game: str = "kessel") -> float:
    from . import SingleVecEnv

    opponents = ["random"] * (table(game) - 1)
    venv = SingleVecEnv(num_envs, opponents=opponents, seed=0, num_threads=threads, game=game)
    venv.reset(seed=0)
    actions = np.zeros(num_envs, dtype=np.int64)
    rng = np.random.default_rng(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        scores = rng.random(venv.action_mask.shape, dtype=np.float32)
        scores[~venv.action_mask] = -1.0
        actions = scores.argmax(axis=1)
        venv.step(actions)
        steps += num_envs
    return steps / (time.perf_counter() - start)


def main(argv=None) -> None:
    p = argparse.ArgumentParser(prog="python -m kessel_sabacc.bench", description=__doc__.split("\n")[0])
    p.add_argument("--game", default="kessel", help="the registered game to measure (default kessel)")
    p.add_argument("--seconds", type=float, default=5.0, help="seconds per measurement (default 5)")
    p.add_argument("--num-envs", type=int, default=1024, help="games in the vector envs (default 1024)")
    p.add_argument("--no-anchors", action="store_true", help="skip PettingZoo's classic envs")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    a = p.parse_args(argv)
    import kessel_sabacc

    t, n, g = a.seconds, a.num_envs, kessel_sabacc.game_info(a.game).id
    players = table(g)
    # The default game's rows keep the names earlier reports used.
    tag = "" if g == "kessel" else f" ({g})"
    rows: dict[str, object] = {}
    rows[f"kessel_sabacc raw_env AEC loop{tag}"] = aec_loop(kessel_sabacc.raw_env(num_players=players, game=g), t)
    rows[f"kessel_sabacc env (wrapped) AEC loop{tag}"] = aec_loop(kessel_sabacc.env(num_players=players, game=g), t)
    if not a.no_anchors:
        rows.update(anchors(t))
    for threads in (1, 2):
        rows[f"VecEnv {n} games, {threads} thread(s), sample_actions + step{tag}"] = vec_python(n, threads, t, False, g)
        rows[f"VecEnv {n} games, {threads} thread(s), numpy policy + step{tag}"] = vec_python(n, threads, t, True, g)
        rows[f"VecEnv {n} games, {threads} thread(s), step_random(128){tag}"] = vec_random(n, threads, t, g)
    for threads in (1, 2):
        rows[f"SingleVecEnv 256 games vs {players - 1} random, {threads} thread(s){tag}"] = single_vec(
            256, threads, t, g
        )
    if a.json:
        print(json.dumps(rows, indent=2))
        return
    print("| measurement | steps/s |")
    print("| --- | --- |")
    for k, v in rows.items():
        print(f"| {k} | {v:,.0f} |" if isinstance(v, float) else f"| {k} | {v} |")


if __name__ == "__main__":
    main()
