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
        let a = s.bots().unwrap().bot_choice(BotSpec::Random, &mut rng).unwrap();
        s.play(&a).unwrap();
    }
    let plain = s.views().unwrap().screen(seat, false);
    fits(&plain, 40).unwrap_or_else(|e| panic!("{ruleset}: the screen does not fit 80×40: {e}\n{plain}"));
    assert!(!plain.contains('\x1b'), "plain screens carry no colour");
    let coloured = s.views().unwrap().screen(seat, true);
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

// ---------------------------------------------------------------- the binary

use crate::{Out, root};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn run_bytes(args: &[&str], stdin: &[u8]) -> Out {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_rulesmith"))
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The game may end (or refuse its arguments) before reading everything.
    let _ = child.stdin.take().unwrap().write_all(stdin);
    let o = child.wait_with_output().unwrap();
    let out = Out {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    };
    for bad in ["panicked", "internal error", "RUST_BACKTRACE"] {
        assert!(!out.stderr.contains(bad), "{args:?}: {}", out.stderr);
    }
    out
}

fn run(args: &[&str], stdin: &str) -> Out {
    run_bytes(args, stdin.as_bytes())
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rulesmith-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn record_of(path: &Path) -> serde_json::Value {
    serde_json::from_str(std::fs::read_to_string(path).unwrap().trim()).unwrap()
}

/// The first action of the first menu in the output (`  1 settler (+1 doubloon)`).
fn first_menu_item(stdout: &str) -> String {
    // Menu lines are indented by at most 3 spaces (screens indent details by 4).
    let line =
        stdout.lines().find(|l| l.trim_start().starts_with("1 ") && l.len() - l.trim_start().len() <= 3).unwrap();
    let item = line.trim_start().strip_prefix("1 ").unwrap();
    let item = item.split("  ").next().unwrap();
    item.split(" (").next().unwrap().trim().to_string()
}

/// A typo of an action: one letter of its first word dropped.
fn typo(action: &str) -> String {
    let first = action.split(' ').next().unwrap();
    let cut = first.len() / 2;
    format!("{}{}{}", &first[..cut], &first[cut + 1..], &action[first.len()..])
}

const GAMES: [&str; 4] = ["puerto-rico", "puerto-rico-expansion", "santiago-de-cuba", "mundo-163"];

#[test]
fn play_each_game_with_a_typo_undo_save_and_resume() {
    for game in GAMES {
        let rec = temp(&format!("{game}.jsonl"));
        let rec_s = rec.to_str().unwrap();
        let args = ["play", game, "--players", "3", "--seed", "5", "--bots", "random", "--record", rec_s];
        let first = first_menu_item(&run(&args, "quit\n").stdout);
        let input = format!("{}\n{}\n1\nundo\n1\nquit\n", typo(&first), first.to_uppercase());
        let o = run(&args, &input);
        assert_eq!(o.code, 0, "{game}: {}", o.stderr);
        assert!(o.stdout.contains(&format!("Did you mean `{first}`?")), "{game}: {}", o.stdout);
        assert!(o.stdout.contains(&format!(": {first}\n")), "{game}: the action typed in capitals is played");
        assert!(o.stdout.contains("Back to your decision 2."), "{game}: {}", o.stdout);
        assert!(o.stdout.contains("You left the game; it is saved in"), "{game}");
        let saved = record_of(&rec);
        assert_eq!(saved["result"], serde_json::Value::Null, "{game}: an unfinished game");
        let actions = saved["actions"].as_array().unwrap().len();
        assert!(actions >= 2, "{game}: {saved}");
        // Undo took the second decision back: the record is the same as with input `1 1`.
        let again = temp(&format!("{game}-again.jsonl"));
        let mut args2 = args;
        args2[9] = again.to_str().unwrap();
        run(&args2, &format!("{first}\n1\nquit\n"));
        assert_eq!(record_of(&again)["actions"], saved["actions"], "{game}: undo then 1 = 1");
        // Resume: the same position, then one more decision of ours.
        let o = run(&["play", "--resume", rec_s], "1\nquit\n");
        assert_eq!(o.code, 0, "{game}: {}", o.stderr);
        assert!(o.stdout.contains(&format!("Resumed after {actions} decisions")), "{game}: {}", o.stdout);
        let resumed = record_of(&rec);
        assert!(resumed["actions"].as_array().unwrap().len() > actions, "{game}: {resumed}");
        assert_eq!(resumed["actions"].as_array().unwrap()[..actions], saved["actions"].as_array().unwrap()[..]);
        // An unfinished record replays cleanly.
        let o = run(&["replay", rec_s], "");
        assert_eq!(o.code, 0, "{game}: {}{}", o.stdout, o.stderr);
    }
}

#[test]
fn a_whole_game_of_each_game_from_the_menu() {
    for game in GAMES {
        let rec = temp(&format!("{game}-whole.jsonl"));
        let input = "1\n".repeat(20_000);
        let o = run(
            &["play", game, "--players", "3", "--seed", "2", "--bots", "random", "--record", rec.to_str().unwrap()],
            &input,
        );
        assert_eq!(o.code, 0, "{game}: {}", o.stderr);
        assert!(o.stdout.contains("The game is over"), "{game}");
        assert_ne!(record_of(&rec)["result"], serde_json::Value::Null, "{game}");
        let o = run(&["replay", rec.to_str().unwrap()], "");
        assert_eq!(o.code, 0, "{game}: {}", o.stderr);
    }
}

/// Issue 12: `play` hosts a bot program (`exec:`) at any seat: it plays its moves, an undo
/// past them and a resume keep the record's moves (the program is not asked again for
/// them), a whole game ends; a program that crashes, answers nonsense or falls silent
/// ends the session with exit 2 naming it and its seat, the game so far kept.
#[test]
fn play_hosts_a_bot_program() {
    if !crate::python3_available() {
        return;
    }
    const BOT: &str = "exec:python3 examples/python_bot.py";
    for game in GAMES {
        let rec = temp(&format!("{game}-exec.jsonl"));
        let rec_s = rec.to_str().unwrap();
        let args = ["play", game, "--players", "2", "--seed", "3", "--bots", BOT, "--record", rec_s];
        let o = run(&args, "1\n1\nundo\n1\nquit\n");
        assert_eq!(o.code, 0, "{game}: {}", o.stderr);
        assert!(o.stdout.contains(&format!("seat 1 ({BOT}): ")), "{game}: {}", o.stdout);
        assert!(o.stdout.contains("Back to your decision"), "{game}: {}", o.stdout);
        let saved = record_of(&rec);
        assert_eq!(saved["bots"][1], BOT, "{game}: {saved}");
        let actions = saved["actions"].as_array().unwrap().clone();
        // Issue 30: a record names a command to run; it runs only when the command line
        // names it too, or trusts the record.
        let o = run(&["play", "--resume", rec_s], "1\nquit\n");
        assert_eq!(o.code, 2, "{game}: {}", o.stdout);
        assert!(o.stderr.contains(&format!("names bot programs to run (seat 1 `{BOT}`)")), "{game}: {}", o.stderr);
        let o = run(&["play", "--resume", rec_s, "--bots", "random"], "1\nquit\n");
        assert_eq!(o.code, 2, "{game}: {}", o.stdout);
        assert!(o.stderr.contains(&format!("has `{BOT}` there")), "{game}: {}", o.stderr);
        let trust: &[&str] = if game == GAMES[0] { &["--trust-bots"] } else { &["--bots", BOT] };
        let o = run(&[&["play", "--resume", rec_s][..], trust].concat(), "1\nquit\n");
        assert_eq!(o.code, 0, "{game}: {}", o.stderr);
        assert!(o.stdout.contains("Running the bot programs the record names"), "{game}: {}", o.stdout);
        let resumed = record_of(&rec);
        assert_eq!(resumed["actions"].as_array().unwrap()[..actions.len()], actions[..], "{game}: history kept");
    }
    // A whole game against the program.
    let rec = temp("exec-whole.jsonl");
    let args = ["play", "puerto-rico", "--players", "2", "--bots", BOT, "--record", rec.to_str().unwrap()];
    let o = run(&args, &"1\n".repeat(5_000));
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains("The game is over"), "{}", o.stdout);
    // Broken programs.
    for (file, expected) in [
        ("crash.py", "exited (exit status: 3) without answering"),
        ("illegal.py", "answered `fly to the moon`, which is not a legal action now"),
        ("silent.py", "gave no answer within"),
    ] {
        let rec = temp(&format!("broken-{file}.jsonl"));
        let bot = format!("exec:python3 tests/fixtures/bots/{file}");
        let args = [
            "play",
            "puerto-rico",
            "--players",
            "2",
            "--human",
            "1",
            "--bots",
            &bot,
            "--bot-time-limit",
            "0.5",
            "--record",
            rec.to_str().unwrap(),
        ];
        let o = run(&args, "");
        assert_eq!(o.code, 2, "{file}: {}", o.stderr);
        assert!(o.stderr.contains(&format!("bot `{bot}` at seat 0: {expected}")), "{file}: {}", o.stderr);
        assert!(o.stderr.contains("the game so far is saved in"), "{file}: {}", o.stderr);
        assert_eq!(record_of(&rec)["result"], serde_json::Value::Null, "{file}: the record is kept");
    }
    let o = run(&["play", "puerto-rico", "--bot-time-limit", "0"], "");
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("--bot-time-limit 0: give seconds"), "{}", o.stderr);
}

