//! Designer metrics: what happened in the games (buildings built, roles picked, where the
//! points came from), collected per game and summed exactly across games, threads and
//! shards.
//!
//! A game names its metrics once per ruleset ([`crate::metrics::Metrics::metric_defs`]) and fills a
//! [`MetricSheet`] per game: from a per-decision hook only where the final state cannot
//! tell (when a building was built), else from the final state. The sheet is a flat array
//! indexed by seat and metric, allocated once per game; nothing is allocated per decision.
//! The run's [`MetricTally`] holds integer sums only, so merged shards equal the unsplit run.
//!
//! Game-independent figures come with every game: score distribution, margin of victory,
//! first-player win share, and lead changes — changes of the single leader by each seat's
//! standing ([`crate::metrics::Metrics::standing`]: the score so far where the game counts it, as in
//! Puerto Rico, else the game's heuristic) between round ends, and to the winner at the end.

use crate::outcome::Outcome;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub use rulesmith_game::metrics::{KEEP, Kind, MetricDef, MetricSheet, Metrics, SCRATCH, SeatFigures, seat_count};

/// Exact sums of one metric over finished games.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MetricSums {
    /// Σ per game of the count over all seats, and Σ of its squares.
    pub sum: i64,
    pub sum_sq: u64,
    /// Σ of the rounds of the events.
    pub round_sum: i64,
    /// Games in which some seat has a count.
    pub games_with: u64,
    /// Seat-games with a count, and their win share in 60ths.
    pub seats_with: u64,
    pub win_with: u64,
}

/// The metrics of a run, as exact integer sums (inside [`crate::sim::Tally`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MetricTally {
    pub defs: Vec<MetricDef>,
    /// One per def, in order.
    pub sums: Vec<MetricSums>,
    /// Finished games counted.
    pub games: u64,
    /// Every seat's final score: how many times each score occurred.
    pub scores: BTreeMap<i64, u64>,
    /// Winning score minus the best other score, per finished game (0: tie-breaks decided).
    pub margins: BTreeMap<i64, u64>,
    /// Σ and Σ² of lead changes per game.
    pub lead_changes: u64,
    pub lead_changes_sq: u64,
    /// The run did not collect metrics (`--no-metrics`): nothing is counted or reported.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub off: bool,
}

/// `a.saturating_add(b)`, as an add and a branch where no sum overflows (the fold's
/// common case).
#[inline(always)]
fn saturating(a: i64, b: i64) -> i64 {
    match a.checked_add(b) {
        Some(v) => v,
        None => saturated(b),
    }
}

#[cold]
fn saturated(b: i64) -> i64 {
    if b < 0 { i64::MIN } else { i64::MAX }
}

fn hist_add(h: &mut BTreeMap<i64, u64>, k: i64, n: u64) -> Result<(), String> {
    let e = h.entry(k).or_default();
    *e = e.checked_add(n).ok_or("the merged sums overflow")?;
    Ok(())
}

impl MetricTally {
    pub fn new(defs: Vec<MetricDef>) -> Self {
        let sums = vec![MetricSums::default(); defs.len()];
        MetricTally { defs, sums, ..Default::default() }
    }

    /// The tally of a run that collects no metrics (`--no-metrics`).
    pub fn off() -> Self {
        MetricTally { off: true, ..Default::default() }
    }

