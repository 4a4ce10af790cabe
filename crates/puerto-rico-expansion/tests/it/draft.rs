//! The building draft at setup (S001:L491-499; D B.1), with its sources.

// Tests may unwrap and panic, helpers included.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common::*;
use rulesmith_core::bots::BotSpec;
use rulesmith_core::game::{Game, GameError, ToMove};
use rulesmith_core::prelude::*;
use rulesmith_core::sim;
use rulesmith_puerto_rico_expansion::{Action, Rules, State};
use serde_json::json;
use std::collections::BTreeMap;

fn names(rules: &Rules, s: &State) -> Vec<String> {
    let mut buf = Vec::new();
    rules.legal_actions(s, &mut buf);
    buf.iter().map(|&a| rules.format_action(s, a)).collect()
}

fn pick(rules: &Rules, s: &mut State, text: &str) {
    let a = rules.parse_action(s, text).unwrap();
    rules.apply(s, a).unwrap_or_else(|e| panic!("{text}: {e}"));
    rules.check_state(s).unwrap();
}

/// S001:L493-495: all 55 violet buildings (31 kinds) beside the board; from the first
/// player clockwise each picks one for an empty slot of its cost, a small one with its
/// second copy, until the 12 small and 5 large slots are full; the 26 others leave.
#[test]
fn draft_fills_the_slots_in_turn() {
    let rules = rules();
    let mut s = rules.new_game(4, 3).unwrap();
    assert_eq!(names(&rules, &s).len(), 31, "every violet building has a free slot of its cost");
    let mut seats = Vec::new();
    let mut picks = 0;
    while !s.draft.over {
        let ToMove::Seat(seat) = rules.to_move(&s) else { panic!() };
        seats.push(seat);
        let first = names(&rules, &s)[0].clone();
        pick(&rules, &mut s, &first);
        picks += 1;
    }
    assert_eq!(picks, 17);
    assert_eq!(seats[..6], [0, 1, 2, 3, 0, 1]);
    let b = &rules.base;
    let mut in_game = 0;
    let mut copies = 0;
    for (i, x) in b.buildings.iter().enumerate() {
        if x.kind == rulesmith_puerto_rico::rules::BuildingKind::Violet {
            if s.base.in_game(i) {
                in_game += 1;
                copies += u32::from(s.base.buildings[i]);
            } else {
                assert_eq!(s.base.buildings[i], 0, "{}", x.id);
            }
        }
    }
    assert_eq!((in_game, copies), (17, 12 * 2 + 5));
    assert_eq!(55 - copies, 26, "the buildings left in the box");
    // The game proper starts with the governor choosing a role.
    assert_eq!(rules.to_move(&s), ToMove::Seat(0));
    assert!(names(&rules, &s).contains(&"settler".to_string()));
}

/// S001:L499 (with D B.1's correction "2, 4 y 8" → 2, 5 and 8): costs 2, 5 and 8 have two
/// slots for four buildings; the others one slot for two; cost 10 five slots for seven.
#[test]
fn candidates_per_cost() {
    let rules = rules();
    let s = rules.new_game(4, 3).unwrap();
    let mut by_cost: BTreeMap<u8, (usize, usize)> = BTreeMap::new();
    for a in names(&rules, &s) {
        let id = a.trim_start_matches("draft ");
        let cost = rules.base.buildings[rules.base.building_index(id).unwrap()].cost;
        by_cost.entry(cost).or_default().0 += 1;
    }
    for &c in &rules.draft.slots {
        by_cost.entry(c).or_default().1 += 1;
    }
    let want: BTreeMap<u8, (usize, usize)> = [
        (1, (2, 1)),
        (2, (4, 2)),
        (3, (2, 1)),
        (4, (2, 1)),
        (5, (4, 2)),
        (6, (2, 1)),
        (7, (2, 1)),
        (8, (4, 2)),
        (9, (2, 1)),
        (10, (7, 5)),
    ]
    .into_iter()
    .collect();
    assert_eq!(by_cost, want, "cost: (candidates, slots)");
}

/// The example of S001:L497: the black market goes on the hacienda's slot, then the
/// hacienda on the construction hut's; now neither the construction hut nor the forest
/// house can be chosen: no slot of cost 2 is left. (Without the exclusion of D B.1, so
/// that the slots alone decide.)
#[test]
fn draft_example_s001_l497() {
    let rules = rules_with("[draft]\nexclusive = []\n");
    let mut s = rules.new_game(4, 3).unwrap();
    pick(&rules, &mut s, "draft black-market");
    pick(&rules, &mut s, "draft hacienda");
    let l = names(&rules, &s);
    for id in ["construction-hut", "forest-house", "black-market", "hacienda"] {
        assert!(!l.contains(&format!("draft {id}")), "{id}");
    }
    let a = rules.parse_action(&s, "draft construction-hut").unwrap();
    assert!(matches!(rules.apply(&mut s, a), Err(GameError::Illegal { .. })));
    assert_eq!(s.base.buildings[rules.base.building_index("black-market").unwrap()], 2, "a pair");
}

