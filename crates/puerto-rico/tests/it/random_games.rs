#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Random games for every player count: they end, every invariant holds after every
//! action, the notation round-trips, and the state survives JSON.

use rulesmith_core::game::Game;

#[test]
fn random_games_end_and_keep_invariants() {
    let rules = crate::common::rules();
    for players in 2..=5 {
        for seed in 0..150 {
            let (log, s) = crate::common::random_game(&rules, players, seed);
            let o = rules.outcome(&s).expect("over");
            assert_eq!(o.scores.len(), players);
            assert!(!o.end.is_empty(), "{log:?}");
            let json = rules.state_to_json(&s);
            let back = rules.state_from_json(json.clone()).unwrap();
            assert_eq!(back, s);
        }
    }
}
