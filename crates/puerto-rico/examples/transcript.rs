//! Prints a seeded random 4-player game: every decision and the final scores.
use rulesmith_core::Rng;
use rulesmith_core::game::{Game, ToMove};
use rulesmith_core::ruleset::{self, Bundled, Diagnostics};

fn main() {
    let text = include_str!("../../../rulesets/puerto-rico.toml");
    let bundled = [Bundled { name: "puerto-rico", path: "rulesets/puerto-rico.toml", text }];
    let Ok(loaded) = ruleset::load("puerto-rico", &bundled) else { return };
    let mut d = Diagnostics::default();
    let Some(rules) = rulesmith_puerto_rico::decode(&loaded.tree, &mut d) else { return };
    let players: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(4);
    let seed: u64 = std::env::args().nth(2).and_then(|a| a.parse().ok()).unwrap_or(1);
    let Ok(mut s) = rules.new_game(players, seed) else { return };
    let mut rng = Rng::from_seed(seed);
    let mut buf = Vec::new();
    while let ToMove::Seat(p) = rules.to_move(&s) {
        rules.legal_actions(&s, &mut buf);
        let a = buf[rng.index(buf.len())];
        println!("r{} {:?} p{p}: {}   [{} options]", s.round, s.phase, rules.format_action(&s, a), buf.len());
        if rules.apply(&mut s, a).is_err() {
            return;
        }
    }
    println!("{:?}", rules.outcome(&s));
}
