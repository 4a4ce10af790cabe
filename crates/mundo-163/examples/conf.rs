//! Times one shared conformance game (development aid): conf PLAYERS SEED BOT
use rulesmith_core::bots::BotSpec;
use rulesmith_core::testing::conformance_game;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let players: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(4);
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(0);
    let bot: BotSpec = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(BotSpec::Random);
    let g = rulesmith_mundo_163::load(&std::env::var("RULESET").unwrap_or("mundo-163".into())).unwrap_or_else(|e| panic!("{e}"));
    let t = std::time::Instant::now();
    match conformance_game(&g, players, seed, bot) {
        Ok(p) => println!("ok: {} decisions, {:?} in {:.2}s", p.actions.len(), p.outcome.end, t.elapsed().as_secs_f64()),
        Err(e) => println!("FAIL: {e}"),
    }
}
