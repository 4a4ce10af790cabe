//! Paired comparison of rulesets: the same seeds and bots under each ruleset, so each
//! figure's difference is measured game by game (far tighter than comparing two means).
//!
//! Every per-game value is an integer in its figure's unit (win shares in 60ths, since a
//! win shared by k ≤ 5 players is a whole number of 60ths), so the sums of the paired
//! differences and of their squares are exact and merge across shards.

use crate::metrics::{self, Kind, MetricDef};
use crate::sim::GameResult;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub use crate::metrics::WIN_UNIT;

/// A game's figures, as integers in their units (see [`figure_scale`]), with its designer
/// metrics (`defs`: the game's [`crate::metrics::Metrics::metric_defs`]) summed over the seats, each
/// named `"<group>: <item> <verb or unit>"` (e.g. `building: harbor built`), and the
/// game-independent `score: margin of victory` and `lead: lead changes`.
pub fn game_figures(r: &GameResult, players: usize, defs: &[MetricDef]) -> BTreeMap<String, i64> {
    let mut f = BTreeMap::new();
    if r.outcome.unfinished {
        f.insert("unfinished".to_string(), 1);
        return f;
    }
    f.insert("unfinished".to_string(), 0);
    let winners = r.outcome.winners().len().max(1) as i64;
    for s in 0..players {
        let won = r.outcome.ranks.get(s) == Some(&0);
        f.insert(format!("seat {s} win share"), if won { WIN_UNIT / winners } else { 0 });
        f.insert(format!("seat {s} score"), i64::from(r.outcome.scores.get(s).copied().unwrap_or(0)));
    }
    f.insert("rounds".to_string(), i64::from(r.rounds));
    f.insert(format!("ended by {}", r.outcome.end), 1);
    let best = r.outcome.scores.iter().copied().max().unwrap_or(0);
    let second =
        (0..players).filter(|&s| r.outcome.ranks.get(s) != Some(&0)).filter_map(|s| r.outcome.scores.get(s)).max();
    let margin = if winners > 1 { 0 } else { second.map_or(0, |&v| i64::from(best) - i64::from(v)) };
    f.insert("score: margin of victory".to_string(), margin);
    f.insert("lead: lead changes".to_string(), i64::from(r.lead_changes));
    for (m, d) in defs.iter().enumerate() {
        let what = match &d.kind {
            Kind::Count { unit } => unit,
            Kind::Event { verb, .. } => verb,
        };
        let total = (0..players).map(|s| metrics::seat_count(&r.metrics, defs.len(), s, m)).sum();
        f.insert(format!("{}: {} {what}", d.group, d.name), total);
    }
    f
}

/// Whether a paired figure is a designer metric (named `"<group>: …"`).
pub fn is_metric(figure: &str) -> bool {
    figure.contains(": ")
}

/// The unit of a figure's integer values.
pub fn figure_scale(name: &str) -> f64 {
    if name.ends_with("win share") { WIN_UNIT as f64 } else { 1.0 }
}

/// Exact sums of one figure's paired differences (ruleset − first ruleset).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PairedSums {
    pub n: u64,
    pub sum: i64,
    pub sum_sq: u64,
}

impl PairedSums {
    pub fn add(&mut self, d: i64) {
        self.n += 1;
        self.sum = self.sum.saturating_add(d);
        self.sum_sq = self.sum_sq.saturating_add(d.unsigned_abs().saturating_mul(d.unsigned_abs()));
    }
}

/// Pairs the games of two rulesets, game by game. Finished-game figures (win shares,
/// scores, length, ends) count only pairs where both games finished; `unfinished` counts all.
pub fn pair(first: &[BTreeMap<String, i64>], other: &[BTreeMap<String, i64>]) -> BTreeMap<String, PairedSums> {
    let mut p = Pairing::default();
    p.add(first, other);
    p.finish()
}

/// Paired sums fed block by block ([`pair`] over all the blocks at once), so that a long
/// comparison keeps one block's per-game figures at a time, never all of them.
#[derive(Clone, Debug, Default)]
pub struct Pairing {
    sums: BTreeMap<String, PairedSums>,
    /// Pairs in which both games finished.
    both: u64,
}

