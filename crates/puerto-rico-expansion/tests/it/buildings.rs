//! One test per new building and per worked example of the expansion rulebook, each
//! citing its source. S001 = seeds/001_bba87c16a3a645f9.txt ("Puerto Rico: La
//! Expansión", L487-639); D = shared/rules/game-data-sheet.md. Positions are set up on
//! the base engine with every building in the game (the draft has its own tests).

// Tests may unwrap and panic, helpers included.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common::*;
use rulesmith_core::game::{Game, ToMove};
use rulesmith_core::prelude::*;
use rulesmith_puerto_rico::board;
use rulesmith_puerto_rico::state::{END_COLONISTS, Phase};
use rulesmith_puerto_rico::{Good, State as BaseState};
use rulesmith_puerto_rico_expansion::Rules;

// The bundled ruleset's goods, in its `[goods.*]` order.
const CORN: Good = Good::at(0);
const INDIGO: Good = Good::at(1);
const SUGAR: Good = Good::at(2);
const TOBACCO: Good = Good::at(3);
const COFFEE: Good = Good::at(4);

fn game_with(extra: &str, players: usize) -> (Rules, BaseState) {
    let rules = rules_with(extra);
    let s = rules.base.new_game(players, 11).unwrap();
    (rules, s)
}

fn idx(rules: &Rules, id: &str) -> usize {
    rules.base.building_index(id).unwrap()
}

// ---------------------------------------------------------------- aqueduct

/// Aqueduct, S001:L507-509: one more indigo / sugar when producing in the (normal) indigo
/// plant / sugar mill, not in the small ones. Example 1 (S001:L511): 0 indigo and 1 sugar
/// in the small sugar mill → 1 sugar.
#[test]
fn aqueduct_example_1_small_sugar_mill() {
    let (rules, mut s) = game(4);
    build(&rules, &mut s, 2, "aqueduct", 1);
    build(&rules, &mut s, 2, "small-sugar-mill", 1);
    plant(&mut s, 2, SUGAR, 1, 1);
    check(&rules, &s);
    start_role(&rules, &mut s, 1, "craftsman");
    assert_eq!(s.players[2].goods[SUGAR], 1);
    assert_eq!(s.players[2].goods[INDIGO], 0);
}

/// Aqueduct example 2 (S001:L513): 1 indigo in the indigo plant and 3 sugar in the sugar
/// mill → 2 indigo and 4 sugar.
#[test]
fn aqueduct_example_2_normal_plants() {
    let (rules, mut s) = game(4);
    build(&rules, &mut s, 2, "aqueduct", 1);
    build(&rules, &mut s, 2, "indigo-plant", 1);
    build(&rules, &mut s, 2, "sugar-mill", 3);
    plant(&mut s, 2, INDIGO, 1, 1);
    plant(&mut s, 2, SUGAR, 3, 3);
    start_role(&rules, &mut s, 1, "craftsman");
    assert_eq!(s.players[2].goods[INDIGO], 2);
    assert_eq!(s.players[2].goods[SUGAR], 4);
    // Unoccupied, it does nothing (S001:L509 "acueducto ocupado").
    let (rules, mut s) = game(4);
    build(&rules, &mut s, 2, "aqueduct", 0);
    build(&rules, &mut s, 2, "sugar-mill", 3);
    plant(&mut s, 2, SUGAR, 3, 3);
    start_role(&rules, &mut s, 1, "craftsman");
    assert_eq!(s.players[2].goods[SUGAR], 3);
}

// ---------------------------------------------------------------- forest house

/// Forest house, S001:L517-519, L525: on the settler turn the owner of an occupied forest
/// house may place a forest instead of a plantation (or quarry), discarding a face-down
/// plantation (modelled as that tile placed face down, D B.4); forests need no colonist.
#[test]
fn forest_house_places_a_forest() {
    let (rules, mut s) = game(3);
    build(&rules, &mut s, 1, "forest-house", 1);
    start_role(&rules, &mut s, 0, "settler");
    assert!(!legal(&rules, &s).contains(&"forest".to_string()), "no forest house");
    let take = legal(&rules, &s).into_iter().find(|a| a.starts_with("take ") && a != "take quarry").unwrap();
    play(&rules, &mut s, &take);
    assert_eq!(s.current, 1);
    let l = legal(&rules, &s);
    assert_eq!(l[l.len() - 2..], ["forest".to_string(), "pass".to_string()]);
    let stack = s.stack.len;
    play(&rules, &mut s, "forest");
    assert_eq!(s.players[1].extension_tiles, 1);
    assert_eq!(s.stack.len, stack - 1, "the tile comes from the face-down stack");
    assert_eq!(s.held_tiles.total(), 1);
    assert_eq!(board::island_used(&s.players[1]), 2, "a forest fills an island space");
    // A forest has no circle: mayor placement never offers it, the refill ignores it.
    assert_eq!(board::colonists(&s.players[1]), 1);
    // Unoccupied, no forest (S001:L517 "ocupada").
    let (rules, mut s) = game(3);
    build(&rules, &mut s, 0, "forest-house", 0);
    start_role(&rules, &mut s, 0, "settler");
    assert!(!legal(&rules, &s).contains(&"forest".to_string()));
}

/// S001:L519: when no plantation tile is left face down (stack and discards), no forest.
#[test]
fn forests_run_out_with_the_plantations() {
    let (rules, mut s) = game(3);
    build(&rules, &mut s, 0, "forest-house", 1);
    while let Some(g) = s.stack.pop() {
        s.face_up[g] += 1;
    }
    check(&rules, &s);
    start_role(&rules, &mut s, 0, "settler");
    let l = legal(&rules, &s);
    assert!(!l.contains(&"forest".to_string()) && l.contains(&"take corn".to_string()), "{l:?}");
}

