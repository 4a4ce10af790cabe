//! `sweep RULESET --vary KEY=A..B`: the same games at every value of a key, side by side,
//! each value paired with the base value's games; `tune`; `merge` of a sweep's shards.
//! The library plays and reports them (`rulesmith::core::study`); this prints them.

use super::common::{Failure, Format, bad, configure_threads, emit, emit_json};
use super::games_csv::GamesCsv;
use super::html::HtmlOut;
use super::output;
use super::simulate::{Bars, RunSpec, check_outputs, check_text, failure, few_games_text, loader};
use rulesmith::core::paired::{self, Difference};
use rulesmith::core::study::sweep_run::{self, SweepMerge};
use rulesmith::core::study::tune_run::{self, STOPPING_RULE, TuneReport};
use rulesmith::core::study::{self, SweepReport, TuneArgs, robust};
use rulesmith::core::sweep::{self, Named};
use std::fmt::Write as _;

/// What `sweep` asked for (the shard as typed).
pub struct SweepArgs {
    pub ruleset: String,
    pub vary: Vec<String>,
    pub base: Vec<String>,
    pub figures: Vec<String>,
    /// `--shard K/N`: only the seeds of that shard, at every value.
    pub shard: Option<String>,
}

/// `rulesmith sweep`.
pub fn sweep(a: &SweepArgs, spec: &RunSpec, f: Format) -> Result<u8, Failure> {
    let study = spec.study();
    let args = study::SweepArgs {
        ruleset: a.ruleset.clone(),
        vary: a.vary.clone(),
        base: a.base.clone(),
        figures: a.figures.clone(),
        shard: a.shard.as_deref().map(super::common::parse_shard).transpose()?,
    };
    let plan = study::plan(&args, &study, 2, &loader).map_err(failure)?;
    configure_threads(spec.threads)?;
    let opts = sweep_run::options(&plan, &args, &study).map_err(failure)?;
    check_outputs(spec, &plan.inputs())?;
    output::stop_on_signals();
    let html = spec.html.as_deref().map(HtmlOut::create).transpose()?;
    let mut csv = match &spec.games_csv {
        Some(path) => {
            let defs = plan.rulesets.first().filter(|_| opts.metrics).map(|r| r.game.metric_defs()).unwrap_or_default();
            Some(GamesCsv::create(path, plan.players, defs)?)
        }
        None => None,
    };
    let (report, _dists) = sweep_run::run(&plan, &args, &study, &opts, &Bars, &mut |label, bots, g, defs| {
        if let Some(c) = csv.as_mut() {
            c.row(label, bots, g, defs);
        }
    })
    .map_err(failure)?;
    let mut files = Vec::new();
    if let Some(c) = csv {
        files.push(c.finish()?);
    }
    if let Some(out) = html {
        files.push(out.write(rulesmith_report_html::sweep_page(&report))?);
    }
    output::commit_all(files)?;
    print_sweep(&report, f)
}

fn print_sweep(report: &SweepReport, f: Format) -> Result<u8, Failure> {
    match f {
        Format::Json => emit_json(&study::to_json(report).map_err(failure)?),
        Format::Text => emit(&sweep_text(report)),
    }
    Ok(0)
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
pub fn shown_figures(r: &SweepReport) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut add = |n: &str| {
        if !names.iter().any(|x| x == n) {
            names.push(n.to_string());
        }
    };
    for s in 0..r.players {
        add(&format!("seat {s} win share"));
    }
    add("rounds");
    let figures = || r.points.iter().flat_map(|p| &p.figures);
    if let Some(item) = &r.item {
        let needle = format!(": {item} ");
        for f in figures().filter(|f| f.figure.contains(&needle) && f.figure.ends_with("win share")) {
            add(&f.figure);
        }
    }
    for f in figures().filter(|f| f.figure.starts_with("skill: ")) {
        add(&f.figure);
    }
    for e in &r.plots {
        add(e);
    }
    names
}

