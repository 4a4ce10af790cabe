//! The page's plots: plotters' SVG backend drawn into a String, inlined in the page.

use crate::Error;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::collections::BTreeMap;

/// Seat and ruleset colours: a colour-blind-safe palette (Okabe–Ito).
pub const PALETTE: [RGBColor; 7] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(213, 94, 0),
    RGBColor(120, 120, 120),
];

pub(crate) const INK: RGBColor = RGBColor(40, 44, 52);
/// The fair-share line (1 / players) and the base value's marker.
pub const FAIR: RGBColor = RGBColor(120, 120, 120);
pub(crate) const GRID: RGBColor = RGBColor(225, 228, 232);
pub(crate) const FONT: &str = "sans-serif";

pub fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// A colour blended two thirds towards white: the second bar of a pair.
pub fn pale(c: RGBColor) -> RGBColor {
    let f = |v: u8| ((u16::from(v) + 2 * 255) / 3) as u8;
    RGBColor(f(c.0), f(c.1), f(c.2))
}

/// `#rrggbb` of a palette colour, for legends written in HTML.
pub fn css(c: RGBColor) -> String {
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}

fn err(e: impl std::fmt::Display) -> Error {
    Error::Plot(e.to_string())
}

/// Draws into a fresh SVG of `size` pixels and returns its text.
pub(crate) fn svg(
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<SVGBackend, Shift>) -> Result<(), Error>,
) -> Result<String, Error> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, size).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        draw(&root)?;
        root.present().map_err(err)?;
    }
    Ok(out)
}

/// One bar of a horizontal bar chart.
pub struct Bar {
    pub label: String,
    pub value: f64,
    /// 95% interval, drawn as a whisker.
    pub ci95: Option<[f64; 2]>,
    pub colour: RGBColor,
}

/// Horizontal bars (first bar on top) with interval whiskers; `percent` shows the axis in %.
/// A range that includes negative values gets a zero line (differences); `reference` (the
/// fair share of a win share) is drawn as a dashed line across the bars.
pub fn bars(bars: &[Bar], axis: &str, percent: bool, reference: Option<f64>) -> Result<String, Error> {
    let n = bars.len().max(1);
    let label_width = bars.iter().map(|b| b.label.chars().count()).max().unwrap_or(4);
    let left = (label_width as u32 * 7 + 16).clamp(60, 320);
    let height = 48 + 26 * n as u32;
    let mut lo = bars.iter().map(|b| b.ci95.map_or(b.value, |c| c[0]).min(b.value)).fold(0.0_f64, f64::min);
    let mut hi = bars.iter().map(|b| b.ci95.map_or(b.value, |c| c[1]).max(b.value)).fold(0.0_f64, f64::max);
    if let Some(r) = reference.filter(|r| r.is_finite()) {
        (lo, hi) = (lo.min(r), hi.max(r));
    }
    if !(lo.is_finite() && hi.is_finite()) || hi - lo <= f64::EPSILON {
        (lo, hi) = (lo.min(0.0), hi.max(lo + 1.0));
    }
    let pad = (hi - lo) * 0.05;
    let (lo, hi) = (if lo < 0.0 { lo - pad } else { lo }, hi + pad);
    svg((760, height), |root| {
        let mut chart = ChartBuilder::on(root)
            .margin_top(8)
            .margin_right(24)
            .x_label_area_size(36)
            .y_label_area_size(left)
            // A segmented range holds its end too: n segments are 0..n-1.
            .build_cartesian_2d(lo..hi, (0..n as i32 - 1).into_segmented())
            .map_err(err)?;
        let names: Vec<&str> = bars.iter().map(|b| b.label.as_str()).collect();
        let ylabel = |v: &SegmentValue<i32>| match v {
            SegmentValue::CenterOf(i) => {
                names.get(n.saturating_sub(1 + *i as usize)).map_or(String::new(), |s| (*s).to_string())
            }
            _ => String::new(),
        };
        let xlabel = |v: &f64| if percent { axis_percent(*v) } else { format!("{v}") };
        chart
            .configure_mesh()
            .disable_y_mesh()
            .light_line_style(WHITE)
            .bold_line_style(GRID)
            .axis_style(INK)
            .y_labels(n)
            .y_label_formatter(&ylabel)
            .x_label_formatter(&xlabel)
            .x_desc(axis)
            .label_style((FONT, 13).into_font().color(&INK))
            .axis_desc_style((FONT, 13).into_font().color(&INK))
            .draw()
            .map_err(err)?;
        if lo < 0.0 {
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(0.0, SegmentValue::Exact(0)), (0.0, SegmentValue::Exact(n as i32))],
                    INK.stroke_width(1),
                )))
                .map_err(err)?;
        }
        for (k, b) in bars.iter().enumerate() {
            let y = (n - 1 - k) as i32;
            let mut rect = Rectangle::new(
                [(0.0, SegmentValue::Exact(y)), (b.value, SegmentValue::Exact(y + 1))],
                b.colour.mix(0.75).filled(),
            );
            rect.set_margin(5, 5, 0, 0);
            chart.draw_series(std::iter::once(rect)).map_err(err)?;
            if let Some([l, h]) = b.ci95 {
                chart
                    .draw_series(std::iter::once(ErrorBar::new_horizontal(
                        SegmentValue::CenterOf(y),
                        l,
                        b.value,
                        h,
                        INK.stroke_width(2),
                        10,
                    )))
                    .map_err(err)?;
            }
        }
        if let Some(r) = reference.filter(|r| r.is_finite()) {
            chart
                .draw_series(std::iter::once(DashedPathElement::new(
                    vec![(r, SegmentValue::Exact(0)), (r, SegmentValue::Exact(n as i32))],
                    6,
                    4,
                    FAIR.stroke_width(2),
                )))
                .map_err(err)?;
        }
        Ok(())
    })
}