/// S001:L521-523, L533: 1 doubloon off per 2 forests, occupied forest house or not, on top
/// of the builder's and the quarries' discounts and with no column limit. The example: 6
/// forests, 2 occupied quarries, builder, large warehouse: 6 − 1 − 2 − 3 = 0.
#[test]
fn forest_house_cost_example() {
    let (rules, mut s) = game(4);
    build(&rules, &mut s, 0, "forest-house", 0);
    forests(&mut s, 0, 6);
    quarries(&mut s, 0, 2, 2);
    s.players[0].doubloons = 0;
    check(&rules, &s);
    let p = &s.players[0];
    assert_eq!(board::build_cost(&rules.base, p, idx(&rules, "large-warehouse"), 1), 0);
    // No column limit for forests: the small warehouse (3, column 1) with 2 quarries and
    // 6 forests: 3 − 1 − 3 → 0; with 2 forests: 3 − 1 − 1 = 1.
    assert_eq!(board::build_cost(&rules.base, p, idx(&rules, "small-warehouse"), 0), 0);
    let mut two = *p;
    two.extension_tiles = 2;
    assert_eq!(board::build_cost(&rules.base, &two, idx(&rules, "small-warehouse"), 0), 1);
    // Harbor (8, column 3): 8 − 1 − 2 − 3 = 2.
    assert_eq!(board::build_cost(&rules.base, p, idx(&rules, "harbor"), 1), 2);
    start_role(&rules, &mut s, 0, "builder");
    play(&rules, &mut s, "build large-warehouse");
    assert_eq!(s.players[0].doubloons, 0);
    assert!(s.players[0].city.has(idx(&rules, "large-warehouse") as u8));
}

/// S001:L527: with an occupied hacienda, the owner may place a forest instead of the
/// extra plantation, after drawing and seeing it; the drawn tile is then discarded (it
/// lies face down as the forest). (The bundled draft lets both be in one game; the
/// `[draft] exclusive` option keeps them apart.)
#[test]
fn forest_house_with_hacienda() {
    let (rules, mut s) = game(3);
    build(&rules, &mut s, 0, "hacienda", 1);
    build(&rules, &mut s, 0, "forest-house", 1);
    start_role(&rules, &mut s, 0, "settler");
    let top = *s.stack.as_slice().last().unwrap();
    play(&rules, &mut s, "draw");
    assert_eq!(legal(&rules, &s), [format!("plant {}", rules.base.good_name(top)), "forest".to_string()]);
    let plantations = s.players[0].plantations.total();
    play(&rules, &mut s, "forest");
    assert_eq!(s.players[0].extension_tiles, 1);
    assert_eq!(s.players[0].plantations.total(), plantations);
    assert_eq!(s.held_tiles[top], 1, "the drawn tile");
    // The turn goes on: the face-up tile (or another forest), no second draw.
    let l = legal(&rules, &s);
    assert!(!l.contains(&"draw".to_string()) && l.contains(&"forest".to_string()), "{l:?}");
    play(&rules, &mut s, "take quarry");
    assert_eq!(s.players[0].quarries, 1);
    // Or planted as usual.
    let (rules, mut s) = game(3);
    build(&rules, &mut s, 0, "hacienda", 1);
    build(&rules, &mut s, 0, "forest-house", 1);
    start_role(&rules, &mut s, 0, "settler");
    let top = *s.stack.as_slice().last().unwrap();
    play(&rules, &mut s, "draw");
    play(&rules, &mut s, &format!("plant {}", rules.base.good_name(top)));
    assert_eq!(s.players[0].plantations[top], 1 + u8::from(top == INDIGO));
    assert_eq!(s.players[0].extension_tiles, 0);
}

/// S001:L529: with an occupied library the settler may place 0, 1 or 2 forests instead of
/// plantations (the first tile and the extra one).
#[test]
fn forest_house_with_library() {
    let (rules, mut s) = game(3);
    build(&rules, &mut s, 0, "library", 1);
    build(&rules, &mut s, 0, "forest-house", 1);
    start_role(&rules, &mut s, 0, "settler");
    play(&rules, &mut s, "forest");
    play(&rules, &mut s, "pass");
    play(&rules, &mut s, "pass");
    assert_eq!(s.current, 0, "the chooser's extra tile");
    assert!(legal(&rules, &s).contains(&"forest".to_string()));
    play(&rules, &mut s, "forest");
    assert_eq!(s.players[0].extension_tiles, 2);
    assert_eq!(s.phase, Phase::RoleSelection);
}

/// S001:L531: with an occupied hospice, placing a forest sends the hospice's colonist to
/// San Juan.
#[test]
fn forest_house_with_hospice() {
    let (rules, mut s) = game(3);
    build(&rules, &mut s, 0, "hospice", 1);
    build(&rules, &mut s, 0, "forest-house", 1);
    let supply = s.colonist_supply;
    start_role(&rules, &mut s, 0, "settler");
    play(&rules, &mut s, "forest");
    // The hospice's colonist is optional (S000:L558): offered, taken.
    play(&rules, &mut s, "take colonist");
    assert_eq!(s.players[0].san_juan, 1);
    assert_eq!(s.colonist_supply, supply - 1);
}

/// A ruleset option (D B.4): the forest tile from the face-up row instead of the stack.
#[test]
fn forest_from_the_face_up_row_option() {
    let extra = "[[buildings]]\nid = \"forest-house\"\neffect = { tile_from = \"face_up\" }\n";
    let (rules, mut s) = game_with(extra, 3);
    build(&rules, &mut s, 0, "forest-house", 1);
    start_role(&rules, &mut s, 0, "settler");
    let g = Good::every().find(|&g| s.face_up[g] > 0).unwrap();
    let stack = s.stack.len;
    play(&rules, &mut s, &format!("forest {}", rules.base.good_name(g)));
    assert_eq!((s.players[0].extension_tiles, s.stack.len, s.held_tiles[g]), (1, stack, 1));
}

/// Forests count as filled island spaces for the residence (D B.4 [I]: "llenas").
#[test]
fn residence_counts_forests() {
    let (rules, mut s) = game(3);
    build(&rules, &mut s, 0, "residence", 1);
    forests(&mut s, 0, 9);
    assert_eq!(board::island_used(&s.players[0]), 10);
    assert_eq!(board::building_points(&rules.base, &s.players[0]), 4 + 5);
}

// ---------------------------------------------------------------- black market