fn sweep_text(r: &SweepReport) -> String {
    let mut o = header_text(r);
    let names = shown_figures(r);
    let mut header = vec![r.x_axis.clone()];
    header.extend(names.iter().map(|n| short(n)));
    let rows: Vec<Vec<String>> = r
        .points
        .iter()
        .map(|p| {
            let mut row = vec![format!("{}{}", p.label, if p.base { " (base)" } else { "" })];
            row.extend(names.iter().map(|n| cell(p.figures.iter().find(|f| &f.figure == n))));
            row
        })
        .collect();
    o.push_str(&table(&header, &rows));
    let _ = writeln!(o, "win: win share (ties split) with its 95% interval; – where undefined (nobody had it).");
    for e in &r.plots {
        // Names were checked before the games: one missing now is an end no game reached
        // (or one of a game that does not name its ends).
        if !r.points.iter().flat_map(|p| &p.figures).any(|f| &f.figure == e) {
            let _ = writeln!(
                o,
                "--figure `{e}`: no game of the sweep ended so (--format json lists every point's figures)"
            );
        }
    }
    o.push('\n');
    o.push_str(&differences_text(r));
    let notes: Vec<study::few::Note> = r.points.iter().flat_map(|p| p.few_games.iter().cloned()).collect();
    o.push_str(&few_games_text(&notes));
    if let Some(check) = &r.check {
        o.push_str(&check_text(check, &r.bots));
    }
    o.push_str(&extremes_text(r));
    o
}

/// Each value's extreme games, a row per value (the commands that play them again are in
/// the JSON and on the page: a line each for every value would bury the report).
fn extremes_text(r: &SweepReport) -> String {
    const KINDS: [&str; 4] = ["longest game", "shortest game", "largest margin", "smallest margin"];
    const CAPPED: &str = "stopped by a cap";
    if r.points.iter().all(|p| p.report.extremes.is_empty()) {
        return String::new();
    }
    let capped = r.points.iter().flat_map(|p| &p.report.extremes).any(|x| x.what == CAPPED);
    let mut header = vec![r.x_axis.clone()];
    header.extend(KINDS.iter().map(|k| k.to_string()));
    if capped {
        header.push(CAPPED.into());
    }
    let game = |x: &rulesmith::core::sim::extremes::Extreme| {
        let g = &x.game;
        let rotation = if g.rotation > 0 { format!(" rotation {}", g.rotation) } else { String::new() };
        let figure =
            if x.what.ends_with("margin") { format!("margin {}", g.margin) } else { format!("{} rounds", g.rounds) };
        format!("game {}{rotation}: {figure}", g.index)
    };
    let rows: Vec<Vec<String>> = r
        .points
        .iter()
        .map(|p| {
            let list = &p.report.extremes;
            let mut row = vec![format!("{}{}", p.label, if p.base { " (base)" } else { "" })];
            row.extend(KINDS.iter().map(|k| list.iter().find(|x| x.what == *k).map_or("–".into(), game)));
            if capped {
                let games: Vec<String> =
                    list.iter().filter(|x| x.what == CAPPED).map(|x| x.game.index.to_string()).collect();
                row.push(if games.is_empty() { "–".into() } else { format!("games {}", games.join(", ")) });
            }
            row
        })
        .collect();
    let mut o = String::from(
        "\nextreme games at each value (`--format json` and `--html` give each game's commands that play it again):\n",
    );
    o.push_str(&table(&header, &rows));
    o
}

