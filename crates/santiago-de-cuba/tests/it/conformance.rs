//! The shared conformance checks of the `Game` contract (state JSON reads back, refused
//! actions change nothing, replays reproduce, same seed same game) with every bot.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests may fail loudly

use rulesmith_core::bots::BotSpec;
use rulesmith_testkit::conformance_deterministic;

#[test]
fn conforms_with_random_and_greedy_bots() {
    let g = crate::common::game();
    for players in 2..=4 {
        for seed in 0..10 {
            for bot in [BotSpec::Random, BotSpec::Greedy] {
                conformance_deterministic(&g, players, seed, bot).unwrap();
            }
        }
    }
}

#[test]
fn conforms_with_mcts() {
    let g = crate::common::game();
    conformance_deterministic(&g, 3, 1, BotSpec::Mcts(20)).unwrap();
}