/// Black market example (S001:L541-543): the owner wants a harbor (8) with 6 doubloons;
/// he returns an indigo and a colonist for the 2 missing doubloons; he may not return a VP
/// too, for then a doubloon would be left over. Never the black market's own colonist
/// (S001:L545).
#[test]
fn black_market_example() {
    let (rules, mut s) = game(4);
    build(&rules, &mut s, 1, "black-market", 1);
    s.players[1].doubloons = 6;
    give(&mut s, 1, INDIGO, 1);
    s.colonist_supply -= 1;
    s.players[1].san_juan = 1;
    vp(&mut s, 1, 2);
    check(&rules, &s);
    start_role(&rules, &mut s, 0, "builder");
    play(&rules, &mut s, "pass");
    assert_eq!(s.current, 1);
    assert!(legal(&rules, &s).contains(&"build harbor".to_string()));
    let supply = s.colonist_supply;
    play(&rules, &mut s, "build harbor");
    assert_eq!(s.phase, Phase::BuildPayment);
    assert_eq!(s.players[1].doubloons, 0, "every doubloon goes");
    assert_eq!(legal(&rules, &s), ["return colonist from san-juan", "pass"]);
    play(&rules, &mut s, "return colonist from san-juan");
    // One colonist at most: on to the goods.
    assert_eq!(legal(&rules, &s), ["return indigo", "pass"]);
    play(&rules, &mut s, "return indigo");
    assert_eq!(s.phase, Phase::Builder);
    let p = &s.players[1];
    assert!(p.city.has(idx(&rules, "harbor") as u8));
    assert_eq!((p.doubloons, p.goods[INDIGO], p.vp, p.san_juan), (0, 0, 2, 0));
    assert_eq!(s.colonist_supply, supply + 1);
    assert_eq!(s.goods_supply[INDIGO], 11);
}

/// S001:L539: only when short of doubloons; S001:L537: at most one colonist, one good
/// and one VP, so at most 3 doubloons; a VP returned goes back to the chips.
#[test]
fn black_market_limits() {
    let (rules, mut s) = game(4);
    build(&rules, &mut s, 0, "black-market", 1);
    give(&mut s, 0, CORN, 3);
    s.players[0].doubloons = 8;
    start_role(&rules, &mut s, 0, "builder");
    play(&rules, &mut s, "build harbor");
    assert_eq!(s.players[0].doubloons, 1, "not short: paid in doubloons (8 − 1 privilege)");
    assert_eq!(s.players[0].goods[CORN], 3);

    // Short by 2 with only goods: one good at most, so no.
    let (rules, mut s) = game(4);
    build(&rules, &mut s, 1, "black-market", 1);
    give(&mut s, 1, CORN, 3);
    s.players[1].doubloons = 6;
    start_role(&rules, &mut s, 0, "builder");
    play(&rules, &mut s, "pass");
    let l = legal(&rules, &s);
    assert!(l.contains(&"build factory".to_string()) && !l.contains(&"build harbor".to_string()), "{l:?}");
    // Short by 3 with a colonist, a good and a VP: everything goes, colonist first.
    let (rules, mut s) = game(4);
    build(&rules, &mut s, 1, "black-market", 1);
    build(&rules, &mut s, 1, "indigo-plant", 2);
    s.players[1].san_juan = 1;
    s.colonist_supply -= 1;
    give(&mut s, 1, CORN, 1);
    vp(&mut s, 1, 1);
    s.players[1].doubloons = 6;
    start_role(&rules, &mut s, 0, "builder");
    play(&rules, &mut s, "pass");
    play(&rules, &mut s, "build wharf");
    assert_eq!(
        legal(&rules, &s),
        ["return colonist from san-juan", "return colonist from indigo-plant"],
        "never from the black market"
    );
    let chips = s.vp_chips;
    play(&rules, &mut s, "return colonist from indigo-plant");
    // The good and the VP are forced.
    assert_eq!(s.phase, Phase::Builder);
    assert_eq!((s.players[1].vp, s.vp_chips, s.players[1].goods.total()), (0, chips + 1, 0));
    assert_eq!(colonists_on(&rules, &s, 1, "indigo-plant"), 1);
    assert!(s.players[1].city.has(idx(&rules, "wharf") as u8));
}

/// S001:L544: a VP or colonist returned after an end condition was reached does not undo
/// it: the game ends at the end of the round.
#[test]
fn black_market_after_an_end_condition() {
    let (rules, mut s) = game(3);
    build(&rules, &mut s, 0, "black-market", 1);
    s.players[0].san_juan = 1;
    s.colonist_supply -= 1;
    s.players[0].doubloons = 0;
    s.end_triggers |= END_COLONISTS;
    start_role(&rules, &mut s, 0, "builder");
    // Small market 1 − 1 privilege = 0; small sugar mill 2 − 1 = 1: a colonist pays.
    play(&rules, &mut s, "build small-sugar-mill");
    assert_eq!((s.colonist_supply, s.players[0].san_juan), (54, 0), "the colonist went back");
    assert!(s.end_triggers & END_COLONISTS != 0);
    for (seat, role) in [(1u8, "trader"), (2, "settler")] {
        pass_until(&rules, &mut s, Phase::RoleSelection);
        assert_eq!(s.current, seat);
        play(&rules, &mut s, role);
    }
    pass_until(&rules, &mut s, Phase::GameOver);
    assert_eq!(rules.base.to_move(&s), ToMove::Terminal);
}

// ---------------------------------------------------------------- storehouse

/// Storehouse (S001:L549-551): at the end of the captain phase, 3 barrels of any kinds
/// besides the free one: here 4 of 3 corn, 2 sugar, 1 coffee, each choice once.
#[test]
fn storehouse_keeps_three_more_barrels() {
    let (rules, mut s) = game(4);
    fill_ships_rest(&mut s);
    build(&rules, &mut s, 1, "storehouse", 1);
    give(&mut s, 1, CORN, 3);
    give(&mut s, 1, SUGAR, 2);
    give(&mut s, 1, COFFEE, 1);
    check(&rules, &s);
    start_role(&rules, &mut s, 0, "captain");
    assert_eq!(s.phase, Phase::CaptainStorage);
    assert_eq!(
        legal(&rules, &s),
        [
            "keep 1 corn 2 sugar 1 coffee",
            "keep 2 corn 1 sugar 1 coffee",
            "keep 2 corn 2 sugar",
            "keep 3 corn 1 coffee",
            "keep 3 corn 1 sugar"
        ]
    );
    play(&rules, &mut s, "keep 3 corn 1 coffee");
    assert_eq!(s.players[1].goods.total(), 4);
    assert_eq!(s.goods_supply[SUGAR], 11);
}

