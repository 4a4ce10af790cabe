"""Batched environments: N games stepped per call in Rust, as numpy arrays.

``VectorEnv("puerto-rico", players=4, num_envs=N, seed=s, num_threads=None)`` holds N games
and plays one action per game per ``step`` call (one call into Rust per batch, the GIL
released; ``num_threads`` > 1 steps chunks of games on that many threads). ``reset()`` and
``step(actions)`` return a :class:`Batch` of numpy arrays, fresh copies by default (as
Gymnasium's vector envs with ``copy=True``); with ``copy=False`` they are read-only views of
the env's own memory: every call returns the same arrays, overwritten in place (no
allocation or copy a step, the fastest loop), so copy what you keep past the next step:

- ``observation``: float32 ``(N, observation_len)``, each row for the seat to move;
- ``action_mask``: bool ``(N, action_count)``, true where the action id is legal (bool
  in every rulesmith environment);
- ``to_move``: int64 ``(N,)``, the seat each row's decision belongs to;
- ``reward``: float32 ``(N, players)``, each seat's reward in the step that ends a game,
  else 0: by default (``reward="win_share"``) its share of the win (1, or 1/k for each of
  k tied winners, 0 otherwise; the convention of :mod:`rulesmith.env` and
  :mod:`rulesmith.gym`); ``reward="rank"``: its place from 1 (first) to -1 (last), tied
  seats sharing the mean of their places; ``reward="score_margin"``: its final score
  minus the mean of the others' (both sum to 0 over a game's seats). A game stopped by a
  safety cap pays 0 to every seat;
- ``terminated``: bool ``(N,)``, the game ended by its rules in this step;
- ``truncated``: bool ``(N,)``, the game was stopped by a safety cap of the ruleset in
  this step (Mundo 163's ``max_rounds``): no result, a learner bootstraps its value;
- ``final_observation``: float32 ``(N, observation_len)``, for rows that ended, the
  finished game's last observation for the seat that played the final action (zeros
  elsewhere);
- ``scores``: float32 ``(N, players)``, the ended game's final scores, and ``ranks``:
  int64 ``(N, players)``, its ranks (0 first, tied seats sharing one), in the rows that
  ended (zeros and -1 elsewhere).

``seat_relative=True``: each row's observation has the seat to move's features first:
every per-seat feature (named ``seatN.…`` or ``….seatN``) is moved by the seat's place
after the mover's, named ``me``, ``seat+1``, ``seat+2``, … (``env.observation_names``),
so that one policy can play every seat. The numbers are those of the absolute
observation, moved.

Legal ids: ``env.legal_ids(k)`` lists row ``k``'s legal ids, cheaper than scanning the
mask where it is wide (158,950 ids in the expansion, 9,200 in Mundo 163); an action -1
leaves that row at its decision (nothing played, no reward).

Multi-agent shape: every row is a decision of whichever seat ``to_move`` says; a learner
keeps its own per-seat bookkeeping (reward rows are per seat, so each seat's return is
there when its game ends).

Auto-reset is Gymnasium 1.x's ``"same_step"``: a game that ends is replaced in the same
step by the env's next game, so every returned row is a live decision; the finished
game's outcome is in ``reward``/``terminated``/``final_observation``.

Seeds: env ``k`` plays games ``k``, ``k + N``, ``k + 2N``, … of the run seeded ``seed``,
i.e. game seeds ``game_seed(seed, k + j * N)`` for its ``j``-th game, so ``num_envs=1``
plays the games of ``rulesmith simulate --seed s`` in order. ``reset(seed=s)`` starts
every env at its game 0 of run ``s``; ``reset()`` without a seed starts each env's next
game (the first such reset keeps each env at its first game), as a reset without a seed
does in :mod:`rulesmith.env`. The same seed and actions give the same batches for
any ``num_threads``.

Random policies: ``env.sample_actions(PolicyRng(seed))`` draws one uniformly random legal
id per env in Rust, from a generator the caller seeds (the policy's own, never a game's);
:func:`random_actions` does it in numpy from any mask. ``batch = env.step(env.sample_actions(rng))``.

:class:`RulesmithVectorEnv` is a ``gymnasium.vector.VectorEnv`` for learning seats (one,
several or all: self-play), rulesmith bots or Python callables playing the others; it
needs Gymnasium 1.1 or later (importing it with an older one, or none, says so).

Threads: one env may be used from several threads; each call takes the env's lock with
the GIL released, and the calls run one at a time. ``step`` before the first ``reset``,
and any call after ``close()``, raise ``RuntimeError`` saying so.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from rulesmith._episodes import player_count, seat_arg
from rulesmith._rulesmith import DEFAULT_SEED, PolicyRng, Ruleset
from rulesmith._rulesmith import VectorEnv as _NativeVectorEnv


_ndarray = np.ndarray
_I64 = np.dtype(np.int64)


class Batch(NamedTuple):
    """One step's arrays (shapes in the module docs)."""

    observation: np.ndarray
    action_mask: np.ndarray
    to_move: np.ndarray
    reward: np.ndarray
    terminated: np.ndarray
    final_observation: np.ndarray
    truncated: np.ndarray
    scores: np.ndarray
    ranks: np.ndarray


