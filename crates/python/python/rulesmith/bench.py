"""Speed of a random-policy loop through the PettingZoo AEC environment.

    python -m rulesmith.bench [--games 1000] [--ruleset puerto-rico] [--players 4] [--seed 1]

Each decision fetches the acting seat's observation and legal-action mask with
``env.last()`` and plays a uniformly random legal id (drawn from ``env.legal_ids()``, the
ids the mask sets), as a learner's rollout would.
Prints games per second of wall-clock time and of the process's CPU time (one core: the
loop is single-threaded; on a machine busy with other work the CPU figure is what the loop
gets from a core of its own). Pin it to one core with ``taskset -c 0``.
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


def main(argv=None):
    """The command line of ``python -m rulesmith.bench``: runs :func:`run` and prints the speeds."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ruleset", default="puerto-rico")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args(argv)
    r = run(a.ruleset, a.players, a.games, a.seed)
    print(
        f"{r['ruleset']}, {r['players']} players: {r['games']} games, {r['decisions']} decisions "
        f"in {r['seconds']:.2f} s: {r['games_per_second']:.1f} games/s, "
        f"{r['decisions_per_second']:.0f} decisions/s; CPU time {r['cpu_seconds']:.2f} s: "
        f"{r['games_per_cpu_second']:.1f} games per CPU second"
    )


if __name__ == "__main__":
    main()
