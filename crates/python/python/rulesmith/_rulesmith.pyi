"""Type stubs of the native module ``rulesmith._rulesmith`` (PyO3, ``crates/python/src/lib.rs``).

Keep them in step with the ``#[pyclass]``/``#[pyfunction]`` definitions there: ``.ci/python``
runs mypy's stubtest on them against the built module (every name, signature and class
property). The classes are PyO3's: built by ``__new__`` and not subclassable (``@final``).
"""

from typing import Any, Optional, Sequence, final

from typing_extensions import Self

__all__ = [
    "ActionError",
    "DEFAULT_SEED",
    "Game",
    "PolicyRng",
    "Ruleset",
    "RulesetError",
    "SimulationError",
    "VectorEnv",
    "__version__",
    "bundled",
    "compare",
    "game_seed",
    "merge",
    "simulate",
    "sweep",
    "tune",
]
__version__: str
DEFAULT_SEED: int

class RulesetError(ValueError):
    """A ruleset that does not load: every diagnostic, with file:line:col."""

class ActionError(ValueError):
    """An action that is not legal or does not parse."""

class SimulationError(RuntimeError):
    """A simulation that stopped (a game error)."""

@final
class Ruleset:
    """A loaded, validated ruleset: ``Ruleset("puerto-rico")`` or ``Ruleset("my-house-rules.toml")``."""

    def __new__(cls, source: str) -> Self:
        """Loads a bundled ruleset by name or a TOML file; ``RulesetError`` lists every problem."""
    @property
    def name(self) -> str:
        """``[ruleset] name``."""
    @property
    def source(self) -> str:
        """What was loaded: a bundled name or a path."""
    @property
    def game(self) -> str:
        """``[ruleset] game``."""
    @property
    def digest(self) -> str:
        """The digest of the effective ruleset (as in records)."""
    @property
    def players(self) -> tuple[int, int]:
        """``(min, max)`` players."""
    @property
    def default_players(self) -> int:
        """The player count commands use when none is given."""
    def to_toml(self) -> str:
        """The effective ruleset as TOML."""
    def new_game(self, players: Optional[int] = None, seed: int = ...) -> Game:
        """A new game right after setup."""