impl Pairing {
    /// Adds a block of games paired by position (the same seeds and bots, in order).
    pub fn add(&mut self, first: &[BTreeMap<String, i64>], other: &[BTreeMap<String, i64>]) {
        let out = &mut self.sums;
        for (a, b) in first.iter().zip(other) {
            let (ua, ub) = (a.get("unfinished").copied().unwrap_or(0), b.get("unfinished").copied().unwrap_or(0));
            out.entry("unfinished".into()).or_default().add(ub - ua);
            if ua != 0 || ub != 0 {
                continue;
            }
            self.both += 1;
            let mut names: Vec<&String> = a.keys().chain(b.keys()).filter(|k| *k != "unfinished").collect();
            names.sort();
            names.dedup();
            for k in names {
                let d = b.get(k).copied().unwrap_or(0) - a.get(k).copied().unwrap_or(0);
                out.entry(k.clone()).or_default().add(d);
            }
        }
    }

    /// The sums of every pair added.
    pub fn finish(mut self) -> BTreeMap<String, PairedSums> {
        // A pair in which neither game ended this way is a zero difference, counted too.
        for (k, p) in self.sums.iter_mut() {
            if k.starts_with("ended by") {
                p.n = self.both;
            }
        }
        self.sums
    }
}

/// The largest size of one game's paired difference of a figure, where the figure has one:
/// a win share moves by at most a whole win, an end or an unfinished game by one game.
fn figure_bound(name: &str) -> Option<u64> {
    if name.ends_with("win share") {
        Some(WIN_UNIT.unsigned_abs())
    } else if name.starts_with("ended by") || name == "unfinished" {
        Some(1)
    } else {
        None
    }
}

/// Checks that sums read from a file could come from `n` integer differences: no sum of
/// squares smaller than the sum allows (Cauchy–Schwarz), the parity of `Σd²` that of `Σd`,
/// and no difference beyond the figure's bound.
pub fn check_sums(name: &str, s: &PairedSums) -> Result<(), String> {
    let (n, sum, sq) = (i128::from(s.n), i128::from(s.sum), i128::from(s.sum_sq));
    if n == 0 && (sum != 0 || sq != 0) {
        return Err(format!("`{name}` has sums over 0 pairs"));
    }
    if sum * sum > n * sq {
        return Err(format!("`{name}`: sum {sum} and sum of squares {sq} over {n} pairs cannot both hold"));
    }
    if (sq - sum) % 2 != 0 {
        return Err(format!(
            "`{name}`: sum {sum} and sum of squares {sq} differ in parity, which integer differences never do"
        ));
    }
    if let Some(m) = figure_bound(name).map(i128::from) {
        if sum.abs() > n * m || sq > n * m * m {
            return Err(format!("`{name}`: sums beyond what {n} pairs can reach (each moves by at most {m})"));
        }
    }
    Ok(())
}

/// The paired sums of one ruleset against the base, merged from the shards of a run:
/// exactly the unsplit run's [`Pairing::finish`], with `unfinished` left out where no
/// pair differs in it, as `compare` and `sweep` report them.
#[derive(Clone, Debug, Default)]
pub struct SumsMerge {
    sums: BTreeMap<String, PairedSums>,
    /// Pairs over all shards, and those where both games finished.
    pairs: u64,
    both: u64,
}

impl SumsMerge {
    /// Adds a shard's sums. `pairs`: its paired games (all of them); `finished`: at most
    /// how many of them both games finished (the fewer finished games of the two).
    /// Refuses sums no games can make.
    pub fn add(&mut self, pairs: u64, finished: u64, sums: &BTreeMap<String, PairedSums>) -> Result<(), String> {
        let mut both: Option<(&str, u64)> = None;
        for (name, s) in sums {
            check_sums(name, s)?;
            if name == "unfinished" {
                if s.n != pairs {
                    return Err(format!("`unfinished` counts {} pairs of {pairs}", s.n));
                }
                continue;
            }
            match both {
                None => both = Some((name, s.n)),
                Some((first, n)) if n != s.n => {
                    return Err(format!(
                        "`{name}` counts {} pairs, `{first}` {n}: every finished figure counts the same pairs",
                        s.n
                    ));
                }
                Some(_) => {}
            }
        }
        let both = both.map_or(0, |(_, n)| n);
        if both > finished {
            return Err(format!("its sums count {both} pairs of finished games, more than the {finished} finished"));
        }
        let over = || "the merged sums overflow".to_string();
        for (name, s) in sums {
            let e = self.sums.entry(name.clone()).or_default();
            e.n = e.n.checked_add(s.n).ok_or_else(over)?;
            e.sum = e.sum.checked_add(s.sum).ok_or_else(over)?;
            e.sum_sq = e.sum_sq.checked_add(s.sum_sq).ok_or_else(over)?;
        }
        self.pairs = self.pairs.checked_add(pairs).ok_or_else(over)?;
        self.both = self.both.checked_add(both).ok_or_else(over)?;
        Ok(())
    }

