//! `simulate`, `compare`, `merge`.

use super::common::{
    Failure, Format, bad, configure_threads, emit, emit_json, failed, load, note, parse_shard, players_for,
    stderr_is_terminal,
};
use super::games_csv::GamesCsv;
use super::html::HtmlOut;
use super::output::{self, OutFile};
use rulesmith::Ruleset;
use rulesmith::core::paired;
use rulesmith::core::record::{Record, RulesetId};
use rulesmith::core::sim::{self, GameResult, Report, SimOptions, Tally, rate_text};
use rulesmith::core::study::{self, CompareOutcome, RunError, Runner, StudySpec, robust};
use rulesmith_report_html::Distributions;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use std::time::Instant;

/// The options `simulate` and `compare` share.
pub struct RunSpec {
    pub players: Option<usize>,
    pub games: u64,
    pub seed: u64,
    /// `--bots`; `None`: the command's default.
    pub bots: Option<String>,
    pub threads: Option<usize>,
    /// Seconds per decision for `exec:` bots.
    pub bot_time_limit: f64,
    /// `--html FILE`: also write the report as a page.
    pub html: Option<PathBuf>,
    /// `--rotate-seats` / `--no-rotate-seats`; `None`: the command's default.
    pub rotate_seats: Option<bool>,
    /// `--games-csv FILE`: one row per game.
    pub games_csv: Option<PathBuf>,
    /// `--no-metrics`: skip the designer metrics (the fastest runs).
    pub no_metrics: bool,
    /// `--set KEY=VALUE` overrides, applied to every ruleset.
    pub sets: Vec<String>,
    /// `--skill STRONG,WEAK` (`compare`, `sweep`): also the skill figure.
    pub skill: Option<String>,
    /// `--detect PP`: the difference whose games needed the power line states.
    pub detect: f64,
    /// `--check-with BOTS` (`compare`, `sweep`, `tune`): a second line-up.
    pub check_with: Option<String>,
    /// `--check-games N`: the second line-up's games.
    pub check_games: Option<u64>,
}

impl RunSpec {
    /// What the library's studies take: the options that decide the games.
    pub fn study(&self) -> StudySpec {
        StudySpec {
            players: self.players,
            games: self.games,
            seed: self.seed,
            bots: self.bots.clone(),
            bot_time_limit: self.bot_time_limit,
            rotate_seats: self.rotate_seats,
            no_metrics: self.no_metrics,
            sets: self.sets.clone(),
            skill: self.skill.clone(),
            detect: self.detect,
            check_with: self.check_with.clone(),
            check_games: self.check_games,
        }
    }
}

/// A study's failure: bad input exits 2, a game that broke 1.
pub fn failure(e: RunError) -> Failure {
    match e {
        RunError::Bad(m) => bad(m),
        RunError::Failed(m) => failed(m),
    }
}

/// Loads rulesets for the library's studies, with the command line's messages.
pub fn loader(arg: &str, sets: &[String]) -> Result<Ruleset, RunError> {
    load(arg, sets).map_err(|f| RunError::Bad(f.message))
}

/// Plays a study's games with a progress bar on a terminal.
pub struct Bars;

impl Runner for Bars {
    fn play(
        &self,
        r: &Ruleset,
        opts: &SimOptions,
        label: &str,
        each: &mut dyn FnMut(&GameResult),
    ) -> Result<(Tally, f64), RunError> {
        run_games(r, opts, label, each)
            .map_err(|f| if f.code == 2 { RunError::Bad(f.message) } else { RunError::Failed(f.message) })
    }

    fn time_left(&self, d: std::time::Duration) -> String {
        indicatif::HumanDuration(d).to_string()
    }
}

