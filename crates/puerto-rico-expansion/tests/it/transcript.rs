//! A full seeded 4-player game between random bots, draft included, action by action
//! with the seat to move, and the final scores: any change to the rules engine that
//! changes play shows up here.

// Tests may unwrap and panic, helpers included.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use rulesmith_core::Rng;
use rulesmith_core::game::{Game, ToMove};
use std::fmt::Write as _;

#[test]
fn seeded_four_player_game() {
    let rules = crate::common::rules();
    let mut s = rules.new_game(4, 2026).unwrap();
    let mut rng = Rng::from_seed(7);
    let mut buf = Vec::new();
    let mut text = String::new();
    let mut n = 0;
    while let ToMove::Seat(seat) = rules.to_move(&s) {
        rules.legal_actions(&s, &mut buf);
        let a = buf[rng.index(buf.len())];
        writeln!(text, "{n:4} p{seat} {}", rules.format_action(&s, a)).unwrap();
        rules.apply(&mut s, a).unwrap();
        rules.check_state(&s).unwrap();
        n += 1;
    }
    let o = rules.outcome(&s).unwrap();
    let cities: Vec<Vec<String>> = s
        .base
        .players
        .iter()
        .map(|p| p.city.iter().map(|b| rules.base.buildings[b.building as usize].id.clone()).collect())
        .collect();
    writeln!(
        text,
        "end: {}\nscores: {:?}\ntiebreaks: {:?}\nranks: {:?}\nrounds: {}",
        o.end, o.scores, o.tiebreaks, o.ranks, s.base.round
    )
    .unwrap();
    for (i, c) in cities.iter().enumerate() {
        writeln!(text, "city {i}: {} (forests {})", c.join(", "), s.base.players[i as u8].extension_tiles).unwrap();
    }
    insta::assert_snapshot!(text);
}
