//! One test per rule of World 163, each citing its source: S004:Lnn is the Spanish
//! summary `seeds/004_08882bf69cdac25c.txt`, REF §n the reference
//! `rules/mundo163-504-reference.md`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common::*;
use rulesmith_core::cargo::DemandSpaces;
use rulesmith_core::json::StateJson;
use rulesmith_core::{Game, Rng, ToMove};
use rulesmith_mundo_163::residents::open_roads;
use rulesmith_mundo_163::scoring::{income, score};
use rulesmith_mundo_163::{Action, Phase, purchase};

// Capitals used below: seat 0 city 8 (e1, fish), seat 1 city 6 (e9, wheat).
const TWO: [&str; 2] = ["8", "6"];

// ---------------------------------------------------------------- setup

/// REF §2.2 steps 4–5, S004:L17: $80 each; 30/25/20 residents and settlements; the deck
/// of 12/18/24 cards stacked by back, I on top; one face-up card per player at $20.
#[test]
fn setup_money_pieces_deck_and_row() {
    let g = game();
    for (players, pieces, cards) in [(2usize, 30u8, 12usize), (3, 25, 18), (4, 20, 24)] {
        for seed in 0..20 {
            let s = g.new_game(players, seed).unwrap();
            g.check_state(&s).unwrap();
            for p in s.p.iter() {
                assert_eq!(p.money, 80);
                assert_eq!(p.residents_in_storage, pieces);
                assert_eq!(p.settlements_in_storage, pieces);
            }
            assert_eq!(usize::from(s.deck_len) + usize::from(s.row_len), cards);
            assert_eq!(usize::from(s.row_len), players);
            assert_eq!(s.free, 0, "the first cards cost $20");
            let back = |k: u8| g.rules.privileges[usize::from(k)].back;
            assert!(s.deck().windows(2).all(|w| back(w[0]) >= back(w[1])), "back I on top");
            assert!(s.row().iter().all(|&k| back(k) == 1));
            // 3 players: 6 random survivors of one set plus one full set (REF §1.2).
            for k in 0..12u8 {
                let n = s.deck().iter().chain(s.row()).filter(|&&c| c == k).count();
                assert!(n <= if players == 2 { 1 } else { 2 });
            }
        }
    }
}

/// REF §2.2 steps 7–8: until a player chooses a capital there is none, and the trolley,
/// which starts there, stands on no tile (`null` in the state JSON); no resident is bought
/// yet either. `city_at` names the city on a tile, or none.
#[test]
fn no_capital_nor_trolley_tile_before_the_choice() {
    let g = game();
    let mut s = g.new_game(2, 1).unwrap();
    assert!(s.p.iter().all(|p| p.capital.is_none() && p.trolley.tile.is_none()));
    assert_eq!(s.turn.purchase_from.get(), None);
    let json = g.state_to_json(&s);
    for seat in 0..2 {
        assert_eq!(json["players"][seat]["capital"], serde_json::Value::Null);
        assert_eq!(json["players"][seat]["trolley"]["tile"], serde_json::Value::Null);
    }
    assert_eq!(json["turn"]["purchase_from"], serde_json::Value::Null);
    let (e1, e2) = (t(&g, "e1"), t(&g, "e2"));
    assert_eq!(g.rules.city_at(e1), Some(7), "city 8, the eighth listed");
    assert_eq!(g.rules.city_at(e2), None, "forest");
    play(&g, &mut s, "capital 8");
    assert_eq!((s.p[1].capital.get(), s.p[1].trolley.tile.get()), (Some(e1), Some(e1)));
    assert!(s.p[0].capital.is_none() && s.p[0].trolley.tile.is_none());
    let json = g.state_to_json(&s);
    assert_eq!(json["players"][1]["capital"], "8");
    assert_eq!(json["players"][1]["trolley"]["tile"], "e1");
    assert_eq!(g.state_to_json(&g.state_from_json(json.clone()).unwrap()), json);
}

/// REF §2.2 steps 7–9: capitals are chosen from the last player to the first, with goods
/// no other capital offers; the trolley loads one good from its capital.
#[test]
fn capitals_in_reverse_order_with_distinct_goods() {
    let g = game();
    let mut s = g.new_game(2, 1).unwrap();
    assert_eq!(g.to_move(&s), ToMove::Seat(1));
    assert_eq!(legal(&g, &s).len(), 10);
    play(&g, &mut s, "capital 8");
    assert_eq!(g.to_move(&s), ToMove::Seat(0));
    let l = legal(&g, &s);
    assert_eq!(l.len(), 8, "city 8 and city 3 (also fish) are out: {l:?}");
    refused(&g, &s, "capital 3");
    refused(&g, &s, "capital 8");
    let e1 = t(&g, "e1");
    assert_eq!(s.p[1].capital.get(), Some(e1));
    assert_eq!(s.p[1].trolley.tile.get(), Some(e1));
    assert_eq!(s.p[1].trolley.goods[2], 1, "one fish loaded");
    assert_eq!(s.city_stock[7], 3);
    play(&g, &mut s, "capital 6");
    assert_eq!(s.phase, Phase::Privilege);
    assert_eq!((s.current, s.round), (0, 1));
}

// ---------------------------------------------------------------- 3 C privileges

/// REF §2.4.1 step 1: with 2 players a card is drawn while fewer than 3 lie in the row;
/// with 3 or 4, while fewer than the number of players; one card per turn at most.
#[test]
fn privilege_row_refills_one_card_per_turn() {
    let g = game();
    let s = start(&g, &TWO, 1);
    assert_eq!((s.row_len, s.deck_len, s.free), (3, 9, 0));
    let s3 = start(&g, &["8", "6", "5"], 1);
    assert_eq!((s3.row_len, s3.deck_len), (3, 15));
    // Two purchases empty the row to 1; the next turn draws only one card.
    let mut s = s;
    s.p[0].money = 500;
    let buy = legal(&g, &s).into_iter().find(|a| a.starts_with("buy")).unwrap();
    play(&g, &mut s, &buy);
    assert_eq!(s.row_len, 2);
    play_all(&g, &mut s, &["no upgrade", "end purchase", "end residents", "end trolley"]);
    assert_eq!(s.row_len, 3, "seat 1's turn drew one card");
}

