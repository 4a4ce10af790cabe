//! Games per second: `cargo run --release -p rulesmith-mundo-163 --example mundo_speed -- PLAYERS GAMES [BOT]`
//! (e.g. `-- 4 2000` for random games; `RULESET=path.toml` plays a house-rule file).

use rulesmith_core::bots::BotSpec;
use rulesmith_core::sim::{PlayOptions, play_game};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let players: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(4);
    let games: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let bot = args.get(3).map_or(BotSpec::Random, |s| s.parse().unwrap_or(BotSpec::Random));
    let ruleset = std::env::var("RULESET").unwrap_or_else(|_| "mundo-163".into());
    let game = match rulesmith_mundo_163::load(&ruleset) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let bots = vec![bot.clone(); players];
    let start = Instant::now();
    let (mut decisions, mut rounds, mut max_rounds, mut limit, mut scores) = (0u64, 0u64, 0u32, 0u64, 0i64);
    for i in 0..games {
        match play_game(
            &game,
            &bots,
            &PlayOptions { index: i, ..PlayOptions::new(players, rulesmith_core::rng::game_seed(1, i)) },
        ) {
            Ok(r) => {
                decisions += r.decisions;
                rounds += u64::from(r.rounds);
                scores += r.outcome.scores.iter().map(|&x| i64::from(x)).sum::<i64>();
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
        "{players} players, {games} {bot} games in {secs:.2} s: {:.0} games/s; mean {:.1} rounds (max {max_rounds}), {:.0} decisions, {:.1} VP a seat; {limit} ended by the round limit",
        games as f64 / secs,
        rounds as f64 / games as f64,
        decisions as f64 / games as f64,
        scores as f64 / (games * players as u64) as f64
    );
}
