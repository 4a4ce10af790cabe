//! The reports' JSON as the pages read it (leniently: fields a page does not show are
//! ignored), and the text helpers every part of a page shares.

use serde::Deserialize;
use std::collections::BTreeMap;

/// One designer metric of a report.
#[derive(Clone, Debug, Deserialize)]
pub(crate) struct Metric {
    pub(crate) group: String,
    pub(crate) name: String,
    pub(crate) figure: String,
    pub(crate) value: f64,
    #[serde(default)]
    pub(crate) ci95: Option<[f64; 2]>,
    #[serde(default)]
    pub(crate) n: Option<u64>,
}

#[derive(Clone, Debug, Deserialize)]
pub(crate) struct SeatView {
    pub(crate) seat: usize,
    #[serde(default)]
    pub(crate) bot: String,
    pub(crate) wins: f64,
    pub(crate) win_rate: f64,
    pub(crate) win_rate_ci95: [f64; 2],
    pub(crate) score_mean: f64,
    pub(crate) score_sd: f64,
}

/// The figures of a simulation report the page shows.
#[derive(Clone, Debug, Deserialize)]
pub(crate) struct ReportView {
    pub(crate) ruleset: String,
    #[serde(default)]
    pub(crate) game: String,
    pub(crate) players: usize,
    pub(crate) seed: u64,
    #[serde(default)]
    pub(crate) bots: Vec<String>,
    pub(crate) games: u64,
    #[serde(default)]
    pub(crate) unfinished: u64,
    #[serde(default)]
    pub(crate) shard: Option<String>,
    #[serde(default)]
    pub(crate) rotate_seats: bool,
    pub(crate) seats: Vec<SeatView>,
    pub(crate) rounds_mean: f64,
    pub(crate) decisions_mean: f64,
    #[serde(default)]
    pub(crate) ends: BTreeMap<String, u64>,
    #[serde(default)]
    pub(crate) seconds: f64,
    #[serde(default)]
    pub(crate) games_per_second: f64,
    #[serde(default, deserialize_with = "metrics_leniently")]
    pub(crate) metrics: Vec<Metric>,
}

/// The metrics that have the expected shape; others (a value JSON could not hold, like a
/// NaN written as `null`) are left out rather than failing the page after a long run.
pub(crate) fn metrics_leniently<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Metric>, D::Error> {
    let raw = serde_json::Value::deserialize(d)?;
    let list = raw.as_array().map(Vec::as_slice).unwrap_or_default();
    Ok(list.iter().filter_map(|m| Metric::deserialize(m).ok()).collect())
}

#[derive(Clone, Debug, Deserialize)]
pub(crate) struct DifferenceView {
    pub(crate) figure: String,
    #[serde(default)]
    pub(crate) pairs: u64,
    pub(crate) mean: f64,
    pub(crate) ci95: [f64; 2],
    pub(crate) p_value: f64,
    pub(crate) significant: bool,
}

#[derive(Clone, Debug, Deserialize)]
pub(crate) struct DifferenceSet {
    pub(crate) ruleset: String,
    pub(crate) figures: Vec<DifferenceView>,
}

#[derive(Clone, Debug, Deserialize)]
pub(crate) struct Differences {
    #[serde(default)]
    pub(crate) from: Option<String>,
    #[serde(default)]
    pub(crate) interval: String,
    #[serde(default)]
    pub(crate) correction: String,
    pub(crate) rulesets: Vec<DifferenceSet>,
}

#[derive(Clone, Debug, Deserialize)]
pub(crate) struct CompareView {
    #[serde(default)]
    pub(crate) rotate_seats: bool,
    pub(crate) players: usize,
    pub(crate) games: u64,
    pub(crate) seed: u64,
    #[serde(default)]
    pub(crate) bots: Vec<String>,
    pub(crate) rulesets: Vec<ReportView>,
    pub(crate) differences: Differences,
}

/// One figure of a sweep's value.
#[derive(Clone, Debug, Deserialize)]
pub(crate) struct NamedView {
    pub(crate) figure: String,
    pub(crate) value: Option<f64>,
    pub(crate) ci95: Option<[f64; 2]>,
}

#[derive(Clone, Debug, Deserialize)]
pub(crate) struct PointView {
    pub(crate) label: String,
    pub(crate) x: Option<f64>,
    /// The value of each `--vary` key (a grid has two).
    #[serde(default)]
    pub(crate) values: Option<Vec<String>>,
    #[serde(default)]
    pub(crate) base: bool,
    pub(crate) figures: Vec<NamedView>,
    #[serde(default)]
    pub(crate) differences: Vec<DifferenceView>,
}

/// One `--vary` key and its values.
#[derive(Clone, Debug, Deserialize)]
pub(crate) struct VaryView {
    pub(crate) key: String,
    pub(crate) values: Vec<String>,
}

#[derive(Clone, Debug, Deserialize)]
pub(crate) struct SweepView {
    pub(crate) ruleset: String,
    pub(crate) x_axis: String,
    pub(crate) players: usize,
    pub(crate) games: u64,
    pub(crate) seed: u64,
    pub(crate) bots: Vec<String>,
    #[serde(default)]
    pub(crate) item: Option<String>,
    #[serde(default)]
    pub(crate) plots: Vec<String>,
    pub(crate) correction: String,
    pub(crate) points: Vec<PointView>,
    #[serde(default)]
    pub(crate) vary: Vec<VaryView>,
    /// `tune`'s target: drawn as a line on its figure's plot.
    #[serde(default)]
    pub(crate) target: Option<TargetView>,
    /// `tune`'s answer and every evaluation.
    #[serde(default)]
    pub(crate) answer: Option<AnswerView>,
    #[serde(default)]
    pub(crate) probes: Vec<ProbeView>,
    /// `tune`: the ruleset's own value of the key, if it states one.
    #[serde(default)]
    pub(crate) base_value: Option<f64>,
    #[serde(default)]
    pub(crate) integer: bool,
}

#[derive(Clone, Debug, Deserialize)]
pub(crate) struct TargetView {
    pub(crate) figure: String,
    pub(crate) value: f64,
}

#[derive(Clone, Debug, Deserialize)]
pub(crate) struct AnswerView {
    pub(crate) value: f64,
    pub(crate) text: String,
    pub(crate) figure: Option<f64>,
    pub(crate) ci95: Option<[f64; 2]>,
    pub(crate) interval: Option<[f64; 2]>,
    pub(crate) crossed: bool,
}

#[derive(Clone, Debug, Deserialize)]
pub(crate) struct ProbeView {
    pub(crate) value: f64,
    pub(crate) games: u64,
    pub(crate) figure: Option<f64>,
    pub(crate) ci95: Option<[f64; 2]>,
    pub(crate) pass: String,
}

pub(crate) fn seat_label(s: &SeatView) -> String {
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