/// REF §2.4.1 step 3, S004:L26: buying nothing makes every card in the row cost $0;
/// a card drawn later costs $20 again.
#[test]
fn buying_no_privilege_drops_the_row_to_zero() {
    let g = game();
    let mut s = start(&g, &TWO, 1);
    play(&g, &mut s, "no privilege");
    assert_eq!(s.free, 3);
    play_all(&g, &mut s, &["no upgrade", "end purchase", "end residents", "end trolley"]);
    let l = legal(&g, &s);
    assert!(l.iter().filter(|a| a.starts_with("buy")).all(|a| a.ends_with("for 0")), "{l:?}");
    let money = s.p[1].money;
    let buy = l.iter().find(|a| a.starts_with("buy")).unwrap().clone();
    play(&g, &mut s, &buy);
    assert_eq!(s.p[1].money, money, "a $0 card is free");
    play_all(&g, &mut s, &["no upgrade", "end purchase", "end residents", "end trolley"]);
    // Seat 0's turn: the row had 2, a new card was drawn at $20 to the right.
    assert_eq!((s.row_len, s.free), (3, 2));
}

/// REF §2.4.1 step 2: one privilege per turn, and never a type the player owns
/// (4 players: two copies of each type are in the deck).
#[test]
fn a_player_never_buys_a_type_twice() {
    let g = game();
    let mut s = start(&g, &["8", "6", "5", "4"], 3);
    let first = s.row()[0];
    let id = g.rules.privileges[usize::from(first)].id.clone();
    s.p[0].money = 200;
    play(&g, &mut s, &format!("buy {id} for 20"));
    assert_eq!(s.phase, Phase::Upgrade, "only one privilege per turn");
    // Put the second copy into the row for seat 0's next turn.
    let len = usize::from(s.deck_len);
    if let Some(pos) = s.deck[..len].iter().position(|&c| c == first) {
        s.deck.copy_within(pos + 1..len, pos);
        s.deck[len - 1] = 0;
        s.deck_len -= 1;
        s.row[usize::from(s.row_len)] = first;
        s.row_len += 1;
    }
    assert!(s.row().contains(&first));
    // Keep the row in draw order (backs rising).
    let back = |k: u8| g.rules.privileges[usize::from(k)].back;
    let n = usize::from(s.row_len);
    s.row[..n].sort_by_key(|&k| back(k));
    g.check_state(&s).unwrap();
    for _ in 0..4 {
        play_all(&g, &mut s, &["no upgrade", "end purchase", "end residents", "end trolley"]);
        if s.current != 0 {
            play(&g, &mut s, "no privilege");
        }
    }
    assert_eq!((s.current, s.phase), (0, Phase::Privilege));
    assert!(legal(&g, &s).iter().all(|a| !a.starts_with(&format!("buy {id} "))));
}

/// REF §2.4.1 step 4: when the row holds different backs, every card of the lower back
/// costs $0.
#[test]
fn lower_backs_in_the_row_cost_zero() {
    let g = game();
    let mut s = g.new_game(2, 4).unwrap();
    // Empty the deck's back-I cards into the row until a back-II card is drawn.
    let back = |k: u8| g.rules.privileges[usize::from(k)].back;
    while s.deck().last().is_some_and(|&k| back(k) == 1) {
        purchase::draw_to_row(&g.rules, &mut s);
    }
    assert_eq!(s.free, 0);
    purchase::draw_to_row(&g.rules, &mut s);
    let lower = s.row().iter().filter(|&&k| back(k) == 1).count();
    assert_eq!(usize::from(s.free), lower, "the back-I cards dropped to $0");
    g.check_state(&s).unwrap();
}

// ---------------------------------------------------------------- 3 C upgrade

/// REF §2.4.2, S004:L27: one upgrade per turn; movement 3 → 4 → 5 → 7 for $50 a step,
/// a second cargo hold for $80.
#[test]
fn upgrades_cost_and_come_one_per_turn() {
    let g = game();
    let mut s = start(&g, &TWO, 1);
    s.p[0].money = 1000;
    play_all(&g, &mut s, &["no privilege", "upgrade movement"]);
    assert_eq!((s.p[0].money, s.p[0].movement_level), (950, 1));
    assert_eq!(s.phase, Phase::BuyResidents, "one upgrade per turn");
    s.p[0].movement_level = 3;
    s.phase = Phase::Upgrade;
    let l = legal(&g, &s);
    assert_eq!(l, vec!["upgrade cargo", "no upgrade"], "7 MP is the top");
    play(&g, &mut s, "upgrade cargo");
    assert_eq!((s.p[0].money, s.p[0].holds_level), (870, 1));
    s.phase = Phase::Upgrade;
    assert_eq!(legal(&g, &s), vec!["no upgrade"]);
}

/// REF §2.8 I (8): each upgrade costs $15 less.
#[test]
fn privilege_i8_makes_upgrades_cheaper() {
    let g = game();
    let mut s = start(&g, &TWO, 1);
    grant(&g, &mut s, 0, "i-8");
    s.p[0].money = 100;
    play_all(&g, &mut s, &["no privilege", "upgrade cargo"]);
    assert_eq!(s.p[0].money, 35);
    s.phase = Phase::Upgrade;
    play(&g, &mut s, "upgrade movement");
    assert_eq!(s.p[0].money, 0);
}

// ---------------------------------------------------------------- 3 C residents

/// REF §2.4.3, S004:L28: $10 each; any number on the capital up to 9 in total.
#[test]
fn residents_on_the_capital_up_to_nine() {
    let g = game();
    let mut s = start(&g, &TWO, 1);
    s.p[0].money = 500;
    play_all(&g, &mut s, &["no privilege", "no upgrade"]);
    for _ in 0..9 {
        play(&g, &mut s, "buy resident e1");
    }
    assert_eq!(s.p[0].money, 410);
    assert_eq!(s.p[0].active[usize::from(t(&g, "e1"))], 9, "bought residents arrive active");
    refused(&g, &s, "buy resident e1");
}

/// REF §2.4.3, S004:L28: elsewhere at most as many new residents as the player's pieces
/// there (settlement + residents), and never more than 7 residents on the tile.
#[test]
fn residents_on_a_settlement_at_most_double_and_seven() {
    let g = game();
    let mut s = start(&g, &TWO, 1);
    settle(&g, &mut s, 0, &["e2", "e3", "f1"]);
    residents(&g, &mut s, 0, "e3", 2, false);
    residents(&g, &mut s, 0, "f1", 5, false);
    s.p[0].money = 500;
    play_all(&g, &mut s, &["no privilege", "no upgrade"]);
    play(&g, &mut s, "buy resident e2");
    refused(&g, &s, "buy resident e2"); // a settlement alone allows +1
    play_all(&g, &mut s, &["buy resident e3", "buy resident e3", "buy resident e3"]);
    refused(&g, &s, "buy resident e3"); // settlement + 2 residents allow +3
    play_all(&g, &mut s, &["buy resident f1", "buy resident f1"]);
    refused(&g, &s, "buy resident f1"); // 7 on the tile
    refused(&g, &s, "buy resident f2"); // no settlement there
}