#[test]
fn prefixes_numbers_and_commands() {
    let o = run(&["play", "puerto-rico", "--seed", "3"], "help\n?\nsett\n99\nb\nscreen\njson\nq\n");
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains("seat 0: settler"), "{}", o.stdout);
    assert!(o.stdout.contains("There is no action 99"), "{}", o.stdout);
    assert!(o.stdout.contains("Resume a saved game"), "help is shown");
    assert!(o.stdout.contains("\"players\""), "json shows the view");
    let o = run(&["play", "puerto-rico", "--seed", "3"], "undo\nsave\nquit\n");
    assert!(o.stdout.contains("Nothing to undo: this is your first decision."), "{}", o.stdout);
    assert!(o.stdout.contains("Save where? Type `save FILE`."), "{}", o.stdout);
    let file = temp("saved.jsonl");
    let o = run(&["play", "puerto-rico", "--seed", "3"], &format!("settler\nsave {}\nquit\n", file.display()));
    assert!(o.stdout.contains("Saved to"), "{}", o.stdout);
    assert_eq!(record_of(&file)["actions"][0], "settler");
}

#[test]
fn invalid_utf8_input_is_bad_input_and_keeps_the_record() {
    let rec = temp("utf8.jsonl");
    let o = run_bytes(
        &["play", "puerto-rico", "--seed", "3", "--record", rec.to_str().unwrap()],
        b"settler\n\xff\xfe\n1\n",
    );
    assert_eq!(o.code, 2, "{}", o.stdout);
    assert!(o.stderr.contains("input line 2 is not UTF-8"), "{}", o.stderr);
    assert!(o.stderr.contains("saved in"), "{}", o.stderr);
    assert_eq!(record_of(&rec)["actions"][0], "settler");
    let o = run_bytes(&["play", "puerto-rico"], &[b'a'; 10_000]);
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("longer than"), "{}", o.stderr);
}

