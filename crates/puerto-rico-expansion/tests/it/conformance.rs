//! The `Game` contract (rulesmith_testkit::conformance_game) for the expansion at
//! every player count: random, greedy and search bots; legal actions distinct and
//! playable, stale actions refused without effect, views buildable, JSON round trips,
//! replays reproduce the game, the same seed gives the same game.

// Tests may unwrap and panic, helpers included.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use rulesmith_core::bots::BotSpec;
use rulesmith_testkit::conformance_deterministic;

#[test]
fn random_and_greedy_games_conform() {
    let rules = crate::common::rules();
    for players in 2..=5 {
        for seed in 0..4 {
            conformance_deterministic(&rules, players, seed, BotSpec::Random).unwrap();
        }
        conformance_deterministic(&rules, players, 100, BotSpec::Greedy).unwrap();
    }
}

#[test]
fn search_games_conform() {
    // Exercises `determinize` (forest tiles pooled with the stack) and `heuristic`.
    let rules = crate::common::rules();
    conformance_deterministic(&rules, 2, 7, BotSpec::Mcts(4)).unwrap();
}

#[test]
fn every_building_in_play_conforms() {
    let rules = crate::common::rules_with("[draft]\nselection = \"all\"\nexclusive = []\n");
    for players in 2..=5 {
        for seed in 0..3 {
            conformance_deterministic(&rules, players, seed, BotSpec::Random).unwrap();
        }
    }
}
