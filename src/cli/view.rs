//! A concise, indented text view of any game's JSON state for the terminal.

use serde_json::Value;

/// Lines wider than this are broken into nested lines.
const WIDTH: usize = 100;

/// Keys that are noise for a player (the state's random generator).
fn hidden(key: &str) -> bool {
    key == "rng"
}

/// The value on one line, if it is short enough.
fn inline(v: &Value) -> String {
    match v {
        Value::Null => "-".into(),
        Value::Bool(b) => if *b { "yes" } else { "no" }.into(),
        Value::Number(n) => n.to_string(),
        Value::String(s) if s.is_empty() => "\"\"".into(),
        Value::String(s) => s.clone(),
        Value::Array(a) => format!("[{}]", a.iter().map(inline).collect::<Vec<_>>().join(", ")),
        Value::Object(m) => format!(
            "{{{}}}",
            m.iter()
                .filter(|(k, _)| !hidden(k))
                .map(|(k, v)| format!("{k}: {}", inline(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

fn render(label: &str, v: &Value, indent: usize, out: &mut String) {
    let pad = " ".repeat(indent);
    let one = inline(v);
    let nested = |x: &Value| matches!(x, Value::Array(_) | Value::Object(_));
    let flat = match v {
        Value::Array(a) => !a.iter().any(nested),
        other => !nested(other),
    };
    // Short values, and lists of plain values however long, stay on one line.
    if flat || indent + label.len() + 2 + one.len() <= WIDTH {
        out.push_str(&format!("{pad}{label}: {one}\n"));
        return;
    }
    out.push_str(&format!("{pad}{label}:\n"));
    // A long table of plain values: `key: value` pairs wrapped over a few lines.
    if let Value::Object(m) = v {
        if !m.values().any(nested) {
            let pairs: Vec<String> =
                m.iter().filter(|(k, _)| !hidden(k)).map(|(k, x)| format!("{k}: {}", inline(x))).collect();
            let mut line = String::new();
            for p in pairs {
                if !line.is_empty() && indent + 2 + line.len() + 2 + p.len() > WIDTH {
                    out.push_str(&format!("{pad}  {line}\n"));
                    line.clear();
                }
                if !line.is_empty() {
                    line.push_str(", ");
                }
                line.push_str(&p);
            }
            if !line.is_empty() {
                out.push_str(&format!("{pad}  {line}\n"));
            }
            return;
        }
    }
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter().filter(|(k, _)| !hidden(k)) {
                render(k, x, indent + 2, out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                render(&format!("[{i}]"), x, indent + 2, out);
            }
        }
        _ => {}
    }
}

/// The whole value, one key per line, nested values indented.
pub fn concise(v: &Value) -> String {
    let mut out = String::new();
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter().filter(|(k, _)| !hidden(k)) {
                render(k, x, 0, &mut out);
            }
        }
        other => render("state", other, 0, &mut out),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn short_values_stay_on_one_line_and_long_ones_nest() {
        let v = json!({"pile": 3, "rng": {"state": 1}, "players": [{"taken": 1, "passed": false}], "long": (0..60).collect::<Vec<_>>()});
        let s = concise(&v);
        assert!(s.contains("pile: 3\n"), "{s}");
        assert!(s.contains("players: [{passed: no, taken: 1}]\n"), "{s}");
        assert!(!s.contains("rng"), "{s}");
        assert!(s.contains("long: [0, 1, 2,"), "{s}");
        let wide = json!({"board": [{"name": "x".repeat(60), "n": 1}, {"name": "y".repeat(60), "n": 2}]});
        let s = concise(&wide);
        assert!(s.starts_with("board:\n  [0]: {n: 1, name: xxx"), "{s}");
        let table: serde_json::Map<String, Value> = (0..30).map(|i| (format!("key{i:02}"), json!(i))).collect();
        let s = concise(&json!({ "table": table }));
        assert!(s.starts_with("table:\n  key00: 0, key01: 1,"), "{s}");
        assert!(s.lines().count() > 2 && s.lines().all(|l| l.len() <= WIDTH), "{s}");
    }
}
