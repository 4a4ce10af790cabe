//! A two-number grid (`sweep --vary A --vary B`) as heatmaps: one table per figure, the
//! first key's values down, the second's across, each cell coloured by its difference
//! from the base cell and marked when that difference is significant.

use crate::view::{PointView, VaryKey, esc, is_share, pct};
use std::fmt::Write as _;

/// Blends `c` towards white: `t` = 0 white, 1 the colour itself.
fn tint(c: (u8, u8, u8), t: f64) -> String {
    let t = t.clamp(0.0, 1.0);
    let f = |v: u8| (255.0 - (255.0 - f64::from(v)) * t).round() as u8;
    format!("#{:02x}{:02x}{:02x}", f(c.0), f(c.1), f(c.2))
}

/// Higher than the base: vermillion; lower: blue (Okabe–Ito, as the plots).
const UP: (u8, u8, u8) = (213, 94, 0);
const DOWN: (u8, u8, u8) = (0, 114, 178);

/// One heatmap of `figure` over the grid of `vary` (two keys).
pub fn heatmap(o: &mut String, figure: &str, vary: &[VaryKey], points: &[PointView]) {
    let [rows, cols] = vary else { return };
    let at = |r: &str, c: &str| {
        points.iter().find(|p| p.values.as_deref().is_some_and(|v| v.len() == 2 && v[0] == r && v[1] == c))
    };
    let value = |p: &PointView| p.figures.iter().find(|f| f.figure == figure).and_then(|f| f.value);
    let base = points.iter().find(|p| p.base).and_then(value);
    // The difference from the base: the paired one when there is one, else of the values.
    let diff = |p: &PointView| match p.differences.iter().find(|d| d.figure == figure) {
        Some(d) => Some((d.mean, d.significant)),
        None => value(p).zip(base).map(|(v, b)| (v - b, false)),
    };
    let widest = points.iter().filter(|p| !p.base).filter_map(diff).map(|(d, _)| d.abs()).fold(0.0_f64, f64::max);
    let share = is_share(figure);
    let show = |v: f64| if share { pct(v) } else { format!("{v:.2}") };
    let _ = write!(
        o,
        "<div class=\"hm\"><h3>{}</h3><div class=\"scroll\"><table class=\"heatmap\" data-figure=\"{}\"><thead><tr><th>{} ↓<br>{} →</th>",
        esc(figure),
        esc(figure),
        esc(&rows.key),
        esc(&cols.key)
    );
    for c in &cols.values {
        let _ = write!(o, "<th class=\"n\">{}</th>", esc(c));
    }
    o.push_str("</tr></thead><tbody>");
    for r in &rows.values {
        let _ = write!(o, "<tr><th>{}</th>", esc(r));
        for c in &cols.values {
            let Some(p) = at(r, c) else {
                o.push_str("<td class=\"cell none\">–</td>");
                continue;
            };
            let v = value(p);
            let d = diff(p).filter(|_| !p.base);
            let (bg, sig) = match d {
                Some((d, sig)) if widest > 0.0 => {
                    (tint(if d >= 0.0 { UP } else { DOWN }, 0.65 * d.abs() / widest), sig)
                }
                Some((_, sig)) => ("#ffffff".to_string(), sig),
                None => ("#ffffff".to_string(), false),
            };
            let class = if p.base {
                "cell base"
            } else if sig {
                "cell sig"
            } else {
                "cell"
            };
            let change = match d {
                Some((d, sig)) => {
                    let t = if share { format!("{:+.1} pp", 100.0 * d) } else { format!("{d:+.2}") };
                    format!("<small>{t}{}</small>", if sig { " *" } else { "" })
                }
                None if p.base => "<small>base</small>".to_string(),
                None => String::new(),
            };
            let _ = write!(
                o,
                "<td class=\"{class}\" style=\"background:{bg}\">{}{change}</td>",
                v.map_or("–".to_string(), show)
            );
        }
        o.push_str("</tr>");
    }
    o.push_str("</tbody></table></div></div>");
}
