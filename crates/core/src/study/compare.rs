//! `compare`: the same games (seeds, bots) under each ruleset, each paired game by game
//! with the first.

use super::dist::Distributions;
use super::few::{self, Note};
use super::paired_run::{GameSink, PairedRun, Runner, play_paired, skill_figures};
use super::robust::{self, Check};
use super::spec::{Loader, Ruleset, RunError, StudySpec, bad, players_for, study_options};
use crate::paired::Difference;
use crate::power::{Family, FigurePower};
use crate::sim::{Report, SimOptions};
use crate::sweep::Named;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The interval every paired difference has; the change of a component's owner −
/// non-owner gap is not paired game by game ([`crate::sweep::gap_differences`]).
pub const INTERVAL: &str = "95%, normal approximation of the mean paired difference; an owner − non-owner gap's change: MOVER of the two gaps' Newcombe intervals";

/// The correction of `compare`'s tests.
pub const CORRECTION: &str =
    "Holm-Bonferroni, family-wise 5% within each ruleset's outcome figures and, apart, its designer metrics";

/// A ruleset with the same rules as an earlier one: reported, not played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Identical {
    pub ruleset: String,
    pub same_as: String,
}

/// One ruleset's paired differences from the first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DifferenceSet {
    pub ruleset: String,
    pub figures: Vec<Difference>,
}

/// Every ruleset's paired differences from the first, and how they were judged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Differences {
    pub from: Option<String>,
    pub interval: String,
    pub correction: String,
    pub rulesets: Vec<DifferenceSet>,
}

/// The report of `compare` (`rulesmith compare --format json`, Python's `compare`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareReport {
    /// `--set KEY=VALUE`, applied to every ruleset.
    pub overrides: Vec<String>,
    pub identical: Vec<Identical>,
    pub players: usize,
    pub games: u64,
    pub seed: u64,
    pub rotate_seats: bool,
    pub bots: Vec<String>,
    /// Each ruleset's report, the first being the one the others are compared with.
    pub rulesets: Vec<Report>,
    /// The smallest difference of each outcome figure the games detect.
    pub power: BTreeMap<String, FigurePower>,
    /// `--skill`: each ruleset's skill figure.
    pub skill: Option<Vec<Option<Named>>>,
    pub differences: Differences,
    /// `--check-with`: the run again with a second line-up, and each headline figure's verdict.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<Check>,
    /// Figures that rest on few seat-games ([`few`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub few_games: Vec<Note>,
}

/// What `compare` answers: a report, or only that the rulesets are the same.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum CompareOutcome {
    Report(Box<CompareReport>),
    /// Fewer than two rulesets with rules of their own: nothing played.
    Nothing {
        identical: Vec<Identical>,
    },
}

/// The rulesets of a comparison, loaded, and what it will play, before any game.
pub struct Prepared {
    /// The rulesets with rules of their own (played), and their arguments.
    pub rulesets: Vec<Ruleset>,
    pub args: Vec<String>,
    pub identical: Vec<Identical>,
    /// Players and run options (none when nothing is to be played).
    pub run: Option<(usize, SimOptions)>,
}

impl Prepared {
    /// The files the rulesets were read from (outputs must not overwrite them).
    pub fn inputs(&self) -> Vec<&str> {
        self.rulesets.iter().flat_map(|r| r.loaded.sources.names()).collect()
    }
}

/// Loads the rulesets of `compare` and checks the options, before any game: rulesets with
/// the same rules (apart from name and description) as an earlier one are reported as
/// identical and not played.
pub fn prepare(args: &[String], spec: &StudySpec, load: &Loader<'_>) -> Result<Prepared, RunError> {
    let all: Vec<Ruleset> = args.iter().map(|a| load(a, &spec.sets)).collect::<Result<_, _>>()?;
    let rules: Vec<String> = all.iter().map(|r| r.loaded.rules_digest()).collect();
    let mut rulesets = Vec::new();
    let mut kept = Vec::new();
    let mut identical = Vec::new();
    for (i, r) in all.into_iter().enumerate() {
        match (0..i).find(|&j| rules[j] == rules[i]) {
            Some(j) => identical.push(Identical { ruleset: args[i].clone(), same_as: args[j].clone() }),
            None => {
                rulesets.push(r);
                kept.push(args[i].clone());
            }
        }
    }
    if rulesets.len() < 2 {
        return Ok(Prepared { rulesets, args: kept, identical, run: None });
    }
    let lo = rulesets.iter().map(|r| *r.game.players().start()).max().unwrap_or(1);
    let hi = rulesets.iter().map(|r| *r.game.players().end()).min().unwrap_or(0);
    if lo > hi {
        return Err(bad("these rulesets have no player count in common"));
    }
    let players = players_for(spec.players, &(lo..=hi), "(all compared)")?;
    // Bots that differ by seat are rotated unless asked not to: a ruleset's effect on a
    // bot should not depend on where it sits.
    let opts = study_options(spec, players)?;
    if let Some(check) = spec.check_spec() {
        study_options(&check, players).map_err(|e| bad(format!("--check-with: {e}")))?;
    }
    Ok(Prepared { rulesets, args: kept, identical, run: Some((players, opts)) })
}

