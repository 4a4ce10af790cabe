use super::*;
use crate::testing::TakeAway;

fn quiet() -> TakeAway {
    TakeAway { spill_one_in: 0, ..crate::testing::take_away().unwrap() }
}

fn load_toy(arg: &str) -> Result<Arc<dyn AnyGame>, String> {
    match arg {
        "take-away" => Ok(Arc::new(quiet())),
        other if other.ends_with("toy.toml") => Ok(Arc::new(crate::testing::take_away().unwrap())),
        other => Err(format!("unknown ruleset `{other}`")),
    }
}

fn run_text(text: &str) -> Verdict {
    match parse(Path::new("tests/s.toml"), text) {
        Ok(s) => run(&s, &mut load_toy),
        Err(e) => panic!("{}", e.render()),
    }
}

const ENDGAME: &str = r#"
description = "toy endgame"
ruleset = "take-away"
players = 2
seed = 3

[set]
"/pile" = 5
"/discarded" = 16
"/players/0/secret" = 2
"/players/1/secret" = 0

[[step]]
expect.to_move = 0
expect.legal = ["take 1", "take 2", "take 3", "pass"]
expect.over = false

[[step]]
play = "take 3"
by = 0
expect.state = { "/pile" = 2, "/players/0/taken" = 3, "/players/0" = { taken = 3, secret = 2, passed = false } }
expect.legal_includes = ["take 2", "pass"]
expect.legal_excludes = ["take 3"]
expect.rejects = ["take 3", "take  7"]

[[step]]
play = ["pass", "take 2"]
expect.over = true
expect.scores = [7, 0]
expect.winner = 0
"#;

#[test]
fn a_scenario_passes_with_every_kind_of_expectation() {
    assert_eq!(run_text(ENDGAME), Verdict::Pass);
}

fn with(find: &str, replace: &str) -> Verdict {
    assert!(ENDGAME.contains(find), "{find}");
    run_text(&ENDGAME.replacen(find, replace, 1))
}

fn fails_at(v: Verdict, step: usize, needle: &str) {
    match v {
        Verdict::Fail { step: s, message } => {
            assert_eq!(s, step, "{message}");
            assert!(message.contains(needle), "`{needle}` not in: {message}");
        }
        other => panic!("expected a failure at step {step}, found {other:?}"),
    }
}

#[test]
fn each_expectation_reports_expected_and_found() {
    fails_at(with("expect.to_move = 0", "expect.to_move = 1"), 1, "expected seat 1 to move, found seat 0");
    fails_at(with("expect.over = false", "expect.over = true"), 1, "expected the game to be over, found seat 0");
    fails_at(with("\"take 3\", \"pass\"]", "\"take 3\"]"), 1, "not expected: [pass]");
    fails_at(with("\"/pile\" = 2", "\"/pile\" = 3"), 2, "expected /pile = 3, found 2");
    fails_at(with("\"/pile\" = 2", "\"/pyle\" = 2"), 2, "found no such value in the state; `the state` has keys");
    fails_at(with("[\"take 2\", \"pass\"]", "[\"take 3\"]"), 2, "expected `take 3` to be legal");
    fails_at(with("[\"take 3\"]", "[\"take 2\"]"), 2, "expected `take 2` not to be legal, but it is");
    fails_at(
        with("[\"take 3\", \"take  7\"]", "\"take 2\""),
        2,
        "expected `take 2` to be refused, but it was accepted",
    );
    fails_at(with("\"take  7\"", "\"grab\""), 2, "not an action of this game");
    fails_at(with("[7, 0]", "[7, 1]"), 3, "expected scores [7, 1], found [7, 0]");
    fails_at(with("expect.winner = 0", "expect.winner = [0, 1]"), 3, "expected winner seats 0 and 1, found seat 0");
    fails_at(with("by = 0", "by = 1"), 2, "expected seat 1 to move, found seat 0");
}

