//! Quick speed check: random 4-player games per second (release build, one thread).
use rulesmith_core::Rng;
use rulesmith_core::game::{Game, ToMove};
use rulesmith_core::ruleset::{self, Bundled, Diagnostics};

fn main() {
    let text = include_str!("../../../rulesets/puerto-rico.toml");
    let bundled = [Bundled { name: "puerto-rico", path: "rulesets/puerto-rico.toml", text }];
    let Ok(loaded) = ruleset::load("puerto-rico", &bundled) else { return };
    let Some(rules) = rulesmith_puerto_rico::decode(&loaded.tree, &mut Diagnostics::default()) else { return };
    let games: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(20_000);
    let start = std::time::Instant::now();
    let mut decisions = 0u64;
    let mut buf = Vec::with_capacity(64);
    for seed in 0..games {
        let Ok(mut s) = rules.new_game(4, seed) else { return };
        let mut rng = Rng::from_seed(seed);
        while let ToMove::Seat(_) = rules.to_move(&s) {
            rules.legal_actions(&s, &mut buf);
            let a = buf[rng.index(buf.len())];
            rules.apply_legal(&mut s, a);
            decisions += 1;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{games} games in {secs:.2}s: {:.0} games/s, {:.1} decisions/game, {:.0} ns/decision",
        games as f64 / secs,
        decisions as f64 / games as f64,
        secs * 1e9 / decisions as f64
    );
}