/// Purchases are listed in tile order (one spelling per set of purchases): after a
/// resident on f1, none on the earlier tile e2.
#[test]
fn residents_are_bought_in_tile_order() {
    let g = game();
    let mut s = start(&g, &TWO, 1);
    settle(&g, &mut s, 0, &["e2", "f1"]);
    s.p[0].money = 500;
    play_all(&g, &mut s, &["no privilege", "no upgrade", "buy resident f1"]);
    refused(&g, &s, "buy resident e2");
}

/// REF §2.8 II (4): residents cost $8; REF §2.4.3: only residents in storage can be bought.
#[test]
fn privilege_ii4_and_storage_limit_resident_purchases() {
    let g = game();
    let mut s = start(&g, &TWO, 1);
    grant(&g, &mut s, 0, "ii-4");
    s.p[0].money = 100;
    play_all(&g, &mut s, &["no privilege", "no upgrade", "buy resident e1"]);
    assert_eq!(s.p[0].money, 92);
    let e1 = usize::from(t(&g, "e1"));
    let spare = s.p[0].residents_in_storage;
    s.p[0].residents_in_storage = 0;
    s.p[0].trolley.residents = spare.min(2);
    s.p[0].holds_level = 1;
    let rest = spare - spare.min(2);
    settle(&g, &mut s, 0, &["e2"]);
    // Park the rest on settlements so that nothing is in storage.
    let mut left = rest;
    for tile in ["e3", "f1", "f2", "g1", "g2"] {
        if left == 0 {
            break;
        }
        settle(&g, &mut s, 0, &[tile]);
        let n = left.min(7);
        s.p[0].exhausted[usize::from(t(&g, tile))] += n;
        s.p[0].tiles = rulesmith_mundo_163::purchase::resident_tiles(&g.rules, &s.p[0]);
        left -= n;
    }
    g.check_state(&s).unwrap();
    assert_eq!(s.p[0].active[e1], 1);
    refused(&g, &s, "buy resident e1");
}

/// REF §2.4.4: at the end of 3 C the player stands all his exhausted residents upright.
#[test]
fn end_of_purchase_stands_residents_up() {
    let g = game();
    let mut s = start(&g, &TWO, 1);
    residents(&g, &mut s, 0, "e1", 3, false);
    residents(&g, &mut s, 1, "e9", 2, false);
    to_residents(&g, &mut s);
    let (e1, e9) = (usize::from(t(&g, "e1")), usize::from(t(&g, "e9")));
    assert_eq!((s.p[0].active[e1], s.p[0].exhausted[e1]), (3, 0));
    assert_eq!(s.p[1].exhausted[e9], 2, "only the player to move");
}

// ---------------------------------------------------------------- 3 D residents

/// REF §2.5, S004:L32: a step off-road exhausts the resident; entering a tile without
/// the player's settlement exchanges it for a settlement; never onto water.
#[test]
fn steps_exhaust_settle_and_avoid_water() {
    let g = game();
    let mut s = start(&g, &["1", "7"], 1);
    residents(&g, &mut s, 0, "e4", 3, false);
    to_residents(&g, &mut s);
    refused(&g, &s, "step e4 e5"); // water
    let stored = s.p[0].residents_in_storage;
    play(&g, &mut s, "step e4 e3");
    let (e3, e4) = (usize::from(t(&g, "e3")), usize::from(t(&g, "e4")));
    assert!(s.p[0].owns(e3 as u8));
    assert_eq!(s.p[0].residents_on(e3 as u8), 0, "the resident became the settlement");
    assert_eq!(s.p[0].residents_in_storage, stored + 1);
    assert_eq!(s.p[0].settlements_in_storage, 29);
    play(&g, &mut s, "step e4 e3");
    assert_eq!(s.p[0].exhausted[e3], 1, "onto an own tile it stays, exhausted");
    assert_eq!(s.p[0].active[e4], 1);
    refused(&g, &s, "step e3 e4"); // exhausted residents do not act
}

/// REF §2.5, S004:L32, L40: along own roads a resident moves any distance and stays
/// active (each resident moves along roads once per phase: moving again equals one
/// longer move).
#[test]
fn moving_along_own_roads_keeps_residents_active() {
    let g = game();
    let mut s = start(&g, &TWO, 1);
    settle(&g, &mut s, 0, &["e2", "e3"]);
    road(&g, &mut s, 0, "e1", "e2");
    road(&g, &mut s, 0, "e2", "e3");
    residents(&g, &mut s, 0, "e1", 1, false);
    to_residents(&g, &mut s);
    play(&g, &mut s, "move e1 e3");
    let e3 = usize::from(t(&g, "e3"));
    assert_eq!(s.p[0].moved[e3], 1);
    refused(&g, &s, "move e3 e1");
    play(&g, &mut s, "step e3 d3");
    assert!(s.p[0].owns(t(&g, "d3")));
}

/// REF §2.5: unused active residents are exhausted at the end of 3 D.
#[test]
fn end_of_residents_exhausts_the_rest() {
    let g = game();
    let mut s = start(&g, &TWO, 1);
    residents(&g, &mut s, 0, "e1", 4, false);
    to_residents(&g, &mut s);
    play(&g, &mut s, "end residents");
    let e1 = usize::from(t(&g, "e1"));
    assert_eq!((s.p[0].active[e1], s.p[0].exhausted[e1]), (0, 4));
    assert_eq!(s.phase, Phase::Trolley);
}

/// REF §6 Q5 (chosen default): the 9 / 7 limits hold at all times, also when moving in.
/// REF §6 Q9 (chosen default): without a settlement in storage a resident cannot settle.
#[test]
fn tile_limits_and_settlement_storage_bind_moves() {
    let g = game();
    let mut s = start(&g, &TWO, 1);
    settle(&g, &mut s, 0, &["e2"]);
    residents(&g, &mut s, 0, "e2", 7, false);
    residents(&g, &mut s, 0, "e1", 1, false);
    to_residents(&g, &mut s);
    refused(&g, &s, "step e1 e2");
    let spare = s.p[0].settlements_in_storage;
    s.p[0].settlements_in_storage = 0;
    let mut placed = 0;
    for tile in 0..g.rules.tiles() as u8 {
        let water = g.rules.terrains[usize::from(s.terrain[usize::from(tile)])].name == "water";
        if placed == spare || water || s.p[0].owns(tile) || tile == t(&g, "f1") {
            continue;
        }
        s.p[0].settlements |= 1 << tile;
        placed += 1;
    }
    s.p[0].open_roads = open_roads(&g.rules, &s.p[0]);
    g.check_state(&s).unwrap();
    refused(&g, &s, "step e1 f1");
}