/// S001:L495, L525-527: the bundled draft has no exclusion, so the hacienda and the forest
/// house may both be drafted. D B.1 (official English rules, P-EXPEN): the exclusion of
/// other editions is the ruleset option `[draft] exclusive`; once one is drafted, the other
/// cannot be.
#[test]
fn hacienda_and_forest_house_exclude_each_other() {
    // Default (the seed): both may be drafted.
    let rules = rules();
    let mut s = rules.new_game(3, 3).unwrap();
    pick(&rules, &mut s, "draft forest-house");
    pick(&rules, &mut s, "draft hacienda");
    assert!(s.base.in_game(rules.base.building_index("hacienda").unwrap()));
    // The option on.
    let rules = rules_with("[draft]\nexclusive = [[\"hacienda\", \"forest-house\"]]\n");
    let mut s = rules.new_game(3, 3).unwrap();
    pick(&rules, &mut s, "draft forest-house");
    let l = names(&rules, &s);
    assert!(!l.contains(&"draft hacienda".to_string()) && l.contains(&"draft construction-hut".to_string()));
    // The other way round.
    let mut s = rules.new_game(3, 3).unwrap();
    pick(&rules, &mut s, "draft hacienda");
    assert!(!names(&rules, &s).contains(&"draft forest-house".to_string()));
}

/// Draft picks are ordinary actions: the game refuses other actions during the draft
/// and draft picks after it; the notation round-trips; the state survives JSON.
#[test]
fn draft_actions() {
    let rules = rules();
    let mut s = rules.new_game(2, 5).unwrap();
    let a = rules.parse_action(&s, "settler").unwrap();
    assert!(matches!(rules.apply(&mut s, a), Err(GameError::Illegal { .. })));
    assert!(matches!(rules.parse_action(&s, "draft castle"), Err(GameError::Unparsable { .. })));
    let mut buf = Vec::new();
    rules.legal_actions(&s, &mut buf);
    for &a in &buf {
        assert_eq!(rules.parse_action(&s, &rules.format_action(&s, a)).unwrap(), a);
    }
    pick(&rules, &mut s, "draft library");
    let back = rules.state_from_json(rules.state_to_json(&s)).unwrap();
    assert_eq!(back, s);
    let v = rules.state_to_json(&s);
    assert_eq!(v.pointer("/draft/slots/9"), Some(&serde_json::json!({ "cost": 8, "building": "library" })));
    while !s.draft.over {
        rules.legal_actions(&s, &mut buf);
        rules.apply(&mut s, buf[0]).unwrap();
    }
    assert!(matches!(rules.apply(&mut s, Action::Setup(0)), Err(GameError::Illegal { .. })));
    // 2 players: one copy of each violet building (chosen default, as the base 2-player rules).
    let lib = rules.base.building_index("library").unwrap();
    assert_eq!(s.base.buildings[lib], 1);
}

/// `selection = "random"` fills the slots at setup; `selection = "all"` puts every violet
/// building in the game with no draft.
#[test]
fn selection_options() {
    let rules = rules_with("[draft]\nselection = \"random\"\n");
    let s = rules.new_game(4, 9).unwrap();
    assert!(s.draft.over);
    assert_eq!(s.draft.picks(), 17);
    rules.check_state(&s).unwrap();
    assert_eq!(rules.to_move(&s), ToMove::Seat(0));
    let rules = rules_with("[draft]\nselection = \"all\"\n");
    let s = rules.new_game(4, 9).unwrap();
    assert!(s.draft.over && s.base.out_of_game == 0);
    assert_eq!(s.base.buildings[rules.base.building_index("statue").unwrap()], 1);
    rules.check_state(&s).unwrap();
}

