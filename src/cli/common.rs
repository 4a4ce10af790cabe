//! What every command shares: failures with exit codes, output that survives a closed
//! pipe, loading rulesets with readable errors.

use rulesmith::Ruleset;
use rulesmith::core::sim::default_players;
use std::io::{IsTerminal, Write};
use std::ops::RangeInclusive;

/// `--format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// A command that could not do its work: the exit code (1: a check failed, 2: bad input)
/// and the message for stderr.
#[derive(Debug)]
pub struct Failure {
    pub code: u8,
    pub message: String,
}

/// Bad input: exit code 2.
pub fn bad(message: impl Into<String>) -> Failure {
    Failure { code: 2, message: message.into() }
}

/// A failed check: exit code 1.
pub fn failed(message: impl Into<String>) -> Failure {
    Failure { code: 1, message: message.into() }
}

/// User-given text (a name from a file or an argument) as printed back: control
/// characters written as escapes (`\u{1b}`, `\r`, `\n`), so that no file or argument can
/// move the cursor, clear or retitle the reader's terminal.
pub fn shown(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(text);
    }
    std::borrow::Cow::Owned(
        text.chars().map(|c| if c.is_control() { c.escape_default().to_string() } else { c.to_string() }).collect(),
    )
}

/// Output as it reaches a terminal: line breaks, tabs and the colour sequences
/// (`ESC [ … m`) the play screens paint with are kept; every other control character is
/// written as an escape (the safety net under [`shown`] and the checks at load).
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    let safe = |c: char| !c.is_control() || c == '\n' || c == '\t';
    if text.chars().all(safe) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c == '\x1b' {
            // A colour: ESC [ digits and semicolons m.
            let body = rest[1..]
                .strip_prefix('[')
                .map(|b| b.find(|c: char| !(c.is_ascii_digit() || c == ';')).map_or((b, None), |at| (b, Some(at))));
            if let Some((b, Some(at))) = body {
                if b[at..].starts_with('m') {
                    out.push_str(&rest[..2 + at + 1]);
                    rest = &rest[2 + at + 1..];
                    continue;
                }
            }
        }
        if safe(c) {
            out.push(c);
        } else {
            out.extend(c.escape_default());
        }
        rest = &rest[c.len_utf8()..];
    }
    std::borrow::Cow::Owned(out)
}

/// Prints to stdout; a closed pipe (`rulesmith legal … | head`) ends the program quietly.
pub fn emit(text: &str) {
    let text = printable(text);
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        note(&format!("error: cannot write the output: {e}"));
        std::process::exit(2);
    }
}

/// Prints a line to stdout.
pub fn say(line: impl AsRef<str>) {
    let mut s = line.as_ref().to_string();
    s.push('\n');
    emit(&s);
}

/// Prints JSON (pretty) to stdout.
pub fn emit_json(value: &impl serde::Serialize) {
    match serde_json::to_string_pretty(value) {
        Ok(s) => say(s),
        Err(e) => error(&format!("cannot print JSON: {e}")),
    }
}

/// An error message on stderr, each line once prefixed.
pub fn error(message: &str) {
    let message = message.trim_end();
    if message.starts_with("error:") {
        note(message);
    } else {
        note(&format!("error: {message}"));
    }
}

/// A line on stderr. A full or closed stderr is ignored (`eprintln!` would panic): the
/// exit code still tells what happened.
pub fn note(line: &str) {
    // Messages are never coloured: every control character but line breaks and tabs is
    // escaped, colour sequences too.
    let plain = line.replace('\x1b', "\\u{1b}");
    let line = printable(&plain);
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// True when stderr is a terminal (progress bars go there only then).
pub fn stderr_is_terminal() -> bool {
    std::io::stderr().is_terminal()
}

/// Last resort: a panic prints a short message and exits with code 2, no backtrace.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_string());
        let at = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
        note(&format!(
            "internal error: {what}{at}\nThis is a bug in rulesmith; please report it with the command that caused it."
        ));
        std::process::exit(2);
    }));
}

/// Loads a ruleset (bundled name or path) with the `--set` overrides; its diagnostics
/// become the failure message.
pub fn load(arg: &str, sets: &[String]) -> Result<Ruleset, Failure> {
    rulesmith::load_with(arg, sets).map_err(|e| bad(e.render() + &scenario_hint(arg)))
}

/// A hint when a scenario file is given where a ruleset is expected.
pub fn scenario_hint(arg: &str) -> String {
    let is_scenario = rulesmith::core::input::read_text(std::path::Path::new(arg))
        .is_ok_and(|t| rulesmith::core::scenario::is_scenario_text(&t));
    if is_scenario {
        format!("note: `{arg}` is a scenario file; run it with `rulesmith run {arg}`\n")
    } else {
        String::new()
    }
}

/// The player count to use: the one given (checked against the range) or the default.
pub fn players_for(given: Option<usize>, range: &RangeInclusive<usize>, ruleset: &str) -> Result<usize, Failure> {
    match given {
        None => Ok(default_players(range)),
        Some(p) if range.contains(&p) => Ok(p),
        Some(p) => {
            Err(bad(format!("--players {p}: ruleset `{ruleset}` seats {} to {} players", range.start(), range.end())))
        }
    }
}