    /// The merged sums: a pair in which neither game ended a way (or both finished) is a
    /// zero difference of that end (of `unfinished`), whichever shard it was in.
    pub fn finish(self) -> Result<BTreeMap<String, PairedSums>, String> {
        let mut sums = self.sums;
        for (name, s) in sums.iter_mut() {
            if name.starts_with("ended by") {
                s.n = self.both;
            } else if name == "unfinished" {
                s.n = self.pairs;
            } else if s.n != self.both {
                return Err(format!("`{name}` is missing from some shard's sums"));
            }
        }
        if sums.get("unfinished").is_some_and(|u| u.sum_sq == 0) {
            sums.remove("unfinished");
        }
        Ok(sums)
    }
}

/// Checks a shard's paired sums against the two tallies they pair (`base`, then the
/// other ruleset's), where no game was unfinished and so every game is paired: the sums of
/// the win shares, scores, lengths and ends are the differences of the tallies' totals.
pub fn check_against_tallies(
    sums: &BTreeMap<String, PairedSums>,
    base: &crate::sim::Tally,
    other: &crate::sim::Tally,
) -> Result<(), String> {
    if base.unfinished != 0 || other.unfinished != 0 || base.games != other.games {
        return Ok(());
    }
    let units = |t: &crate::sim::Tally, s: usize| -> i128 {
        t.wins.get(s).map_or(0, |w| {
            w.iter().enumerate().map(|(k, &n)| i128::from(n) * i128::from(WIN_UNIT / (k as i64 + 1))).sum()
        })
    };
    let mut expected: Vec<(String, i128)> = Vec::new();
    for s in 0..base.players().min(other.players()) {
        expected.push((format!("seat {s} win share"), units(other, s) - units(base, s)));
        let score = |t: &crate::sim::Tally| i128::from(t.score_sum.get(s).copied().unwrap_or(0));
        expected.push((format!("seat {s} score"), score(other) - score(base)));
    }
    expected.push(("rounds".into(), i128::from(other.rounds_sum) - i128::from(base.rounds_sum)));
    let mut ends: Vec<&String> = base.ends.keys().chain(other.ends.keys()).collect();
    ends.sort();
    ends.dedup();
    for e in ends {
        let n = |t: &crate::sim::Tally| i128::from(t.ends.get(e).copied().unwrap_or(0));
        expected.push((format!("ended by {e}"), n(other) - n(base)));
    }
    for (name, want) in expected {
        let got = sums.get(&name).map_or(0, |s| i128::from(s.sum));
        if got != want && base.games > 0 {
            return Err(format!("`{name}` sums to {got}, but the reports' tallies differ by {want}"));
        }
    }
    Ok(())
}

/// A figure's difference with its 95% interval and two-sided p-value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Difference {
    pub figure: String,
    pub pairs: u64,
    pub mean: f64,
    pub ci95: [f64; 2],
    pub p_value: f64,
    /// Significant at 5% after the Holm–Bonferroni correction within its family: the
    /// outcome figures, or the designer metrics (see [`differences`]).
    pub significant: bool,
    /// The exact sums the figures come from (mergeable).
    pub sums: PairedSums,
}

/// Differences with 95% intervals (normal approximation of the mean paired difference)
/// and Holm–Bonferroni significance at family-wise 5% within each of two families: the
/// outcome figures (win shares, scores, rounds, ends, unfinished games: what a designer
/// asks first) and the designer metrics ([`is_metric`]). Fifty metrics must not take the
/// power to see a change in balance from the dozen outcome figures.
pub fn differences(sums: &BTreeMap<String, PairedSums>) -> Vec<Difference> {
    let mut out: Vec<Difference> = sums
        .iter()
        .map(|(name, s)| {
            let scale = figure_scale(name);
            let n = s.n.max(1) as f64;
            let mean = s.sum as f64 / n;
            let var = if s.n > 1 { ((s.sum_sq as f64 - s.sum as f64 * mean) / (n - 1.0)).max(0.0) } else { 0.0 };
            let se = (var / n).sqrt();
            let z = 1.959_963_984_540_054_f64;
            let p_value = if se > 0.0 {
                erfc((mean / se).abs() / std::f64::consts::SQRT_2)
            } else if mean == 0.0 {
                1.0
            } else {
                0.0
            };
            Difference {
                figure: name.clone(),
                pairs: s.n,
                mean: mean / scale,
                ci95: [(mean - z * se) / scale, (mean + z * se) / scale],
                p_value,
                significant: false,
                sums: s.clone(),
            }
        })
        .collect();
    for metrics in [false, true] {
        let family: Vec<usize> = (0..out.len()).filter(|&i| is_metric(&out[i].figure) == metrics).collect();
        holm(&mut out, family);
    }
    out
}