/// One distribution: counts of each value, drawn as shares of its games.
pub struct Series {
    pub label: String,
    pub counts: BTreeMap<i64, u64>,
    pub colour: RGBColor,
}

/// Distributions over integer values: columns when there is one series, lines with
/// points when several are overlaid. The y axis is the share of games.
pub fn distribution(series: &[Series], axis: &str) -> Result<String, Error> {
    let keys = || series.iter().flat_map(|s| s.counts.keys().copied());
    let (Some(x0), Some(x1)) = (keys().min(), keys().max()) else {
        return svg((760, 60), |_| Ok(()));
    };
    // Wide ranges in bins of `width` values (about 30 bins), drawn at the bins' centres.
    let width = ((x1 - x0) / 30 + 1).max(1);
    let share = |s: &Series| {
        let total = s.counts.values().sum::<u64>().max(1) as f64;
        let mut bins: BTreeMap<i64, u64> = BTreeMap::new();
        for (&v, &n) in &s.counts {
            *bins.entry((v - x0).div_euclid(width)).or_default() += n;
        }
        let centre = |b: i64| x0 as f64 + (b * width) as f64 + (width - 1) as f64 / 2.0;
        bins.into_iter().map(|(b, n)| (centre(b), n as f64 / total)).collect::<Vec<_>>()
    };
    let top = series.iter().flat_map(|s| share(s).into_iter().map(|(_, p)| p)).fold(0.0_f64, f64::max).max(0.01);
    let single = series.len() == 1;
    svg((760, 300), |root| {
        let mut chart = ChartBuilder::on(root)
            .margin_top(12)
            .margin_right(24)
            .x_label_area_size(36)
            .y_label_area_size(56)
            .build_cartesian_2d((x0 as f64 - 0.5)..(x1 as f64 + 0.5 + (width - 1) as f64), 0.0..top * 1.08)
            .map_err(err)?;
        let xlabel = |v: &f64| format!("{v:.0}");
        let ylabel = |v: &f64| axis_percent(*v);
        chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(WHITE)
            .bold_line_style(GRID)
            .axis_style(INK)
            .x_label_formatter(&xlabel)
            .y_label_formatter(&ylabel)
            .x_desc(axis)
            .y_desc("share of games")
            .label_style((FONT, 13).into_font().color(&INK))
            .axis_desc_style((FONT, 13).into_font().color(&INK))
            .draw()
            .map_err(err)?;
        for s in series {
            let points = share(s);
            if single {
                let columns = points.iter().map(|&(v, p)| {
                    let half = width as f64 / 2.0 - 0.05;
                    let mut r = Rectangle::new([(v - half, 0.0), (v + half, p)], s.colour.mix(0.8).filled());
                    r.set_margin(0, 0, 1, 1);
                    r
                });
                chart.draw_series(columns).map_err(err)?;
            } else {
                let xy = points.clone();
                chart.draw_series(LineSeries::new(xy.clone(), s.colour.stroke_width(2))).map_err(err)?;
                chart.draw_series(xy.into_iter().map(|p| Circle::new(p, 2, s.colour.filled()))).map_err(err)?;
            }
        }
        Ok(())
    })
}