fn header_text(r: &SweepReport) -> String {
    let mut o = String::new();
    let base = r.base_point().map_or(String::new(), |p| p.label.clone());
    let played = r.points.first().map_or(0, |p| p.report.games);
    let _ = writeln!(
        o,
        "{} over {}: {} values, base {base} ({})",
        r.ruleset.as_deref().unwrap_or(""),
        r.x_axis,
        r.points.len(),
        if r.base_is_own { "the ruleset's own" } else { "--base" }
    );
    let _ = writeln!(
        o,
        "{} players, {} seeds per value{}, seed {}, players: {}{}",
        r.players,
        r.games,
        if played != r.games { format!(" ({played} games: seats rotated)") } else { String::new() },
        r.seed,
        r.bots.join(","),
        if r.rotate_seats { " (rotated)" } else { "" }
    );
    for set in &r.overrides {
        let _ = writeln!(o, "--set {set}");
    }
    o.push('\n');
    o
}

fn differences_text(r: &SweepReport) -> String {
    let mut o = String::new();
    let base = r.base_point().map_or(String::new(), |p| p.label.clone());
    let _ = writeln!(o, "difference from the base ({base}), paired by game:");
    let diffs = || r.points.iter().flat_map(|p| &p.differences);
    if diffs().all(|d| paired::is_metric(&d.figure)) {
        // Pairs are of finished games: an empty table would read as "nothing changed".
        let _ = writeln!(
            o,
            "no paired figure: no game finished at both a value and the base (games stopped by a safety cap have no winner and are left out), so there is nothing to compare."
        );
        return o;
    }
    let mut cols: Vec<String> = Vec::new();
    for d in diffs().filter(|d| !paired::is_metric(&d.figure)) {
        if !cols.contains(&d.figure) && !d.figure.ends_with(" score") {
            cols.push(d.figure.clone());
        }
    }
    // Seats first, then length, then ends.
    cols.sort_by_key(|c| (!c.starts_with("seat "), c != "rounds", c.clone()));
    let mut header = vec![r.x_axis.clone()];
    header.extend(cols.iter().map(|c| short(c)));
    header.push("metrics moved".into());
    let rows: Vec<Vec<String>> = r
        .points
        .iter()
        .filter(|p| !p.base)
        .map(|p| {
            let set: &[Difference] = &p.differences;
            let mut row = vec![p.label.clone()];
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
    // Scores are in the correction but not in the table: a significant one is named here,
    // so that the text says what the page's answer says.
    for p in r.points.iter().filter(|p| !p.base) {
        let moved: Vec<String> = p
            .differences
            .iter()
            .filter(|d| d.significant && d.figure.ends_with(" score") && !paired::is_metric(&d.figure))
            .map(|d| format!("{} {:+.2} [{:+.2}, {:+.2}]", d.figure, d.mean, d.ci95[0], d.ci95[1]))
            .collect();
        if !moved.is_empty() {
            let _ = writeln!(o, "  {}: scores differ*: {}", p.label, moved.join("; "));
        }
    }
    let tests = diffs().filter(|d| !paired::is_metric(&d.figure)).count();
    let _ = writeln!(
        o,
        "Shares in percentage points. * significant at 5% after Holm–Bonferroni over all {tests} outcome differences of the sweep (metrics apart; --format json lists them)."
    );
    o.push_str(&super::common::power_text(&r.power, r.detect));
    o
}

/// `rulesmith tune`.
pub fn tune(a: &TuneArgs, spec: &RunSpec, f: Format) -> Result<u8, Failure> {
    let study = spec.study();
    let prepared = tune_run::prepare(a, &study, &loader).map_err(failure)?;
    configure_threads(spec.threads)?;
    if let Some(p) = spec.html.as_deref() {
        let inputs: Vec<&str> = prepared.own.loaded.sources.names().collect();
        output::check_distinct(&[("the HTML page", p)], &inputs)?;
    }
    output::stop_on_signals();
    let html = spec.html.as_deref().map(HtmlOut::create).transpose()?;
    let report = tune_run::run(&prepared, a, &study, &loader, &Bars).map_err(failure)?;
    let mut files = Vec::new();
    if let Some(out) = html {
        files.push(out.write(rulesmith_report_html::tune_page(&report))?);
    }
    output::commit_all(files)?;
    match f {
        Format::Json => emit_json(&study::to_json(&report).map_err(failure)?),
        Format::Text => emit(&tune_text(&report, prepared.span, &spec.sets)),
    }
    Ok(0)
}

fn tune_text(r: &TuneReport, span: sweep::Span, sets: &[String]) -> String {
    let (key, figure, target) = (&r.key, &r.target.figure, r.target.value);
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
        "{} players, players: {}{}, seed {}",
        r.players,
        r.bots.join(","),
        if r.rotate_seats { " (rotated)" } else { "" },
        r.seed
    );
    for set in sets {
        let _ = writeln!(o, "--set {set}");
    }
    o.push('\n');
    let probes = |probes: &[sweep::Probe]| {
        let rows: Vec<Vec<String>> = probes
            .iter()
            .map(|p| vec![span.text(p.value), p.games.to_string(), p.pass.clone(), show(p.figure), ci(p.ci95)])
            .collect();
        let header: Vec<String> =
            [key.as_str(), "games", "pass", figure, "95% interval"].iter().map(|s| s.to_string()).collect();
        table(&header, &rows)
    };
    o.push_str(&probes(&r.probes));
    o.push('\n');
    let answer = |o: &mut String, a: &tune_run::Answer| {
        let interval = a.interval.map_or("no evaluated value's interval holds the target".to_string(), |[lo, hi]| {
            format!("values whose 95% interval holds the target: {} to {}", span.text(lo), span.text(hi))
        });
        let _ = writeln!(
            o,
            "{} {key} = {}: `{figure}` {} {} ({interval})",
            if a.crossed { "answer:" } else { "not crossed in the range; closest value:" },
            span.text(a.value),
            show(a.figure),
            ci(a.ci95)
        );
        for n in &a.few_games {
            let _ = writeln!(o, "note: {}", n.text);
        }
    };
    answer(&mut o, &r.answer);
    let _ = writeln!(o, "stopping rule: {STOPPING_RULE}");
    if let Some(c) = &r.check {
        let _ = writeln!(o, "\ncheck with {} ({} games a value):", c.bots.join(","), c.games);
        o.push_str(&probes(&c.probes));
        answer(&mut o, &c.answer);
        let range = r
            .answer
            .interval
            .map_or("no range: no evaluated value's interval holds the target".to_string(), |[lo, hi]| {
                format!("{} to {}", span.text(lo), span.text(hi))
            });
        let _ = writeln!(
            o,
            "verdict: {}: the answer under {}, {key} = {}, lies {} the 95% range of values under {} ({range}; answer {})",
            c.verdict.word(),
            c.bots.join(","),
            c.answer.text,
            if c.verdict == robust::Verdict::Holds { "within" } else { "outside" },
            r.bots.join(","),
            r.answer.text
        );
    }
    o
}

/// `rulesmith merge`: the shards of a sweep (by the first file), else of a simulation or
/// tournament.
pub fn merge_any(paths: &[std::path::PathBuf], f: Format) -> Result<u8, Failure> {
    if let Some(first) = paths.first() {
        let text = rulesmith::core::input::read_text(first).map_err(|e| bad(e.to_string()))?;
        if sweep_run::is_sweep(&text) {
            return merge(paths, text, f);
        }
    }
    super::simulate::merge(paths, f)
}

/// `merge` of the JSON outputs of a sweep's shards: each file read and added in turn (one
/// in memory at a time), the whole sweep computed again by the library.
pub fn merge(paths: &[std::path::PathBuf], first_text: String, f: Format) -> Result<u8, Failure> {
    let mut m = SweepMerge::default();
    let mut text = Some(first_text);
    for p in paths {
        let t = match text.take() {
            Some(t) => t,
            None => rulesmith::core::input::read_text(p).map_err(|e| bad(e.to_string()))?,
        };
        m.add(&p.display().to_string(), &t).map_err(failure)?;
    }
    let report = m.finish(&loader).map_err(failure)?;
    print_sweep(&report, f)
}