#[test]
fn the_record_path_is_checked_before_the_first_decision() {
    let o = run(&["play", "puerto-rico", "--record", "no-such-dir/g.jsonl"], "settler\n");
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("cannot write the record `no-such-dir/g.jsonl`"), "{}", o.stderr);
    assert!(!o.stdout.contains("seat 0>"), "no decision was asked for: {}", o.stdout);
}

#[test]
fn resume_refuses_bad_records() {
    let bad = temp("bad.jsonl");
    std::fs::write(&bad, "{\"not\": \"a record\"}\n").unwrap();
    let o = run(&["play", "--resume", bad.to_str().unwrap()], "");
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("not a game record"), "{}", o.stderr);
    let o = run(&["play", "--resume", "no-such.jsonl"], "");
    assert_eq!(o.code, 2);
    let o = run(&["play", "--resume", "tests"], "");
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("not a regular file"), "{}", o.stderr);
    let o = run(&["play"], "");
    assert_eq!(o.code, 2);

    // A simulation's record: several games, then one game edited three ways (#28).
    let sim = temp("sim.jsonl");
    let toy = "tests/fixtures/take-away.toml";
    let o = run(&["simulate", toy, "--games", "2", "--record", sim.to_str().unwrap()], "");
    assert_eq!(o.code, 0, "{}", o.stderr);
    let o = run(&["play", "--resume", sim.to_str().unwrap()], "");
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("more than one game record (lines 1 and 2)"), "{}", o.stderr);
    let text = std::fs::read_to_string(&sim).unwrap();
    let game: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let edited = temp("edited.jsonl");
    let mut cut = game.clone();
    cut["actions"].as_array_mut().unwrap().truncate(1);
    std::fs::write(&edited, format!("{cut}\n")).unwrap();
    let o = run(&["play", "--resume", edited.to_str().unwrap()], "");
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("has a result, but its 1 actions stop before the end"), "{}", o.stderr);
    let mut later = game.clone();
    later["version"] = serde_json::json!(2);
    std::fs::write(&edited, format!("{later}\n")).unwrap();
    let o = run(&["play", "--resume", edited.to_str().unwrap()], "");
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("unknown field `version`"), "{}", o.stderr);
}

