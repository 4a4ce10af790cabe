//! `rulesmith play` and `rulesmith show-game`: the screens of every game (insta
//! snapshots, plain text, within 80×40), the menu and its input (numbers, notation in any
//! case, prefixes, "did you mean"), undo, save and resume, end of input keeping the
//! record, and no panic whatever is typed.

// Tests may unwrap and panic, helpers included.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use rulesmith::core::bots::BotSpec;
use rulesmith::core::game::ToMove;
use rulesmith::core::screen::fits;
use rulesmith::core::sim::bot_rng;

/// The screen of `seat` after `steps` decisions of random bots from `seed`.
fn screen_after(ruleset: &str, players: usize, seed: u64, steps: usize, seat: u8) -> String {
    let r = rulesmith::load(ruleset).unwrap();
    let mut s = r.game.start(players, seed).unwrap();
    let mut rng = bot_rng(seed);
    for _ in 0..steps {
        if s.to_move() == ToMove::Terminal {
            break;
        }
        let a = s.bot_choice(BotSpec::Random, &mut rng).unwrap();
        s.play(&a).unwrap();
    }
    let plain = s.screen(seat, false);
    fits(&plain, 40).unwrap_or_else(|e| panic!("{ruleset}: the screen does not fit 80×40: {e}\n{plain}"));
    assert!(!plain.contains('\x1b'), "plain screens carry no colour");
    let coloured = s.screen(seat, true);
    assert!(coloured.contains('\x1b'), "{ruleset}: no colour on a terminal");
    plain
}

#[test]
fn screen_puerto_rico() {
    insta::assert_snapshot!(screen_after("puerto-rico", 4, 7, 60, 0));
}

#[test]
fn screen_puerto_rico_five_players_late() {
    insta::assert_snapshot!(screen_after("puerto-rico", 5, 3, 400, 2));
}

#[test]
fn screen_puerto_rico_expansion_draft() {
    insta::assert_snapshot!(screen_after("puerto-rico-expansion", 3, 5, 4, 1));
}

#[test]
fn screen_puerto_rico_expansion() {
    insta::assert_snapshot!(screen_after("puerto-rico-expansion", 4, 11, 150, 3));
}

#[test]
fn screen_santiago_de_cuba() {
    insta::assert_snapshot!(screen_after("santiago-de-cuba", 4, 7, 40, 0));
}

#[test]
fn screen_mundo_163() {
    insta::assert_snapshot!(screen_after("mundo-163", 4, 7, 120, 0));
}
