"""A parameter sweep as Ray tasks: each ruleset's run is split into shards, one shard per
task, and the shards' reports are merged with the core's merge (``rulesmith.merge``), so
the result is exactly the report of the unsplit run (``rulesmith simulate``).

    python -m rulesmith.ray_sweep puerto-rico rulesets/house-rules/puerto-rico-no-hacienda.toml \
        --games 20000 --shards 8

Pass ``--address auto`` to join a running cluster; by default a local Ray instance starts.
"""

from __future__ import annotations

import argparse

import ray

import rulesmith


@ray.remote
def _shard(ruleset: str, players, games: int, seed: int, bots: str, k: int, n: int) -> dict:
    return rulesmith.simulate(ruleset, players=players, games=games, seed=seed, bots=bots, shard=(k, n))


def sweep(rulesets, games=10000, shards=4, seed=1, bots="random", players=None) -> dict:
    """Runs every ruleset as `shards` Ray tasks; returns {ruleset: merged report}."""
    pending = {
        r: [_shard.remote(r, players, games, seed, bots, k, shards) for k in range(shards)] for r in rulesets
    }
    return {r: rulesmith.merge(ray.get(refs)) for r, refs in pending.items()}


def main(argv=None):
    """The command line of ``python -m rulesmith.ray_sweep``: runs :func:`sweep` and prints
    each ruleset's win rates by seat."""
    p = argparse.ArgumentParser(description="A sweep over rulesets as Ray tasks, merged per ruleset.")
    p.add_argument("rulesets", nargs="+")
    p.add_argument("--games", type=int, default=10000)
    p.add_argument("--shards", type=int, default=4)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--bots", default="random")
    p.add_argument("--players", type=int)
    p.add_argument("--address", default=None)
    a = p.parse_args(argv)
    ray.init(address=a.address)
    for name, rep in sweep(a.rulesets, a.games, a.shards, a.seed, a.bots, a.players).items():
        rates = ", ".join(f"{s['win_rate']:.1%}" for s in rep["seats"])
        print(f"{name}: {rep['games']} games, win rates by seat {rates}, {rep['rounds_mean']:.1f} rounds")


if __name__ == "__main__":
    main()
