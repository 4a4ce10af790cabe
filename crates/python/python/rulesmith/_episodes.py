"""What the PettingZoo and Gymnasium environments share: which game a reset starts, and
the reward a finished game gives a seat."""

from __future__ import annotations

import operator

from rulesmith._rulesmith import game_seed


def next_game_seed(env, seed=None, options=None) -> int:
    """The seed of the game a reset starts: ``options["game_seed"]`` as given, else game
    ``env._episode`` of the run seeded ``seed`` (or the run so far), as ``rulesmith
    simulate --seed`` numbers its games."""
    if options and "game_seed" in options:
        return _seed(options["game_seed"], "options['game_seed']")
    if seed is not None:
        env._run_seed = _seed(seed, "seed")
        env._episode = 0
    gseed = game_seed(env._run_seed, env._episode)
    env._episode += 1
    return gseed


def win_share(outcome: dict, seat: int) -> float:
    """The seat's share of the win (1/k among k tied winners); nobody wins a game stopped
    by a safety cap (``unfinished``)."""
    if outcome.get("unfinished"):
        return 0.0
    ranks = outcome["ranks"]
    winners = sum(1 for r in ranks if r == 0) or 1
    return 1.0 / winners if ranks[seat] == 0 else 0.0


def player_count(players, ruleset) -> int:
    """``players=`` as given to an environment: ``None`` (the ruleset's default) or a whole
    number the ruleset seats."""
    if players is None:
        return ruleset.default_players
    if isinstance(players, bool) or not isinstance(players, int):
        raise TypeError(f"players={players!r}: give the number of players as a whole number, e.g. players=3")
    lo, hi = ruleset.players
    if not lo <= players <= hi:
        raise ValueError(f"players={players} is not supported by `{ruleset.name}` (it seats {lo} to {hi} players)")
    return players


def seat_arg(seat, players: int) -> int:
    """``seat=`` as given to an environment: a seat at the table."""
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise TypeError(f"seat={seat!r}: give a seat as a whole number from 0 to {players - 1}")
    if not 0 <= seat < players:
        raise ValueError(f"seat={seat}: not a seat at a {players}-player table (seats 0 to {players - 1})")
    return seat


def opponents_arg(opponents, seat: int, players: int) -> list:
    """``opponents=`` as given to an environment: one bot name for every other seat, or a
    list of one per other seat or one per seat (the learner's ignored). Returns one per seat."""
    bots = [opponents] * players if isinstance(opponents, str) else list(opponents)
    if len(bots) == players - 1:
        bots.insert(seat, "-")
    if len(bots) != players:
        raise ValueError(
            f"opponents: {len(bots)} bots for {players - 1} other seats: give one name for all of them, "
            f"or a list of one per other seat ({players - 1}) or one per seat ({players})"
        )
    return bots


def action_id(env, action) -> int:
    """The action id given to ``step``: a whole number (Python or NumPy), after ``reset``."""
    if env.game is None:
        raise RuntimeError("no game yet: call reset() before step()")
    try:
        if isinstance(action, bool):
            raise TypeError
        return operator.index(action)
    except TypeError:
        raise TypeError(
            f"action {action!r} is not an action id: give a whole number from 0 to {env.game.action_count - 1}"
        ) from None


def _seed(value, name: str) -> int:
    """A seed as given: a whole number from 0 to 2**64 - 1 (not a float, even a whole one)."""
    try:
        if isinstance(value, bool):
            raise TypeError
        seed = operator.index(value)
    except TypeError:
        raise TypeError(f"{name}={value!r}: give a whole number from 0 to 2**64 - 1") from None
    if not 0 <= seed < 2**64:
        raise ValueError(f"{name}={value!r}: give a whole number from 0 to 2**64 - 1")
    return seed
