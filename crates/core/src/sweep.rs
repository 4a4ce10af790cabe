//! Sweeps of a ruleset's value: the values of `--vary KEY=A..B[:STEP]` or
//! `--vary KEY=v1,v2,…`, and the named figures a sweep reports and `tune` aims at.

use crate::sim::Report;
use serde::{Deserialize, Serialize};

/// Most values one sweep plays (all `--vary` together): each is a full comparison run.
pub const MAX_POINTS: usize = 64;

/// One `--vary`: a key and the values (TOML text) it takes.
#[derive(Clone, Debug, PartialEq)]
pub struct Vary {
    pub key: String,
    pub values: Vec<String>,
}

impl Vary {
    /// The values as numbers, where every one is a number (the x axis of the plots).
    pub fn numbers(&self) -> Option<Vec<f64>> {
        self.values.iter().map(|v| v.parse::<f64>().ok()).collect()
    }
}

/// Reads `KEY=A..B[:STEP]` (integers, or reals when any bound or the step has a point)
/// or `KEY=v1,v2,…` (TOML values; commas inside brackets or quotes do not split).
pub fn parse_vary(arg: &str) -> Result<Vary, String> {
    let Some((key, spec)) = arg.split_once('=') else {
        return Err(format!("--vary `{arg}`: expected KEY=A..B[:STEP] or KEY=v1,v2,…"));
    };
    let key = key.trim().to_string();
    if key.is_empty() || key.split('.').any(|s| s.trim().is_empty()) {
        return Err(format!("--vary `{arg}`: KEY must be a dotted path such as `buildings.harbor.cost`"));
    }
    let spec = spec.trim();
    let values = match range(spec) {
        Some(r) => r.map_err(|e| format!("--vary `{arg}`: {e}"))?,
        None => {
            let mut out = Vec::new();
            for v in split_top(spec) {
                out.push(normal(v).map_err(|e| format!("--vary `{arg}`: `{v}` {e}"))?);
            }
            out
        }
    };
    if values.is_empty() {
        return Err(format!("--vary `{arg}`: no values"));
    }
    if values.len() > MAX_POINTS {
        return Err(format!("--vary `{arg}`: {} values; at most {MAX_POINTS} are played", values.len()));
    }
    let mut seen = Vec::new();
    for v in &values {
        if seen.contains(v) {
            return Err(format!("--vary `{arg}`: `{v}` is given twice"));
        }
        seen.push(v.clone());
    }
    Ok(Vary { key, values })
}

/// A TOML value's text in one spelling (`0x10` → `16`, `[1,2]` → `[1, 2]`), so that
/// values can be compared; an error for text that is not a TOML value.
pub fn normal(text: &str) -> Result<String, String> {
    let doc: toml::Table =
        toml::from_str(&format!("v = {text}")).map_err(|_| "is not a TOML value (quote a string)".to_string())?;
    doc.get("v").map(ToString::to_string).ok_or_else(|| "is not a TOML value".to_string())
}

/// `A..B[:STEP]`: `None` when `spec` is not a range.
fn range(spec: &str) -> Option<Result<Vec<String>, String>> {
    let (ab, step) = match spec.rsplit_once(':') {
        Some((ab, step)) => (ab, Some(step.trim())),
        None => (spec, None),
    };
    let (a, b) = ab.split_once("..")?;
    let (a, b) = (a.trim(), b.trim());
    let real = [Some(a), Some(b), step].into_iter().flatten().any(|t| t.contains('.') || t.contains('e'));
    Some(if real {
        let num = |t: &str| t.parse::<f64>().ok().filter(|x| x.is_finite()).ok_or(format!("`{t}` is not a number"));
        (|| {
            let (a, b) = (num(a)?, num(b)?);
            let step = step.map(num).transpose()?.unwrap_or((b - a) / 4.0);
            if step.is_nan() || step <= 0.0 || b < a {
                return Err("expected A ≤ B and a positive STEP".to_string());
            }
            let n = ((b - a) / step + 1e-9).floor() as usize + 1;
            if n > MAX_POINTS {
                return Err(format!("{n} values; at most {MAX_POINTS} are played"));
            }
            Ok((0..n).map(|i| toml::Value::Float(a + step * i as f64).to_string()).collect())
        })()
    } else {
        let int = |t: &str| t.parse::<i64>().map_err(|_| format!("`{t}` is not an integer"));
        (|| {
            let (a, b) = (int(a)?, int(b)?);
            let step = step.map(int).transpose()?.unwrap_or(1);
            if step <= 0 || b < a {
                return Err("expected A ≤ B and a positive STEP".to_string());
            }
            let n = (b - a) / step + 1;
            if n as u64 > MAX_POINTS as u64 {
                return Err(format!("{n} values; at most {MAX_POINTS} are played"));
            }
            Ok((0..n).map(|i| (a + step * i).to_string()).collect())
        })()
    })
}