    /// Counts one game: its outcome, flat metric values and lead changes. Unfinished
    /// games (stopped by a safety cap) are left out, as from the win rates.
    #[inline]
    pub fn add(&mut self, outcome: &Outcome, values: &[i64], lead_changes: u32) {
        if outcome.unfinished || self.off {
            return;
        }
        self.games += 1;
        let players = outcome.scores.len();
        // The seats ranked first (`Outcome::winners` without its list).
        let winners = (outcome.ranks.iter().filter(|&&r| r == 0).count() as u64).max(1);
        let won = |s: usize| if outcome.ranks.get(s) == Some(&0) { WIN_UNIT as u64 / winners } else { 0 };
        for &score in &outcome.scores {
            let _ = hist_add(&mut self.scores, i64::from(score), 1);
        }
        let best = outcome.scores.iter().copied().max().unwrap_or(0);
        let second =
            outcome.scores.iter().enumerate().filter(|&(s, _)| outcome.ranks.get(s) != Some(&0)).map(|(_, &v)| v).max();
        // Tied winners (or a win on tie-breaks alone) have a margin of 0.
        let margin = if winners > 1 { 0 } else { second.map_or(0, |v| i64::from(best) - i64::from(v)) };
        let _ = hist_add(&mut self.margins, margin, 1);
        let lc = u64::from(lead_changes);
        self.lead_changes = self.lead_changes.saturating_add(lc);
        self.lead_changes_sq = self.lead_changes_sq.saturating_add(lc * lc);
        let len = self.defs.len();
        let Some(values) = values.get(..players * len * 2).filter(|_| len > 0) else {
            self.add_short(players, values, &won);
            return;
        };
        // Each seat's row once, in seat order: per metric the same additions in the same
        // order as seat by seat. A cell with neither a count nor a round adds nothing,
        // and a metric whose total is 0 adds nothing to the sums: most cells of a game
        // are such, so they are passed over.
        let (Some(all), mut totals) = (self.sums.get_mut(..len), vec![0i64; len]) else { return };
        for s in 0..players {
            let Some(row) = values.get(s * 2 * len..(s + 1) * 2 * len) else { break };
            let won = won(s);
            for (m, (sums, total)) in all.iter_mut().zip(totals.iter_mut()).enumerate() {
                let (count, rounds) = (row[2 * m], row[2 * m + 1]);
                if count | rounds == 0 {
                    continue;
                }
                *total = saturating(*total, count);
                sums.round_sum = saturating(sums.round_sum, rounds);
                if count != 0 {
                    sums.seats_with += 1;
                    sums.win_with += won;
                }
            }
        }
        for (sums, total) in all.iter_mut().zip(totals) {
            if total != 0 {
                sums.sum = sums.sum.saturating_add(total);
                sums.sum_sq = sums.sum_sq.saturating_add(total.unsigned_abs().saturating_mul(total.unsigned_abs()));
                sums.games_with += 1;
            }
        }
    }

    /// [`Self::add`]'s metrics from values shorter than the sheet (a missing cell counts 0).
    fn add_short(&mut self, players: usize, values: &[i64], won: &dyn Fn(usize) -> u64) {
        let len = self.defs.len();
        for (m, sums) in self.sums.iter_mut().enumerate() {
            let mut total = 0i64;
            for s in 0..players {
                let i = (s * len + m) * 2;
                let (count, rounds) = (values.get(i).copied().unwrap_or(0), values.get(i + 1).copied().unwrap_or(0));
                total = total.saturating_add(count);
                sums.round_sum = sums.round_sum.saturating_add(rounds);
                if count != 0 {
                    sums.seats_with += 1;
                    sums.win_with += won(s);
                }
            }
            sums.sum = sums.sum.saturating_add(total);
            sums.sum_sq = sums.sum_sq.saturating_add(total.unsigned_abs().saturating_mul(total.unsigned_abs()));
            if total != 0 {
                sums.games_with += 1;
            }
        }
    }

    /// Adds another shard's metrics (same metric list); refuses on overflow.
    pub fn merge(&mut self, other: &MetricTally) -> Result<(), String> {
        if self.off != other.off {
            return Err("one of them was run with --no-metrics and the other with metrics".into());
        }
        if self.defs != other.defs || self.sums.len() != other.sums.len() {
            return Err("its metrics are not the same list (another game or ruleset?)".into());
        }
        let over = || "the merged sums overflow".to_string();
        let add = |a: u64, b: u64| a.checked_add(b).ok_or_else(over);
        let addi = |a: i64, b: i64| a.checked_add(b).ok_or_else(over);
        self.games = add(self.games, other.games)?;
        self.lead_changes = add(self.lead_changes, other.lead_changes)?;
        self.lead_changes_sq = add(self.lead_changes_sq, other.lead_changes_sq)?;
        for (k, &n) in &other.scores {
            hist_add(&mut self.scores, *k, n)?;
        }
        for (k, &n) in &other.margins {
            hist_add(&mut self.margins, *k, n)?;
        }
        for (a, b) in self.sums.iter_mut().zip(&other.sums) {
            a.sum = addi(a.sum, b.sum)?;
            a.sum_sq = add(a.sum_sq, b.sum_sq)?;
            a.round_sum = addi(a.round_sum, b.round_sum)?;
            a.games_with = add(a.games_with, b.games_with)?;
            a.seats_with = add(a.seats_with, b.seats_with)?;
            a.win_with = add(a.win_with, b.win_with)?;
        }
        Ok(())
    }

