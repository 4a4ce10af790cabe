//! A game made of setup decisions, then a base game (as OpenSpiel wraps games): the
//! expansion's building draft before Puerto Rico proper is one.
//!
//! A type that implements [`SetupThenBase`] is a [`Game`] (a blanket impl): its actions
//! are [`Staged`], a setup pick while the setup lasts, then the base game's actions; it
//! keeps the base game's outcome and progress (and, in the harness, its metrics and the
//! bots' settings). What it implements is the setup itself and where it reaches into the
//! base state: no forwards.

use crate::game::{Game, GameError, Outcome, Progress, Seat, ToMove};
use crate::rng::Rng;
use serde::{Serialize, de::DeserializeOwned};
use std::fmt::Debug;
use std::hash::Hash;

/// An action of a [`SetupThenBase`] game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Staged<P, A> {
    /// A setup decision (a draft pick).
    Setup(P),
    /// An action of the base game.
    Play(A),
}

/// The base game's state of a [`SetupThenBase`] game `T`.
pub type BaseState<T> = <<T as SetupThenBase>::Base as Game>::State;
/// The base game's action of a [`SetupThenBase`] game `T`.
pub type BaseAction<T> = <<T as SetupThenBase>::Base as Game>::Action;

/// Setup decisions, then a base game.
pub trait SetupThenBase: Send + Sync + Sized + 'static {
    /// The game played once the setup is over.
    type Base: Game;
    /// The whole state: the base game's and the setup's progress.
    type State: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// One setup decision: small and `Copy`.
    type Pick: Copy + Debug + Eq + Hash + Send + Sync;

    /// The game's id (the `[ruleset] game` key).
    fn game_id(&self) -> &'static str;
    /// The base game's rules, as this ruleset sets them.
    fn base(&self) -> &Self::Base;
    fn base_state<'s>(&self, state: &'s Self::State) -> &'s BaseState<Self>;
    fn base_state_mut<'s>(&self, state: &'s mut Self::State) -> &'s mut BaseState<Self>;
    /// `state` with its base part replaced (for the seat's view and determinisation,
    /// which only the base game's parts need).
    fn with_base_state(&self, state: &Self::State, base: BaseState<Self>) -> Self::State;

    /// The setup on a freshly set-up base game (it may need no decision at all).
    fn begin(&self, base: BaseState<Self>) -> Self::State;
    /// Whether the setup is over and the base game has begun.
    fn setup_over(&self, state: &Self::State) -> bool;
    /// Who decides now while the setup lasts.
    fn setup_seat(&self, state: &Self::State) -> Seat;
    /// Every legal setup decision, in a stable order.
    fn setup_legal(&self, state: &Self::State, f: &mut impl FnMut(Self::Pick));
    /// Plays a legal setup decision (and ends the setup when it is complete).
    fn setup_pick(&self, state: &mut Self::State, pick: Self::Pick);
    /// Writes a setup decision's notation at the end of `out` (see [`Game::write_action`]).
    fn write_pick(&self, pick: Self::Pick, out: &mut String);
    /// Reads a setup decision; `None` when the text is not one (then it is the base game's).
    fn parse_pick(&self, text: &str) -> Option<Result<Self::Pick, GameError>>;
    /// The setup's invariants, and whatever this game adds to the base game's (checked
    /// first by [`Game::check_state`], whose messages are the base game's own: a base game
    /// that stores something under this game's names takes the names from its rules).
    fn check_setup(&self, state: &Self::State) -> Result<(), GameError>;
    /// The base game's legal actions, one by one. Provided through a list, which
    /// allocates: a game on the playout path gives its base game's allocation-free walk.
    fn base_legal(&self, state: &BaseState<Self>, f: &mut impl FnMut(BaseAction<Self>)) {
        let mut out = Vec::new();
        self.base().legal_actions(state, &mut out);
        out.into_iter().for_each(f);
    }
}

impl<T: SetupThenBase> Game for T {
    type State = T::State;
    type Action = Staged<T::Pick, BaseAction<T>>;

    fn game_id(&self) -> &'static str {
        SetupThenBase::game_id(self)
    }

    fn players(&self) -> std::ops::RangeInclusive<usize> {
        self.base().players()
    }

    fn new_game(&self, players: usize, seed: u64) -> Result<T::State, GameError> {
        Ok(self.begin(self.base().new_game(players, seed)?))
    }

    fn player_count(&self, s: &T::State) -> usize {
        self.base().player_count(self.base_state(s))
    }

    fn to_move(&self, s: &T::State) -> ToMove {
        if self.setup_over(s) { self.base().to_move(self.base_state(s)) } else { ToMove::Seat(self.setup_seat(s)) }
    }

    fn legal_actions(&self, s: &T::State, out: &mut Vec<Self::Action>) {
        out.clear();
        if self.setup_over(s) {
            self.base_legal(self.base_state(s), &mut |a| out.push(Staged::Play(a)));
        } else {
            self.setup_legal(s, &mut |p| out.push(Staged::Setup(p)));
        }
    }

    fn apply_legal(&self, s: &mut T::State, a: Self::Action) {
        match a {
            Staged::Play(a) => self.base().apply_legal(self.base_state_mut(s), a),
            Staged::Setup(p) => self.setup_pick(s, p),
        }
    }

    fn outcome(&self, s: &T::State) -> Option<Outcome> {
        if self.setup_over(s) { self.base().outcome(self.base_state(s)) } else { None }
    }

    fn progress(&self, s: &T::State) -> Progress {
        self.base().progress(self.base_state(s))
    }

    fn decision_limit(&self) -> u64 {
        self.base().decision_limit()
    }

    fn end_names(&self) -> Vec<String> {
        self.base().end_names()
    }

    fn check_state(&self, s: &T::State) -> Result<(), GameError> {
        self.base().check_state(self.base_state(s))?;
        self.check_setup(s)
    }

    fn write_action(&self, s: &T::State, a: Self::Action, out: &mut String) {
        match a {
            Staged::Setup(p) => self.write_pick(p, out),
            Staged::Play(a) => self.base().write_action(self.base_state(s), a, out),
        }
    }

    fn parse_action(&self, s: &T::State, text: &str) -> Result<Self::Action, GameError> {
        match self.parse_pick(text.trim()) {
            Some(r) => r.map(Staged::Setup),
            None => self.base().parse_action(self.base_state(s), text).map(Staged::Play),
        }
    }

    fn observe(&self, s: &T::State, seat: Seat) -> T::State {
        self.with_base_state(s, self.base().observe(self.base_state(s), seat))
    }

    fn determinize(&self, s: &T::State, seat: Seat, rng: &mut Rng) -> T::State {
        self.with_base_state(s, self.base().determinize(self.base_state(s), seat, rng))
    }
}
