//! What a seat cannot see of a position, as data: the parts of the full state its view
//! leaves out or masks, with their values. A step that leaves this unchanged drew nothing
//! (the generator is one of those parts) and revealed nothing to the seat (a face-down
//! tile turned up, another player's hidden holding changed): undo at a table by links may
//! go back over it without letting the seat peek.

use rulesmith_core::erased::AnySession;
use rulesmith_core::game::Seat;
use serde_json::Value;

/// The parts of `state` that `view` leaves out or shows otherwise, each with its JSON
/// pointer and its value in the state.
pub fn unseen(state: &Value, view: &Value) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    walk(state, Some(view), &mut String::new(), &mut out);
    out
}

fn walk(state: &Value, view: Option<&Value>, at: &mut String, out: &mut Vec<(String, Value)>) {
    let len = at.len();
    match (state, view) {
        (Value::Object(s), Some(Value::Object(v))) => {
            for (k, x) in s {
                at.push('/');
                at.push_str(k);
                walk(x, v.get(k), at, out);
                at.truncate(len);
            }
        }
        (Value::Array(s), Some(Value::Array(v))) if s.len() == v.len() => {
            for (i, (x, y)) in s.iter().zip(v).enumerate() {
                at.push('/');
                at.push_str(&i.to_string());
                walk(x, Some(y), at, out);
                at.truncate(len);
            }
        }
        (s, Some(v)) if s == v => {}
        (s, _) => out.push((at.clone(), s.clone())),
    }
}

/// What `seat` cannot see of `session`'s position now.
pub fn unseen_by(session: &dyn AnySession, seat: Seat) -> Vec<(String, Value)> {
    unseen(&session.state_json(), &session.view_json(seat))
}

/// The first of `actions` (played from `session`'s position, in order) after which what
/// `seat` cannot see is not what it was before them — a draw or a reveal — as its index
/// in `actions` with a message; `None` if every one of them left it as it was. `session`
/// ends after the actions played.
pub fn first_draw_or_reveal(
    session: &mut dyn AnySession,
    seat: Seat,
    actions: &[String],
) -> Result<Option<usize>, String> {
    let before = unseen_by(session, seat);
    for (i, a) in actions.iter().enumerate() {
        session.play(a).map_err(|e| format!("`{a}`: {e}"))?;
        if unseen_by(session, seat) != before {
            return Ok(Some(i));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn masked_and_missing_parts_are_unseen_and_shown_ones_are_not() {
        let state = json!({"rng": {"state": 5}, "players": [{"vp": 3, "pesos": 2}, {"vp": 4, "pesos": 1}], "stack": ["a", "b"]});
        let view = json!({"players": [{"vp": 3, "pesos": 2}, {"vp": "hidden", "pesos": 1}], "stack": {"tiles": 2}, "extra": 1});
        let mut found = unseen(&state, &view);
        found.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(
            found,
            vec![
                ("/players/1/vp".to_string(), json!(4)),
                ("/rng".to_string(), json!({"state": 5})),
                ("/stack".to_string(), json!(["a", "b"])),
            ]
        );
        assert!(unseen(&state, &state).is_empty());
    }
}