/// Runs one ruleset's games, with a progress bar on a terminal.
fn run_games(
    r: &Ruleset,
    opts: &SimOptions,
    prefix: &str,
    each: &mut dyn FnMut(&GameResult),
) -> Result<(Tally, f64), Failure> {
    let total = match opts.shard {
        Some((k, n)) => sim::shard_games(opts.games, k, n),
        None => opts.games.saturating_sub(opts.from),
    }
    .saturating_mul(opts.rotations());
    let bar = stderr_is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(total);
        let template = "{prefix} [{bar:40}] {pos}/{len} games, {rate} games/s, {elapsed} elapsed, about {eta} left";
        if let Ok(style) = indicatif::ProgressStyle::with_template(template) {
            let rate = |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = w.write_str(&rate_text(s.per_sec()));
            };
            bar.set_style(style.with_key("rate", rate).progress_chars("=> "));
        }
        bar.set_prefix(prefix.to_string());
        bar
    });
    let start = Instant::now();
    // Games count as they finish on any thread; a watcher moves the bar meanwhile.
    let counter = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let done = std::sync::atomic::AtomicBool::new(false);
    let mut opts = opts.clone();
    if bar.is_some() {
        opts.progress = Some(counter.clone());
    }
    let result = std::thread::scope(|scope| {
        if let Some(b) = &bar {
            let (counter, done) = (&counter, &done);
            scope.spawn(move || {
                while !done.load(std::sync::atomic::Ordering::Relaxed) {
                    b.set_position(counter.load(std::sync::atomic::Ordering::Relaxed));
                    std::thread::sleep(std::time::Duration::from_millis(100));
                }
            });
        }
        let result = r.game.simulate(&opts, each);
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        result
    });
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    // A bot program that fails is bad input (exit 2); a game that breaks is a failed check.
    let tally = result.map_err(|e| failure(study::paired_run::sim_error(r, &e)))?;
    Ok((tally, start.elapsed().as_secs_f64()))
}

pub fn options(spec: &RunSpec, players: usize) -> Result<SimOptions, Failure> {
    if spec.check_with.is_some() {
        return Err(bad("--check-with is for `compare`, `sweep` and `tune`"));
    }
    study::sim_options(
        &StudySpec { bots: Some(spec.bots.clone().unwrap_or_else(|| "random".into())), ..spec.study() },
        players,
    )
    .map_err(failure)
}

/// `rulesmith simulate`.
pub fn simulate(
    arg: &str,
    spec: &RunSpec,
    record: Option<&Path>,
    shard: Option<&str>,
    f: Format,
) -> Result<u8, Failure> {
    if spec.skill.is_some() {
        return Err(bad("--skill is for `compare` and `sweep`"));
    }
    let r = load(arg, &spec.sets)?;
    configure_threads(spec.threads)?;
    let players = players_for(spec.players, &r.game.players(), arg)?;
    let mut opts = options(spec, players)?;
    opts.shard = shard.map(parse_shard).transpose()?;
    opts.record = record.is_some();
    opts.rotate_seats = spec.rotate_seats.unwrap_or(false);
    let inputs: Vec<&str> = r.loaded.sources.names().collect();
    let outputs: Vec<(&str, &Path)> =
        [("the record", record), ("the games CSV", spec.games_csv.as_deref()), ("the HTML page", spec.html.as_deref())]
            .into_iter()
            .filter_map(|(w, p)| p.map(|p| (w, p)))
            .collect();
    output::check_distinct(&outputs, &inputs)?;
    // Outputs are temporary files until the run is whole: SIGINT or SIGTERM removes them.
    output::stop_on_signals();
    let defs = if opts.metrics { r.game.metric_defs() } else { Vec::new() };
    let mut csv = match &spec.games_csv {
        Some(path) => Some(GamesCsv::create(path, players, defs.clone())?),
        None => None,
    };
    let mut writer = match record {
        Some(path) => Some(std::io::BufWriter::new(OutFile::create("the record", path)?)),
        None => None,
    };
    let id = RulesetId {
        name: r.name().to_string(),
        source: arg.to_string(),
        digest: r.digest(),
        game: r.game.game_id().to_string(),
        overrides: r.loaded.overrides.clone(),
    };
    let html = spec.html.as_deref().map(HtmlOut::create).transpose()?;
    let mut dist = html.as_ref().map(|_| Distributions::new(players));
    let mut write_error = None;
    let (tally, seconds) = run_games(&r, &opts, r.name(), &mut |g| {
        if let Some(d) = dist.as_mut() {
            d.add(g);
        }
        if let Some(c) = csv.as_mut() {
            c.row(r.name(), &opts.bots, g, &defs);
        }
        if let (Some(w), None) = (writer.as_mut(), &write_error) {
            let bots = sim::rotated_bots(&opts.bots, players, g.rotation);
            if let Err(e) = Record::write_sim_line(w, &id, players, opts.seed, &bots, g) {
                write_error = Some(e);
            }
        }
    })?;
    let mut files = Vec::new();
    if let (Some(w), Some(path)) = (writer, record) {
        let cannot = |e: &dyn std::fmt::Display| bad(format!("cannot write the record `{}`: {e}", path.display()));
        if let Some(e) = write_error {
            return Err(cannot(&e));
        }
        files.push(w.into_inner().map_err(|e| cannot(e.error()))?);
    }
    if let Some(c) = csv {
        files.push(c.finish()?);
    }
    // The digest hashes the whole ruleset: once per run, as the record's id has it.
    let mut report = Report::new(r.name(), &id.digest, r.game.game_id(), &opts, tally, seconds);
    report.set_source(arg, &r.loaded.overrides);
    if let Some(out) = html {
        files.push(out.write(rulesmith_report_html::simulate_page(&report, dist.as_ref()))?);
    }
    output::commit_all(files)?;
    match f {
        Format::Json => emit_json(&report),
        Format::Text => emit(&(report.to_text() + &super::common::single_power_text(&report, spec.detect))),
    }
    Ok(0)
}