/// Plays a prepared comparison; `want_dists`: gather the distributions the page plots.
pub fn run(
    p: &Prepared,
    spec: &StudySpec,
    runner: &dyn Runner,
    sink: &mut GameSink<'_>,
    want_dists: bool,
) -> Result<(CompareOutcome, Vec<Distributions>), RunError> {
    let Some((players, opts)) = &p.run else {
        return Ok((CompareOutcome::Nothing { identical: p.identical.clone() }, Vec::new()));
    };
    let labels: Vec<String> = p.rulesets.iter().map(|r| r.name().to_string()).collect();
    let PairedRun { mut reports, mut diffs, dists } =
        play_paired(&p.rulesets, &labels, opts, 0, want_dists, runner, sink)?;
    // The extreme games' commands name each ruleset as it was given (a file by its path).
    for ((report, arg), r) in reports.iter_mut().zip(&p.args).zip(&p.rulesets) {
        report.set_source(arg, &r.loaded.overrides);
    }
    let diffs: Vec<Vec<Difference>> = diffs.drain(1..).collect();
    let skill = skill_figures(&p.rulesets, spec, *players, runner)?;
    let mut report = report_of(spec, &p.identical, *players, opts, reports, diffs, skill);
    if let Some(check) = spec.check_spec() {
        let copts = study_options(&check, *players)?;
        let labels: Vec<String> =
            p.rulesets.iter().map(|r| format!("{} (check: {})", r.name(), check.bots_text())).collect();
        let run = play_paired(&p.rulesets, &labels, &copts, 0, false, runner, &mut |_, _, _, _| {})?;
        let checked: Vec<Vec<Difference>> = run.diffs.into_iter().skip(1).collect();
        let first: Vec<(String, &[Difference])> =
            report.differences.rulesets.iter().map(|s| (s.ruleset.clone(), s.figures.as_slice())).collect();
        let second: Vec<&[Difference]> = checked.iter().map(Vec::as_slice).collect();
        report.check = Some(robust::check_differences(&copts, check.games, &first, &second));
    }
    report.few_games = few_games_notes(&report);
    Ok((CompareOutcome::Report(Box::new(report)), dists))
}

/// `compare`: loads the rulesets and plays them (what Python's `compare` is).
pub fn compare(
    args: &[String],
    spec: &StudySpec,
    load: &Loader<'_>,
    runner: &dyn Runner,
) -> Result<CompareOutcome, RunError> {
    let p = prepare(args, spec, load)?;
    Ok(run(&p, spec, runner, &mut |_, _, _, _| {}, false)?.0)
}

fn report_of(
    spec: &StudySpec,
    identical: &[Identical],
    players: usize,
    opts: &SimOptions,
    reports: Vec<Report>,
    diffs: Vec<Vec<Difference>>,
    skill: Vec<Option<Named>>,
) -> CompareReport {
    CompareReport {
        overrides: spec.sets.clone(),
        identical: identical.to_vec(),
        players,
        games: spec.games,
        seed: spec.seed,
        rotate_seats: opts.rotate_seats,
        bots: opts.bots.iter().map(ToString::to_string).collect(),
        power: crate::power::power_summary(&diffs, Family::EachSet),
        skill: skill.iter().any(Option::is_some).then_some(skill),
        differences: Differences {
            from: reports.first().map(|r| r.ruleset.clone()),
            interval: INTERVAL.to_string(),
            correction: CORRECTION.to_string(),
            rulesets: reports
                .iter()
                .skip(1)
                .zip(diffs)
                .map(|(r, d)| DifferenceSet { ruleset: r.ruleset.clone(), figures: d })
                .collect(),
        },
        rulesets: reports,
        check: None,
        few_games: Vec::new(),
    }
}

/// `compare`'s notes: the components whose owner − non-owner win share changed
/// significantly, where either ruleset rests on few games.
pub fn few_games_notes(c: &CompareReport) -> Vec<Note> {
    let mut out: Vec<Note> = Vec::new();
    let Some(base) = c.rulesets.first() else { return out };
    for (set, r) in c.differences.rulesets.iter().zip(c.rulesets.iter().skip(1)) {
        for d in set.figures.iter().filter(|d| d.significant && d.figure.contains(" − non-")) {
            let Some((group, rest)) = d.figure.split_once(": ") else { continue };
            let Some(name) = rest.split(' ').next() else { continue };
            for (report, at) in [(base, base.ruleset.as_str()), (r, r.ruleset.as_str())] {
                for n in few::notes(report, Some(name), at) {
                    if n.item.starts_with(group) && !out.iter().any(|o| o.at == n.at && o.item == n.item) {
                        out.push(n);
                    }
                }
            }
        }
    }
    out
}
