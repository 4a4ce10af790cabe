//! `sweep RULESET --vary KEY=A..B`: the same games at every value of a key (or a grid of
//! two), each value paired with the base value's games; and `merge` of a sweep's shards.

use super::dist::Distributions;
use super::few::{self, Note};
use super::paired_run::{GameSink, PairedRun, Runner, play_paired, skill_figures};
use super::robust::{self, Check};
use super::spec::{Loader, Ruleset, RunError, StudySpec, bad, players_for, study_options};
use crate::paired::{self, Difference};
use crate::power::{Family, FigurePower};
use crate::ruleset::overrides;
use crate::sim::{Report, SimOptions};
use crate::sweep::{self, MAX_POINTS, Named, Vary};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What `sweep` (and `tune`) asked for.
#[derive(Clone, Debug, Default)]
pub struct SweepArgs {
    pub ruleset: String,
    pub vary: Vec<String>,
    pub base: Vec<String>,
    pub figures: Vec<String>,
    /// `--shard K/N`: only the seeds of that shard, at every value.
    pub shard: Option<(u64, u64)>,
}

/// The text of the correction used across a sweep.
pub const CORRECTION: &str = "Holm–Bonferroni, family-wise 5% over every value's outcome figures together and, apart, over every value's designer metrics together";

/// The values played, their rulesets, and which is the base.
pub struct Plan {
    pub varies: Vec<Vary>,
    pub points: Vec<Vec<String>>,
    pub rulesets: Vec<Ruleset>,
    pub base: usize,
    /// Whether the base values were the ruleset's own (not `--base`).
    pub own_base: bool,
    pub players: usize,
    /// The component the first key touches (`harbor` of `buildings.harbor.cost`).
    pub item: Option<String>,
}

impl Plan {
    pub fn label(&self, i: usize) -> String {
        self.points.get(i).map_or_else(String::new, |p| p.join(", "))
    }

    pub fn x_axis(&self) -> String {
        self.varies.iter().map(|v| v.key.as_str()).collect::<Vec<_>>().join(", ")
    }

    /// The x position of a point: its value when one key is swept over numbers.
    fn x(&self, i: usize) -> Option<f64> {
        if self.varies.len() != 1 {
            return None;
        }
        self.points.get(i)?.first()?.parse().ok()
    }

    /// The files the rulesets were read from.
    pub fn inputs(&self) -> Vec<&str> {
        self.rulesets.iter().flat_map(|r| r.loaded.sources.names()).collect()
    }
}

/// The sets of one point: the study's `--set` then `KEY=VALUE` of each `--vary`.
pub fn sets_of(spec: &StudySpec, varies: &[Vary], values: &[String]) -> Vec<String> {
    let mut sets = spec.sets.clone();
    sets.extend(varies.iter().zip(values).map(|(v, x)| format!("{}={x}", v.key)));
    sets
}

