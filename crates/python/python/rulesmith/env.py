"""PettingZoo AEC environments for every rulesmith game.

``env(ruleset="puerto-rico", players=4)`` returns a :class:`RulesmithEnv`: agents
``player_0`` … ``player_{n-1}`` are the seats in turn order. Observations are dicts
``{"observation": float32[observation_len], "action_mask": bool[action_count]}`` (arrays
the caller may keep and write to: each call returns new ones); actions are ids in
``Discrete(action_count)``. ``seat_relative=True``: each agent's observation has its own
features first (per-seat features named ``me.…``, ``seat+1.…`` by the seat's place after
the observer's: see ``observation_names``), so that one policy can play every seat. Both sizes come from the ruleset and the player
count: ``env.action_names[i]`` is the notation of id ``i`` and ``env.observation_names[j]``
the name of feature ``j`` (layouts in the package README). The reward, given once
at the end, is each seat's share of the win (1 for a sole winner, 1/k for each of k tied
winners, 0 otherwise, and 0 for all in a game stopped by a safety cap); ``infos[agent]``
then holds the final ``outcome``.

Seeds: ``reset(seed=s)`` starts game 0 of the run seeded ``s``: the game
``rulesmith simulate RULESET --seed s`` plays first (game seed ``game_seed(s, 0)``). Each
later ``reset()`` without a seed starts the run's next game (``game_seed(s, 1)``, …).
Before any seed is given the run seed is ``DEFAULT_SEED`` (1, as on the command line).
``reset(options={"game_seed": g})`` starts the game with game seed ``g`` itself.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from rulesmith._episodes import action_id, next_game_seed, player_count, win_share
from rulesmith._rulesmith import DEFAULT_SEED, Ruleset

_frombuffer = np.frombuffer
_flatnonzero = np.flatnonzero
_F32 = np.dtype(np.float32)
_BOOL = np.dtype(np.bool_)


class MaskedDiscrete(spaces.Discrete):
    """``Discrete(n)`` whose ``sample(mask)`` draws uniformly among the ids set in a bool mask
    (the environments' masks) with one pass over it: Gymnasium's takes int8 masks only,
    checks every entry and draws with ``Generator.choice``, about 9 µs where the game's own
    step costs 2. Any other mask, or a ``probability``, goes to Gymnasium's ``sample``. For
    wide action spaces (the expansion's 158,950 ids) :meth:`RulesmithEnv.legal_ids` is
    faster still."""

    def sample(self, mask=None, probability=None):
        if probability is not None or type(mask) is not np.ndarray or mask.dtype != _BOOL or mask.shape != (self.n,):
            if probability is None:
                return super().sample(mask)
            return super().sample(mask, probability)
        legal = _flatnonzero(mask)
        if not legal.size:
            return self.start
        return self.start + legal[int(self.np_random.random() * legal.size)]


class RulesmithEnv(AECEnv):
    """One rulesmith game as a PettingZoo AEC environment."""

    metadata = {"render_modes": ["ansi", "human"], "name": "rulesmith_v0", "is_parallelizable": False}

    def __init__(
        self,
        ruleset: str = "puerto-rico",
        players: int | None = None,
        render_mode: str | None = None,
        seat_relative: bool = False,
    ):
        super().__init__()
        self.seat_relative = bool(seat_relative)
        self.ruleset = ruleset if isinstance(ruleset, Ruleset) else Ruleset(ruleset)
        n = player_count(players, self.ruleset)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: expected one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.players = n
        probe = self.ruleset.new_game(n, DEFAULT_SEED)
        self.action_count = probe.action_count
        self.observation_len = probe.observation_len
        self.action_names = probe.action_space()
        self.observation_names = probe.observation_names(seat_relative=self.seat_relative)
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (self.observation_len,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.action_count,), np.bool_),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: MaskedDiscrete(self.action_count) for a in self.possible_agents}
        self._run_seed = DEFAULT_SEED
        self._episode = 0
        self.game = None

    def observation_space(self, agent):
        """The agent's observation space: a dict of ``observation`` and ``action_mask`` boxes."""
        return self.observation_spaces[agent]

    def action_space(self, agent):
        """The agent's action space: ``Discrete(action_count)``, the ruleset's action ids."""
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        """Starts the next game: ``seed`` starts a run (game 0 of ``rulesmith simulate --seed``),
        no seed plays the run's next game, ``options={"game_seed": s}`` the game of seed ``s``."""
        gseed = next_game_seed(self, seed, options)
        self.game = self.ruleset.new_game(self.players, gseed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._select()

    def _select(self):
        seat = self.game.to_move
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]

    def observe(self, agent):
        """``agent``'s observation (float32 array) and legal-action mask (bool array, all false
        unless ``agent`` is to act), built from what its seat may see only."""
        if self.game is None:
            raise RuntimeError("no game yet: call reset() first")
        obs, mask = self.game.observe(self._seat[agent], self.seat_relative)
        return {
            "observation": _frombuffer(obs, _F32),
            "action_mask": np.zeros(self.action_count, _BOOL) if mask is None else _frombuffer(mask, _BOOL),
        }

    def last(self, observe=True):
        """The acting agent's observation (as :meth:`observe`), cumulative reward,
        termination, truncation and info: PettingZoo's ``last`` with the observation built in
        place (a learner calls it once per decision)."""
        agent = self.agent_selection
        if observe:
            if self.game is None:
                raise RuntimeError("no game yet: call reset() first")
            obs, mask = self.game.observe(self._seat[agent], self.seat_relative)
            observation = {
                "observation": _frombuffer(obs, _F32),
                "action_mask": np.zeros(self.action_count, _BOOL) if mask is None else _frombuffer(mask, _BOOL),
            }
        else:
            observation = None
        return (
            observation,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def agent_iter(self, max_iter=2**63):
        """Yields the acting agent until every agent is done, at most ``max_iter`` times
        (PettingZoo's iterator, as a generator: a tenth of a decision's cost less)."""
        return self._agents_in_turn(max_iter)

    def _agents_in_turn(self, max_iter):
        while self.agents and max_iter > 0:
            max_iter -= 1
            yield self.agent_selection

    def legal_ids(self) -> list[int]:
        """The ids set in the acting agent's mask, as a list: cheaper for a policy than
        scanning the whole mask."""
        return self.game.legal_ids() if self.game.to_move is not None else []

    def step(self, action):
        """Plays action id ``action`` for the acting agent; at the end every agent's reward is
        its share of the win."""
        if self.game is None:
            raise RuntimeError("no game yet: call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        # A plain int is an id as it is; anything else is checked (numpy ints, bools refused).
        seat = self.game.play_id(action if type(action) is int else action_id(self, action))
        self._cumulative_rewards[agent] = 0.0
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]
            return
        outcome = self.game.outcome()
        # A game stopped by a safety cap (Mundo 163's round limit) is truncated, not ended by its rules.
        stopped = bool(outcome.get("unfinished"))
        for a in self.agents:
            self.rewards[a] = win_share(outcome, self._seat[a])
            self.terminations[a] = not stopped
            self.truncations[a] = stopped
            self.infos[a] = {"outcome": outcome}
        self._accumulate_rewards()

    def render(self):
        """The round, who is to move and the legal actions (``ansi``: returned; ``human``: printed)."""
        if self.render_mode is None or self.game is None:
            return None
        seat = self.game.to_move
        lines = [f"{self.ruleset.name}: round {self.game.rounds}, " + ("over" if seat is None else f"player_{seat} to move")]
        if seat is not None:
            lines.append("legal: " + ", ".join(self.game.legal()))
        else:
            lines.append(f"outcome: {self.game.outcome()}")
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        """Nothing to release: the game lives in this process."""
        pass


def env(ruleset: str = "puerto-rico", **kwargs) -> RulesmithEnv:
    """A PettingZoo AEC environment of ``ruleset`` (a bundled name or a TOML path)."""
    return RulesmithEnv(ruleset, **kwargs)
