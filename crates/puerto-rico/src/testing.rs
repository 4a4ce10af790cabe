//! The Puerto Rico test kit, shared by this crate's tests and the expansion's: set up a
//! position by moving components from the supply (so every count stays conserved), start
//! a role's phase as if its chooser had the turn, and play until a phase. The general
//! test kit (playing by notation, random playouts) is `rulesmith-testkit`, which tests use
//! as a dev-dependency; these helpers play by notation through `play_text`.
//!
//! These helpers are for tests: they panic (with a message) where a test should fail.
#![allow(clippy::panic)]

use crate::goods::Good;
use crate::phases;
use crate::rules::Rules;
use crate::state::{Phase, State};
use rulesmith_game::cargo::Hold;
use rulesmith_game::game::Game;
use rulesmith_game::game::play_text;
use rulesmith_game::steps::places_after;

/// Moves barrels from the supply to a player.
pub fn give(s: &mut State, seat: u8, g: Good, n: u8) {
    s.goods_supply[g] -= n;
    s.players[seat].goods[g] += n;
}

/// Builds a building for a player from the board, with colonists from the supply.
#[track_caller]
pub fn build(rules: &Rules, s: &mut State, seat: u8, id: &str, colonists: u8) {
    let Some(i) = rules.building_index(id) else { panic!("no building {id}") };
    s.buildings[i] -= 1;
    s.colonist_supply -= colonists;
    assert!(s.players[seat].city.insert(i as u8, colonists), "seat {seat} cannot build {id}");
}

/// Gives a player plantations from the stack (occupied ones with colonists from the supply).
#[track_caller]
pub fn plant(s: &mut State, seat: u8, g: Good, n: u8, occupied: u8) {
    for _ in 0..n {
        let Some(pos) = s.stack.as_slice().iter().rposition(|&x| x == g) else {
            panic!("no {g:?} tile left in the stack")
        };
        let len = s.stack.len as usize;
        s.stack.tiles.copy_within(pos + 1..len, pos);
        s.stack.len -= 1;
    }
    s.players[seat].plantations[g] += n;
    s.players[seat].plantations_occupied[g] += occupied;
    s.colonist_supply -= occupied;
}

/// Gives a player island tiles of the extension held from the stack (the expansion's
/// forests, face down).
#[track_caller]
pub fn extension_tiles(s: &mut State, seat: u8, n: u8) {
    for _ in 0..n {
        let Some(g) = s.stack.pop() else { panic!("no tile left in the stack") };
        s.held_tiles[g] += 1;
    }
    s.players[seat].extension_tiles += n;
}

/// Gives a player quarries (occupied ones with colonists from the supply).
pub fn quarries(s: &mut State, seat: u8, n: u8, occupied: u8) {
    s.quarry_supply -= n;
    s.players[seat].quarries += n;
    s.players[seat].quarries_occupied += occupied;
    s.colonist_supply -= occupied;
}

/// VP chips to a player.
pub fn vp(s: &mut State, seat: u8, n: u16) {
    s.vp_chips -= n;
    s.players[seat].vp += n;
}

/// Loads a cargo ship (by capacity) with barrels from the supply.
#[track_caller]
pub fn set_ship(s: &mut State, cap: u8, g: Good, load: u8) {
    let Some(i) = s.ships().iter().position(|x| x.capacity() == cap) else { panic!("no ship of {cap}") };
    let Some(ship) = Hold::loaded(cap, g, load) else { panic!("{load} barrels do not fit a ship of {cap}") };
    s.goods_supply[g] -= load;
    s.ships[i] = ship;
}

/// Fills every cargo ship with goods nobody holds, so nothing can be loaded on them.
pub fn fill_ships(s: &mut State, goods: &[Good]) {
    let caps: Vec<u8> = s.ships().iter().map(|x| x.capacity()).collect();
    for (cap, &g) in caps.into_iter().zip(goods) {
        set_ship(s, cap, g, cap);
    }
}

/// Colonists on a player's building (0 if it is not built).
#[track_caller]
pub fn colonists_on(rules: &Rules, s: &State, seat: u8, id: &str) -> u8 {
    let Some(i) = rules.building_index(id) else { panic!("no building {id}") };
    s.players[seat].city.iter().find(|b| usize::from(b.building) == i).map_or(0, |b| b.colonists)
}

/// Starts the phase of role `id` chosen by `seat`, as if it were their turn to choose:
/// the earlier choosers of the round took other cards (the last ones in the list first).
#[track_caller]
pub fn start_role(rules: &Rules, s: &mut State, seat: u8, id: &str) {
    s.phase = Phase::RoleSelection;
    s.current = seat;
    s.chooser = seat;
    s.roles_chosen = places_after(s.governor, seat, s.player_count()) as u8;
    s.roles.end_round(0);
    let others: Vec<usize> = s.roles.available().filter(|&r| rules.roles[r].id != id).collect();
    for &r in others.iter().rev().take(usize::from(s.roles_chosen)) {
        s.roles.take(r);
    }
    play(rules, s, id);
}

/// The state's invariants hold.
#[track_caller]
pub fn check(rules: &Rules, s: &State) {
    if let Err(e) = rules.check_state(s) {
        panic!("{e}");
    }
}

/// Runs the automatic steps up to the next decision (after a test edited the state).
pub fn advance(rules: &Rules, s: &mut State) {
    phases::advance(rules, s);
}

/// Plays `pass` (or else the first legal action) until the phase is `phase` or the game
/// is over.
#[track_caller]
pub fn pass_until(rules: &Rules, s: &mut State, phase: Phase) {
    for _ in 0..1000 {
        if s.phase == phase || s.phase == Phase::GameOver {
            return;
        }
        let mut buf = Vec::new();
        rules.legal_actions(s, &mut buf);
        let legal: Vec<String> = buf.iter().map(|&a| rules.format_action(s, a)).collect();
        let Some(a) = legal.iter().find(|a| *a == "pass").or(legal.first()).cloned() else {
            panic!("no legal action before the {phase:?} phase")
        };
        play(rules, s, &a);
    }
    panic!("1000 actions and still not the {phase:?} phase");
}

/// Plays one action by its notation; it must be legal and leave a valid state.
#[track_caller]
fn play(rules: &Rules, s: &mut State, text: &str) {
    if let Err(e) = play_text(rules, s, text) {
        panic!("`{text}`: {e}");
    }
    check(rules, s);
}
