//! Checks every game passes on a seeded random game, called through [`rulesmith_core::erased::AnyGame`]
//! by the conformance suite: encodings, and `apply` against `apply_legal`.

use rulesmith_core::bots::Evaluate;
use rulesmith_core::encode::Encode;
use rulesmith_core::game::{Seat, ToMove};
use rulesmith_core::sim::bot_rng;

/// Checks a game's encodings on one seeded random game: the action space lists each
/// action once; every legal action of every position has an id that maps back to it,
/// and its name in the space (notation after setup) is its notation now and parses back
/// to it; every seat's observation writes exactly as many finite numbers as there are
/// names; and it is the same for the state and for states that differ from it only in
/// what the seat may not see ([`rulesmith_core::game::Game::determinize`] of the position, three draws).
pub fn check_encoding<G: Encode + Evaluate>(game: &G, players: usize, seed: u64) -> Result<(), String> {
    let space = rulesmith_core::encode::ActionSpace::new(game, players)?;
    let names = game.observation_names(players);
    let start = game.new_game(players, seed).map_err(|e| format!("setup failed: {e}"))?;
    let mut s = start.clone();
    let mut rng = bot_rng(seed);
    let mut legal = Vec::new();
    let (mut obs, mut other) = (vec![0f32; names.len() + 1], vec![0f32; names.len() + 1]);
    for n in 0..game.decision_limit() {
        let at = |msg: String| format!("{players} players, seed {seed}: decision {n}: {msg}");
        for seat in 0..players as Seat {
            obs.fill(f32::NAN);
            game.observation(&s, seat, &mut obs[..names.len()]);
            other.fill(f32::NAN);
            game.observation(&s, seat, &mut other);
            if other.last().is_some_and(|x| !x.is_nan()) {
                return Err(at(format!("seat {seat}'s observation writes more than its {} names", names.len())));
            }
            if let Some(i) = obs[..names.len()].iter().position(|x| !x.is_finite()) {
                return Err(at(format!("seat {seat}'s observation leaves `{}` unwritten or not finite", names[i])));
            }
            // Hidden stays hidden: what the seat cannot tell apart looks the same.
            if n % 5 == 0 {
                for _ in 0..3 {
                    let twin = game.determinize(&s, seat, &mut rng);
                    other.fill(f32::NAN);
                    game.observation(&twin, seat, &mut other[..names.len()]);
                    if let Some(i) = (0..names.len()).find(|&i| other[i] != obs[i]) {
                        return Err(at(format!(
                            "seat {seat}'s observation `{}` differs between states that differ only in what it \
                             may not see ({} and {})",
                            names[i], obs[i], other[i]
                        )));
                    }
                }
            }
        }
        if game.to_move(&s) == ToMove::Terminal {
            return Ok(());
        }
        game.legal_actions(&s, &mut legal);
        for &a in &legal {
            let text = game.format_action(&s, a);
            let Some(id) = space.id(&a) else {
                return Err(at(format!("the legal action `{text}` is not in the action space")));
            };
            if space.action(id) != Some(a) {
                return Err(at(format!("id {id} of `{text}` does not map back to it")));
            }
            let named = game.format_action(&start, a);
            if named != text {
                return Err(at(format!("`{text}` is named `{named}` in the action space")));
            }
            if game.parse_action(&s, &text).ok() != Some(a) {
                return Err(at(format!("`{text}` does not parse back to the same action")));
            }
        }
        let Some(&a) = legal.get(rng.index(legal.len())) else {
            return Err(at("no legal action, yet the game is not over".into()));
        };
        game.apply_legal(&mut s, a);
    }
    Ok(())
}

/// Checks a game's own `apply` on a seeded random game: at each of the first 200
/// decisions and every 7th after, every legal action gives the same state through
/// [`rulesmith_core::game::Game::apply`] and [`rulesmith_core::game::Game::apply_legal`] (the fast path simulations and search use),
/// and actions that were legal earlier but are not now are refused by `apply` without
/// changing the state.
pub fn check_apply_paths<G: Evaluate>(game: &G, players: usize, seed: u64) -> Result<(), String> {
    let mut s = game.new_game(players, seed).map_err(|e| format!("setup failed: {e}"))?;
    let mut rng = bot_rng(seed);
    let mut legal = Vec::new();
    // Earlier legal actions, most recent last; bounded so long games stay cheap.
    let mut seen: Vec<G::Action> = Vec::new();
    for n in 0..game.decision_limit() {
        let at = |msg: String| format!("{players} players, seed {seed}: decision {n}: {msg}");
        if game.to_move(&s) == ToMove::Terminal {
            return Ok(());
        }
        game.legal_actions(&s, &mut legal);
        if legal.is_empty() {
            return Err(at("no legal action".into()));
        }
        if n < 200 || n % 7 == 0 {
            for &a in &legal {
                let mut checked = s.clone();
                game.apply(&mut checked, a)
                    .map_err(|e| at(format!("`{}` is legal but apply refuses it: {e}", game.format_action(&s, a))))?;
                let mut fast = s.clone();
                game.apply_legal(&mut fast, a);
                if checked != fast {
                    return Err(at(format!(
                        "`{}`: apply and apply_legal give different states",
                        game.format_action(&s, a)
                    )));
                }
            }
            for &a in seen.iter().rev().filter(|a| !legal.contains(a)).take(24) {
                let mut c = s.clone();
                if game.apply(&mut c, a).is_ok() {
                    return Err(at(format!("{a:?} is not legal but apply accepts it")));
                }
                if c != s {
                    return Err(at(format!("refusing {a:?} changed the state")));
                }
            }
            for &a in &legal {
                if !seen.contains(&a) {
                    seen.push(a);
                }
            }
            if seen.len() > 512 {
                seen.drain(..256);
            }
        }
        let a = legal[rng.index(legal.len())];
        game.apply_legal(&mut s, a);
    }
    Err(format!("{players} players, seed {seed}: no end after {} decisions", game.decision_limit()))
}
