"""Speed of random-policy loops through the environments.

    python -m rulesmith.bench [--games 1000] [--ruleset puerto-rico] [--players 4] [--seed 1]
    python -m rulesmith.bench --policy mask ...
    python -m rulesmith.bench --vector 256 [--threads 1] [--games 5000] [--policy random_actions] ...

The PettingZoo AEC loop: each decision fetches the acting seat's observation and
legal-action mask with ``env.last()`` and plays a uniformly random legal id, as a learner's
rollout would. ``--policy ids`` (the default) draws it from ``env.legal_ids()``, the ids the
mask sets; ``--policy mask`` from ``obs["action_mask"]`` in numpy (``np.flatnonzero``), the
loop a user writes; ``--policy sample`` with ``env.action_space(agent).sample(mask)``
(Gymnasium's masked sampling, PettingZoo's documented loop). Besides the speeds it prints
the environment's own cost a decision: the loop's time less the policy's, the policy timed
alone on the masks of the run's first decisions.
Prints games per second of wall-clock time and of the process's CPU time (one core: the
loop is single-threaded; on a machine busy with other work the CPU figure is what the loop
gets from a core of its own). Pin it to one core with ``taskset -c 0``.

With ``--vector N`` the loop is :class:`rulesmith.vector.VectorEnv` of N games instead:
each step draws a random legal id per game and steps all N in one call (``--threads T``
steps them on T threads); it counts games finished until ``--games`` are done. Its CPU
figure is per core used (CPU time of all threads). ``--policy sample_actions`` (the
default there) draws the ids in Rust (:meth:`rulesmith.vector.VectorEnv.sample_actions`,
one call a step), ``--policy random_actions`` in numpy from the batch's masks
(:func:`rulesmith.vector.random_actions`); the line printed names the policy.
"""

from __future__ import annotations

import argparse
import random
import time

from rulesmith.env import RulesmithEnv


def _policy(kind: str, env, seed: int):
    """The random policy ``kind``: a function of the agent and its observation dict."""
    if kind == "ids":
        rng = random.Random(seed)

        def ids(agent, obs):
            legal = env.legal_ids()
            return legal[rng.randrange(len(legal))]

        return ids
    import numpy as np

    if kind == "mask":
        rng = random.Random(seed)
        flatnonzero = np.flatnonzero

        def mask(agent, obs):
            legal = flatnonzero(obs["action_mask"])
            return int(legal[int(rng.random() * len(legal))])

        return mask
    if kind == "sample":
        for i, a in enumerate(env.possible_agents):
            env.action_space(a).seed(seed + i)

        def sample(agent, obs):
            return int(env.action_space(agent).sample(obs["action_mask"]))

        return sample
    raise ValueError(f"--policy {kind}: expected ids, mask or sample")


def run(ruleset: str = "puerto-rico", players: int = 4, games: int = 1000, seed: int = 1, policy: str = "ids") -> dict:
    """Plays ``games`` games with a uniformly random policy (``policy``: ``ids``, ``mask`` or
    ``sample``, see the module docs) through :class:`RulesmithEnv`; returns the counts, the
    wall-clock and CPU speeds and the environment's own CPU time a decision as a dict."""
    env = RulesmithEnv(ruleset, players=players)
    choose = _policy(policy, env, seed)
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
            env.step(choose(agent, obs))
            decisions += 1
        env.reset()
    seconds = time.perf_counter() - start
    cpu_seconds = time.process_time() - cpu
    # The policy alone, on the positions of the run's first decisions (replayed: `ids`
    # reads the env's state).
    env.reset(seed=seed)
    samples = []
    for agent in env.agent_iter(2000):
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            break
        samples.append((agent, obs, env.game.clone()))
        env.step(choose(agent, obs))
    policy_cpu = 0.0
    for agent, obs, game in samples:
        env.game = game
        t = time.process_time()
        for _ in range(20):
            choose(agent, obs)
        policy_cpu += time.process_time() - t
    policy_us = 1e6 * policy_cpu / (20 * max(len(samples), 1))
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
        "policy": policy,
        "policy_us_per_decision": policy_us,
        "env_us_per_decision": 1e6 * cpu_seconds / max(decisions, 1) - policy_us,
    }


