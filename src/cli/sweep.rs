//! `sweep RULESET --vary KEY=A..B`: the same games at every value of a key, side by side,
//! each value paired with the base value's games.

use super::common::{Failure, Format, bad, configure_threads, emit, emit_json, load, players_for};
use super::games_csv::GamesCsv;
use super::html::HtmlOut;
use super::output;
use super::simulate::{PairedRun, RunSpec, check_outputs, options, play_paired};
use rulesmith::Ruleset;
use rulesmith::core::paired::{self, Difference};
use rulesmith::core::ruleset::overrides;
use rulesmith::core::sim::{Report, SimOptions};
use rulesmith::core::sweep::{self, MAX_POINTS, Named, Vary};
use rulesmith_report_html::Distributions;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// What `sweep` (and `tune`) asked for.
pub struct SweepArgs {
    pub ruleset: String,
    pub vary: Vec<String>,
    pub base: Vec<String>,
    pub figures: Vec<String>,
    /// `--shard K/N`: only the seeds of that shard, at every value.
    pub shard: Option<String>,
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

    fn x_axis(&self) -> String {
        self.varies.iter().map(|v| v.key.as_str()).collect::<Vec<_>>().join(", ")
    }

    /// The x position of a point: its value when one key is swept over numbers.
    fn x(&self, i: usize) -> Option<f64> {
        if self.varies.len() != 1 {
            return None;
        }
        self.points.get(i)?.first()?.parse().ok()
    }
}

/// The sets of one point: the command's `--set` then `KEY=VALUE` of each `--vary`.
pub fn sets_of(spec: &RunSpec, varies: &[Vary], values: &[String]) -> Vec<String> {
    let mut sets = spec.sets.clone();
    sets.extend(varies.iter().zip(values).map(|(v, x)| format!("{}={x}", v.key)));
    sets
}

