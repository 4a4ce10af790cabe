//! Random games per second for 4 players, with the bundled ruleset:
//! `cargo run --release -p rulesmith-santiago-de-cuba --example santiago_speed [GAMES]`.

use rulesmith_core::ruleset::{self, Bundled, Diagnostics};
use rulesmith_core::{Game, Rng, ToMove};
use std::time::Instant;

const TEXT: &str = include_str!("../../../rulesets/santiago-de-cuba.toml");

fn main() {
    let games: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(20_000);
    let bundled = [Bundled { name: "santiago-de-cuba", path: "rulesets/santiago-de-cuba.toml", text: TEXT }];
    let loaded = match ruleset::load("santiago-de-cuba", &bundled) {
        Ok(l) => l,
        Err(e) => return eprintln!("{e}"),
    };
    let mut d = Diagnostics::default();
    let Some(g) = rulesmith_santiago_de_cuba::decode(&loaded.tree, &mut d) else {
        return eprintln!("{}", d.render(&loaded.sources));
    };
    let mut buf = Vec::with_capacity(64);
    let (mut decisions, mut rounds, mut score) = (0u64, 0u64, 0i64);
    let start = Instant::now();
    for seed in 0..games {
        let Ok(mut s) = g.new_game(4, seed) else { return };
        let mut rng = Rng::from_seed(seed);
        while let ToMove::Seat(_) = g.to_move(&s) {
            g.legal_actions(&s, &mut buf);
            let a = buf[rng.index(buf.len())];
            if g.apply(&mut s, a).is_err() {
                return eprintln!("illegal action in game {seed}");
            }
            decisions += 1;
        }
        rounds += u64::from(g.progress(&s).rounds);
        score += g.outcome(&s).map_or(0, |o| o.scores.iter().map(|&x| i64::from(x)).sum::<i64>());
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{games} random 4-player games in {secs:.2} s: {:.0} games/s, {:.0} decisions/game, {:.1} rounds/game, mean score {:.1}",
        games as f64 / secs,
        decisions as f64 / games as f64,
        rounds as f64 / games as f64,
        score as f64 / (4 * games) as f64
    );
}