    /// Checks a tally read from a file: one sum per metric, counts within the games.
    pub fn check(&self, finished: u64, players: usize) -> Result<(), String> {
        if self.sums.len() != self.defs.len() {
            return Err("its metrics tally does not hold one sum per metric".into());
        }
        if self.off && (self.games != 0 || !self.defs.is_empty()) {
            return Err("its metrics tally says --no-metrics but counts metrics".into());
        }
        if self.games != finished && !(self.games == 0 && self.defs.is_empty() && self.scores.is_empty()) {
            return Err("its metrics tally does not count the finished games".into());
        }
        let seat_games = finished.saturating_mul(players as u64);
        if self.sums.iter().any(|s| s.games_with > finished || s.seats_with > seat_games) {
            return Err("its metrics tally counts more games than it has".into());
        }
        Ok(())
    }

    /// The named figures, in a stable order: game-independent first, then the game's in
    /// the order of its metric list. `first_win_share` is seat 0's exact win share.
    pub fn figures(&self, players: usize, first_win_share: f64) -> Vec<Figure> {
        if self.off {
            return Vec::new();
        }
        let n = self.games;
        let mut out = Vec::new();
        let fig = |group: &str, name: &str, figure: &str, value: f64, ci95: Option<[f64; 2]>| Figure {
            group: group.into(),
            name: name.into(),
            figure: figure.into(),
            value,
            ci95,
            n,
        };
        if n == 0 {
            return out;
        }
        let scores: u64 = self.scores.values().sum();
        for (q, label) in [(0.1, "p10"), (0.5, "median"), (0.9, "p90")] {
            out.push(fig("score", "score", label, quantile(&self.scores, scores, q), None));
        }
        let (msum, msq) = self.margins.iter().fold((0i128, 0i128), |(a, b), (&k, &c)| {
            (a + i128::from(k) * i128::from(c), b + i128::from(k) * i128::from(k) * i128::from(c))
        });
        let (mean, ci) = mean_ci(msum as f64, msq as f64, n);
        out.push(fig("score", "margin of victory", "mean", mean, Some(ci)));
        out.push(fig("score", "margin of victory", "median", quantile(&self.margins, n, 0.5), None));
        let ties = self.margins.get(&0).copied().unwrap_or(0);
        out.push(fig(
            "score",
            "margin of victory",
            "decided by tie-break share",
            ties as f64 / n as f64,
            Some(wilson(ties as f64 / n as f64, n)),
        ));
        let share = first_win_share / n as f64;
        out.push(fig("seat", "first player", "win share", share, Some(wilson(share, n))));
        if players > 0 {
            let fair = 1.0 / players as f64;
            let [lo, hi] = wilson(share, n);
            out.push(fig(
                "seat",
                "first player",
                "advantage over fair share",
                share - fair,
                Some([lo - fair, hi - fair]),
            ));
        }
        let (mean, ci) = mean_ci(self.lead_changes as f64, self.lead_changes_sq as f64, n);
        out.push(fig("lead", "lead changes", "per game", mean, Some(ci)));
        let seat_games = n.saturating_mul(players as u64);
        for (d, s) in self.defs.iter().zip(&self.sums) {
            let f = |figure: &str, value, ci95| Figure {
                group: d.group.clone(),
                name: d.name.clone(),
                figure: figure.into(),
                value,
                ci95,
                n,
            };
            let (mean, ci) = mean_ci(s.sum as f64, s.sum_sq as f64, n);
            match &d.kind {
                Kind::Count { unit } => out.push(f(&format!("{unit} per game"), mean, Some(ci))),
                Kind::Event { verb, who } => {
                    let share = s.games_with as f64 / n as f64;
                    out.push(f(&format!("{verb} share"), share, Some(wilson(share, n))));
                    out.push(f(&format!("{verb} per game"), mean, Some(ci)));
                    // Undefined where it never happened (nobody built it): NaN, `null` in
                    // JSON and `–` in text, never a misleading 0.
                    let round = if s.sum > 0 { s.round_sum as f64 / s.sum as f64 } else { f64::NAN };
                    out.push(f("mean round", round, None));
                    let unit = WIN_UNIT as f64;
                    let with = if s.seats_with > 0 { s.win_with as f64 / unit / s.seats_with as f64 } else { f64::NAN };
                    out.push(f(
                        &format!("{who} win share"),
                        with,
                        (s.seats_with > 0).then(|| wilson(with, s.seats_with)),
                    ));
                    let others = seat_games.saturating_sub(s.seats_with);
                    let won_others = (n as f64 * unit - s.win_with as f64).max(0.0) / unit;
                    let without = if others > 0 { won_others / others as f64 } else { f64::NAN };
                    out.push(f(
                        &format!("non-{who} win share"),
                        without,
                        (others > 0).then(|| wilson(without, others)),
                    ));
                }
            }
        }
        out
    }
}

