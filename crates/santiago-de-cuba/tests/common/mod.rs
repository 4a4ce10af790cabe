//! Shared test helpers: the bundled ruleset, random play.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use rulesmith_core::ruleset::{self, Bundled, Diagnostics};
use rulesmith_core::{Game, Rng, ToMove};
use rulesmith_santiago_de_cuba::{Action, SantiagoDeCuba, State};

pub const TEXT: &str = include_str!("../../../../rulesets/santiago-de-cuba.toml");

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

/// Plays one action by its notation, panicking with the legal actions if refused.
pub fn play(g: &SantiagoDeCuba, s: &mut State, text: &str) {
    if let Err(e) = rulesmith_core::game::play_text(g, s, text) {
        panic!("`{text}` refused: {e}");
    }
}

pub fn legal(g: &SantiagoDeCuba, s: &State) -> Vec<String> {
    let mut buf = Vec::new();
    g.legal_actions(s, &mut buf);
    buf.iter().map(|&a| g.format_action(s, a)).collect()
}

/// A random playout, calling `each` before every action.
pub fn random_game(g: &SantiagoDeCuba, players: usize, seed: u64, mut each: impl FnMut(&State, Action)) -> State {
    let mut s = g.new_game(players, seed).unwrap();
    let mut rng = Rng::from_seed(seed ^ 0x5eed);
    let mut buf = Vec::new();
    let mut n = 0;
    while let ToMove::Seat(_) = g.to_move(&s) {
        g.legal_actions(&s, &mut buf);
        assert!(!buf.is_empty(), "no legal action in {s:?}");
        let a = buf[rng.index(buf.len())];
        each(&s, a);
        g.apply(&mut s, a).unwrap();
        n += 1;
        assert!(n < 100_000, "endless game, seed {seed}");
    }
    s
}

/// A state from its JSON with edits at JSON Pointers (as a scenario's `[set]` does).
pub fn edited(g: &SantiagoDeCuba, s: &State, edits: &[(&str, serde_json::Value)]) -> State {
    let mut j = g.state_to_json(s);
    for (p, v) in edits {
        *j.pointer_mut(p).unwrap_or_else(|| panic!("no {p} in the state")) = v.clone();
    }
    g.state_from_json(j).unwrap_or_else(|e| panic!("{e}"))
}
