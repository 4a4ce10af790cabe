//! Prints a game transcript (development aid): trace PLAYERS SEED BOT ROUNDS
use rulesmith_core::bots::{self, BotSpec};
use rulesmith_core::{Game, Rng, ToMove};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let players: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(2);
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let bot: BotSpec = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(BotSpec::Greedy);
    let rounds: u32 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(5);
    let g = rulesmith_mundo_163::load("mundo-163").unwrap_or_else(|e| panic!("{e}"));
    let mut s = g.new_game(players, seed).unwrap();
    let mut rng = Rng::from_seed(seed);
    let mut buf = Vec::new();
    while let ToMove::Seat(p) = g.to_move(&s) {
        if s.round > rounds { break; }
        g.legal_actions(&s, &mut buf);
        let a = bots::choose(&g, bot, &s, &buf, &mut rng);
        println!("r{} p{p} {:<28} h={:.2} money {}", s.round, g.format_action(&s, a), g.heuristic(&s, p), s.cur().money);
        g.apply(&mut s, a).unwrap();
    }
    println!("delivered {}", s.delivered_total());
}
