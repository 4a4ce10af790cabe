#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! One test per rule of the rulebook, citing its source, and the rulebook's worked
//! examples reproduced exactly. S000 = seeds/000_ff6c9d42b85a0436.txt (Devir rulebook),
//! S003 = seeds/003_d1fba3d35b184125.txt; line numbers as in the data sheet.

use crate::common::*;
use rulesmith_core::game::{Game, ToMove};
use rulesmith_core::prelude::*;
use rulesmith_puerto_rico::board;
use rulesmith_puerto_rico::state::{END_CITY, END_COLONISTS, END_VP, Phase};
use rulesmith_puerto_rico::{Good, Rules, State};

// The bundled ruleset's goods, in its `[goods.*]` order.
const CORN: Good = Good::at(0);
const INDIGO: Good = Good::at(1);
const SUGAR: Good = Good::at(2);
const TOBACCO: Good = Good::at(3);
const COFFEE: Good = Good::at(4);

fn game(players: usize) -> (Rules, State) {
    let rules = rules();
    let s = rules.new_game(players, 11).unwrap();
    (rules, s)
}

fn set_ship(s: &mut State, cap: u8, g: Good, load: u8) {
    let i = s.ships().iter().position(|x| x.capacity() == cap).unwrap();
    s.goods_supply[g] -= load;
    s.ships[i] = rulesmith_core::cargo::Hold::loaded(cap, g, load).unwrap();
}

/// S000:L360-378, "Ejemplo de fase del capitán (con 4 jugadores)".
#[test]
fn captain_phase_example() {
    let (rules, mut s) = game(4);
    let (ana, roberto, cristina, david) = (0, 1, 2, 3);
    set_ship(&mut s, 6, CORN, 3);
    give(&mut s, ana, CORN, 2);
    give(&mut s, ana, SUGAR, 6);
    give(&mut s, roberto, SUGAR, 2);
    give(&mut s, roberto, TOBACCO, 3);
    give(&mut s, cristina, CORN, 2);
    give(&mut s, cristina, TOBACCO, 1);
    give(&mut s, david, CORN, 1);
    give(&mut s, david, INDIGO, 5);
    check(&rules, &s);
    start_role(&rules, &mut s, ana, "captain");
    // Ana must load corn or sugar; sugar only on the 7 (the 5 would leave barrels behind).
    assert_eq!(legal(&rules, &s), ["ship corn on 6", "ship sugar on 7"]);
    play(&rules, &mut s, "ship sugar on 7");
    assert_eq!(s.players[ana].vp, 7, "6 barrels + 1 captain's privilege");
    // Roberto may fill the sugar ship or put tobacco on the empty 5.
    assert_eq!(legal(&rules, &s), ["ship sugar on 7", "ship tobacco on 5"]);
    play(&rules, &mut s, "ship sugar on 7");
    assert_eq!(s.players[roberto].vp, 1);
    assert_eq!(legal(&rules, &s), ["ship corn on 6", "ship tobacco on 5"]);
    play(&rules, &mut s, "ship tobacco on 5");
    // From here every load is the player's only option, made for them (forced choices
    // are never asked): David must load his corn (no ship for indigo), Ana her corn,
    // Roberto his tobacco.
    assert_eq!(s.players[david].goods[CORN], 0);
    assert_eq!(s.players[david].vp, 1);
    assert_eq!(s.players[ana].vp, 9, "the privilege is only once");
    assert_eq!(s.players[roberto].vp, 4);
    // Nobody can load: storage keeps one barrel each (forced), full ships are emptied.
    assert_eq!(s.phase, Phase::RoleSelection);
    assert_eq!(s.players[cristina].goods.total(), 1);
    assert_eq!(s.players[david].goods.total(), 1);
    let ships: Vec<(u8, Option<Good>, u8)> = s.ships().iter().map(|x| (x.capacity(), x.good(), x.load())).collect();
    assert_eq!(ships, [(5, Some(TOBACCO), 4), (6, None, 0), (7, None, 0)]);
    check(&rules, &s);
}

/// S000:L238: a player with 3 occupied quarries pays 1 for the construction hut, 3 for
/// the office, 5 for the harbor, 7 for the city hall.
#[test]
fn quarry_discount_capped_by_column() {
    let (rules, mut s) = game(4);
    quarries(&mut s, 0, 3, 3);
    let p = &s.players[0];
    let cost = |id: &str| board::build_cost(&rules, p, rules.building_index(id).unwrap(), 0);
    assert_eq!([cost("construction-hut"), cost("office"), cost("harbor"), cost("city-hall")], [1, 3, 5, 7]);
    // Builder's privilege adds; never below 0 (S000:L238, S001:L141).
    assert_eq!(board::build_cost(&rules, p, rules.building_index("small-market").unwrap(), 1), 0);
}