/// Redoes the significance of one set of differences (after figures were added to it), as
/// [`differences`] judges it: Holm–Bonferroni within the outcome figures and, apart, within
/// the designer metrics.
pub fn rejudge(diffs: &mut [Difference]) {
    for d in diffs.iter_mut() {
        d.significant = false;
    }
    for metrics in [false, true] {
        let family: Vec<usize> = (0..diffs.len()).filter(|&i| is_metric(&diffs[i].figure) == metrics).collect();
        holm(diffs, family);
    }
}

/// Redoes the significance of several sets of differences (each value of a sweep against
/// its base) as one test: Holm–Bonferroni at family-wise 5% over the outcome figures of
/// every set together, and apart over the designer metrics of every set together, so
/// that testing many values does not make chance differences look significant.
pub fn holm_across(sets: &mut [Vec<Difference>]) {
    for metrics in [false, true] {
        let mut all: Vec<Difference> = Vec::new();
        let mut at: Vec<(usize, usize)> = Vec::new();
        for (k, set) in sets.iter().enumerate() {
            for (i, d) in set.iter().enumerate().filter(|(_, d)| is_metric(&d.figure) == metrics) {
                all.push(Difference { significant: false, ..d.clone() });
                at.push((k, i));
            }
        }
        let family: Vec<usize> = (0..all.len()).collect();
        holm(&mut all, family);
        for (d, (k, i)) in all.into_iter().zip(at) {
            sets[k][i].significant = d.significant;
        }
    }
}

impl Difference {
    /// The standard deviation of one game's paired difference, in the figure's unit.
    pub fn sd(&self) -> f64 {
        let s = &self.sums;
        if s.n < 2 {
            return f64::NAN;
        }
        let n = s.n as f64;
        let mean = s.sum as f64 / n;
        (((s.sum_sq as f64 - s.sum as f64 * mean) / (n - 1.0)).max(0.0)).sqrt() / figure_scale(&self.figure)
    }
}

/// Holm over the figures `family` of `out`: sort p ascending; reject while
/// p_(i) ≤ α / (m − i).
fn holm(out: &mut [Difference], mut family: Vec<usize>) {
    let m = family.len();
    family.sort_by(|&a, &b| out[a].p_value.total_cmp(&out[b].p_value));
    for (i, &j) in family.iter().enumerate() {
        if out[j].p_value <= 0.05 / (m - i) as f64 {
            out[j].significant = true;
        } else {
            break;
        }
    }
}

/// The two-sided p-value of a standard normal statistic `z`.
pub fn two_sided_p(z: f64) -> f64 {
    erfc(z.abs() / std::f64::consts::SQRT_2)
}