/// Ships 5 and 6 full of indigo and tobacco, ship 7 full of coffee: nothing else loads.
fn fill_ships_rest(s: &mut BaseState) {
    for x in s.ships.iter_mut() {
        x.unload_into(&mut s.goods_supply, Good::index);
    }
    fill_ships(s, &[INDIGO, TOBACCO, COFFEE]);
}

/// Storehouse example (S001:L553): with a large warehouse too, every barrel of 2 kinds
/// and 4 more barrels of any kinds.
#[test]
fn storehouse_with_large_warehouse_example() {
    let (rules, mut s) = game(4);
    fill_ships_rest(&mut s);
    build(&rules, &mut s, 1, "storehouse", 1);
    build(&rules, &mut s, 1, "large-warehouse", 1);
    give(&mut s, 1, CORN, 5);
    give(&mut s, 1, SUGAR, 4);
    give(&mut s, 1, INDIGO, 3);
    give(&mut s, 1, COFFEE, 2);
    check(&rules, &s);
    start_role(&rules, &mut s, 0, "captain");
    let l = legal(&rules, &s);
    assert!(l.contains(&"keep 5 corn 3 indigo 4 sugar 1 coffee".to_string()), "{l:?}");
    assert!(l.contains(&"keep 5 corn 2 indigo 4 sugar 2 coffee".to_string()), "{l:?}");
    // Of 14 barrels, at most 2 whole kinds + 4: 5 + 4 + 4 = 13.
    let most = l.iter().map(|a| a.split_whitespace().filter_map(|w| w.parse::<u32>().ok()).sum::<u32>()).max().unwrap();
    assert_eq!(most, 5 + 4 + 4);
    play(&rules, &mut s, "keep 5 corn 3 indigo 4 sugar 1 coffee");
    assert_eq!(s.players[1].goods.total(), 13);
}

// ---------------------------------------------------------------- guest house

/// Guest house (S001:L557): in the mayor phase up to two colonists go on it.
#[test]
fn guest_house_takes_two_colonists_in_the_mayor_phase() {
    let (rules, mut s) = game(3);
    build(&rules, &mut s, 0, "guest-house", 0);
    s.players[0].san_juan = 1;
    s.colonist_supply -= 1;
    start_role(&rules, &mut s, 0, "mayor");
    play(&rules, &mut s, "pass");
    // 2 colonists (1 + 1 from the ship) for the indigo plantation and 2 guest circles.
    assert_eq!(legal(&rules, &s), ["place 0 on indigo", "place 1 on indigo"]);
    play(&rules, &mut s, "place 0 on indigo");
    assert_eq!(colonists_on(&rules, &s, 0, "guest-house"), 2);
}

/// Guest house example (S001:L559-561): at the end of the captain phase the owner moves a
/// guest to his storehouse and uses it at once to keep 3 more barrels; later he chooses
/// the trader and moves the second guest to the library, doubling the trader's
/// privilege. Guests work at once where they go and stay there (until the next mayor
/// phase takes every colonist up).
#[test]
fn guest_house_example() {
    let (rules, mut s) = game(4);
    fill_ships_rest(&mut s);
    build(&rules, &mut s, 0, "guest-house", 2);
    build(&rules, &mut s, 0, "storehouse", 0);
    build(&rules, &mut s, 0, "library", 0);
    give(&mut s, 0, CORN, 2);
    give(&mut s, 0, SUGAR, 2);
    check(&rules, &s);
    start_role(&rules, &mut s, 1, "captain");
    // The owner cannot load; on his captain turn he may move guests (S001:L557
    // "durante"), and passes.
    assert_eq!(s.phase, Phase::Captain);
    assert_eq!(s.current, 0);
    assert_eq!(legal(&rules, &s), ["guest to indigo", "guest to storehouse", "guest to library", "pass"]);
    play(&rules, &mut s, "pass");
    // Nobody can load; before the storage, guests may move again.
    assert_eq!(s.phase, Phase::Window);
    play(&rules, &mut s, "guest to storehouse");
    play(&rules, &mut s, "pass");
    // The storehouse keeps the 4 barrels (1 + 3): nothing to decide.
    assert_eq!(s.phase, Phase::RoleSelection);
    assert_eq!(s.players[0].goods.total(), 4);
    assert_eq!(colonists_on(&rules, &s, 0, "storehouse"), 1);
    // The trader: on his own turn, the second guest to the library before selling.
    start_role(&rules, &mut s, 0, "trader");
    assert_eq!(s.phase, Phase::Trader);
    play(&rules, &mut s, "guest to library");
    assert_eq!(s.phase, Phase::Trader);
    let d = s.players[0].doubloons;
    play(&rules, &mut s, "sell sugar");
    assert_eq!(s.players[0].doubloons - d, 2 + 2, "sugar 2 + trader's privilege doubled");
    assert_eq!(colonists_on(&rules, &s, 0, "guest-house"), 0);
    assert_eq!(colonists_on(&rules, &s, 0, "library"), 1);
}