/// REF §2.5 "Building a road", S004:L33: roads need own settlements (or the capital) at
/// both ends; the first touches the capital, every later one the network.
#[test]
fn first_road_from_the_capital_then_one_network() {
    let g = game();
    let mut s = start(&g, &TWO, 1);
    settle(&g, &mut s, 0, &["e2", "e3", "f2"]);
    residents(&g, &mut s, 0, "e2", 3, false);
    residents(&g, &mut s, 0, "e3", 3, false);
    residents(&g, &mut s, 0, "e1", 3, false);
    to_residents(&g, &mut s);
    let l = legal(&g, &s);
    assert!(!l.iter().any(|a| a.starts_with("road e2 e3")), "not from the capital: {l:?}");
    assert!(!l.iter().any(|a| a.starts_with("road e2 f2")), "no residents on f2 but also not connected");
    play(&g, &mut s, "road e1 e2 pay 3 0 lose e1");
    assert!(legal(&g, &s).iter().any(|a| a.starts_with("road e2 e3")));
    refused(&g, &s, "road e1 e2 pay 0 3 lose e2"); // already built
}

/// S004:L34–35, REF §2.5: a road costs the dearer end: city or mountain 3, forest or
/// desert 2, field or grassland 1.
#[test]
fn road_costs_by_terrain() {
    let g = game();
    let cases = [
        ("e1", "e2", 3), // city – forest
        ("e2", "e3", 2), // forest – grassland
        ("d2", "e3", 1), // field – grassland
        ("d1", "d2", 2), // desert – field
        ("g1", "h1", 3), // field – mountain
    ];
    for (a, b, cost) in cases {
        let mut s = start(&g, &TWO, 1);
        let (x, y) = (t(&g, a), t(&g, b));
        for tile in [x, y] {
            if !s.p[0].owns(tile) {
                s.p[0].settlements |= 1 << tile;
            }
        }
        s.p[0].network = 1 << x; // as if the network reached `a`
        s.p[0].open_roads = open_roads(&g.rules, &s.p[0]);
        s.phase = Phase::Residents;
        assert_eq!(rulesmith_mundo_163::residents::road_cost(&g.rules, &s, x, y), Some(cost), "{a}-{b}");
    }
}

/// REF §2.5, §1.4 Notes "Road": +1 resident for each opposing road already built
/// between the same two tiles (several opponents, several extra).
#[test]
fn opposing_roads_cost_one_more_each() {
    let g = game();
    let mut s = start(&g, &["8", "6", "5"], 1);
    for seat in 0..3 {
        settle(&g, &mut s, seat, &["e2"]);
    }
    road(&g, &mut s, 1, "e1", "e2");
    road(&g, &mut s, 2, "e1", "e2");
    settle(&g, &mut s, 1, &["e1"]); // seat 1 and 2 need e1 too (it is seat 0's capital)
    settle(&g, &mut s, 2, &["e1"]);
    // Their networks must reach their capitals: give them a path.
    let path = |s: &mut rulesmith_mundo_163::State, seat: u8, cap: &str, tiles: &[&str]| {
        let mut prev = cap.to_string();
        for tl in tiles {
            if !s.p[seat].owns(t(&g, tl)) {
                settle(&g, s, seat, &[tl]);
            }
            road(&g, s, seat, &prev, tl);
            prev = tl.to_string();
        }
    };
    path(&mut s, 1, "e9", &["e8", "e7", "d6", "c5", "b4", "b3", "b2", "b1", "c2", "d2", "e3", "e2"]);
    path(&mut s, 2, "a1", &["b1"]);
    road(&g, &mut s, 2, "b1", "c2");
    road(&g, &mut s, 2, "c2", "d2");
    road(&g, &mut s, 2, "d2", "e3");
    road(&g, &mut s, 2, "e3", "e2");
    for tl in ["c2", "d2", "e3"] {
        if !s.p[2].owns(t(&g, tl)) {
            settle(&g, &mut s, 2, &[tl]);
        }
    }
    g.check_state(&s).unwrap();
    residents(&g, &mut s, 0, "e1", 5, false);
    to_residents(&g, &mut s);
    // City (3) + two opposing roads = 5.
    assert!(legal(&g, &s).contains(&"road e1 e2 pay 5 0 lose e1".to_string()));
    play(&g, &mut s, "road e1 e2 pay 5 0 lose e1");
    let e1 = usize::from(t(&g, "e1"));
    assert_eq!(s.p[0].exhausted[e1], 4, "one used resident went back to storage");
}

/// S004:L36: one resident used for the road returns to storage, the others are
/// exhausted; the player chooses where they come from.
#[test]
fn road_payment_from_either_end() {
    let g = game();
    let mut s = start(&g, &TWO, 1);
    settle(&g, &mut s, 0, &["e2"]);
    residents(&g, &mut s, 0, "e1", 2, false);
    residents(&g, &mut s, 0, "e2", 2, false);
    to_residents(&g, &mut s);
    let roads: Vec<String> = legal(&g, &s).into_iter().filter(|a| a.starts_with("road")).collect();
    assert_eq!(
        roads,
        vec![
            "road e1 e2 pay 1 2 lose e1",
            "road e1 e2 pay 1 2 lose e2",
            "road e1 e2 pay 2 1 lose e1",
            "road e1 e2 pay 2 1 lose e2",
        ]
    );
    let stored = s.p[0].residents_in_storage;
    play(&g, &mut s, "road e1 e2 pay 1 2 lose e2");
    let (e1, e2) = (usize::from(t(&g, "e1")), usize::from(t(&g, "e2")));
    assert_eq!((s.p[0].active[e1], s.p[0].exhausted[e1]), (1, 1));
    assert_eq!((s.p[0].active[e2], s.p[0].exhausted[e2]), (0, 1));
    assert_eq!(s.p[0].residents_in_storage, stored + 1);
}

/// REF §2.8 I (9), II (7), II (8): roads touching a forest, mountain or city cost 1.
#[test]
fn privileges_cut_road_costs() {
    let g = game();
    for (id, a, b) in [("i-9", "e2", "e3"), ("ii-7", "g1", "h1"), ("ii-8", "e1", "f1")] {
        let mut s = start(&g, &TWO, 1);
        settle(&g, &mut s, 0, &["e2", "e3", "f1", "g1", "h1"]);
        road(&g, &mut s, 0, "e1", "e2");
        road(&g, &mut s, 0, "e1", "f1");
        road(&g, &mut s, 0, "f1", "g1");
        let (x, y) = (t(&g, a), t(&g, b));
        let e = g.rules.edge(x, y).unwrap();
        let mut c = s.clone();
        c.p[0].roads[usize::from(e) / 64] &= !(1u64 << (e % 64));
        c.phase = Phase::Residents;
        let before = rulesmith_mundo_163::residents::road_cost(&g.rules, &c, x.min(y), x.max(y)).unwrap();
        grant(&g, &mut c, 0, id);
        let after = rulesmith_mundo_163::residents::road_cost(&g.rules, &c, x.min(y), x.max(y)).unwrap();
        assert!(before > 1, "{id}: {before}");
        assert_eq!(after, 1, "{id}");
    }
}