/// An edited state that breaks the draft is refused: a drafted building must be in the
/// game, an undrafted one out of it.
#[test]
fn draft_state_is_checked() {
    let rules = rules();
    let mut s = rules.new_game(3, 1).unwrap();
    pick(&rules, &mut s, "draft library");
    let mut v = rules.state_to_json(&s);
    *v.pointer_mut("/draft/slots/9/building").unwrap() = serde_json::Value::Null;
    let err = rules.state_from_json(v).unwrap_err().to_string();
    assert!(err.contains("library"), "{err}");
    // The draft's own JSON: every mistake named where it is.
    let good = rules.state_to_json(&s);
    let cases = [
        (
            "/draft/slots/0/building",
            json!("castle"),
            "/draft/slots/0/building: unknown building `castle` (expected one of",
        ),
        ("/draft/slots/0/building", json!(3), "/draft/slots/0/building: invalid type: integer `3`, expected a string"),
        ("/draft/slots/0/cost", json!(9), "/draft/slots/0/cost: the slot costs 1"),
        ("/draft/slots/0/size", json!(9), "/draft/slots/0/size: unknown field `size`, expected `cost` or `building`"),
        ("/draft/slots/0", json!(7), "/draft/slots/0: invalid type: integer `7`, expected a map"),
        ("/draft/slots", json!([]), "/draft/slots: 0 slots, the ruleset has 17"),
        ("/draft/over", json!("yes"), "/draft/over: invalid type: string \"yes\", expected a boolean"),
        ("/draft", json!(null), "/draft: missing (the building draft)"),
    ];
    for (at, value, message) in cases {
        let err = rulesmith_testkit::kit::refused_json(&rules, &good, at, value);
        assert!(err.contains(message), "{at}: {err}");
    }
}

/// The bots draft too (random and greedy over the legal picks) and play on.
#[test]
fn bots_draft() {
    let rules = rules();
    for bot in [BotSpec::Random, BotSpec::Greedy] {
        let r = sim::play_game(
            &rules,
            &[bot.clone(), bot.clone(), bot],
            &sim::PlayOptions { record: true, ..sim::PlayOptions::new(3, 42) },
        )
        .unwrap();
        let actions = r.actions.to_vec();
        assert!(actions[..17].iter().all(|a| a.starts_with("draft ")), "{:?}", &actions[..17]);
        assert!(!actions[17].starts_with("draft "));
    }
}

/// The ruleset's `[draft]` is checked like everything else: unknown keys, impossible
/// slots and unknown buildings are errors with their location.
#[test]
fn draft_settings_are_validated() {
    let b = bundled();
    let text = "[ruleset]\nname = \"bad\"\ngame = \"puerto-rico-expansion\"\nextends = \"puerto-rico-expansion\"\n\
                [draft]\nslots = [1, 11]\nexclusive = [[\"hacienda\", \"castle\"], [\"corn\"]]\nsnake = 1\n";
    let all = [b[0], b[1], rulesmith_core::ruleset::Bundled { name: "bad", path: "bad.toml", text }];
    let loaded = rulesmith_core::ruleset::load("bad", &all).unwrap();
    let mut d = rulesmith_core::ruleset::Diagnostics::default();
    assert!(rulesmith_puerto_rico_expansion::decode(&loaded.tree, &mut d).is_none());
    let r = d.render(&loaded.sources);
    for want in ["no violet building costs 11", "unknown building `castle`", "unknown key `snake`", "bad.toml:"] {
        assert!(r.contains(want), "{want}: {r}");
    }
}

/// The base game stores the forests (`held_tiles`, `extension_tiles`) and reads, writes
/// and names them in the expansion's words, `/forest_tiles` and `/players/N/forests`:
/// its messages are right the first time, none is rewritten afterwards.
#[test]
fn forest_keys_are_read_and_named_in_the_expansions_words() {
    let rules = rules();
    let mut s = rules.new_game(3, 1).unwrap();
    while !s.draft.over {
        let mut buf = Vec::new();
        rules.legal_actions(&s, &mut buf);
        rules.apply(&mut s, buf[0]).unwrap();
    }
    let good = rules.state_to_json(&s);
    assert!(good.get("forest_tiles").is_some() && good.get("held_tiles").is_none(), "{good}");
    let player = &good["players"][0];
    assert!(player.get("forests").is_some() && player.get("extension_tiles").is_none(), "{player}");
    let cases = [
        ("/players/1/forests", json!("x"), "/players/1/forests: invalid type: string \"x\", expected u8"),
        ("/forest_tiles/corn", json!(-1), "/forest_tiles/corn: invalid value: integer `-1`, expected u8"),
        ("/forest_tiles", json!(3), "/forest_tiles: invalid type: integer `3`, expected a map"),
        (
            "/players/0/forests",
            json!(1),
            "forests: 1 on the islands, but 0 tiles lie face down as forests (/forest_tiles)",
        ),
    ];
    for (at, value, message) in cases {
        let err = rulesmith_testkit::kit::refused_json(&rules, &good, at, value);
        assert!(err.contains(message), "{at}: {err}");
    }
    // The base game's names mean nothing in the expansion's JSON: left aside, as any
    // unknown key.
    let mut base_names = good.clone();
    base_names["held_tiles"] = json!({ "corn": 3 });
    base_names["players"][0]["extension_tiles"] = json!(3);
    assert_eq!(rules.state_from_json(base_names).unwrap(), s);
}
