//! `tune RULESET --vary KEY=A..B --target FIGURE=VALUE`: the value of a key that brings a
//! figure to a target ([`crate::sweep::tune`]'s search), played and reported.

use super::few::{self, Note};
use super::paired_run::{Runner, play_paired};
use super::robust::{self, Verdict};
use super::spec::{Loader, Ruleset, RunError, StudySpec, bad, players_for, study_options};
use super::sweep_run::{check_figure, rounds_sd_of, sets_of};
use crate::ruleset::overrides;
use crate::sim::SimOptions;
use crate::sweep::{self, Named, Probe, Span, Vary};
use serde::{Deserialize, Serialize};

/// What `tune` asked for.
#[derive(Clone, Debug, Default)]
pub struct TuneArgs {
    pub ruleset: String,
    /// `KEY=A..B[:STEP]`.
    pub vary: String,
    /// `FIGURE=VALUE`.
    pub target: String,
}

/// The stopping rule, as reports state it.
pub const STOPPING_RULE: &str = "5 values evenly over the range with --games games each; the first neighbouring pair on either side of the target is narrowed (bisection for integers, interpolation for reals; --games games per value) until one STEP apart; its ends are played again with 4 × --games games (and, if both then fall on one side of the target, up to 3 further values towards it); the confirmed value closest to the target is the answer (reals: the interpolated crossing). At most 24 evaluations.";

/// `FIGURE=VALUE` of `--target` (a share may be given in %: `50%`).
pub fn parse_target(s: &str) -> Result<(String, f64), RunError> {
    let bad_target =
        || bad(format!("--target `{s}`: expected FIGURE=VALUE, e.g. `rounds=15` or `seat 0 win share=25%`"));
    let (name, value) = s.rsplit_once('=').ok_or_else(bad_target)?;
    let value = value.trim();
    let v = match value.strip_suffix('%') {
        Some(p) => p.trim().parse::<f64>().map(|p| p / 100.0),
        None => value.parse::<f64>(),
    }
    .ok()
    .filter(|v| v.is_finite())
    .ok_or_else(bad_target)?;
    // `-` typed for the report's `−`.
    let name = name.trim().replace(" - ", " − ");
    // A share lies in 0–100%, a gap between two shares in −100–100%, a length is never
    // negative: a target outside could never be reached.
    let gap = name.contains(" − non-");
    let share = !gap && (name.ends_with("share") || name.starts_with("ended by"));
    let range = if gap {
        Some((-1.0, 1.0, "from −100% to 100%"))
    } else if share {
        Some((0.0, 1.0, "from 0% to 100%"))
    } else if name == "rounds" {
        Some((0.0, f64::INFINITY, "0 or more"))
    } else {
        None
    };
    if let Some((lo, hi, what)) = range {
        if !(lo..=hi).contains(&v) {
            return Err(bad(format!("--target `{s}`: `{name}` is {what}; this target can never be reached")));
        }
    }
    Ok((name, v))
}

/// The figure `tune` aims at, and where.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Target {
    pub figure: String,
    pub value: f64,
}

/// `tune`'s answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    pub value: f64,
    /// The value as TOML text.
    pub text: String,
    pub figure: Option<f64>,
    pub ci95: Option<[f64; 2]>,
    /// The values whose 95% interval holds the target.
    pub interval: Option<[f64; 2]>,
    /// Whether the figure crosses the target in the range (else the closest end).
    pub crossed: bool,
    /// Where the tuned component is seldom taken up at the answer: no sign that it is
    /// fair there ([`few`]). Never an answer without it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub few_games: Vec<Note>,
}

/// One evaluated value (its largest sample).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TunePoint {
    pub label: String,
    pub x: f64,
    pub games: u64,
    pub base: bool,
    pub figures: Vec<Named>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub few_games: Vec<Note>,
}

/// `tune` under the second line-up (`--check-with`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneCheck {
    pub bots: Vec<String>,
    pub games: u64,
    pub rotate_seats: bool,
    pub answer: Answer,
    pub probes: Vec<Probe>,
    /// `holds`: the second answer lies within the first's 95% range of values (or is the
    /// first answer); `moves`: it does not.
    pub verdict: Verdict,
}

/// The report of `tune` (`rulesmith tune --format json`, Python's `tune`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneReport {
    pub ruleset: String,
    pub source: String,
    pub overrides: Vec<String>,
    pub key: String,
    pub x_axis: String,
    pub range: [f64; 2],
    pub step: f64,
    pub integer: bool,
    /// The ruleset's own value of the key, if it states one.
    pub base_value: Option<f64>,
    pub target: Target,
    pub item: Option<String>,
    pub plots: Vec<String>,
    pub players: usize,
    pub games: u64,
    pub seed: u64,
    pub rotate_seats: bool,
    pub bots: Vec<String>,
    pub stopping_rule: String,
    pub correction: String,
    pub answer: Answer,
    /// Every evaluation, in the order made.
    pub probes: Vec<Probe>,
    pub points: Vec<TunePoint>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<TuneCheck>,
}

