"""rulesmith: Puerto Rico, its Expansion I, Santiago de Cuba and Mundo 163, played exactly
by their rulebooks from TOML rulesets (house rules included).

The core classes and functions come from the native module:

- ``Ruleset(name_or_path)``: a bundled ruleset by name or a TOML file; a ruleset that does
  not load raises ``RulesetError`` whose message lists every diagnostic as file:line:col.
- ``Ruleset.new_game(players, seed)`` -> ``Game``: ``legal()``, ``play(text)``,
  ``action_space()`` (every action id's notation), ``legal_ids()``, ``legal_mask()``,
  ``play_id(id)``, ``observation_names()``, ``observation(seat)``, ``view(seat)``,
  ``clone()``, ``outcome()``, ``history()``, ``record()``, ``bot_action(bot)``.
- ``simulate(...)``, ``compare(...)``, ``sweep(...)``, ``tune(...)``, ``merge(reports)``:
  reports as dicts; ``compare``, ``sweep`` and ``tune`` return exactly the JSON of
  ``rulesmith compare|sweep|tune --format json`` for the same arguments.
- ``game_seed(run_seed, i)``: the seed of game ``i`` of a run.

The distribution on PyPI is ``rulesmith-games`` (``pip install rulesmith-games``; the
name ``rulesmith`` there belongs to another project); the import name is ``rulesmith``.
``rulesmith.__version__`` is the version of the crates it was built from.

Environments: ``rulesmith.env`` (PettingZoo AEC), ``rulesmith.gym`` (Gymnasium,
one seat against rulesmith bots) and ``rulesmith.vector`` (N games stepped per call in
Rust, as numpy batches; a Gymnasium vector env for one seat).
"""

from rulesmith._rulesmith import (
    DEFAULT_SEED,
    __version__,
    ActionError,
    Game,
    Ruleset,
    RulesetError,
    SimulationError,
    bundled,
    compare,
    game_seed,
    merge,
    simulate,
    sweep,
    tune,
)

GAMES = ("puerto-rico", "puerto-rico-expansion", "santiago-de-cuba", "mundo-163")

__all__ = [
    "DEFAULT_SEED",
    "__version__",
    "GAMES",
    "ActionError",
    "Game",
    "Ruleset",
    "RulesetError",
    "SimulationError",
    "bundled",
    "compare",
    "game_seed",
    "merge",
    "simulate",
    "sweep",
    "tune",
]