/// Parses `--vary` and `--base`, and loads the ruleset at every value (checked as `--set`).
pub fn plan(a: &SweepArgs, spec: &RunSpec, max_keys: usize) -> Result<Plan, Failure> {
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
                bad(format!("at {at}:\n{}", e.message))
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

/// The run options of a sweep: greedy players unless `--bots` says otherwise, seats
/// rotated when the bots differ by seat.
pub fn sweep_options(spec: &RunSpec, players: usize) -> Result<SimOptions, Failure> {
    let mut opts = options(spec, players)?;
    let names: Vec<String> = opts.bots.iter().map(ToString::to_string).collect();
    opts.rotate_seats = spec.rotate_seats.unwrap_or(names.windows(2).any(|w| w[0] != w[1]));
    Ok(opts)
}

/// The standard deviation of the game length, from its distribution.
pub fn rounds_sd(d: &Distributions) -> Option<f64> {
    rounds_sd_of(&d.rounds)
}

/// The standard deviation of the game length, from the finished games counted by length.
fn rounds_sd_of(rounds: &BTreeMap<i64, u64>) -> Option<f64> {
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
    let mut tally = rulesmith::core::sim::Tally::new(opts.players);
    tally.games = 1;
    if opts.metrics {
        tally.metrics = rulesmith::core::metrics::MetricTally::new(r.game.metric_defs());
        // Figures of no game are left out of a report: one (empty) game names them all.
        tally.metrics.games = 1;
    }
    let report = Report::new(r.name(), "", r.game.game_id(), opts, tally, 0.0);
    sweep::named_figures(&report, None).into_iter().map(|n| n.figure).collect()
}

/// Refuses (exit 2) a figure that no value reports, with the closest name, before any
/// game is played.
pub fn check_figure(
    what: &str,
    name: &str,
    rulesets: &[&Ruleset],
    opts: &SimOptions,
    skill: bool,
) -> Result<(), Failure> {
    if name.starts_with("ended by ") || (skill && name.starts_with("skill: ")) {
        return Ok(());
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
    Err(bad(format!(
        "{what} `{name}`: no such figure{}. Figures: {}, `ended by END`{}, and the designer metrics as `GROUP: NAME FIGURE` (`--format json` lists them all)",
        rulesmith::core::suggest::hint(name, known.iter().map(String::as_str)),
        outcome.join(", "),
        if opts.metrics { "" } else { " (no designer metrics: --no-metrics)" }
    )))
}

/// `rulesmith sweep`.
pub fn sweep(a: &SweepArgs, spec: &RunSpec, f: Format) -> Result<u8, Failure> {
    let plan = plan(a, spec, 2)?;
    configure_threads(spec.threads)?;
    let mut opts = sweep_options(spec, plan.players)?;
    opts.shard = a.shard.as_deref().map(super::common::parse_shard).transpose()?;
    for name in &a.figures {
        check_figure("--figure", name, &plan.rulesets.iter().collect::<Vec<_>>(), &opts, spec.skill.is_some())?;
    }
    let inputs: Vec<&str> = plan.rulesets.iter().flat_map(|r| r.loaded.sources.names()).collect();
    check_outputs(spec, &inputs)?;
    output::stop_on_signals();
    let html = spec.html.as_deref().map(HtmlOut::create).transpose()?;
    let mut csv = match &spec.games_csv {
        Some(path) => {
            let defs = plan.rulesets.first().filter(|_| opts.metrics).map(|r| r.game.metric_defs()).unwrap_or_default();
            Some(GamesCsv::create(path, plan.players, defs)?)
        }
        None => None,
    };
    let labels: Vec<String> = (0..plan.points.len()).map(|i| plan.label(i)).collect();
    let PairedRun { reports, mut diffs, dists } =
        play_paired(&plan.rulesets, &labels, &opts, plan.base, true, &mut csv)?;
    paired::holm_across(&mut diffs);
    let mut files = Vec::new();
    if let Some(c) = csv {
        files.push(c.finish()?);
    }
    let mut figures = point_figures(&reports, &dists);
    let skill = super::simulate::skill_figures(&plan.rulesets, spec, plan.players)?;
    for (f, s) in figures.iter_mut().zip(skill) {
        f.extend(s);
    }
    let rounds: Vec<&BTreeMap<i64, u64>> = dists.iter().map(|d| &d.rounds).collect();
    let json = sweep_json(&plan, a, spec, &opts, &reports, &diffs, &figures, &rounds);
    if let Some(out) = html {
        files.push(out.write(rulesmith_report_html::sweep_page(&json, "sweep"))?);
    }
    output::commit_all(files)?;
    match f {
        Format::Json => emit_json(&json),
        Format::Text => emit(&sweep_text(&plan, &json, &reports, &diffs, &figures, &a.figures)),
    }
    Ok(0)
}

/// The figures of each point (named as `--figure` names them).
pub fn point_figures(reports: &[Report], dists: &[Distributions]) -> Vec<Vec<Named>> {
    reports.iter().enumerate().map(|(i, r)| sweep::named_figures(r, dists.get(i).and_then(rounds_sd))).collect()
}

#[allow(clippy::too_many_arguments)]
pub fn sweep_json(
    plan: &Plan,
    a: &SweepArgs,
    spec: &RunSpec,
    opts: &SimOptions,
    reports: &[Report],
    diffs: &[Vec<Difference>],
    figures: &[Vec<Named>],
    rounds: &[&BTreeMap<i64, u64>],
) -> serde_json::Value {
    let power = rulesmith::core::power::power_summary(diffs, rulesmith::core::power::Family::AllSets);
    serde_json::json!({
        "kind": "sweep",
        "version": rulesmith::core::sim::VERSION,
        "shard": opts.shard.map(|(k, n)| format!("{}/{n}", k + 1)),
        "ruleset": plan.rulesets.first().map(|r| r.name().to_string()),
        "source": a.ruleset,
        "overrides": spec.sets,
        "vary": plan.varies.iter().map(|v| serde_json::json!({"key": v.key, "values": v.values})).collect::<Vec<_>>(),
        "x_axis": plan.x_axis(),
        "item": plan.item,
        "plots": a.figures,
        "base": plan.points.get(plan.base),
        "base_is_own": plan.own_base,
        "players": plan.players, "games": opts.games, "seed": opts.seed, "rotate_seats": opts.rotate_seats,
        "bots": opts.bots.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "interval": "95%, normal approximation of the mean paired difference",
        "correction": CORRECTION,
        "power": power,
        "detect": spec.detect,
        "points": reports.iter().enumerate().map(|(i, r)| serde_json::json!({
            "label": plan.label(i),
            "values": plan.points.get(i),
            "x": plan.x(i),
            "base": i == plan.base,
            "figures": figures.get(i),
            "differences": diffs.get(i),
            // Finished games by length: what the length's interval comes from, mergeable.
            "rounds": rounds.get(i),
            "report": r,
        })).collect::<Vec<_>>(),
    })
}

/// A figure's name as a column header: `seat 0 win`, `harbor owner`, `end: colonists`.
fn short(name: &str) -> String {
    let name = name.strip_suffix(" win share").map_or_else(|| name.to_string(), |n| format!("{n} win"));
    let name = match name.split_once(": ") {
        Some((_, rest)) if !name.starts_with("ended by") => rest.to_string(),
        _ => name,
    };
    let name = name.strip_suffix(" win").filter(|n| n.contains("owner")).map_or(name.clone(), str::to_string);
    name.strip_prefix("ended by ").map_or(name.clone(), |e| format!("end: {e}"))
}

/// `12.3%` or `–` for an undefined share.
fn pct(v: Option<f64>) -> String {
    v.map_or_else(|| "–".to_string(), |v| format!("{:.1}%", 100.0 * v))
}

fn cell(f: Option<&Named>) -> String {
    let Some(f) = f else { return "–".to_string() };
    let share = f.figure.contains("share") || f.figure.starts_with("ended by");
    let gap = f.figure.contains(" − ");
    match (f.value, f.ci95, share) {
        (None, _, _) => "–".to_string(),
        // A gap between two shares: percentage points.
        (Some(v), Some(c), true) if gap => format!("{:+.1} pp [{:+.1}, {:+.1}]", 100.0 * v, 100.0 * c[0], 100.0 * c[1]),
        (Some(v), Some(c), true) => format!("{} [{:.1}, {:.1}]", pct(Some(v)), 100.0 * c[0], 100.0 * c[1]),
        (Some(v), Some(c), false) => format!("{v:.2} [{:.2}, {:.2}]", c[0], c[1]),
        (Some(v), None, true) => pct(Some(v)),
        (Some(v), None, false) => format!("{v:.2}"),
    }
}

/// Lays out rows of cells under a header, the first column left-aligned.
pub fn table(header: &[String], rows: &[Vec<String>]) -> String {
    let cols = header.len();
    let width: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .chain(std::iter::once(&header.to_vec()))
                .map(|r| r.get(c).map_or(0, |s| s.chars().count()))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut o = String::new();
    for r in std::iter::once(&header.to_vec()).chain(rows) {
        let mut line = String::new();
        for (c, w) in width.iter().enumerate() {
            let s = r.get(c).map_or("", String::as_str);
            if c == 0 {
                let _ = write!(line, "{s:<w$}");
            } else {
                let _ = write!(line, "  {s:>w$}");
            }
        }
        let _ = writeln!(o, "{}", line.trim_end());
    }
    o
}

/// The figures a sweep's tables show: seats' win shares, length, and the owners' figures of
/// the touched component, then any `--figure`.
pub fn shown_figures(plan: &Plan, figures: &[Vec<Named>], extra: &[String]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut add = |n: &str| {
        if !names.iter().any(|x| x == n) {
            names.push(n.to_string());
        }
    };
    for s in 0..plan.players {
        add(&format!("seat {s} win share"));
    }
    add("rounds");
    if let Some(item) = &plan.item {
        let needle = format!(": {item} ");
        for f in figures.iter().flatten().filter(|f| f.figure.contains(&needle) && f.figure.ends_with("win share")) {
            add(&f.figure);
        }
    }
    for f in figures.iter().flatten().filter(|f| f.figure.starts_with("skill: ")) {
        add(&f.figure);
    }
    for e in extra {
        add(e);
    }
    names
}

fn sweep_text(
    plan: &Plan,
    json: &serde_json::Value,
    reports: &[Report],
    diffs: &[Vec<Difference>],
    figures: &[Vec<Named>],
    extra: &[String],
) -> String {
    let mut o = header_text(plan, json, reports);
    let names = shown_figures(plan, figures, extra);
    let mut header = vec![plan.x_axis()];
    header.extend(names.iter().map(|n| short(n)));
    let rows: Vec<Vec<String>> = (0..plan.points.len())
        .map(|i| {
            let mut row = vec![format!("{}{}", plan.label(i), if i == plan.base { " (base)" } else { "" })];
            row.extend(names.iter().map(|n| cell(figures.get(i).and_then(|fs| fs.iter().find(|f| &f.figure == n)))));
            row
        })
        .collect();
    o.push_str(&table(&header, &rows));
    let _ = writeln!(o, "win: win share (ties split) with its 95% interval; – where undefined (nobody had it).");
    for e in extra {
        if !figures.iter().flatten().any(|f| &f.figure == e) {
            let _ = writeln!(o, "--figure `{e}`: no such figure (--format json lists every point's figures)");
        }
    }
    o.push('\n');
    o.push_str(&differences_text(plan, diffs, json));
    o
}

fn header_text(plan: &Plan, json: &serde_json::Value, reports: &[Report]) -> String {
    let mut o = String::new();
    let base = plan.label(plan.base);
    let games = json["games"].as_u64().unwrap_or(0);
    let played = reports.first().map_or(0, |r| r.games);
    let bots: Vec<String> = json["bots"]
        .as_array()
        .map(|b| b.iter().filter_map(|x| x.as_str().map(str::to_string)).collect())
        .unwrap_or_default();
    let _ = writeln!(
        o,
        "{} over {}: {} values, base {base} ({})",
        plan.rulesets.first().map_or("", |r| r.name()),
        plan.x_axis(),
        plan.points.len(),
        if plan.own_base { "the ruleset's own" } else { "--base" }
    );
    let _ = writeln!(
        o,
        "{} players, {games} seeds per value{}, seed {}, players: {}{}",
        plan.players,
        if played != games { format!(" ({played} games: seats rotated)") } else { String::new() },
        json["seed"],
        bots.join(","),
        if json["rotate_seats"] == true { " (rotated)" } else { "" }
    );
    for set in json["overrides"].as_array().into_iter().flatten() {
        let _ = writeln!(o, "--set {}", set.as_str().unwrap_or(""));
    }
    o.push('\n');
    o
}

fn differences_text(plan: &Plan, diffs: &[Vec<Difference>], json: &serde_json::Value) -> String {
    let mut o = String::new();
    let base = plan.label(plan.base);
    let _ = writeln!(o, "difference from the base ({base}), paired by game:");
    let mut cols: Vec<String> = Vec::new();
    for d in diffs.iter().flatten().filter(|d| !paired::is_metric(&d.figure)) {
        if !cols.contains(&d.figure) && !d.figure.ends_with(" score") {
            cols.push(d.figure.clone());
        }
    }
    // Seats first, then length, then ends.
    cols.sort_by_key(|c| (!c.starts_with("seat "), c != "rounds", c.clone()));
    let mut header = vec![plan.x_axis()];
    header.extend(cols.iter().map(|c| short(c)));
    header.push("metrics moved".into());
    let rows: Vec<Vec<String>> = (0..plan.points.len())
        .filter(|&i| i != plan.base)
        .map(|i| {
            let set = diffs.get(i).map(Vec::as_slice).unwrap_or_default();
            let mut row = vec![plan.label(i)];
            for c in &cols {
                row.push(set.iter().find(|d| &d.figure == c).map_or("–".into(), |d| {
                    let share = c.ends_with("share") || c.starts_with("ended by") || c == "unfinished";
                    let v = if share { format!("{:+.1}", 100.0 * d.mean) } else { format!("{:+.2}", d.mean) };
                    format!("{v}{}", if d.significant { "*" } else { " " })
                }));
            }
            let moved = set.iter().filter(|d| paired::is_metric(&d.figure) && d.significant).count();
            let total = set.iter().filter(|d| paired::is_metric(&d.figure)).count();
            row.push(format!("{moved} of {total}"));
            row
        })
        .collect();
    o.push_str(&table(&header, &rows));
    let tests = diffs.iter().flatten().filter(|d| !paired::is_metric(&d.figure)).count();
    let _ = writeln!(
        o,
        "Shares in percentage points. * significant at 5% after Holm–Bonferroni over all {tests} outcome differences of the sweep (metrics apart; --format json lists them)."
    );
    o.push_str(&super::common::power_text(&json["power"], json["detect"].as_f64().unwrap_or(2.0)));
    o
}

/// What `tune` asked for.
pub struct TuneArgs {
    pub ruleset: String,
    pub vary: String,
    pub target: String,
}

/// `FIGURE=VALUE` of `--target` (a share may be given in %: `50%`).
fn parse_target(s: &str) -> Result<(String, f64), Failure> {
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

/// `rulesmith tune`.
pub fn tune(a: &TuneArgs, spec: &RunSpec, f: Format) -> Result<u8, Failure> {
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
    configure_threads(spec.threads)?;
    let opts = sweep_options(spec, players)?;
    check_figure("--target", &figure, &[&own, &first], &opts, false)?;
    if let Some(p) = spec.html.as_deref() {
        let inputs: Vec<&str> = own.loaded.sources.names().collect();
        output::check_distinct(&[("the HTML page", p)], &inputs)?;
    }
    output::stop_on_signals();
    let html = spec.html.as_deref().map(HtmlOut::create).transpose()?;
    let vary = Vary { key: key.clone(), values: Vec::new() };
    // Every evaluation's figures, for the evidence table and the page.
    let mut evidence: Vec<(f64, u64, Vec<Named>)> = Vec::new();
    let tuned = sweep::tune(span, target, spec.games, |x, games, _pass| {
        let value = span.text(x);
        let r = load(&a.ruleset, &sets_of(spec, std::slice::from_ref(&vary), std::slice::from_ref(&value)))?;
        let o = SimOptions { games, ..opts.clone() };
        // The progress bar: which evaluation, of at most how many.
        let label = format!("{key}={value} · evaluation {} of at most {}", evidence.len() + 1, sweep::MAX_PROBES);
        let run = play_paired(std::slice::from_ref(&r), &[label], &o, 0, true, &mut None)?;
        let (Some(report), Some(dist)) = (run.reports.first(), run.dists.first()) else {
            return Err(bad("tune: no report"));
        };
        let figures = sweep::named_figures(report, rounds_sd(dist));
        let Some(found) = figures.iter().find(|n| n.figure == figure) else {
            let names: Vec<&str> = figures.iter().map(|n| n.figure.as_str()).collect();
            return Err(bad(format!(
                "--target: no figure `{figure}`{}; figures: {}",
                rulesmith::core::suggest::hint(&figure, names.iter().copied()),
                names.join(", ")
            )));
        };
        let out = (found.value, found.ci95);
        evidence.push((x, games, figures));
        Ok(out)
    })?;
    let mut points: Vec<&(f64, u64, Vec<Named>)> = Vec::new();
    for e in &evidence {
        // The largest sample at each value.
        match points.iter_mut().find(|p| p.0 == e.0) {
            Some(p) if p.1 < e.1 => *p = e,
            Some(_) => {}
            None => points.push(e),
        }
    }
    points.sort_by(|p, q| p.0.total_cmp(&q.0));
    let bots: Vec<String> = opts.bots.iter().map(ToString::to_string).collect();
    let json = serde_json::json!({
        "ruleset": own.name(), "source": a.ruleset, "overrides": spec.sets,
        "key": key, "x_axis": key, "range": [span.lo, span.hi], "step": span.step, "integer": span.integer,
        "base_value": overrides::get(&own.loaded.tree, &key).and_then(|n| overrides::value_text(n).parse::<f64>().ok()),
        "target": {"figure": figure, "value": target},
        "item": sweep::item_of(&key), "plots": [figure],
        "players": players, "games": spec.games, "seed": opts.seed, "rotate_seats": opts.rotate_seats, "bots": bots,
        "stopping_rule": STOPPING_RULE,
        "correction": "none: tune reports 95% intervals, not tests",
        "answer": {"value": tuned.value, "text": span.text(tuned.value), "figure": tuned.figure, "ci95": tuned.ci95,
                   "interval": tuned.interval, "crossed": tuned.crossed},
        "probes": tuned.probes,
        "points": points.iter().map(|(x, games, figures)| serde_json::json!({
            "label": span.text(*x), "x": x, "games": games, "base": false, "figures": figures,
        })).collect::<Vec<_>>(),
    });
    let mut files = Vec::new();
    if let Some(out) = html {
        files.push(out.write(rulesmith_report_html::sweep_page(&json, "tune"))?);
    }
    output::commit_all(files)?;
    match f {
        Format::Json => emit_json(&json),
        Format::Text => emit(&tune_text(&key, span, &figure, target, &tuned, &bots, players, &opts, &spec.sets)),
    }
    Ok(0)
}

/// The stopping rule, as reports state it.
pub const STOPPING_RULE: &str = "5 values evenly over the range with --games games each; the first neighbouring pair on either side of the target is narrowed (bisection for integers, interpolation for reals; --games games per value) until one STEP apart; its ends are played again with 4 × --games games (and, if both then fall on one side of the target, up to 3 further values towards it); the confirmed value closest to the target is the answer (reals: the interpolated crossing). At most 24 evaluations.";

#[allow(clippy::too_many_arguments)]
fn tune_text(
    key: &str,
    span: sweep::Span,
    figure: &str,
    target: f64,
    t: &sweep::Tuned,
    bots: &[String],
    players: usize,
    opts: &SimOptions,
    sets: &[String],
) -> String {
    let share = figure.contains("share") || figure.starts_with("ended by");
    let show = |v: Option<f64>| match v {
        None => "–".to_string(),
        Some(v) if share => format!("{:.1}%", 100.0 * v),
        Some(v) => format!("{v:.2}"),
    };
    let ci = |c: Option<[f64; 2]>| c.map_or(String::new(), |c| format!("[{}, {}]", show(Some(c[0])), show(Some(c[1]))));
    let mut o = String::new();
    let _ = writeln!(
        o,
        "tune {key} over {}..{} (step {}) for `{figure}` = {}",
        span.text(span.lo),
        span.text(span.hi),
        span.step,
        show(Some(target))
    );
    let _ = writeln!(
        o,
        "{players} players, players: {}{}, seed {}",
        bots.join(","),
        if opts.rotate_seats { " (rotated)" } else { "" },
        opts.seed
    );
    for set in sets {
        let _ = writeln!(o, "--set {set}");
    }
    o.push('\n');
    let rows: Vec<Vec<String>> = t
        .probes
        .iter()
        .map(|p| vec![span.text(p.value), p.games.to_string(), p.pass.to_string(), show(p.figure), ci(p.ci95)])
        .collect();
    let header: Vec<String> = [key, "games", "pass", figure, "95% interval"].iter().map(|s| s.to_string()).collect();
    o.push_str(&table(&header, &rows));
    o.push('\n');
    let interval = t.interval.map_or("no evaluated value's interval holds the target".to_string(), |[lo, hi]| {
        format!("values whose 95% interval holds the target: {} to {}", span.text(lo), span.text(hi))
    });
    let _ = writeln!(
        o,
        "{} {key} = {}: `{figure}` {} {} ({interval})",
        if t.crossed { "answer:" } else { "not crossed in the range; closest value:" },
        span.text(t.value),
        show(t.figure),
        ci(t.ci95)
    );
    let _ = writeln!(o, "stopping rule: {STOPPING_RULE}");
    o
}

/// `rulesmith merge`: the shards of a sweep (by the first file), else of a simulation or
/// tournament.
pub fn merge_any(paths: &[std::path::PathBuf], f: Format) -> Result<u8, Failure> {
    if let Some(first) = paths.first() {
        let text = rulesmith::core::input::read_text(first).map_err(|e| bad(e.to_string()))?;
        if is_sweep(&text) {
            return merge(paths, text, f);
        }
    }
    super::simulate::merge(paths, f)
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
    reports: rulesmith::core::sim::ReportMerge,
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

fn read_point(name: &str, i: usize, point: &serde_json::Value) -> Result<ShardPoint, Failure> {
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

/// `merge` of the JSON outputs of a sweep's shards (`sweep --shard K/N --format json`): the
/// reports, the exact paired sums and the game lengths of every value add up to the
/// unsplit sweep's; its figures, differences and significance are computed again from
/// them, so the merged sweep is the unsplit one. Sums no games can make are refused.
pub fn merge(paths: &[std::path::PathBuf], first_text: String, f: Format) -> Result<u8, Failure> {
    let mut header: Option<serde_json::Value> = None;
    let mut first_name = String::new();
    let mut merges: Vec<PointMerge> = Vec::new();
    let mut base_at: Option<usize> = None;
    let mut text = Some(first_text);
    for p in paths {
        let name = p.display().to_string();
        let t = match text.take() {
            Some(t) => t,
            None => rulesmith::core::input::read_text(p).map_err(|e| bad(e.to_string()))?,
        };
        if !is_sweep(&t) {
            return Err(bad(format!("`{name}` is not a JSON output of `rulesmith sweep`, unlike the first file")));
        }
        let j: serde_json::Value =
            serde_json::from_str(&t).map_err(|e| bad(format!("`{name}` is not a sweep's JSON: {e}")))?;
        drop(t);
        let h = sweep_header(&j);
        match &header {
            None => {
                header = Some(h);
                first_name.clone_from(&name);
            }
            Some(first) => {
                if let Some((k, _)) = first.as_object().into_iter().flatten().find(|(k, v)| h[k.as_str()] != **v) {
                    return Err(bad(format!(
                        "merge: `{name}` is not a shard of the same sweep as `{first_name}`: its `{k}` differs"
                    )));
                }
            }
        }
        let points = j["points"].as_array().cloned().unwrap_or_default();
        if merges.is_empty() {
            merges = points.iter().map(|_| PointMerge::default()).collect();
        }
        if points.len() != merges.len() {
            return Err(bad(format!(
                "merge: `{name}` has {} values, `{first_name}` {}: /points differs",
                points.len(),
                merges.len()
            )));
        }
        let read: Vec<ShardPoint> =
            points.iter().enumerate().map(|(i, p)| read_point(&name, i, p)).collect::<Result<_, _>>()?;
        let base: Vec<usize> = points.iter().enumerate().filter(|(_, p)| p["base"] == true).map(|(i, _)| i).collect();
        let &[b] = base.as_slice() else {
            return Err(bad(format!("`{name}`: /points: {} values are marked the base; a sweep has one", base.len())));
        };
        if *base_at.get_or_insert(b) != b {
            return Err(bad(format!("merge: `{name}` has another base value than `{first_name}` (/points/{b}/base)")));
        }
        // The reports first: the paired sums are checked against tallies known to hold.
        for (point, m) in read.iter().zip(merges.iter_mut()) {
            m.reports.add(&name, &point.report).map_err(|e| bad(format!("merge: {e}")))?;
        }
        for (i, (point, m)) in read.iter().zip(merges.iter_mut()).enumerate() {
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
    }
    let Some(h) = header else { return Err(bad("merge: no reports given")) };
    let mut reports = Vec::new();
    let mut sums = Vec::new();
    let mut rounds = Vec::new();
    let mut skills = Vec::new();
    for (i, m) in merges.into_iter().enumerate() {
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
            a.iter().map(|v| format!("{}={}", v["key"].as_str().unwrap_or(""), strs(&v["values"]).join(","))).collect()
        })
        .unwrap_or_default();
    let a = SweepArgs {
        ruleset: h["source"].as_str().unwrap_or_default().to_string(),
        vary,
        base: strs(&h["base"]),
        figures: strs(&h["plots"]),
        shard: None,
    };
    let bots = strs(&h["bots"]).join(",");
    let spec = RunSpec {
        players: h["players"].as_u64().map(|p| p as usize),
        games: h["games"].as_u64().unwrap_or(0),
        seed: h["seed"].as_u64().unwrap_or(0),
        bots: Some(bots),
        threads: None,
        bot_time_limit: 10.0,
        html: None,
        rotate_seats: h["rotate_seats"].as_bool(),
        games_csv: None,
        no_metrics: false,
        sets: strs(&h["overrides"]),
        skill: None,
        detect: h["detect"].as_f64().unwrap_or(2.0),
    };
    let mut plan = plan(&a, &spec, 2)?;
    // The base was the ruleset's own or `--base`: reported as the unsplit sweep reports it.
    plan.own_base = h["base_is_own"] == true;
    let same = plan.points.len() == reports.len()
        && plan.rulesets.iter().zip(&reports).all(|(r, rep)| r.digest() == rep.digest)
        && base_at == Some(plan.base);
    if !same {
        return Err(bad(format!(
            "merge: the sweep's values no longer load as they did: `{}` (or a file it extends) changed since the shards ran",
            a.ruleset
        )));
    }
    let opts = sweep_options(&spec, plan.players)?;
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
    let rounds: Vec<&BTreeMap<i64, u64>> = rounds.iter().collect();
    let json = sweep_json(&plan, &a, &spec, &opts, &reports, &diffs, &figures, &rounds);
    match f {
        Format::Json => emit_json(&json),
        Format::Text => emit(&sweep_text(&plan, &json, &reports, &diffs, &figures, &a.figures)),
    }
    Ok(0)
}
