//! Shared helpers for the Puerto Rico tests.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![allow(dead_code)]

use rulesmith_core::ruleset::{self, Bundled, Diagnostics};
use rulesmith_puerto_rico::{Rules, State};

pub const RULESET: &str = include_str!("../../../../rulesets/puerto-rico.toml");

pub fn rules() -> Rules {
    let bundled = [Bundled { name: "puerto-rico", path: "rulesets/puerto-rico.toml", text: RULESET }];
    let loaded = ruleset::load("puerto-rico", &bundled).unwrap();
    let mut d = Diagnostics::default();
    let rules = rulesmith_puerto_rico::decode(&loaded.tree, &mut d);
    assert!(d.is_empty(), "{}", d.render(&loaded.sources));
    rules.unwrap()
}

/// Plays a random game, checking every invariant, the notation and the JSON round trip
/// after every action (the core's test kit); returns the actions in notation and the
/// final state.
pub fn random_game(rules: &Rules, players: usize, seed: u64) -> (Vec<String>, State) {
    rulesmith_testkit::kit::random_game(rules, players, seed, Default::default(), |_, _| {})
}

/// Plays one action by its notation (it must be legal; the invariants must hold after it).
#[allow(unused_imports)]
pub use rulesmith_testkit::kit::{legal, play};

/// Position set-up, role starts and checks: the crate's test kit (shared with the expansion).
#[allow(unused_imports)]
pub use rulesmith_puerto_rico::testing::{advance, build, check, give, plant, quarries, start_role};