/// Parses `--vary` and `--base`, and loads the ruleset at every value (checked as `--set`).
pub fn plan(a: &SweepArgs, spec: &StudySpec, max_keys: usize, load: &Loader<'_>) -> Result<Plan, RunError> {
    if a.vary.len() > max_keys {
        return Err(bad(format!("{} --vary: give at most {max_keys}", a.vary.len())));
    }
    let mut varies: Vec<Vary> = a.vary.iter().map(|v| sweep::parse_vary(v).map_err(bad)).collect::<Result<_, _>>()?;
    for (k, v) in varies.iter().enumerate() {
        if varies[..k].iter().any(|w| w.key == v.key) {
            return Err(bad(format!(
                "--vary {}: the key is given twice; give each key once, with all its values (`KEY=v1,v2,…`)",
                v.key
            )));
        }
    }
    if !a.base.is_empty() && a.base.len() != varies.len() {
        return Err(bad(format!(
            "{} --base for {} --vary: give one base value per --vary, in order",
            a.base.len(),
            varies.len()
        )));
    }
    let own = load(&a.ruleset, &spec.sets)?;
    let mut base_values = Vec::new();
    for (k, v) in varies.iter_mut().enumerate() {
        let base = match a.base.get(k) {
            Some(b) => sweep::normal(b).map_err(|e| bad(format!("--base `{b}` {e}")))?,
            None => match overrides::get(&own.loaded.tree, &v.key) {
                Some(n) => overrides::value_text(n),
                None => {
                    // Load it set once: the error names the nearest valid key.
                    load(&a.ruleset, &sets_of(spec, std::slice::from_ref(v), &v.values[..1]))?;
                    return Err(bad(format!(
                        "--vary {}: the ruleset states no value there to compare with; give --base VALUE",
                        v.key
                    )));
                }
            },
        };
        // The base is played too: among the values where it falls, else first.
        if !v.values.contains(&base) {
            let x: Option<f64> = base.parse().ok();
            let at = v.values.iter().position(|y| x.zip(y.parse::<f64>().ok()).is_some_and(|(x, y)| y > x));
            let at = match (x, v.numbers()) {
                (Some(_), Some(_)) => at.unwrap_or(v.values.len()),
                _ => 0,
            };
            v.values.insert(at, base.clone());
        }
        base_values.push(base);
    }
    let points = sweep::grid(&varies);
    if points.len() > MAX_POINTS {
        return Err(bad(format!("{} values in the grid: at most {MAX_POINTS} are played", points.len())));
    }
    let base = points.iter().position(|p| *p == base_values).unwrap_or(0);
    let rulesets: Vec<Ruleset> = points
        .iter()
        .map(|p| {
            load(&a.ruleset, &sets_of(spec, &varies, p)).map_err(|e| {
                let at = varies.iter().zip(p).map(|(v, x)| format!("{}={x}", v.key)).collect::<Vec<_>>().join(", ");
                bad(format!("at {at}:\n{e}"))
            })
        })
        .collect::<Result<_, _>>()?;
    let lo = rulesets.iter().map(|r| *r.game.players().start()).max().unwrap_or(1);
    let hi = rulesets.iter().map(|r| *r.game.players().end()).min().unwrap_or(0);
    if lo > hi {
        return Err(bad("the swept values have no player count in common"));
    }
    let players = players_for(spec.players, &(lo..=hi), &a.ruleset)?;
    let item = varies.first().and_then(|v| sweep::item_of(&v.key)).map(str::to_string);
    Ok(Plan { varies, points, rulesets, base, own_base: a.base.is_empty(), players, item })
}

/// The standard deviation of the game length, from the finished games counted by length.
pub fn rounds_sd_of(rounds: &BTreeMap<i64, u64>) -> Option<f64> {
    let n: u64 = rounds.values().sum();
    if n < 2 {
        return None;
    }
    let mean = rounds.iter().map(|(&k, &c)| k as f64 * c as f64).sum::<f64>() / n as f64;
    let ss: f64 = rounds.iter().map(|(&k, &c)| (k as f64 - mean).powi(2) * c as f64).sum();
    Some((ss / (n - 1) as f64).sqrt())
}

/// Every figure name a report of `r` under `opts` has, the ends apart (they depend on the
/// games played): to refuse an unknown `--figure` or `--target` before any game.
fn figure_names(r: &Ruleset, opts: &SimOptions) -> Vec<String> {
    let mut tally = crate::sim::Tally::new(opts.players);
    tally.games = 1;
    if opts.metrics {
        tally.metrics = crate::metrics::MetricTally::new(r.game.metric_defs());
        // Figures of no game are left out of a report: one (empty) game names them all.
        tally.metrics.games = 1;
    }
    let report = Report::new(r.name(), "", r.game.game_id(), opts, tally, 0.0);
    sweep::named_figures(&report, None).into_iter().map(|n| n.figure).collect()
}

