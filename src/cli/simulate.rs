//! `simulate`, `compare`, `merge`.

use super::common::{
    Failure, Format, bad, bots_error, configure_threads, emit, emit_json, failed, load, note, parse_shard, players_for,
    stderr_is_terminal,
};
use super::games_csv::GamesCsv;
use super::html::HtmlOut;
use super::output::{self, OutFile};
use rulesmith::Ruleset;
use rulesmith::core::bots::BotSpec;
use rulesmith::core::bots::parse_bots;
use rulesmith::core::paired;
use rulesmith::core::record::{Record, RulesetId};
use rulesmith::core::sim::{self, GameResult, Report, SimError, SimOptions, Tally, rate_text};
use rulesmith::core::sweep::{self, Named};
use rulesmith_report_html::Distributions;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use std::time::Instant;

/// Games (seeds × rotations) `compare` plays of each ruleset in turn: the per-game
/// figures of one such block are all it keeps (about 12 KB a game with metrics).
const COMPARE_BLOCK_GAMES: u64 = 512;

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
}

/// Runs one ruleset's games, with a progress bar on a terminal.
fn run_games(
    r: &Ruleset,
    opts: &SimOptions,
    prefix: &str,
    mut each: impl FnMut(&GameResult) + Send,
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
        let result = r.game.simulate(&opts, &mut each);
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        result
    });
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    // A bot program that fails is bad input (exit 2); a game that breaks is a failed check.
    let tally = result.map_err(|e| {
        let message = format!("simulation of `{}` stopped: {e}", r.name());
        if matches!(e, SimError::Bot { .. }) { bad(message) } else { failed(message) }
    })?;
    Ok((tally, start.elapsed().as_secs_f64()))
}