#[test]
fn show_game_prints_and_steps() {
    let f = "tests/fixtures/games/puerto-rico.jsonl";
    let o = run(&["show-game", f, "--step", "0"], "");
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.starts_with("step 0 of "), "{}", o.stdout);
    assert!(o.stdout.contains("PUERTO RICO · round 1"), "{}", o.stdout);
    let o = run(&["show-game", f, "--step", "100000"], "");
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("--step 100000: the game has"), "{}", o.stderr);
    let o = run(&["show-game", f, "--round", "3", "--seat", "1"], "");
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains("round 3"), "{}", o.stdout);
    assert!(o.stdout.contains("seat 1 (you)"), "{}", o.stdout);
    let o = run(&["show-game", f, "--seat", "9"], "");
    assert_eq!(o.code, 2);
    let o = run(&["show-game", f, "--game", "7"], "");
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("holds no game 7"), "{}", o.stderr);
    let o = run(&["show-game", f], "n\n\np\nr 2\nend\nbanana\nq\n");
    assert_eq!(o.code, 0, "{}", o.stderr);
    let steps: Vec<&str> = o.stdout.lines().filter(|l| l.contains("step ")).collect();
    assert!(steps[0].starts_with("step 0 of"), "{steps:?}");
    assert!(steps[1].contains("step 1 of"), "{steps:?}");
    assert!(steps[2].contains("step 2 of"), "{steps:?}");
    assert!(steps[3].contains("step 1 of"), "{steps:?}");
    // Issue 32: the board itself steps (it stayed at setup, only the header changed).
    let roles: std::collections::BTreeSet<&str> = o.stdout.lines().filter(|l| l.starts_with("Roles")).collect();
    assert!(roles.len() > 1, "every step drew the same board: {roles:?}");
    assert!(o.stdout.contains("No such position"), "{}", o.stdout);
}