/// A tune's key, range, target and players, checked before any game.
pub struct Prepared {
    pub key: String,
    pub span: Span,
    pub figure: String,
    pub target: f64,
    /// The ruleset as given (its own value of the key).
    pub own: Ruleset,
    pub players: usize,
    pub opts: SimOptions,
}

/// Checks a tune's arguments and loads the ruleset, before any game.
pub fn prepare(a: &TuneArgs, spec: &StudySpec, load: &Loader<'_>) -> Result<Prepared, RunError> {
    if spec.skill.is_some() {
        return Err(bad("--skill is for `compare` and `sweep`"));
    }
    let (key, span) = sweep::parse_span(&a.vary).map_err(bad)?;
    let (figure, target) = parse_target(&a.target)?;
    let own = load(&a.ruleset, &spec.sets)?;
    let first =
        load(&a.ruleset, &sets_of(spec, &[Vary { key: key.clone(), values: Vec::new() }], &[span.text(span.lo)]))?;
    let lo = (*own.game.players().start()).max(*first.game.players().start());
    let hi = (*own.game.players().end()).min(*first.game.players().end());
    let players = players_for(spec.players, &(lo..=hi), &a.ruleset)?;
    let opts = study_options(spec, players)?;
    check_figure("--target", &figure, &[&own, &first], &opts, false)?;
    if let Some(check) = spec.check_spec() {
        study_options(&check, players).map_err(|e| bad(format!("--check-with: {e}")))?;
    }
    Ok(Prepared { key, span, figure, target, own, players, opts })
}

/// Games a tune is expected still to play, this evaluation (of pass `at`) included: the
/// plan's evaluations not yet made, a confirming one with 4 × `games` games.
fn games_left(plan: [usize; 3], made: [usize; 3], at: usize, games: u64) -> u64 {
    let mut left = [0u64; 3];
    for (k, l) in left.iter_mut().enumerate() {
        // A pass under way ends any earlier one; one that runs longer than planned has
        // at least this evaluation left.
        let planned = if k < at { made[k] } else { plan[k].max(made[k] + usize::from(k == at)) };
        *l = (planned - made[k]) as u64;
    }
    (left[0] + left[1]).saturating_mul(games).saturating_add(left[2].saturating_mul(games.saturating_mul(4)))
}

/// ` · about 2 minutes left in all`, from the games played so far and their time (` ·
/// time left in all: measuring` before any).
fn time_left_text(played: u64, left: u64, elapsed: std::time::Duration, runner: &dyn Runner) -> String {
    if played == 0 {
        return " · time left in all: measuring".to_string();
    }
    let secs = elapsed.as_secs_f64() * left as f64 / played as f64;
    format!(" · about {} left in all", runner.time_left(std::time::Duration::from_secs_f64(secs.max(0.0))))
}

/// One evaluation's figures and notes.
struct Evidence {
    x: f64,
    games: u64,
    figures: Vec<Named>,
    few_games: Vec<Note>,
}

/// The search under one line-up: the answer, every probe, and the evidence.
fn search(
    p: &Prepared,
    a: &TuneArgs,
    spec: &StudySpec,
    opts: &SimOptions,
    load: &Loader<'_>,
    runner: &dyn Runner,
    suffix: &str,
) -> Result<(Answer, Vec<Probe>, Vec<Evidence>), RunError> {
    let (key, span, figure) = (&p.key, p.span, &p.figure);
    let vary = Vary { key: key.clone(), values: Vec::new() };
    let item = sweep::item_of(key);
    let mut evidence: Vec<Evidence> = Vec::new();
    let plan = sweep::tune_plan(span);
    let started = std::time::Instant::now();
    // Evaluations made in each pass (coarse, refine, confirm) and games played so far.
    let mut made = [0usize; 3];
    let mut played: u64 = 0;
    let tuned = sweep::tune(span, p.target, opts.games, |x, games, pass| {
        let value = span.text(x);
        let r = load(&a.ruleset, &sets_of(spec, std::slice::from_ref(&vary), std::slice::from_ref(&value)))?;
        let o = SimOptions { games, ..opts.clone() };
        let at = match pass {
            "coarse" => 0,
            "refine" => 1,
            _ => 2,
        };
        // The progress bar: which evaluation, of at most how many, and the time left in all.
        let left = games_left(plan, made, at, opts.games);
        let label = format!(
            "{key}={value} · evaluation {} of at most {}{}{suffix}",
            evidence.len() + 1,
            sweep::MAX_PROBES,
            time_left_text(played, left, started.elapsed(), runner)
        );
        made[at] += 1;
        played = played.saturating_add(games);
        let run = play_paired(std::slice::from_ref(&r), &[label], &o, 0, true, runner, &mut |_, _, _, _| {})?;
        let (Some(report), Some(dist)) = (run.reports.first(), run.dists.first()) else {
            return Err(bad("tune: no report"));
        };
        let figures = sweep::named_figures(report, rounds_sd_of(&dist.rounds));
        let Some(found) = figures.iter().find(|n| &n.figure == figure) else {
            let names: Vec<&str> = figures.iter().map(|n| n.figure.as_str()).collect();
            return Err(bad(format!(
                "--target: no figure `{figure}`{}; figures: {}",
                crate::suggest::hint(figure, names.iter().copied()),
                names.join(", ")
            )));
        };
        let out = (found.value, found.ci95);
        let few_games = match item {
            Some(item) => few::notes(report, Some(item), &format!("{key} = {value}")),
            None => Vec::new(),
        };
        evidence.push(Evidence { x, games, figures, few_games });
        Ok(out)
    })?;
    // The answer's notes: those of the evaluated value nearest it, with the most games.
    let nearest = evidence
        .iter()
        .min_by(|e, f| (e.x - tuned.value).abs().total_cmp(&(f.x - tuned.value).abs()).then(f.games.cmp(&e.games)));
    let answer = Answer {
        value: tuned.value,
        text: span.text(tuned.value),
        figure: tuned.figure,
        ci95: tuned.ci95,
        interval: tuned.interval,
        crossed: tuned.crossed,
        few_games: nearest.map(|e| e.few_games.clone()).unwrap_or_default(),
    };
    Ok((answer, tuned.probes, evidence))
}

