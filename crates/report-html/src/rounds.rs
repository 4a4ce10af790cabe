//! Games over time: each seat's mean score and money at each round end, with the spread of
//! single games as a band, drawn from a report's `by_round` figures.

use crate::Error;
use crate::plot::{FONT, GRID, INK, colour, css, svg};
use plotters::prelude::*;
use rulesmith_core::sim::Report;
use rulesmith_core::sim::rounds::{Band, ByRound};
use std::fmt::Write as _;

/// Rounds drawn: those that at least this share of the finished games reached (later
/// rounds average a few long games).
pub const CHARTED_SHARE: f64 = 0.05;

/// The band's half width in standard deviations of single games: the middle 80% of games
/// (10th to 90th percentile) if their spread is normal.
pub const BAND_SD: f64 = 1.281_551_565_545;

/// One run's per-round figures: its name (the ruleset, when comparing), its bots by seat.
pub struct Run {
    pub name: String,
    pub bots: Vec<String>,
    pub by_round: ByRound,
}

/// The run of a report, if it has per-round figures.
pub fn run(report: &Report) -> Option<Run> {
    let by_round = report.by_round.clone()?;
    Some(Run { name: report.ruleset.clone(), bots: report.bots.clone(), by_round })
}

pub(crate) fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The rounds of a run that are drawn.
fn charted(b: &ByRound) -> &[rulesmith_core::sim::rounds::RoundFigures] {
    let first = b.rounds.first().map_or(0, |r| r.games);
    let at_least = (first as f64 * CHARTED_SHARE).ceil() as u64;
    let n = b.rounds.iter().take_while(|r| r.games >= at_least.max(1)).count();
    &b.rounds[..n]
}

/// The section "Games over time": per run (in ruleset order), a chart of the score and one
/// of the money, one line per seat (in seat order) on a scale shared by the runs.
pub fn section(o: &mut String, runs: &[Run]) -> Result<(), Error> {
    if runs.iter().all(|r| charted(&r.by_round).is_empty()) {
        // Kept over finished games only: where none finished, say why there is no chart.
        if !runs.is_empty() {
            o.push_str("<section id=\"rounds\"><h2>Games over time</h2><p class=\"note\">No game finished, so there are no per-round figures to draw: they are kept over finished games only.</p></section>");
        }
        return Ok(());
    }
    o.push_str("<section id=\"rounds\"><h2>Games over time</h2>");
    let money = runs.iter().map(|r| r.by_round.money.as_str()).find(|m| !m.is_empty()).unwrap_or_default();
    let _ = write!(
        o,
        "<p class=\"note\">Each seat's mean score{} at the end of each round, over the finished games that reached it (the last round: the final state). Line: the mean; band: the mean ± {BAND_SD:.2} standard deviations of single games (the middle 80% of games if their spread is normal), cut at 0: neither a score nor money held goes below it. Rounds reached by fewer than {:.0}% of the finished games are not drawn; the JSON (<code>by_round</code>) has every round, with each mean's 95% interval.</p>",
        if money.is_empty() { String::new() } else { format!(" and {}", esc(money)) },
        100.0 * CHARTED_SHARE
    );
    let pick = |f: fn(&rulesmith_core::sim::rounds::RoundFigures) -> &Vec<Band>| {
        move |r: &Run| -> Vec<Vec<(f64, Band)>> {
            let rounds = charted(&r.by_round);
            let seats = rounds.first().map_or(0, |x| f(x).len());
            (0..seats)
                .map(|s| rounds.iter().filter_map(|x| f(x).get(s).map(|b| (f64::from(x.round), *b))).collect())
                .collect()
        }
    };
    let scores: Vec<Vec<Vec<(f64, Band)>>> = runs.iter().map(pick(|x| &x.score)).collect();
    let moneys: Vec<Vec<Vec<(f64, Band)>>> = runs.iter().map(pick(|x| &x.money)).collect();
    let range = |all: &[Vec<Vec<(f64, Band)>>]| {
        let points = || all.iter().flatten().flatten();
        let x1 = points().map(|p| p.0).fold(1.0, f64::max);
        let lo = points().map(|(_, b)| low(b)).fold(f64::INFINITY, f64::min);
        let hi = points().map(|(_, b)| b.mean + BAND_SD * b.sd).fold(f64::NEG_INFINITY, f64::max);
        (x1, lo.min(0.0), hi)
    };
    let (score_range, money_range) = (range(&scores), range(&moneys));
    for (k, run) in runs.iter().enumerate() {
        if runs.len() > 1 {
            let _ = write!(o, "<h3>{}</h3>", esc(&run.name));
        }
        o.push_str("<div class=\"legend\">");
        for s in 0..scores[k].len() {
            let bot = run.bots.get(s).map(|b| format!(" ({})", esc(b))).unwrap_or_default();
            let _ = write!(o, "<span><i style=\"background:{}\"></i>seat {s}{bot}</span> ", css(colour(s)));
        }
        o.push_str("</div>");
        let _ = write!(o, "<figure class=\"rounds\">{}</figure>", chart(&scores[k], "score so far", score_range)?);
        if !run.by_round.money.is_empty() {
            let axis = format!("{} held", run.by_round.money);
            let _ = write!(o, "<figure class=\"rounds\">{}</figure>", chart(&moneys[k], &axis, money_range)?);
        }
    }
    o.push_str("</section>");
    Ok(())
}