/// `simulate --rotate-seats` plays each seed once per rotation of the bots: the records of
/// one seed share its index and name their rotation, and `show-game --rotation R` picks one.
#[test]
fn show_game_picks_a_rotation() {
    let f = temp("rotations.jsonl");
    let path = f.to_str().unwrap();
    let args = ["simulate", "puerto-rico", "--players", "3", "--games", "2", "--bots", "greedy,random,random"];
    let o = run(&[&args[..], &["--rotate-seats", "--record", path]].concat(), "");
    assert_eq!(o.code, 0, "{}", o.stderr);
    let records: Vec<serde_json::Value> =
        std::fs::read_to_string(&f).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let keys: Vec<(u64, Option<u64>)> =
        records.iter().map(|r| (r["index"].as_u64().unwrap(), r.get("rotation").and_then(|x| x.as_u64()))).collect();
    assert_eq!(keys, [(0, None), (0, Some(1)), (0, Some(2)), (1, None), (1, Some(1)), (1, Some(2))]);
    // Each rotation's own game: its last position, and which seat the greedy bot had.
    for (k, r) in records.iter().enumerate().filter(|(_, r)| r["index"] == 1) {
        let rotation = r.get("rotation").and_then(|x| x.as_u64()).unwrap_or(0).to_string();
        let steps = r["actions"].as_array().unwrap().len().to_string();
        let o = run(&["show-game", path, "--game", "1", "--rotation", &rotation, "--step", &steps], "");
        assert_eq!(o.code, 0, "{}", o.stderr);
        assert!(o.stdout.starts_with(&format!("step {steps} of {steps}")), "record {k}: {}", o.stdout);
    }
    let o = run(&["show-game", path, "--game", "1", "--rotation", "3"], "");
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("holds no game 1 in rotation 3"), "{}", o.stderr);
}

mod no_panic {
    use super::*;
    use proptest::prelude::*;

    fn line() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            Just(b"undo".to_vec()),
            Just(b"1".to_vec()),
            Just(b"2".to_vec()),
            Just(b"?".to_vec()),
            Just(b"save".to_vec()),
            Just(b"view".to_vec()),
            Just(b"0".to_vec()),
            Just(b"-1".to_vec()),
            Just(b"99999999999999999999999".to_vec()),
            "[a-z ]{0,12}".prop_map(String::into_bytes),
            proptest::collection::vec(any::<u8>(), 0..16),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

        /// Whatever is typed, `play` ends with 0 (left or finished) or 2 (bad input) and
        /// a message, never a panic.
        #[test]
        fn play_survives_any_input(game in 0usize..4, lines in proptest::collection::vec(line(), 0..30)) {
            let mut input = Vec::new();
            for l in lines {
                input.extend_from_slice(&l);
                input.push(b'\n');
            }
            let o = run_bytes(&["play", GAMES[game], "--players", "3", "--bots", "random"], &input);
            prop_assert!(o.code == 0 || o.code == 2, "exit {}: {}", o.code, o.stderr);
            if o.code == 2 {
                prop_assert!(o.stderr.starts_with("error: "), "{}", o.stderr);
            }
        }
    }
}

/// Every screen of whole random games, at every player count, fits 80 columns and 40
/// rows, for every seat.
#[test]
fn every_screen_fits_the_terminal() {
    for game in GAMES {
        let r = rulesmith::load(game).unwrap();
        for players in r.game.players() {
            let mut s = r.game.start(players, 11).unwrap();
            let mut rng = bot_rng(11);
            let mut step = 0;
            loop {
                if step % 7 == 0 || s.to_move() == ToMove::Terminal {
                    for seat in 0..players as u8 {
                        let screen = s.views().unwrap().screen(seat, false);
                        if let Err(e) = fits(&screen, 40) {
                            panic!("{game}, {players} players, step {step}, seat {seat}: {e}\n{screen}");
                        }
                    }
                }
                if s.to_move() == ToMove::Terminal || step > 3000 {
                    break;
                }
                let a = s.bots().unwrap().bot_choice(BotSpec::Random, &mut rng).unwrap();
                s.play(&a).unwrap();
                step += 1;
            }
        }
    }
}

