//! The numbered menu of legal actions and what a typed line means: a number, an action
//! in the game's notation (any case, extra spaces), an unambiguous prefix, or a typo
//! answered with "did you mean".

use rulesmith::core::screen::{WIDTH, pad, width};

/// What the player meant by a line, against the legal actions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Meaning {
    /// This legal action (canonical spelling).
    Action(String),
    /// A number outside the menu.
    OutOfRange(usize),
    /// A prefix of several actions (the first few).
    Ambiguous(Vec<String>),
    /// Nothing legal matches; pass the text to the game, which may still read it (other
    /// spellings), with the closest legal action to suggest if it does not.
    Other { suggestion: Option<String> },
}

/// Lowercase with runs of whitespace as one space.
pub fn normalise(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

pub fn meaning(input: &str, legal: &[String]) -> Meaning {
    let typed = normalise(input);
    if let Ok(n) = typed.parse::<usize>() {
        return match n.checked_sub(1).and_then(|i| legal.get(i)) {
            Some(a) => Meaning::Action(a.clone()),
            None => Meaning::OutOfRange(n),
        };
    }
    if let Some(a) = legal.iter().find(|a| normalise(a) == typed) {
        return Meaning::Action(a.clone());
    }
    let starts: Vec<&String> = legal.iter().filter(|a| normalise(a).starts_with(&typed)).collect();
    match starts.len() {
        1 => return Meaning::Action(starts[0].clone()),
        n if n > 1 => return Meaning::Ambiguous(starts.iter().take(8).map(|s| s.to_string()).collect()),
        _ => {}
    }
    // The closest legal action, the first in menu order among equals.
    let mut suggestion: Option<(f64, &String)> = None;
    for a in legal {
        let score = strsim::normalized_damerau_levenshtein(&normalise(a), &typed);
        if score >= 0.5 && suggestion.is_none_or(|(best, _)| score > best) {
            suggestion = Some((score, a));
        }
    }
    let suggestion = suggestion.map(|(_, a)| a.clone());
    Meaning::Other { suggestion }
}

/// The menu: `  1 settler (+1 doubloon)`, in as many columns as fit 80 characters.
pub fn render(legal: &[(String, Option<String>)]) -> String {
    let digits = legal.len().to_string().len();
    let items: Vec<String> = legal
        .iter()
        .enumerate()
        .map(|(i, (a, note))| match note {
            Some(n) => format!("{:>digits$} {a} ({n})", i + 1),
            None => format!("{:>digits$} {a}", i + 1),
        })
        .collect();
    let w = items.iter().map(|s| width(s)).max().unwrap_or(0) + 3;
    let cols = (WIDTH / w.max(1)).clamp(1, 4);
    let rows = items.len().div_ceil(cols);
    let mut out = String::new();
    for r in 0..rows {
        let mut line = String::new();
        for c in 0..cols {
            if let Some(item) = items.get(c * rows + r) {
                line.push_str(&pad(&format!(" {item}"), w));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn legal() -> Vec<String> {
        ["settler", "mayor", "builder", "build harbor", "build hacienda", "pass"].map(String::from).to_vec()
    }

    #[test]
    fn numbers_notation_case_and_prefixes() {
        let l = legal();
        assert_eq!(meaning("2", &l), Meaning::Action("mayor".into()));
        assert_eq!(meaning("7", &l), Meaning::OutOfRange(7));
        assert_eq!(meaning("  BUILD   Harbor ", &l), Meaning::Action("build harbor".into()));
        assert_eq!(meaning("sett", &l), Meaning::Action("settler".into()));
        assert_eq!(meaning("build h", &l), Meaning::Ambiguous(vec!["build harbor".into(), "build hacienda".into()]));
        assert_eq!(meaning("setler", &l), Meaning::Other { suggestion: Some("settler".into()) });
        assert_eq!(meaning("xyzzy", &l), Meaning::Other { suggestion: None });
    }

    #[test]
    fn the_menu_fits_80_columns() {
        let l: Vec<(String, Option<String>)> =
            (0..60).map(|i| (format!("action number {i}"), (i % 2 == 0).then(|| "costs 3".into()))).collect();
        let m = render(&l);
        assert!(m.lines().all(|x| width(x) <= WIDTH), "{m}");
        assert!(m.contains("60 action number 59"));
    }
}