/// A small interval glyph for a table row: the 95% interval as a bar around the mean,
/// on the row's own symmetric scale with zero in the middle.
pub fn interval_glyph(mean: f64, ci95: [f64; 2], significant: bool) -> Result<String, Error> {
    let m = ci95[0].abs().max(ci95[1].abs()).max(mean.abs());
    let m = if m.is_finite() && m > 0.0 { m * 1.1 } else { 1.0 };
    let colour = if significant { PALETTE[5] } else { PALETTE[6] };
    svg((160, 18), |root| {
        let mut chart = ChartBuilder::on(root).build_cartesian_2d(-m..m, 0.0..1.0).map_err(err)?;
        chart.draw_series(std::iter::once(PathElement::new(vec![(0.0, 0.0), (0.0, 1.0)], INK))).map_err(err)?;
        let (l, h) = (ci95[0].clamp(-m, m), ci95[1].clamp(-m, m));
        chart
            .draw_series(std::iter::once(Rectangle::new([(l, 0.3), (h, 0.7)], colour.mix(0.6).filled())))
            .map_err(err)?;
        chart.draw_series(std::iter::once(Circle::new((mean.clamp(-m, m), 0.5), 3, colour.filled()))).map_err(err)?;
        Ok(())
    })
}

/// One figure of a sweep plot: a value at each x (none where undefined) with its 95%
/// interval.
pub struct Band {
    pub points: Vec<(f64, Option<f64>, Option<[f64; 2]>)>,
    pub colour: RGBColor,
}

/// A percentage for an axis, to the percent: never `-0%` (a tick just below zero).
pub fn axis_percent(v: f64) -> String {
    let p = (100.0 * v).round();
    format!("{}%", if p == 0.0 { 0.0 } else { p })
}

/// The reference lines of a sweep plot.
#[derive(Clone, Copy, Debug, Default)]
pub struct Marks {
    /// `tune`'s target: a red line across.
    pub target: Option<f64>,
    /// The fair share (1 / players) of a win share: a dashed grey line across.
    pub fair: Option<f64>,
    /// The x of the base (bundled) value: a dashed grey line up, labelled `base`.
    pub base_x: Option<f64>,
    /// The x of `tune`'s answer: a red line up, labelled `answer`.
    pub answer_x: Option<f64>,
}