#[test]
fn end_of_input_keeps_the_record() {
    let rec = temp("eof.jsonl");
    let o = run(&["play", "puerto-rico", "--seed", "3", "--record", rec.to_str().unwrap()], "settler\n");
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains("You left the game; it is saved in"), "{}", o.stdout);
    let saved = record_of(&rec);
    assert_eq!(saved["actions"][0], "settler");
    assert_eq!(saved["result"], serde_json::Value::Null);
}

/// A `play` session driven through pipes, for the signal tests.
#[cfg(unix)]
struct Live {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    out: std::sync::mpsc::Receiver<String>,
    seen: String,
}

#[cfg(unix)]
impl Live {
    fn start(args: &[&str]) -> Live {
        use std::io::Read;
        let mut child = Command::new(env!("CARGO_BIN_EXE_rulesmith"))
            .args(args)
            .current_dir(root())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let mut stdout = child.stdout.take().unwrap();
        let (tx, out) = std::sync::mpsc::channel::<String>();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stdout.read(&mut buf) {
                if n == 0 || tx.send(String::from_utf8_lossy(&buf[..n]).into_owned()).is_err() {
                    break;
                }
            }
        });
        Live { child, stdin, out, seen: String::new() }
    }

    fn type_line(&mut self, line: &str) {
        use std::io::Write;
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(format!("{line}\n").as_bytes()).unwrap();
        stdin.flush().unwrap();
    }

    /// Waits (60 s at most) until the output so far satisfies `done`.
    fn wait_for(&mut self, what: &str, done: impl Fn(&str) -> bool) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while !done(&self.seen) {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.out.recv_timeout(left) {
                Ok(text) => self.seen.push_str(&text),
                Err(_) => {
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    panic!("play did not {what}: {}", self.seen);
                }
            }
        }
    }

    /// Sends SIGINT; returns the exit status (within 30 s: never a hang) and stderr.
    fn interrupt(mut self) -> (std::process::ExitStatus, String) {
        use std::io::Read;
        let status = Command::new("kill").args(["-INT", &self.child.id().to_string()]).status().unwrap();
        assert!(status.success());
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if std::time::Instant::now() > deadline {
                let _ = self.child.kill();
                let _ = self.child.wait();
                panic!("play did not stop on SIGINT within 30 s (is SIGINT ignored where the tests run?)");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        self.stdin = None;
        let mut err = String::new();
        self.child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
        (status, err)
    }
}

/// Ctrl-C (SIGINT) while `play` waits for a decision keeps every decision made so far.
#[cfg(unix)]
#[test]
fn ctrl_c_keeps_the_record() {
    // A child inherits an ignored SIGINT (tests started in the background by a shell
    // without job control): then Ctrl-C cannot reach `play`, and there is nothing to test.
    if sigint_ignored() {
        eprintln!("ctrl_c_keeps_the_record: skipped: SIGINT is ignored in this process (started in the background?)");
        return;
    }
    let rec = temp("sigint.jsonl");
    let mut play = Live::start(&["play", "puerto-rico", "--seed", "3", "--record", rec.to_str().unwrap()]);
    play.type_line("settler");
    // Wait for the next prompt after the decision (the bots have moved by then).
    play.wait_for("prompt again", |seen| seen.matches("seat 0> ").count() >= 2);
    let (status, _) = play.interrupt();
    assert_eq!(status.code(), Some(130));
    let saved = record_of(&rec);
    assert_eq!(saved["actions"][0], "settler", "{saved}");
    assert_eq!(saved["result"], serde_json::Value::Null);
}

