"""Speed of a random-policy loop through the PettingZoo AEC environment.

    python -m rulesmith.bench [--games 1000] [--ruleset puerto-rico] [--players 4] [--seed 1]
    python -m rulesmith.bench --vector 256 [--threads 1] [--games 5000] ...

Each decision fetches the acting seat's observation and legal-action mask with
``env.last()`` and plays a uniformly random legal id (drawn from ``env.legal_ids()``, the
ids the mask sets), as a learner's rollout would.
Prints games per second of wall-clock time and of the process's CPU time (one core: the
loop is single-threaded; on a machine busy with other work the CPU figure is what the loop
gets from a core of its own). Pin it to one core with ``taskset -c 0``.

With ``--vector N`` the loop is :class:`rulesmith.vector.VectorEnv` of N games instead:
each step draws a random legal id per game from the batch's masks in numpy
(:func:`rulesmith.vector.random_actions`) and steps all N in one call (``--threads T``
steps them on T threads); it counts games finished until ``--games`` are done. Its CPU
figure is per core used (CPU time of all threads).
"""

from __future__ import annotations

import argparse
import random
import time

from rulesmith.env import RulesmithEnv


def run(ruleset: str = "puerto-rico", players: int = 4, games: int = 1000, seed: int = 1) -> dict:
    """Plays ``games`` games with a uniformly random policy through :class:`RulesmithEnv`;
    returns the counts and the wall-clock and CPU speeds as a dict."""
    env = RulesmithEnv(ruleset, players=players)
    rng = random.Random(seed)
    decisions = 0
    cpu = time.process_time()
    start = time.perf_counter()
    env.reset(seed=seed)
    for _ in range(games):
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            # The mask is built and returned above; the policy draws from the same ids as
            # a list (scanning a 4096-entry mask in numpy costs more than the game step).
            legal = env.legal_ids()
            env.step(legal[rng.randrange(len(legal))])
            decisions += 1
        env.reset()
    seconds = time.perf_counter() - start
    cpu_seconds = time.process_time() - cpu
    return {
        "ruleset": ruleset,
        "players": players,
        "games": games,
        "decisions": decisions,
        "seconds": seconds,
        "games_per_second": games / seconds,
        "decisions_per_second": decisions / seconds,
        "cpu_seconds": cpu_seconds,
        "games_per_cpu_second": games / cpu_seconds,
    }


def run_vector(
    ruleset: str = "puerto-rico", players: int = 4, games: int = 1000, seed: int = 1, num_envs: int = 256, threads: int = 1
) -> dict:
    """Plays random games through :class:`rulesmith.vector.VectorEnv` until ``games`` have
    finished; returns the counts and speeds as :func:`run` does."""
    import numpy as np

    from rulesmith.vector import VectorEnv, random_actions

    env = VectorEnv(ruleset, players=players, num_envs=num_envs, seed=seed, num_threads=threads)
    rng = np.random.default_rng(seed)
    decisions = 0
    finished = 0
    cpu = time.process_time()
    start = time.perf_counter()
    batch = env.reset()
    while finished < games:
        batch = env.step(random_actions(batch.action_mask, rng))
        decisions += num_envs
        finished += int(batch.terminated.sum())
    seconds = time.perf_counter() - start
    cpu_seconds = time.process_time() - cpu
    return {
        "ruleset": ruleset,
        "players": players,
        "games": finished,
        "decisions": decisions,
        "seconds": seconds,
        "games_per_second": finished / seconds,
        "decisions_per_second": decisions / seconds,
        "cpu_seconds": cpu_seconds,
        "games_per_cpu_second": finished / cpu_seconds,
    }


def main(argv=None):
    """The command line of ``python -m rulesmith.bench``: runs :func:`run` and prints the speeds."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ruleset", default="puerto-rico")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--vector", type=int, metavar="N", help="step N games per call with rulesmith.vector.VectorEnv")
    p.add_argument("--threads", type=int, default=1, help="threads of the VectorEnv (with --vector)")
    a = p.parse_args(argv)
    if a.vector:
        r = run_vector(a.ruleset, a.players, a.games, a.seed, a.vector, a.threads)
    else:
        r = run(a.ruleset, a.players, a.games, a.seed)
    print(
        f"{r['ruleset']}, {r['players']} players: {r['games']} games, {r['decisions']} decisions "
        f"in {r['seconds']:.2f} s: {r['games_per_second']:.1f} games/s, "
        f"{r['decisions_per_second']:.0f} decisions/s; CPU time {r['cpu_seconds']:.2f} s: "
        f"{r['games_per_cpu_second']:.1f} games per CPU second"
    )


if __name__ == "__main__":
    main()
