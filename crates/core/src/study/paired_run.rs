//! The paired run behind `compare`, `sweep`, `tune` and `--skill`: the same games (seeds,
//! bots, rotations) under each ruleset, each paired game by game with the base ruleset's.

use super::dist::Distributions;
use super::spec::{Ruleset, RunError, StudySpec, bad, sim_options};
use crate::bots::{BotSpec, parse_bots};
use crate::metrics::MetricDef;
use crate::paired;
use crate::sim::{GameResult, Report, SimError, SimOptions, Tally};
use crate::sweep::{self, Named};

/// Games (seeds × rotations) a paired run plays of each ruleset in turn: the per-game
/// figures of one such block are all it keeps (about 12 KB a game with metrics).
pub const BLOCK_GAMES: u64 = 512;

/// Plays one block of games of a ruleset; the command line's shows a progress bar.
pub trait Runner {
    /// Plays the games of `opts` under `r`, calling `each` as each one finishes; returns
    /// the tally and the seconds it took. `label` names the ruleset or value, which of how
    /// many, and the time left in all (see [`progress_prefix`]).
    fn play(
        &self,
        r: &Ruleset,
        opts: &SimOptions,
        label: &str,
        each: &mut dyn FnMut(&GameResult),
    ) -> Result<(Tally, f64), RunError>;

    /// How long is left, in words, for the progress labels.
    fn time_left(&self, d: std::time::Duration) -> String {
        format!("{} seconds", d.as_secs())
    }
}

/// Plays with no progress shown.
pub struct Plain;

impl Runner for Plain {
    fn play(
        &self,
        r: &Ruleset,
        opts: &SimOptions,
        _label: &str,
        each: &mut dyn FnMut(&GameResult),
    ) -> Result<(Tally, f64), RunError> {
        let start = std::time::Instant::now();
        let tally = r.game.simulate(opts, each).map_err(|e| sim_error(r, &e))?;
        Ok((tally, start.elapsed().as_secs_f64()))
    }
}

/// A run that stopped: a bot program that fails is bad input, a game that breaks a failed
/// check.
pub fn sim_error(r: &Ruleset, e: &SimError) -> RunError {
    let message = format!("simulation of `{}` stopped: {e}", r.name());
    if matches!(e, SimError::Bot { .. }) { RunError::Bad(message) } else { RunError::Failed(message) }
}

/// Each game as it finishes, with its ruleset's label, the bots and the metrics defined
/// (the games CSV's rows).
pub type GameSink<'a> = dyn FnMut(&str, &[BotSpec], &GameResult, &[MetricDef]) + 'a;

