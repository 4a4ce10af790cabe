//! Shared test helpers: the bundled ruleset, random play.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use rulesmith_core::ruleset::{self, Bundled, Diagnostics};
use rulesmith_santiago_de_cuba::{Action, SantiagoDeCuba, State};

pub const TEXT: &str = include_str!("../../../../../rulesets/santiago-de-cuba.toml");

pub fn bundled() -> Vec<Bundled> {
    vec![Bundled { name: "santiago-de-cuba", path: "rulesets/santiago-de-cuba.toml", text: TEXT }]
}

/// The bundled ruleset, decoded.
pub fn game() -> SantiagoDeCuba {
    load("santiago-de-cuba").unwrap_or_else(|e| panic!("{e}"))
}

/// Loads a bundled name or a path (which may extend the bundled ruleset).
pub fn load(arg: &str) -> Result<SantiagoDeCuba, String> {
    let loaded = ruleset::load(arg, &bundled()).map_err(|e| e.render())?;
    let mut d = Diagnostics::default();
    match rulesmith_santiago_de_cuba::decode(&loaded.tree, &mut d) {
        Some(g) if d.is_empty() => Ok(g),
        _ => Err(d.render(&loaded.sources)),
    }
}

// Playing by notation, legal lists and edited states: the core's test kit.
#[allow(unused_imports)]
pub use rulesmith_testkit::kit::{edited, legal, play};

/// A random playout (invariants and notation checked after every action, the JSON at the
/// end: the workspace conformance suite reads it back at every decision), calling `each`
/// before every action.
pub fn random_game(g: &SantiagoDeCuba, players: usize, seed: u64, each: impl FnMut(&State, Action)) -> State {
    let checks = rulesmith_testkit::kit::Checks { json_each: false };
    rulesmith_testkit::kit::random_game(g, players, seed, checks, each).1
}
