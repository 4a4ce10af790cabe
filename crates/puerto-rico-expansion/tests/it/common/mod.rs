//! Shared helpers for the expansion's tests.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use rulesmith_core::game::Game;
use rulesmith_core::ruleset::{self, Bundled, Diagnostics};
use rulesmith_puerto_rico::state::Phase;
use rulesmith_puerto_rico::{Good, State as BaseState, phases};
use rulesmith_puerto_rico_expansion::{Rules, State};

pub const BASE: &str = include_str!("../../../../../rulesets/puerto-rico.toml");
pub const EXPANSION: &str = include_str!("../../../../../rulesets/puerto-rico-expansion.toml");

pub fn bundled() -> [Bundled; 2] {
    [
        Bundled { name: "puerto-rico", path: "rulesets/puerto-rico.toml", text: BASE },
        Bundled { name: "puerto-rico-expansion", path: "rulesets/puerto-rico-expansion.toml", text: EXPANSION },
    ]
}

/// The bundled expansion ruleset, or (with `extra` TOML) a ruleset that `extends` it and
/// states only `extra` (e.g. a changed option).
pub fn rules_with(extra: &str) -> Rules {
    let text = format!(
        "[ruleset]\nname = \"test\"\ngame = \"puerto-rico-expansion\"\nextends = \"puerto-rico-expansion\"\n{extra}"
    );
    let b = bundled();
    let all = [b[0], b[1], Bundled { name: "test", path: "test.toml", text: Box::leak(text.into_boxed_str()) }];
    let name = if extra.is_empty() { "puerto-rico-expansion" } else { "test" };
    let loaded = ruleset::load(name, &all).unwrap();
    let mut d = Diagnostics::default();
    let rules = rulesmith_puerto_rico_expansion::decode(&loaded.tree, &mut d);
    assert!(d.is_empty(), "{}", d.render(&loaded.sources));
    rules.unwrap()
}

pub fn rules() -> Rules {
    rules_with("")
}

/// Plays a random game (draft included), checking every invariant after every action
/// and the JSON round trip after every action (`json_each`) or at the end; returns the
/// actions in notation and the final state.
pub fn random_game(rules: &Rules, players: usize, seed: u64) -> (Vec<String>, State) {
    random_game_with(rules, players, seed, true)
}

pub fn random_game_with(rules: &Rules, players: usize, seed: u64, json_each: bool) -> (Vec<String>, State) {
    let checks = rulesmith_core::testing::kit::Checks { json_each };
    rulesmith_core::testing::kit::random_game(rules, players, seed, checks, |_, _| {})
}

// Rule tests play the game proper on the base engine with the expansion's rules: every
// building in the game, no draft (the draft has its own tests).

/// A game right after setup (all buildings in the game).
pub fn game(players: usize) -> (Rules, BaseState) {
    let rules = rules();
    let s = rules.base.new_game(players, 11).unwrap();
    (rules, s)
}

/// Plays one action by its notation on the base engine (the core's test kit).
#[track_caller]
pub fn play(rules: &Rules, s: &mut BaseState, text: &str) {
    rulesmith_core::testing::kit::play(&rules.base, s, text);
}

pub fn legal(rules: &Rules, s: &BaseState) -> Vec<String> {
    rulesmith_core::testing::kit::legal(&rules.base, s)
}

pub fn check(rules: &Rules, s: &BaseState) {
    if let Err(e) = rules.base.check_state(s) {
        panic!("{e}");
    }
}

/// Moves barrels from the supply to a player.
pub fn give(s: &mut BaseState, seat: u8, g: Good, n: u8) {
    s.goods_supply[g] -= n;
    s.players[seat].goods[g] += n;
}

/// Builds a building for a player from the board, with colonists from the supply.
pub fn build(rules: &Rules, s: &mut BaseState, seat: u8, id: &str, colonists: u8) {
    let i = rules.base.building_index(id).unwrap_or_else(|| panic!("no building {id}"));
    s.buildings[i] -= 1;
    s.colonist_supply -= colonists;
    assert!(s.players[seat].city.insert(i as u8, colonists));
}

/// Gives a player plantations from the stack (occupied ones with colonists from the supply).
pub fn plant(s: &mut BaseState, seat: u8, g: Good, n: u8, occupied: u8) {
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

/// Gives a player forests (tiles from the stack, face down).
pub fn forests(s: &mut BaseState, seat: u8, n: u8) {
    for _ in 0..n {
        let g = s.stack.pop().expect("tile in stack");
        s.forest_tiles[g] += 1;
    }
    s.players[seat].forests += n;
}

pub fn quarries(s: &mut BaseState, seat: u8, n: u8, occupied: u8) {
    s.quarry_supply -= n;
    s.players[seat].quarries += n;
    s.players[seat].quarries_occupied += occupied;
    s.colonist_supply -= occupied;
}

/// VP chips to a player.
pub fn vp(s: &mut BaseState, seat: u8, n: u16) {
    s.vp_chips -= n;
    s.players[seat].vp += n;
}

/// Starts the phase of role `id` chosen by `seat`, as if it were their turn to choose.
pub fn start_role(rules: &Rules, s: &mut BaseState, seat: u8, id: &str) {
    s.phase = Phase::RoleSelection;
    s.current = seat;
    s.chooser = seat;
    let n = s.player_count() as u8;
    s.roles_chosen = (seat + n - s.governor) % n;
    // The earlier choosers of the round took other cards (the last ones first).
    s.roles.end_round(0);
    let others: Vec<usize> = s.roles.available().filter(|&r| rules.base.roles[r].id != id).collect();
    for &r in others.iter().rev().take(usize::from(s.roles_chosen)) {
        s.roles.take(r);
    }
    play(rules, s, id);
}

pub fn advance(rules: &Rules, s: &mut BaseState) {
    phases::advance(&rules.base, s);
}

pub fn colonists_on(rules: &Rules, s: &BaseState, seat: u8, id: &str) -> u8 {
    let i = rules.base.building_index(id).unwrap() as u8;
    s.players[seat].city.iter().find(|b| b.building == i).map_or(0, |b| b.colonists)
}

/// Loads a cargo ship (by capacity) with barrels from the supply.
pub fn set_ship(s: &mut BaseState, cap: u8, g: Good, load: u8) {
    let i = s.ships().iter().position(|x| x.capacity() == cap).unwrap();
    s.goods_supply[g] -= load;
    s.ships[i] = rulesmith_core::cargo::Hold::loaded(cap, g, load).unwrap();
}

/// Fills every cargo ship with goods nobody holds, so nothing can be loaded on them.
pub fn fill_ships(s: &mut BaseState, goods: &[Good]) {
    let caps: Vec<u8> = s.ships().iter().map(|x| x.capacity()).collect();
    for (cap, &g) in caps.into_iter().zip(goods) {
        set_ship(s, cap, g, cap);
    }
}

/// Plays `pass` (or the only action) until the phase is `phase` or the game is over.
pub fn pass_until(rules: &Rules, s: &mut BaseState, phase: Phase) {
    let mut guard = 0;
    while s.phase != phase && s.phase != Phase::GameOver {
        let l = legal(rules, s);
        let a = l.iter().find(|a| *a == "pass").cloned().unwrap_or_else(|| l[0].clone());
        play(rules, s, &a);
        guard += 1;
        assert!(guard < 1000);
    }
}
