//! Records of games (one JSON line each) and their replay.
//!
//! A record holds everything needed to play a game again: the ruleset (its name, how it
//! was named on the command line, and a digest of the effective ruleset), the player
//! count, the seed, the bots, the actions in the game's notation, and the result.
//! [`replay`] plays every recorded game again and checks each action is legal and the
//! result is identical; a record whose ruleset no longer matches its digest is refused.

pub use crate::actions::Actions;
use crate::bots::BotSpec;
use crate::erased::AnyGame;
use crate::game::{Outcome, ToMove};
use crate::sim::{GameResult, bot_rng};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// What a seat was played by, when not a bot.
pub const HUMAN: &str = "human";

/// One recorded game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
// serde would name the Rust struct (`expected struct Record`).
#[serde(expecting = "a game record (a JSON object)")]
// A field this version does not know (a typo, or a record of a later version) is refused,
// not dropped: what it meant would be lost.
#[serde(deny_unknown_fields)]
pub struct Record {
    /// `[ruleset] name`.
    pub ruleset: String,
    /// The ruleset as named when recording: a bundled name or a path.
    pub source: String,
    /// [`crate::ruleset::Loaded::digest`] of the effective ruleset.
    pub digest: String,
    /// The `--set KEY=VALUE` overrides the ruleset was loaded with, in order (absent when
    /// none): a replay loads it with the same.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub overrides: Vec<String>,
    /// `[ruleset] game`.
    pub game: String,
    pub players: usize,
    /// The game's own seed (for a simulation, derived from the run's seed and the index).
    pub seed: u64,
    /// For a simulation: the game's index in the run and the run's seed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_seed: Option<u64>,
    /// For a simulation that plays each seed once per rotation of the bots
    /// (`--rotate-seats`): which rotation, from 1 (absent for the bots as listed). The
    /// rotations of one seed share its index.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rotation: Option<u32>,
    /// Per seat: a bot (`random`, `greedy`, `mcts:N`) or `human`.
    pub bots: Vec<String>,
    /// Every decision, in the game's notation.
    pub actions: Vec<String>,
    /// Rounds played (the game's own count).
    #[serde(default)]
    pub rounds: u32,
    /// The result; `null` for a game left unfinished. Required: a line without it is
    /// corrupt, not a game that ended differently.
    #[serde(deserialize_with = "Option::deserialize")]
    pub result: Option<Outcome>,
}

/// The ruleset part of a record, shared by every game of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesetId {
    pub name: String,
    pub source: String,
    pub digest: String,
    pub game: String,
    /// `--set KEY=VALUE` overrides, in order.
    pub overrides: Vec<String>,
}

impl Record {
    /// The record of one simulated game (recorded with `SimOptions.record`).
    pub fn of_sim(id: &RulesetId, players: usize, run_seed: u64, bots: &[BotSpec], r: &GameResult) -> Self {
        Record {
            ruleset: id.name.clone(),
            source: id.source.clone(),
            digest: id.digest.clone(),
            overrides: id.overrides.clone(),
            game: id.game.clone(),
            players,
            seed: r.seed,
            index: Some(r.index),
            run_seed: Some(run_seed),
            rotation: Some(r.rotation).filter(|&k| k > 0),
            bots: (0..players)
                .map(|s| bots.get(s).map_or_else(|| BotSpec::Random.to_string(), ToString::to_string))
                .collect(),
            actions: r.actions.to_vec(),
            rounds: r.rounds,
            result: Some(r.outcome.clone()),
        }
    }

