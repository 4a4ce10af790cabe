#!/usr/bin/env python3
"""A rulesmith bot in Python, using only the standard library.

Run it in a simulation:

    rulesmith simulate puerto-rico --games 5 --bots "exec:python3 examples/python_bot.py,random,random,random"

rulesmith writes one JSON object per line to this program's standard input (see
docs/bots.md): `start` once, `decide` at each of its seat's decisions, `end` when the
game is over. To each `decide` it answers one line: an action from `legal`.

This bot plays a little better than random: it prefers actions whose words say it gains
something (building, shipping, selling), and otherwise picks at random from a generator
seeded by rulesmith, so the same game seed gives the same game.
"""

import json
import random
import sys

# Words of the games' notations that usually mean a gain, best first.
PREFERRED = ("build", "ship", "sell", "deliver", "take", "place", "upgrade")


def choose(legal, rng):
    for word in PREFERRED:
        options = [a for a in legal if a.split(" ", 1)[0] == word]
        if options:
            return rng.choice(options)
    return rng.choice(legal)


def main():
    rng = random.Random(0)
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "start":
            rng = random.Random(message["seed"])
        elif kind == "decide":
            # message["view"] is what this seat may see; a stronger bot would read it.
            print(json.dumps({"action": choose(message["legal"], rng)}), flush=True)
        elif kind == "end":
            break


if __name__ == "__main__":
    main()