/// Splits at commas outside brackets, braces and quotes.
fn split_top(spec: &str) -> Vec<&str> {
    let (mut depth, mut quote, mut start, mut out) = (0i32, None, 0, Vec::new());
    for (i, c) in spec.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '[' | '{') => depth += 1,
            (None, ']' | '}') => depth -= 1,
            (None, ',') if depth == 0 => {
                out.push(spec[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(spec[start..].trim());
    out.retain(|v| !v.is_empty());
    out
}

/// Every combination of the values of several `--vary` (the first varies slowest).
pub fn grid(varies: &[Vary]) -> Vec<Vec<String>> {
    varies.iter().fold(vec![Vec::new()], |acc, v| {
        acc.iter()
            .flat_map(|p| {
                v.values.iter().map(move |x| {
                    let mut q = p.clone();
                    q.push(x.clone());
                    q
                })
            })
            .collect()
    })
}

/// The component a key touches: `harbor` of `buildings.harbor.cost` (the second part of
/// a key into a list of components).
pub fn item_of(key: &str) -> Option<&str> {
    let mut parts = key.split('.');
    parts.next()?;
    parts.next().filter(|s| s.parse::<usize>().is_err())
}

/// One figure of a sweep's value: named as `--figure` and `tune --target` name it.
/// `value` is `None` (JSON `null`, text `–`) where it is undefined, e.g. the win share of
/// a building's owners when nobody built it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Named {
    pub figure: String,
    pub value: Option<f64>,
    pub ci95: Option<[f64; 2]>,
}

/// The named figures of a report: `seat K win share`, `seat K score`, `rounds`,
/// `ended by E`, every designer metric as `GROUP: NAME FIGURE` (`building: harbor owner
/// win share`), and for each component `ITEM owner − non-owner win share` (interval:
/// Newcombe's hybrid score interval of the difference of two independent shares,
/// [`crate::metrics::mover`] of their Wilson intervals, so it stays within ±100 pp even
/// with few seat-games). `rounds_sd`: the
/// standard deviation of the game length, if known, for its interval.
pub fn named_figures(r: &Report, rounds_sd: Option<f64>) -> Vec<Named> {
    let z = 1.959_964;
    let finished = r.games.saturating_sub(r.unfinished);
    let mut out = Vec::new();
    let mut push = |figure: String, value: Option<f64>, ci95: Option<[f64; 2]>| {
        let value = value.filter(|v| v.is_finite());
        out.push(Named { figure, value, ci95: ci95.filter(|_| value.is_some()) });
    };
    let defined = finished > 0;
    for s in &r.seats {
        push(format!("seat {} win share", s.seat), defined.then_some(s.win_rate), Some(s.win_rate_ci95));
        let h = z * s.score_sd / (finished.max(1) as f64).sqrt();
        push(
            format!("seat {} score", s.seat),
            defined.then_some(s.score_mean),
            Some([s.score_mean - h, s.score_mean + h]),
        );
    }
    let rounds_ci = rounds_sd.map(|sd| {
        let h = z * sd / (finished.max(1) as f64).sqrt();
        [r.rounds_mean - h, r.rounds_mean + h]
    });
    push("rounds".into(), defined.then_some(r.rounds_mean), rounds_ci);
    for (end, &n) in &r.ends {
        let p = n as f64 / r.games.max(1) as f64;
        push(format!("ended by {end}"), (r.games > 0).then_some(p), Some(crate::metrics::wilson(p, r.games)));
    }
    // A share of no seat-games is undefined, not 0.
    let value_of = |f: &crate::metrics::Figure| {
        let empty = !f.value.is_finite() || (f.ci95 == Some([0.0, 1.0]) && f.value == 0.0);
        (!empty).then_some(f.value)
    };
    for f in &r.metrics {
        push(format!("{}: {} {}", f.group, f.name, f.figure), value_of(f), f.ci95);
    }
    // Owners' minus non-owners' win share of each item: the figure that says it is too strong.
    let shares: Vec<&crate::metrics::Figure> =
        r.metrics.iter().filter(|f| f.figure.ends_with(" win share") && f.group != "seat").collect();
    for (i, f) in shares.iter().enumerate() {
        if f.figure.starts_with("non-") {
            continue;
        }
        let (g, n, fig) = (&f.group, &f.name, &f.figure);
        let Some(other) =
            shares.iter().skip(i + 1).find(|o| &o.group == g && &o.name == n && o.figure == format!("non-{fig}"))
        else {
            continue;
        };
        let who = fig.trim_end_matches(" win share");
        let (a, b) = (value_of(f), value_of(other));
        let value = a.zip(b).map(|(a, b)| a - b);
        // Newcombe's hybrid score interval from the two Wilson intervals: inside ±100 pp.
        let ci = a.zip(f.ci95).zip(b.zip(other.ci95)).map(|((a, ca), (b, cb))| crate::metrics::mover(a, ca, b, cb));
        push(format!("{g}: {n} {who} − non-{who} win share"), value, ci);
    }
    out
}

/// The change of each component's owners' − non-owners' win share from `base` to `other`
/// (figures of [`named_figures`]), as differences in the designer metrics' family. The
/// games are the same, but a seat-game's ownership differs between the rulesets, so the
/// shares are not paired game by game: the interval treats the two gaps as independent
/// (conservative). It is MOVER ([`crate::metrics::mover`]) of the two gaps' Newcombe
/// intervals rather than a normal approximation: a gap's interval is asymmetric near ±100
/// pp, and the symmetric one ran past the possible range with few owners; MOVER keeps
/// within [−200, +200] pp and reduces to the normal one when both gaps are far from the
/// edges. The p-value is the normal one of the side of the interval facing zero, so a
/// difference is significant (before Holm) exactly when its interval leaves zero out.
pub fn gap_differences(base: &[Named], other: &[Named]) -> Vec<crate::paired::Difference> {
    other
        .iter()
        .filter(|f| f.figure.contains(" − non-"))
        .filter_map(|f| {
            let b = base.iter().find(|b| b.figure == f.figure)?;
            let (a, b, ca, cb) = (f.value?, b.value?, f.ci95?, b.ci95?);
            let mean = a - b;
            let ci95 = crate::metrics::mover(a, ca, b, cb);
            let toward_zero = if mean >= 0.0 { mean - ci95[0] } else { ci95[1] - mean };
            let se = toward_zero / 1.959_964;
            let p_value =
                if se > 0.0 { crate::paired::two_sided_p(mean / se) } else { f64::from(u8::from(mean == 0.0)) };
            Some(crate::paired::Difference {
                figure: f.figure.clone(),
                pairs: 0,
                mean,
                ci95,
                p_value,
                significant: false,
                sums: crate::paired::PairedSums::default(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A report of 8 seat-games with one building: `owners` of the 3 owners' seat-games
    /// won, `others` of the 5 others'.
    fn report_with_gap(owners: u64, others: u64) -> Report {
        let fig = |figure: &str, won: u64, n: u64| crate::metrics::Figure {
            group: "building".into(),
            name: "harbor".into(),
            figure: figure.into(),
            value: won as f64 / n as f64,
            ci95: Some(crate::metrics::wilson(won as f64 / n as f64, n)),
            n: 4,
        };
        let json = serde_json::json!({
            "ruleset": "r", "digest": "d", "game": "g", "players": 2, "seed": 1, "bots": ["random"],
            "run_games": 4, "games": 4, "unfinished": 0, "seats": [], "rounds_mean": 10.0,
            "decisions_mean": 50.0, "ends": {}, "seconds": 1.0, "games_per_second": 4.0,
            "tally": serde_json::to_value(crate::sim::Tally::default()).unwrap_or_default(),
        });
        let mut r: Report = serde_json::from_value(json).unwrap_or_else(|e| panic!("{e}"));
        r.metrics = vec![fig("owner win share", owners, 3), fig("non-owner win share", others, 5)];
        r
    }

    fn gap(figures: &[Named]) -> &Named {
        figures
            .iter()
            .find(|f| f.figure == "building: harbor owner − non-owner win share")
            .unwrap_or_else(|| panic!("no gap in {figures:?}"))
    }

    #[test]
    fn a_gap_of_few_games_stays_inside_the_possible_range() {
        // 3 of 3 owners won, 0 of 5 others: the gap is +100 pp, and its interval cannot
        // pass it (the normal approximation gave [+64.5, +135.5] pp).
        let strong = named_figures(&report_with_gap(3, 0), None);
        let g = gap(&strong);
        let [lo, hi] = g.ci95.unwrap_or_else(|| panic!("{g:?}"));
        assert_eq!(g.value, Some(1.0));
        assert!(0.0 < lo && lo < 1.0 && hi <= 1.0, "{g:?}");
        // Newcombe's hybrid score interval: 1 − √(0.5615² + 0.4345²) = 0.29.
        assert!((lo - 0.290).abs() < 0.001, "{g:?}");
        // And the other way round, at −100 pp.
        let weak = named_figures(&report_with_gap(0, 5), None);
        let w = gap(&weak);
        let [lo, hi] = w.ci95.unwrap_or_else(|| panic!("{w:?}"));
        assert!(-1.0 <= lo && lo < hi && hi < 0.0, "{w:?}");
        // The change of the gap between two rulesets, +200 pp at most: its interval stays
        // inside that too, and leaves zero out exactly when it is significant.
        let d = gap_differences(&weak, &strong);
        let [d] = &d[..] else { panic!("{d:?}") };
        assert_eq!(d.mean, 2.0);
        assert!(0.0 < d.ci95[0] && d.ci95[1] <= 2.0 && d.p_value < 0.05, "{d:?}");
        // An even gap on few games: an interval on both sides of zero, not significant.
        let even = named_figures(&report_with_gap(1, 2), None);
        let d = gap_differences(&even, &strong);
        let [d] = &d[..] else { panic!("{d:?}") };
        assert!(d.ci95[0] < d.mean && d.mean < d.ci95[1] && d.ci95[1] <= 2.0, "{d:?}");
        assert_eq!(d.ci95[0] > 0.0, d.p_value < 0.05, "{d:?}");
    }

    #[test]
    fn ranges_lists_and_grids() {
        assert_eq!(parse_vary("a.b=5..8").map(|v| v.values), Ok(vec!["5".into(), "6".into(), "7".into(), "8".into()]));
        assert_eq!(parse_vary("a=4..12:4").map(|v| v.values), Ok(vec!["4".into(), "8".into(), "12".into()]));
        assert_eq!(parse_vary("a=0.5..1.5:0.5").map(|v| v.values), Ok(vec!["0.5".into(), "1.0".into(), "1.5".into()]));
        assert_eq!(
            parse_vary("s=[5, 6],[5,7], \"x,y\"").map(|v| v.values),
            Ok(vec!["[5, 6]".into(), "[5, 7]".into(), "\"x,y\"".into()])
        );
        assert!(parse_vary("a=1..1000").is_err_and(|e| e.contains("at most 64")));
        assert!(parse_vary("a=5..1").is_err());
        assert!(parse_vary("a=x,y").is_err_and(|e| e.contains("quote a string")));
        assert!(parse_vary("a=1,1").is_err_and(|e| e.contains("twice")));
        assert!(parse_vary("=1,2").is_err());
        let g = grid(&[
            parse_vary("a=1,2").unwrap_or_else(|e| panic!("{e}")),
            parse_vary("b=3..5").unwrap_or_else(|e| panic!("{e}")),
        ]);
        assert_eq!(g.len(), 6);
        assert_eq!(g[1], vec!["1".to_string(), "4".to_string()]);
        assert_eq!(item_of("buildings.harbor.cost"), Some("harbor"));
        assert_eq!(item_of("setup.ships.4"), Some("ships"));
        assert_eq!(item_of("rules"), None);
    }
}

/// The range of `tune --vary KEY=A..B[:STEP]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Span {
    pub lo: f64,
    pub hi: f64,
    /// The finest resolution searched: 1 for integer keys unless given; for reals, the
    /// given STEP or (B − A) / 64.
    pub step: f64,
    pub integer: bool,
}

impl Span {
    /// A value as TOML text: an integer, or a float with its point.
    pub fn text(&self, x: f64) -> String {
        if self.integer { format!("{}", x.round() as i64) } else { toml::Value::Float(x).to_string() }
    }

    /// `x` moved onto the grid of `step` from `lo`, inside the range.
    fn snap(&self, x: f64) -> f64 {
        let k = ((x - self.lo) / self.step).round();
        (self.lo + k * self.step).clamp(self.lo, self.hi)
    }
}

/// Reads `KEY=A..B[:STEP]` for `tune`.
pub fn parse_span(arg: &str) -> Result<(String, Span), String> {
    let bad = || format!("--vary `{arg}`: expected KEY=A..B[:STEP] (integers, or reals with a decimal point)");
    let (key, spec) = arg.split_once('=').ok_or_else(bad)?;
    let key = key.trim();
    if key.is_empty() {
        return Err(bad());
    }
    let (ab, step) = match spec.rsplit_once(':') {
        Some((ab, s)) => (ab, Some(s.trim())),
        None => (spec, None),
    };
    let (a, b) = ab.split_once("..").ok_or_else(bad)?;
    let (a, b) = (a.trim(), b.trim());
    let integer = [Some(a), Some(b), step].into_iter().flatten().all(|t| t.parse::<i64>().is_ok());
    let num = |t: &str| t.parse::<f64>().ok().filter(|x| x.is_finite()).ok_or_else(bad);
    let (lo, hi) = (num(a)?, num(b)?);
    let step = match step {
        Some(s) => num(s)?,
        None if integer => 1.0,
        None => (hi - lo) / 64.0,
    };
    if !(lo < hi && step > 0.0 && (hi - lo) / step <= 1e6) {
        return Err(format!("--vary `{arg}`: expected A < B and a positive STEP, at most a million steps"));
    }
    Ok((key.to_string(), Span { lo, hi, step, integer }))
}

/// One evaluation of `tune`: the figure at a value, over some games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Probe {
    pub value: f64,
    pub games: u64,
    pub figure: Option<f64>,
    pub ci95: Option<[f64; 2]>,
    /// `coarse`, `refine` or `confirm`.
    pub pass: String,
}

/// What `tune` found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Tuned {
    /// The value whose figure is closest to the target (after the confirming games).
    pub value: f64,
    /// The figure there.
    pub figure: Option<f64>,
    pub ci95: Option<[f64; 2]>,
    /// The values whose 95% interval of the figure holds the target: a 95% range for the
    /// value (lowest and highest evaluated such value, widened to the crossing of the
    /// interval band for real keys); `None` when no evaluated value's interval holds it.
    pub interval: Option<[f64; 2]>,
    /// Whether the figure crosses the target inside the range (else the closest end).
    pub crossed: bool,
    /// Every evaluation, in the order made.
    pub probes: Vec<Probe>,
}

/// Most evaluations one `tune` makes (coarse, refining and confirming together).
pub const MAX_PROBES: usize = 24;

/// The evaluations [`tune`] is expected to make, pass by pass (for the time left on its
/// progress bars): the coarse values, the steps that narrow the widest coarse gap to one
/// STEP (halving integers; interpolation narrows reals by at least a fifth a step), and
/// the two confirming evaluations of 4 × --games games each (up to three more may follow
/// when the confirmed ends fall on one side: an estimate, not a bound).
pub fn tune_plan(span: Span) -> [usize; 3] {
    let mut coarse: Vec<f64> = (0..5).map(|i| span.snap(span.lo + (span.hi - span.lo) * i as f64 / 4.0)).collect();
    coarse.dedup();
    let gap = coarse.windows(2).map(|w| w[1] - w[0]).fold(0.0, f64::max);
    let cells = (gap / span.step).max(1.0);
    let shrink: f64 = if span.integer { 0.5 } else { 0.8 };
    let refine = (cells.ln() / (1.0 / shrink).ln()).ceil().max(0.0) as usize;
    let refine = refine.min(MAX_PROBES.saturating_sub(coarse.len() + 2));
    [coarse.len(), refine, 2]
}

/// Finds the value of `span` that brings a figure closest to `target`, spending games
/// where they decide the answer. `eval(value, games)` plays `games` games at `value`
/// (the same seeds at every value) and returns the figure with its 95% interval.
///
/// The stopping rule, in full:
/// 1. **Coarse pass**: 5 values evenly over the range (both ends included, on the grid
///    of STEP), `games` games each.
/// 2. **Bracket**: the neighbouring pair whose figures lie on either side of the target
///    (the first such pair, from the low end). None: the target is not crossed; the
///    evaluated value closest to it is the answer.
/// 3. **Refine**: the bracket is narrowed, `games` games per new value, by bisection for
///    integer keys and by linear interpolation (regula falsi, kept off the ends) for real
///    keys, until its ends are one STEP apart, or the figure hits the target exactly.
/// 4. **Confirm**: the two ends of the final bracket are played again with 4 × `games`
///    games. If both now fall on one side of the target, the next value towards the
///    crossing is confirmed too (a STEP at a time, at most 3). The confirmed value whose
///    figure is closest to the target is the answer; for real keys the crossing between
///    the confirmed neighbours on either side, by linear interpolation, on the grid of STEP.
///
/// At most [`MAX_PROBES`] evaluations are made. The interval is the range of values whose
/// 95% interval of the figure holds the target, among the confirmed and refined values.
pub fn tune<E>(
    span: Span,
    target: f64,
    games: u64,
    mut eval: impl FnMut(f64, u64, &'static str) -> Result<(Option<f64>, Option<[f64; 2]>), E>,
) -> Result<Tuned, E> {
    let mut probes: Vec<Probe> = Vec::new();
    let mut probe = |x: f64, n: u64, pass: &'static str, probes: &mut Vec<Probe>| -> Result<Option<f64>, E> {
        if let Some(p) = probes.iter().find(|p| p.value == x && p.games == n) {
            return Ok(p.figure);
        }
        let (figure, ci95) = eval(x, n, pass)?;
        probes.push(Probe { value: x, games: n, figure, ci95, pass: pass.to_string() });
        Ok(figure)
    };
    // 1. Coarse.
    let mut coarse: Vec<f64> = (0..5).map(|i| span.snap(span.lo + (span.hi - span.lo) * i as f64 / 4.0)).collect();
    coarse.dedup();
    let mut seen: Vec<(f64, f64)> = Vec::new();
    for &x in &coarse {
        if let Some(f) = probe(x, games, "coarse", &mut probes)? {
            seen.push((x, f - target));
        }
    }
    // 2. Bracket.
    let bracket = seen.windows(2).find(|w| w[0].1 == 0.0 || w[0].1.signum() != w[1].1.signum()).map(|w| (w[0], w[1]));
    let crossed = bracket.is_some();
    let finals: Vec<f64> = match bracket {
        None => {
            let best = seen.iter().min_by(|a, b| a.1.abs().total_cmp(&b.1.abs())).map_or(span.lo, |b| b.0);
            vec![best]
        }
        Some(((mut a, mut fa), (mut b, mut fb))) => {
            // 3. Refine.
            while fa != 0.0 && b - a > span.step * 1.0001 && probes.len() + 2 < MAX_PROBES {
                let mid = if span.integer {
                    span.snap((a + b) / 2.0)
                } else {
                    let t = (fa / (fa - fb)).clamp(0.2, 0.8);
                    span.snap(a + t * (b - a))
                };
                let mid = if mid <= a || mid >= b { span.snap(a + span.step) } else { mid };
                if mid <= a || mid >= b {
                    break;
                }
                let Some(fm) = probe(mid, games, "refine", &mut probes)?.map(|f| f - target) else { break };
                if fm == 0.0 {
                    (a, fa) = (mid, 0.0);
                } else if fm.signum() == fa.signum() {
                    (a, fa) = (mid, fm);
                } else {
                    (b, fb) = (mid, fm);
                }
            }
            if fa == 0.0 { vec![a] } else { vec![a, b] }
        }
    };
    // 4. Confirm with more games.
    let mut confirmed: Vec<(f64, f64)> = Vec::new();
    for &x in &finals {
        if let Some(f) = probe(x, games.saturating_mul(4), "confirm", &mut probes)? {
            confirmed.push((x, f - target));
        }
    }
    // With more games both ends may fall on one side of the target (the coarse games
    // were noisy): step on towards the crossing, a STEP at a time, at most 3 steps.
    let low_sign = bracket.map(|((_, fa), _)| fa.signum());
    for _ in 0..3 {
        let (Some(low_sign), true) = (low_sign, confirmed.len() >= 2 || finals.len() == 1) else { break };
        if confirmed.iter().any(|c| c.1 == 0.0) || confirmed.windows(2).any(|w| w[0].1.signum() != w[1].1.signum()) {
            break;
        }
        let Some(side) = confirmed.first().map(|c| c.1.signum()) else { break };
        let (lo, hi) = confirmed.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), c| (l.min(c.0), h.max(c.0)));
        let next = if side == low_sign { span.snap(hi + span.step) } else { span.snap(lo - span.step) };
        if confirmed.iter().any(|c| c.0 == next) || probes.len() >= MAX_PROBES {
            break;
        }
        match probe(next, games.saturating_mul(4), "confirm", &mut probes)? {
            Some(f) => {
                confirmed.push((next, f - target));
                confirmed.sort_by(|a, b| a.0.total_cmp(&b.0));
            }
            None => break,
        }
    }
    let mut value = confirmed.iter().min_by(|a, b| a.1.abs().total_cmp(&b.1.abs())).map_or(finals[0], |c| c.0);
    if !span.integer {
        if let Some(w) = confirmed.windows(2).find(|w| w[0].1.signum() != w[1].1.signum() && w[0].1 != w[1].1) {
            let ((a, fa), (b, fb)) = (w[0], w[1]);
            value = span.snap(a + fa / (fa - fb) * (b - a));
        }
    }
    let at = |x: f64| probes.iter().filter(|p| p.value == x).max_by_key(|p| p.games);
    let holds: Vec<f64> = {
        let mut xs: Vec<f64> = probes.iter().map(|p| p.value).collect();
        xs.sort_by(f64::total_cmp);
        xs.dedup();
        xs.into_iter()
            .filter(|&x| at(x).and_then(|p| p.ci95).is_some_and(|c| c[0] <= target && target <= c[1]))
            .collect()
    };
    let interval = match (holds.first(), holds.last()) {
        (Some(&lo), Some(&hi)) => Some([lo.min(value), hi.max(value)]),
        _ => None,
    };
    let best = at(value);
    Ok(Tuned { value, figure: best.and_then(|p| p.figure), ci95: best.and_then(|p| p.ci95), interval, crossed, probes })
}

#[cfg(test)]
mod tune_tests {
    use super::*;

    /// Issue 47: tune's plan for the time left: 5 coarse values, the bisection of a gap of
    /// 2 (one step) or of 16 (four halvings), and two confirming ends.
    #[test]
    fn the_plan_counts_the_evaluations_ahead() {
        let plan = |arg: &str| tune_plan(parse_span(arg).unwrap_or_else(|e| panic!("{e}")).1);
        assert_eq!(plan("k=4..12"), [5, 1, 2]);
        assert_eq!(plan("k=0..64"), [5, 4, 2]);
        assert_eq!(plan("k=1..3"), [3, 0, 2]);
    }

    /// A figure falling linearly through the target at 6.3 with ±0.05 intervals: integer
    /// keys end on 6, real keys near 6.3, with few evaluations.
    #[test]
    fn finds_the_crossing_with_few_evaluations() {
        let f = |x: f64| 0.63 - 0.1 * x;
        let eval = |x: f64, _n: u64, _p: &'static str| Ok::<_, ()>((Some(f(x)), Some([f(x) - 0.05, f(x) + 0.05])));
        let (_, span) = parse_span("k=4..12").unwrap_or_else(|e| panic!("{e}"));
        let t = tune(span, 0.0, 100, eval).unwrap_or_else(|()| panic!());
        assert_eq!(t.value, 6.0);
        assert!(t.crossed);
        assert!(t.probes.len() <= 9, "{:?}", t.probes);
        assert_eq!(t.interval, Some([6.0, 6.0]));
        let (_, span) = parse_span("k=4.0..12.0:0.01").unwrap_or_else(|e| panic!("{e}"));
        let t = tune(span, 0.0, 100, eval).unwrap_or_else(|()| panic!());
        assert!((t.value - 6.3).abs() < 0.02, "{t:?}");
        // Not crossed: the closest end.
        let t = tune(span, 5.0, 100, eval).unwrap_or_else(|()| panic!());
        assert!(!t.crossed && t.value == 4.0 && t.interval.is_none(), "{t:?}");
        assert!(parse_span("k=5..1").is_err() && parse_span("k=1,2").is_err());
    }
}
