//! Same games before and after an engine change: random games (seeds 0..N, the bot's
//! generator seeded alike), one digest of every legal list, the final state JSON and the
//! outcome, and how long the lists of each phase are. Run it on both builds and compare
//! the digest lines (docs/speed.md):
//! `cargo run --release -p rulesmith-mundo-163 --example mundo_digest -- 200 4`.
use rulesmith_core::Rng;
use rulesmith_core::game::{Game, ToMove};
use rulesmith_mundo_163::{Action, Phase};
use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};

fn main() {
    let Ok(rules) = rulesmith_mundo_163::load("mundo-163") else { return };
    let games: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(200);
    let players: usize = std::env::args().nth(2).and_then(|a| a.parse().ok()).unwrap_or(4);
    let mut h = std::collections::hash_map::DefaultHasher::new();
    let mut decisions = 0u64;
    // Per phase: decisions, and actions listed by kind.
    let mut lists: BTreeMap<String, (u64, BTreeMap<&'static str, u64>)> = BTreeMap::new();
    let mut buf = Vec::with_capacity(64);
    for seed in 0..games {
        let Ok(mut s) = rules.new_game(players, seed) else { return };
        let mut rng = Rng::from_seed(seed);
        while let ToMove::Seat(_) = rules.to_move(&s) {
            rules.legal_actions(&s, &mut buf);
            buf.hash(&mut h);
            let entry = lists.entry(format!("{:?}", s.phase)).or_default();
            entry.0 += 1;
            for a in &buf {
                *entry.1.entry(kind(a)).or_default() += 1;
            }
            let a = buf[rng.index(buf.len())];
            rules.apply_legal(&mut s, a);
            decisions += 1;
            if s.phase == Phase::Over {
                break;
            }
        }
        rulesmith_core::json::StateJson::state_to_json(&rules, &s).to_string().hash(&mut h);
        format!("{:?}", rules.outcome(&s)).hash(&mut h);
    }
    if std::env::var_os("STATS").is_some() {
        for (phase, (n, kinds)) in &lists {
            let per: Vec<String> = kinds.iter().map(|(k, c)| format!("{k} {:.1}", *c as f64 / *n as f64)).collect();
            println!("{phase}: {n} decisions; a list: {}", per.join(", "));
        }
    }
    println!("{games} games {players}p, {decisions} decisions, digest {:016x}", h.finish());
}

fn kind(a: &Action) -> &'static str {
    match a {
        Action::Capital(_) => "capital",
        Action::BuyPrivilege { .. } | Action::NoPrivilege => "privilege",
        Action::Upgrade(_) | Action::NoUpgrade => "upgrade",
        Action::BuyResident(_) | Action::EndPurchase => "buy",
        Action::Move { .. } => "move",
        Action::Step { .. } => "step",
        Action::Road { .. } => "road",
        Action::FreeRoad { .. } => "free road",
        Action::Again(_) => "again",
        Action::EndResidents => "end residents",
        Action::Go(_) => "go",
        Action::Load(_) | Action::LoadResident | Action::Unload(_) | Action::UnloadResident => "load/unload",
        Action::EndTrolley => "end trolley",
    }
}
