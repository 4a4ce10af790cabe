"""Batched environments: N games stepped per call in Rust, as numpy arrays.

``VectorEnv("puerto-rico", players=4, num_envs=N, seed=s, num_threads=None)`` holds N games
and plays one action per game per ``step`` call (one call into Rust per batch, the GIL
released; ``num_threads`` > 1 steps chunks of games on that many threads). ``reset()`` and
``step(actions)`` return a :class:`Batch` of numpy arrays, fresh copies by default (as
Gymnasium's vector envs with ``copy=True``); with ``copy=False`` they are read-only views of
the env's own memory: every call returns the same arrays, overwritten in place (no
allocation or copy a step, the fastest loop), so copy what you keep past the next step:

- ``observation``: float32 ``(N, observation_len)``, each row for the seat to move;
- ``action_mask``: uint8 ``(N, action_count)``, 1 where the action id is legal;
- ``to_move``: int64 ``(N,)``, the seat each row's decision belongs to;
- ``reward``: float32 ``(N, players)``, each seat's share of the win (1, or 1/k for each of
  k tied winners, 0 otherwise and 0 for all in a game stopped by a safety cap) in the step
  that ends a game, else 0 (the convention of :mod:`rulesmith.env` and :mod:`rulesmith.gym`);
- ``terminated``: bool ``(N,)``, the game ended in this step;
- ``final_observation``: float32 ``(N, observation_len)``, for rows that ended, the
  finished game's last observation for the seat that played the final action (zeros
  elsewhere).

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

:class:`RulesmithVectorEnv` is a ``gymnasium.vector.VectorEnv`` for one learning seat,
rulesmith bots playing the others (as :class:`rulesmith.gym.RulesmithGymEnv`); it needs
Gymnasium 1.1 or later (importing it with an older one, or none, says so).

Threads: one env may be used from several threads; each call takes the env's lock with
the GIL released, and the calls run one at a time. ``step`` before the first ``reset``,
and any call after ``close()``, raise ``RuntimeError`` saying so.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from rulesmith._episodes import opponents_arg, player_count, seat_arg
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
        _seat: int | None = None,
        _opponents: list[str] | None = None,
    ):
        self.ruleset, source = _source(ruleset)
        self.players = player_count(players, self.ruleset)
        self._native = native = _NativeVectorEnv(source, self.players, num_envs, seed, num_threads, _seat, _opponents)
        self.num_envs = num_envs
        self.num_threads = native.num_threads
        self.action_count = native.action_count
        self.observation_len = native.observation_len
        views = {name: np.asarray(_Memory(native, address, tuple(shape), t, ro)) for name, address, shape, t, ro in native.views()}
        self._actions = views["actions"]
        self._batch = Batch(
            views["obs"], views["mask"], views["to_move"], views["reward"], views["terminated"], views["final_obs"]
        )
        self._row_shape = (num_envs,)
        self._step = native.step
        self._sample = native.sample_actions
        self.copy = copy

    @property
    def seed(self) -> int:
        """The run seed (see the module docs for the games it gives each env)."""
        return self._native.seed

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
        """``num_envs`` games in which ``seat`` learns and rulesmith bots (``opponents``: one
        name, or a list for the other seats or for every seat) play the others, stepped in
        Rust. Observations are dicts of batched ``observation`` (float32) and ``action_mask``
        (int8) as in :class:`rulesmith.gym.RulesmithGymEnv`; rewards are the learner's win
        share. Auto-reset ``"same_step"``: ``infos["final_obs"]`` (with ``infos["_final_obs"]``
        marking the rows) holds a finished game's last observation for the learner."""

        metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

        def __init__(
            self,
            ruleset: str | Ruleset = "puerto-rico",
            players: int | None = None,
            num_envs: int = 1,
            seat: int = 0,
            opponents: str | list[str] = "random",
            seed: int = DEFAULT_SEED,
            num_threads: int | None = None,
        ):
            r, _ = _source(ruleset)
            n = player_count(players, r)
            self.seat = seat = seat_arg(seat, n)
            bots = opponents_arg(opponents, seat, n)
            self.bots = bots
            self.env = VectorEnv(r, n, num_envs, seed, num_threads, copy=False, _seat=seat, _opponents=bots)
            self.num_envs = num_envs
            single = spaces.Dict(
                {
                    "observation": spaces.Box(-np.inf, np.inf, (self.env.observation_len,), np.float32),
                    "action_mask": spaces.Box(0, 1, (self.env.action_count,), np.int8),
                }
            )
            self.single_observation_space = single
            self.single_action_space = spaces.Discrete(self.env.action_count)
            self.observation_space = gym.vector.utils.batch_space(single, num_envs)
            self.action_space = gym.vector.utils.batch_space(self.single_action_space, num_envs)
            self._mask = None

        def _obs(self, b: Batch) -> dict:
            # Copies, as Gymnasium's own vector envs return by default: the batch's arrays
            # are overwritten by the next step.
            self._mask = mask = b.action_mask.copy()
            return {"observation": b.observation.copy(), "action_mask": mask.view(np.int8)}

        def action_masks(self) -> np.ndarray:
            """The learner's legal-action masks as booleans, ``(num_envs, action_count)``."""
            return self._mask.astype(bool)

        def reset(self, *, seed=None, options=None):
            """Every env at its first game of run ``seed``, or without a seed at its next game
            (seeds as in :class:`VectorEnv`)."""
            if isinstance(seed, (list, tuple)):
                raise ValueError("seed: give one run seed (env k plays its games from it), not a list")
            return self._obs(self.env.reset(seed)), {}

        def step(self, actions):
            """Plays the learner's ids; bots play the other seats up to its next decision."""
            b = self.env.step(actions)
            reward = b.reward[:, self.seat].astype(np.float64)
            term = b.terminated.copy()
            infos = {}
            if term.any():
                infos = {"final_obs": np.where(term[:, None], b.final_observation, 0.0).astype(np.float32), "_final_obs": term}
            return self._obs(b), reward, term, np.zeros(self.num_envs, bool), infos

        def close_extras(self, **kwargs):
            """Closes the batch: a later ``reset`` or ``step`` raises ``RuntimeError``."""
            # Gymnasium 1.1 closes an env when it is freed, also one whose __init__ raised.
            env = getattr(self, "env", None)
            if env is not None:
                env.close()