pub fn options(spec: &RunSpec, players: usize) -> Result<SimOptions, Failure> {
    if spec.games == 0 {
        return Err(bad("--games 0: give at least 1 game (a report of no games has no figures)"));
    }
    if !(spec.detect.is_finite() && spec.detect > 0.0 && spec.detect <= 100.0) {
        return Err(bad(format!("--detect {}: give percentage points, more than 0 and at most 100", spec.detect)));
    }
    let limit = spec.bot_time_limit;
    if !(limit.is_finite() && (0.001..=86_400.0).contains(&limit)) {
        return Err(bad(format!("--bot-time-limit {limit}: give seconds from 0.001 to 86400")));
    }
    let bots = parse_bots(spec.bots.as_deref().unwrap_or("random"), players)
        .map_err(bots_error)?
        .into_iter()
        .map(|b| match b {
            BotSpec::Exec(e) => BotSpec::Exec(std::sync::Arc::new(
                (*e).clone().with_time_limit(std::time::Duration::from_secs_f64(limit)),
            )),
            other => other,
        })
        .collect();
    Ok(SimOptions {
        players,
        games: spec.games,
        from: 0,
        seed: spec.seed,
        bots,
        shard: None,
        record: false,
        progress: None,
        rotate_seats: false,
        metrics: !spec.no_metrics,
    })
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
    let (tally, seconds) = run_games(&r, &opts, r.name(), |g| {
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
        let page = serde_json::to_value(&report)
            .map_err(|e| rulesmith_report_html::Error::Shape(e.to_string()))
            .and_then(|v| rulesmith_report_html::simulate_page(&v, dist.as_ref()));
        files.push(out.write(page)?);
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
    let all: Vec<Ruleset> = args.iter().map(|a| load(a, &spec.sets)).collect::<Result<_, _>>()?;
    // Rulesets with the same rules (apart from name and description) would play the same
    // games: each is reported as identical to the first of its kind and not played.
    let rules: Vec<String> = all.iter().map(|r| r.loaded.rules_digest()).collect();
    let mut rulesets = Vec::new();
    let mut kept_args: Vec<String> = Vec::new();
    let mut identical = Vec::new();
    for (i, r) in all.into_iter().enumerate() {
        match (0..i).find(|&j| rules[j] == rules[i]) {
            Some(j) => identical.push(serde_json::json!({"ruleset": args[i], "same_as": args[j]})),
            None => {
                rulesets.push(r);
                kept_args.push(args[i].clone());
            }
        }
    }
    for same in &identical {
        note(&format!(
            "note: `{}` has the same rules as `{}` (after `extends` and --set; only its name or description differs): reported identical, not played",
            same["ruleset"].as_str().unwrap_or_default(),
            same["same_as"].as_str().unwrap_or_default()
        ));
    }
    if rulesets.len() < 2 {
        // Asked-for outputs are still checked (never over an input), though none is written.
        let inputs: Vec<&str> =
            rulesets.iter().flat_map(|r| r.loaded.sources.names()).chain(args.iter().map(String::as_str)).collect();
        check_outputs(spec, &inputs)?;
        if f == Format::Json {
            emit_json(&serde_json::json!({ "identical": identical }));
        } else {
            emit(&format!("{}: the same rules; nothing to compare, no game played.\n", args.join(", ")));
        }
        return Ok(0);
    }
    let args = kept_args.as_slice();
    let lo = rulesets.iter().map(|r| *r.game.players().start()).max().unwrap_or(1);
    let hi = rulesets.iter().map(|r| *r.game.players().end()).min().unwrap_or(0);
    if lo > hi {
        return Err(bad("these rulesets have no player count in common"));
    }
    let players = players_for(spec.players, &(lo..=hi), "(all compared)")?;
    let mut opts = options(spec, players)?;
    // Bots that differ by seat are rotated unless asked not to: a ruleset's effect on a
    // bot should not depend on where it sits.
    let names: Vec<String> = opts.bots.iter().map(ToString::to_string).collect();
    opts.rotate_seats = spec.rotate_seats.unwrap_or(names.windows(2).any(|w| w[0] != w[1]));
    configure_threads(spec.threads)?;
    let inputs: Vec<&str> = rulesets.iter().flat_map(|r| r.loaded.sources.names()).collect();
    check_outputs(spec, &inputs)?;
    // Outputs are temporary files until the run is whole: SIGINT or SIGTERM removes them.
    output::stop_on_signals();
    let html = spec.html.as_deref().map(HtmlOut::create).transpose()?;
    let mut csv = match &spec.games_csv {
        Some(path) => {
            let mut all = Vec::new();
            for d in rulesets.iter().filter(|_| opts.metrics).flat_map(|r| r.game.metric_defs()) {
                if !all.contains(&d) {
                    all.push(d);
                }
            }
            Some(GamesCsv::create(path, players, all)?)
        }
        None => None,
    };
    let labels: Vec<String> = rulesets.iter().map(|r| r.name().to_string()).collect();
    let run = play_paired(&rulesets, &labels, &opts, 0, html.is_some(), &mut csv)?;
    let PairedRun { mut reports, mut diffs, dists } = run;
    // The extreme games' commands name each ruleset as it was given (a file by its path).
    for ((report, arg), r) in reports.iter_mut().zip(args).zip(&rulesets) {
        report.set_source(arg, &r.loaded.overrides);
    }
    let diffs: Vec<Vec<paired::Difference>> = diffs.drain(1..).collect();
    let skill = skill_figures(&rulesets, spec, players)?;
    let mut files = Vec::new();
    if let Some(c) = csv {
        files.push(c.finish()?);
    }
    let json = serde_json::json!({
        "overrides": spec.sets,
        "identical": identical,
        "players": players, "games": spec.games, "seed": spec.seed, "rotate_seats": opts.rotate_seats,
        "bots": opts.bots.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "rulesets": reports,
        "power": rulesmith::core::power::power_summary(&diffs, rulesmith::core::power::Family::EachSet),
        "skill": skill.iter().any(Option::is_some).then_some(&skill),
        "differences": {
            "from": reports.first().map(|r| r.ruleset.clone()),
            "interval": "95%, normal approximation of the mean paired difference",
            "correction": "Holm-Bonferroni, family-wise 5% within each ruleset's outcome figures and, apart, its designer metrics",
            "rulesets": reports.iter().skip(1).zip(&diffs).map(|(r, d)| serde_json::json!({
                "ruleset": r.ruleset, "figures": d,
            })).collect::<Vec<_>>(),
        },
    });
    if let Some(out) = html {
        files.push(out.write(rulesmith_report_html::compare_page(&json, &dists))?);
    }
    output::commit_all(files)?;
    if f == Format::Json {
        emit_json(&json);
        return Ok(0);
    }
    let mut text = compare_table(args, &reports, &opts);
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
            100.0 / players as f64
        );
    }
    for (r, d) in reports.iter().skip(1).zip(&diffs) {
        text.push('\n');
        text.push_str(&differences_text(&reports[0].ruleset, &r.ruleset, d));
    }
    text.push_str(&super::common::power_text(&json["power"], spec.detect));
    for r in &reports {
        let _ = write!(text, "\n{}: {}", r.ruleset, rulesmith::core::sim::extremes::text(&r.extremes));
    }
    emit(&text);
    Ok(0)
}

