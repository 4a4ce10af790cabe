//! Honest power: how many paired games a comparison needs for its `*` — a difference
//! significant after the Holm–Bonferroni correction the report applies — to appear with
//! the stated power when the true difference is the one asked about (`--detect`).
//!
//! Holm at family-wise level α over `m` tests rejects a hypothesis whenever Bonferroni at
//! α / m does (its first step is Bonferroni's, its later steps are looser), so a sample
//! that gives power 1 − β to a two-sided test at α / m gives at least that power to the
//! report's `*`. The games needed follow from each compared set's own spread (each value
//! of a sweep is its own comparison with the base): the count a report asks for is the
//! largest over the sets, so that every one of them gets the power.

use crate::paired::{Difference, is_metric};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The family-wise level of the reports' `*`.
pub const ALPHA: f64 = 0.05;
/// The power the reports' game counts are for.
pub const POWER: f64 = 0.8;

/// The standard normal quantile: `x` with `P(Z ≤ x) = p` (Acklam's rational approximation,
/// relative error below 1.2e-9; ample for a game count). `p` outside (0, 1) gives ±∞.
pub fn normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] =
        [7.784_695_709_041_462e-3, 3.224_671_290_700_398e-1, 2.445_134_137_142_996, 3.754_408_661_907_416];
    if p.is_nan() {
        return f64::NAN;
    }
    if p <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if p >= 1.0 {
        return f64::INFINITY;
    }
    let tail = |q: f64| {
        let q = (-2.0 * q.ln()).sqrt();
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    if p < 0.024_25 {
        tail(p)
    } else if p > 1.0 - 0.024_25 {
        -tail(1.0 - p)
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    }
}

/// The level of each of `tests` tests that Holm at family-wise [`ALPHA`] is sure to grant
/// (its first, strictest step: Bonferroni's α / m).
pub fn corrected_alpha(tests: usize) -> f64 {
    ALPHA / tests.max(1) as f64
}

/// z₁₋α/₂ + z_power: a two-sided test at `alpha` detects `delta` with [`POWER`] when
/// `delta / (sd / √n)` reaches it.
fn z_sum(alpha: f64) -> f64 {
    normal_quantile(1.0 - alpha / 2.0) + normal_quantile(POWER)
}

/// The smallest true difference that `n` paired games detect with [`POWER`] in a two-sided
/// test at `alpha`, given the standard deviation `sd` of one game's paired difference.
pub fn detectable_at(sd: f64, n: u64, alpha: f64) -> f64 {
    if n == 0 { f64::NAN } else { z_sum(alpha) * sd / (n as f64).sqrt() }
}

/// Paired games needed to detect a true difference `delta` with [`POWER`] in a two-sided
/// test at `alpha`: `((z₁₋α/₂ + z_power) · sd / delta)²`, rounded up.
pub fn games_needed_at(sd: f64, delta: f64, alpha: f64) -> Option<u64> {
    let n = (z_sum(alpha) * sd / delta).powi(2).ceil();
    (0.0..1e15).contains(&n).then_some(n as u64)
}

/// [`detectable_at`] for one uncorrected test at 5% (a single run's one figure).
pub fn detectable(sd: f64, n: u64) -> f64 {
    detectable_at(sd, n, ALPHA)
}

/// [`games_needed_at`] for one uncorrected test at 5% (a single run's one figure).
pub fn games_needed(sd: f64, delta: f64) -> Option<u64> {
    games_needed_at(sd, delta, ALPHA)
}

/// How the report's correction groups its tests: each compared set on its own (`compare`:
/// Holm within each ruleset's outcome figures), or every set together (`sweep`: Holm
/// across the outcome figures of every value).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    EachSet,
    AllSets,
}

/// One compared set's power for a figure (a ruleset against the base, or a value of a sweep).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SetPower {
    /// The standard deviation of one game's paired difference, in the figure's unit.
    pub sd: f64,
    pub pairs: u64,
    /// Tests in this set's correction family, and the level Holm is sure to grant each.
    pub tests: usize,
    pub alpha: f64,
    /// The smallest difference its games detect with [`POWER`] after the correction.
    pub detectable: Option<f64>,
}