@final
class Game:
    """A game in progress; usable from any thread (one call at a time)."""

    @property
    def players(self) -> int:
        """The player count."""
    @property
    def seed(self) -> int:
        """The game's seed."""
    @property
    def game(self) -> str:
        """The game id (``puerto-rico``, …)."""
    @property
    def to_move(self) -> Optional[int]:
        """The seat to act, or ``None`` once the game is over."""
    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
    @property
    def rounds(self) -> int:
        """The game's own round count."""
    def legal(self) -> list[str]:
        """The legal actions in the game's notation, in its stable order."""
    def play(self, action: str) -> None:
        """Plays an action in notation; ``ActionError`` names the legal actions."""
    def action_space(self) -> list[str]:
        """Every action id of this ruleset and player count in notation, in id order."""
    @property
    def action_count(self) -> int:
        """How many action ids there are (``len(action_space())``)."""
    def observation_names(self, seat_relative: bool = False) -> list[str]:
        """The names of the observation's features, in order (``seat_relative=True``: those
        of the seat-relative observation, ``seatN`` parts named ``me``, ``seat+1``, …)."""
    @property
    def observation_len(self) -> int:
        """How many numbers an observation has (``len(observation_names())``)."""
    def legal_ids(self) -> list[int]:
        """The ids of the legal actions, in the order of ``legal()``."""
    def legal_mask(self) -> bytes:
        """The legal-action mask: one byte per action id (1 legal, 0 not)."""
    def action_of(self, id: int) -> Optional[str]:
        """The notation of the action with this id, or ``None`` past the space."""
    def play_id(self, id: int) -> Optional[int]:
        """Plays the legal action with this id; ``ActionError`` if it is not legal now. Returns
        the seat to move next, ``None`` once the game is over."""
    def play_index(self, index: int) -> None:
        """Plays the ``index``-th legal action (of ``legal()``)."""
    def observation(self, seat: int, seat_relative: bool = False) -> bytes:
        """``seat``'s observation: float32 little-endian bytes of ``observation_len`` numbers."""
    def observe(self, seat: int, seat_relative: bool = False) -> tuple[bytearray, Optional[bytearray]]:
        """``(observation(seat), legal_mask() or None)`` as bytearrays: the mask only when ``seat`` is to act."""
    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` sees, as a dict (hidden parts hidden)."""
    def state(self) -> dict[str, Any]:
        """The full state as a dict (everything, including hidden parts: for tools)."""
    def set_state(self, state: dict[str, Any]) -> None:
        """Replaces the state (checked for every invariant)."""
    def clone(self) -> Game:
        """An independent copy of this game."""
    def __copy__(self) -> Game: ...
    def outcome(self) -> Optional[dict[str, Any]]:
        """The result once the game is over (scores, tie-breaks, ranks, end), else ``None``."""
    def history(self) -> list[str]:
        """The actions played so far, in notation."""
    def bot_action(self, bot: str, seed: int = ...) -> Optional[str]:
        """The action a bot (``random``, ``greedy``, ``mcts:N``) would choose now, or ``None`` when over."""
    def record(self, bots: Optional[Sequence[str]] = None) -> dict[str, Any]:
        """The game as a record (what ``rulesmith replay`` reads)."""

@final
class PolicyRng:
    """A policy's own random generator (never a game's), seeded by the caller: what
    ``VectorEnv.sample_actions`` draws from."""

    def __new__(cls, seed: int) -> Self: ...

@final
class VectorEnv:
    """``num_envs`` games of one ruleset stepped together in Rust (see ``rulesmith.vector``).
    Usable from several threads: each call takes the batch's lock with the GIL released."""

    def __new__(
        cls,
        ruleset: str,
        players: int,
        num_envs: int,
        seed: int,
        num_threads: Optional[int] = None,
        bots: Optional[Sequence[Optional[str]]] = None,
        seat_relative: bool = False,
        reward: str = "win_share",
    ) -> Self:
        """``bots``: one per seat, a bot name or ``None`` for a seat the caller plays (none: the
        caller plays every seat); ``reward``: ``win_share``, ``rank`` or ``score_margin``."""
    @property
    def num_envs(self) -> int:
        """How many games are stepped together."""
    @property
    def players(self) -> int:
        """The player count."""
    @property
    def seed(self) -> int:
        """The run seed: env ``k``'s ``j``-th game has seed ``game_seed(seed, k + j * num_envs)``."""
    @property
    def num_threads(self) -> int:
        """How many threads a step uses."""
    @property
    def action_count(self) -> int:
        """How many action ids there are (the mask's width)."""
    @property
    def observation_len(self) -> int:
        """How many numbers an observation has."""
    def seat_relative_names(self) -> Optional[list[str]]:
        """The seat-relative features' names, or ``None`` when the observations are absolute."""
    def legal_ids(self, k: int) -> list[int]:
        """The legal ids of env ``k``'s decision (those set in its mask row)."""
    def views(self) -> list[tuple[str, int, list[int], str, bool]]:
        """Each buffer as ``(name, address, shape, typestr, readonly)`` for numpy's ``__array_interface__``:
        ``obs``, ``mask``, ``to_move``, ``reward``, ``terminated``, ``truncated``, ``final_obs``, ``scores``, ``ranks``
        and ``actions`` (written by the caller)."""
    def reset(self, seed: Optional[int] = None) -> None:
        """Every env at its first game of run ``seed``, or its next game; writes the buffers."""
    def step(self) -> None:
        """Plays the ids in the ``actions`` buffer, one per env (-1: leave it); writes the buffers. Before
        the first ``reset`` it raises ``RuntimeError`` saying so."""
    def sample_actions(self, rng: PolicyRng) -> None:
        """One uniformly random legal id per env from ``rng`` into the ``actions`` buffer."""
    def game_seed(self, k: int) -> int:
        """The seed of the game env ``k`` plays now."""
    def close(self) -> None:
        """Ends the env: a later ``reset``, ``step``, ``sample_actions`` or ``game_seed`` raises ``RuntimeError``."""

def simulate(
    ruleset: str,
    players: Optional[int] = None,
    games: int = 1000,
    seed: int = ...,
    bots: str = "random",
    shard: Optional[tuple[int, int]] = None,
    record: bool = False,
) -> dict[str, Any]:
    """Plays seeded games between bots, like ``rulesmith simulate --format json``; returns the report."""

def compare(
    rulesets: Sequence[str],
    players: Optional[int] = None,
    games: int = 1000,
    seed: int = ...,
    bots: Optional[str] = None,
    rotate_seats: Optional[bool] = None,
    metrics: bool = True,
    sets: Optional[Sequence[str]] = None,
    skill: Optional[str] = None,
    detect: float = 2.0,
    check_with: Optional[str] = None,
    check_games: Optional[int] = None,
) -> dict[str, Any]:
    """Plays the same games under each ruleset: exactly ``rulesmith compare --format json``."""

def sweep(
    ruleset: str,
    vary: Sequence[str],
    base: Optional[Sequence[str]] = None,
    figures: Optional[Sequence[str]] = None,
    players: Optional[int] = None,
    games: int = 1000,
    seed: int = ...,
    bots: Optional[str] = None,
    rotate_seats: Optional[bool] = None,
    metrics: bool = True,
    sets: Optional[Sequence[str]] = None,
    skill: Optional[str] = None,
    detect: float = 2.0,
    check_with: Optional[str] = None,
    check_games: Optional[int] = None,
    shard: Optional[tuple[int, int]] = None,
) -> dict[str, Any]:
    """The same games at every value of a key: exactly ``rulesmith sweep --format json``."""

def tune(
    ruleset: str,
    vary: str,
    target: str,
    players: Optional[int] = None,
    games: int = 1000,
    seed: int = ...,
    bots: Optional[str] = None,
    rotate_seats: Optional[bool] = None,
    metrics: bool = True,
    sets: Optional[Sequence[str]] = None,
    detect: float = 2.0,
    check_with: Optional[str] = None,
    check_games: Optional[int] = None,
) -> dict[str, Any]:
    """The value of a key that brings a figure to a target: exactly ``rulesmith tune --format json``."""

def merge(reports: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Merges the reports of a run's shards into the report of the whole run."""

def game_seed(run_seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded ``run_seed``."""

def bundled() -> list[str]:
    """The bundled rulesets' names."""
