//! The page of a training run (`rulesmith train --html`): the learning curve, the learned
//! player's win share against two `greedy` players as training went on.

use crate::error::Error;
use crate::plot::{Band, Marks, bands, colour};
use crate::view::{esc, pct};
use std::fmt::Write as _;

/// The body of a training run's page, from its JSON (`rulesmith train --json`): `ruleset`,
/// `players`, `command` and `curve`, a list of `{steps, seconds, win_share, low, high,
/// games}`. The crate root wraps it in the page's head and footer.
pub(crate) fn body(run: &serde_json::Value, o: &mut String) -> Result<(), Error> {
    let text = |k: &str| run.get(k).and_then(|v| v.as_str()).unwrap_or_default().to_string();
    let players = run.get("players").and_then(serde_json::Value::as_u64).unwrap_or(0);
    let curve = run.get("curve").and_then(|c| c.as_array()).cloned().unwrap_or_default();
    let num = |p: &serde_json::Value, k: &str| p.get(k).and_then(serde_json::Value::as_f64);
    let points: Vec<(f64, Option<f64>, Option<[f64; 2]>)> = curve
        .iter()
        .filter_map(|p| {
            let ci = num(p, "low").zip(num(p, "high")).map(|(l, h)| [l, h]);
            Some((num(p, "steps")?, num(p, "win_share"), ci))
        })
        .collect();
    let fair = if players > 0 { Some(1.0 / players as f64) } else { None };
    let svg = bands(
        &[Band { points, colour: colour(0) }],
        "learner decisions trained on",
        None,
        "win share against greedy",
        true,
        Marks { fair, ..Marks::default() },
    )?;
    let _ = write!(o, "<h1>Training a learned player · {}</h1>", esc(&text("ruleset")));
    let _ = write!(o, "<p class=\"note\"><code>{}</code></p>", esc(&text("command")));
    if let Some(last) = curve.last() {
        let (w, l, h, g) = (
            num(last, "win_share").unwrap_or(f64::NAN),
            num(last, "low").unwrap_or(f64::NAN),
            num(last, "high").unwrap_or(f64::NAN),
            num(last, "games").unwrap_or(0.0),
        );
        let _ = write!(
            o,
            "<p>After training: <b>{}</b> of {g} seat-rotated {players}-player games won against {} greedy \
             (95% interval {} to {}; fair share {}).</p>",
            pct(w),
            players.saturating_sub(1),
            pct(l),
            pct(h),
            fair.map_or_else(String::new, pct)
        );
    }
    let _ = write!(
        o,
        "<section><h2>Learning curve</h2><p class=\"note\">Each point: the policy of that moment playing one seat \
         against greedy players, seats rotated, on the same seeds every time; the whisker is the 95% interval; \
         the dashed line is the fair share.</p><figure>{svg}</figure>"
    );
    o.push_str("<table><tr><th>steps</th><th>seconds</th><th>games</th><th>win share</th><th>95% interval</th></tr>");
    for p in &curve {
        let _ = write!(
            o,
            "<tr><td>{}</td><td>{:.0}</td><td>{}</td><td>{}</td><td>{} – {}</td></tr>",
            num(p, "steps").unwrap_or(0.0),
            num(p, "seconds").unwrap_or(0.0),
            num(p, "games").unwrap_or(0.0),
            pct(num(p, "win_share").unwrap_or(f64::NAN)),
            pct(num(p, "low").unwrap_or(f64::NAN)),
            pct(num(p, "high").unwrap_or(f64::NAN))
        );
    }
    o.push_str("</table></section>");
    Ok(())
}
