//! Same games before and after an engine change: random games (seeds 0..N, the bot's
//! generator seeded alike), one digest of every legal list, the final state JSON and the
//! outcome. Run it on both builds and compare the lines (docs/speed.md):
//! `cargo run --release -p rulesmith-puerto-rico --example speed_digest -- 1000 4`.
use rulesmith_core::Rng;
use rulesmith_core::game::{Game, ToMove};
use rulesmith_core::ruleset::{self, Bundled, Diagnostics};
use std::hash::{Hash, Hasher};

fn main() {
    let text = include_str!("../../../rulesets/puerto-rico.toml");
    let bundled = [Bundled { name: "puerto-rico", path: "rulesets/puerto-rico.toml", text }];
    let Ok(loaded) = ruleset::load("puerto-rico", &bundled) else { return };
    let Some(rules) = rulesmith_puerto_rico::decode(&loaded.tree, &mut Diagnostics::default()) else { return };
    let games: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(2000);
    let players: usize = std::env::args().nth(2).and_then(|a| a.parse().ok()).unwrap_or(4);
    let mut h = std::collections::hash_map::DefaultHasher::new();
    let mut decisions = 0u64;
    let mut buf = Vec::with_capacity(64);
    for seed in 0..games {
        let Ok(mut s) = rules.new_game(players, seed) else { return };
        let mut rng = Rng::from_seed(seed);
        while let ToMove::Seat(_) = rules.to_move(&s) {
            rules.legal_actions(&s, &mut buf);
            buf.hash(&mut h);
            let a = buf[rng.index(buf.len())];
            rules.apply_legal(&mut s, a);
            decisions += 1;
        }
        rulesmith_core::json::StateJson::state_to_json(&rules, &s).to_string().hash(&mut h);
        format!("{:?}", rules.outcome(&s)).hash(&mut h);
    }
    println!("{games} games {players}p, {decisions} decisions, digest {:016x}", h.finish());
}