/// REF §2.8 III (9), §6 Q8: once a turn one legal road for free, no residents used.
#[test]
fn privilege_iii9_builds_one_free_road_a_turn() {
    let g = game();
    let mut s = start(&g, &TWO, 1);
    grant(&g, &mut s, 0, "iii-9");
    settle(&g, &mut s, 0, &["e2", "e3"]);
    to_residents(&g, &mut s);
    play(&g, &mut s, "free road e1 e2");
    assert!(s.p[0].has_road(g.rules.edge(t(&g, "e1"), t(&g, "e2")).unwrap()));
    refused(&g, &s, "free road e2 e3");
}

/// REF §2.8 II (11), §6 Q6: once a turn one resident takes a second action.
#[test]
fn privilege_ii11_gives_one_resident_a_second_action() {
    let g = game();
    let mut s = start(&g, &TWO, 1);
    grant(&g, &mut s, 0, "ii-11");
    residents(&g, &mut s, 0, "e1", 1, false);
    to_residents(&g, &mut s);
    settle(&g, &mut s, 0, &["e2"]);
    play(&g, &mut s, "step e1 e2");
    play(&g, &mut s, "again e2");
    play(&g, &mut s, "step e2 e3");
    assert!(s.p[0].owns(t(&g, "e3")));
    refused(&g, &s, "again e2");
}

/// REF §2.5 "Counting": the majority board counts every tile the roads touch, the
/// capital with the first road, never deserts.
#[test]
fn majority_counts_capital_and_no_deserts() {
    let g = game();
    let mut s = start(&g, &TWO, 1);
    settle(&g, &mut s, 0, &["d1", "e2"]);
    road(&g, &mut s, 0, "e1", "d1");
    road(&g, &mut s, 0, "e1", "e2");
    g.check_state(&s).unwrap();
    let m = rulesmith_mundo_163::scoring::majority(&g.rules, &s, 0);
    let idx = |n: &str| g.rules.terrain_by_name(n).unwrap() as usize;
    assert_eq!((m[idx("city")], m[idx("forest")], m[idx("desert")]), (1, 1, 0));
}

// ---------------------------------------------------------------- 3 E trolley

/// REF §2.6, S004:L45: 3 MP; 1 MP per tile, 2 onto a mountain, 0.5 along an own road.
#[test]
fn trolley_movement_costs() {
    let g = game();
    let mut s = start(&g, &TWO, 1);
    settle(&g, &mut s, 0, &["e2", "f1", "g1", "h1"]);
    road(&g, &mut s, 0, "e1", "f1");
    to_trolley(&g, &mut s);
    assert_eq!(s.p[0].trolley.half_mp, 6);
    play(&g, &mut s, "go f1");
    assert_eq!(s.p[0].trolley.half_mp, 5, "0.5 along the road");
    play(&g, &mut s, "go g1");
    assert_eq!(s.p[0].trolley.half_mp, 3, "1 MP onto the field");
    refused(&g, &s, "go h1"); // 2 MP onto the mountain, 1.5 left
}

/// REF §2.6: `go` reaches any tile by the cheapest way (passing through costs nothing
/// more), never water, and without residents aboard only own tiles (see README).
#[test]
fn trolley_stays_on_own_tiles_without_residents() {
    let g = game();
    let mut s = start(&g, &TWO, 1);
    settle(&g, &mut s, 0, &["e2"]);
    to_trolley(&g, &mut s);
    assert_eq!(legal(&g, &s).iter().filter(|a| a.starts_with("go")).collect::<Vec<_>>(), vec!["go e2"]);
}

/// REF §2.6 "Carrying residents": with residents aboard the trolley passes any tile;
/// unloading one where the player has no settlement turns it into one.
#[test]
fn trolley_with_residents_passes_and_settles() {
    let g = game();
    let mut s = start(&g, &TWO, 1);
    residents(&g, &mut s, 0, "e1", 2, false);
    to_trolley(&g, &mut s);
    // One hold: the fish takes it; unload the fish first (no demand at city 8).
    play(&g, &mut s, "unload fish");
    play(&g, &mut s, "load resident");
    play(&g, &mut s, "load resident");
    play(&g, &mut s, "go e3");
    play(&g, &mut s, "unload resident");
    assert!(s.p[0].owns(t(&g, "e3")));
    play(&g, &mut s, "unload resident");
    assert_eq!(s.p[0].exhausted[usize::from(t(&g, "e3"))], 1);
}

/// REF §2.6 "Carrying residents", chosen rule set (issue 9): residents ride only within
/// one trolley phase. At its end those aboard are unloaded where the trolley stands (one
/// settles a tile without the player's settlement, the rest stay there exhausted), so
/// next turn the trolley again enters only own tiles; with no settlement left in storage
/// they go back to storage. `residents_aboard_at_end = "stay"` keeps them aboard.
#[test]
fn residents_ride_one_trolley_phase() {
    let g = game();
    let ride = |g: &rulesmith_mundo_163::Mundo163, settlements: Option<u8>| {
        let mut s = start(g, &TWO, 1);
        residents(g, &mut s, 0, "e1", 2, false);
        to_trolley(g, &mut s);
        play_all(g, &mut s, &["unload fish", "load resident", "load resident", "go e3"]);
        if let Some(n) = settlements {
            // Place the rest of the settlements on land tiles other than e3.
            let e3 = t(g, "e3");
            for tile in 0..g.rules.tiles() as u8 {
                let water = g.rules.terrains[usize::from(s.terrain[usize::from(tile)])].kind
                    == rulesmith_mundo_163::rules::TerrainKind::Water;
                if s.p[0].settlements_in_storage > n && tile != e3 && !water && !s.p[0].owns(tile) {
                    s.p[0].settlements |= 1 << tile;
                    s.p[0].settlements_in_storage -= 1;
                }
            }
        }
        s.p[0].open_roads = open_roads(&g.rules, &s.p[0]);
        let before = s.p[0].residents_in_storage;
        play(g, &mut s, "end trolley");
        (s, before)
    };
    let (s, before) = ride(&g, None);
    let e3 = usize::from(t(&g, "e3"));
    assert_eq!(s.p[0].trolley.residents, 0);
    assert!(s.p[0].owns(e3 as u8));
    assert_eq!(s.p[0].exhausted[e3], 1);
    assert_eq!(s.p[0].residents_in_storage, before + 1, "the settled resident goes to storage");
    // No settlement left: both residents go back to storage; the trolley stays on e3.
    let (s, before) = ride(&g, Some(0));
    assert_eq!((s.p[0].trolley.residents, s.p[0].residents_in_storage), (0, before + 2));
    assert!(!s.p[0].owns(e3 as u8));
    g.check_state(&s).unwrap();
    // The house rule keeps them aboard.
    let f = rulesmith_testkit::kit::scratch_file(
        "m163-stay",
        "stay.toml",
        "[ruleset]\nextends = \"mundo-163\"\n[trolley]\nresidents_aboard_at_end = \"stay\"\n",
    );
    let stay = rulesmith_mundo_163::load(f.to_str().unwrap()).unwrap_or_else(|e| panic!("{e}"));
    let (s, _) = ride(&stay, None);
    assert_eq!(s.p[0].trolley.residents, 2);
    assert!(!s.p[0].owns(e3 as u8));
}