/// Refuses a figure that no value reports, with the closest name, before any game.
pub fn check_figure(
    what: &str,
    name: &str,
    rulesets: &[&Ruleset],
    opts: &SimOptions,
    skill: bool,
) -> Result<(), RunError> {
    if skill && name.starts_with("skill: ") {
        return Ok(());
    }
    if let Some(end) = name.strip_prefix("ended by ") {
        return check_end(what, name, end, rulesets);
    }
    let mut known: Vec<String> = Vec::new();
    for r in rulesets {
        for n in figure_names(r, opts) {
            if !known.contains(&n) {
                known.push(n);
            }
        }
    }
    if known.iter().any(|k| k == name) {
        return Ok(());
    }
    let outcome: Vec<&str> = known.iter().map(String::as_str).filter(|n| !n.contains(": ")).collect();
    // A misspelling, else a name cut short or run on (`seat 0 win` for `seat 0 win share`,
    // `rounds mean` for `rounds`).
    let near = crate::suggest::closest(name, known.iter().map(String::as_str)).or_else(|| {
        let cut = |a: &str, b: &str| a.len() >= 3 && b.starts_with(a);
        known.iter().map(String::as_str).find(|k| cut(name, k) || cut(k, name))
    });
    Err(bad(format!(
        "{what} `{name}`: no such figure{} Figures: {}, `ended by END`{}, and the designer metrics as `GROUP: NAME FIGURE` (`--format json` lists them all)",
        near.map_or(".".to_string(), |n| format!("; did you mean `{n}`?")),
        outcome.join(", "),
        if opts.metrics { "" } else { " (no designer metrics: --no-metrics)" }
    )))
}

/// Refuses `ended by END` where no ruleset's games can end so (every game names its ends
/// but for one that does not say, whose ends are taken on trust).
fn check_end(what: &str, name: &str, end: &str, rulesets: &[&Ruleset]) -> Result<(), RunError> {
    let mut ends: Vec<String> = Vec::new();
    for r in rulesets {
        let names = r.game.end_names();
        if names.is_empty() {
            return Ok(());
        }
        for n in names {
            if !ends.contains(&n) {
                ends.push(n);
            }
        }
    }
    if ends.iter().any(|e| e == end) {
        return Ok(());
    }
    let figures: Vec<String> = ends.iter().map(|e| format!("ended by {e}")).collect();
    let near = crate::suggest::closest(name, figures.iter().map(String::as_str));
    Err(bad(format!(
        "{what} `{name}`: no game of this ruleset ends so{} Its ends: {}",
        near.map_or(".".to_string(), |n| format!("; did you mean `{n}`?")),
        figures.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(", ")
    )))
}

/// One `--vary` key and its values (the base among them).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VaryKey {
    pub key: String,
    pub values: Vec<String>,
}

/// One value of a sweep.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Point {
    pub label: String,
    /// The value of each `--vary` key (a grid has two).
    pub values: Vec<String>,
    /// The value, when one key is swept over numbers.
    pub x: Option<f64>,
    pub base: bool,
    /// The figures as `--figure` names them.
    pub figures: Vec<Named>,
    /// The paired differences from the base (none at the base).
    pub differences: Vec<Difference>,
    /// Finished games by length: what the length's interval comes from, mergeable.
    pub rounds: BTreeMap<i64, u64>,
    pub report: Report,
    /// The swept component's figures where they rest on few games ([`few`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub few_games: Vec<Note>,
}

/// The report of `sweep` (`rulesmith sweep --format json`, Python's `sweep`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepReport {
    /// Always `sweep` (what `merge` recognises).
    pub kind: String,
    pub version: String,
    /// `K/N` of a shard's report.
    pub shard: Option<String>,
    pub ruleset: Option<String>,
    /// The ruleset as given (name or path).
    pub source: String,
    pub overrides: Vec<String>,
    pub vary: Vec<VaryKey>,
    pub x_axis: String,
    pub item: Option<String>,
    /// `--figure`: the figures plotted beside the default ones.
    pub plots: Vec<String>,
    pub base: Option<Vec<String>>,
    pub base_is_own: bool,
    pub players: usize,
    pub games: u64,
    pub seed: u64,
    pub rotate_seats: bool,
    pub bots: Vec<String>,
    pub interval: String,
    pub correction: String,
    pub power: BTreeMap<String, FigurePower>,
    pub detect: f64,
    pub points: Vec<Point>,
    /// `--check-with`: the sweep again with a second line-up, and each headline figure's verdict.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<Check>,
}

impl SweepReport {
    /// The base value's point.
    pub fn base_point(&self) -> Option<&Point> {
        self.points.iter().find(|p| p.base)
    }
}

/// The figures of each value (named as `--figure` names them).
pub fn point_figures(reports: &[Report], dists: &[Distributions]) -> Vec<Vec<Named>> {
    reports
        .iter()
        .enumerate()
        .map(|(i, r)| sweep::named_figures(r, dists.get(i).and_then(|d| rounds_sd_of(&d.rounds))))
        .collect()
}