/// Guests move only outside the mayor phase (S001:L559 "cualquier otra fase"): in a
/// window at the start of a phase where players do not act in turn (the craftsman's),
/// on the owner's own turn in the others (S001:L557 "durante"); the windows and own-turn
/// moves are ruleset options (README): with all off, guests never move.
#[test]
fn guest_windows() {
    let (rules, mut s) = game(3);
    build(&rules, &mut s, 0, "guest-house", 2);
    start_role(&rules, &mut s, 1, "mayor");
    assert_ne!(s.phase, Phase::Window);
    let (rules, mut s) = game(3);
    build(&rules, &mut s, 0, "guest-house", 2);
    start_role(&rules, &mut s, 1, "craftsman");
    assert_eq!(s.phase, Phase::Window);
    assert_eq!(legal(&rules, &s), ["guest to indigo", "pass"]);
    play(&rules, &mut s, "guest to indigo");
    assert_eq!(s.players[0].plantations_occupied[INDIGO], 1);
    // One guest left, but no empty place: the phase goes on.
    assert_ne!(s.phase, Phase::Window);
    // The builder: no window; the owner moves guests on his own turn, before building.
    let (rules, mut s) = game(3);
    build(&rules, &mut s, 0, "guest-house", 2);
    start_role(&rules, &mut s, 1, "builder");
    assert_eq!(s.phase, Phase::Builder);
    while s.current != 0 {
        play(&rules, &mut s, "pass");
    }
    assert!(legal(&rules, &s).contains(&"guest to indigo".to_string()));

    let extra = "[[buildings]]\nid = \"guest-house\"\neffect = { at_phase_start = false, before_storage = false, on_own_turn = false }\n";
    let (rules, mut s) = game_with(extra, 3);
    build(&rules, &mut s, 0, "guest-house", 2);
    start_role(&rules, &mut s, 1, "builder");
    assert_eq!(s.phase, Phase::Builder);
}

// ---------------------------------------------------------------- trading post

/// Trading post (S001:L565-571): the owner sells his one good in the trading house or in
/// his trading post; there any good, even one already in the trading house, even when it
/// is full, at the normal price plus the trader's privilege; markets add nothing; the
/// good goes to the supply.
#[test]
fn trading_post() {
    let (rules, mut s) = game(4);
    build(&rules, &mut s, 0, "trading-post", 1);
    build(&rules, &mut s, 0, "small-market", 1);
    build(&rules, &mut s, 0, "large-market", 1);
    give(&mut s, 0, COFFEE, 2);
    for g in [CORN, INDIGO, SUGAR, TOBACCO] {
        s.goods_supply[g] -= 1;
        s.trading_house.put(g);
    }
    check(&rules, &s);
    start_role(&rules, &mut s, 0, "trader");
    assert_eq!(legal(&rules, &s), ["sell coffee to trading-post", "pass"], "the trading house is full");
    let d = s.players[0].doubloons;
    play(&rules, &mut s, "sell coffee to trading-post");
    assert_eq!(s.players[0].doubloons - d, 4 + 1, "coffee 4 + privilege 1, no market bonus");
    assert_eq!(s.goods_supply[COFFEE], 8);
    // The full trading house is emptied at the end of the phase as usual.
    assert_eq!(s.phase, Phase::RoleSelection);
    assert_eq!(s.trading_house.len(), 0);

    // A kind already in the (not full) trading house; another player sells there after.
    let (rules, mut s) = game(4);
    build(&rules, &mut s, 1, "trading-post", 1);
    give(&mut s, 0, SUGAR, 1);
    give(&mut s, 1, SUGAR, 1);
    start_role(&rules, &mut s, 0, "trader");
    play(&rules, &mut s, "sell sugar");
    assert_eq!(legal(&rules, &s), ["sell sugar to trading-post", "pass"]);
    let d = s.players[1].doubloons;
    play(&rules, &mut s, "sell sugar to trading-post");
    assert_eq!(s.players[1].doubloons - d, 2);
    assert_eq!(s.trading_house.len(), 1);
}

// ---------------------------------------------------------------- church

/// Church (S001:L577): building a column 2 or 3 building gives 1 VP, column 4 gives 2,
/// column 1 nothing (D B.3, P-GOB 0/1/1/2).
#[test]
fn church_vp_by_column() {
    for (id, vp) in [("small-market", 0), ("hospice", 1), ("harbor", 1), ("guild-hall", 2)] {
        let (rules, mut s) = game(4);
        build(&rules, &mut s, 0, "church", 1);
        s.players[0].doubloons = 20;
        start_role(&rules, &mut s, 0, "builder");
        play(&rules, &mut s, &format!("build {id}"));
        assert_eq!(s.players[0].vp, vp, "{id}");
        assert_eq!(s.vp_chips, 100 - vp, "{id}");
    }
    // Unoccupied: nothing.
    let (rules, mut s) = game(4);
    build(&rules, &mut s, 0, "church", 0);
    s.players[0].doubloons = 20;
    start_role(&rules, &mut s, 0, "builder");
    play(&rules, &mut s, "build harbor");
    assert_eq!(s.players[0].vp, 0);
}

/// S001:L577: no VP for building the church itself, even with an occupied university.
#[test]
fn church_gives_nothing_for_itself() {
    let (rules, mut s) = game(4);
    build(&rules, &mut s, 0, "university", 1);
    s.players[0].doubloons = 20;
    start_role(&rules, &mut s, 0, "builder");
    play(&rules, &mut s, "build church");
    play(&rules, &mut s, "take colonist");
    assert_eq!(colonists_on(&rules, &s, 0, "church"), 1, "the university's colonist");
    assert_eq!(s.players[0].vp, 0);
}

// ---------------------------------------------------------------- small wharf

/// Small wharf example (S001:L585-587): the owner ships 3 corn, 1 sugar and 2 tobacco
/// and gets 3 VP (1 per 2 barrels); he keeps 1 sugar and 1 tobacco. Any mix, as many or
/// as few as he likes, at least one.
#[test]
fn small_wharf_example() {
    let (rules, mut s) = game(4);
    for x in s.ships.iter_mut() {
        *x = rulesmith_core::cargo::Hold::new(x.capacity());
    }
    build(&rules, &mut s, 0, "small-wharf", 1);
    give(&mut s, 0, CORN, 3);
    give(&mut s, 0, SUGAR, 2);
    give(&mut s, 0, TOBACCO, 3);
    // Every ship full of other goods (corn's ship full), so no ship can be loaded.
    set_ship(&mut s, 5, INDIGO, 5);
    set_ship(&mut s, 6, COFFEE, 6);
    set_ship(&mut s, 7, CORN, 7);
    check(&rules, &s);
    start_role(&rules, &mut s, 1, "captain");
    assert_eq!(s.current, 0);
    assert_eq!(legal(&rules, &s), ["use small-wharf", "pass"], "optional, like the wharf");
    play(&rules, &mut s, "use small-wharf");
    assert_eq!(legal(&rules, &s), ["load 0 corn", "load 1 corn", "load 2 corn", "load 3 corn"]);
    play(&rules, &mut s, "load 3 corn");
    play(&rules, &mut s, "load 1 sugar");
    play(&rules, &mut s, "load 2 tobacco");
    let p = &s.players[0];
    assert_eq!((p.vp, p.goods[SUGAR], p.goods[TOBACCO], p.goods[CORN]), (3, 1, 1, 0));
    // Used once per phase: nothing more to do; the storage keeps one barrel.
    assert_eq!(s.phase, Phase::CaptainStorage);
    assert_eq!(legal(&rules, &s), ["keep + sugar", "keep + tobacco"]);
}