/// S000:L592: David's factory: no corn left, 2 sugar left → 2 sugar + 1 tobacco, 2 kinds
/// → 1 doubloon.
#[test]
fn factory_example() {
    let (rules, mut s) = game(4);
    let david = 3;
    build(&rules, &mut s, david, "factory", 1);
    plant(&mut s, david, CORN, 3, 3);
    plant(&mut s, david, SUGAR, 3, 3);
    plant(&mut s, david, TOBACCO, 1, 1);
    build(&rules, &mut s, david, "sugar-mill", 3);
    build(&rules, &mut s, david, "tobacco-storage", 1);
    // Empty the corn supply and leave 2 sugar (to another player).
    let corn = s.goods_supply[CORN];
    give(&mut s, 0, CORN, corn);
    let sugar = s.goods_supply[SUGAR] - 2;
    give(&mut s, 0, SUGAR, sugar);
    // Seat 0 has no occupied plantations (the starting ones are empty), so produces nothing.
    let before = s.players[david].doubloons;
    start_role(&rules, &mut s, david, "craftsman");
    assert_eq!(s.players[david].goods[SUGAR], 2);
    assert_eq!(s.players[david].goods[TOBACCO], 1);
    assert_eq!(s.players[david].goods[CORN], 0);
    assert_eq!(s.players[david].doubloons - before, 1);
    // The privilege: one more of a kind produced and still in the supply (tobacco only).
    assert_eq!(legal(&rules, &s), ["bonus tobacco", "pass"]);
    check(&rules, &s);
}

/// S000:L252-262: the craftsman produces first, then clockwise, so shortages hit the
/// last; the privilege good comes last and only of a kind produced.
#[test]
fn craftsman_order_under_shortage() {
    let (rules, mut s) = game(3);
    for seat in 0..3 {
        plant(&mut s, seat, CORN, 2, 2);
    }
    let spare = s.goods_supply[CORN] - 3;
    s.goods_supply[CORN] -= spare;
    s.players[0].goods[CORN] += spare; // seat 0 holds them; seat 1 is the craftsman
    start_role(&rules, &mut s, 1, "craftsman");
    assert_eq!(s.players[1].goods[CORN], 2);
    assert_eq!(s.players[2].goods[CORN], 1);
    assert_eq!(s.players[0].goods[CORN], spare);
    // No corn left: no privilege good, the phase is over.
    assert_eq!(s.phase, Phase::RoleSelection);
}

/// S000:L632-668: the five large buildings' examples.
#[test]
fn large_building_examples() {
    let (rules, mut s) = game(5);
    let id = |x: &str| rules.building_index(x).unwrap() as u8;
    // Guild hall: small sugar mill + sugar mill + small indigo plant + coffee roaster → 6.
    build(&rules, &mut s, 0, "guild-hall", 1);
    for b in ["small-sugar-mill", "sugar-mill", "small-indigo-plant", "coffee-roaster"] {
        build(&rules, &mut s, 0, b, 0);
    }
    let base: i32 = s.players[0].city.iter().map(|b| i32::from(rules.buildings[b.building as usize].vp)).sum();
    assert_eq!(board::building_points(&rules, &s.players[0]) - base, 6);
    // Residence: 10 filled island spaces → 5.
    build(&rules, &mut s, 1, "residence", 1);
    let have = board::island_used(&s.players[1]);
    plant(&mut s, 1, SUGAR, 10 - have, 0);
    assert_eq!(board::building_points(&rules, &s.players[1]) - 4, 5);
    // Fortress: 20 colonists → 6.
    build(&rules, &mut s, 2, "fortress", 1);
    s.colonist_supply -= 19;
    s.players[2].san_juan += 19;
    assert_eq!(board::building_points(&rules, &s.players[2]) - 4, 6);
    // Customs house: 23 VP in chips → 5.
    build(&rules, &mut s, 3, "customs-house", 1);
    s.players[3].vp = 23;
    s.vp_chips -= 23;
    assert_eq!(board::building_points(&rules, &s.players[3]) - 4, 5);
    // City hall with hacienda, harbor, office, construction hut, large warehouse and
    // residence (moved here) → 7.
    build(&rules, &mut s, 4, "city-hall", 1);
    for b in ["hacienda", "harbor", "office", "construction-hut", "large-warehouse"] {
        build(&rules, &mut s, 4, b, 0);
    }
    let r = id("residence");
    s.players[1].city = Default::default();
    s.players[1].city.insert(r, 0);
    s.colonist_supply += 1;
    s.players[4].city.insert(r, 0);
    s.players[1].city = Default::default();
    let base: i32 = s.players[4].city.iter().map(|b| i32::from(rules.buildings[b.building as usize].vp)).sum();
    assert_eq!(board::building_points(&rules, &s.players[4]) - base, 7);
    // Unoccupied, the bonus is gone but the building's own VP stay (S000:L424-427).
    let mut p = s.players[4];
    p.city.iter_mut().for_each(|b| b.colonists = 0);
    assert_eq!(board::building_points(&rules, &p), base);
}

