//! Random games for every player count, draft included: they end, every invariant holds
//! after every action (components conserved, forests and the draft included), the
//! notation round-trips, and the state survives JSON (after every action in the first
//! 100 games of each player count, at the end of every game).
// Tests may unwrap and panic, helpers included.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use rulesmith_core::game::Game;
use std::collections::BTreeMap;

/// Plays `games` random games; returns how often each kind of action (its first word)
/// was played.
fn run(players: usize, games: u64) -> BTreeMap<String, u32> {
    let rules = crate::common::rules();
    let mut kinds = BTreeMap::new();
    for seed in 0..games {
        // The JSON round trip after every action for the first games, at the end for all.
        let (log, s) = crate::common::random_game_with(&rules, players, seed, seed < 100);
        let o = rules.outcome(&s).expect("over");
        assert_eq!(o.scores.len(), players);
        assert!(!o.end.is_empty(), "{log:?}");
        for a in &log {
            let w: Vec<&str> = a.split_whitespace().collect();
            let key = match w.as_slice() {
                ["return", "colonist", ..] => "return colonist".to_string(),
                ["sell", _, "to", _] => "sell to post".to_string(),
                ["keep", n, ..] if n.parse::<u8>().is_ok() || *n == "nothing" => "keep exact".to_string(),
                [first, ..] => first.to_string(),
                [] => String::new(),
            };
            *kinds.entry(key).or_insert(0) += 1;
        }
    }
    kinds
}

#[test]
fn two_players() {
    run(2, 2000);
}

#[test]
fn three_players() {
    run(3, 2000);
}

#[test]
fn four_players() {
    let kinds = run(4, 2000);
    // The random games reach every expansion action.
    // (`plant` needs hacienda and forest house together and occupied: too rare to require.)
    for k in ["draft", "forest", "return colonist", "return", "sell to post", "use", "load", "guest", "keep exact"] {
        assert!(kinds.get(k).copied().unwrap_or(0) > 0, "never played `{k}`: {kinds:?}");
    }
}

#[test]
fn five_players() {
    run(5, 2000);
}
