//! Every bundled ruleset, at every player count it seats, keeps the contract of the
//! `Game` interface: random and greedy games end, every invariant holds after every
//! action, the state's JSON round-trips, replaying a game's actions reproduces it, the
//! same seed gives the same game (see `rulesmith_core::testing::conformance_game`).

// Tests may unwrap and panic, helpers included.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use proptest::prelude::*;
use rulesmith::core::bots::BotSpec;
use rulesmith::core::testing::conformance_deterministic;

/// Every bundled ruleset, plus the toy game the command-line tests use.
fn rulesets() -> Result<Vec<(String, rulesmith::Ruleset)>, String> {
    let mut names: Vec<String> = rulesmith::BUNDLED.iter().map(|b| b.name.to_string()).collect();
    names.push(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/take-away.toml").to_string());
    names
        .into_iter()
        .map(|n| match rulesmith::load(&n) {
            Ok(r) => Ok((n, r)),
            Err(e) => Err(format!("ruleset `{n}` does not load:\n{}", e.render())),
        })
        .collect()
}

fn check(seeds: impl Iterator<Item = u64> + Clone, bot: BotSpec) {
    let mut failures = Vec::new();
    for (name, r) in rulesets().unwrap() {
        for players in r.game.players() {
            for seed in seeds.clone() {
                if let Err(e) = conformance_deterministic(&*r.game, players, seed, bot) {
                    failures.push(format!("{name}: {e}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} games broke the contract:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn random_games_conform() {
    check(0..3, BotSpec::Random);
}

#[test]
fn greedy_games_conform() {
    check(100..101, BotSpec::Greedy);
}

#[test]
fn search_games_conform() {
    // Exercises `determinize` and `heuristic` through the search bot.
    let mut failures = Vec::new();
    for (name, r) in rulesets().unwrap() {
        let players = *r.game.players().start();
        if let Err(e) = conformance_deterministic(&*r.game, players, 7, BotSpec::Mcts(4)) {
            failures.push(format!("{name}: {e}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3))]

    #[test]
    fn any_seed_conforms(seed in any::<u64>()) {
        check(std::iter::once(seed), BotSpec::Random);
    }
}
