//! Diagnostics of random games (development aid): decisions per phase.
use rulesmith_core::{Game, Rng, ToMove};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let players: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(4);
    let games: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(10);
    let g = rulesmith_mundo_163::load(&std::env::var("RULESET").unwrap_or("mundo-163".into())).unwrap_or_else(|e| panic!("{e}"));
    let mut buf = Vec::new();
    let mut per_phase = std::collections::BTreeMap::new();
    let mut turns = 0u64;
    let mut delivered = 0u64;
    for i in 0..games {
        let mut s = g.new_game(players, i).unwrap();
        let mut rng = Rng::from_seed(i + 99);
        while let ToMove::Seat(_) = g.to_move(&s) {
            g.legal_actions(&s, &mut buf);
            let a = buf[rng.index(buf.len())];
            let e = per_phase.entry(format!("{:?}", s.phase)).or_insert((0u64, 0u64));
            e.0 += 1; e.1 += buf.len() as u64;
            if a == rulesmith_mundo_163::Action::EndTrolley { turns += 1; }
            g.apply(&mut s, a).unwrap();
        }
        delivered += u64::from(s.delivered_total());
    }
    for (k, (n, l)) in per_phase { println!("{k}: {:.2} decisions/turn, {:.1} legal", n as f64 / turns as f64, l as f64 / n as f64); }
    println!("delivered per game {:.1}", delivered as f64 / games as f64);
}