#[test]
fn an_illegal_play_fails_with_the_legal_actions() {
    fails_at(with("play = \"take 3\"", "play = \"take 4\""), 2, "legal now: take 1, take 2, take 3, pass");
    fails_at(
        with("play = [\"pass\", \"take 2\"]", "play = [\"pass\", \"take 1\", \"pass\"]"),
        3,
        "play 3 of 3 `pass` refused",
    );
    fails_at(with("play = [\"pass\", \"take 2\"]", "play = [\"pass\", \"take 2\", \"pass\"]"), 3, "the game is over");
}

#[test]
fn an_impossible_set_is_refused_naming_the_pointer() {
    let v = with("\"/discarded\" = 16", "\"/discarded\" = 15");
    let Verdict::Invalid(m) = v else { panic!("{v:?}") };
    assert!(m.contains("stones are not conserved"), "{m}");
    assert!(m.contains("the edits together (`/pile`, `/discarded`, `/players/0/secret`, `/players/1/secret`)"), "{m}");
    let v = with("\"/players/1/secret\" = 0", "\"/players/1/secret\" = 9");
    let Verdict::Invalid(m) = v else { panic!("{v:?}") };
    assert!(m.contains("[set] `/players/1/secret` = 9 (tests/s.toml:11:1) leaves an impossible state"), "{m}");
    assert!(m.contains("above the maximum 5"), "{m}");
    let v = with("\"/players/1/secret\" = 0", "\"/players/1/secret\" = \"zero\"");
    let Verdict::Invalid(m) = v else { panic!("{v:?}") };
    assert!(m.contains("`/players/1/secret`") && m.contains("invalid type"), "{m}");
    let v = with("\"/players/1/secret\" = 0", "\"/players/1/sekret\" = 0");
    let Verdict::Invalid(m) = v else { panic!("{v:?}") };
    assert!(m.contains("[set] tests/s.toml:11:1: `/players/1/sekret`: no such value") && m.contains("`secret`"), "{m}");
}

#[test]
fn the_generator_cannot_be_broken_by_a_set() {
    let v = with("\"/pile\" = 5", "\"/pile\" = 5\n\"/rng/state\" = 0\n\"/rng/increment\" = 0");
    let Verdict::Invalid(m) = v else { panic!("{v:?}") };
    assert!(m.contains("`increment` must be odd"), "{m}");
}

#[test]
fn a_bad_ruleset_or_player_count_is_invalid() {
    let v = with("ruleset = \"take-away\"", "ruleset = \"nope\"");
    assert!(matches!(&v, Verdict::Invalid(m) if m.contains("unknown ruleset `nope`")), "{v:?}");
    let v = with("players = 2", "players = 5");
    assert!(matches!(&v, Verdict::Invalid(m) if m.contains("5 players is not supported")), "{v:?}");
}

#[test]
fn a_relative_ruleset_path_is_resolved_against_the_file() {
    let s = parse(Path::new("tests/scenarios/x/s.toml"), "ruleset = \"../toy.toml\"\n").unwrap();
    assert_eq!(Path::new(&s.ruleset_arg), Path::new("tests/scenarios/x/../toy.toml"));
    assert_eq!(s.seed, DEFAULT_SEED);
    assert_eq!(s.players, None);
    // Issue 27: with no step expecting anything, it checks nothing.
    assert_eq!(run(&s, &mut load_toy), Verdict::Invalid(NOTHING_CHECKED.to_string()));
    let s = parse(Path::new("tests/scenarios/x/s.toml"), "ruleset = \"../toy.toml\"\n[[step]]\nexpect.to_move = 0\n")
        .unwrap();
    assert_eq!(run(&s, &mut load_toy), Verdict::Pass);
}