/// A figure over a swept value: a marker at each measured value with its 95% interval as
/// a whisker, and no line between values (nothing was measured there). `ticks`: the x
/// positions' labels when x is not itself the value (a list of values); `percent`: the y
/// axis in %.
pub fn bands(
    series: &[Band],
    x_axis: &str,
    ticks: Option<&[String]>,
    y_axis: &str,
    percent: bool,
    marks: Marks,
) -> Result<String, Error> {
    let finite = |v: Option<f64>| v.filter(|v| v.is_finite());
    let xs = || series.iter().flat_map(|s| s.points.iter().map(|p| p.0)).chain(finite(marks.base_x));
    let ys = || {
        series
            .iter()
            .flat_map(|s| {
                s.points.iter().flat_map(|&(_, v, ci)| v.into_iter().chain(ci.into_iter().flat_map(|c| [c[0], c[1]])))
            })
            .chain(finite(marks.target))
            .chain(finite(marks.fair))
    };
    let (x0, x1) = (xs().fold(f64::INFINITY, f64::min), xs().fold(f64::NEG_INFINITY, f64::max));
    let (mut y0, mut y1) = (ys().fold(f64::INFINITY, f64::min), ys().fold(f64::NEG_INFINITY, f64::max));
    if !(x0.is_finite() && x1.is_finite() && y0.is_finite() && y1.is_finite()) {
        return svg((760, 60), |_| Ok(()));
    }
    if y1 - y0 <= f64::EPSILON {
        (y0, y1) = (y0 - 0.5, y1 + 0.5);
    }
    let pad = (y1 - y0) * 0.08;
    let (y0, y1) = (y0 - pad, y1 + pad);
    let xpad = if x1 > x0 { (x1 - x0) * 0.04 } else { 0.5 };
    // Several figures at one value sit side by side, a little apart, not on each other.
    let spread = if x1 > x0 { (x1 - x0) * 0.012 } else { 0.05 };
    // Integer values (a cost, a count) get labels at integers only.
    let integral = xs().all(|x| x.fract() == 0.0);
    svg((760, 300), |root| {
        let mut chart = ChartBuilder::on(root)
            .margin_top(14)
            .margin_right(24)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d((x0 - xpad)..(x1 + xpad), y0..y1)
            .map_err(err)?;
        let xlabel = |v: &f64| match ticks {
            Some(t) => {
                let k = v.round();
                if (v - k).abs() < 1e-6 && k >= 0.0 {
                    t.get(k as usize).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            }
            None if integral && (v - v.round()).abs() > 1e-9 => String::new(),
            None => format!("{}", (v * 1000.0).round() / 1000.0),
        };
        let ylabel = |v: &f64| if percent { axis_percent(*v) } else { format!("{}", (v * 100.0).round() / 100.0) };
        let mut mesh = chart.configure_mesh();
        mesh.disable_x_mesh()
            .light_line_style(WHITE)
            .bold_line_style(GRID)
            .axis_style(INK)
            .x_label_formatter(&xlabel)
            .y_label_formatter(&ylabel)
            .x_desc(x_axis)
            .y_desc(y_axis)
            .label_style((FONT, 13).into_font().color(&INK))
            .axis_desc_style((FONT, 13).into_font().color(&INK));
        if let Some(t) = ticks {
            mesh.x_labels(t.len().max(2));
        } else if integral {
            mesh.x_labels(((x1 - x0) as usize + 1).clamp(2, 20));
        }
        mesh.draw().map_err(err)?;
        let (left, right) = (x0 - xpad, x1 + xpad);
        // Labels of lines across sit at the right end, above the line, clear of the first values.
        let label =
            |text: &str, at: (f64, f64), c: RGBColor| Text::new(text.to_string(), at, (FONT, 15).into_font().color(&c));
        let across = |text: &str, y: f64, c: RGBColor| {
            let style = (FONT, 15).into_font().color(&c).pos(Pos::new(HPos::Right, VPos::Bottom));
            Text::new(text.to_string(), (right, y), style)
        };
        if y0 < 0.0 && y1 > 0.0 {
            chart
                .draw_series(std::iter::once(PathElement::new(vec![(left, 0.0), (right, 0.0)], INK.stroke_width(1))))
                .map_err(err)?;
        }
        if let Some(f) = finite(marks.fair) {
            chart
                .draw_series(std::iter::once(DashedPathElement::new(
                    vec![(left, f), (right, f)],
                    6,
                    4,
                    FAIR.stroke_width(2),
                )))
                .map_err(err)?;
            let text = format!("fair share {}", axis_percent(f));
            chart.draw_series(std::iter::once(across(&text, f, FAIR))).map_err(err)?;
        }
        if let Some(b) = finite(marks.base_x) {
            chart
                .draw_series(std::iter::once(DashedPathElement::new(
                    vec![(b, y0), (b, y1)],
                    4,
                    4,
                    FAIR.stroke_width(2),
                )))
                .map_err(err)?;
            chart.draw_series(std::iter::once(label(" base", (b, y1), FAIR))).map_err(err)?;
        }
        if let Some(t) = finite(marks.target) {
            chart
                .draw_series(std::iter::once(PathElement::new(vec![(left, t), (right, t)], PALETTE[5].stroke_width(2))))
                .map_err(err)?;
            chart.draw_series(std::iter::once(across("target", t, PALETTE[5]))).map_err(err)?;
        }
        if let Some(a) = finite(marks.answer_x) {
            chart
                .draw_series(std::iter::once(PathElement::new(vec![(a, y0), (a, y1)], PALETTE[5].stroke_width(1))))
                .map_err(err)?;
            chart.draw_series(std::iter::once(label(" answer", (a, y1), PALETTE[5]))).map_err(err)?;
        }
        let n = series.len() as f64;
        for (k, s) in series.iter().enumerate() {
            let dx = (k as f64 - (n - 1.0) / 2.0) * spread;
            for &(x, v, ci) in &s.points {
                let Some(v) = v else { continue };
                if let Some([lo, hi]) = ci {
                    chart
                        .draw_series(std::iter::once(ErrorBar::new_vertical(
                            x + dx,
                            lo,
                            v,
                            hi,
                            s.colour.stroke_width(2),
                            8,
                        )))
                        .map_err(err)?;
                }
                chart.draw_series(std::iter::once(Circle::new((x + dx, v), 4, s.colour.filled()))).map_err(err)?;
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn axis_never_reads_minus_zero() {
        assert_eq!(super::axis_percent(-0.001), "0%");
        assert_eq!(super::axis_percent(-0.0), "0%");
        assert_eq!(super::axis_percent(-0.25), "-25%");
        assert_eq!(super::axis_percent(0.5), "50%");
    }
}