/// S001:L585: at least one barrel; S001:L587: the wharf may be used on a different turn
/// of the same captain phase.
#[test]
fn small_wharf_and_wharf() {
    let (rules, mut s) = game(4);
    fill_ships_rest(&mut s);
    build(&rules, &mut s, 0, "small-wharf", 1);
    build(&rules, &mut s, 0, "wharf", 1);
    give(&mut s, 0, CORN, 2);
    give(&mut s, 0, SUGAR, 1);
    start_role(&rules, &mut s, 0, "captain");
    play(&rules, &mut s, "use small-wharf");
    play(&rules, &mut s, "load 0 corn");
    // Nothing loaded so far: at least the sugar.
    assert_eq!(s.phase, Phase::Captain, "the last barrel was forced");
    assert_eq!(s.players[0].vp, 1, "0 VP for 1 barrel + 1 captain's privilege");
    assert_eq!(legal(&rules, &s), ["ship corn on wharf", "pass"]);
    play(&rules, &mut s, "ship corn on wharf");
    assert_eq!(s.players[0].vp, 3);
}

/// Whether the harbor's VP apply to the small wharf is not stated (D B.3 [I]); chosen
/// default yes (`harbor_bonus = true`), and a ruleset option.
#[test]
fn small_wharf_and_harbor_option() {
    for (extra, vp) in [("", 2), ("[[buildings]]\nid = \"small-wharf\"\neffect = { harbor_bonus = false }\n", 1)] {
        let (rules, mut s) = game_with(extra, 4);
        fill_ships_rest(&mut s);
        build(&rules, &mut s, 0, "small-wharf", 1);
        build(&rules, &mut s, 0, "harbor", 1);
        give(&mut s, 0, CORN, 3);
        start_role(&rules, &mut s, 1, "captain");
        play(&rules, &mut s, "use small-wharf");
        play(&rules, &mut s, "load 3 corn");
        assert_eq!(s.players[0].vp, vp, "{extra}");
    }
}

// ---------------------------------------------------------------- lighthouse

/// Lighthouse example (S001:L595): the captain owns an occupied lighthouse; he loads 2
/// corn on the corn ship: 3 VP and 2 doubloons (1 for the lighthouse, 1 for being
/// captain). Next turn, 3 indigo on his wharf: 3 VP and 1 doubloon. Third turn, 3 sugar
/// on his small wharf: 1 VP and 1 doubloon. (S001:L593: no loading needed for the
/// captain's doubloon, and a non-captain gets the per-load doubloon.)
#[test]
fn lighthouse_example() {
    let (rules, mut s) = game(4);
    for x in s.ships.iter_mut() {
        *x = rulesmith_core::cargo::Hold::new(x.capacity());
    }
    set_ship(&mut s, 5, CORN, 1);
    set_ship(&mut s, 6, TOBACCO, 6);
    set_ship(&mut s, 7, COFFEE, 7);
    for b in ["lighthouse", "wharf", "small-wharf"] {
        build(&rules, &mut s, 0, b, 1);
    }
    give(&mut s, 0, CORN, 2);
    give(&mut s, 0, INDIGO, 3);
    give(&mut s, 0, SUGAR, 3);
    check(&rules, &s);
    let d = s.players[0].doubloons;
    start_role(&rules, &mut s, 0, "captain");
    play(&rules, &mut s, "ship corn on 5");
    assert_eq!((s.players[0].vp, s.players[0].doubloons - d), (3, 2));
    assert_eq!(s.current, 0, "nobody else can load");
    play(&rules, &mut s, "ship indigo on wharf");
    assert_eq!((s.players[0].vp, s.players[0].doubloons - d), (6, 3));
    play(&rules, &mut s, "use small-wharf");
    play(&rules, &mut s, "load 3 sugar");
    assert_eq!((s.players[0].vp, s.players[0].doubloons - d), (7, 4));

    // The captain's doubloon without loading; a non-captain's per-load doubloon.
    let (rules, mut s) = game(4);
    build(&rules, &mut s, 0, "lighthouse", 1);
    build(&rules, &mut s, 1, "lighthouse", 1);
    give(&mut s, 1, CORN, 1);
    let (d0, d1) = (s.players[0].doubloons, s.players[1].doubloons);
    start_role(&rules, &mut s, 0, "captain");
    assert_eq!(s.players[0].doubloons - d0, 1);
    play(&rules, &mut s, "ship corn on 7");
    assert_eq!(s.players[1].doubloons - d1, 1);
}

// ---------------------------------------------------------------- specialty factory

/// Specialty factory example (S001:L602): the owner produces 4 corn, 3 sugar and 2
/// coffee: 3 (sugar) − 1 = 2 doubloons; corn does not count.
#[test]
fn specialty_factory_example() {
    let (rules, mut s) = game(4);
    let p = 2;
    build(&rules, &mut s, p, "specialty-factory", 1);
    build(&rules, &mut s, p, "sugar-mill", 3);
    build(&rules, &mut s, p, "coffee-roaster", 2);
    plant(&mut s, p, CORN, 3, 3);
    s.players[p].plantations_occupied[CORN] += 1; // the starting corn plantation
    s.colonist_supply -= 1;
    plant(&mut s, p, SUGAR, 3, 3);
    plant(&mut s, p, COFFEE, 2, 2);
    check(&rules, &s);
    let d = s.players[p].doubloons;
    start_role(&rules, &mut s, 1, "craftsman");
    let g = s.players[p].goods;
    assert_eq!((g[CORN], g[SUGAR], g[COFFEE]), (4, 3, 2));
    assert_eq!(s.players[p].doubloons - d, 2);
}