/// `rulesmith compare A B ...`.
/// The games CSV and the HTML page asked for must be distinct files and never one of the
/// inputs (they are written over).
pub fn check_outputs(spec: &RunSpec, inputs: &[&str]) -> Result<(), Failure> {
    let outputs: Vec<(&str, &Path)> =
        [("the games CSV", spec.games_csv.as_deref()), ("the HTML page", spec.html.as_deref())]
            .into_iter()
            .filter_map(|(w, p)| p.map(|p| (w, p)))
            .collect();
    output::check_distinct(&outputs, inputs)
}

pub fn compare(args: &[String], spec: &RunSpec, f: Format) -> Result<u8, Failure> {
    let study = spec.study();
    let prepared = study::compare::prepare(args, &study, &loader).map_err(failure)?;
    for same in &prepared.identical {
        note(&format!(
            "note: `{}` has the same rules as `{}` (after `extends` and --set; only its name or description differs): reported identical, not played",
            same.ruleset, same.same_as
        ));
    }
    let Some((players, opts)) = &prepared.run else {
        // Asked-for outputs are still checked (never over an input), though none is written.
        let inputs: Vec<&str> = prepared.inputs().into_iter().chain(args.iter().map(String::as_str)).collect();
        check_outputs(spec, &inputs)?;
        if f == Format::Json {
            emit_json(
                &study::to_json(&CompareOutcome::Nothing { identical: prepared.identical.clone() }).map_err(failure)?,
            );
        } else {
            emit(&format!("{}: the same rules; nothing to compare, no game played.\n", args.join(", ")));
        }
        return Ok(0);
    };
    configure_threads(spec.threads)?;
    check_outputs(spec, &prepared.inputs())?;
    // Outputs are temporary files until the run is whole: SIGINT or SIGTERM removes them.
    output::stop_on_signals();
    let html = spec.html.as_deref().map(HtmlOut::create).transpose()?;
    let mut csv = match &spec.games_csv {
        Some(path) => {
            let mut all = Vec::new();
            for d in prepared.rulesets.iter().filter(|_| opts.metrics).flat_map(|r| r.game.metric_defs()) {
                if !all.contains(&d) {
                    all.push(d);
                }
            }
            Some(GamesCsv::create(path, *players, all)?)
        }
        None => None,
    };
    let (outcome, dists) = study::compare::run(
        &prepared,
        &study,
        &Bars,
        &mut |label, bots, g, defs| {
            if let Some(c) = csv.as_mut() {
                c.row(label, bots, g, defs);
            }
        },
        html.is_some(),
    )
    .map_err(failure)?;
    let CompareOutcome::Report(report) = outcome else { return Err(failed("compare: no report")) };
    let mut files = Vec::new();
    if let Some(c) = csv {
        files.push(c.finish()?);
    }
    if let Some(out) = html {
        files.push(out.write(rulesmith_report_html::compare_page(&report, &dists))?);
    }
    output::commit_all(files)?;
    if f == Format::Json {
        emit_json(&study::to_json(&*report).map_err(failure)?);
        return Ok(0);
    }
    let mut text = compare_table(&prepared.args, &report.rulesets, opts);
    if let Some(skill) = &report.skill {
        if let Some(Some(first)) = skill.first() {
            let cells: Vec<String> = skill
                .iter()
                .map(|n| match n.as_ref().and_then(|n| n.value.zip(n.ci95)) {
                    Some((v, c)) => format!("{:.1}% [{:.1}, {:.1}]", 100.0 * v, 100.0 * c[0], 100.0 * c[1]),
                    None => "–".into(),
                })
                .collect();
            let _ = writeln!(
                text,
                "{}: {} (fair share {:.1}%; seats rotated, same seeds)",
                first.figure,
                cells.join("  |  "),
                100.0 / *players as f64
            );
        }
    }
    let from = report.differences.from.clone().unwrap_or_default();
    for set in &report.differences.rulesets {
        text.push('\n');
        text.push_str(&differences_text(&from, &set.ruleset, &set.figures));
    }
    text.push_str(&super::common::power_text(&report.power, spec.detect));
    for r in &report.rulesets {
        let _ = write!(text, "\n{}: {}", r.ruleset, rulesmith::core::sim::extremes::text(&r.extremes));
    }
    text.push_str(&few_games_text(&report.few_games));
    if let Some(check) = &report.check {
        text.push_str(&check_text(check, &report.bots));
    }
    emit(&text);
    Ok(0)
}

