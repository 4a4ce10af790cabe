//! Shared helpers for the Puerto Rico tests.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![allow(dead_code)]

use rulesmith_core::Rng;
use rulesmith_core::game::{Game, ToMove};
use rulesmith_core::ruleset::{self, Bundled, Diagnostics};
use rulesmith_puerto_rico::{Action, Rules, State};

pub const RULESET: &str = include_str!("../../../rulesets/puerto-rico.toml");

pub fn rules() -> Rules {
    let bundled = [Bundled { name: "puerto-rico", path: "rulesets/puerto-rico.toml", text: RULESET }];
    let loaded = ruleset::load("puerto-rico", &bundled).unwrap();
    let mut d = Diagnostics::default();
    let rules = rulesmith_puerto_rico::decode(&loaded.tree, &mut d);
    assert!(d.is_empty(), "{}", d.render(&loaded.sources));
    rules.unwrap()
}

/// Plays a random game, checking every invariant after every action; returns the
/// actions in notation and the final state.
pub fn random_game(rules: &Rules, players: usize, seed: u64) -> (Vec<String>, State) {
    let mut s = rules.new_game(players, seed).unwrap();
    let mut rng = Rng::from_seed(seed ^ 0xabc);
    let mut buf = Vec::new();
    let mut log = Vec::new();
    rules.check_state(&s).unwrap();
    while let ToMove::Seat(_) = rules.to_move(&s) {
        rules.legal_actions(&s, &mut buf);
        assert!(!buf.is_empty(), "no legal action in {s:?}");
        let a = buf[rng.index(buf.len())];
        let text = rules.format_action(&s, a);
        assert_eq!(rules.parse_action(&s, &text).unwrap(), a, "notation round trip of {text}");
        log.push(text);
        rules.apply(&mut s, a).unwrap();
        if let Err(e) = rules.check_state(&s) {
            panic!("after {:?}: {e}", log.last());
        }
        assert!(log.len() < 20_000, "game too long");
    }
    (log, s)
}

pub fn play(rules: &Rules, s: &mut State, text: &str) {
    let a: Action = rules.parse_action(s, text).unwrap_or_else(|e| panic!("{e}"));
    let mut legal = Vec::new();
    rules.legal_actions(s, &mut legal);
    let names: Vec<String> = legal.iter().map(|&a| rules.format_action(s, a)).collect();
    rules.apply(s, a).unwrap_or_else(|e| panic!("{text}: {e}; legal: {names:?}"));
}

pub fn legal(rules: &Rules, s: &State) -> Vec<String> {
    let mut legal = Vec::new();
    rules.legal_actions(s, &mut legal);
    legal.iter().map(|&a| rules.format_action(s, a)).collect()
}

use rulesmith_puerto_rico::{Good, phases, state::Phase};

/// Moves barrels from the supply to a player.
pub fn give(s: &mut State, seat: u8, g: Good, n: u8) {
    s.goods_supply[g] -= n;
    s.players[seat].goods[g] += n;
}

/// Builds a building for a player from the board, with colonists from the supply.
pub fn build(rules: &Rules, s: &mut State, seat: u8, id: &str, colonists: u8) {
    let i = rules.building_index(id).unwrap_or_else(|| panic!("no building {id}"));
    s.buildings[i] -= 1;
    s.colonist_supply -= colonists;
    assert!(s.players[seat].city.insert(i as u8, colonists));
}

/// Gives a player plantations from the stack (occupied ones with colonists from the supply).
pub fn plant(s: &mut State, seat: u8, g: Good, n: u8, occupied: u8) {
    for _ in 0..n {
        let pos = s.stack.as_slice().iter().rposition(|&x| x == g).expect("tile in stack");
        let len = s.stack.len as usize;
        s.stack.tiles.copy_within(pos + 1..len, pos);
        s.stack.len -= 1;
    }
    s.players[seat].plantations[g] += n;
    s.players[seat].plantations_occupied[g] += occupied;
    s.colonist_supply -= occupied;
}

pub fn quarries(s: &mut State, seat: u8, n: u8, occupied: u8) {
    s.quarry_supply -= n;
    s.players[seat].quarries += n;
    s.players[seat].quarries_occupied += occupied;
    s.colonist_supply -= occupied;
}

/// Starts the phase of role `id` chosen by `seat`, as if it were their turn to choose.
pub fn start_role(rules: &Rules, s: &mut State, seat: u8, id: &str) {
    s.phase = Phase::RoleSelection;
    s.current = seat;
    s.chooser = seat;
    let n = s.player_count() as u8;
    s.roles_chosen = (seat + n - s.governor) % n;
    play(rules, s, id);
}

pub fn check(rules: &Rules, s: &State) {
    if let Err(e) = rules.check_state(s) {
        panic!("{e}");
    }
}

pub fn advance(rules: &Rules, s: &mut State) {
    phases::advance(rules, s);
}