/// REF §2.6 "Delivering", S004:L45: a good unloaded where a city demands it covers the
/// space and is kept by the player; elsewhere it stays on the tile for anyone; each
/// city takes one good per listed type.
#[test]
fn deliveries_cover_demand_and_are_kept() {
    let g = game();
    // Seat 0's capital is city 3 (e6, fish); city 1 (e4) demands cattle, fish, wood.
    let mut s = start(&g, &["3", "6"], 1);
    settle(&g, &mut s, 0, &["d6", "c5", "c4"]);
    assert_eq!(s.p[0].trolley.goods[2], 1, "one fish aboard from the capital");
    s.p[0].holds_level = 1;
    s.city_stock[2] -= 1;
    s.p[0].trolley.goods[2] += 1;
    g.check_state(&s).unwrap();
    to_trolley(&g, &mut s);
    // City 4 (c4) demands ore, wheat, cattle: fish stays there.
    s.p[0].movement_level = 3;
    s.p[0].trolley.half_mp = 14;
    play(&g, &mut s, "go c4");
    play(&g, &mut s, "unload fish");
    assert_eq!(s.loose[usize::from(t(&g, "c4"))][2], 1);
    refused(&g, &s, "load fish"); // no reloading what was just unloaded here
    // City 1 (e4) is not own; with no residents aboard the trolley cannot enter it.
    assert!(!legal(&g, &s).contains(&"go e4".to_string()));
    settle(&g, &mut s, 0, &["e4", "d3", "c3"]);
    g.check_state(&s).unwrap();
    play(&g, &mut s, "go e4");
    play(&g, &mut s, "unload fish");
    assert_eq!(s.p[0].delivered[2], 1);
    assert_eq!(s.covered[0].bits(), 0b010, "the fish space of city 1 is covered");
}

/// REF §2.6: each city takes only one good per listed type.
#[test]
fn a_city_takes_one_good_per_listed_type() {
    let g = game();
    // Seat 0's capital is city 1 (e4), which demands cattle, fish and wood.
    let mut s = start(&g, &["1", "7"], 1);
    s.p[0].holds_level = 1;
    s.city_stock[2] -= 1; // a fish from city 3 aboard
    s.p[0].trolley.goods[2] += 1;
    s.covered[0] = DemandSpaces::from_bits(0b010); // someone delivered fish to city 1 already
    s.p[1].delivered[2] = 1;
    s.city_stock[7] -= 1;
    g.check_state(&s).unwrap();
    to_trolley(&g, &mut s);
    play(&g, &mut s, "unload fish");
    assert_eq!(s.p[0].delivered[2], 0);
    assert_eq!(s.loose[usize::from(t(&g, "e4"))][2], 1, "it stays on the tile");
}

/// REF §2.6 "Capacity": a hold carries 1 good or up to 2 exhausted residents.
#[test]
fn cargo_holds_carry_one_good_or_two_residents() {
    let g = game();
    let mut s = start(&g, &TWO, 1);
    residents(&g, &mut s, 0, "e1", 3, false);
    to_trolley(&g, &mut s);
    assert!(!legal(&g, &s).contains(&"load resident".to_string()), "the fish fills the hold");
    play_all(&g, &mut s, &["unload fish", "load resident", "load resident"]);
    assert!(!legal(&g, &s).contains(&"load resident".to_string()));
}

/// REF §2.8 II (5), II (7), III (1): +1 MP every turn; mountains for 1 MP; cities for 0.
#[test]
fn trolley_privileges() {
    let g = game();
    let mut s = start(&g, &TWO, 1);
    grant(&g, &mut s, 0, "ii-5");
    to_trolley(&g, &mut s);
    assert_eq!(s.p[0].trolley.half_mp, 8);

    let mut s = start(&g, &TWO, 1);
    grant(&g, &mut s, 0, "ii-7");
    settle(&g, &mut s, 0, &["f1", "g1", "h1"]);
    to_trolley(&g, &mut s);
    play_all(&g, &mut s, &["go h1"]);
    assert_eq!(s.p[0].trolley.half_mp, 0, "1 + 1 + 1 (mountain for 1)");

    let mut s = start(&g, &TWO, 1);
    grant(&g, &mut s, 0, "iii-1");
    settle(&g, &mut s, 0, &["e2", "e3", "e4"]);
    to_trolley(&g, &mut s);
    play(&g, &mut s, "go e3");
    assert_eq!(s.p[0].trolley.half_mp, 2);
    play(&g, &mut s, "go e4");
    assert_eq!(s.p[0].trolley.half_mp, 2, "entering a city costs nothing");
}

// ---------------------------------------------------------------- 3 H income

/// REF §2.7 "Example Income" (generator): Anne has 2 cities, 1 grassland, 3 forests,
/// 2 fields and 1 mountain: 20 + 10 + (5 + 10 + 10) + 10 + 10 = $75.
#[test]
fn income_example_pays_75() {
    let g = game();
    let mut s = start(&g, &TWO, 1);
    settle(&g, &mut s, 0, &["e2", "e3", "e4", "f1", "f2", "g1", "g2", "h1"]);
    for (a, b) in
        [("e1", "e2"), ("e2", "e3"), ("e3", "e4"), ("e1", "f1"), ("f1", "f2"), ("f1", "g1"), ("g1", "g2"), ("g1", "h1")]
    {
        road(&g, &mut s, 0, a, b);
    }
    g.check_state(&s).unwrap();
    assert_eq!(income(&g.rules, &s, 0, false), 75);
    to_trolley(&g, &mut s);
    let money = s.p[0].money;
    play(&g, &mut s, "end trolley");
    assert_eq!(s.p[0].money, money + 75);
    assert_eq!(s.p[0].last_income, 75);
}

/// S004:L46: $20 for the capital, also before any road.
#[test]
fn income_without_roads_is_the_capital() {
    let g = game();
    let s = start(&g, &TWO, 1);
    assert_eq!(income(&g.rules, &s, 0, false), 20);
}

