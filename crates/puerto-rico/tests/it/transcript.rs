#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! A full seeded 4-player game between random bots, action by action, with the final
//! scores: any change to the rules engine that changes play shows up here.

use rulesmith_core::game::Game;

#[test]
fn seeded_four_player_game() {
    let rules = crate::common::rules();
    let (log, s) = crate::common::random_game(&rules, 4, 2026);
    let o = rules.outcome(&s).unwrap();
    let mut text = String::new();
    for (i, a) in log.iter().enumerate() {
        text.push_str(&format!("{i:4} {a}\n"));
    }
    text.push_str(&format!(
        "end: {}\nscores: {:?}\ntiebreaks: {:?}\nranks: {:?}\nrounds: {}\n",
        o.end, o.scores, o.tiebreaks, o.ranks, s.round
    ));
    insta::assert_snapshot!(text);
}
