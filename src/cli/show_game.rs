//! `show-game RECORD`: a recorded game on the play screens, step by step.

use super::common::{Failure, bad, say};
use super::play::{Input, Lines, colour, ruleset_of, stdin_lines};
use rulesmith::core::game::{Seat, ToMove};
use rulesmith::core::record::{self, HUMAN, Record};
use std::path::Path;

/// Which game of the file, and where in it.
pub struct At {
    pub game: Option<u64>,
    /// The rotation of the game's seed (`--rotate-seats` records share an index).
    pub rotation: Option<u32>,
    pub step: Option<usize>,
    pub round: Option<u32>,
    pub seat: Option<u8>,
}

const HELP: &str = "Enter or n: next decision · p: previous · N: after N decisions · r R: round R · \
                    end: the last position · q: quit";

/// Reads the chosen game of a record file line by line (record files may be large).
fn find(path: &Path, game: Option<u64>, rotation: Option<u32>) -> Result<Record, Failure> {
    let what = path.display();
    // Bounded line by line: a regular file only, lines of at most the core's limit, a BOM
    // skipped, non-UTF-8 named with its byte offset.
    let lines = rulesmith::core::input::lines(path).map_err(|e| bad(e.to_string()))?;
    let mut ordinal = 0u64;
    for item in lines {
        let (i, line) = item.map_err(|e| bad(e.to_string()))?;
        let i = i - 1;
        if line.trim().is_empty() {
            continue;
        }
        ordinal += 1;
        let rec: Record = record::parse_line(&line).map_err(|e| bad(format!("{what}:{}: {e}", i + 1)))?;
        let wanted = match game {
            None => true,
            Some(k) => rec.index.map_or(ordinal == k, |x| x == k),
        };
        if wanted && rec.rotation.unwrap_or(0) == rotation.unwrap_or(0) {
            return Ok(rec);
        }
    }
    Err(match (game, rotation) {
        (Some(k), Some(r @ 1..)) => bad(format!("`{what}` holds no game {k} in rotation {r}")),
        (Some(k), _) => bad(format!("`{what}` holds no game {k}")),
        (None, Some(r @ 1..)) => bad(format!("`{what}` holds no game of rotation {r}")),
        (None, _) => bad(format!("`{what}` holds no game record")),
    })
}

pub fn show_game(path: &Path, at: At) -> Result<u8, Failure> {
    let mut lines = stdin_lines();
    show_game_with(path, at, lines.as_mut(), colour())
}

pub fn show_game_with(path: &Path, at: At, lines: &mut dyn Lines, colour: bool) -> Result<u8, Failure> {
    let rec = find(path, at.game, at.rotation)?;
    let r = ruleset_of(&rec, path)?;
    let seat: Seat = match at.seat {
        Some(s) if usize::from(s) < rec.players => s,
        Some(s) => return Err(bad(format!("--seat {s}: the game has {} players", rec.players))),
        None => rec.bots.iter().position(|b| b == HUMAN).unwrap_or(0) as Seat,
    };
    let mut session = r.game.start(rec.players, rec.seed).map_err(|e| bad(e.to_string()))?;
    // Who made each decision and the round at each position, by playing the game once.
    let mut movers: Vec<Seat> = Vec::with_capacity(rec.actions.len());
    let mut rounds: Vec<u32> = vec![session.progress().rounds];
    for (i, a) in rec.actions.iter().enumerate() {
        let ToMove::Seat(s) = session.to_move() else {
            return Err(bad(format!("{}: action {} `{a}`: the game is already over", path.display(), i + 1)));
        };
        session.play(a).map_err(|e| bad(format!("{}: action {}: {e}", path.display(), i + 1)))?;
        movers.push(s);
        rounds.push(session.progress().rounds);
    }
    // The game was played under these edits of its ruleset: the screens below show them.
    for set in &rec.overrides {
        say(format!("--set {set}"));
    }
    let total = rec.actions.len();
    let round_step = |round: u32| rounds.iter().position(|&x| x >= round);
    let show =
        |session: &mut Box<dyn rulesmith::core::erased::AnySession + Send + '_>, n: usize| -> Result<(), Failure> {
            // Back by rewinding; forward by playing the record's next actions (a rewind
            // drops the actions after it, so it alone cannot step forward).
            let at = session.history().len();
            if n <= at {
                session.rewind(n).map_err(|e| bad(format!("{}: {e}", path.display())))?;
            } else {
                for (i, a) in rec.actions.iter().enumerate().take(n).skip(at) {
                    session.play(a).map_err(|e| bad(format!("{}: action {}: {e}", path.display(), i + 1)))?;
                }
            }
            let last = match n.checked_sub(1) {
                Some(i) => format!(" · last: seat {} {}", movers[i], rec.actions[i]),
                None => " · after setup".to_string(),
            };
            say(format!("step {n} of {total}{last}"));
            say(super::play::screen(session.as_ref(), seat, colour).trim_end());
            Ok(())
        };
    if let Some(n) = at.step {
        if n > total {
            return Err(bad(format!("--step {n}: the game has {total} decisions")));
        }
        show(&mut session, n)?;
        return Ok(0);
    }
    if let Some(round) = at.round {
        let Some(n) = round_step(round) else {
            return Err(bad(format!("--round {round}: the game ended in round {}", rounds.last().unwrap_or(&0))));
        };
        show(&mut session, n)?;
        return Ok(0);
    }
    say(HELP);
    let mut n = 0usize;
    show(&mut session, n)?;
    let words: Vec<String> = ["next", "prev", "round ", "end", "quit"].map(String::from).to_vec();
    loop {
        let line = match lines.read("show> ", &words) {
            Input::Line(l) => l,
            Input::End | Input::Interrupted => return Ok(0),
            Input::Bad(why) => return Err(bad(why)),
        };
        let t = line.trim().to_lowercase();
        let words: Vec<&str> = t.split_whitespace().collect();
        let next = match words.as_slice() {
            [] | ["n"] | ["next"] => (n < total).then_some(n + 1),
            ["p"] | ["prev"] | ["previous"] | ["b"] | ["back"] => n.checked_sub(1),
            ["end"] | ["last"] => Some(total),
            ["q"] | ["quit"] | ["exit"] => return Ok(0),
            ["r" | "round", x] => x.parse().ok().and_then(round_step),
            [x] | ["s" | "step", x] => x.parse().ok().filter(|&k| k <= total),
            _ => {
                say(HELP);
                continue;
            }
        };
        match next {
            Some(k) => {
                n = k;
                show(&mut session, n)?;
            }
            None => say(format!("No such position: steps go from 0 to {total}.")),
        }
    }
}