/// S000:L216-222 (and S001:L114): 4 players, 6 colonists on the ship, the mayor takes the
/// privilege colonist: the mayor gets 3, then 2, 1, 1.
#[test]
fn mayor_example() {
    let (rules, mut s) = game(4);
    s.colonist_supply -= 2;
    s.colonist_ship += 2;
    start_role(&rules, &mut s, 0, "mayor");
    assert_eq!(legal(&rules, &s), ["take colonist", "pass"]);
    // Inspect the deal before placement by looking at colonist totals afterwards.
    play(&rules, &mut s, "take colonist");
    let got: Vec<u32> = s.players.iter().map(board::colonists).collect();
    assert_eq!(got, [3, 2, 1, 1]);
    check(&rules, &s);
}

/// S000:L188, L193-195: placement must fill circles before San Juan; ship refill is one
/// per empty building circle, at least the number of players.
#[test]
fn mayor_fills_circles_and_refills_ship() {
    let (rules, mut s) = game(3);
    build(&rules, &mut s, 0, "sugar-mill", 0); // 3 empty circles
    build(&rules, &mut s, 1, "indigo-plant", 0);
    build(&rules, &mut s, 1, "coffee-roaster", 0); // 3 + 2 empty circles
    s.players[0].san_juan = 2;
    s.colonist_supply -= 2;
    start_role(&rules, &mut s, 0, "mayor");
    play(&rules, &mut s, "pass");
    // Seat 0 holds 2 + 1 from the ship = 3 colonists for 1 indigo plantation + 3 circles:
    // the plantation gets 0 or 1; San Juan never while circles are empty.
    assert_eq!(legal(&rules, &s), ["place 0 on indigo", "place 1 on indigo"]);
    play(&rules, &mut s, "place 0 on indigo");
    assert_eq!(s.players[0].city.iter().next().unwrap().colonists, 3);
    assert_eq!(s.players[0].san_juan, 0);
    // Everything else is forced; the ship is refilled with the empty building circles:
    // seat 1 has 1 colonist for its indigo plantation or buildings (5 circles), seat 2
    // has none. Let seat 1 place it on the plantation.
    assert_eq!(legal(&rules, &s), ["place 0 on indigo", "place 1 on indigo"]);
    play(&rules, &mut s, "place 1 on indigo");
    assert_eq!(s.colonist_ship, 5, "3 + 2 empty circles of seat 1");
    check(&rules, &s);
}

/// S000:L412 (D.3): when the supply cannot refill the ship, the game ends after the round.
#[test]
fn colonist_shortage_ends_the_game_after_the_round() {
    let (rules, mut s) = game(3);
    let moved = s.colonist_supply - 2;
    s.colonist_supply = 2;
    s.players[2].san_juan += moved;
    start_role(&rules, &mut s, 0, "mayor");
    // With the privilege taken the supply is 1 < 3 players: the end is triggered.
    play(&rules, &mut s, "take colonist");
    while s.phase == Phase::Mayor {
        let first = legal(&rules, &s)[0].clone();
        play(&rules, &mut s, &first);
    }
    assert!(s.end_triggers & END_COLONISTS != 0);
    assert_eq!(s.phase, Phase::RoleSelection, "the round goes on");
    // Finish the round: seats 1 and 2 choose roles and decline everything.
    for (seat, role) in [(1u8, "builder"), (2, "trader")] {
        assert_eq!(s.current, seat);
        play(&rules, &mut s, role);
        while s.phase != Phase::RoleSelection && s.phase != Phase::GameOver {
            play(&rules, &mut s, "pass");
        }
    }
    assert_eq!(rules.to_move(&s), ToMove::Terminal);
    assert_eq!(rules.outcome(&s).unwrap().end, "colonists");
}