/// REF §2.8 I (2), §6 Q7: $15 in 3 H for each city settled that turn.
#[test]
fn privilege_i2_pays_for_settled_cities() {
    let g = game();
    let mut s = start(&g, &["1", "7"], 1);
    grant(&g, &mut s, 0, "i-2");
    settle(&g, &mut s, 0, &["e3"]);
    residents(&g, &mut s, 0, "e3", 1, false);
    to_residents(&g, &mut s);
    settle(&g, &mut s, 0, &["e2"]);
    play(&g, &mut s, "step e3 e2"); // e2 is own already: no city settled
    residents(&g, &mut s, 0, "e2", 1, true);
    play(&g, &mut s, "step e2 e1"); // city 8
    assert_eq!(s.turn.cities_settled, 1);
    play(&g, &mut s, "end residents");
    let money = s.p[0].money;
    play(&g, &mut s, "end trolley");
    assert_eq!(s.p[0].money, money + 20 + 15);
}

// ---------------------------------------------------------------- end and scoring

/// S004:L54, REF §2.9: the game ends at the end of the round in which 19 (2 players)
/// goods have been delivered in total; not in the middle of the round.
#[test]
fn game_ends_after_the_round_with_enough_deliveries() {
    let g = game();
    let mut s = start(&g, &TWO, 1);
    deliver(&g, &mut s, 0, 19);
    g.check_state(&s).unwrap();
    to_trolley(&g, &mut s);
    play(&g, &mut s, "end trolley");
    assert_eq!(g.to_move(&s), ToMove::Seat(1), "the round goes on");
    to_trolley(&g, &mut s);
    play(&g, &mut s, "end trolley");
    assert_eq!(g.to_move(&s), ToMove::Terminal);
    assert_eq!(g.outcome(&s).unwrap().end, "delivered_goods");

    let mut s = start(&g, &TWO, 1);
    deliver(&g, &mut s, 0, 18);
    for _ in 0..2 {
        to_trolley(&g, &mut s);
        play(&g, &mut s, "end trolley");
    }
    assert_eq!(g.to_move(&s), ToMove::Seat(0), "18 is not enough");
}

/// Marks `n` deliveries for `seat`, covering demand spaces city by city.
fn deliver(g: &rulesmith_mundo_163::Mundo163, s: &mut rulesmith_mundo_163::State, seat: u8, n: usize) {
    let mut left = n;
    for (ci, c) in g.rules.cities.iter().enumerate() {
        for (k, &goods) in c.demands.iter().enumerate() {
            if left == 0 || s.covered[ci].is_covered(k) {
                continue;
            }
            // Take the good from a city producing it.
            let Some(src) =
                g.rules.cities.iter().enumerate().position(|(i, x)| x.goods == goods && s.city_stock[i] > 0)
            else {
                continue;
            };
            s.city_stock[src] -= 1;
            s.covered[ci].set_covered(k);
            s.p[seat].delivered[usize::from(goods)] += 1;
            left -= 1;
        }
    }
    assert_eq!(left, 0);
}

/// S004:L56–61, REF §2.10 worked examples: 3/2/1/1/0 goods score 31; 2/2/1/1/1 score
/// 35 (one complete set, +2); privileges I (11) +2 and II (9) +3.
#[test]
fn final_scoring() {
    let g = game();
    let mut s = start(&g, &TWO, 1);
    s.p[0].delivered[..5].copy_from_slice(&[3, 2, 1, 1, 0]);
    assert_eq!(score(&g.rules, &s, 0), 31);
    s.p[0].delivered[..5].copy_from_slice(&[2, 2, 1, 1, 1]);
    assert_eq!(score(&g.rules, &s, 0), 35);
    s.p[0].delivered[..5].copy_from_slice(&[6, 5, 0, 0, 0]);
    assert_eq!(score(&g.rules, &s, 0), 30, "5 or more of a kind score 15");
    s.p[0].delivered[..5].copy_from_slice(&[0; 5]);
    grant(&g, &mut s, 0, "i-11");
    assert_eq!(score(&g.rules, &s, 0), 2);
    grant(&g, &mut s, 0, "ii-9");
    assert_eq!(score(&g.rules, &s, 0), 5);
}

/// REF §2.10: ties go to the most goods in the trolley, then to the highest income of
/// the last round; still tied players share the win (REF §6 Q15).
#[test]
fn tie_breaks() {
    let g = game();
    let mut s = start(&g, &TWO, 1);
    s.phase = Phase::Over;
    s.end = rulesmith_mundo_163::state::End::DeliveredGoods;
    // Both carry their capital's good; equal scores (0).
    s.p[0].last_income = 30;
    s.p[1].last_income = 20;
    assert_eq!(g.outcome(&s).unwrap().winners(), vec![0]);
    s.p[0].trolley.goods = [0; 8];
    s.loose[usize::from(t(&g, "e1"))][2] = 1;
    assert_eq!(g.outcome(&s).unwrap().winners(), vec![1], "more goods aboard first");
    s.p[1].trolley.goods = [0; 8];
    s.loose[usize::from(t(&g, "e9"))][0] = 1;
    s.p[1].last_income = 30;
    assert_eq!(g.outcome(&s).unwrap().winners(), vec![0, 1]);
    // The `max_rounds` safety cap is no end of the rules: unfinished, nobody wins
    // (product spec: games stopped by a safety cap are unfinished, reported apart).
    s.end = rulesmith_mundo_163::state::End::RoundLimit;
    let o = g.outcome(&s).unwrap();
    assert!(o.unfinished && o.winners().is_empty() && o.win_shares() == [0.0, 0.0], "{o:?}");
}

/// REF §2.9: the game ends only by deliveries; `[end] max_rounds` is a safety cap of the
/// ruleset (README, chosen defaults). A game it stops is unfinished: the standing is kept,
/// but nobody wins, and reports count it apart.
#[test]
fn a_game_stopped_by_the_round_cap_has_no_winner() {
    let g = game();
    let mut s = start(&g, &TWO, 1);
    s.phase = Phase::Over;
    s.end = rulesmith_mundo_163::state::End::RoundLimit;
    s.p[0].last_income = 30;
    let o = g.outcome(&s).unwrap();
    assert!(o.unfinished);
    assert_eq!(o.end, "round_limit");
    assert!(o.winners().is_empty());
    assert_eq!(o.win_shares(), vec![0.0, 0.0]);
    assert_eq!(o.ranks, vec![0, 1], "the standing when the cap stopped the game");
    s.end = rulesmith_mundo_163::state::End::DeliveredGoods;
    assert!(!g.outcome(&s).unwrap().unfinished);
}

// ---------------------------------------------------------------- notation, views