/// What `compare` and `sweep` play: the same games (seeds, bots, rotations) under each
/// ruleset, each paired game by game with the base ruleset's.
pub struct PairedRun {
    pub reports: Vec<Report>,
    /// Each ruleset's paired differences from the base (none for the base itself).
    pub diffs: Vec<Vec<paired::Difference>>,
    /// Each ruleset's distributions (empty ones unless asked for).
    pub dists: Vec<Distributions>,
}

/// The label of one bar of a paired run: which value (or ruleset) of how many, which seeds
/// of a long run, and the time left for the whole run, from the games played so far.
pub fn progress_prefix(
    label: &str,
    (k, n): (usize, usize),
    seeds: Option<(u64, u64, u64)>,
    (done, all): (u64, u64),
    elapsed: std::time::Duration,
) -> String {
    let mut o = label.to_string();
    if n > 1 {
        let _ = write!(o, " · value {k} of {n}");
    }
    if let Some((from, to, of)) = seeds {
        let _ = write!(o, " · seeds {from}–{to} of {of}");
    }
    if n > 1 || seeds.is_some() {
        if done == 0 {
            o.push_str(" · time left in all: measuring");
        } else {
            let left = elapsed.as_secs_f64() * all.saturating_sub(done) as f64 / done as f64;
            let left = indicatif::HumanDuration(std::time::Duration::from_secs_f64(left.max(0.0)));
            let _ = write!(o, " · about {left} left in all");
        }
    }
    o
}

/// Plays `rulesets` (named `labels` on the progress bar and in the games CSV) on the same
/// games, in blocks, the base first in each block: memory holds one block's per-game
/// figures, whatever the number of games.
pub fn play_paired(
    rulesets: &[Ruleset],
    labels: &[String],
    opts: &SimOptions,
    base: usize,
    want_dists: bool,
    csv: &mut Option<GamesCsv>,
) -> Result<PairedRun, Failure> {
    let n = rulesets.len();
    let players = opts.players;
    let defs: Vec<_> = rulesets.iter().map(|r| if opts.metrics { r.game.metric_defs() } else { Vec::new() }).collect();
    let mut tallies: Vec<Option<Tally>> = vec![None; n];
    let mut seconds = vec![0.0; n];
    let mut dists = vec![Distributions::new(players); n];
    let mut pairings = vec![paired::Pairing::default(); n];
    let order: Vec<usize> = std::iter::once(base).chain((0..n).filter(|&i| i != base)).collect();
    let block = (COMPARE_BLOCK_GAMES / opts.rotations()).max(1);
    let started = Instant::now();
    // Games (seeds) played so far over every ruleset or value, for the time left in all.
    let mut done: u64 = 0;
    let all = opts.games.saturating_mul(n as u64);
    let mut lo = 0;
    while lo < opts.games {
        let hi = lo.saturating_add(block).min(opts.games);
        let part = SimOptions { from: lo, games: hi, ..opts.clone() };
        let mut first = Vec::new();
        for (k, &i) in order.iter().enumerate() {
            let r = &rulesets[i];
            let label = labels.get(i).map_or_else(|| r.name(), String::as_str);
            let mut mine = Vec::new();
            let seeds = (opts.games > block).then(|| (lo + 1, hi, opts.games));
            let prefix = progress_prefix(label, (k + 1, n), seeds, (done, all), started.elapsed());
            let dist = &mut dists[i];
            let (tally, secs) = run_games(r, &part, &prefix, |g| {
                mine.push(paired::game_figures(g, players, &defs[i]));
                if want_dists {
                    dist.add(g);
                }
                if let Some(c) = csv.as_mut() {
                    c.row(label, &opts.bots, g, &defs[i]);
                }
            })?;
            seconds[i] += secs;
            done = done.saturating_add(hi - lo);
            match &mut tallies[i] {
                Some(t) => t.merge(&tally).map_err(|e| failed(format!("`{label}`: {e}")))?,
                none => *none = Some(tally),
            }
            if i == base {
                first = mine;
            } else {
                pairings[i].add(&first, &mine);
            }
        }
        lo = hi;
    }
    let reports: Vec<Report> = rulesets
        .iter()
        .zip(tallies)
        .zip(&seconds)
        .map(|((r, t), &secs)| {
            let tally = t.unwrap_or_else(|| Tally::new(players));
            let mut report = Report::new(r.name(), &r.digest(), r.game.game_id(), opts, tally, secs);
            report.set_source(r.name(), &r.loaded.overrides);
            report
        })
        .collect();
    let diffs = pairings
        .into_iter()
        .enumerate()
        .map(|(i, p)| {
            if i == base {
                return Vec::new();
            }
            let mut sums = p.finish();
            // Unfinished games are their own figure only where some game was unfinished.
            if sums.get("unfinished").is_some_and(|u| u.sum_sq == 0) {
                sums.remove("unfinished");
            }
            let mut d = paired::differences(&sums);
            // Owners' − non-owners' win share of each building, role, privilege: what says
            // a component became too strong.
            let figs = |k: usize| reports.get(k).map(|r| sweep::named_figures(r, None)).unwrap_or_default();
            d.extend(sweep::gap_differences(&figs(base), &figs(i)));
            paired::rejudge(&mut d);
            d
        })
        .collect();
    Ok(PairedRun { reports, diffs, dists })
}