/// S001:L604: the most: small indigo plant + indigo plant + aqueduct + library +
/// craftsman = 7 indigo = 6 doubloons (the privilege goods count).
#[test]
fn specialty_factory_most() {
    let (rules, mut s) = game(4);
    for (b, c) in [("small-indigo-plant", 1), ("indigo-plant", 3), ("aqueduct", 1), ("library", 1)] {
        build(&rules, &mut s, 0, b, c);
    }
    build(&rules, &mut s, 0, "specialty-factory", 1);
    plant(&mut s, 0, INDIGO, 3, 3);
    s.players[0].plantations_occupied[INDIGO] += 1;
    s.colonist_supply -= 1;
    let d = s.players[0].doubloons;
    start_role(&rules, &mut s, 0, "craftsman");
    assert_eq!(s.players[0].goods[INDIGO], 5, "4 produced + 1 aqueduct");
    play(&rules, &mut s, "bonus indigo");
    play(&rules, &mut s, "bonus indigo");
    assert_eq!(s.players[0].goods[INDIGO], 7);
    assert_eq!(s.players[0].doubloons - d, 6);
}

// ---------------------------------------------------------------- library

/// Library, settler (S001:L612): the chooser takes a plantation or a quarry; after all
/// the others, one more plantation from those left; a quarry then only with an occupied
/// construction hut; with a hospice, a colonist with the first tile only.
#[test]
fn library_settler() {
    let (rules, mut s) = game(3);
    build(&rules, &mut s, 0, "library", 1);
    build(&rules, &mut s, 0, "hospice", 1);
    start_role(&rules, &mut s, 0, "settler");
    play(&rules, &mut s, "take quarry");
    play(&rules, &mut s, "take colonist");
    assert_eq!(s.players[0].quarries_occupied, 1);
    play(&rules, &mut s, "pass");
    play(&rules, &mut s, "pass");
    assert_eq!(s.current, 0);
    let l = legal(&rules, &s);
    assert!(!l.contains(&"take quarry".to_string()) && l.iter().any(|a| a.starts_with("take ")), "{l:?}");
    let take = l[0].clone();
    play(&rules, &mut s, &take);
    assert_eq!(s.players[0].plantations.total(), 2);
    assert_eq!(s.players[0].plantations_occupied.total(), 0, "no hospice colonist on the extra tile");
    assert_eq!(s.phase, Phase::RoleSelection);
    // With a construction hut, the extra tile may be a quarry.
    let (rules, mut s) = game(3);
    build(&rules, &mut s, 0, "library", 1);
    build(&rules, &mut s, 0, "construction-hut", 1);
    start_role(&rules, &mut s, 0, "settler");
    play(&rules, &mut s, "take quarry");
    play(&rules, &mut s, "pass");
    play(&rules, &mut s, "pass");
    play(&rules, &mut s, "take quarry");
    assert_eq!(s.players[0].quarries, 2);
}

/// Library, craftsman (S001:L614): two privilege goods, of one kind or two.
#[test]
fn library_craftsman() {
    let (rules, mut s) = game(3);
    build(&rules, &mut s, 0, "library", 1);
    build(&rules, &mut s, 0, "indigo-plant", 1);
    plant(&mut s, 0, CORN, 1, 1);
    s.players[0].plantations_occupied[INDIGO] = 1;
    s.colonist_supply -= 1;
    start_role(&rules, &mut s, 0, "craftsman");
    assert_eq!(legal(&rules, &s), ["bonus corn", "bonus indigo", "pass"]);
    play(&rules, &mut s, "bonus corn");
    assert_eq!(legal(&rules, &s), ["bonus corn", "bonus indigo", "pass"]);
    play(&rules, &mut s, "bonus indigo");
    let g = s.players[0].goods;
    assert_eq!((g[CORN], g[INDIGO]), (2, 2));
    assert_eq!(s.phase, Phase::RoleSelection);
}

/// Library, the other roles (not spelled out in the seed; chosen default, D B.3: every
/// privilege doubled): mayor 2 colonists, builder −2, trader +2, captain +2 VP,
/// prospector +2 doubloons.
#[test]
fn library_other_roles() {
    let setup = || {
        let (rules, mut s) = game(4);
        build(&rules, &mut s, 0, "library", 1);
        (rules, s)
    };
    let (rules, mut s) = setup();
    start_role(&rules, &mut s, 0, "mayor");
    play(&rules, &mut s, "take colonist");
    // The library's colonist, 2 from the supply, 1 of the 4 on the ship.
    assert_eq!(board::colonists(&s.players[0]), 1 + 2 + 1);

    let (rules, mut s) = setup();
    s.players[0].doubloons = 1;
    start_role(&rules, &mut s, 0, "builder");
    assert!(legal(&rules, &s).contains(&"build indigo-plant".to_string()), "3 − 2");

    let (rules, mut s) = setup();
    give(&mut s, 0, CORN, 1);
    let d = s.players[0].doubloons;
    start_role(&rules, &mut s, 0, "trader");
    play(&rules, &mut s, "sell corn");
    assert_eq!(s.players[0].doubloons - d, 2);

    let (rules, mut s) = setup();
    give(&mut s, 0, CORN, 1);
    start_role(&rules, &mut s, 0, "captain");
    play(&rules, &mut s, "ship corn on 7");
    assert_eq!(s.players[0].vp, 1 + 2);

    let (rules, mut s) = setup();
    let d = s.players[0].doubloons;
    start_role(&rules, &mut s, 0, "prospector");
    assert_eq!(s.players[0].doubloons - d, 2);
}

