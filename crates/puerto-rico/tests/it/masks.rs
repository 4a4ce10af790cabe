#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Legality kept as masks and counts gives what the rules say one by one: the builder's
//! list against every building priced and checked alone (S000:L451-457), the buildings
//! left on the board against their counts, and the mayor's circles left against a count
//! of the board's groups.

use rulesmith_core::game::Game;
use rulesmith_puerto_rico::action::Action;
use rulesmith_puerto_rico::board;
use rulesmith_puerto_rico::phases::{mayor, privilege};
use rulesmith_puerto_rico::state::Phase;
use rulesmith_puerto_rico::{Rules, State};

/// The builder's buildings, one by one: left on the board, not owned (L453), fitting the
/// free city spaces (L455), affordable with doubloons and what returned components raise.
fn builds_one_by_one(rules: &Rules, s: &State) -> Vec<Action> {
    let p = &s.players[s.current];
    let free = rules.city_spaces.saturating_sub(board::city_spaces_used(rules, p));
    let discount = if s.current == s.chooser { privilege::privilege(rules, s) } else { 0 };
    let budget = p.doubloons + board::payment_capacity(rules, p);
    (0..rules.buildings.len())
        .filter(|&i| {
            s.buildings[i] > 0
                && !p.city.has(i as u8)
                && rules.buildings[i].spaces <= free
                && board::build_cost(rules, p, i, discount) <= budget
        })
        .map(|i| Action::Build(i as u8))
        .collect()
}

#[test]
fn builder_masks_list_what_the_rules_allow_one_by_one() {
    let rules = crate::common::rules();
    let mut turns = 0;
    for players in 2..=5 {
        for seed in 0..40 {
            let mut s = rules.new_game(players, seed).unwrap();
            let mut rng = rulesmith_core::Rng::from_seed(seed);
            let mut buf = Vec::new();
            while let rulesmith_core::game::ToMove::Seat(_) = rules.to_move(&s) {
                rules.legal_actions(&s, &mut buf);
                if s.phase == Phase::Builder {
                    let listed: Vec<Action> = buf.iter().copied().filter(|a| matches!(a, Action::Build(_))).collect();
                    assert_eq!(listed, builds_one_by_one(&rules, &s), "{players} players, seed {seed}");
                    turns += 1;
                }
                let left = s.buildings_left(rules.buildings.len());
                for i in 0..rules.buildings.len() {
                    assert_eq!(left & (1 << i) != 0, s.buildings[i] > 0, "building {i}");
                }
                if s.phase == Phase::Mayor {
                    assert_eq!(s.mayor.left, mayor::left(&rules, &s));
                }
                let a = buf[rng.index(buf.len())];
                rules.apply_legal(&mut s, a);
            }
        }
    }
    assert!(turns > 1000, "only {turns} builder turns");
}

/// A state whose kept circles disagree with its board is refused by the state check, and
/// reading the JSON derives them from the board (`/mayor_group` only is written).
#[test]
fn the_mayors_circles_left_follow_the_board() {
    use rulesmith_core::json::StateJson;
    let rules = crate::common::rules();
    // The first placement decision of a random game (a mayor's placement is often forced
    // and asks nothing: the games are played until one asks).
    let mut found = None;
    for seed in 0..20 {
        let mut s = rules.new_game(4, seed).unwrap();
        let mut rng = rulesmith_core::Rng::from_seed(seed);
        let mut buf = Vec::new();
        while s.phase != Phase::Mayor && s.phase != Phase::GameOver {
            rules.legal_actions(&s, &mut buf);
            let a = buf[rng.index(buf.len())];
            rules.apply_legal(&mut s, a);
        }
        if s.phase == Phase::Mayor {
            found = Some(s);
            break;
        }
    }
    let s = found.expect("a placement decision in 20 random games");
    assert!(s.mayor.left > 0);
    rules.check_state(&s).unwrap();
    let json = rules.state_to_json(&s);
    assert_eq!(json["mayor_group"], serde_json::json!(s.mayor.group));
    assert!(json.get("mayor").is_none(), "{json}");
    assert_eq!(rules.state_from_json(json).unwrap(), s);
    let mut edited = s;
    edited.mayor.left += 1;
    let e = rules.check_state(&edited).unwrap_err().to_string();
    assert!(e.contains("circles left"), "{e}");
}

/// A payment without its building is refused by the state check (its building is typed
/// `Option`, not 0 when none: a `null` building was read as the ruleset's first before).
#[test]
fn a_payment_needs_its_building() {
    let rules = crate::common::rules();
    // A builder's turn of a random game, then as if a building were being paid for.
    let mut s = rules.new_game(4, 1).unwrap();
    let mut rng = rulesmith_core::Rng::from_seed(1);
    let mut buf = Vec::new();
    while s.phase != Phase::Builder {
        rules.legal_actions(&s, &mut buf);
        let a = buf[rng.index(buf.len())];
        rules.apply_legal(&mut s, a);
    }
    rules.check_state(&s).unwrap();
    s.phase = Phase::BuildPayment;
    s.pending.payment.owed = 1;
    let e = rules.check_state(&s).unwrap_err().to_string();
    assert!(e.contains("/pending/build: no such building"), "{e}");
    s.pending.payment.build = Some(0);
    assert!(!rules.check_state(&s).err().is_some_and(|e| e.to_string().contains("/pending/build")));
}