/// The skill figure of each ruleset (`--skill STRONG,WEAK`): the win share of one STRONG
/// player against WEAK ones, seats rotated so that it sits in every seat, on the same
/// seeds under every ruleset. Fair is 1 / players: above it, the ruleset rewards the
/// stronger play.
pub fn skill_figures(rulesets: &[Ruleset], spec: &RunSpec, players: usize) -> Result<Vec<Option<Named>>, Failure> {
    let Some(skill) = &spec.skill else { return Ok(vec![None; rulesets.len()]) };
    let Some((strong, weak)) = skill.split_once(',').filter(|(a, b)| !a.trim().is_empty() && !b.trim().is_empty())
    else {
        return Err(bad(format!("--skill `{skill}`: expected STRONG,WEAK, e.g. `mcts:200,greedy`")));
    };
    let (strong, weak) = (strong.trim(), weak.trim());
    let mut opts = options(spec, players)?;
    let list = std::iter::once(strong).chain(std::iter::repeat_n(weak, players.saturating_sub(1))).collect::<Vec<_>>();
    opts.bots = parse_bots(&list.join(","), players).map_err(|e| bad(format!("--skill: {e}")))?;
    opts.rotate_seats = true;
    opts.metrics = false;
    let labels: Vec<String> =
        rulesets.iter().map(|r| format!("{} (skill: {strong} against {weak})", r.name())).collect();
    let run = play_paired(rulesets, &labels, &opts, 0, false, &mut None)?;
    Ok(run
        .reports
        .iter()
        .map(|r| {
            r.by_bot.first().map(|b| Named {
                figure: format!("skill: {strong} win share against {weak}"),
                value: (r.games > r.unfinished).then_some(b.win_rate),
                ci95: Some(b.win_rate_ci95),
            })
        })
        .collect())
}

/// The paired differences of one ruleset from the first, one figure a line.
fn differences_text(from: &str, to: &str, diffs: &[paired::Difference]) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "{to} − {from}, paired by game (same seeds and bots):");
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

#[cfg(test)]
mod tests {
    use super::progress_prefix;
    use std::time::Duration;

    /// Issue #47: a sweep's bars say which value of how many, and the time left in all.
    #[test]
    fn a_paired_run_says_value_k_of_n_and_the_time_left_in_all() {
        let first = progress_prefix("harbor=6", (1, 5), None, (0, 500), Duration::ZERO);
        assert_eq!(first, "harbor=6 · value 1 of 5 · time left in all: measuring");
        // 100 of 500 games in 10 s: 400 more take about 40 s.
        let third = progress_prefix("harbor=8", (3, 5), None, (100, 500), Duration::from_secs(10));
        assert_eq!(third, "harbor=8 · value 3 of 5 · about 40 seconds left in all");
        let long = progress_prefix("x", (2, 2), Some((513, 1024, 2000)), (1024, 4000), Duration::from_secs(60));
        assert!(long.starts_with("x · value 2 of 2 · seeds 513–1024 of 2000 · about "), "{long}");
        assert_eq!(progress_prefix("puerto-rico", (1, 1), None, (0, 100), Duration::ZERO), "puerto-rico");
    }
}