/// The notes on figures that rest on few games, one a line.
pub fn few_games_text(notes: &[study::few::Note]) -> String {
    let mut o = String::new();
    if !notes.is_empty() {
        let _ = writeln!(
            o,
            "\nfew games (under {:.0}% of seat-games or {} seat-games with an owner):",
            100.0 * study::few::FEW_SHARE,
            study::few::FEW_SEAT_GAMES
        );
    }
    for n in notes {
        let _ = writeln!(o, "  note: {}", n.text);
    }
    o
}

/// The robustness check in words: a line per headline figure.
pub fn check_text(c: &robust::Check, first_bots: &[String]) -> String {
    let mut o = String::new();
    let (first, second) = (first_bots.join(","), c.bots.join(","));
    let _ = writeln!(
        o,
        "\ncheck with {second} ({} games{}):",
        c.games,
        if c.rotate_seats { ", seats rotated" } else { "" }
    );
    if c.verdicts.is_empty() {
        let _ = writeln!(o, "  no outcome figure is significant under {first}: nothing to check.");
    }
    for l in &c.verdicts {
        let _ = writeln!(o, "  {}", robust::line_text(l, &first, &second));
    }
    let count = |v: robust::Verdict| c.verdicts.iter().filter(|l| l.verdict == v).count();
    if !c.verdicts.is_empty() {
        let _ = writeln!(
            o,
            "  {} hold, {} weaker, {} flip. holds: same sign, significant; weaker: no longer significant; flips: opposite sign, significant.",
            count(robust::Verdict::Holds),
            count(robust::Verdict::Weaker),
            count(robust::Verdict::Flips)
        );
    }
    o
}

