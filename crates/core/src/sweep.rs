//! Sweeps of a ruleset's value: the values of `--vary KEY=A..B[:STEP]` or
//! `--vary KEY=v1,v2,…`, and the named figures a sweep reports and `tune` aims at.

use crate::sim::Report;
use serde::Serialize;

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
            if !(step > 0.0) || b < a {
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
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Named {
    pub figure: String,
    pub value: Option<f64>,
    pub ci95: Option<[f64; 2]>,
}

/// The named figures of a report: `seat K win share`, `seat K score`, `rounds`,
/// `ended by E`, every designer metric as `GROUP: NAME FIGURE` (`building: harbor owner
/// win share`), and for each component `ITEM owner − non-owner win share` (interval:
/// normal approximation of the difference of two independent shares). `rounds_sd`: the
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
        push(format!("seat {} score", s.seat), defined.then_some(s.score_mean), Some([s.score_mean - h, s.score_mean + h]));
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
    let mut owners: Vec<(String, String, String, Option<f64>, Option<[f64; 2]>)> = Vec::new();
    for f in &r.metrics {
        let name = format!("{}: {} {}", f.group, f.name, f.figure);
        // A share of no seat-games is undefined, not 0.
        let empty = !f.value.is_finite() || (f.ci95 == Some([0.0, 1.0]) && f.value == 0.0);
        let value = (!empty).then_some(f.value);
        if f.figure.ends_with(" win share") && f.group != "seat" {
            owners.push((f.group.clone(), f.name.clone(), f.figure.clone(), value, f.ci95));
        }
        push(name, value, f.ci95);
    }
    // Owners' minus non-owners' win share of each item: the figure that says it is too strong.
    for (i, (g, n, fig, v, ci)) in owners.iter().enumerate() {
        if fig.starts_with("non-") {
            continue;
        }
        let Some((_, _, _, w, cj)) = owners.iter().skip(i + 1).find(|o| &o.0 == g && &o.1 == n && o.2 == format!("non-{fig}"))
        else {
            continue;
        };
        let who = fig.trim_end_matches(" win share");
        let value = v.zip(*w).map(|(a, b)| a - b);
        let half = |c: &Option<[f64; 2]>| c.map(|c| (c[1] - c[0]) / 2.0);
        let ci = value.zip(half(ci).zip(half(cj))).map(|(d, (a, b))| {
            let h = (a * a + b * b).sqrt();
            [d - h, d + h]
        });
        push(format!("{g}: {n} {who} − non-{who} win share"), value, ci);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let g = grid(&[parse_vary("a=1,2").unwrap_or_else(|e| panic!("{e}")), parse_vary("b=3..5").unwrap_or_else(|e| panic!("{e}"))]);
        assert_eq!(g.len(), 6);
        assert_eq!(g[1], vec!["1".to_string(), "4".to_string()]);
        assert_eq!(item_of("buildings.harbor.cost"), Some("harbor"));
        assert_eq!(item_of("setup.ships.4"), Some("ships"));
        assert_eq!(item_of("rules"), None);
    }
}