/// A figure's power over the compared sets (`power` in the reports' JSON).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FigurePower {
    /// The largest spread of the sets (the one whose games count most).
    pub sd: f64,
    /// The fewest pairs of the sets.
    pub pairs: u64,
    /// The largest of the sets' detectable differences: every set detects this.
    pub detectable: Option<f64>,
    /// The strictest per-test level of the sets' families.
    pub alpha: f64,
    /// Each set, in order.
    pub sets: Vec<SetPower>,
}

impl FigurePower {
    /// Paired games every set needs for a true difference `delta` to get its `*` with
    /// [`POWER`]: the largest of the sets' needs, each from its own spread and family.
    pub fn games_needed(&self, delta: f64) -> Option<u64> {
        self.sets.iter().map(|s| games_needed_at(s.sd, delta, s.alpha)).try_fold(0u64, |a, n| n.map(|n| a.max(n)))
    }
}

/// For each outcome figure (the designer metrics are another family, not asked about): its
/// power in each compared set after the report's correction ([`Family`]).
pub fn power_summary(diffs: &[Vec<Difference>], family: Family) -> BTreeMap<String, FigurePower> {
    let outcome = |set: &Vec<Difference>| set.iter().filter(|d| !is_metric(&d.figure)).count();
    let all: usize = diffs.iter().map(outcome).sum();
    let mut out: BTreeMap<String, FigurePower> = BTreeMap::new();
    for set in diffs {
        let tests = match family {
            Family::EachSet => outcome(set),
            Family::AllSets => all,
        };
        let alpha = corrected_alpha(tests);
        for d in set.iter().filter(|d| !is_metric(&d.figure)) {
            let sd = d.sd();
            if !sd.is_finite() {
                continue;
            }
            let smallest = detectable_at(sd, d.pairs, alpha);
            let s = SetPower { sd, pairs: d.pairs, tests, alpha, detectable: smallest.is_finite().then_some(smallest) };
            let f = out.entry(d.figure.clone()).or_insert_with(|| FigurePower {
                sd,
                pairs: d.pairs,
                detectable: s.detectable,
                alpha,
                sets: Vec::new(),
            });
            f.sd = f.sd.max(sd);
            f.pairs = f.pairs.min(d.pairs);
            f.alpha = f.alpha.min(alpha);
            f.detectable = match (f.detectable, s.detectable) {
                (Some(a), Some(b)) => Some(a.max(b)),
                (a, b) => a.or(b),
            };
            f.sets.push(s);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::paired::{PairedSums, differences, holm_across};
    use crate::rng::Rng;

    #[test]
    fn quantiles_and_counts() {
        assert!((normal_quantile(0.975) - 1.959_964).abs() < 1e-6);
        assert!((normal_quantile(0.8) - 0.841_621).abs() < 1e-6);
        assert!((normal_quantile(0.001) + 3.090_232).abs() < 1e-5);
        // Uncorrected, as before: sd 1 and 100 games detect 0.28; 0.28 needs 100 games.
        assert!((detectable(1.0, 100) - 0.28).abs() < 1e-3);
        assert_eq!(games_needed(1.0, 0.28016), Some(100));
        // Among 10 tests each gets 0.005: z 2.807 + 0.842 → 3.649² / 0.28² ≈ 170 games.
        assert_eq!(games_needed_at(1.0, 0.28, corrected_alpha(10)), Some(170));
    }

    /// A standard normal draw (Box–Muller), from the seeded generator.
    fn normal(rng: &mut Rng) -> f64 {
        let u = rng.unit().max(1e-300);
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * rng.unit()).cos()
    }

    /// Paired differences of a figure: `n` integer draws (in hundredths) of mean `mean`
    /// and spread `sd`.
    fn sums(rng: &mut Rng, n: u64, mean: f64, sd: f64) -> PairedSums {
        let mut s = PairedSums::default();
        for _ in 0..n {
            s.add((100.0 * (mean + sd * normal(rng))).round() as i64);
        }
        s
    }

    /// One replicate report: `sets` compared sets of `figures` outcome figures each, the
    /// first figure of each set off by `effect[k]` with spread `sd[k]`, the others null;
    /// returns, per set, whether its first figure got its `*` after the report's correction.
    fn report(rng: &mut Rng, n: u64, figures: usize, effect: &[f64], sd: &[f64], family: Family) -> Vec<bool> {
        let mut all: Vec<Vec<Difference>> = effect
            .iter()
            .zip(sd)
            .map(|(&e, &s)| {
                let mut m = BTreeMap::new();
                m.insert("a effect".to_string(), sums(rng, n, e, s));
                for f in 1..figures {
                    m.insert(format!("null {f}"), sums(rng, n, 0.0, s));
                }
                differences(&m)
            })
            .collect();
        if family == Family::AllSets {
            holm_across(&mut all);
        }
        all.iter().map(|set| set[0].significant).collect()
    }

    /// Issue 47: the games a report asks for give the stated power to the `*` it prints.
    /// Replicate reports of a known effect, each with the games the power summary asks
    /// for, flag the effect after Holm in about 80% of them or more (Holm is at least as
    /// strong as the Bonferroni level the count is for); the uncorrected count, which the
    /// reports gave before, flags it far less often. In a sweep, values of different
    /// spread each get the power from the largest need, not from a pooled spread.
    #[test]
    fn stated_power_holds_after_the_correction() {
        let mut rng = Rng::from_seed(47);
        let replicates = 300;
        let flagged = |rng: &mut Rng, n: u64, effect: &[f64], sd: &[f64], family: Family| -> Vec<f64> {
            let mut hits = vec![0u32; effect.len()];
            for _ in 0..replicates {
                for (h, hit) in hits.iter_mut().zip(report(rng, n, 6, effect, sd, family)) {
                    *h += u32::from(hit);
                }
            }
            hits.iter().map(|&h| f64::from(h) / f64::from(replicates)).collect()
        };
        // `compare`: one ruleset, 6 outcome figures, a difference of 0.2 with spread 1.
        let pilot = report_power(&mut rng, &[1.0], Family::EachSet);
        let n = pilot.games_needed(0.2).unwrap_or(0);
        let rate = flagged(&mut rng, n, &[0.2], &[1.0], Family::EachSet)[0];
        assert!((0.75..=0.93).contains(&rate), "{n} games flagged {rate}");
        let before = games_needed(1.0, 0.2).unwrap_or(0);
        let rate_before = flagged(&mut rng, before, &[0.2], &[1.0], Family::EachSet)[0];
        assert!(rate_before < 0.65, "the uncorrected {before} games flagged {rate_before}");
        // `sweep`: three values of spread 1, 2 and 3 against the base, Holm across them all.
        let sd = [1.0, 2.0, 3.0];
        let pilot = report_power(&mut rng, &sd, Family::AllSets);
        let n = pilot.games_needed(0.5).unwrap_or(0);
        let rates = flagged(&mut rng, n, &[0.5; 3], &sd, Family::AllSets);
        assert!(rates.iter().all(|r| *r >= 0.75), "{n} games flagged {rates:?}");
        assert!(rates[2] <= 0.93, "the widest value is the one the count is for: {rates:?}");
        // The pooled spread of the values, uncorrected, as reports had it: too few games.
        let pooled = (sd.iter().map(|s| s * s).sum::<f64>() / 3.0).sqrt();
        let before = games_needed(pooled, 0.5).unwrap_or(0);
        let rates_before = flagged(&mut rng, before, &[0.5; 3], &sd, Family::AllSets);
        assert!(rates_before[2] < 0.5, "the pooled {before} games flagged {rates_before:?}");
    }

    /// The power summary of a large pilot run of sets with spreads `sd` (in figure units).
    fn report_power(rng: &mut Rng, sd: &[f64], family: Family) -> FigurePower {
        let sets: Vec<Vec<Difference>> = sd
            .iter()
            .map(|&s| {
                let mut m = BTreeMap::new();
                m.insert("a effect".to_string(), sums(rng, 4000, 0.0, s));
                for f in 1..6 {
                    m.insert(format!("null {f}"), sums(rng, 4000, 0.0, s));
                }
                differences(&m)
            })
            .collect();
        let mut p = power_summary(&sets, family);
        let mut f = p.remove("a effect").unwrap_or_else(|| panic!("no power for the figure"));
        // The sums are in hundredths: the spread in figure units.
        for s in f.sets.iter_mut() {
            s.sd /= 100.0;
        }
        f
    }
}
