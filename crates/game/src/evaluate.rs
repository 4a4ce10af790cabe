//! A capability: what the built-in bots know of a game — its heuristic, and the bots'
//! settings each game chose by measurement. The bots themselves are the harness's
//! (`rulesmith_core::bots`).

use crate::game::{Game, Seat};

/// How the `mcts` bot picks a rollout's moves ([`Evaluate::search_rollout_policy`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RolloutPolicy {
    /// A uniformly random legal move.
    Random,
    /// The legal move whose result [`Evaluate::heuristic`] rates best for the player to move
    /// (one ply, on the rollout's already determinised state), or a random one
    /// `explore_percent` times in a hundred so rollouts do not all follow one line.
    Greedy { explore_percent: u8 },
}

/// How the `mcts` bot scores a rollout that stops before the game's end
/// ([`Evaluate::search_leaf_reward`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeafReward {
    /// Each seat's heuristic against the mean of the others', squashed into (0, 1) on a
    /// scale set by the values themselves: a lead counts by its size.
    Margin,
    /// As the game's end would score it: the seat the heuristic rates best takes the win
    /// (equals share it), every other seat nothing.
    Leader,
}

/// Progressive widening of the `mcts` bot's tree ([`Evaluate::search_widening`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Widening {
    /// Children a node may have after its first visit.
    pub base: f64,
    /// How fast that grows with the node's visits (0.5: with their square root).
    pub exponent: f64,
}

/// Moves a rollout plays before the game's evaluation scores where it stands (the
/// default of [`Evaluate::search_rollout_depth`]).
/// Full random rollouts of a long game (Mundo 163 runs to ~700 decisions and random
/// play rarely ends it) carry no signal; a short one scored by the heuristic does.
pub const ROLLOUT_DEPTH: usize = 8;

/// A capability: what the built-in bots know of a game. The heuristic is game knowledge;
/// the rest are settings of the bots, not rules, each game setting what measured best.
pub trait Evaluate: Game {
    /// A heuristic value of the position for `seat` (higher is better), used by the
    /// `greedy` bot and to cut off search. Game-specific knowledge lives here.
    fn heuristic(&self, state: &Self::State, seat: Seat) -> f64;

    /// How many moves the `mcts` bot plays from a new leaf (as
    /// [`Evaluate::search_rollout_policy`] picks them) before [`Evaluate::heuristic`]
    /// scores it. Random moves carry signal in some games and only noise in others.
    fn search_rollout_depth(&self) -> usize {
        ROLLOUT_DEPTH
    }

    /// How the `mcts` bot picks the moves of a rollout. Uniformly random moves are
    /// cheapest; where they are mostly noise (a dice game whose turn is a chain of
    /// choices), the game's own one-ply choice carries more signal per iteration than the
    /// extra iterations random moves would buy.
    fn search_rollout_policy(&self) -> RolloutPolicy {
        RolloutPolicy::Random
    }

    /// How the `mcts` bot scores where a rollout stops before the game's end: by the size
    /// of each seat's lead ([`LeafReward::Margin`], the default) or as a win for the seat
    /// ahead ([`LeafReward::Leader`]). A game is won by being first, not by a margin: where
    /// the heuristic's margins mislead the search more than its ranking does, the search
    /// gains more from each extra iteration with the second.
    fn search_leaf_reward(&self) -> LeafReward {
        LeafReward::Margin
    }

    /// Progressive widening for the `mcts` bot, or `None` (the default): every legal
    /// child of a node is tried once before any is searched deeper. Where a decision has
    /// dozens of moves and most are poor, the search spends its iterations better on a few
    /// good ones: a node then has at most `base × visits^exponent` children (at least
    /// one), added best first by the heuristic for the player to move.
    fn search_widening(&self) -> Option<Widening> {
        None
    }

    /// How many more of its own decisions in a row the `greedy` bot looks through after
    /// each candidate (taking the best), before scoring with [`Evaluate::heuristic`]. 0 is
    /// plain one-ply greedy. A game whose turn is a short chain of choices (move, then
    /// place, then use) whose worth shows only at its end sets the chain's length; it
    /// stops where another player or chance is to move.
    fn greedy_turn_depth(&self) -> usize {
        0
    }

    /// Scratch memory the game's evaluation may keep for the length of one search (one
    /// `mcts` decision), handed back to [`Evaluate::heuristic_in_search`]: e.g. a cache of
    /// values derived from parts of the state that most leaves of one search share. It
    /// lives no longer than the decision, so it cannot go stale across rulesets or games.
    fn search_scratch(&self) -> Box<dyn std::any::Any> {
        Box::new(())
    }

    /// [`Evaluate::heuristic`] inside a search, with that search's scratch. It must return
    /// exactly what [`Evaluate::heuristic`] returns (the scratch only saves work), so the
    /// search decides the same with or without it.
    fn heuristic_in_search(&self, state: &Self::State, seat: Seat, _scratch: &mut dyn std::any::Any) -> f64 {
        self.heuristic(state, seat)
    }
}
