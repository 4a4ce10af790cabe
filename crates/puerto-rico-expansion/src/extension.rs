//! The expansion's rules behind the base game's extension points
//! ([`rulesmith_puerto_rico::extension`]): the guests ([`crate::guests`]) and the forests
//! ([`crate::forests`]). A ruleset has one extension; this one routes each point to the
//! side it belongs to (forest codes from 256 up, guests' below).

use crate::forests::Forests;
use crate::guests::Guests;
use rulesmith_game::Seat;
use rulesmith_puerto_rico::action::Action;
use rulesmith_puerto_rico::extension::{Checkpoint, Extension, JsonNames, Played};
use rulesmith_puerto_rico::rules::Rules;
use rulesmith_puerto_rico::state::{Player, State};

/// The expansion's extension: set on the base rules by [`crate::decode`].
pub struct Expansion;

pub static EXPANSION: Expansion = Expansion;

/// The expansion's names of what the base game stores for its forests: the tiles lying
/// face down as forests, at the top of the state (`/forest_tiles`), and each player's
/// forests (`/players/N/forests`).
pub const FOREST_NAMES: JsonNames = JsonNames { held_tiles: "forest_tiles", island_tiles: "forests" };

impl Extension<Rules, State, Action, Player> for Expansion {
    fn name(&self) -> &'static str {
        "puerto-rico-expansion"
    }

    fn window_opens(&self, rules: &Rules, s: &State, at: Checkpoint) -> bool {
        Guests.window_opens(rules, s, at)
    }

    fn can_act_in_window(&self, rules: &Rules, s: &State) -> bool {
        Guests.can_act_in_window(rules, s)
    }

    fn window_actions(&self, rules: &Rules, s: &State, f: &mut dyn FnMut(Action)) {
        Guests.window_actions(rules, s, f)
    }

    fn own_turn_actions(&self, rules: &Rules, s: &State, seat: Seat, f: &mut dyn FnMut(Action)) {
        Guests.own_turn_actions(rules, s, seat, f)
    }

    fn settler_actions(&self, rules: &Rules, s: &State, seat: Seat, f: &mut dyn FnMut(Action)) {
        Forests.settler_actions(rules, s, seat, f)
    }

    fn looks_at_drawn_tile(&self, rules: &Rules, s: &State, seat: Seat) -> bool {
        Forests.looks_at_drawn_tile(rules, s, seat)
    }

    fn drawn_tiles_looked_at(&self, rules: &Rules) -> bool {
        Forests.drawn_tiles_looked_at(rules)
    }

    fn build_discount(&self, rules: &Rules, p: &Player) -> u8 {
        Forests.build_discount(rules, p)
    }

    fn held_tiles_hidden(&self, rules: &Rules, _s: &State) -> bool {
        Forests.held_tiles_hidden(rules)
    }

    fn island_tile_name(&self) -> &'static str {
        "forest"
    }

    fn play(&self, rules: &Rules, s: &mut State, code: u16) -> Played {
        if Forests.owns(code) {
            Forests.play(rules, s, code)
        } else {
            Guests.play(rules, s, code);
            Played::TurnGoesOn
        }
    }

    /// The forests' codes, then the guests'.
    fn codes(&self, rules: &Rules) -> Vec<u16> {
        let mut codes = Forests.codes(rules);
        codes.extend(Guests.codes(rules));
        codes
    }

    fn write(&self, rules: &Rules, code: u16, out: &mut String) {
        if Forests.owns(code) { Forests.write(rules, code, out) } else { Guests.write(rules, code, out) }
    }

    fn parse(&self, rules: &Rules, words: &[&str]) -> Option<Result<u16, String>> {
        Forests.parse(rules, words).or_else(|| Guests.parse(rules, words))
    }

    fn window_label(&self) -> &'static str {
        Guests.window_label()
    }

    fn json_names(&self) -> JsonNames {
        FOREST_NAMES
    }
}