/// Issue 30: Ctrl-C while a bot program thinks ends `play` at once: the program is ended,
/// the record keeps every decision made, exit 130, and the bot is not blamed.
#[cfg(unix)]
#[test]
fn ctrl_c_while_a_bot_thinks_ends_play_at_once() {
    if sigint_ignored() {
        eprintln!("ctrl_c_while_a_bot_thinks_ends_play_at_once: skipped: SIGINT is ignored in this process");
        return;
    }
    if !crate::python3_available() {
        return;
    }
    let rec = temp("sigint-bot.jsonl");
    let bot = "exec:python3 tests/fixtures/bots/silent.py";
    let mut play = Live::start(&[
        "play",
        "puerto-rico",
        "--players",
        "2",
        "--seed",
        "3",
        "--bots",
        bot,
        "--bot-time-limit",
        "600",
        "--record",
        rec.to_str().unwrap(),
    ]);
    // Seat 0 chooses; the program at seat 1 then thinks forever.
    play.type_line("settler");
    play.wait_for("play the decision", |seen| seen.contains("seat 0: settler"));
    std::thread::sleep(std::time::Duration::from_millis(300));
    let (status, err) = play.interrupt();
    assert_eq!(status.code(), Some(130));
    assert!(err.contains("interrupted (SIGINT); the game so far is kept in"), "{err}");
    assert!(!err.contains("bot `"), "the bot is not blamed: {err}");
    let saved = record_of(&rec);
    assert_eq!(saved["actions"][0], "settler", "{saved}");
}

/// Whether this process ignores SIGINT (Linux: `SigIgn` of /proc/self/status; elsewhere
/// assumed not).
#[cfg(unix)]
pub(crate) fn sigint_ignored() -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let mask = status.lines().find_map(|l| l.strip_prefix("SigIgn:")).map(str::trim).unwrap_or("0");
    u64::from_str_radix(mask, 16).is_ok_and(|m| m & (1 << (2 - 1)) != 0)
}

/// `play --record` and `save` never destroy data (#28): the ruleset played (by another
/// name or a hard link) is refused, `/dev/null` is written through, a symlink's target is
/// written and the link kept.
#[cfg(unix)]
#[test]
fn play_outputs_never_destroy_data() {
    use std::os::unix::fs::FileTypeExt;
    let toy = temp("toy.toml");
    std::fs::copy(root().join("tests/fixtures/take-away.toml"), &toy).unwrap();
    let before = std::fs::read_to_string(&toy).unwrap();
    let link = temp("toy-link.toml");
    let _ = std::fs::remove_file(&link);
    std::fs::hard_link(&toy, &link).unwrap();
    let (toy_s, link_s) = (toy.to_str().unwrap(), link.to_str().unwrap());
    for rec in [toy_s, link_s] {
        let o = run(&["play", toy_s, "--record", rec], "quit\n");
        assert_eq!(o.code, 2, "{}", o.stdout);
        assert!(o.stderr.contains("an input of this run") && o.stderr.contains("toy.toml"), "{}", o.stderr);
    }
    let o = run(&["play", toy_s], &format!("save {link_s}\nquit\n"));
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains("refusing to write the record over"), "{}", o.stdout);
    assert_eq!(std::fs::read_to_string(&toy).unwrap(), before);

    let o = run(&["play", toy_s, "--record", "/dev/null"], "quit\n");
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(std::fs::metadata("/dev/null").unwrap().file_type().is_char_device());

    let target = temp("target.jsonl");
    std::fs::write(&target, "old\n").unwrap();
    let sl = temp("sl.jsonl");
    let _ = std::fs::remove_file(&sl);
    std::os::unix::fs::symlink(&target, &sl).unwrap();
    let o = run(&["play", toy_s, "--record", sl.to_str().unwrap()], "quit\n");
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(std::fs::symlink_metadata(&sl).unwrap().file_type().is_symlink());
    assert_eq!(record_of(&target)["result"], serde_json::Value::Null);
}