/// The paired differences of one ruleset from the first, one figure a line.
fn differences_text(from: &str, to: &str, diffs: &[paired::Difference]) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "{to} − {from}, paired by game (same seeds and bots):");
    if diffs.is_empty() {
        // Pairs are of finished games: an empty table would read as "nothing changed".
        let _ = writeln!(
            o,
            "no paired figure: no game finished under both rulesets (games stopped by a safety cap have no winner and are left out), so there is nothing to compare."
        );
        return o;
    }
    // Designer metrics: only those that differ significantly, the clearest first (the
    // JSON lists every figure).
    let (metrics, figures): (Vec<&paired::Difference>, Vec<&paired::Difference>) =
        diffs.iter().partition(|d| paired::is_metric(&d.figure));
    let mut shown: Vec<&paired::Difference> = metrics.iter().copied().filter(|d| d.significant).collect();
    shown.sort_by(|a, b| a.p_value.total_cmp(&b.p_value));
    let hidden = metrics.len() - shown.len().min(10);
    shown.truncate(10);
    let width = figures.iter().chain(&shown).map(|d| d.figure.chars().count()).max().unwrap_or(0).max(6);
    let _ = writeln!(o, "{:<width$}  {:>10}  {:<24}  {:>7}", "figure", "difference", "95% interval", "p");
    for d in figures.into_iter().chain(shown) {
        let pct = d.figure.ends_with("win share") || d.figure.starts_with("ended by") || d.figure == "unfinished";
        let k = if pct { 100.0 } else { 1.0 };
        let unit = if pct { " pp" } else { "" };
        let interval = format!("[{:+.2}, {:+.2}]{unit}", k * d.ci95[0], k * d.ci95[1]);
        let mark = if d.significant { " *" } else { "" };
        let _ = writeln!(o, "{:<width$}  {:>+10.2}  {interval:<24}  {:>7.4}{mark}", d.figure, k * d.mean, d.p_value);
    }
    if !metrics.is_empty() {
        let _ = writeln!(
            o,
            "metrics (`<group>: …`, per game): {hidden} of {} not shown (only significant ones are; --format json lists all).",
            metrics.len()
        );
    }
    let _ = writeln!(
        o,
        "pp: percentage points. * significant at 5% after Holm–Bonferroni over the {} outcome figures{}.",
        diffs.len() - metrics.len(),
        if metrics.is_empty() { String::new() } else { format!(" and, apart, the {} metrics", metrics.len()) }
    );
    o
}