/// S000:L205, L243: one building each; the builder's −1 only when building; L244: a full
/// city ends the game after the round (S000:L413).
#[test]
fn builder_rules_and_city_end() {
    let (rules, mut s) = game(3);
    s.players[0].doubloons = 1;
    start_role(&rules, &mut s, 0, "builder");
    let l = legal(&rules, &s);
    assert!(l.contains(&"build small-sugar-mill".to_string()), "cost 2 − 1 privilege: {l:?}");
    assert!(!l.contains(&"build indigo-plant".to_string()));
    play(&rules, &mut s, "build small-sugar-mill");
    assert_eq!(s.players[0].doubloons, 0);
    // Seat 1 pays full price (2 doubloons): small indigo plant and small market only.
    assert_eq!(s.current, 1);
    assert_eq!(
        legal(&rules, &s),
        [
            "build small-indigo-plant",
            "build small-sugar-mill",
            "build small-market",
            "build hacienda",
            "build construction-hut",
            "pass"
        ]
    );
    play(&rules, &mut s, "pass");
    play(&rules, &mut s, "pass");

    // Filling the 12th city space triggers the end.
    let (rules, mut s) = game(3);
    for b in ["guild-hall", "residence", "fortress", "customs-house", "city-hall", "hacienda"] {
        build(&rules, &mut s, 0, b, 0);
    }
    s.players[0].doubloons = 10;
    start_role(&rules, &mut s, 0, "builder");
    play(&rules, &mut s, "build small-market");
    assert!(s.end_triggers & END_CITY != 0);
    assert_ne!(rules.to_move(&s), ToMove::Terminal, "the round goes on");
}

/// University (S000:L596-600): the owner *may* take one colonist from the supply onto
/// the new building (no violet building is compulsory, L513).
#[test]
fn university_colonist() {
    let (rules, mut s) = game(3);
    build(&rules, &mut s, 0, "university", 1);
    s.players[0].doubloons = 10;
    start_role(&rules, &mut s, 0, "builder");
    play(&rules, &mut s, "build indigo-plant");
    assert_eq!(legal(&rules, &s), ["take colonist", "pass"]);
    let mut declined = s.clone();
    play(&rules, &mut declined, "pass");
    assert_eq!(declined.players[0].city.iter().map(|b| b.colonists).sum::<u8>(), 1, "only the university's own");
    assert_eq!(declined.current, 1);
    play(&rules, &mut s, "take colonist");
    let plant = s.players[0].city.iter().find(|b| rules.buildings[b.building as usize].id == "indigo-plant").unwrap();
    assert_eq!(plant.colonists, 1, "only one, even with 3 circles");
    // Supply empty: from the ship.
    let (rules, mut s) = game(3);
    build(&rules, &mut s, 0, "university", 1);
    s.players[0].doubloons = 10;
    let rest = s.colonist_supply;
    s.colonist_supply = 0;
    s.players[1].san_juan += rest;
    let ship = s.colonist_ship;
    start_role(&rules, &mut s, 0, "builder");
    play(&rules, &mut s, "build indigo-plant");
    play(&rules, &mut s, "take colonist");
    assert_eq!(s.colonist_ship, ship - 1);
    check(&rules, &s);
}

/// Settler (S000:L137-149): the settler may take a quarry; others plantations only unless
/// they have an occupied construction hut; the row is refilled to players + 1.
#[test]
fn settler_quarry_privilege_and_refill() {
    let (rules, mut s) = game(4);
    build(&rules, &mut s, 2, "construction-hut", 1);
    start_role(&rules, &mut s, 0, "settler");
    assert!(legal(&rules, &s).contains(&"take quarry".to_string()));
    play(&rules, &mut s, "take quarry");
    assert_eq!(s.current, 1);
    assert!(!legal(&rules, &s).contains(&"take quarry".to_string()));
    play(&rules, &mut s, "pass");
    assert!(legal(&rules, &s).contains(&"take quarry".to_string()), "construction hut");
    play(&rules, &mut s, "take quarry");
    play(&rules, &mut s, "pass");
    assert_eq!(s.face_up.total(), 5);
    check(&rules, &s);
}

