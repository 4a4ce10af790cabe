//! The test kit of rulesmith: what every game crate's tests use, and the conformance
//! checks every game must pass. A dev-dependency: no production code reaches it.
//!
//! - [`kit`]: play by notation, refused actions, checked random playouts (every invariant,
//!   notation and JSON round trip after each action), edited states, scratch files.
//! - [`checks`]: generic checks of a typed game: the action space and observations
//!   ([`check_encoding`]), its own `apply` against `apply_legal` ([`check_apply_paths`]).
//! - [`conformance_game`] plays one game through the object-safe `AnyGame` interface and
//!   checks the contract of `Game` at every decision; the workspace's conformance suite
//!   runs it for every bundled ruleset and player count.

pub mod checks;
pub mod kit;

pub use checks::{check_apply_paths, check_encoding};

use rulesmith_core::bots::BotSpec;
use rulesmith_core::erased::AnyGame;
use rulesmith_core::game::{MAX_DECISIONS, Outcome, Seat, ToMove};
use rulesmith_core::sim::bot_rng;
use std::collections::BTreeSet;

/// What one conformance game produced.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    pub actions: Vec<String>,
    pub final_state: serde_json::Value,
    pub outcome: Outcome,
}

/// Plays one game with `bot` at every seat and checks the contract of [`Game`](rulesmith_core::game::Game) at each
/// decision: the invariants hold (`check_state`), the legal actions are distinct and
/// playable; at every decision of the first 200 and every 7th after: the state's JSON
/// round-trips and the state read back offers the same legal actions, an action that is not legal is refused and leaves the state unchanged,
/// views of every seat can be built; the game ends within
/// [`MAX_DECISIONS`] with a well-formed outcome, and replaying its actions from a fresh
/// game reproduces the same final state and outcome.
pub fn conformance_game(game: &dyn AnyGame, players: usize, seed: u64, bot: BotSpec) -> Result<Played, String> {
    let at = |n: usize, msg: String| format!("{players} players, seed {seed}, {bot}: decision {n}: {msg}");
    let mut s = game.start(players, seed).map_err(|e| at(0, format!("setup failed: {e}")))?;
    let mut probe = game.start(players, seed).map_err(|e| at(0, format!("setup failed: {e}")))?;
    let mut rng = bot_rng(seed);
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut n = 0usize;
    loop {
        s.views().map_err(|e| at(n, e.to_string()))?.check().map_err(|e| at(n, format!("check_state fails: {e}")))?;
        // The JSON checks are the costly part: every decision early on, then every 7th
        // (long games such as Mundo 163 run thousands of decisions).
        let thorough = n < 200 || n % 7 == 0;
        let json = if thorough { s.state_json() } else { serde_json::Value::Null };
        if thorough {
            probe.set_state_json(json.clone()).map_err(|e| at(n, format!("state JSON does not read back: {e}")))?;
            if probe.state_json() != json {
                return Err(at(n, "state JSON changes when read back and written again".into()));
            }
            for seat in 0..players {
                let _ = s.view_json(seat as Seat);
            }
        }
        let legal = s.legal();
        let seat = match s.to_move() {
            ToMove::Terminal => {
                if !legal.is_empty() {
                    return Err(at(n, format!("the game is over but actions are legal: {legal:?}")));
                }
                break;
            }
            ToMove::Seat(seat) => seat,
        };
        if seat as usize >= players {
            return Err(at(n, format!("seat {seat} is to move in a {players}-player game")));
        }
        if legal.is_empty() {
            return Err(at(n, format!("seat {seat} is to move but has no legal action")));
        }
        // A state read back from its JSON offers the same decision (nothing the rules
        // depend on may be left out of the JSON).
        if thorough && probe.legal() != legal {
            return Err(at(n, format!("read back from its JSON, the state offers {:?}, not {legal:?}", probe.legal())));
        }
        let distinct: BTreeSet<&String> = legal.iter().collect();
        if distinct.len() != legal.len() {
            return Err(at(n, format!("legal actions print the same: {legal:?}")));
        }
        // An action seen earlier that is not legal now must be refused without effect.
        if thorough {
            if let Some(stale) = seen.iter().find(|a| !legal.contains(a)) {
                if probe.play(stale).is_err() && probe.state_json() != json {
                    return Err(at(n, format!("refusing `{stale}` changed the state")));
                }
            }
        }
        seen.extend(legal.iter().cloned());
        let choice = s
            .bots()
            .map_err(|e| at(n, e.to_string()))?
            .bot_choice(bot.clone(), &mut rng)
            .ok_or_else(|| at(n, "the bot found no action".into()))?;
        if !legal.contains(&choice) {
            return Err(at(n, format!("the bot chose `{choice}`, which is not among {legal:?}")));
        }
        s.play(&choice).map_err(|e| at(n, format!("playing legal `{choice}` failed: {e}")))?;
        n += 1;
        if n as u64 > MAX_DECISIONS {
            return Err(at(n, format!("the game did not end after {MAX_DECISIONS} decisions")));
        }
    }
    let outcome = s.outcome().ok_or_else(|| at(n, "nobody is to move but there is no outcome".into()))?;
    if outcome.scores.len() != players || outcome.ranks.len() != players {
        return Err(at(n, format!("the outcome is not for {players} players: {outcome:?}")));
    }
    if !outcome.ranks.contains(&0) {
        return Err(at(n, format!("the outcome has no winner: {outcome:?}")));
    }
    let actions = s.history().to_vec();
    let final_state = s.state_json();
    // Replay from a fresh game.
    let mut r = game.start(players, seed).map_err(|e| at(0, format!("setup failed: {e}")))?;
    for (i, a) in actions.iter().enumerate() {
        r.play(a).map_err(|e| at(i, format!("replaying `{a}` failed: {e}")))?;
    }
    if r.state_json() != final_state {
        return Err(at(n, "replaying the actions from setup gives a different final state".into()));
    }
    if r.outcome().as_ref() != Some(&outcome) {
        return Err(at(n, format!("replaying gives outcome {:?}, expected {outcome:?}", r.outcome())));
    }
    Ok(Played { actions, final_state, outcome })
}

/// [`conformance_game`] twice with the same seed: the two games must be identical.
pub fn conformance_deterministic(
    game: &dyn AnyGame,
    players: usize,
    seed: u64,
    bot: BotSpec,
) -> Result<Played, String> {
    let a = conformance_game(game, players, seed, bot.clone())?;
    let b = conformance_game(game, players, seed, bot.clone())?;
    if a != b {
        let first = a.actions.iter().zip(&b.actions).position(|(x, y)| x != y).unwrap_or(a.actions.len());
        return Err(format!(
            "{players} players, seed {seed}, {bot}: the same seed gave two different games (first difference at decision {first})"
        ));
    }
    Ok(a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rulesmith_core::testing::take_away;

    #[test]
    fn toy_game_conforms() {
        let g = take_away().unwrap();
        for players in 2..=4 {
            for seed in 0..20 {
                for bot in [BotSpec::Random, BotSpec::Greedy] {
                    conformance_deterministic(&g, players, seed, bot).unwrap();
                }
            }
        }
        conformance_deterministic(&g, 3, 1, BotSpec::Mcts(20)).unwrap();
    }
}
