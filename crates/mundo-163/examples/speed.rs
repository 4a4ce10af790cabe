//! Random games per second: `cargo run --release -p rulesmith-mundo-163 --example speed -- 4 2000`.

use rulesmith_core::bots::BotSpec;
use rulesmith_core::sim::play_game;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let players: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(4);
    let games: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let bot = args.get(3).map_or(BotSpec::Random, |s| s.parse().unwrap_or(BotSpec::Random));
    let game = match rulesmith_mundo_163::load(&std::env::var("RULESET").unwrap_or("mundo-163".into())) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let bots = vec![bot; players];
    let start = Instant::now();
    let (mut decisions, mut rounds, mut max_rounds, mut limit) = (0u64, 0u64, 0u32, 0u64);
    for i in 0..games {
        match play_game(&game, players, i, rulesmith_core::rng::game_seed(1, i), &bots, false) {
            Ok(r) => {
                decisions += r.decisions;
                rounds += u64::from(r.rounds);
                max_rounds = max_rounds.max(r.rounds);
                if r.outcome.end == "round_limit" {
                    limit += 1;
                }
            }
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{players} players, {games} {bot} games in {secs:.2} s: {:.0} games/s; mean {:.1} rounds (max {max_rounds}), {:.0} decisions; {limit} hit the round limit",
        games as f64 / secs,
        rounds as f64 / games as f64,
        decisions as f64 / games as f64
    );
}