/// The sweep's options, checked before any game: `--figure` names, `--check-with`.
pub fn options(plan: &Plan, a: &SweepArgs, spec: &StudySpec) -> Result<SimOptions, RunError> {
    let mut opts = study_options(spec, plan.players)?;
    opts.shard = a.shard;
    for name in &a.figures {
        check_figure("--figure", name, &plan.rulesets.iter().collect::<Vec<_>>(), &opts, spec.skill.is_some())?;
    }
    if let Some(check) = spec.check_spec() {
        if a.shard.is_some() {
            return Err(bad("--check-with and --shard: check the whole sweep (its shards merged) instead"));
        }
        study_options(&check, plan.players).map_err(|e| bad(format!("--check-with: {e}")))?;
    }
    Ok(opts)
}

/// Plays a planned sweep.
pub fn run(
    plan: &Plan,
    a: &SweepArgs,
    spec: &StudySpec,
    opts: &SimOptions,
    runner: &dyn Runner,
    sink: &mut GameSink<'_>,
) -> Result<(SweepReport, Vec<Distributions>), RunError> {
    let labels: Vec<String> = (0..plan.points.len()).map(|i| plan.label(i)).collect();
    let PairedRun { mut reports, mut diffs, dists } =
        play_paired(&plan.rulesets, &labels, opts, plan.base, true, runner, sink)?;
    // The extreme games' commands name the ruleset as it was given (a file by its path)
    // with the value's overrides.
    for (report, r) in reports.iter_mut().zip(&plan.rulesets) {
        report.set_source(&a.ruleset, &r.loaded.overrides);
    }
    paired::holm_across(&mut diffs);
    let mut figures = point_figures(&reports, &dists);
    let skill = skill_figures(&plan.rulesets, spec, plan.players, runner)?;
    for (f, s) in figures.iter_mut().zip(skill) {
        f.extend(s);
    }
    let rounds: Vec<BTreeMap<i64, u64>> = dists.iter().map(|d| d.rounds.clone()).collect();
    let mut report = report_of(plan, a, spec, opts, reports, diffs, figures, rounds);
    if let Some(check) = spec.check_spec() {
        let copts = study_options(&check, plan.players)?;
        let labels: Vec<String> = labels.iter().map(|l| format!("{l} (check: {})", check.bots_text())).collect();
        let mut run = play_paired(&plan.rulesets, &labels, &copts, plan.base, false, runner, &mut |_, _, _, _| {})?;
        paired::holm_across(&mut run.diffs);
        let first: Vec<(String, &[Difference])> =
            report.points.iter().map(|p| (p.label.clone(), p.differences.as_slice())).collect();
        let second: Vec<&[Difference]> = run.diffs.iter().map(Vec::as_slice).collect();
        report.check = Some(robust::check_differences(&copts, check.games, &first, &second));
    }
    Ok((report, dists))
}

/// `sweep`: plans and plays it (what Python's `sweep` is).
pub fn sweep(a: &SweepArgs, spec: &StudySpec, load: &Loader<'_>, runner: &dyn Runner) -> Result<SweepReport, RunError> {
    let plan = plan(a, spec, 2, load)?;
    let opts = options(&plan, a, spec)?;
    Ok(run(&plan, a, spec, &opts, runner, &mut |_, _, _, _| {})?.0)
}

