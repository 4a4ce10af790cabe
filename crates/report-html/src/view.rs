//! The reports the pages draw: the library's own types (`rulesmith_core::sim::Report`,
//! `study::CompareReport`, `SweepReport`, `TuneReport`), and the one model a `sweep` and a
//! `tune` page share (built from either report, not read from JSON), with the text
//! helpers every part of a page shares.

pub(crate) use rulesmith_core::paired::Difference;
use rulesmith_core::sim::extremes::Extreme;
pub(crate) use rulesmith_core::sim::{Report, SeatReport};
pub(crate) use rulesmith_core::study::CompareReport;
use rulesmith_core::study::few::Note;
use rulesmith_core::study::robust::Check;
pub(crate) use rulesmith_core::study::sweep_run::VaryKey;
use rulesmith_core::study::tune_run::{Answer, Target, TuneCheck};
use rulesmith_core::study::{SweepReport, TuneReport};
use rulesmith_core::sweep::{Named, Probe};

/// One value of a sweep or one value `tune` evaluated, as the page draws it.
#[derive(Clone, Debug)]
pub(crate) struct PointView {
    pub(crate) label: String,
    pub(crate) x: Option<f64>,
    /// The value of each `--vary` key (a grid has two; none for `tune`).
    pub(crate) values: Option<Vec<String>>,
    pub(crate) base: bool,
    pub(crate) figures: Vec<Named>,
    pub(crate) differences: Vec<Difference>,
    pub(crate) few_games: Vec<Note>,
    /// A sweep's value's extreme games (none for `tune`).
    pub(crate) extremes: Vec<Extreme>,
    /// A sweep's value where every game was stopped by a safety cap: how many (none for `tune`).
    pub(crate) none_finished: Option<u64>,
}

/// What a `sweep` or `tune` page draws: figures over a swept value.
#[derive(Clone, Debug)]
pub(crate) struct SweepView {
    pub(crate) ruleset: String,
    pub(crate) x_axis: String,
    pub(crate) players: usize,
    pub(crate) games: u64,
    pub(crate) seed: u64,
    pub(crate) bots: Vec<String>,
    pub(crate) item: Option<String>,
    pub(crate) plots: Vec<String>,
    pub(crate) correction: String,
    pub(crate) points: Vec<PointView>,
    pub(crate) vary: Vec<VaryKey>,
    /// `tune`'s target: drawn as a line on its figure's plot.
    pub(crate) target: Option<Target>,
    /// `tune`'s answer and every evaluation.
    pub(crate) answer: Option<Answer>,
    pub(crate) probes: Vec<Probe>,
    /// `tune`: the ruleset's own value of the key, if it states one.
    pub(crate) base_value: Option<f64>,
    pub(crate) integer: bool,
    /// `sweep --check-with`.
    pub(crate) check: Option<Check>,
    /// `tune --check-with`.
    pub(crate) tune_check: Option<TuneCheck>,
}

impl From<&SweepReport> for SweepView {
    fn from(r: &SweepReport) -> Self {
        SweepView {
            ruleset: r.ruleset.clone().unwrap_or_default(),
            x_axis: r.x_axis.clone(),
            players: r.players,
            games: r.games,
            seed: r.seed,
            bots: r.bots.clone(),
            item: r.item.clone(),
            plots: r.plots.clone(),
            correction: r.correction.clone(),
            points: r
                .points
                .iter()
                .map(|p| PointView {
                    label: p.label.clone(),
                    x: p.x,
                    values: Some(p.values.clone()),
                    base: p.base,
                    figures: p.figures.clone(),
                    differences: p.differences.clone(),
                    few_games: p.few_games.clone(),
                    extremes: p.report.extremes.clone(),
                    none_finished: (p.report.games > 0 && p.report.unfinished >= p.report.games)
                        .then_some(p.report.games),
                })
                .collect(),
            vary: r.vary.clone(),
            target: None,
            answer: None,
            probes: Vec::new(),
            base_value: None,
            integer: false,
            check: r.check.clone(),
            tune_check: None,
        }
    }
}

impl From<&TuneReport> for SweepView {
    fn from(r: &TuneReport) -> Self {
        SweepView {
            ruleset: r.ruleset.clone(),
            x_axis: r.x_axis.clone(),
            players: r.players,
            games: r.games,
            seed: r.seed,
            bots: r.bots.clone(),
            item: r.item.clone(),
            plots: r.plots.clone(),
            correction: r.correction.clone(),
            points: r
                .points
                .iter()
                .map(|p| PointView {
                    label: p.label.clone(),
                    x: Some(p.x),
                    values: None,
                    base: p.base,
                    figures: p.figures.clone(),
                    differences: Vec::new(),
                    few_games: p.few_games.clone(),
                    extremes: Vec::new(),
                    none_finished: None,
                })
                .collect(),
            vary: Vec::new(),
            target: Some(r.target.clone()),
            answer: Some(r.answer.clone()),
            probes: r.probes.clone(),
            base_value: r.base_value,
            integer: r.integer,
            check: None,
            tune_check: r.check.clone(),
        }
    }
}

pub(crate) fn seat_label(s: &SeatReport) -> String {
    if s.bot.is_empty() { format!("seat {}", s.seat) } else { format!("seat {} ({})", s.seat, s.bot) }
}

/// Shares (win shares, ends, built shares) read as percentages.
pub(crate) fn is_share(figure: &str) -> bool {
    figure.contains("share") || figure.starts_with("ended by") || figure == "unfinished"
}

pub(crate) fn pct(v: f64) -> String {
    format!("{:.1}%", 100.0 * v)
}

pub(crate) fn num(v: f64) -> String {
    if v.abs() >= 100.0 { format!("{v:.0}") } else { format!("{v:.2}") }
}

/// Escapes text for HTML content and attribute values.
pub(crate) fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}
