//! Helpers for the tests: the bundled game, positions built by hand, playing by notation.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use rulesmith_core::{Game, Seat};
use rulesmith_mundo_163::residents::open_roads;
use rulesmith_mundo_163::{Mundo163, Phase, State};

pub fn game() -> Mundo163 {
    rulesmith_mundo_163::load("mundo-163").unwrap_or_else(|e| panic!("{e}"))
}

/// A tile's index by name.
pub fn t(g: &Mundo163, name: &str) -> u8 {
    g.rules.tile_by_name(name).unwrap_or_else(|| panic!("no tile {name}"))
}

// Playing by notation, legal lists and refusals: the core's test kit.
#[allow(unused_imports)]
pub use rulesmith_testkit::kit::{legal, play, play_all, refused};

/// A game right after setup with the given capitals (`capitals[seat]` is a city id),
/// chosen in reverse seat order; the first player is in 3 C.
pub fn start(g: &Mundo163, capitals: &[&str], seed: u64) -> State {
    let mut s = g.new_game(capitals.len(), seed).unwrap();
    for seat in (0..capitals.len()).rev() {
        assert_eq!(s.current as usize, seat);
        play(g, &mut s, &format!("capital {}", capitals[seat]));
    }
    assert_eq!(s.phase, Phase::Privilege);
    s
}

/// Adds settlements for a seat (taken from storage).
pub fn settle(g: &Mundo163, s: &mut State, seat: Seat, tiles: &[&str]) {
    for name in tiles {
        let tile = t(g, name);
        let p = &mut s.p[seat];
        assert!(p.settlements & (1 << tile) == 0);
        p.settlements |= 1 << tile;
        p.settlements_in_storage -= 1;
        p.open_roads = open_roads(&g.rules, p);
    }
}

/// Puts residents from storage on a tile: exhausted, or active.
pub fn residents(g: &Mundo163, s: &mut State, seat: Seat, tile: &str, n: u8, active: bool) {
    let tile = usize::from(t(g, tile));
    let p = &mut s.p[seat];
    if active {
        p.active[tile] += n;
    } else {
        p.exhausted[tile] += n;
    }
    p.residents_in_storage -= n;
    p.tiles = rulesmith_mundo_163::purchase::resident_tiles(&g.rules, p);
}

/// Adds a road for a seat (both ends must be own tiles).
pub fn road(g: &Mundo163, s: &mut State, seat: Seat, a: &str, b: &str) {
    let (a, b) = (t(g, a), t(g, b));
    let e = g.rules.edge(a, b).expect("adjacent");
    let p = &mut s.p[seat];
    p.set_road(e);
    p.network |= 1 << a | 1 << b;
    p.open_roads = open_roads(&g.rules, p);
}

/// Gives a seat a privilege by id, taking a card of that type out of the deck.
pub fn grant(g: &Mundo163, s: &mut State, seat: Seat, id: &str) {
    let k = g.rules.privilege_by_id(id).unwrap();
    let len = usize::from(s.deck_len);
    if let Some(pos) = s.deck[..len].iter().position(|&c| c == k) {
        s.deck.copy_within(pos + 1..len, pos);
        s.deck[len - 1] = 0;
        s.deck_len -= 1;
    } else {
        let rlen = usize::from(s.row_len);
        let pos = s.row[..rlen].iter().position(|&c| c == k).expect("the card is in the deck or row");
        s.row.copy_within(pos + 1..rlen, pos);
        s.row[rlen - 1] = 0;
        s.row_len -= 1;
        if pos < usize::from(s.free) {
            s.free -= 1;
        }
    }
    s.p[seat].privileges |= 1 << k;
}

/// From the start of a turn (3 C) straight to 3 D, buying nothing.
pub fn to_residents(g: &Mundo163, s: &mut State) {
    play_all(g, s, &["no privilege", "no upgrade", "end purchase"]);
}

/// From the start of a turn straight to 3 E.
pub fn to_trolley(g: &Mundo163, s: &mut State) {
    to_residents(g, s);
    play(g, s, "end residents");
}