/// One figure of the report's `metrics` list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Figure {
    pub group: String,
    pub name: String,
    pub figure: String,
    /// NaN where undefined (written `null`).
    #[serde(deserialize_with = "nan_if_null")]
    pub value: f64,
    /// 95% interval: Wilson for shares, normal approximation for means; `null` for
    /// quantiles and mean rounds.
    pub ci95: Option<[f64; 2]>,
    /// Games counted (finished games).
    pub n: u64,
}

/// Reads a number, `null` (an undefined figure, as NaN is written) as NaN.
fn nan_if_null<'de, D: serde::Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NAN))
}

/// `12.3%`, or `–` for an undefined share.
fn percent(v: f64) -> String {
    if v.is_finite() { format!("{:.1}%", 100.0 * v) } else { "–".to_string() }
}

/// The compact text section of a report: the game-independent figures, then the top
/// items of each of the game's groups (the JSON has every figure).
pub fn text(figures: &[Figure]) -> String {
    use std::fmt::Write as _;
    let mut o = String::new();
    let Some(n) = figures.first().map(|f| f.n) else { return o };
    let get = |group: &str, name: &str, figure: &str| {
        figures.iter().find(|f| f.group == group && f.name == name && f.figure == figure)
    };
    let v = |group: &str, name: &str, figure: &str| get(group, name, figure).map_or(0.0, |f| f.value);
    let _ = writeln!(o, "metrics ({n} finished games; --format json lists every figure):");
    let _ = writeln!(
        o,
        "  score: median {}, p10–p90 {}–{}; margin of victory {:.2} (median {}), {:.1}% decided by tie-break",
        v("score", "score", "median"),
        v("score", "score", "p10"),
        v("score", "score", "p90"),
        v("score", "margin of victory", "mean"),
        v("score", "margin of victory", "median"),
        100.0 * v("score", "margin of victory", "decided by tie-break share")
    );
    if let Some(f) = get("seat", "first player", "win share") {
        let [lo, hi] = f.ci95.unwrap_or([0.0, 1.0]);
        let fair = f.value - v("seat", "first player", "advantage over fair share");
        let _ = writeln!(
            o,
            "  first player: win share {:.1}% [{:.1}, {:.1}] (fair share {:.1}%)",
            100.0 * f.value,
            100.0 * lo,
            100.0 * hi,
            100.0 * fair
        );
    }
    let _ = writeln!(
        o,
        "  lead changes: {:.2} per game (single leader at round ends by score so far or heuristic, then the winner)",
        v("lead", "lead changes", "per game")
    );
    let mut groups: Vec<&str> = Vec::new();
    for f in figures {
        if !["score", "seat", "lead"].contains(&f.group.as_str()) && !groups.contains(&f.group.as_str()) {
            groups.push(&f.group);
        }
    }
    for g in groups {
        let items: Vec<&Figure> = figures.iter().filter(|f| f.group == g).collect();
        // Items rank by an event's times per game, or a count's first figure per game.
        let event = items.first().is_some_and(|f| f.figure.ends_with(" share"));
        let rank = items.iter().find(|f| !event || f.figure.ends_with(" per game")).map(|f| f.figure.clone());
        let mut firsts: Vec<&Figure> = items.iter().copied().filter(|f| Some(&f.figure) == rank.as_ref()).collect();
        firsts.sort_by(|a, b| b.value.total_cmp(&a.value));
        let shown = 5.min(firsts.len());
        let mut parts = Vec::new();
        for f in &firsts[..shown] {
            let mine = |pick: &dyn Fn(&str) -> bool| items.iter().find(|x| x.name == f.name && pick(&x.figure));
            if event {
                let round = mine(&|x| x == "mean round").map_or(f64::NAN, |x| x.value);
                let round = if round.is_finite() { format!("{round:.1}") } else { "–".to_string() };
                let who = mine(&|x| x.ends_with(" win share") && !x.starts_with("non-"));
                let not = mine(&|x| x.ends_with(" win share") && x.starts_with("non-"));
                let who = match (who, not) {
                    (Some(w), Some(n)) => {
                        format!(
                            ", {} {} vs {}",
                            w.figure.trim_end_matches(" share"),
                            percent(w.value),
                            percent(n.value)
                        )
                    }
                    _ => String::new(),
                };
                parts.push(format!("{} {:.2} (round {round}{who})", f.name, f.value));
            } else {
                let all: Vec<String> = items
                    .iter()
                    .filter(|x| x.name == f.name && x.figure.ends_with(" per game"))
                    .map(|x| format!("{:.2} {}", x.value, x.figure.trim_end_matches(" per game")))
                    .collect();
                parts.push(format!("{} {}", f.name, all.join(" / ")));
            }
        }
        let what = firsts.first().map_or("", |f| f.figure.as_str());
        let more = if firsts.len() > shown { format!(", … {} more", firsts.len() - shown) } else { String::new() };
        let _ = writeln!(o, "  {g} (by {what}): {}{more}", parts.join(", "));
    }
    o
}