/// The band's lower edge: scores and money held are never negative, so a wide spread near
/// the start of a game is cut at 0 rather than drawn below it.
fn low(b: &Band) -> f64 {
    (b.mean - BAND_SD * b.sd).max(0.0)
}

/// One figure over the rounds: per seat a line at the mean and a pale band around it.
fn chart(seats: &[Vec<(f64, Band)>], y_axis: &str, (x1, y0, y1): (f64, f64, f64)) -> Result<String, Error> {
    let err = |e: &dyn std::fmt::Display| Error::Plot(e.to_string());
    let (y0, y1) = if y1 - y0 > f64::EPSILON && y1.is_finite() && y0.is_finite() { (y0, y1) } else { (0.0, 1.0) };
    let pad = (y1 - y0) * 0.05;
    svg((760, 280), |root| {
        let mut chart = ChartBuilder::on(root)
            .margin_top(10)
            .margin_right(24)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(0.5..x1 + 0.5, (y0 - pad)..(y1 + pad))
            .map_err(|e| err(&e))?;
        let xlabel = |v: &f64| if (v - v.round()).abs() < 1e-9 { format!("{v:.0}") } else { String::new() };
        chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(WHITE)
            .bold_line_style(GRID)
            .axis_style(INK)
            .x_labels((x1 as usize).clamp(2, 25))
            .x_label_formatter(&xlabel)
            .x_desc("end of round")
            .y_desc(y_axis)
            .label_style((FONT, 13).into_font().color(&INK))
            .axis_desc_style((FONT, 13).into_font().color(&INK))
            .draw()
            .map_err(|e| err(&e))?;
        for (s, points) in seats.iter().enumerate() {
            let c = colour(s);
            let upper = points.iter().map(|&(x, b)| (x, b.mean + BAND_SD * b.sd));
            let lower = points.iter().rev().map(|&(x, b)| (x, low(&b)));
            let outline: Vec<(f64, f64)> = upper.chain(lower).collect();
            chart.draw_series(std::iter::once(Polygon::new(outline, c.mix(0.12).filled()))).map_err(|e| err(&e))?;
        }
        for (s, points) in seats.iter().enumerate() {
            let c = colour(s);
            let line = points.iter().map(|&(x, b)| (x, b.mean));
            chart.draw_series(LineSeries::new(line, c.stroke_width(2))).map_err(|e| err(&e))?;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_band_is_cut_at_zero_and_a_narrow_one_is_not() {
        // Three games holding 0, 0 and 9 doubloons: mean 3, spread 5.2, so mean − 1.28 sd
        // would be −3.7 doubloons.
        let wide = Band::of(9, 81, 3);
        assert!(wide.mean - BAND_SD * wide.sd < 0.0);
        assert_eq!(low(&wide), 0.0);
        let narrow = Band::of(30, 302, 3);
        assert!((low(&narrow) - (narrow.mean - BAND_SD * narrow.sd)).abs() < 1e-12);
        assert!(low(&narrow) > 0.0);
    }
}
