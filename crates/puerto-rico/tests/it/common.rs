//! Shared helpers for the Puerto Rico tests.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![allow(dead_code)]

use rulesmith_core::game::Game;
use rulesmith_core::ruleset::{self, Bundled, Diagnostics};
use rulesmith_puerto_rico::{Rules, State};

pub const RULESET: &str = include_str!("../../../../rulesets/puerto-rico.toml");

pub fn rules() -> Rules {
    let bundled = [Bundled { name: "puerto-rico", path: "rulesets/puerto-rico.toml", text: RULESET }];
    let loaded = ruleset::load("puerto-rico", &bundled).unwrap();
    let mut d = Diagnostics::default();
    let rules = rulesmith_puerto_rico::decode(&loaded.tree, &mut d);
    assert!(d.is_empty(), "{}", d.render(&loaded.sources));
    rules.unwrap()
}

/// Plays a random game, checking every invariant, the notation and the JSON round trip
/// after every action (the core's test kit); returns the actions in notation and the
/// final state.
pub fn random_game(rules: &Rules, players: usize, seed: u64) -> (Vec<String>, State) {
    rulesmith_core::testing::kit::random_game(rules, players, seed, Default::default(), |_, _| {})
}

/// Plays one action by its notation (it must be legal; the invariants must hold after it).
#[allow(unused_imports)]
pub use rulesmith_core::testing::kit::{legal, play};

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
    // The earlier choosers of the round took other cards (the last ones first).
    s.roles.end_round(0);
    let others: Vec<usize> = s.roles.available().filter(|&r| rules.roles[r].id != id).collect();
    for &r in others.iter().rev().take(usize::from(s.roles_chosen)) {
        s.roles.take(r);
    }
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