#[test]
fn every_problem_of_a_file_is_reported_with_its_location() {
    let text = r#"ruleset = "take-away"
player = 2
seed = "x"
[set]
"players/0" = 1
[[step]]
play = 3
by = 9
expect.legel = ["a"]
expect.state = { "/a" = 1 }
"#;
    let e = parse(Path::new("s.toml"), text).unwrap_err().render();
    for needle in [
        "s.toml:2:1: unknown key `player`",
        "s.toml:3:8: expected an integer, found a string",
        "s.toml:5:1: `players/0` is not a JSON Pointer",
        "s.toml:7:8: expected an action (a string) or a list of actions, found an integer",
        "s.toml:8:6: 9 is out of range",
        "s.toml:9:8: unknown key `legel`",
    ] {
        assert!(e.contains(needle), "`{needle}` not in:\n{e}");
    }
    let e = parse(Path::new("s.toml"), "ruleset = \n").unwrap_err().render();
    assert!(e.contains("s.toml:1:") && e.contains("invalid TOML"), "{e}");
    let e = parse(Path::new("s.toml"), "seed = 1\n").unwrap_err().render();
    assert!(e.contains("missing key `ruleset`"), "{e}");
}

#[test]
fn reach_plays_without_checking() {
    let s = parse(Path::new("s.toml"), &ENDGAME.replace("expect.scores = [7, 0]", "expect.scores = [1, 1]")).unwrap();
    let game = quiet();
    let session = reach(&s, &game).unwrap();
    assert_eq!(session.to_move(), ToMove::Terminal);
    assert_eq!(session.history(), ["take 3", "pass", "take 2"]);
}

#[test]
fn scenario_and_ruleset_texts_are_told_apart() {
    assert!(is_scenario_text(ENDGAME));
    assert!(!is_scenario_text(crate::testing::TAKE_AWAY_TOML));
    assert!(!is_scenario_text("not toml ["));
    assert!(is_ruleset_text(crate::testing::TAKE_AWAY_TOML));
    assert!(!is_ruleset_text(ENDGAME));
}

#[test]
fn json_numbers_compare_by_value() {
    use serde_json::json;
    assert!(json_eq(&json!(1), &json!(1.0)));
    assert!(json_eq(&json!({"a": [1, 2]}), &json!({"a": [1.0, 2]})));
    assert!(!json_eq(&json!({"a": 1}), &json!({"a": 1, "b": 2})));
    assert!(!json_eq(&json!(-1), &json!(1)));
}

mod never_panics {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn on_any_text(text in "\\PC{0,300}") {
            if let Ok(s) = parse(Path::new("p.toml"), &text) {
                let _ = run(&s, &mut load_toy);
            }
        }

        #[test]
        fn on_mutated_scenarios(cut in 0usize..ENDGAME.len(), insert in "[\\[\\]=\"/a-z0-9 \n.{}-]{0,12}") {
            let mut text = ENDGAME.to_string();
            let at = (0..=cut).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
            text.insert_str(at, &insert);
            if let Ok(s) = parse(Path::new("p.toml"), &text) {
                let _ = run(&s, &mut load_toy);
                let _ = reach(&s, &quiet());
            }
        }

        #[test]
        fn on_any_set_value(value in prop_oneof![
            any::<i64>().prop_map(|v| v.to_string()),
            "\"[a-z]{0,5}\"",
            Just("[1, 2]".to_string()),
            Just("{ a = 1 }".to_string()),
            Just("true".to_string()),
            Just("1.5".to_string()),
        ], pointer in prop_oneof![
            Just("/pile"), Just("/players/0"), Just("/players/9/secret"), Just("/players"), Just("/rng"),
            Just(""), Just("/to_move"), Just("/players/0/taken"), Just("/discarded/x"),
        ]) {
            let text = format!("ruleset = \"take-away\"\nplayers = 2\n[set]\n\"{pointer}\" = {value}\n");
            if let Ok(s) = parse(Path::new("p.toml"), &text) {
                let _ = run(&s, &mut load_toy);
            }
        }
    }
}
