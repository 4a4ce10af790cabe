"""A Gymnasium single-agent environment: one seat learns, rulesmith bots play the others.

``RulesmithGymEnv("puerto-rico", players=4, seat=0, opponents="greedy")``: observations and
actions are those of :mod:`rulesmith.env` (a dict with ``observation`` and
``action_mask``, bool; ``Discrete(game.action_count)``: the ruleset's enumerated action
ids; ``seat_relative=True`` as there). ``opponents`` is one bot for every other seat
or a list, one per seat (``random``, ``greedy``, ``mcts:N``). The reward, at the end, is
the seat's share of the win. ``action_masks()`` returns the current mask (for maskable
learners). An id that is not legal raises ``ActionError``, or with
``on_illegal="lose"`` ends the episode with reward -1 (for checkers and learners that
sample unmasked). Seeds map to games as in :mod:`rulesmith.env`; the bots' choices are seeded
from the game seed, so a seeded reset and the same actions replay the same game.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from rulesmith._episodes import action_id, next_game_seed, opponents_arg, player_count, seat_arg, win_share
from rulesmith._rulesmith import ActionError, DEFAULT_SEED, Ruleset, game_seed


class RulesmithGymEnv(gym.Env):
    """One seat of a rulesmith game as a Gymnasium environment; bots play the other seats."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        ruleset: str = "puerto-rico",
        players: int | None = None,
        seat: int = 0,
        opponents: str | list[str] = "random",
        render_mode: str | None = None,
        on_illegal: str = "raise",
        seat_relative: bool = False,
    ):
        self.seat_relative = bool(seat_relative)
        if on_illegal not in ("raise", "lose"):
            raise ValueError(f"on_illegal={on_illegal!r}: expected 'raise' or 'lose'")
        self.on_illegal = on_illegal
        self.ruleset = ruleset if isinstance(ruleset, Ruleset) else Ruleset(ruleset)
        self.players = player_count(players, self.ruleset)
        self.seat = seat_arg(seat, self.players)
        self.bots = bots = opponents_arg(opponents, seat, self.players)
        # Check the bot names now rather than mid-game.
        probe = self.ruleset.new_game(self.players, DEFAULT_SEED)
        for s, b in enumerate(bots):
            if s != seat:
                try:
                    probe.bot_action(b)
                except ValueError as e:
                    raise ValueError(f"opponents: seat {s}: {str(e).removeprefix('bot_action: ')}") from None
        # The sizes come from the ruleset and the player count.
        self.action_count = probe.action_count
        self.observation_len = probe.observation_len
        self.action_names = probe.action_space()
        self.observation_names = probe.observation_names(seat_relative=self.seat_relative)
        self.render_mode = render_mode
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (self.observation_len,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.action_count,), np.bool_),
            }
        )
        self.action_space = spaces.Discrete(self.action_count)
        self._run_seed = DEFAULT_SEED
        self._episode = 0
        self.game = None
        self._decision = 0

    def _obs(self):
        if self.game is None:
            raise RuntimeError("no game yet: call reset() first")
        obs, mask = self.game.observe(self.seat, self.seat_relative)
        return {
            "observation": np.frombuffer(obs, np.float32),
            "action_mask": np.zeros(self.action_count, np.bool_) if mask is None else np.frombuffer(mask, np.bool_),
        }

    def action_masks(self) -> np.ndarray:
        """The learner's legal-action mask as booleans, one per action id."""
        return self._obs()["action_mask"]

    def _play_bots(self):
        g = self.game
        while (s := g.to_move) is not None and s != self.seat:
            # A fresh, reproducible bot seed per decision: the game seed and the decision number.
            g.play(g.bot_action(self.bots[s], game_seed(g.seed, self._decision)))
            self._decision += 1

    def _end(self):
        out = self.game.outcome()
        reward = win_share(out, self.seat)
        return reward, {"outcome": out}

    def reset(self, seed=None, options=None):
        """Starts the next game (seeds as in :mod:`rulesmith.env`) and lets the bots play up to the
        learner's first decision."""
        super().reset(seed=seed)
        gseed = next_game_seed(self, seed, options)
        self.game = self.ruleset.new_game(self.players, gseed)
        self._decision = 0
        self._play_bots()
        return self._obs(), {}

    def step(self, action):
        """Plays action id ``action`` for the learner, then the bots up to its next decision;
        the reward at the end is the seat's share of the win."""
        action = action_id(self, action)
        try:
            self.game.play_id(action)
        except ActionError:
            if self.on_illegal == "raise":
                raise
            return self._obs(), -1.0, True, False, {"illegal": action}
        self._decision += 1
        self._play_bots()
        if self.game.to_move is None:
            reward, info = self._end()
            # A game stopped by a safety cap (Mundo 163's round limit) is truncated.
            stopped = bool(info["outcome"].get("unfinished"))
            return self._obs(), reward, not stopped, stopped, info
        return self._obs(), 0.0, False, False, {}

    def render(self):
        """The round and the legal actions (``ansi`` only)."""
        if self.render_mode != "ansi" or self.game is None:
            return None
        return f"round {self.game.rounds}; legal: {', '.join(self.game.legal())}"