/// Plays a prepared tune (and its check, if asked for).
pub fn run(
    p: &Prepared,
    a: &TuneArgs,
    spec: &StudySpec,
    load: &Loader<'_>,
    runner: &dyn Runner,
) -> Result<TuneReport, RunError> {
    let (answer, probes, evidence) = search(p, a, spec, &p.opts, load, runner, "")?;
    let mut points: Vec<&Evidence> = Vec::new();
    for e in &evidence {
        // The largest sample at each value.
        match points.iter_mut().find(|q| q.x == e.x) {
            Some(q) if q.games < e.games => *q = e,
            Some(_) => {}
            None => points.push(e),
        }
    }
    points.sort_by(|q, r| q.x.total_cmp(&r.x));
    let check = match spec.check_spec() {
        None => None,
        Some(check) => {
            let copts = SimOptions { games: check.games, ..study_options(&check, p.players)? };
            let suffix = format!(" (check: {})", check.bots_text());
            let (second, probes, _) = search(p, a, &check, &copts, load, runner, &suffix)?;
            let verdict = robust::tune_verdict(answer.value, answer.interval, second.value);
            Some(TuneCheck {
                bots: copts.bots.iter().map(ToString::to_string).collect(),
                games: check.games,
                rotate_seats: copts.rotate_seats,
                answer: second,
                probes,
                verdict,
            })
        }
    };
    let span = p.span;
    Ok(TuneReport {
        ruleset: p.own.name().to_string(),
        source: a.ruleset.clone(),
        overrides: spec.sets.clone(),
        key: p.key.clone(),
        x_axis: p.key.clone(),
        range: [span.lo, span.hi],
        step: span.step,
        integer: span.integer,
        base_value: overrides::get(&p.own.loaded.tree, &p.key)
            .and_then(|n| overrides::value_text(n).parse::<f64>().ok()),
        target: Target { figure: p.figure.clone(), value: p.target },
        item: sweep::item_of(&p.key).map(str::to_string),
        plots: vec![p.figure.clone()],
        players: p.players,
        games: spec.games,
        seed: p.opts.seed,
        rotate_seats: p.opts.rotate_seats,
        bots: p.opts.bots.iter().map(ToString::to_string).collect(),
        stopping_rule: STOPPING_RULE.to_string(),
        correction: "none: tune reports 95% intervals, not tests".to_string(),
        answer,
        probes,
        points: points
            .into_iter()
            .map(|e| TunePoint {
                label: span.text(e.x),
                x: e.x,
                games: e.games,
                base: false,
                figures: e.figures.clone(),
                few_games: e.few_games.clone(),
            })
            .collect(),
        check,
    })
}

/// `tune`: checks, loads and plays it (what Python's `tune` is).
pub fn tune(a: &TuneArgs, spec: &StudySpec, load: &Loader<'_>, runner: &dyn Runner) -> Result<TuneReport, RunError> {
    let p = prepare(a, spec, load)?;
    run(&p, a, spec, load, runner)
}

#[cfg(test)]
mod tests {
    use super::games_left;

    /// Issue 47: tune's bars give the time left in all, from the games still expected.
    #[test]
    fn the_games_left_follow_the_passes() {
        let plan = [5, 1, 2];
        // Before anything: 5 coarse and 1 refining evaluation of 100 games, 2 confirming of 400.
        assert_eq!(games_left(plan, [0, 0, 0], 0, 100), 1400);
        assert_eq!(games_left(plan, [3, 0, 0], 0, 100), 1100);
        // Refining ran longer than planned; confirming has begun: only its ends are left.
        assert_eq!(games_left(plan, [5, 3, 0], 1, 100), 900);
        assert_eq!(games_left(plan, [5, 3, 0], 2, 100), 800);
        // A third confirming value (the ends fell on one side): this one is left.
        assert_eq!(games_left(plan, [5, 1, 2], 2, 100), 400);
    }
}