/// Hacienda (S000:L530-534): draw from the stack before taking a face-up tile, optional;
/// no hospice colonist for it (L558-560). Hospice: a colonist on the new tile, on a
/// quarry too.
#[test]
fn hacienda_and_hospice() {
    let (rules, mut s) = game(3);
    build(&rules, &mut s, 0, "hacienda", 1);
    build(&rules, &mut s, 0, "hospice", 1);
    start_role(&rules, &mut s, 0, "settler");
    let l = legal(&rules, &s);
    assert_eq!(l[0], "draw");
    assert!(l.contains(&"pass".to_string()));
    let occupied = s.players[0].plantations_occupied.total();
    play(&rules, &mut s, "draw");
    assert_eq!(s.players[0].plantations.total(), 2);
    assert_eq!(s.players[0].plantations_occupied.total(), occupied, "no colonist on the drawn tile");
    assert!(!legal(&rules, &s).contains(&"draw".to_string()));
    play(&rules, &mut s, "take quarry");
    // Hospice: the owner may take a colonist for the new tile (S000:L558).
    assert_eq!(legal(&rules, &s), ["take colonist", "pass"]);
    play(&rules, &mut s, "take colonist");
    assert_eq!(s.players[0].quarries_occupied, 1, "hospice colonist on a quarry");
    check(&rules, &s);
    // Declining the hacienda: taking a face-up tile straight away.
    let (rules, mut s) = game(3);
    build(&rules, &mut s, 1, "hacienda", 1);
    start_role(&rules, &mut s, 1, "settler");
    let take = legal(&rules, &s).into_iter().find(|a| a.starts_with("take ") && a != "take quarry").unwrap();
    play(&rules, &mut s, &take);
    assert_eq!(s.players[1].plantations.total(), 2, "one tile, no draw");
}

/// Hospice falls back to the ship when the supply is empty (S000:L560).
#[test]
fn hospice_falls_back_to_the_ship() {
    let (rules, mut s) = game(3);
    build(&rules, &mut s, 0, "hospice", 1);
    let rest = s.colonist_supply;
    s.colonist_supply = 0;
    s.players[1].san_juan += rest;
    let ship = s.colonist_ship;
    start_role(&rules, &mut s, 0, "settler");
    play(&rules, &mut s, "take quarry");
    play(&rules, &mut s, "take colonist");
    assert_eq!(s.colonist_ship, ship - 1);
    assert_eq!(s.players[0].quarries_occupied, 1);
}

/// Trader (S000:L267-304, L522-576): different kinds only unless an occupied office;
/// corn for 0 (+1 trader's privilege); markets; a full house ends the phase and is
/// emptied; a partly filled one stays.
#[test]
fn trader_rules() {
    let (rules, mut s) = game(4);
    give(&mut s, 0, CORN, 1);
    give(&mut s, 1, CORN, 1);
    give(&mut s, 2, CORN, 1);
    build(&rules, &mut s, 2, "office", 1);
    build(&rules, &mut s, 2, "small-market", 1);
    build(&rules, &mut s, 2, "large-market", 1);
    let d0 = s.players[0].doubloons;
    start_role(&rules, &mut s, 0, "trader");
    play(&rules, &mut s, "sell corn");
    assert_eq!(s.players[0].doubloons - d0, 1, "corn 0 + privilege 1");
    // Seat 1 cannot sell corn again: skipped without a decision.
    assert_eq!(s.current, 2);
    let d2 = s.players[2].doubloons;
    play(&rules, &mut s, "sell corn");
    assert_eq!(s.players[2].doubloons - d2, 3, "office allows the duplicate; markets +1 +2");
    assert_eq!(s.trading_house.len(), 2, "a partly filled house keeps its goods");
    check(&rules, &s);
}

/// A full trading house refuses even an office (S000:L566) and is emptied at the end (L276).
#[test]
fn full_trading_house() {
    let (rules, mut s) = game(4);
    for (seat, g) in [(0, CORN), (1, INDIGO), (2, SUGAR), (3, TOBACCO)] {
        give(&mut s, seat, g, 2);
    }
    build(&rules, &mut s, 0, "office", 1);
    start_role(&rules, &mut s, 0, "trader");
    for a in ["sell corn", "sell indigo", "sell sugar", "sell tobacco"] {
        play(&rules, &mut s, a);
    }
    assert_eq!(s.phase, Phase::RoleSelection);
    assert_eq!(s.trading_house.len(), 0, "emptied when full");
    check(&rules, &s);
}