#[allow(clippy::too_many_arguments)]
fn report_of(
    plan: &Plan,
    a: &SweepArgs,
    spec: &StudySpec,
    opts: &SimOptions,
    reports: Vec<Report>,
    diffs: Vec<Vec<Difference>>,
    figures: Vec<Vec<Named>>,
    rounds: Vec<BTreeMap<i64, u64>>,
) -> SweepReport {
    let power = crate::power::power_summary(&diffs, Family::AllSets);
    let x_axis = plan.x_axis();
    let points = reports
        .into_iter()
        .zip(diffs)
        .zip(figures)
        .zip(rounds)
        .enumerate()
        .map(|(i, (((report, differences), figures), rounds))| {
            let label = plan.label(i);
            let few_games = match &plan.item {
                Some(item) => few::notes(&report, Some(item), &format!("{x_axis} = {label}")),
                None => Vec::new(),
            };
            Point {
                values: plan.points.get(i).cloned().unwrap_or_default(),
                x: plan.x(i),
                base: i == plan.base,
                label,
                figures,
                differences,
                rounds,
                report,
                few_games,
            }
        })
        .collect();
    SweepReport {
        kind: "sweep".into(),
        version: crate::sim::VERSION.into(),
        shard: opts.shard.map(|(k, n)| format!("{}/{n}", k + 1)),
        ruleset: plan.rulesets.first().map(|r| r.name().to_string()),
        source: a.ruleset.clone(),
        overrides: spec.sets.clone(),
        vary: plan.varies.iter().map(|v| VaryKey { key: v.key.clone(), values: v.values.clone() }).collect(),
        x_axis,
        item: plan.item.clone(),
        plots: a.figures.clone(),
        base: plan.points.get(plan.base).cloned(),
        base_is_own: plan.own_base,
        players: plan.players,
        games: opts.games,
        seed: opts.seed,
        rotate_seats: opts.rotate_seats,
        bots: opts.bots.iter().map(ToString::to_string).collect(),
        interval: super::compare::INTERVAL.into(),
        correction: CORRECTION.into(),
        power,
        detect: spec.detect,
        points,
        check: None,
    }
}

/// Whether a report's text is a sweep's (`"kind": "sweep"`).
pub fn is_sweep(text: &str) -> bool {
    #[derive(serde::Deserialize)]
    struct Kind {
        #[serde(default)]
        kind: Option<String>,
    }
    serde_json::from_str::<Kind>(text).is_ok_and(|k| k.kind.as_deref() == Some("sweep"))
}

/// The part of a sweep's JSON that its shards must share.
fn sweep_header(j: &serde_json::Value) -> serde_json::Value {
    let keep = [
        "version",
        "source",
        "overrides",
        "vary",
        "base",
        "base_is_own",
        "players",
        "games",
        "seed",
        "rotate_seats",
        "bots",
        "plots",
        "detect",
    ];
    keep.iter().map(|k| ((*k).to_string(), j[*k].clone())).collect::<serde_json::Map<_, _>>().into()
}

/// What a value's shards add up to.
#[derive(Default)]
struct PointMerge {
    reports: crate::sim::ReportMerge,
    sums: paired::SumsMerge,
    rounds: BTreeMap<i64, u64>,
    /// The `--skill` figures: every shard plays the whole skill run, so all must agree.
    skill: Option<Vec<Named>>,
}

/// A shard's value, read: its report, paired sums, lengths and skill figures.
struct ShardPoint {
    report: Report,
    sums: BTreeMap<String, paired::PairedSums>,
    rounds: BTreeMap<i64, u64>,
    skill: Vec<Named>,
}

/// Reads one value of a shard field by field, so that a problem names its place.
fn read_point(name: &str, i: usize, point: &serde_json::Value) -> Result<ShardPoint, RunError> {
    let at = |field: &str, e: &dyn std::fmt::Display| bad(format!("`{name}`: /points/{i}/{field}: {e}"));
    let report: Report = serde_json::from_value(point["report"].clone()).map_err(|e| at("report", &e))?;
    let diffs: Vec<Difference> =
        serde_json::from_value(point["differences"].clone()).map_err(|e| at("differences", &e))?;
    let mut sums = BTreeMap::new();
    // The owners' − non-owners' gaps are computed from the reports, not summed.
    for d in diffs.into_iter().filter(|d| !d.figure.contains(" − non-")) {
        if sums.insert(d.figure.clone(), d.sums).is_some() {
            return Err(at("differences", &format_args!("`{}` is given twice", d.figure)));
        }
    }
    let rounds: BTreeMap<i64, u64> = match &point["rounds"] {
        serde_json::Value::Null => return Err(at("rounds", &"missing (a sweep of an earlier rulesmith?)")),
        v => serde_json::from_value(v.clone()).map_err(|e| at("rounds", &e))?,
    };
    let counted = rounds.values().try_fold(0u64, |a, &c| a.checked_add(c));
    let finished = report.tally.finished();
    if counted != Some(finished) || rounds.keys().any(|&k| k < 0) {
        return Err(at("rounds", &format_args!("its counts do not add up to the report's {finished} finished games")));
    }
    let weighted = rounds.iter().try_fold(0u64, |a, (&k, &c)| a.checked_add((k as u64).checked_mul(c)?));
    if weighted != Some(report.tally.rounds_sum) {
        return Err(at("rounds", &"its lengths do not add up to the report's `tally.rounds_sum`"));
    }
    let figures: Vec<Named> = serde_json::from_value(point["figures"].clone()).map_err(|e| at("figures", &e))?;
    let skill = figures.into_iter().filter(|f| f.figure.starts_with("skill: ")).collect();
    Ok(ShardPoint { report, sums, rounds, skill })
}

