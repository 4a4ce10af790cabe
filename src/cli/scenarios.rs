//! `run`, `legal`, `state`.

use super::common::{Failure, Format, bad, emit_json, load, players_for, say};
use rulesmith::core::erased::{AnyGame, AnySession};
use rulesmith::core::game::ToMove;
use rulesmith::core::scenario::{self, Problem, Scenario, Verdict};
use rulesmith::core::sim::DEFAULT_SEED;
use serde_json::json;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Loads each ruleset once per command.
#[derive(Default)]
struct Games(HashMap<String, Result<Arc<dyn AnyGame>, String>>);

impl Games {
    fn get(&mut self, arg: &str) -> Result<Arc<dyn AnyGame>, String> {
        self.0
            .entry(arg.to_string())
            .or_insert_with(|| rulesmith::load(arg).map(|r| Arc::from(r.game)).map_err(|e| e.render()))
            .clone()
    }
}

/// `rulesmith run SCENARIO...`: exit 1 if a scenario failed, 2 if one could not be run.
pub fn run(paths: &[PathBuf], f: Format) -> Result<u8, Failure> {
    let files = scenario::collect_files(paths).map_err(bad)?;
    if files.is_empty() {
        return Err(bad("no scenario files (*.toml) found"));
    }
    let mut games = Games::default();
    let mut results = Vec::new();
    let (mut passed, mut failed, mut invalid) = (0, 0, 0);
    for file in &files {
        let name = super::common::shown(&file.display().to_string()).into_owned();
        let verdict = match scenario::read(file) {
            Ok(s) => scenario::run(&s, &mut |arg: &str| games.get(arg)),
            Err(_) if is_ruleset_file(file) => Verdict::Invalid(format!(
                "`{name}` is a ruleset, not a scenario (check it with `rulesmith validate {name}`)"
            )),
            Err(e) => Verdict::Invalid(e.render()),
        };
        match &verdict {
            Verdict::Pass => passed += 1,
            Verdict::Fail { .. } => failed += 1,
            Verdict::Invalid(_) => invalid += 1,
        }
        if f == Format::Text {
            print_verdict(&name, &verdict);
        }
        results.push(match &verdict {
            Verdict::Pass => json!({ "scenario": name, "status": "pass" }),
            Verdict::Fail { step, message } => {
                json!({ "scenario": name, "status": "fail", "step": step, "message": message })
            }
            Verdict::Invalid(message) => {
                json!({ "scenario": name, "status": "invalid", "message": message.trim_end() })
            }
        });
    }
    match f {
        Format::Text => say(format!("{passed} passed, {} failed", failed + invalid)),
        Format::Json => emit_json(&json!({
            "scenarios": results, "passed": passed, "failed": failed + invalid, "invalid": invalid,
        })),
    }
    Ok(if invalid > 0 {
        2
    } else if failed > 0 {
        1
    } else {
        0
    })
}

/// A file with a `[ruleset]` table.
fn is_ruleset_file(path: &Path) -> bool {
    rulesmith::core::input::read_text(path).is_ok_and(|t| scenario::is_ruleset_text(&t))
}

/// One line per scenario on stdout; a long reason (diagnostics) in full on stderr.
fn print_verdict(name: &str, v: &Verdict) {
    match v {
        Verdict::Invalid(m) if m.trim_end().contains('\n') => {
            let first = m.lines().next().unwrap_or_default().trim_start_matches("error: ");
            say(Verdict::Invalid(first.to_string()).line(name));
            super::common::note(m.trim_end());
        }
        Verdict::Invalid(m) => say(Verdict::Invalid(m.trim_start_matches("error: ").to_string()).line(name)),
        v => say(v.line(name)),
    }
}

/// What `legal` and `state` look at: a scenario, or a ruleset right after setup.
enum Target {
    Scenario(Box<Scenario>),
    Ruleset(String),
}

fn target(arg: &str) -> Result<Target, Failure> {
    let p = Path::new(arg);
    if p.is_file() {
        let text = rulesmith::core::input::read_text(p).map_err(|e| bad(e.to_string()))?;
        if scenario::is_scenario_text(&text) {
            return scenario::parse(p, &text).map(|s| Target::Scenario(Box::new(s))).map_err(|e| bad(e.render()));
        }
    }
    Ok(Target::Ruleset(arg.to_string()))
}

/// Reaches the position and hands the session to `show`.
fn with_position(
    arg: &str,
    players: Option<usize>,
    seed: Option<u64>,
    sets: &[String],
    show: impl FnOnce(&dyn AnySession) -> Result<u8, Failure>,
) -> Result<u8, Failure> {
    match target(arg)? {
        Target::Scenario(s) => {
            if players.is_some() || seed.is_some() || !sets.is_empty() {
                return Err(bad(format!(
                    "--players, --seed and --set apply to a ruleset; scenario `{arg}` sets its own (`players`, `seed`, its ruleset)"
                )));
            }
            let game = rulesmith::load(&s.ruleset_arg).map_err(|e| bad(e.render()))?;
            let session = scenario::reach(&s, &*game.game).map_err(|p| match p {
                Problem::Invalid(m) => bad(format!("scenario `{arg}`: {m}")),
                p => bad(format!("scenario `{arg}` cannot be played to its end: {p}")),
            })?;
            show(session.as_ref())
        }
        Target::Ruleset(r) => {
            let ruleset = load(&r, sets)?;
            let players = players_for(players, &ruleset.game.players(), &r)?;
            let session =
                ruleset.game.start(players, seed.unwrap_or(DEFAULT_SEED)).map_err(|e| bad(format!("`{r}`: {e}")))?;
            show(session.as_ref())
        }
    }
}

/// `rulesmith legal SCENARIO|RULESET`.
pub fn legal(arg: &str, players: Option<usize>, seed: Option<u64>, sets: &[String], f: Format) -> Result<u8, Failure> {
    with_position(arg, players, seed, sets, |s| {
        let legal = s.legal();
        let to_move = match s.to_move() {
            ToMove::Seat(seat) => Some(seat),
            ToMove::Terminal => None,
        };
        match f {
            Format::Json => emit_json(&json!({ "to_move": to_move, "over": to_move.is_none(), "legal": legal })),
            Format::Text => match to_move {
                Some(seat) => {
                    say(format!("seat {seat} to move, {} legal actions:", legal.len()));
                    for a in &legal {
                        say(format!("  {a}"));
                    }
                }
                None => say("the game is over: no one is to move"),
            },
        }
        Ok(0)
    })
}

/// `rulesmith state SCENARIO|RULESET [--seat N]`: the state (or a seat's view) as JSON.
pub fn state(
    arg: &str,
    players: Option<usize>,
    seed: Option<u64>,
    sets: &[String],
    seat: Option<u8>,
) -> Result<u8, Failure> {
    with_position(arg, players, seed, sets, |s| {
        let value = match seat {
            Some(seat) if (seat as usize) < s.players() => s.view_json(seat),
            Some(seat) => {
                return Err(bad(format!(
                    "--seat {seat}: the game has {} players (seats 0 to {})",
                    s.players(),
                    s.players() - 1
                )));
            }
            None => s.state_json(),
        };
        emit_json(&value);
        Ok(0)
    })
}