def _source(ruleset) -> tuple[Ruleset, str]:
    r = ruleset if isinstance(ruleset, Ruleset) else Ruleset(ruleset)
    return r, r.source


class _Memory:
    """A buffer of the native env as numpy sees it (``__array_interface__``): the array's
    base, so the env and its memory live as long as any array over them."""

    __slots__ = ("__array_interface__", "_owner")

    def __init__(self, owner, address: int, shape: tuple, typestr: str, readonly: bool):
        self._owner = owner
        self.__array_interface__ = {"data": (address, readonly), "shape": shape, "typestr": typestr, "version": 3}


class VectorEnv:
    """N games of one ruleset stepped together in Rust; every seat is the caller's.

    ``reset`` and ``step`` return a :class:`Batch` of fresh arrays; with ``copy=False`` the same
    read-only arrays each time, views of the env's own memory that the next ``reset`` or
    ``step`` overwrites (no allocation or copy a step): copy what you keep
    (``batch.observation.copy()``)."""

    def __init__(
        self,
        ruleset: str | Ruleset = "puerto-rico",
        players: int | None = None,
        num_envs: int = 1,
        seed: int = DEFAULT_SEED,
        num_threads: int | None = None,
        *,
        copy: bool = True,
        seat_relative: bool = False,
        reward: str = "win_share",
        bots: list[str | None] | None = None,
    ):
        self.ruleset, source = _source(ruleset)
        self.players = player_count(players, self.ruleset)
        self._native = native = _NativeVectorEnv(
            source, self.players, num_envs, seed, num_threads, bots, seat_relative, reward
        )
        self.seat_relative = seat_relative
        self.reward_kind = reward
        self.num_envs = num_envs
        self.num_threads = native.num_threads
        self.action_count = native.action_count
        self.observation_len = native.observation_len
        views = {name: np.asarray(_Memory(native, address, tuple(shape), t, ro)) for name, address, shape, t, ro in native.views()}
        self._actions = views["actions"]
        self._batch = Batch(
            views["obs"],
            views["mask"],
            views["to_move"],
            views["reward"],
            views["terminated"],
            views["final_obs"],
            views["truncated"],
            views["scores"],
            views["ranks"],
        )
        self._row_shape = (num_envs,)
        self._step = native.step
        self._sample = native.sample_actions
        self.copy = copy

    @property
    def seed(self) -> int:
        """The run seed (see the module docs for the games it gives each env)."""
        return self._native.seed

    @property
    def observation_names(self) -> list[str]:
        """The observation's feature names (seat-relative ones with ``seat_relative=True``)."""
        names = self._native.seat_relative_names()
        if names is None:
            names = self.ruleset.new_game(self.players).observation_names()
        return names

    def legal_ids(self, k: int) -> list[int]:
        """Row ``k``'s legal ids (those set in its mask), in the game's order."""
        return self._native.legal_ids(k)

    def reset(self, seed: int | None = None) -> Batch:
        """``seed``: every env at its first game of the run seeded ``seed``; none: each env's next game."""
        self._native.reset(seed)
        return self._out()

    def step(self, actions) -> Batch:
        """Plays ``actions[k]`` (an action id set in row ``k`` of the mask) in env ``k``, for every
        ``k``; an id not legal raises ``ValueError`` naming the env and the id (nothing is played)."""
        if actions is self._actions:
            # From `sample_actions` with copy=False: already in the env's buffer.
            self._step()
            return self._out()
        a = actions if type(actions) is _ndarray else np.asarray(actions)
        dtype = a.dtype
        if a.shape != self._row_shape or (dtype is not _I64 and dtype.kind not in "iu"):
            raise ValueError(f"actions: expected {self.num_envs} integer action ids, got shape {a.shape} of {dtype}")
        if dtype is not _I64 and dtype.kind == "u" and dtype.itemsize == 8 and a.max(initial=0) > 2**63 - 1:
            k = int(np.argmax(a > 2**63 - 1))
            raise ValueError(f"env {k}: action id {int(a[k])} is not an action id (0 to {self.action_count - 1})")
        # Into the env's own buffer (int64); Rust checks each id's range and legality.
        self._actions[...] = a
        self._step()
        return self._out()

    def sample_actions(self, rng: PolicyRng) -> np.ndarray:
        """A random policy in Rust: one uniformly random legal id per env (one of the ids set
        in its row of the last batch's mask), drawn from ``rng``, a :class:`PolicyRng` the
        caller seeds (the policy's own randomness, never a game's generator: the same seed
        and batches give the same ids). Returns int64 ``(num_envs,)`` for :meth:`step`;
        with ``copy=False`` the env's own action buffer, overwritten by the next call (no
        allocation, and ``step`` then copies nothing). What
        ``python -m rulesmith.bench --vector`` measures by default; :func:`random_actions`
        draws in numpy from any mask."""
        self._sample(rng)
        return self._actions if not self.copy else self._actions.copy()

    def _out(self) -> Batch:
        b = self._batch
        return Batch(*(x.copy() for x in b)) if self.copy else b

    def game_seed(self, k: int) -> int:
        """The seed of the game env ``k`` plays now."""
        return self._native.game_seed(k)

    def close(self):
        """Ends the env: a later ``reset``, ``step``, ``sample_actions`` or ``game_seed``
        raises ``RuntimeError`` saying so. Arrays already returned stay readable."""
        self._native.close()