fn compare_table(args: &[String], reports: &[Report], opts: &SimOptions) -> String {
    let bots: Vec<String> = opts.bots.iter().map(ToString::to_string).collect();
    let mut rows: Vec<(String, Vec<String>)> = Vec::new();
    // Columns by ruleset name, or by the argument when two rulesets share a name.
    let names: Vec<String> = reports.iter().map(|r| r.ruleset.clone()).collect();
    let unique = names.iter().enumerate().all(|(i, n)| !names[..i].contains(n));
    rows.push(("ruleset".into(), if unique { names } else { args.to_vec() }));
    rows.push(("game".into(), reports.iter().map(|r| r.game.clone()).collect()));
    for s in 0..opts.players {
        let bot = bots.get(s).cloned().unwrap_or_default();
        rows.push((
            format!("seat {s} ({bot}) win rate"),
            reports
                .iter()
                .map(|r| {
                    r.seats.get(s).map_or(String::new(), |x| {
                        format!(
                            "{:.1}% [{:.1}, {:.1}]",
                            100.0 * x.win_rate,
                            100.0 * x.win_rate_ci95[0],
                            100.0 * x.win_rate_ci95[1]
                        )
                    })
                })
                .collect(),
        ));
        rows.push((
            format!("seat {s} score mean (sd)"),
            reports
                .iter()
                .map(|r| r.seats.get(s).map_or(String::new(), |x| format!("{:.2} ({:.2})", x.score_mean, x.score_sd)))
                .collect(),
        ));
    }
    if reports.iter().any(|r| r.unfinished > 0) {
        rows.push((
            "unfinished (safety cap, no winner)".into(),
            reports
                .iter()
                .map(|r| format!("{:.1}% ({})", 100.0 * r.unfinished as f64 / r.games.max(1) as f64, r.unfinished))
                .collect(),
        ));
    }
    rows.push(("rounds (mean)".into(), reports.iter().map(|r| format!("{:.1}", r.rounds_mean)).collect()));
    rows.push(("decisions (mean)".into(), reports.iter().map(|r| format!("{:.1}", r.decisions_mean)).collect()));
    let mut ends: Vec<&String> = reports.iter().flat_map(|r| r.ends.keys()).collect();
    ends.sort();
    ends.dedup();
    for end in ends {
        rows.push((
            format!("ended by {end}"),
            reports
                .iter()
                .map(|r| {
                    let n = r.ends.get(end).copied().unwrap_or(0);
                    format!("{:.1}% ({n})", 100.0 * n as f64 / r.games.max(1) as f64)
                })
                .collect(),
        ));
    }
    rows.push(("games/s".into(), reports.iter().map(|r| rate_text(r.games_per_second)).collect()));
    let label = rows.iter().map(|(l, _)| l.chars().count()).max().unwrap_or(0);
    let widths: Vec<usize> = (0..reports.len())
        .map(|i| rows.iter().map(|(_, c)| c.get(i).map_or(0, |s| s.chars().count())).max().unwrap_or(0))
        .collect();
    let mut o = String::new();
    let _ = writeln!(
        o,
        "{} players, {} games each, seed {}, bots {}{}",
        opts.players,
        opts.games,
        opts.seed,
        bots.join(","),
        if opts.rotate_seats {
            format!(
                " (seats rotated: each seed once per rotation of the bots, {} games per ruleset)",
                opts.games.saturating_mul(opts.rotations())
            )
        } else {
            String::new()
        }
    );
    for set in reports.first().map(|r| r.overrides.as_slice()).unwrap_or_default() {
        let _ = writeln!(o, "--set {set} (every ruleset)");
    }
    if let Some(note) = sim::unrotated_note(&bots, opts.rotate_seats) {
        let _ = writeln!(o, "{note}");
    }
    let _ = writeln!(o);
    for (l, cells) in &rows {
        let _ = write!(o, "{l:label$}");
        for (i, c) in cells.iter().enumerate() {
            let _ = write!(o, "  {c:>w$}", w = widths.get(i).copied().unwrap_or(0));
        }
        let _ = writeln!(o);
    }
    o
}

/// `rulesmith merge REPORT...`: the JSON reports of a run's shards → one report.
pub fn merge(paths: &[PathBuf], f: Format) -> Result<u8, Failure> {
    // Each file read once, bounded, and folded in before the next is read: one report in
    // memory at a time. Shards of a tournament (by the first file) merge as a tournament.
    let read = |p: &PathBuf| rulesmith::core::input::read_text(p).map_err(|e| bad(e.to_string()));
    let Some(first) = paths.first() else { return Err(bad("merge: no reports given")) };
    let first_text = read(first)?;
    if super::tournament::is_tournament(&first_text) {
        return super::tournament::merge(paths, first_text, f);
    }
    let mut m = sim::ReportMerge::default();
    let mut text = Some(first_text);
    for p in paths {
        let t = match text.take() {
            Some(t) => t,
            None => read(p)?,
        };
        if super::tournament::is_tournament(&t) {
            return Err(bad(format!("`{}` is a tournament report, unlike `{}`", p.display(), first.display())));
        }
        let r: Report = rulesmith::core::game::object_from_json(&t).map_err(|e| {
            let why = sim::report_read_error(&t, &e);
            bad(format!("`{}` is not a JSON report of `rulesmith simulate --format json`: {why}", p.display()))
        })?;
        drop(t);
        m.add(&p.display().to_string(), &r).map_err(|e| bad(format!("merge: {e}")))?;
    }
    let report = m.finish().map_err(|e| bad(format!("merge: {e}")))?;
    match f {
        Format::Json => emit_json(&report),
        Format::Text => emit(&report.to_text()),
    }
    Ok(0)
}