    /// Writes the record of one simulated game as one JSON line with its newline: the
    /// bytes of `Record::of_sim(..).to_line()` and a newline, without copying the game's
    /// actions (a recorded run writes every decision).
    pub fn write_sim_line(
        w: &mut impl std::io::Write,
        id: &RulesetId,
        players: usize,
        run_seed: u64,
        bots: &[BotSpec],
        r: &GameResult,
    ) -> std::io::Result<()> {
        // Field for field the shape of `Record`, borrowed, up to the actions; the rest is
        // written after them, as serde_json writes a struct: `"name":value`, no spaces.
        #[derive(Serialize)]
        struct Head<'a> {
            ruleset: &'a str,
            source: &'a str,
            digest: &'a str,
            #[serde(skip_serializing_if = "<[String]>::is_empty")]
            overrides: &'a [String],
            game: &'a str,
            players: usize,
            seed: u64,
            index: u64,
            run_seed: u64,
            #[serde(skip_serializing_if = "Option::is_none")]
            rotation: Option<u32>,
            bots: Vec<String>,
        }
        let head = Head {
            ruleset: &id.name,
            source: &id.source,
            digest: &id.digest,
            overrides: &id.overrides,
            game: &id.game,
            players,
            seed: r.seed,
            index: r.index,
            run_seed,
            rotation: Some(r.rotation).filter(|&k| k > 0),
            bots: (0..players)
                .map(|s| bots.get(s).map_or_else(|| BotSpec::Random.to_string(), ToString::to_string))
                .collect(),
        };
        let mut line = Vec::with_capacity(1024 + r.actions.text_len());
        serde_json::to_writer(&mut line, &head)?;
        // The head's closing brace: the record goes on.
        line.pop();
        line.extend_from_slice(b",\"actions\":");
        r.actions.write_json(&mut line)?;
        line.extend_from_slice(b",\"rounds\":");
        serde_json::to_writer(&mut line, &r.rounds)?;
        line.extend_from_slice(b",\"result\":");
        serde_json::to_writer(&mut line, &r.outcome)?;
        line.extend_from_slice(b"}\n");
        w.write_all(&line)
    }

    /// The record as one JSON line (without the newline).
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// A name for messages: `game 12` (`game 12, rotation 2`) for a simulated game, else
    /// `the game`.
    fn label(&self) -> String {
        match (self.index, self.rotation) {
            (Some(i), Some(k)) => format!("game {i}, rotation {k}"),
            (Some(i), None) => format!("game {i}"),
            _ => "the game".to_string(),
        }
    }
}

/// Reads the records of a file's text: `(line number, record or why not)`, blank lines
/// skipped, a byte-order mark at the start accepted.
pub fn parse_lines(text: &str) -> impl Iterator<Item = (usize, Result<Record, String>)> + '_ {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()).map(|(i, l)| (i + 1, parse_line(l)))
}

/// Reads one record line.
pub fn parse_line(line: &str) -> Result<Record, String> {
    crate::game::object_from_json::<Record>(line).map_err(|e| format!("not a game record: {e}"))
}

/// A recorded game that did not play the same (exit code 1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Mismatch {
    /// Line of the record file (1-based).
    pub line: usize,
    /// The game's index in its simulation run, if it came from one.
    pub index: Option<u64>,
    /// The action (1-based) where it diverged, if at an action.
    pub action: Option<usize>,
    pub expected: String,
    pub found: String,
    pub message: String,
}

/// A record that cannot be replayed at all (exit code 2).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct BadRecord {
    pub line: usize,
    pub message: String,
}

/// The outcome of replaying a file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ReplayReport {
    pub games: usize,
    pub actions: usize,
    pub mismatches: Vec<Mismatch>,
}

/// How to replay.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReplayOptions {
    /// Also run the bots again and check they choose the recorded actions.
    pub check_bots: bool,
}

/// Finds the game of a record's ruleset: `(game, digest of the effective ruleset)`.
pub type Resolver<'a> = dyn FnMut(&Record) -> Result<(Arc<dyn AnyGame>, String), String> + 'a;

/// Replays every record of a file's text.
pub fn replay(text: &str, opts: ReplayOptions, resolve: &mut Resolver<'_>) -> Result<ReplayReport, BadRecord> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    replay_lines(text.lines().enumerate().map(|(i, l)| Ok((i + 1, l.to_string()))), opts, resolve)
}