/// Mean of a per-game value from its sums, with a normal-approximation 95% interval.
fn mean_ci(sum: f64, sum_sq: f64, n: u64) -> (f64, [f64; 2]) {
    let k = n.max(1) as f64;
    let mean = sum / k;
    let var = if n > 1 { ((sum_sq - sum * mean) / (k - 1.0)).max(0.0) } else { 0.0 };
    let half = 1.959_963_984_540_054 * (var / k).sqrt();
    (mean, [mean - half, mean + half])
}

/// The `q` quantile (lower) of a histogram holding `total` values.
fn quantile(h: &BTreeMap<i64, u64>, total: u64, q: f64) -> f64 {
    let target = ((total as f64 - 1.0).max(0.0) * q).floor() as u64;
    let mut seen = 0u64;
    for (&k, &c) in h {
        seen = seen.saturating_add(c);
        if seen > target {
            return k as f64;
        }
    }
    0.0
}

/// Follows the single leader between round ends (by [`crate::metrics::Metrics::standing`]) and counts
/// its changes.
#[derive(Clone, Copy, Debug, Default)]
pub struct Lead {
    leader: Option<usize>,
    pub changes: u32,
}

impl Lead {
    /// Notes the leader now: the seat with the highest value, if only one has it.
    pub fn note(&mut self, values: impl Iterator<Item = f64>) {
        let mut best: Option<(usize, f64)> = None;
        let mut unique = false;
        for (s, v) in values.enumerate() {
            match best {
                Some((_, b)) if v < b => {}
                Some((_, b)) if v == b => unique = false,
                _ => {
                    best = Some((s, v));
                    unique = true;
                }
            }
        }
        if let (Some((s, _)), true) = (best, unique) {
            if self.leader.is_some_and(|l| l != s) {
                self.changes += 1;
            }
            self.leader = Some(s);
        }
    }

    /// Notes the final standing: the single winner, if any.
    pub fn finish(&mut self, outcome: &Outcome) {
        if let [w] = outcome.winners()[..] {
            let w = usize::from(w);
            if self.leader.is_some_and(|l| l != w) {
                self.changes += 1;
            }
            self.leader = Some(w);
        }
    }
}

/// 60 = lcm(1..=5): a k-way shared win is a whole number of 60ths.
pub const WIN_UNIT: i64 = 60;

/// Wilson score interval at 95% for a proportion over `n` trials.
pub fn wilson(p: f64, n: u64) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let n = n as f64;
    let z = 1.959_963_984_540_054_f64;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) / n + z * z / (4.0 * n * n)).max(0.0)).sqrt() / denom;
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

