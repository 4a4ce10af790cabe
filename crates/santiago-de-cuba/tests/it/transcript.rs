//! A full seeded 3-player game between random bots, action by action with the final
//! scores: any change to the rules' behaviour, the notation or the random streams shows
//! up as a diff of this transcript.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests may fail loudly

use rulesmith_core::prelude::*;
use rulesmith_core::{Game, Rng, ToMove};
use std::fmt::Write as _;

#[test]
fn three_player_random_game_transcript() {
    let g = crate::common::game();
    let seed = 2011;
    let mut s = g.new_game(3, seed).unwrap();
    let mut rng = Rng::from_seed(seed);
    let mut buf = Vec::new();
    let mut out = String::new();
    let j = g.state_to_json(&s);
    writeln!(out, "street: {}", j["street"]).unwrap();
    for (b, v) in j["buildings"].as_object().unwrap() {
        writeln!(out, "  {b} under the {} flower", v["flower"].as_str().unwrap()).unwrap();
    }
    while let ToMove::Seat(seat) = g.to_move(&s) {
        g.legal_actions(&s, &mut buf);
        let a = buf[rng.index(buf.len())];
        writeln!(out, "round {:>2} seat {seat}: {}", s.turn.round, g.format_action(&s, a)).unwrap();
        g.apply(&mut s, a).unwrap();
    }
    let o = g.outcome(&s).unwrap();
    writeln!(out, "end: {}", o.end).unwrap();
    for seat in 0..3 {
        let p = &s.players[seat as u8];
        writeln!(
            out,
            "seat {seat}: score {} (vp {}, leftover goods {}, pesos {}), rank {}",
            o.scores[seat],
            p.vp,
            p.goods_total(),
            p.pesos,
            o.ranks[seat]
        )
        .unwrap();
    }
    insta::assert_snapshot!(out);
}
