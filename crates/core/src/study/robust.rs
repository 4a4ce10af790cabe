//! The robustness check (`--check-with BOTS`): a study replayed with a second line-up, and
//! a verdict on each headline figure, so that an answer about the players is not taken
//! for one about the game.
//!
//! A headline figure is an outcome figure (a seat's win share or score, the length, an
//! end, unfinished games) whose paired difference is significant in the first run (after
//! its correction). Under the second line-up its difference is judged by that run's own
//! test (same correction), and its verdict is:
//! - **holds**: the same sign, and significant again;
//! - **weaker**: no longer significant (whatever its sign: the figure is shown);
//! - **flips**: the opposite sign, and significant.
//!
//! `tune`'s check is its answer under both line-ups: it **holds** when the second
//! line-up's answer lies within the first's 95% range of values (or equals the first's
//! answer), and **moves** otherwise.

use crate::paired::{self, Difference};
use crate::sim::SimOptions;
use serde::{Deserialize, Serialize};

/// A headline figure's verdict under the second line-up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Same sign, still significant.
    Holds,
    /// No longer significant.
    Weaker,
    /// Opposite sign, significant.
    Flips,
    /// `tune`: the second line-up's answer is outside the first's range.
    Moves,
}

impl Verdict {
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Holds => "holds",
            Verdict::Weaker => "weaker",
            Verdict::Flips => "flips",
            Verdict::Moves => "moves",
        }
    }
}

/// The verdict of a figure significant in the first run (difference `first`), given its
/// difference `second` under the second line-up and whether that is significant.
pub fn verdict(first: f64, second: f64, second_significant: bool) -> Verdict {
    let product = first * second;
    match (second_significant, product) {
        (true, p) if p > 0.0 => Verdict::Holds,
        (true, p) if p < 0.0 => Verdict::Flips,
        _ => Verdict::Weaker,
    }
}

/// One figure's difference, as the check shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Brief {
    pub mean: f64,
    pub ci95: [f64; 2],
    pub p_value: f64,
    pub significant: bool,
}

impl From<&Difference> for Brief {
    fn from(d: &Difference) -> Self {
        Brief { mean: d.mean, ci95: d.ci95, p_value: d.p_value, significant: d.significant }
    }
}

/// A headline figure under both line-ups.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Line {
    /// The ruleset (`compare`) or the value (`sweep`) whose difference it is.
    pub at: String,
    pub figure: String,
    pub first: Brief,
    /// `None`: the second run has no such figure (e.g. an end it never reached).
    pub second: Option<Brief>,
    pub verdict: Verdict,
}

/// The second line-up's run and the verdicts (`compare`, `sweep`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Check {
    /// The second line-up, as the report names bots.
    pub bots: Vec<String>,
    /// Seeds played per ruleset or value.
    pub games: u64,
    pub rotate_seats: bool,
    /// The definition, as the reports state it.
    pub rule: String,
    /// One line per headline figure of the first run (none: nothing was significant).
    pub verdicts: Vec<Line>,
}

/// The rule, as reports state it.
pub const RULE: &str = "each outcome figure significant under the first line-up, judged again under the second (its own correction): holds = same sign and significant; weaker = no longer significant; flips = opposite sign and significant";

/// The verdicts of `compare`'s or `sweep`'s headline figures: `first` the first run's
/// differences at each ruleset or value (named), `second` the second run's at the same.
pub fn check_differences(
    opts: &SimOptions,
    games: u64,
    first: &[(String, &[Difference])],
    second: &[&[Difference]],
) -> Check {
    let mut verdicts = Vec::new();
    for ((at, diffs), other) in first.iter().zip(second.iter().copied().chain(std::iter::repeat(&[][..]))) {
        for d in diffs.iter().filter(|d| d.significant && !paired::is_metric(&d.figure)) {
            let again = other.iter().find(|o| o.figure == d.figure);
            verdicts.push(Line {
                at: at.clone(),
                figure: d.figure.clone(),
                first: Brief::from(d),
                second: again.map(Brief::from),
                verdict: again.map_or(Verdict::Weaker, |o| verdict(d.mean, o.mean, o.significant)),
            });
        }
    }
    Check {
        bots: opts.bots.iter().map(ToString::to_string).collect(),
        games,
        rotate_seats: opts.rotate_seats,
        rule: RULE.to_string(),
        verdicts,
    }
}

