//! Extension points: where a game built on Puerto Rico (the expansion's guests) adds rules
//! of its own that the base game does not know.
//!
//! The base game keeps the sequence of a round and the state; an [`Extension`] supplies
//! the rules behind these points:
//! - **windows** ([`Checkpoint`]): at the start of a role's phase and before the captain's
//!   storage the sequencer asks whether a window opens; if so each seat, from the chooser
//!   clockwise, may make the extension's moves or pass (`Phase::Window`);
//! - **own turns**: in the phases where players act in turn (settler, builder, trader,
//!   captain) a player may make the extension's moves before the turn's action;
//! - **island tiles** (the expansion's forests): in the settler phase a player may place
//!   one of the extension's tiles as the turn's tile ([`Extension::settler_actions`]); a
//!   tile drawn with the hacienda may be looked at first ([`Extension::looks_at_drawn_tile`],
//!   then `plant GOOD` or the extension's move). The base game stores only what its own
//!   rules count: the island spaces such tiles fill (`Player::extension_tiles`: no circle,
//!   no production) and the plantation tiles the extension holds (`State::held_tiles`, in
//!   the conservation of tiles; hidden in views while [`Extension::held_tiles_hidden`]);
//!   the extension may lower building costs ([`Extension::build_discount`]);
//! - **actions**: [`Action::Extension`](crate::action::Action::Extension) carries a code the extension lists, plays, prints
//!   and parses; the base game stores nothing about it but the window's progress
//!   ([`crate::phase::Window`]).
//!
//! A ruleset whose buildings use an effect kind an extension implements
//! ([`crate::rules::EXTENSION_KINDS`]) needs that extension: the base game's `decode` refuses it.

pub use crate::phase::Checkpoint;
use rulesmith_game::Seat;

/// What an extension's move did, for the base game's turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Played {
    /// The player's turn goes on (a guest moved; the tile drawn with the hacienda was
    /// placed): they act again.
    TurnGoesOn,
    /// The settler's turn placed its tile, one without a circle (a forest): the turn ends
    /// as after taking a tile, and a hospice's colonist goes to San Juan (S001:L531).
    TileWithoutCircle,
}

/// The state JSON's keys of what the base game stores for an extension, in the
/// extension's words (the expansion's `forest_tiles` and `forests`): the base game reads,
/// writes and names them so in its messages, with nothing renamed afterwards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JsonNames {
    /// The plantation tiles the extension holds (`State::held_tiles`), at the top.
    pub held_tiles: &'static str,
    /// A player's island tiles of the extension (`Player::extension_tiles`), in each player.
    pub island_tiles: &'static str,
}

/// The keys without an extension.
pub const BASE_JSON_NAMES: JsonNames = JsonNames { held_tiles: "held_tiles", island_tiles: "extension_tiles" };

/// The rules an extension adds (see the module docs). Generic over the base game's rules,
/// state, action and player types (`Extension<Rules, State, Action, Player>`) so that
/// this module, which the rules refer to, does not refer back to them: no module cycle.
pub trait Extension<Rules, State, Action, Player>: Send + Sync + 'static {
    /// Its name, for messages.
    fn name(&self) -> &'static str;

    /// Whether a window opens at `at`: somebody has a move to make.
    fn window_opens(&self, rules: &Rules, s: &State, at: Checkpoint) -> bool;

    /// Whether the player to move in a window (`s.current`) has a move to make.
    fn can_act_in_window(&self, rules: &Rules, s: &State) -> bool;

    /// The moves of the player to move in a window, `pass` included, in a stable order.
    fn window_actions(&self, rules: &Rules, s: &State, f: &mut dyn FnMut(Action));

    /// The moves `seat` may make on its own turn before the turn's action.
    fn own_turn_actions(&self, rules: &Rules, s: &State, seat: Seat, f: &mut dyn FnMut(Action));

    /// The extension's island tiles `seat` may place as the settler phase's tile, or, while
    /// a tile drawn with the hacienda waits (`/pending/drawn`), place it as.
    fn settler_actions(&self, rules: &Rules, s: &State, seat: Seat, f: &mut dyn FnMut(Action));

    /// Whether `seat`, drawing a tile with the hacienda, looks at it before placing it (it
    /// may become one of the extension's tiles instead of a plantation).
    fn looks_at_drawn_tile(&self, rules: &Rules, s: &State, seat: Seat) -> bool;

    /// Whether anybody may ever look at a drawn tile with these rules (the action space
    /// lists `plant GOOD` then).
    fn drawn_tiles_looked_at(&self, rules: &Rules) -> bool;

    /// Doubloons off any building for `p` (after the quarries, with no column limit).
    fn build_discount(&self, rules: &Rules, p: &Player) -> u8;

    /// Whether the plantation tiles the extension holds (`/held_tiles`) lie face down
    /// with goods nobody saw: views pool them with the stack's.
    fn held_tiles_hidden(&self, rules: &Rules, s: &State) -> bool;

    /// What one of the extension's island tiles is called on the play screen ("forest").
    fn island_tile_name(&self) -> &'static str;

    /// Plays an [`Action::Extension`](crate::action::Action::Extension) move of the player to move.
    fn play(&self, rules: &Rules, s: &mut State, code: u16) -> Played;

    /// Every move code the extension may list with these rules, in a fixed order (the
    /// action space).
    fn codes(&self, rules: &Rules) -> Vec<u16>;

    /// Writes the notation of a move at the end of `out`.
    fn write(&self, rules: &Rules, code: u16, out: &mut String);

    /// Reads a move: `None` if the words are not one of the extension's, else the code or
    /// why it cannot be read.
    fn parse(&self, rules: &Rules, words: &[&str]) -> Option<Result<u16, String>>;

    /// What the players are doing in a window, for the play screen ("moving guests").
    fn window_label(&self) -> &'static str;

    /// The state JSON's keys of what the base game stores for the extension.
    fn json_names(&self) -> JsonNames;
}

/// The extension a ruleset plays with, if any: set by the game that wraps the base game.
pub struct Hook<R: 'static, S: 'static, A: 'static, P: 'static>(Option<&'static dyn Extension<R, S, A, P>>);

impl<R, S, A, P> Hook<R, S, A, P> {
    pub fn new(extension: &'static dyn Extension<R, S, A, P>) -> Self {
        Hook(Some(extension))
    }

    /// No extension: the base game.
    pub fn none() -> Self {
        Hook(None)
    }

    pub fn get(&self) -> Option<&'static dyn Extension<R, S, A, P>> {
        self.0
    }
}

impl<R, S, A, P> Clone for Hook<R, S, A, P> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R, S, A, P> Copy for Hook<R, S, A, P> {}

impl<R, S, A, P> std::fmt::Debug for Hook<R, S, A, P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.map_or("none", |e| e.name()))
    }
}

/// Two rulesets are equal with the same extension (by name: each is a unit value).
impl<R, S, A, P> PartialEq for Hook<R, S, A, P> {
    fn eq(&self, other: &Self) -> bool {
        self.0.map(|e| e.name()) == other.0.map(|e| e.name())
    }
}