/// Harbor (S000:L604-608): +1 VP per load, wharf included; the wharf ships all barrels of
/// a kind, once per phase, and is optional (L612-620).
#[test]
fn harbor_and_wharf_example() {
    let (rules, mut s) = game(4);
    build(&rules, &mut s, 1, "harbor", 1);
    build(&rules, &mut s, 1, "wharf", 1);
    set_ship(&mut s, 5, TOBACCO, 2);
    set_ship(&mut s, 6, SUGAR, 1);
    give(&mut s, 1, TOBACCO, 5);
    give(&mut s, 1, SUGAR, 2);
    start_role(&rules, &mut s, 0, "captain"); // seat 0 has nothing to load
    assert_eq!(s.current, 1);
    let l = legal(&rules, &s);
    assert!(l.contains(&"ship tobacco on wharf".to_string()) && !l.contains(&"pass".to_string()), "{l:?}");
    play(&rules, &mut s, "ship tobacco on 5");
    assert_eq!(s.players[1].vp, 4, "3 + 1");
    play(&rules, &mut s, "ship sugar on 6");
    assert_eq!(s.players[1].vp, 7, "2 + 1");
    // Only the wharf is left: optional.
    assert_eq!(legal(&rules, &s), ["ship tobacco on wharf", "pass"]);
    play(&rules, &mut s, "ship tobacco on wharf");
    assert_eq!(s.players[1].vp, 10, "2 + 1");
    check(&rules, &s);
}

/// Storage (S000:L336, L546-584): one barrel free, warehouses keep whole kinds; the player
/// chooses; goods of other kinds go back to the supply.
#[test]
fn storage_choices() {
    let (rules, mut s) = game(3);
    // Fill every ship with other kinds so nothing can be loaded.
    for (cap, g) in [(4, CORN), (5, INDIGO), (6, SUGAR)] {
        set_ship(&mut s, cap, g, cap);
    }
    give(&mut s, 1, TOBACCO, 3);
    give(&mut s, 1, COFFEE, 2);
    build(&rules, &mut s, 1, "small-warehouse", 1);
    start_role(&rules, &mut s, 0, "captain");
    assert_eq!(s.phase, Phase::CaptainStorage);
    assert_eq!(legal(&rules, &s), ["keep tobacco + coffee", "keep coffee + tobacco"]);
    play(&rules, &mut s, "keep coffee + tobacco");
    assert_eq!(s.players[1].goods[COFFEE], 2);
    assert_eq!(s.players[1].goods[TOBACCO], 1);
    // Full ships were emptied.
    assert!(s.ships().iter().all(|x| x.load() == 0));
    check(&rules, &s);
}

/// VP chips may run out (S000:L416): VP go on paper and the game ends after the round.
#[test]
fn vp_chips_run_out() {
    let (rules, mut s) = game(3);
    s.players[2].vp = s.vp_chips - 2;
    s.vp_chips = 2;
    give(&mut s, 0, CORN, 4);
    start_role(&rules, &mut s, 0, "captain");
    play(&rules, &mut s, "ship corn on 4");
    assert_eq!(s.players[0].vp, 5, "4 + 1, on paper past the chips");
    assert_eq!(s.vp_chips, 0);
    assert!(s.end_triggers & END_VP != 0);
    check(&rules, &s);
}

/// Ties are broken by doubloons plus goods (S000:L429); a further tie is shared.
#[test]
fn ties_broken_by_doubloons_and_goods() {
    let (rules, mut s) = game(3);
    s.phase = Phase::GameOver;
    s.players[0].doubloons = 5;
    s.players[1].doubloons = 3;
    give(&mut s, 1, CORN, 2);
    s.players[2].doubloons = 1;
    let o = rules.outcome(&s).unwrap();
    assert_eq!(o.scores, [0, 0, 0]);
    assert_eq!(o.ranks, [0, 0, 2]);
    assert_eq!(o.winners(), [0, 1]);
}

/// 2 players (S000:L679-699): 3 doubloons, 65 VP, 40 + 2 colonists, ships 4 and 6, 7
/// roles; each chooses three roles alternately, the 7th gets a doubloon.
#[test]
fn two_player_round() {
    let (rules, mut s) = game(2);
    assert_eq!(s.players.iter().map(|p| p.doubloons).collect::<Vec<_>>(), [3, 3]);
    assert_eq!((s.vp_chips, s.colonist_supply, s.colonist_ship), (65, 40, 2));
    assert_eq!(s.ships().iter().map(|x| x.capacity()).collect::<Vec<_>>(), [4, 6]);
    assert_eq!(legal(&rules, &s).len(), 7);
    let order = ["prospector", "settler", "builder", "mayor", "trader", "craftsman"];
    let mut choosers = vec![];
    for role in order {
        choosers.push(s.current);
        assert_eq!(s.phase, Phase::RoleSelection);
        play(&rules, &mut s, role);
        // Decline everything until the next role choice.
        while s.phase != Phase::RoleSelection {
            let l = legal(&rules, &s);
            let a = l.iter().find(|a| *a == "pass").cloned().unwrap_or_else(|| l[0].clone());
            play(&rules, &mut s, &a);
        }
    }
    assert_eq!(choosers, [0, 1, 0, 1, 0, 1]);
    assert_eq!(s.round, 2);
    assert_eq!(s.governor, 1);
    let captain = rules.role_index("captain").unwrap();
    assert_eq!(s.roles.coins()[captain], 1, "the 7th role gets a doubloon");
}