/// The complementary error function (Abramowitz & Stegun 7.1.26, |error| < 1.5e-7:
/// ample for a p-value compared against a threshold).
fn erfc(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly =
        t * (0.254_829_592 + t * (-0.284_496_736 + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let r = poly * (-x * x).exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::power::{detectable, games_needed};

    #[test]
    fn holm_marks_clear_differences_only() {
        let mut sums = BTreeMap::new();
        let mut clear = PairedSums::default();
        let mut noise = PairedSums::default();
        for i in 0..1000 {
            clear.add(2 + i % 3);
            noise.add(if i % 2 == 0 { 1 } else { -1 });
        }
        sums.insert("clear".to_string(), clear);
        sums.insert("noise".to_string(), noise);
        let d = differences(&sums);
        assert!(d[0].significant && d[0].ci95[0] > 2.8 && d[0].ci95[1] < 3.2, "{:?}", d[0]);
        assert!(!d[1].significant && d[1].ci95[0] < 0.0 && d[1].ci95[1] > 0.0, "{:?}", d[1]);
        assert!((erfc(1.959_963_984_540_054 / std::f64::consts::SQRT_2) - 0.05).abs() < 1e-6);
    }

    /// The outcome figures and the designer metrics are corrected as two families: the
    /// same p (0.0037) is significant for `rounds`, alone in its family, and not for a
    /// metric among 61.
    #[test]
    fn holm_corrects_outcomes_and_metrics_apart() {
        let clear = PairedSums { n: 100, sum: 29, sum_sq: 107 };
        let mut sums = BTreeMap::from([("rounds".to_string(), clear.clone()), ("vp: x".to_string(), clear)]);
        for k in 0..60 {
            sums.insert(format!("building: b{k} built"), PairedSums { n: 100, sum: 0, sum_sq: 100 });
        }
        let d = differences(&sums);
        let get = |f: &str| d.iter().find(|x| x.figure == f).unwrap_or_else(|| panic!("{f}"));
        assert!((get("rounds").p_value - 0.0037).abs() < 2e-4, "{:?}", get("rounds"));
        assert!(get("rounds").significant);
        assert!(!get("vp: x").significant, "0.0037 > 0.05 / 61");
        // Across a sweep of 20 such sets, `rounds` is one of 20 outcome tests.
        let mut sets = vec![d.clone(); 20];
        holm_across(&mut sets);
        assert!(sets.iter().all(|s| s.iter().all(|x| !x.significant)), "0.0037 > 0.05 / 20");
        // Power: sd 1 and 100 games detect 0.28; 0.28 needs 100 games.
        assert!((detectable(1.0, 100) - 0.28).abs() < 1e-3);
        assert_eq!(games_needed(1.0, 0.28016), Some(100));
    }

    /// A game's figures, as [`game_figures`] makes them: unfinished, or ended one of two
    /// ways with a win and a length.
    fn game(kind: u8, seat0_won: bool, rounds: i64) -> BTreeMap<String, i64> {
        let mut f = BTreeMap::from([("unfinished".to_string(), i64::from(kind == 0))]);
        if kind != 0 {
            f.insert("seat 0 win share".into(), if seat0_won { WIN_UNIT } else { 0 });
            f.insert("rounds".into(), rounds);
            f.insert(format!("ended by {}", if kind == 1 { "pile" } else { "target" }), 1);
        }
        f
    }

    proptest::proptest! {
        /// Paired sums merged from shards, split any way, are the unsplit pairing's: an end
        /// seen in one shard only counts the pairs of every shard (#42: its difference was
        /// doubled), `unfinished` too.
        #[test]
        fn merged_shards_pair_as_the_whole(
            games in proptest::collection::vec(((0u8..3, proptest::bool::ANY, 1i64..9), (0u8..3, proptest::bool::ANY, 1i64..9), 0usize..4), 0..40),
        ) {
            let make = |g: &(u8, bool, i64)| game(g.0, g.1, g.2);
            let first: Vec<_> = games.iter().map(|(a, _, _)| make(a)).collect();
            let other: Vec<_> = games.iter().map(|(_, b, _)| make(b)).collect();
            let reported = |mut s: BTreeMap<String, PairedSums>| {
                if s.get("unfinished").is_some_and(|u| u.sum_sq == 0) {
                    s.remove("unfinished");
                }
                s
            };
            let whole = reported(pair(&first, &other));
            let mut merge = SumsMerge::default();
            for k in 0..4 {
                let at: Vec<usize> = (0..games.len()).filter(|&i| games[i].2 == k).collect();
                let a: Vec<_> = at.iter().map(|&i| first[i].clone()).collect();
                let b: Vec<_> = at.iter().map(|&i| other[i].clone()).collect();
                let finished = |v: &[BTreeMap<String, i64>]| v.iter().filter(|g| g["unfinished"] == 0).count() as u64;
                let shard = reported(pair(&a, &b));
                merge.add(at.len() as u64, finished(&a).min(finished(&b)), &shard).unwrap_or_else(|e| panic!("{e}"));
            }
            proptest::prop_assert_eq!(merge.finish(), Ok(whole));
        }
    }

    #[test]
    fn impossible_sums_are_named() {
        let bad = |name: &str, n: u64, sum: i64, sum_sq: u64| check_sums(name, &PairedSums { n, sum, sum_sq }).is_err();
        assert!(bad("rounds", 2, 5, 1), "Σd² < (Σd)²/n");
        assert!(bad("rounds", 3, 3, 4), "parity");
        assert!(bad("seat 0 win share", 1, -83318, 83318 * 83318), "beyond a whole win");
        assert!(bad("ended by x", 0, 1, 1), "sums over no pairs");
        assert!(!bad("rounds", 2, 3, 5));
        let mut m = SumsMerge::default();
        let sums = BTreeMap::from([
            ("rounds".to_string(), PairedSums { n: 2, sum: 0, sum_sq: 0 }),
            ("seat 0 win share".to_string(), PairedSums { n: 3, sum: 0, sum_sq: 0 }),
        ]);
        assert!(m.add(3, 3, &sums).is_err_and(|e| e.contains("counts")));
    }
}