/// Notation examples of the crate docs read back as written.
#[test]
fn notation_examples() {
    let g = game();
    let s = g.new_game(2, 1).unwrap();
    for text in [
        "capital 5",
        "buy i-8 for 20",
        "buy i-8 for 0",
        "no privilege",
        "upgrade movement",
        "upgrade cargo",
        "no upgrade",
        "buy resident e4",
        "end purchase",
        "move e4 e3",
        "step e3 d2",
        "road e3 e4 pay 1 2 lose e4",
        "free road e3 e4",
        "again d2",
        "end residents",
        "go e3",
        "load wheat",
        "load resident",
        "unload wheat",
        "unload resident",
        "end trolley",
    ] {
        let a = g.parse_action(&s, text).unwrap();
        assert_eq!(g.format_action(&s, a), text);
    }
    // Either order of a road's tiles; the lower tile is printed first.
    let a = g.parse_action(&s, "road e4 e3 pay 2 1 lose e4").unwrap();
    assert_eq!(g.format_action(&s, a), "road e3 e4 pay 1 2 lose e4");
    assert!(matches!(a, Action::Road { .. }));
    for bad in ["", "capital 11", "buy i-8 for 5", "go z9", "load gold", "road e3 e4 pay 1 2 lose a1", "fly"] {
        assert!(g.parse_action(&s, bad).is_err(), "{bad}");
    }
}

/// Hidden information: only the deck's order (and, with 3 players, which cards were
/// removed). A view hides it and the generator (which would give the order away);
/// a determinisation redraws it consistently.
#[test]
fn views_hide_the_deck_and_determinisations_redraw_it() {
    let g = game();
    for players in 2..=4 {
        let s = start(&g, &["8", "6", "5", "4"][..players], 9);
        let v = g.observe(&s, 0);
        g.check_state(&v).unwrap();
        let mut a = v.clone();
        a.deck = s.deck;
        a.rng = s.rng.clone();
        assert_eq!(a, s, "only the deck and the generator differ");
        assert_ne!(v.rng, s.rng, "the view does not carry the generator");
        let other = start(&g, &["8", "6", "5", "4"][..players], 10);
        assert_eq!(g.observe(&other, 0).deck_len, v.deck_len);
        let mut rng = Rng::from_seed(3);
        let mut differs = false;
        for _ in 0..20 {
            let d = g.determinize(&s, 0, &mut rng);
            g.check_state(&d).unwrap();
            let back = |k: u8| g.rules.privileges[usize::from(k)].back;
            assert!(d.deck().iter().zip(s.deck()).all(|(x, y)| back(*x) == back(*y)), "backs are public");
            differs |= d.deck() != s.deck();
        }
        assert!(differs);
    }
}

/// The ruleset's errors name file, line and column, all of them at once.
#[test]
fn ruleset_errors_are_located() {
    let f = rulesmith_testkit::kit::scratch_file(
        "m163-rules",
        "bad.toml",
        "[ruleset]\nextends = \"mundo-163\"\n[trolley]\nmovment = [3]\nown_road_mp = 0.3\n[end]\ndelivered_goods = { 2 = 19, 6 = 23 }\n[[cities]]\nid = \"1\"\ngoods = \"gold\"\n",
    );
    let e = rulesmith_mundo_163::load(f.to_str().unwrap()).unwrap_err();
    assert!(e.contains("bad.toml:4:1: unknown key `movment`"), "{e}");
    assert!(e.contains("bad.toml:5:15: 0.3 is not a movement cost"), "{e}");
    assert!(e.contains("bad.toml:7:29: unknown player count `6`"), "{e}");
    assert!(!e.contains("unknown city"), "no cascade: {e}");
    assert!(e.contains("bad.toml:10:9: unknown goods `gold`"), "{e}");
}

/// Issue 15: the decision cap follows `[end] max_rounds` with a wide margin over what a
/// round takes, so a legal long game (`max_rounds = 10000`) is never cut short by a lower
/// hidden cap (it was 200,000 decisions for any ruleset).
#[test]
fn the_decision_limit_follows_max_rounds() {
    let g = game();
    let mut most_per_round = 0u64;
    for seed in 0..10 {
        let mut s = g.new_game(4, seed).unwrap();
        let mut rng = Rng::from_seed(seed);
        let (mut round, mut in_round) = (g.progress(&s).rounds, 0u64);
        let mut buf = Vec::new();
        while let ToMove::Seat(_) = g.to_move(&s) {
            g.legal_actions(&s, &mut buf);
            let a = buf[rng.index(buf.len())];
            g.apply_legal(&mut s, a);
            if g.progress(&s).rounds == round {
                in_round += 1;
            } else {
                (round, in_round) = (g.progress(&s).rounds, 1);
            }
            most_per_round = most_per_round.max(in_round);
        }
    }
    assert!(most_per_round > 10, "{most_per_round}");
    let f = rulesmith_testkit::kit::scratch_file(
        "rulesmith-mundo-limit",
        "long.toml",
        "[ruleset]\nname = \"long\"\nextends = \"mundo-163\"\n[end]\nmax_rounds = 10000\n",
    );
    let long = rulesmith_mundo_163::load(f.to_str().unwrap()).unwrap();
    assert!(long.decision_limit() >= 10_000 * most_per_round * 5, "{} for {most_per_round}", long.decision_limit());
    assert!(long.decision_limit() > rulesmith_core::sim::MAX_DECISIONS);
}

// ---------------------------------------------------------------- the ruleset read

/// A list of too many goods is refused, and the checks after it still count right: the
/// cities' goods past the 32nd name are told apart (they were counted by bit, which wraps).
#[test]
fn too_many_goods_are_refused_and_counted_right() {
    let names: Vec<String> = (0..40).map(|i| format!("\"g{i}\"")).collect();
    let mut text = rulesmith_mundo_163::BUNDLED_TOML.replacen(
        "types = [\"wheat\", \"cattle\", \"fish\", \"wood\", \"ore\"]",
        &format!("types = [\"wheat\", \"cattle\", \"fish\", \"wood\", \"ore\", {}]", names.join(", ")),
        1,
    );
    for (i, good) in ["wheat", "cattle", "fish", "wood", "ore"].iter().enumerate() {
        // Every city offers g3 or g35 (as bits, both would be bit 3).
        let to = if i % 2 == 0 { "g3" } else { "g35" };
        text = text.replace(&format!("\ngoods = \"{good}\""), &format!("\ngoods = \"{to}\""));
    }
    let dir = std::env::temp_dir().join(format!("rulesmith-mundo-goods-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("many-goods.toml");
    std::fs::write(&file, text).unwrap();
    let err = rulesmith_mundo_163::load(file.to_str().unwrap()).unwrap_err();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(err.contains("expected 1 to 8 goods names, found 45"), "{err}");
    assert!(err.contains("the cities offer 2 goods types but up to 4 players play"), "{err}");
}