/// End of round (S000:L386-390): a doubloon on each unchosen role, whatever it holds; the
/// chooser takes them (L130); the prospector's privilege (L384).
#[test]
fn coins_on_unchosen_roles() {
    let (rules, mut s) = game(3);
    for role in ["trader", "builder", "settler"] {
        play(&rules, &mut s, role);
        while s.phase != Phase::RoleSelection {
            play(&rules, &mut s, "pass");
        }
    }
    let idx = |r: &str| rules.role_index(r).unwrap();
    // 3 players: no prospector card (S000:L96).
    assert!(s.roles.in_play() & (1 << idx("prospector")) == 0);
    assert_eq!(s.roles.coins()[idx("mayor")], 1);
    assert_eq!(s.roles.coins()[idx("captain")], 1);
    assert_eq!(s.roles.coins()[idx("craftsman")], 1);
    assert_eq!(s.roles.coins()[idx("trader")], 0);
    let d = s.players[1].doubloons;
    play(&rules, &mut s, "mayor");
    assert_eq!(s.players[1].doubloons, d + 1);
}

/// Island tiles and held tiles belong to an extension (the expansion's forests): the base
/// game has none, so a state that gives a player such tiles is refused, naming the key.
#[test]
fn extension_tiles_need_an_extension() {
    let (rules, s) = game(3);
    let mut tiles = s.clone();
    tiles.players[1].extension_tiles = 1;
    let e = rules.check_state(&tiles).unwrap_err().to_string();
    assert!(e.contains("/players/1/extension_tiles"), "{e}");
    let mut held = s.clone();
    let g = held.stack.pop().unwrap();
    held.held_tiles[g] = 1;
    let e = rules.check_state(&held).unwrap_err().to_string();
    assert!(e.contains("/held_tiles"), "{e}");
    // The base game's JSON has neither key.
    let v = rules.state_to_json(&s);
    assert!(v.get("held_tiles").is_none() && v.pointer("/players/0/extension_tiles").is_none(), "{v}");
}

/// The ruleset's sections read themselves, checks across them after: a role without
/// its `players` is refused (it used to vanish silently), and every problem of a broken
/// building is reported at its place.
#[test]
fn a_broken_ruleset_is_refused_with_every_problem() {
    use rulesmith_core::ruleset::{self, Bundled, Diagnostics};
    let file = rulesmith_testkit::kit::scratch_file(
        "pr-raw",
        "broken.toml",
        r#"[ruleset]
extends = "puerto-rico"

[[roles]]
id = "settler-2"
kind = "settler"
privilege = 0

[[buildings]]
id = "shed"
type = "violet"
produces = "corn"
cost = 1
vp = 1
column = 1
circles = 1
copies = { 2 = 1, 3 = 1, 4 = 1, 5 = 1 }
effect = { kind = "trade_bonus", doubloons = 1, vp = 2 }
"#,
    );
    let bundled = [Bundled { name: "puerto-rico", path: "rulesets/puerto-rico.toml", text: RULESET }];
    let loaded = ruleset::load(file.to_str().unwrap(), &bundled).unwrap();
    let mut d = Diagnostics::default();
    assert!(rulesmith_puerto_rico::decode(&loaded.tree, &mut d).is_none());
    let text = d.render(&loaded.sources);
    let _ = std::fs::remove_file(&file);
    for want in [
        "broken.toml:4:1: missing key `players`: expected an array",
        "broken.toml:12:12: a violet building has no `produces`",
        "broken.toml:18:49: unknown key `vp`: expected one of `doubloons`, `kind`",
    ] {
        assert!(text.contains(want), "{want}\n{text}");
    }
}

/// Building ids in state JSON go through the core's naming layer: a wrong id or count is
/// refused at its JSON Pointer, naming what was expected.
#[test]
fn wrong_building_ids_in_state_json_are_named_at_their_pointer() {
    let (rules, mut s) = game(3);
    build(&rules, &mut s, 0, "small-market", 0);
    let good = rules.state_to_json(&s);
    assert_eq!(rules.state_to_json(&rules.state_from_json(good.clone()).unwrap()), good);
    use serde_json::json;
    let cases: [(&str, serde_json::Value, &str); 4] = [
        (
            "/players/0/city/0/building",
            json!("castle"),
            "/players/0/city/0/building: unknown building `castle` (expected one of small-indigo-plant,",
        ),
        ("/buildings/castle", json!(1), "/buildings/castle: unknown key (expected one of small-indigo-plant,"),
        ("/buildings/harbor", json!(300), "/buildings/harbor: invalid value: integer `300`, expected u8"),
        ("/buildings", json!(3), "/buildings: invalid type: integer `3`, expected a map"),
    ];
    for (at, value, message) in cases {
        let err = rulesmith_testkit::kit::refused_json(&rules, &good, at, value);
        assert!(err.contains(message), "{at}: {err}");
    }
}