/// What a paired run found.
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
    left: &dyn Fn(std::time::Duration) -> String,
) -> String {
    use std::fmt::Write as _;
    let mut o = label.to_string();
    if n > 1 {
        let _ = write!(o, " · value {k} of {n}");
    }
    if let Some((from, to, of)) = seeds {
        let _ = write!(o, " · seeds {from}–{to} of {of}");
    }
    // One ruleset alone is one of `tune`'s evaluations: its own label gives the time left
    // in all, over the evaluations to come.
    if n > 1 {
        if done == 0 {
            o.push_str(" · time left in all: measuring");
        } else {
            let secs = elapsed.as_secs_f64() * all.saturating_sub(done) as f64 / done as f64;
            let _ = write!(o, " · about {} left in all", left(std::time::Duration::from_secs_f64(secs.max(0.0))));
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
    runner: &dyn Runner,
    sink: &mut GameSink<'_>,
) -> Result<PairedRun, RunError> {
    let n = rulesets.len();
    let players = opts.players;
    let left = |d| runner.time_left(d);
    let defs: Vec<_> = rulesets.iter().map(|r| if opts.metrics { r.game.metric_defs() } else { Vec::new() }).collect();
    let mut tallies: Vec<Option<Tally>> = vec![None; n];
    let mut seconds = vec![0.0; n];
    let mut dists = vec![Distributions::new(players); n];
    let mut pairings = vec![paired::Pairing::default(); n];
    let order: Vec<usize> = std::iter::once(base).chain((0..n).filter(|&i| i != base)).collect();
    let block = (BLOCK_GAMES / opts.rotations()).max(1);
    let started = std::time::Instant::now();
    // Games (seeds) played so far over every ruleset or value, for the time left in all.
    let mut done: u64 = 0;
    let all = opts.games.saturating_mul(n as u64);
    let mut lo = 0;
    while lo < opts.games {
        let hi = lo.saturating_add(block).min(opts.games);
        let part = SimOptions { from: lo, games: hi, ..opts.clone() };
        let mut first = Vec::new();
        for (k, &i) in order.iter().enumerate() {
            let Some(r) = rulesets.get(i) else { continue };
            let label = labels.get(i).map_or_else(|| r.name(), String::as_str);
            let mut mine = Vec::new();
            let seeds = (opts.games > block).then(|| (lo + 1, hi, opts.games));
            let prefix = progress_prefix(label, (k + 1, n), seeds, (done, all), started.elapsed(), &left);
            let dist = &mut dists[i];
            let (tally, secs) = runner.play(r, &part, &prefix, &mut |g| {
                mine.push(paired::game_figures(g, players, &defs[i]));
                if want_dists {
                    dist.add(g);
                }
                sink(label, &opts.bots, g, &defs[i]);
            })?;
            seconds[i] += secs;
            done = done.saturating_add(hi - lo);
            match &mut tallies[i] {
                Some(t) => t.merge(&tally).map_err(|e| RunError::Failed(format!("`{label}`: {e}")))?,
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
pub fn skill_figures(
    rulesets: &[Ruleset],
    spec: &StudySpec,
    players: usize,
    runner: &dyn Runner,
) -> Result<Vec<Option<Named>>, RunError> {
    let Some(skill) = &spec.skill else { return Ok(vec![None; rulesets.len()]) };
    let Some((strong, weak)) = skill.split_once(',').filter(|(a, b)| !a.trim().is_empty() && !b.trim().is_empty())
    else {
        return Err(bad(format!("--skill `{skill}`: expected STRONG,WEAK, e.g. `mcts:200,greedy`")));
    };
    let (strong, weak) = (strong.trim(), weak.trim());
    let mut opts = sim_options(spec, players)?;
    let list = std::iter::once(strong).chain(std::iter::repeat_n(weak, players.saturating_sub(1))).collect::<Vec<_>>();
    opts.bots = parse_bots(&list.join(","), players).map_err(|e| bad(format!("--skill: {e}")))?;
    opts.rotate_seats = true;
    opts.metrics = false;
    let labels: Vec<String> =
        rulesets.iter().map(|r| format!("{} (skill: {strong} against {weak})", r.name())).collect();
    let run = play_paired(rulesets, &labels, &opts, 0, false, runner, &mut |_, _, _, _| {})?;
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

#[cfg(test)]
mod tests {
    use super::progress_prefix;
    use std::time::Duration;

    /// Issue #47: a sweep's bars say which value of how many, and the time left in all.
    #[test]
    fn a_paired_run_says_value_k_of_n_and_the_time_left_in_all() {
        let left = |d: Duration| format!("{} seconds", d.as_secs());
        let first = progress_prefix("harbor=6", (1, 5), None, (0, 500), Duration::ZERO, &left);
        assert_eq!(first, "harbor=6 · value 1 of 5 · time left in all: measuring");
        // 100 of 500 games in 10 s: 400 more take about 40 s.
        let third = progress_prefix("harbor=8", (3, 5), None, (100, 500), Duration::from_secs(10), &left);
        assert_eq!(third, "harbor=8 · value 3 of 5 · about 40 seconds left in all");
        let long = progress_prefix("x", (2, 2), Some((513, 1024, 2000)), (1024, 4000), Duration::from_secs(60), &left);
        assert!(long.starts_with("x · value 2 of 2 · seeds 513–1024 of 2000 · about "), "{long}");
        assert_eq!(progress_prefix("puerto-rico", (1, 1), None, (0, 100), Duration::ZERO, &left), "puerto-rico");
        // A long evaluation of `tune` (one ruleset): its seeds, and no second "time left in all".
        let tune = progress_prefix(
            "k=8 · about 9 seconds left in all",
            (1, 1),
            Some((1, 512, 1200)),
            (0, 1200),
            Duration::ZERO,
            &left,
        );
        assert_eq!(tune, "k=8 · about 9 seconds left in all · seeds 1–512 of 1200");
    }
}