/// Which roles the library doubles is a ruleset option.
#[test]
fn library_roles_option() {
    let extra = "[[buildings]]\nid = \"library\"\neffect = { roles = [\"settler\", \"craftsman\"] }\n";
    let (rules, mut s) = game_with(extra, 4);
    build(&rules, &mut s, 0, "library", 1);
    let d = s.players[0].doubloons;
    start_role(&rules, &mut s, 0, "prospector");
    assert_eq!(s.players[0].doubloons - d, 1);
}

// ---------------------------------------------------------------- union hall

/// Union hall examples (S001:L620-622): before loading, 1 VP per 2 barrels of one good:
/// 3 corn, 2 indigo, 1 coffee → 2 VP; 4 corn, 2 coffee → 3 VP.
#[test]
fn union_hall_examples() {
    for (goods, vp) in [(&[(CORN, 3), (INDIGO, 2), (COFFEE, 1)][..], 2), (&[(CORN, 4), (COFFEE, 2)][..], 3)] {
        let (rules, mut s) = game(4);
        fill_ships_rest(&mut s);
        build(&rules, &mut s, 1, "union-hall", 1);
        for &(g, n) in goods {
            give(&mut s, 1, g, n);
        }
        start_role(&rules, &mut s, 0, "captain");
        assert_eq!(s.players[1].vp, vp);
    }
}

// ---------------------------------------------------------------- statue

/// Statue (S001:L630): no colonist, ever; 8 VP; with an occupied university its colonist
/// goes to San Juan.
#[test]
fn statue() {
    let (rules, mut s) = game(4);
    build(&rules, &mut s, 0, "university", 1);
    s.players[0].doubloons = 20;
    start_role(&rules, &mut s, 0, "builder");
    play(&rules, &mut s, "build statue");
    play(&rules, &mut s, "take colonist");
    assert_eq!(colonists_on(&rules, &s, 0, "statue"), 0);
    assert_eq!(s.players[0].san_juan, 1);
    assert_eq!(board::building_points(&rules.base, &s.players[0]), 3 + 8);
    // The mayor never offers it a colonist.
    pass_until(&rules, &mut s, Phase::RoleSelection);
    s.players[0].san_juan = 5;
    s.colonist_supply -= 4;
    start_role(&rules, &mut s, 0, "mayor");
    pass_until(&rules, &mut s, Phase::RoleSelection);
    assert_eq!(colonists_on(&rules, &s, 0, "statue"), 0);
}

// ---------------------------------------------------------------- cloister

/// Cloister example (S001:L636-638): groups of 3 like island tiles: 6 forests, 3
/// quarries, 2 corn and 1 coffee make 3 groups: 6 VP; with a third corn instead of the
/// coffee, 4 groups: 10 VP (the most). Only when occupied.
#[test]
fn cloister_example() {
    let (rules, mut s) = game(4);
    let p = 2; // starts with a corn plantation
    build(&rules, &mut s, p, "cloister", 1);
    forests(&mut s, p, 6);
    quarries(&mut s, p, 3, 0);
    plant(&mut s, p, CORN, 1, 0);
    plant(&mut s, p, COFFEE, 1, 0);
    check(&rules, &s);
    assert_eq!(board::building_points(&rules.base, &s.players[p]), 4 + 6);
    let mut q = s.players[p];
    q.plantations[COFFEE] = 0;
    q.plantations[CORN] = 3;
    assert_eq!(board::building_points(&rules.base, &q), 4 + 10);
    q.city.iter_mut().for_each(|b| b.colonists = 0);
    assert_eq!(board::building_points(&rules.base, &q), 4);
}

// ---------------------------------------------------------------- base JSON

/// The base game's state JSON has no expansion keys; the expansion's has them.
#[test]
fn state_json_keys() {
    let base_rules = {
        let b = bundled();
        let loaded = rulesmith_core::ruleset::load("puerto-rico", &b).unwrap();
        rulesmith_puerto_rico::decode(&loaded.tree, &mut Default::default()).unwrap()
    };
    let s = base_rules.new_game(4, 1).unwrap();
    let v = base_rules.state_to_json(&s);
    for k in ["forest_tiles", "out_of_game", "pending"] {
        assert!(v.get(k).is_none(), "{k}");
    }
    assert!(v.pointer("/players/0/forests").is_none());
    let rules = rules();
    let s = rules.new_game(4, 1).unwrap();
    let v = rules.state_to_json(&s);
    for k in ["forest_tiles", "out_of_game", "pending", "draft"] {
        assert!(v.get(k).is_some(), "{k}");
    }
    assert_eq!(v.pointer("/players/0/forests"), Some(&serde_json::json!(0)));
}

/// The guests and the forests play behind the base game's extension points: the base game
/// alone refuses a ruleset with a guests or forest building, naming the building and where
/// its effect is written; the expansion plays it, and its notation reads and prints the
/// moves.
#[test]
fn guests_and_forests_need_the_expansion() {
    let b = bundled();
    let loaded = rulesmith_core::ruleset::load("puerto-rico-expansion", &b).unwrap();
    let mut d = rulesmith_core::ruleset::Diagnostics::default();
    // The draft table is the expansion's own: the base game sees everything else.
    let mut tree = loaded.tree.clone();
    if let rulesmith_core::ruleset::Kind::Table(entries) = &mut tree.kind {
        entries.retain(|e| e.key != "draft");
    }
    assert!(rulesmith_puerto_rico::decode(&tree, &mut d).is_none());
    let text = d.render(&loaded.sources);
    assert!(text.contains("building `guest-house`: effect `guests` belongs to the expansion's rules"), "{text}");
    assert!(text.contains("rulesets/puerto-rico-expansion.toml:105:"), "{text}");
    assert!(text.contains("building `forest-house`: effect `forest_tiles` belongs to the expansion's rules"), "{text}");
    let rules = rules();
    assert_eq!(rules.base.extension.get().map(|e| e.name()), Some("puerto-rico-expansion"));
    let s = rules.new_game(3, 1).unwrap();
    for text in ["guest to library", "forest", "forest coffee"] {
        let a = rules.parse_action(&s, text).unwrap();
        assert_eq!(rules.format_action(&s, a), text);
    }
    let e = rules.parse_action(&s, "forest rum").unwrap_err().to_string();
    assert!(e.contains("`rum` is not a good"), "{e}");
}