/// What the phases remember is kept in each phase's own part of the state, but its JSON
/// keys stay at the top: a bad value is still refused at its JSON Pointer (no `flatten`,
/// which would lose the pointer), and the state check's messages name the same keys.
#[test]
fn bad_phase_fields_in_state_json_are_named_at_their_pointer() {
    let (rules, s) = game(3);
    let good = rules.state_to_json(&s);
    for key in ["hacienda_used", "wharf_used", "captain_round", "captain_bonus_given", "mayor_group", "craftsman_kinds"]
    {
        assert!(good.get(key).is_some(), "{key} at the top of {good}");
    }
    use serde_json::json;
    let cases: [(&str, serde_json::Value, &str); 6] = [
        ("/hacienda_used", json!(-1), "/hacienda_used: invalid value: integer `-1`, expected u8"),
        ("/wharf_used", json!("all"), "/wharf_used: invalid type: string \"all\", expected u8"),
        ("/captain_round/current", json!("x"), "/captain_round/current: invalid type: string \"x\", expected u8"),
        ("/captain_bonus_given", json!(1), "/captain_bonus_given: invalid type: integer `1`, expected a boolean"),
        ("/mayor_group", json!(300), "/mayor_group: invalid value: integer `300`, expected u8"),
        ("/craftsman_kinds", json!([1]), "/craftsman_kinds: invalid type: sequence, expected u8"),
    ];
    for (at, value, message) in cases {
        let err = rulesmith_testkit::kit::refused_json(&rules, &good, at, value);
        assert!(err.contains(message), "{at}: {err}");
    }
    // The captain's round read well but out of step with the seat to move: the check names it.
    let mut captain = good.clone();
    captain["phase"] = json!("captain");
    captain["captain_round"]["current"] = json!(2);
    let err = rules.state_from_json(captain).unwrap_err().to_string();
    assert!(err.contains("/captain_round/current: seat 2 loads, but seat 0 is to move"), "{err}");
}

/// The state check knows the ruleset's goods: with eight goods (the most a ruleset may
/// have) a player's mayor groups run past the base game's five goods and their quarry,
/// and a state at such a group is no longer refused (the check assumed five goods).
#[test]
fn eight_goods_play_through_the_mayor() {
    use rulesmith_core::ruleset::{self, Bundled, Diagnostics};
    let mut text = String::from("[ruleset]\nextends = \"puerto-rico\"\n");
    for g in ["cocoa", "cotton", "rum"] {
        text.push_str(&format!(
            "\n[goods.{g}]\nprice = 2\nneeds_building = false\ncolour = \"magenta\"\nbarrels = {{ 2 = 8, 3 = 10, 4 = 10, 5 = 10 }}\nplantations = {{ 2 = 7, 3 = 10, 4 = 10, 5 = 10 }}\n"
        ));
    }
    text.push_str("\n[[buildings]]\nid = \"factory\"\neffect = { kind = \"production_bonus\", doubloons_by_kinds = [0, 0, 1, 2, 3, 5, 6, 7, 8] }\n");
    let file = rulesmith_testkit::kit::scratch_file("pr-eight", "eight-goods.toml", &text);
    let bundled = [Bundled { name: "puerto-rico", path: "rulesets/puerto-rico.toml", text: RULESET }];
    let loaded = ruleset::load(file.to_str().unwrap(), &bundled).unwrap();
    let _ = std::fs::remove_file(&file);
    let mut d = Diagnostics::default();
    let rules = rulesmith_puerto_rico::decode(&loaded.tree, &mut d).unwrap();
    assert_eq!(rules.good_count(), 8);
    let mut past_five = false;
    for seed in 1..=4 {
        // Every state of the game passes the state check (the test kit checks it).
        rulesmith_testkit::kit::random_game(&rules, 3, seed, Default::default(), |s: &State, _| {
            past_five |= s.phase == Phase::Mayor && s.mayor.group > 6 + s.players[s.current].city.len;
        });
    }
    assert!(past_five, "no game reached a mayor group past the sixth");
}