/// Replays every record of a stream of `(line number, text)` lines, one line in memory
/// at a time (see [`crate::input::lines`]).
pub fn replay_lines<I>(lines: I, opts: ReplayOptions, resolve: &mut Resolver<'_>) -> Result<ReplayReport, BadRecord>
where
    I: IntoIterator<Item = Result<(usize, String), BadRecord>>,
{
    let mut report = ReplayReport::default();
    for item in lines {
        let (line, text) = item?;
        if text.trim().is_empty() {
            continue;
        }
        let record = parse_line(&text).map_err(|message| BadRecord { line, message })?;
        replay_one(line, &record, opts, resolve, &mut report)?;
    }
    if report.games == 0 {
        return Err(BadRecord { line: 0, message: "the file holds no game records".into() });
    }
    Ok(report)
}

/// Replays one record, adding its mismatches to `report`.
pub fn replay_one(
    line: usize,
    record: &Record,
    opts: ReplayOptions,
    resolve: &mut Resolver<'_>,
    report: &mut ReplayReport,
) -> Result<(), BadRecord> {
    let bad = |message: String| BadRecord { line, message };
    let (game, digest) = resolve(record).map_err(|e| bad(format!("ruleset `{}`: {}", record.source, e.trim_end())))?;
    if digest != record.digest {
        return Err(bad(format!(
            "ruleset `{}` ({}) no longer matches the record: it was recorded with digest {} and is now {}; \
             replay it with the ruleset it was recorded with",
            record.ruleset, record.source, record.digest, digest
        )));
    }
    if game.game_id() != record.game {
        return Err(bad(format!(
            "the record is a game of `{}`, but ruleset `{}` plays `{}`",
            record.game,
            record.source,
            game.game_id()
        )));
    }
    if record.bots.len() != record.players {
        return Err(bad(format!(
            "the record lists {} seats in `bots` for {} players",
            record.bots.len(),
            record.players
        )));
    }
    let mut bots: Vec<Option<BotSpec>> = Vec::new();
    for b in &record.bots {
        bots.push(if b == HUMAN { None } else { Some(b.parse::<BotSpec>().map_err(|e| bad(e.to_string()))?) });
    }
    if opts.check_bots {
        if let Some((seat, Some(spec))) =
            bots.iter().enumerate().find(|(_, b)| b.as_ref().is_some_and(BotSpec::is_external))
        {
            return Err(bad(format!(
                "{}: seat {seat} was played by `{spec}`, a program that cannot be asked again: replay without --check-bots",
                record.label()
            )));
        }
    }
    let mut session =
        game.start(record.players, record.seed).map_err(|e| bad(format!("cannot set up the game: {e}")))?;
    let label = record.label();
    let mut rng = bot_rng(record.seed);
    let mut checking_bots = opts.check_bots;
    report.games += 1;
    let mismatch = |action: Option<usize>, expected: String, found: String, message: String| Mismatch {
        line,
        index: record.index,
        action,
        expected,
        found,
        message,
    };
    for (i, action) in record.actions.iter().enumerate() {
        let n = i + 1;
        let seat = match session.to_move() {
            ToMove::Seat(s) => s,
            ToMove::Terminal => {
                return Err(bad(format!("{label}, action {n} `{action}`: the game is already over")));
            }
        };
        if checking_bots {
            if let Some(Some(spec)) = bots.get(seat as usize) {
                let choice = session
                    .bots()
                    .map_err(|e| bad(e.to_string()))?
                    .bot_choice(spec.clone(), &mut rng)
                    .unwrap_or_default();
                if choice != *action {
                    report.mismatches.push(mismatch(
                        Some(n),
                        action.clone(),
                        choice.clone(),
                        format!(
                            "{label}, action {n} (seat {seat}, {spec}): the bot now chooses `{choice}`, the record has `{action}`"
                        ),
                    ));
                    // The bots' generator has diverged; keep replaying the recorded actions.
                    checking_bots = false;
                }
            }
        }
        session.play(action).map_err(|e| bad(format!("{label}, action {n} (seat {seat}): {e}")))?;
        report.actions += 1;
    }
    let found = session.outcome();
    if found != record.result {
        let (expected, found) = outcome_difference(&record.result, &found);
        report.mismatches.push(mismatch(
            None,
            expected.clone(),
            found.clone(),
            format!("{label}: the result differs: expected {expected}, found {found}"),
        ));
    } else if record.result.is_some() && record.rounds != 0 && session.progress().rounds != record.rounds {
        let (e, f) = (record.rounds.to_string(), session.progress().rounds.to_string());
        report.mismatches.push(mismatch(
            None,
            e.clone(),
            f.clone(),
            format!("{label}: expected {e} rounds, found {f}"),
        ));
    }
    Ok(())
}

/// The fields in which two results differ, each side in words: only what differs, so a
/// mismatch never prints the same text twice (tie-breaks and an unfinished game included).
fn outcome_difference(expected: &Option<Outcome>, found: &Option<Outcome>) -> (String, String) {
    let (e, f) = match (expected, found) {
        (Some(e), Some(f)) => (e, f),
        (e, f) => {
            let show = |o: &Option<Outcome>| match o {
                Some(o) => format!("the game over (scores {:?}, ended by {})", o.scores, o.end),
                None => "the game not over".to_string(),
            };
            return (show(e), show(f));
        }
    };
    let mut es = Vec::new();
    let mut fs = Vec::new();
    if e.scores != f.scores {
        es.push(format!("scores {:?}", e.scores));
        fs.push(format!("scores {:?}", f.scores));
    }
    if e.tiebreaks != f.tiebreaks {
        es.push(format!("tie-breaks {:?}", e.tiebreaks));
        fs.push(format!("tie-breaks {:?}", f.tiebreaks));
    }
    if e.ranks != f.ranks {
        es.push(format!("ranks {:?}", e.ranks));
        fs.push(format!("ranks {:?}", f.ranks));
    }
    if e.end != f.end {
        es.push(format!("ended by {}", e.end));
        fs.push(format!("ended by {}", f.end));
    }
    if e.unfinished != f.unfinished {
        let word = |u: bool| if u { "unfinished (stopped by a cap)" } else { "finished" }.to_string();
        es.push(word(e.unfinished));
        fs.push(word(f.unfinished));
    }
    (es.join(", "), fs.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{SimOptions, simulate};

    fn id() -> RulesetId {
        RulesetId {
            name: "take-away".into(),
            source: "take-away".into(),
            digest: "d1".into(),
            game: "take-away".into(),
            overrides: Vec::new(),
        }
    }

    fn records(bots: &[BotSpec]) -> String {
        let g = crate::testing::take_away().unwrap();
        let opts = SimOptions {
            players: 3,
            games: 20,
            from: 0,
            seed: 5,
            bots: bots.to_vec(),
            shard: None,
            record: true,
            progress: None,
            rotate_seats: false,
            metrics: true,
        };
        let mut out = String::new();
        simulate(&g, &opts, |r| {
            out.push_str(&Record::of_sim(&id(), 3, 5, bots, r).to_line());
            out.push('\n');
        })
        .unwrap();
        out
    }

    fn resolver(digest: &'static str) -> impl FnMut(&Record) -> Result<(Arc<dyn AnyGame>, String), String> {
        move |_| Ok((Arc::new(crate::testing::take_away().unwrap()) as Arc<dyn AnyGame>, digest.to_string()))
    }

    #[test]
    fn simulated_games_replay_exactly_with_their_bots() {
        let bots = [BotSpec::Greedy, BotSpec::Random, BotSpec::Mcts(10)];
        let text = records(&bots);
        let report = replay(&text, ReplayOptions { check_bots: true }, &mut resolver("d1")).unwrap();
        assert_eq!(report.games, 20);
        assert!(report.mismatches.is_empty(), "{:?}", report.mismatches);
    }

    #[test]
    fn a_line_that_is_no_record_says_what_was_expected() {
        let e = parse_line("3").unwrap_err();
        assert_eq!(e, "not a game record: expected a JSON object, found a number");
        // A wrong field is named at its JSON Pointer, not at a column of a long line.
        let line = records(&[BotSpec::Random]).lines().next().unwrap().to_string();
        let mut v: serde_json::Value = serde_json::from_str(&line).unwrap();
        v["bots"] = serde_json::json!([1]);
        let e = parse_line(&v.to_string()).unwrap_err();
        assert_eq!(e, "not a game record: /bots/0: invalid type: integer `1`, expected a string");
    }

    #[test]
    fn a_mismatch_names_only_what_differs() {
        let a = Outcome::ranked(vec![3, 3], vec![vec![1], vec![0]], "empty");
        let mut b = a.clone();
        b.tiebreaks = vec![vec![0], vec![1]];
        b.ranks = vec![1, 0];
        let (e, f) = outcome_difference(&Some(a.clone()), &Some(b));
        assert_eq!(e, "tie-breaks [[1], [0]], ranks [0, 1]");
        assert_eq!(f, "tie-breaks [[0], [1]], ranks [1, 0]");
        let (e, f) = outcome_difference(&Some(a.clone()), &Some(a.clone().stopped()));
        assert_eq!((e.as_str(), f.as_str()), ("finished", "unfinished (stopped by a cap)"));
        let (e, f) = outcome_difference(&Some(a), &None);
        assert_ne!(e, f);
    }

    #[test]
    fn a_changed_result_is_a_mismatch() {
        let text = records(&[const { BotSpec::Random }; 3]);
        let mut lines: Vec<Record> = parse_lines(&text).map(|(_, r)| r.unwrap()).collect();
        if let Some(o) = lines[2].result.as_mut() {
            o.scores[0] += 1;
        }
        let text: String = lines.iter().map(|r| r.to_line() + "\n").collect();
        let report = replay(&text, ReplayOptions::default(), &mut resolver("d1")).unwrap();
        assert_eq!(report.mismatches.len(), 1);
        assert_eq!(report.mismatches[0].line, 3);
        assert!(report.mismatches[0].message.contains("game 2: the result differs"), "{:?}", report.mismatches);
    }

    #[test]
    fn a_changed_action_is_caught() {
        let text = records(&[const { BotSpec::Random }; 3]);
        let mut lines: Vec<Record> = parse_lines(&text).map(|(_, r)| r.unwrap()).collect();
        let first = lines[0].actions[0].clone();
        lines[0].actions[0] = "take 9".into();
        let text: String = lines.iter().map(|r| r.to_line() + "\n").collect();
        let e = replay(&text, ReplayOptions::default(), &mut resolver("d1")).unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.message.contains("action 1") && e.message.contains("take 9"), "{e}");
        // With the bots checked, a changed (legal) action shows as a bot mismatch.
        lines[0].actions[0] = if first == "pass" { "take 1".into() } else { "pass".into() };
        let text: String = lines.iter().map(|r| r.to_line() + "\n").collect();
        let r = replay(&text, ReplayOptions { check_bots: true }, &mut resolver("d1"));
        match r {
            Ok(rep) => assert!(!rep.mismatches.is_empty()),
            Err(e) => assert!(e.message.contains("action"), "{e}"),
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(100))]

        #[test]
        fn replay_never_panics_on_edited_records(line in 0usize..20, action in 0usize..10, text in "[a-z0-9 ]{0,10}") {
            let t = records(&[const { BotSpec::Random }; 3]);
            let mut lines: Vec<Record> = parse_lines(&t).map(|(_, r)| r.unwrap()).collect();
            let r = &mut lines[line];
            if action < r.actions.len() {
                r.actions[action] = text.clone();
            } else {
                r.actions.push(text.clone());
            }
            let edited: String = lines.iter().map(|r| r.to_line() + "\n").collect();
            let _ = replay(&edited, ReplayOptions { check_bots: true }, &mut resolver("d1"));
            let _ = replay(&text, ReplayOptions::default(), &mut resolver("d1"));
        }
    }

    proptest::proptest! {
        /// The one buffer reads back as the names, and writes the bytes serde_json writes
        /// for a list of them: escapes, quotes and names like the separator included.
        #[test]
        fn actions_are_the_list_of_their_names(names in proptest::collection::vec("([a-z0-9 -]|\"|\\\\|,|\n|\u{1}|é){0,6}", 0..8)) {
            let actions = Actions::from(names.clone());
            proptest::prop_assert_eq!(actions.len(), names.len());
            proptest::prop_assert_eq!(actions.to_vec(), names.clone());
            for (i, name) in names.iter().enumerate() {
                proptest::prop_assert_eq!(actions.get(i), Some(name.as_str()));
            }
            proptest::prop_assert_eq!(actions.get(names.len()), None);
            let mut json = Vec::new();
            actions.write_json(&mut json).unwrap();
            proptest::prop_assert_eq!(String::from_utf8(json).unwrap(), serde_json::to_string(&names).unwrap());
            proptest::prop_assert_eq!(serde_json::to_string(&actions).unwrap(), serde_json::to_string(&names).unwrap());
        }
    }

    #[test]
    fn corrupt_lines_and_digest_changes_are_refused() {
        let text = records(&[const { BotSpec::Random }; 3]);
        let e = replay(&text, ReplayOptions::default(), &mut resolver("d2")).unwrap_err();
        assert!(e.message.contains("no longer matches"), "{e}");
        let broken = format!("{}{{not json\n", text.lines().next().unwrap_or_default().to_string() + "\n");
        let e = replay(&broken, ReplayOptions::default(), &mut resolver("d1")).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(replay("\n\n", ReplayOptions::default(), &mut resolver("d1")).is_err());
    }
}