/// `2–5` or `4`.
pub fn range_text(r: &RangeInclusive<usize>) -> String {
    if r.start() == r.end() { r.start().to_string() } else { format!("{}–{}", r.start(), r.end()) }
}

/// A `--bots` problem as bad input.
pub fn bots_error(e: String) -> Failure {
    if e.starts_with("--bots") { bad(e) } else { bad(format!("--bots: {e}")) }
}

// The run options `simulate`, `compare` and `tournament` share.

/// `K/N` (1-based K) → `(K-1, N)`.
pub fn parse_shard(s: &str) -> Result<(u64, u64), Failure> {
    rulesmith::core::sim::parse_shard(s)
        .ok_or_else(|| bad(format!("--shard `{s}`: expected K/N with 1 ≤ K ≤ N, e.g. 2/4")))
}

/// Most worker threads `--threads` may ask for: refused at once rather than spawned.
pub const MAX_THREADS: usize = 1024;

/// Sizes rayon's pool once per process (the callbacks stay on this thread).
pub fn configure_threads(threads: Option<usize>) -> Result<(), Failure> {
    match threads {
        None => Ok(()),
        Some(0) => Err(bad("--threads 0: expected at least 1")),
        Some(t) if t > MAX_THREADS => Err(bad(format!("--threads {t}: expected at most {MAX_THREADS}"))),
        Some(t) => rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build_global()
            .map_err(|e| bad(format!("cannot start {t} threads: {e}"))),
    }
}

/// Runs `work` with a progress bar of `total` games on a terminal (stderr), like
/// `simulate`'s: `work` gets the counter to bump as games finish (none off a terminal).
pub fn with_progress<R>(
    total: u64,
    prefix: &str,
    work: impl FnOnce(Option<std::sync::Arc<std::sync::atomic::AtomicU64>>) -> R,
) -> R {
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    if !stderr_is_terminal() {
        return work(None);
    }
    let bar = indicatif::ProgressBar::new(total);
    let template = "{prefix} [{bar:40}] {pos}/{len} games, {rate} games/s, {elapsed} elapsed, about {eta} left";
    if let Ok(style) = indicatif::ProgressStyle::with_template(template) {
        let rate = |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = w.write_str(&rulesmith::core::sim::rate_text(s.per_sec()));
        };
        bar.set_style(style.with_key("rate", rate).progress_chars("=> "));
    }
    bar.set_prefix(prefix.to_string());
    let counter = std::sync::Arc::new(AtomicU64::new(0));
    let done = AtomicBool::new(false);
    let result = std::thread::scope(|scope| {
        let (b, c, d) = (&bar, &counter, &done);
        scope.spawn(move || {
            while !d.load(Ordering::Relaxed) {
                b.set_position(c.load(Ordering::Relaxed));
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
        });
        let r = work(Some(counter.clone()));
        done.store(true, Ordering::Relaxed);
        r
    });
    bar.finish_and_clear();
    result
}

/// The power line of a report: the smallest difference its sample detects in seat 0's win
/// share and in the length, and the games `detect_pp` points need, each with 80% power for
/// the `*` the report prints after its correction ([`rulesmith::core::power`]).
pub fn power_text(
    power: &std::collections::BTreeMap<String, rulesmith::core::power::FigurePower>,
    detect_pp: f64,
) -> String {
    let Some(p) = power.get("seat 0 win share") else { return String::new() };
    let needed = p.games_needed(detect_pp / 100.0).map_or("–".to_string(), |n| n.to_string());
    let tests = p.sets.iter().map(|s| s.tests).max().unwrap_or(1);
    let rounds =
        power.get("rounds").and_then(|r| r.detectable).map_or(String::new(), |d| format!(", in rounds {d:.2}"));
    format!(
        "Power: {} paired games detect (80% power for the `*` after the correction: 5% over {tests} tests) a difference in seat 0's win share of {} pp{rounds}; {detect_pp} pp needs about {needed} paired games (--detect).\n",
        p.pairs,
        p.detectable.map_or("–".to_string(), |d| format!("{:.1}", 100.0 * d)),
    )
}

/// The power line of a single run: how far from the fair share seat 0's win share must
/// be for its games to detect it (80% power, 5% two-sided, one-sample), and the games
/// that `detect_pp` points need.
pub fn single_power_text(r: &rulesmith::core::sim::Report, detect_pp: f64) -> String {
    let n = r.games.saturating_sub(r.unfinished);
    let Some(s) = r.seats.first().filter(|_| n > 0) else { return String::new() };
    let sd = (s.win_rate * (1.0 - s.win_rate)).sqrt();
    let d = rulesmith::core::power::detectable(sd, n);
    let needed =
        rulesmith::core::power::games_needed(sd, detect_pp / 100.0).map_or("–".to_string(), |n| n.to_string());
    format!(
        "power: {n} games detect (80% power, 5% two-sided) seat 0's win share {:.1} pp away from a given share; {detect_pp} pp needs about {needed} games (--detect)\n",
        100.0 * d
    )
}