/// `tune`'s verdict: whether the second line-up's answer `second` lies within the first's
/// range of values `interval` (or is its answer `first`).
pub fn tune_verdict(first: f64, interval: Option<[f64; 2]>, second: f64) -> Verdict {
    let inside = interval.is_some_and(|[lo, hi]| (lo..=hi).contains(&second));
    if inside || first == second { Verdict::Holds } else { Verdict::Moves }
}

/// A verdict line in words: `flips   seat 0 win share at 9: +4.10 pp [+1.00, +7.20] * under
/// greedy; -2.00 pp [-3.10, -0.90] * under mcts:200` (`*`: significant).
pub fn line_text(l: &Line, first_bots: &str, second_bots: &str) -> String {
    let show = |b: &Brief| {
        let share = l.figure.ends_with("share") || l.figure.starts_with("ended by") || l.figure == "unfinished";
        let k = if share { 100.0 } else { 1.0 };
        let unit = if share { " pp" } else { "" };
        format!(
            "{:+.2}{unit} [{:+.2}, {:+.2}]{}",
            k * b.mean,
            k * b.ci95[0],
            k * b.ci95[1],
            if b.significant { " *" } else { "" }
        )
    };
    format!(
        "{:<6}  {} at {}: {} under {first_bots}; {} under {second_bots}",
        l.verdict.word(),
        l.figure,
        l.at,
        show(&l.first),
        l.second.as_ref().map_or("–".to_string(), show),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_figure_holds_weakens_or_flips_by_the_second_runs_sign_and_test() {
        assert_eq!(verdict(0.05, 0.04, true), Verdict::Holds);
        assert_eq!(verdict(-0.05, -0.01, true), Verdict::Holds);
        assert_eq!(verdict(0.05, 0.04, false), Verdict::Weaker);
        assert_eq!(verdict(0.05, -0.04, false), Verdict::Weaker);
        assert_eq!(verdict(0.05, 0.0, true), Verdict::Weaker);
        assert_eq!(verdict(0.05, -0.04, true), Verdict::Flips);
        assert_eq!(verdict(-2.0, 1.0, true), Verdict::Flips);
    }

    fn diff(figure: &str, mean: f64, significant: bool) -> Difference {
        Difference {
            figure: figure.into(),
            pairs: 100,
            mean,
            ci95: [mean - 0.01, mean + 0.01],
            p_value: if significant { 0.001 } else { 0.5 },
            significant,
            sums: paired::PairedSums::default(),
        }
    }

    #[test]
    fn only_significant_outcome_figures_are_headlines() {
        let opts = SimOptions {
            players: 2,
            games: 10,
            from: 0,
            seed: 1,
            bots: Vec::new(),
            shard: None,
            record: false,
            progress: None,
            rotate_seats: false,
            metrics: false,
        };
        let first = vec![
            diff("seat 0 win share", 0.1, true),
            diff("seat 1 win share", -0.1, true),
            diff("rounds", 1.0, false),
            diff("building: harbor built share", 0.2, true),
            diff("ended by colonists", 0.05, true),
        ];
        let second =
            vec![diff("seat 0 win share", 0.08, true), diff("seat 1 win share", 0.1, true), diff("rounds", 1.0, true)];
        let c = check_differences(&opts, 10, &[("b".into(), &first)], &[&second]);
        let got: Vec<(&str, Verdict)> = c.verdicts.iter().map(|l| (l.figure.as_str(), l.verdict)).collect();
        assert_eq!(
            got,
            [
                ("seat 0 win share", Verdict::Holds),
                ("seat 1 win share", Verdict::Flips),
                ("ended by colonists", Verdict::Weaker)
            ]
        );
        assert!(c.verdicts[2].second.is_none());
    }

    #[test]
    fn a_tuned_value_holds_inside_the_first_range() {
        assert_eq!(tune_verdict(9.0, Some([8.0, 10.0]), 10.0), Verdict::Holds);
        assert_eq!(tune_verdict(9.0, None, 9.0), Verdict::Holds);
        assert_eq!(tune_verdict(9.0, Some([8.0, 10.0]), 6.0), Verdict::Moves);
        assert_eq!(tune_verdict(9.0, None, 8.0), Verdict::Moves);
    }
}
