//! A full seeded 3-player game between random bots, action by action with the final
//! scores: any change to the rules' behaviour, the notation or the random streams shows
//! up as a diff of this transcript.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use rulesmith_core::prelude::*;
use rulesmith_core::{Game, Rng, ToMove};
use rulesmith_mundo_163::scoring::income;
use std::fmt::Write as _;

#[test]
fn three_player_random_game_transcript() {
    let g = crate::common::game();
    let seed = 163;
    let mut s = g.new_game(3, seed).unwrap();
    let mut rng = Rng::from_seed(seed);
    let mut buf = Vec::new();
    let mut out = String::new();
    let j = g.state_to_json(&s);
    let deck: Vec<&str> = j["privilege_deck"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    writeln!(out, "deck (top first): {}", deck.join(" ")).unwrap();
    while let ToMove::Seat(seat) = g.to_move(&s) {
        g.legal_actions(&s, &mut buf);
        let a = buf[rng.index(buf.len())];
        writeln!(out, "round {:>2} seat {seat}: {}", s.round, g.format_action(&s, a)).unwrap();
        g.apply(&mut s, a).unwrap();
    }
    let o = g.outcome(&s).unwrap();
    writeln!(out, "end: {} after round {}, {} goods delivered", o.end, s.round, s.delivered_total()).unwrap();
    for seat in 0..3u8 {
        let p = &s.p[seat];
        writeln!(
            out,
            "seat {seat}: score {}, delivered {:?}, money {}, income {}, settlements {}, rank {}",
            o.scores[usize::from(seat)],
            &p.delivered[..5],
            p.money,
            income(&g.rules, &s, seat, false),
            p.settlements.count_ones(),
            o.ranks[usize::from(seat)]
        )
        .unwrap();
    }
    insta::assert_snapshot!(out);
}
