//! Shared helpers for the expansion's tests.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use rulesmith_core::game::Game;
use rulesmith_core::ruleset::{self, Bundled, Diagnostics};
use rulesmith_puerto_rico::state::Phase;
use rulesmith_puerto_rico::{State as BaseState, testing};
use rulesmith_puerto_rico_expansion::{Rules, State};

pub const BASE: &str = include_str!("../../../../../rulesets/puerto-rico.toml");
pub const EXPANSION: &str = include_str!("../../../../../rulesets/puerto-rico-expansion.toml");

pub fn bundled() -> [Bundled; 2] {
    [
        Bundled { name: "puerto-rico", path: "rulesets/puerto-rico.toml", text: BASE },
        Bundled { name: "puerto-rico-expansion", path: "rulesets/puerto-rico-expansion.toml", text: EXPANSION },
    ]
}

/// The bundled expansion ruleset, or (with `extra` TOML) a ruleset that `extends` it and
/// states only `extra` (e.g. a changed option).
pub fn rules_with(extra: &str) -> Rules {
    let text = format!(
        "[ruleset]\nname = \"test\"\ngame = \"puerto-rico-expansion\"\nextends = \"puerto-rico-expansion\"\n{extra}"
    );
    let b = bundled();
    let all = [b[0], b[1], Bundled { name: "test", path: "test.toml", text: Box::leak(text.into_boxed_str()) }];
    let name = if extra.is_empty() { "puerto-rico-expansion" } else { "test" };
    let loaded = ruleset::load(name, &all).unwrap();
    let mut d = Diagnostics::default();
    let rules = rulesmith_puerto_rico_expansion::decode(&loaded.tree, &mut d);
    assert!(d.is_empty(), "{}", d.render(&loaded.sources));
    rules.unwrap()
}

pub fn rules() -> Rules {
    rules_with("")
}

/// Plays a random game (draft included), checking every invariant after every action
/// and the JSON round trip after every action (`json_each`) or at the end; returns the
/// actions in notation and the final state.
pub fn random_game(rules: &Rules, players: usize, seed: u64) -> (Vec<String>, State) {
    random_game_with(rules, players, seed, true)
}

pub fn random_game_with(rules: &Rules, players: usize, seed: u64, json_each: bool) -> (Vec<String>, State) {
    let checks = rulesmith_testkit::kit::Checks { json_each };
    rulesmith_testkit::kit::random_game(rules, players, seed, checks, |_, _| {})
}

// Rule tests play the game proper on the base engine with the expansion's rules: every
// building in the game, no draft (the draft has its own tests).

/// A game right after setup (all buildings in the game).
pub fn game(players: usize) -> (Rules, BaseState) {
    let rules = rules();
    let s = rules.base.new_game(players, 11).unwrap();
    (rules, s)
}

/// Plays one action by its notation on the base engine (the core's test kit).
#[track_caller]
pub fn play(rules: &Rules, s: &mut BaseState, text: &str) {
    rulesmith_testkit::kit::play(&rules.base, s, text);
}

pub fn legal(rules: &Rules, s: &BaseState) -> Vec<String> {
    rulesmith_testkit::kit::legal(&rules.base, s)
}

pub fn check(rules: &Rules, s: &BaseState) {
    testing::check(&rules.base, s);
}

// Position set-up: the base game's test kit.
pub use rulesmith_puerto_rico::testing::{extension_tiles as forests, fill_ships, give, plant, quarries, set_ship, vp};

/// Builds a building for a player from the board, with colonists from the supply.
#[track_caller]
pub fn build(rules: &Rules, s: &mut BaseState, seat: u8, id: &str, colonists: u8) {
    testing::build(&rules.base, s, seat, id, colonists);
}

/// Starts the phase of role `id` chosen by `seat`, as if it were their turn to choose.
#[track_caller]
pub fn start_role(rules: &Rules, s: &mut BaseState, seat: u8, id: &str) {
    testing::start_role(&rules.base, s, seat, id);
}

pub fn advance(rules: &Rules, s: &mut BaseState) {
    testing::advance(&rules.base, s);
}

pub fn colonists_on(rules: &Rules, s: &BaseState, seat: u8, id: &str) -> u8 {
    testing::colonists_on(&rules.base, s, seat, id)
}

/// Plays `pass` (or the only action) until the phase is `phase` or the game is over.
#[track_caller]
pub fn pass_until(rules: &Rules, s: &mut BaseState, phase: Phase) {
    testing::pass_until(&rules.base, s, phase);
}
