//! Prints a game between bots with each decision and the mover's heuristic value:
//! `cargo run --release -p rulesmith-mundo-163 --example trace -- PLAYERS SEED BOT ROUNDS`
//! (defaults: 2 players, seed 1, greedy, 5 rounds).
use rulesmith_core::bots::{self, BotSpec};
use rulesmith_core::prelude::*;
use rulesmith_core::{Game, Rng, ToMove};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let players: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(2);
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let bot: BotSpec = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(BotSpec::Greedy);
    let rounds: u32 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(5);
    let (g, mut s) = match rulesmith_mundo_163::load("mundo-163").and_then(|g| {
        let s = g.new_game(players, seed).map_err(|e| e.to_string())?;
        Ok((g, s))
    }) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let mut rng = Rng::from_seed(seed);
    let mut buf = Vec::new();
    while let ToMove::Seat(p) = g.to_move(&s) {
        if s.round > rounds {
            break;
        }
        g.legal_actions(&s, &mut buf);
        let a = bots::choose(&g, &bot, &s, &buf, &mut rng);
        println!(
            "round {:>2} seat {p}: {:<30} value {:.2}, ${}",
            s.round,
            g.format_action(&s, a),
            g.heuristic(&s, p),
            s.cur().money
        );
        if let Err(e) = g.apply(&mut s, a) {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
    println!("{} goods delivered", s.delivered_total());
}