VECTOR_POLICIES = ("sample_actions", "random_actions")


def run_vector(
    ruleset: str = "puerto-rico",
    players: int = 4,
    games: int = 1000,
    seed: int = 1,
    num_envs: int = 256,
    threads: int = 1,
    policy: str = "sample_actions",
) -> dict:
    """Plays random games through :class:`rulesmith.vector.VectorEnv` until ``games`` have
    finished, drawing the ids with ``policy`` (``sample_actions``: in Rust;
    ``random_actions``: in numpy); returns the counts and speeds as :func:`run` does."""
    import numpy as np

    from rulesmith.vector import PolicyRng, VectorEnv, random_actions

    # Views of the env's buffers (no copy a step): the loop keeps nothing past a step.
    env = VectorEnv(ruleset, players=players, num_envs=num_envs, seed=seed, num_threads=threads, copy=False)
    if policy == "sample_actions":
        rust_rng = PolicyRng(seed)
        sample = env.sample_actions

        def choose(mask):
            return sample(rust_rng)

    elif policy == "random_actions":
        rng = np.random.default_rng(seed)

        def choose(mask):
            return random_actions(mask, rng)

    else:
        raise ValueError(f"--policy {policy}: expected one of {', '.join(VECTOR_POLICIES)} with --vector")
    count = np.count_nonzero
    step = env.step
    decisions = 0
    finished = 0
    cpu = time.process_time()
    start = time.perf_counter()
    batch = env.reset()
    while finished < games:
        batch = step(choose(batch.action_mask))
        decisions += num_envs
        finished += int(count(batch.terminated))
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
        "policy": policy,
    }


def main(argv=None):
    """The command line of ``python -m rulesmith.bench``: runs :func:`run` and prints the speeds."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ruleset", default="puerto-rico")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--policy",
        choices=["ids", "mask", "sample", *VECTOR_POLICIES],
        help="the random policy: ids (default), mask or sample for the AEC loop; "
        "sample_actions (default, in Rust) or random_actions (numpy) with --vector",
    )
    p.add_argument("--vector", type=int, metavar="N", help="step N games per call with rulesmith.vector.VectorEnv")
    p.add_argument("--threads", type=int, default=1, help="threads of the VectorEnv (with --vector)")
    a = p.parse_args(argv)
    if a.vector:
        if a.policy not in (None, *VECTOR_POLICIES):
            p.error(f"--policy {a.policy} is an AEC loop's; with --vector: {' or '.join(VECTOR_POLICIES)}")
        r = run_vector(a.ruleset, a.players, a.games, a.seed, a.vector, a.threads, a.policy or "sample_actions")
    else:
        if a.policy in VECTOR_POLICIES:
            p.error(f"--policy {a.policy} needs --vector N")
        r = run(a.ruleset, a.players, a.games, a.seed, a.policy or "ids")
    print(
        f"{r['ruleset']}, {r['players']} players: {r['games']} games, {r['decisions']} decisions "
        f"in {r['seconds']:.2f} s: {r['games_per_second']:.1f} games/s, "
        f"{r['decisions_per_second']:.0f} decisions/s; CPU time {r['cpu_seconds']:.2f} s: "
        f"{r['games_per_cpu_second']:.1f} games per CPU second"
    )
    if a.vector:
        where = "in Rust" if r["policy"] == "sample_actions" else "in numpy"
        print(f"policy {r['policy']} ({where}), {a.vector} envs, {a.threads} thread{'s' if a.threads > 1 else ''}")
    elif "env_us_per_decision" in r:
        print(
            f"policy {r['policy']}: {r['policy_us_per_decision']:.2f} µs a decision; "
            f"the environment's own cost {r['env_us_per_decision']:.2f} µs of CPU a decision"
        )


if __name__ == "__main__":
    main()