/// The 95% interval of a difference `a − b` of two independent estimates from their own
/// 95% intervals, by MOVER (Zou & Donner 2008, "method of variance estimates recovery"):
/// each side takes the distance from each estimate to the bound of its own interval on that
/// side. With Wilson intervals of two shares this is Newcombe's hybrid score interval
/// (Newcombe 1998, method 10), which keeps a difference of shares inside [−1, 1] and
/// behaves well with few games and at 0% or 100%, where the normal approximation of the
/// difference runs past the possible range. Its bounds lie within `[a_lo − b_hi, a_hi −
/// b_lo]`, so the interval of a difference of such differences stays within [−2, 2].
pub fn mover(a: f64, [a_lo, a_hi]: [f64; 2], b: f64, [b_lo, b_hi]: [f64; 2]) -> [f64; 2] {
    let d = a - b;
    let lo = d - ((a - a_lo).powi(2) + (b_hi - b).powi(2)).sqrt();
    let hi = d + ((a_hi - a).powi(2) + (b - b_lo).powi(2)).sqrt();
    [lo, hi]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(scores: Vec<i32>) -> Outcome {
        Outcome::ranked(scores, vec![], "e")
    }

    #[test]
    fn events_and_margins_sum_exactly() {
        let defs = vec![MetricDef::event("building", "harbor", "built", "owner"), MetricDef::count("vp", "x", "VP")];
        let mut t = MetricTally::new(defs.clone());
        // 2 players; seat 0 builds the harbor in round 3 and wins 10–7.
        let mut sheet = MetricSheet::new(2, 2);
        sheet.event(0, 0, 3);
        sheet.add(1, 1, 5);
        t.add(&outcome(vec![10, 7]), &sheet.into_values(), 2);
        t.add(&outcome(vec![4, 4]), &MetricSheet::new(2, 2).into_values(), 0);
        assert_eq!(
            t.sums[0],
            MetricSums { sum: 1, sum_sq: 1, round_sum: 3, games_with: 1, seats_with: 1, win_with: 60 }
        );
        assert_eq!(t.margins, BTreeMap::from([(0, 1), (3, 1)]));
        let figs = t.figures(2, 1.5);
        let get = |name: &str, figure: &str| {
            figs.iter().find(|f| f.name == name && f.figure == figure).map(|f| f.value).unwrap_or(f64::NAN)
        };
        assert_eq!(get("harbor", "built share"), 0.5);
        assert_eq!(get("harbor", "mean round"), 3.0);
        assert_eq!(get("harbor", "owner win share"), 1.0);
        // Non-owners: 3 seat-games, half a win in the tie.
        assert!((get("harbor", "non-owner win share") - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(get("x", "VP per game"), 2.5);
        assert_eq!(get("lead changes", "per game"), 1.0);
        assert_eq!(get("first player", "win share"), 0.75);
        let mut a = MetricTally::new(defs);
        a.merge(&t).unwrap();
        assert_eq!(a, t);
    }

    #[test]
    fn skipping_empty_cells_sums_as_cell_by_cell() {
        let defs: Vec<MetricDef> = (0..5).map(|i| MetricDef::event("g", &format!("m{i}"), "did", "doer")).collect();
        let (mut fast, mut cells) = (MetricTally::new(defs.clone()), MetricTally::new(defs));
        let mut x = 7u64;
        for game in 0..60 {
            // Mostly zeros, some negative counts, rounds without counts.
            let values: Vec<i64> = (0..3 * 5 * 2)
                .map(|_| {
                    x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                    ((x >> 60) as i64 - 8).clamp(-3, 0) + i64::from((x >> 58) & 3 == 3)
                })
                .collect();
            let o = outcome(vec![game % 3, 1, 2]);
            fast.add(&o, &values, 0);
            let winners = o.winners().len().max(1) as u64;
            cells.add_short(3, &values, &|s| if o.ranks.get(s) == Some(&0) { WIN_UNIT as u64 / winners } else { 0 });
        }
        assert_eq!(fast.sums, cells.sums);
        assert!(fast.sums.iter().all(|s| s.seats_with > 0 && s.round_sum != 0));
    }

    #[test]
    fn lead_counts_changes_of_a_single_leader() {
        let mut l = Lead::default();
        l.note([1.0, 0.0].into_iter());
        l.note([1.0, 1.0].into_iter()); // tie: no single leader, no change
        l.note([0.0, 2.0].into_iter());
        l.finish(&outcome(vec![5, 3]));
        assert_eq!(l.changes, 2);
    }
}