/// `merge` of the JSON outputs of a sweep's shards (`sweep --shard K/N --format json`):
/// the reports, the exact paired sums and the game lengths of every value add up to the
/// unsplit sweep's; its figures, differences and significance are computed again from
/// them, so the merged sweep is the unsplit one. Sums no games can make are refused.
/// Add each shard's text in turn (one in memory at a time), then [`SweepMerge::finish`].
#[derive(Default)]
pub struct SweepMerge {
    header: Option<serde_json::Value>,
    first_name: String,
    merges: Vec<PointMerge>,
    base_at: Option<usize>,
}

impl SweepMerge {
    /// Adds the shard `name` whose JSON is `text`.
    pub fn add(&mut self, name: &str, text: &str) -> Result<(), RunError> {
        if !is_sweep(text) {
            return Err(bad(format!("`{name}` is not a JSON output of `rulesmith sweep`, unlike the first file")));
        }
        let j: serde_json::Value =
            serde_json::from_str(text).map_err(|e| bad(format!("`{name}` is not a sweep's JSON: {e}")))?;
        if !j["check"].is_null() {
            return Err(bad(format!("`{name}` has a --check-with run: shards have none (merge, then check)")));
        }
        let h = sweep_header(&j);
        match &self.header {
            None => {
                self.header = Some(h);
                self.first_name = name.to_string();
            }
            Some(first) => {
                if let Some((k, _)) = first.as_object().into_iter().flatten().find(|(k, v)| h[k.as_str()] != **v) {
                    return Err(bad(format!(
                        "merge: `{name}` is not a shard of the same sweep as `{}`: its `{k}` differs",
                        self.first_name
                    )));
                }
            }
        }
        let first_name = self.first_name.clone();
        let points = j["points"].as_array().cloned().unwrap_or_default();
        if self.merges.is_empty() {
            self.merges = points.iter().map(|_| PointMerge::default()).collect();
        }
        if points.len() != self.merges.len() {
            return Err(bad(format!(
                "merge: `{name}` has {} values, `{first_name}` {}: /points differs",
                points.len(),
                self.merges.len()
            )));
        }
        let read: Vec<ShardPoint> =
            points.iter().enumerate().map(|(i, p)| read_point(name, i, p)).collect::<Result<_, _>>()?;
        let base: Vec<usize> = points.iter().enumerate().filter(|(_, p)| p["base"] == true).map(|(i, _)| i).collect();
        let &[b] = base.as_slice() else {
            return Err(bad(format!("`{name}`: /points: {} values are marked the base; a sweep has one", base.len())));
        };
        if *self.base_at.get_or_insert(b) != b {
            return Err(bad(format!("merge: `{name}` has another base value than `{first_name}` (/points/{b}/base)")));
        }
        // The reports first: the paired sums are checked against tallies known to hold.
        for (point, m) in read.iter().zip(self.merges.iter_mut()) {
            m.reports.add(name, &point.report).map_err(|e| bad(format!("merge: {e}")))?;
        }
        for (i, (point, m)) in read.iter().zip(self.merges.iter_mut()).enumerate() {
            let at = |e: String| bad(format!("merge: `{name}`: /points/{i}/differences: {e}"));
            if i == b && !point.sums.is_empty() {
                return Err(at("the base value has no differences from itself".into()));
            }
            if i != b {
                let base = &read[b].report;
                if point.report.games != base.games {
                    return Err(bad(format!(
                        "merge: `{name}`: /points/{i}/report/games is {}, the base value's {}: the values play the same games",
                        point.report.games, base.games
                    )));
                }
                let finished = point.report.tally.finished().min(base.tally.finished());
                m.sums.add(point.report.games, finished, &point.sums).map_err(&at)?;
                paired::check_against_tallies(&point.sums, &base.tally, &point.report.tally).map_err(&at)?;
            }
            for (&k, &c) in &point.rounds {
                let e = m.rounds.entry(k).or_default();
                *e = e.checked_add(c).ok_or_else(|| bad(format!("merge: `{name}`: /points/{i}/rounds overflow")))?;
            }
            match &m.skill {
                None => m.skill = Some(point.skill.clone()),
                Some(s) if *s != point.skill => {
                    return Err(bad(format!(
                        "merge: `{name}`: /points/{i}/figures: its skill figures differ from `{first_name}`'s"
                    )));
                }
                Some(_) => {}
            }
        }
        Ok(())
    }

