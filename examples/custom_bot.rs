//! A bot of one's own, in Rust, played in a simulation against the built-in bots.
//!
//! `Shipper` plays Puerto Rico by a simple plan: take the captain when it can, ship
//! whenever it can, and otherwise choose at random. The simulation driver asks it for
//! each of its seat's decisions through the public `Bot` trait.
//!
//! `cargo run --release --example custom_bot [GAMES]` (default 200).

use rulesmith::core::bots::{Bot, BotError, BotSpec};
use rulesmith::core::game::Game;
use rulesmith::core::rng::Rng;
use rulesmith::core::ruleset::{self, Diagnostics};
use rulesmith::core::sim::{self, Report, SimOptions};
use rulesmith_puerto_rico::Rules;

/// Prefers the captain and every shipping action; random otherwise.
struct Shipper;

impl Bot<Rules> for Shipper {
    fn name(&self) -> String {
        "shipper".into()
    }

    fn choose(
        &mut self,
        game: &Rules,
        state: &<Rules as Game>::State,
        legal: &[<Rules as Game>::Action],
        rng: &mut Rng,
    ) -> Result<<Rules as Game>::Action, BotError> {
        let wanted: Vec<_> = legal
            .iter()
            .copied()
            .filter(|&a| {
                let words = game.format_action(state, a);
                words == "captain" || words.starts_with("ship ")
            })
            .collect();
        let from = if wanted.is_empty() { legal } else { &wanted };
        Ok(from[rng.index(from.len())])
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let games: u64 = std::env::args().nth(1).map_or(Ok(200), |s| s.parse())?;
    // The typed rules of the bundled ruleset, decoded and validated once.
    let loaded = ruleset::load("puerto-rico", rulesmith::BUNDLED).map_err(|e| e.render())?;
    let mut diagnostics = Diagnostics::default();
    let rules = rulesmith_puerto_rico::decode(&loaded.tree, &mut diagnostics)
        .ok_or_else(|| diagnostics.render(&loaded.sources))?;

    // Seat 0 is the shipper; the others are built-in bots. `bots` names the seats in the report.
    let bots = vec![BotSpec::Random, BotSpec::Greedy, BotSpec::Random];
    let opts = SimOptions {
        players: 3,
        games,
        from: 0,
        seed: 1,
        bots: bots.clone(),
        shard: None,
        record: false,
        progress: None,
        rotate_seats: false,
        metrics: true,
    };
    let make = |seat: u8| -> Box<dyn Bot<Rules>> {
        if seat == 0 { Box::new(Shipper) } else { bots[seat as usize].instantiate::<Rules>(seat) }
    };
    let start = std::time::Instant::now();
    let tally = sim::simulate_with(&rules, &opts, &make, |_| {})?;
    let seconds = start.elapsed().as_secs_f64();
    let mut report = Report::new("puerto-rico", &loaded.digest(), rules.game_id(), &opts, tally, seconds);
    if let Some(seat) = report.seats.first_mut() {
        seat.bot = "shipper".into();
    }
    print!("{}", report.to_text());
    Ok(())
}
