//! The test kit every game crate's tests share: play by notation, list the legal actions,
//! check that an action is refused, random playouts that check the contract after every
//! action, states edited at JSON Pointers. A test that breaks a rule fails with the
//! notation and the legal actions, at the caller's line.
//!
//! These helpers are for tests: they panic (with a message) where a test should fail.
#![allow(clippy::panic)]

use rulesmith_core::game::{Game, ToMove};
use rulesmith_core::json::StateJson;
use rulesmith_core::rng::Rng;

/// Every legal action in notation, in the game's stable order.
pub fn legal<G: Game>(g: &G, s: &G::State) -> Vec<String> {
    let mut buf = Vec::new();
    g.legal_actions(s, &mut buf);
    buf.iter().map(|&a| g.format_action(s, a)).collect()
}

/// Plays one action by its notation. It must parse, be legal, and leave a state whose
/// invariants hold.
#[track_caller]
pub fn play<G: Game>(g: &G, s: &mut G::State, text: &str) {
    let a = match g.parse_action(s, text) {
        Ok(a) => a,
        Err(e) => panic!("`{text}` does not parse: {e}; legal: {:?}", legal(g, s)),
    };
    let names = legal(g, s);
    if let Err(e) = g.apply(s, a) {
        panic!("`{text}` refused: {e}; legal: {names:?}");
    }
    if let Err(e) = g.check_state(s) {
        panic!("after `{text}`: {e}");
    }
}

/// Plays several actions in order.
#[track_caller]
pub fn play_all<G: Game>(g: &G, s: &mut G::State, texts: &[&str]) {
    for t in texts {
        play(g, s, t);
    }
}

/// The action must be refused (unparsable or illegal) and leave the state unchanged, and
/// must not be listed as legal.
#[track_caller]
pub fn refused<G: Game>(g: &G, s: &G::State, text: &str) {
    let mut c = s.clone();
    let accepted = match g.parse_action(&c, text) {
        Ok(a) => g.apply(&mut c, a).is_ok(),
        Err(_) => false,
    };
    assert!(!accepted, "`{text}` was accepted");
    assert!(&c == s, "refusing `{text}` changed the state");
    assert!(!legal(g, s).contains(&text.to_string()), "`{text}` is listed as legal");
}

/// What a random playout checks after every action besides the invariants.
#[derive(Clone, Copy, Debug)]
pub struct Checks {
    /// The state read back from its JSON equals the state (everything the rules depend
    /// on is in the JSON).
    pub json_each: bool,
}

impl Default for Checks {
    fn default() -> Self {
        Checks { json_each: true }
    }
}

/// A random playout from setup with `players` and `seed`, calling `each` before every
/// action. After every action: the invariants hold, the notation round-trips, and (with
/// `checks.json_each`) the JSON round-trips to an equal state; the final state always
/// round-trips. Returns the actions in notation and the final state.
#[track_caller]
pub fn random_game<G: StateJson>(
    g: &G,
    players: usize,
    seed: u64,
    checks: Checks,
    mut each: impl FnMut(&G::State, G::Action),
) -> (Vec<String>, G::State) {
    let mut s = match g.new_game(players, seed) {
        Ok(s) => s,
        Err(e) => panic!("{players} players, seed {seed}: setup failed: {e}"),
    };
    if let Err(e) = g.check_state(&s) {
        panic!("{players} players, seed {seed}: after setup: {e}");
    }
    let mut rng = Rng::from_seed(seed ^ 0xabc);
    let mut buf = Vec::new();
    let mut log: Vec<String> = Vec::new();
    let at = |log: &[String]| format!("{players} players, seed {seed}, after {:?}", log.last());
    while let ToMove::Seat(_) = g.to_move(&s) {
        g.legal_actions(&s, &mut buf);
        assert!(!buf.is_empty(), "{}: no legal action", at(&log));
        let a = buf[rng.index(buf.len())];
        let text = g.format_action(&s, a);
        match g.parse_action(&s, &text) {
            Ok(b) if b == a => {}
            other => panic!("{}: `{text}` reads back as {other:?}, not {a:?}", at(&log)),
        }
        each(&s, a);
        log.push(text);
        if let Err(e) = g.apply(&mut s, a) {
            panic!("{}: a legal action was refused: {e}", at(&log));
        }
        if let Err(e) = g.check_state(&s) {
            panic!("{}: {e}", at(&log));
        }
        if checks.json_each {
            json_round_trip(g, &s, &at(&log));
        }
        assert!(log.len() < 200_000, "{}: the game does not end", at(&log));
    }
    json_round_trip(g, &s, &at(&log));
    (log, s)
}

#[track_caller]
fn json_round_trip<G: StateJson>(g: &G, s: &G::State, at: &str) {
    match g.state_from_json(g.state_to_json(s)) {
        Ok(back) => assert!(&back == s, "{at}: the state read back from its JSON differs"),
        Err(e) => panic!("{at}: the state's JSON does not read back: {e}"),
    }
}

/// A state from its JSON with edits at JSON Pointers, as a scenario's `[set]` does.
#[track_caller]
pub fn edited<G: StateJson>(g: &G, s: &G::State, edits: &[(&str, serde_json::Value)]) -> G::State {
    let mut j = g.state_to_json(s);
    for (p, v) in edits {
        match j.pointer_mut(p) {
            Some(slot) => *slot = v.clone(),
            None => panic!("no {p} in the state"),
        }
    }
    match g.state_from_json(j) {
        Ok(s) => s,
        Err(e) => panic!("the edited state does not read back: {e}"),
    }
}

/// What reading a state's JSON back says once `value` is put at `pointer` (replacing the
/// value there, or as a new key of the object above it): for tests of refused states.
/// Panics if the state reads back.
#[track_caller]
pub fn refused_json<G: StateJson>(g: &G, json: &serde_json::Value, pointer: &str, value: serde_json::Value) -> String {
    let mut v = json.clone();
    match v.pointer_mut(pointer) {
        Some(slot) => *slot = value,
        None => {
            let (parent, key) = pointer.rsplit_once('/').unwrap_or(("", pointer));
            match v.pointer_mut(parent).and_then(serde_json::Value::as_object_mut) {
                Some(m) => drop(m.insert(key.to_string(), value)),
                None => panic!("no object at {parent} in the state"),
            }
        }
    }
    match g.state_from_json(v) {
        Ok(_) => panic!("{pointer}: the edited state reads back"),
        Err(e) => e.to_string(),
    }
}

/// Writes `text` to the file `name` in a scratch directory of its own (`tag`, one per test
/// process) and returns its path: a ruleset or scenario a test loads from disk.
#[track_caller]
pub fn scratch_file(tag: &str, name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("rulesmith-{tag}-{}", std::process::id()));
    let file = dir.join(name);
    if let Err(e) = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&file, text)) {
        panic!("cannot write {}: {e}", file.display());
    }
    file
}
