//! Drives a game through the library, the way the `rulesmith` binary does: load a
//! bundled ruleset (or a house-rule file), start a seeded game, read the legal actions in
//! the game's notation, play them, look at a seat's view, and finish with bots.
//!
//! `cargo run --example drive_game [RULESET] [SEED]` (default: santiago-de-cuba, seed 7).

use rulesmith::core::bots::BotSpec;
use rulesmith::core::game::ToMove;
use rulesmith::core::sim::bot_rng;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map_or("santiago-de-cuba", String::as_str);
    let seed: u64 = args.get(2).map_or(Ok(7), |s| s.parse())?;
    let ruleset = rulesmith::load(name).map_err(|e| e.render())?;
    let mut game = ruleset.game.start(3, seed)?;
    println!("{} ({}), 3 players, seed {seed}", ruleset.name(), ruleset.game.game_id());

    // The first decisions by hand: always the first legal action, in notation.
    for _ in 0..3 {
        let legal = game.legal();
        let Some(first) = legal.first().cloned() else { break };
        println!("{:?} may play {}; plays `{first}`", game.to_move(), legal.join(" | "));
        game.play(&first)?;
    }

    // What seat 1 may see (hidden values are marked hidden, the generator is absent).
    let view = game.view_json(1);
    let keys: Vec<&String> = view.as_object().map(|m| m.keys().collect()).unwrap_or_default();
    println!("seat 1 sees: {}", keys.iter().map(|k| k.as_str()).collect::<Vec<_>>().join(", "));

    // The rest by the greedy bot, reproducibly from the game's seed.
    let mut rng = bot_rng(seed);
    while let ToMove::Seat(_) = game.to_move() {
        let Some(choice) = game.bots()?.bot_choice(BotSpec::Greedy, &mut rng) else { break };
        game.play(&choice)?;
    }
    if let Some(outcome) = game.outcome() {
        println!(
            "over after {} decisions ({}): scores {:?}, winners {:?}",
            game.history().len(),
            outcome.end,
            outcome.scores,
            outcome.winners()
        );
    }
    Ok(())
}