@functools.lru_cache(maxsize=8)
def _row_bounds(n: int, width: int) -> tuple[np.ndarray, np.ndarray]:
    bounds = np.arange(n + 1) * width
    bounds.flags.writeable = False
    return bounds, bounds[:-1]


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal id per row of ``mask`` (a random policy for rollouts)."""
    n, width = mask.shape
    # One pass over the mask (as bools: numpy's fast path), then each row's run of legal
    # ids found by binary search: scanning the mask per row costs several times more.
    # Methods and in-place arithmetic: each numpy call is a good part of a small batch's step.
    flat = mask.reshape(-1).view(np.bool_).nonzero()[0]
    bounds, firsts = _row_bounds(n, width)
    edges = flat.searchsorted(bounds)
    starts = edges[:-1]
    picks = (rng.random(n) * (edges[1:] - starts)).astype(np.intp)
    picks += starts
    ids = flat[picks]
    ids -= firsts
    return ids


# The Gymnasium vector env needs Gymnasium 1.1 (`AutoresetMode`); gymnasium is optional
# (the `envs` extra), so without it, or with an older one, only `RulesmithVectorEnv` is
# missing, and importing it says why (see `__getattr__` below).
GYMNASIUM_FLOOR = (1, 1)
try:
    import gymnasium as gym
except ImportError:
    gym = None
    _no_gymnasium = "gymnasium is not installed"
else:
    _release = tuple(int(p) if p.isdigit() else 0 for p in gym.__version__.split(".")[:2])
    if _release < GYMNASIUM_FLOOR:
        _no_gymnasium = f"gymnasium {gym.__version__} is installed"
        gym = None
    else:
        from gymnasium import spaces
        from gymnasium.vector import AutoresetMode


def __getattr__(name):
    if name == "RulesmithVectorEnv":
        raise ImportError(
            f"rulesmith.vector.RulesmithVectorEnv needs gymnasium>=1.1 ({_no_gymnasium}): "
            'pip install "gymnasium>=1.1" (or "rulesmith-games[envs]")'
        )
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if gym is not None:

    class RulesmithVectorEnv(gym.vector.VectorEnv):
        """``num_envs`` games in which the ``learning_seats`` (default: ``[seat]``; ``"all"``
        for self-play) learn and ``opponents`` play the others, stepped in Rust.

        ``opponents``: one entry for every other seat, or a list of one per other seat or
        one per seat (the learners' ignored); each a rulesmith bot name (``random``,
        ``greedy``, ``mcts:N``: played in Rust within the step) or a Python callable
        ``(observation, action_mask) -> action id`` (called once per decision, with that
        seat's observation and bool mask). Every returned row is a decision of a learning
        seat: ``infos["to_move"]`` says whose. Observations are dicts of batched
        ``observation`` (float32; seat-relative with ``seat_relative=True``) and
        ``action_mask`` (bool). The reward of a row is that of the seat whose action it
        played (``reward``: ``"win_share"``, ``"rank"`` or ``"score_margin"``, see
        :mod:`rulesmith.vector`); ``infos["rewards"]`` holds every seat's, ``(num_envs,
        players)``, for self-play. A game stopped by a safety cap is ``truncated`` (not
        ``terminated``), with reward 0. Auto-reset ``"same_step"``: for rows that ended,
        ``infos["final_obs"]`` (``infos["_final_obs"]`` marking the rows) holds the
        finished game's last observation for the seat that played its final action, and
        ``infos["scores"]``/``infos["ranks"]`` its final scores and ranks.

        The arrays returned are fresh copies, the caller's to keep and write to (as
        Gymnasium's own vector envs with ``copy=True``)."""

        metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

        def __init__(
            self,
            ruleset: str | Ruleset = "puerto-rico",
            players: int | None = None,
            num_envs: int = 1,
            seat: int = 0,
            opponents="random",
            seed: int = DEFAULT_SEED,
            num_threads: int | None = None,
            *,
            learning_seats=None,
            seat_relative: bool = False,
            reward: str = "win_share",
        ):
            r, _ = _source(ruleset)
            n = player_count(players, r)
            if learning_seats is None:
                learning = [seat_arg(seat, n)]
            elif isinstance(learning_seats, str):
                if learning_seats != "all":
                    raise ValueError(f"learning_seats={learning_seats!r}: give a list of seats or 'all'")
                learning = list(range(n))
            else:
                learning = sorted({seat_arg(s, n) for s in learning_seats})
                if not learning:
                    raise ValueError("learning_seats: give at least one seat")
            self.learning_seats = learning
            self.seat = learning[0]
            others = [s for s in range(n) if s not in learning]
            if isinstance(opponents, str) or callable(opponents):
                bots = [opponents] * n
            else:
                bots = list(opponents)
                if len(bots) == len(others):
                    full = ["-"] * n
                    for s, b in zip(others, bots):
                        full[s] = b
                    bots = full
                if len(bots) != n:
                    raise ValueError(
                        f"opponents: {len(bots)} bots for {len(others)} other seats: give one name for all of them, "
                        f"or a list of one per other seat ({len(others)}) or one per seat ({n})"
                    )
            for s in learning:
                bots[s] = None
            for s in others:
                if not (isinstance(bots[s], str) or callable(bots[s])):
                    raise TypeError(f"opponents: seat {s}: {bots[s]!r} is neither a bot name nor a callable")
            self.bots = bots
            self._callables = {s: b for s, b in enumerate(bots) if b is not None and not isinstance(b, str)}
            native_bots = [b if isinstance(b, str) else None for b in bots]
            self.env = VectorEnv(
                r, n, num_envs, seed, num_threads, copy=False, seat_relative=seat_relative, reward=reward, bots=native_bots
            )
            self.players = n
            self.num_envs = num_envs
            single = spaces.Dict(
                {
                    "observation": spaces.Box(-np.inf, np.inf, (self.env.observation_len,), np.float32),
                    "action_mask": spaces.Box(0, 1, (self.env.action_count,), np.bool_),
                }
            )
            self.single_observation_space = single
            self.single_action_space = spaces.Discrete(self.env.action_count)
            self.observation_space = gym.vector.utils.batch_space(single, num_envs)
            self.action_space = gym.vector.utils.batch_space(self.single_action_space, num_envs)
            self._mask = None
            self._to_move = np.zeros(num_envs, np.int64)
            self._rows = np.arange(num_envs)

        @property
        def observation_names(self) -> list[str]:
            """The observation's feature names (seat-relative with ``seat_relative=True``)."""
            return self.env.observation_names

        def legal_ids(self, k: int) -> list[int]:
            """Row ``k``'s legal ids: for wide masks (the expansion's 158,950 ids, Mundo
            163's 9,200), a policy reads them rather than scanning the mask."""
            return self.env.legal_ids(k)

        def _obs(self, b: Batch) -> dict:
            # Copies, as Gymnasium's own vector envs return by default: the batch's arrays
            # are overwritten by the next step.
            self._mask = mask = b.action_mask.copy()
            self._to_move = b.to_move.copy()
            return {"observation": b.observation.copy(), "action_mask": mask}

        def action_masks(self) -> np.ndarray:
            """The learners' legal-action masks as booleans, ``(num_envs, action_count)``."""
            return self._mask.copy()

        def _play_callables(self, b: Batch, acc: dict) -> Batch:
            """Steps the rows whose decision is a callable opponent's until none is."""
            while self._callables:
                waiting = [k for k in range(self.num_envs) if int(b.to_move[k]) in self._callables]
                if not waiting:
                    break
                actions = np.full(self.num_envs, -1, np.int64)
                for k in waiting:
                    act = self._callables[int(b.to_move[k])]
                    actions[k] = int(act(b.observation[k].copy(), b.action_mask[k].copy()))
                b = self.env.step(actions)
                self._gather(b, acc)
            return b

        @staticmethod
        def _gather(b: Batch, acc: dict):
            """Keeps what a step says of games that ended (the first ending of each row)."""
            ended = (b.terminated | b.truncated) & ~acc["ended"]
            if ended.any():
                acc["rewards"][ended] = b.reward[ended]
                acc["terminated"] |= b.terminated & ended
                acc["truncated"] |= b.truncated & ended
                acc["final_obs"][ended] = b.final_observation[ended]
                acc["scores"][ended] = b.scores[ended]
                acc["ranks"][ended] = b.ranks[ended]
                acc["ended"] |= ended

        def _fresh(self) -> dict:
            n, p = self.num_envs, self.players
            return {
                "ended": np.zeros(n, bool),
                "terminated": np.zeros(n, bool),
                "truncated": np.zeros(n, bool),
                "rewards": np.zeros((n, p), np.float32),
                "final_obs": np.zeros((n, self.env.observation_len), np.float32),
                "scores": np.zeros((n, p), np.float32),
                "ranks": np.full((n, p), -1, np.int64),
            }

        def reset(self, *, seed=None, options=None):
            """Every env at its first game of run ``seed``, or without a seed at its next game
            (seeds as in :class:`VectorEnv`)."""
            if isinstance(seed, (list, tuple)):
                raise ValueError("seed: give one run seed (env k plays its games from it), not a list")
            b = self._play_callables(self.env.reset(seed), self._fresh())
            return self._obs(b), {"to_move": b.to_move.copy()}

        def step(self, actions):
            """Plays the learners' ids; bots and callables play the other seats up to the
            next decision of a learning seat."""
            acted = self._to_move
            acc = self._fresh()
            b = self.env.step(actions)
            self._gather(b, acc)
            b = self._play_callables(b, acc)
            reward = acc["rewards"][self._rows, acted].astype(np.float64)
            infos = {"to_move": b.to_move.copy(), "rewards": acc["rewards"]}
            ended = acc["ended"]
            if ended.any():
                infos.update(
                    final_obs=acc["final_obs"],
                    _final_obs=ended,
                    scores=acc["scores"],
                    _scores=ended,
                    ranks=acc["ranks"],
                    _ranks=ended,
                )
            return self._obs(b), reward, acc["terminated"], acc["truncated"], infos

        def close_extras(self, **kwargs):
            """Closes the batch: a later ``reset`` or ``step`` raises ``RuntimeError``."""
            # Gymnasium 1.1 closes an env when it is freed, also one whose __init__ raised.
            env = getattr(self, "env", None)
            if env is not None:
                env.close()