    /// The merged sweep, its values loaded again (`load`) to check they are the same.
    pub fn finish(self, load: &Loader<'_>) -> Result<SweepReport, RunError> {
        let Some(h) = self.header else { return Err(bad("merge: no reports given")) };
        let mut reports = Vec::new();
        let mut sums = Vec::new();
        let mut rounds = Vec::new();
        let mut skills = Vec::new();
        for (i, m) in self.merges.into_iter().enumerate() {
            reports.push(m.reports.finish().map_err(|e| bad(format!("merge: {e}")))?);
            sums.push(m.sums.finish().map_err(|e| bad(format!("merge: value {}: {e}", i + 1)))?);
            rounds.push(m.rounds);
            skills.push(m.skill.unwrap_or_default());
        }
        // The sweep again, from its own arguments: the same values, base and players.
        let strs = |v: &serde_json::Value| -> Vec<String> {
            v.as_array().map(|a| a.iter().filter_map(|x| x.as_str().map(str::to_string)).collect()).unwrap_or_default()
        };
        let vary: Vec<String> = h["vary"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|v| format!("{}={}", v["key"].as_str().unwrap_or(""), strs(&v["values"]).join(",")))
                    .collect()
            })
            .unwrap_or_default();
        let a = SweepArgs {
            ruleset: h["source"].as_str().unwrap_or_default().to_string(),
            vary,
            base: strs(&h["base"]),
            figures: strs(&h["plots"]),
            shard: None,
        };
        let spec = StudySpec {
            players: h["players"].as_u64().map(|p| p as usize),
            bots: Some(strs(&h["bots"]).join(",")),
            rotate_seats: h["rotate_seats"].as_bool(),
            sets: strs(&h["overrides"]),
            detect: h["detect"].as_f64().unwrap_or(2.0),
            ..StudySpec::new(h["games"].as_u64().unwrap_or(0), h["seed"].as_u64().unwrap_or(0))
        };
        let mut plan = plan(&a, &spec, 2, load)?;
        // The base was the ruleset's own or `--base`: reported as the unsplit sweep reports it.
        plan.own_base = h["base_is_own"] == true;
        let same = plan.points.len() == reports.len()
            && plan.rulesets.iter().zip(&reports).all(|(r, rep)| r.digest() == rep.digest)
            && self.base_at == Some(plan.base);
        if !same {
            return Err(bad(format!(
                "merge: the sweep's values no longer load as they did: `{}` (or a file it extends) changed since the shards ran",
                a.ruleset
            )));
        }
        let opts = study_options(&spec, plan.players)?;
        let mut figures: Vec<Vec<Named>> =
            reports.iter().zip(&rounds).map(|(r, c)| sweep::named_figures(r, rounds_sd_of(c))).collect();
        for (f, s) in figures.iter_mut().zip(skills) {
            f.extend(s);
        }
        // Differences from the figures without the skill ones, as the unsplit sweep takes them.
        let plain: Vec<Vec<Named>> = reports.iter().map(|r| sweep::named_figures(r, None)).collect();
        let mut diffs: Vec<Vec<Difference>> = sums
            .iter()
            .enumerate()
            .map(|(i, s)| {
                if i == plan.base {
                    return Vec::new();
                }
                let mut d = paired::differences(s);
                d.extend(sweep::gap_differences(&plain[plan.base], &plain[i]));
                paired::rejudge(&mut d);
                d
            })
            .collect();
        paired::holm_across(&mut diffs);
        Ok(report_of(&plan, &a, &spec, &opts, reports, diffs, figures, rounds))
    }
}
