//! Random games per second with 4 players. Run in release mode:
//! `cargo test --release -p rulesmith-mundo-163 --test it speed:: -- --ignored --nocapture`
//! (or `cargo run --release -p rulesmith-mundo-163 --example mundo_speed -- 4 2000`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use rulesmith_core::bots::BotSpec;
use rulesmith_core::rng::game_seed;
use rulesmith_core::sim::{PlayOptions, play_game};
use std::time::Instant;

#[test]
#[ignore = "a measurement: run in release mode with --ignored --nocapture"]
fn four_player_random_games_per_second() {
    let g = crate::common::game();
    let games = 2000u64;
    let bots = vec![BotSpec::Random; 4];
    let start = Instant::now();
    let mut decisions = 0;
    for i in 0..games {
        decisions +=
            play_game(&g, &bots, &PlayOptions { index: i, ..PlayOptions::new(4, game_seed(1, i)) }).unwrap().decisions;
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "4 players: {games} random games in {secs:.2} s = {:.0} games/s ({:.0} decisions a game, {:.2} µs a decision)",
        games as f64 / secs,
        decisions as f64 / games as f64,
        secs * 1e6 / decisions as f64
    );
}
