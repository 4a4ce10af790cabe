//! Text screens of a game for the terminal: a [`Style`] that paints with ANSI colour on
//! a terminal and leaves text plain otherwise (pipes, `NO_COLOR`, snapshots), and small
//! layout helpers the games' screens share.

use crate::by_player::Seat;
use crate::game::ToMove;
use crate::json::StateJson;
use anstyle::{AnsiColor, Effects, Style as Paint};

/// A capability: the game drawn for a terminal (`rulesmith play`, `rulesmith show-game`).
pub trait Screen: StateJson {
    /// The position as `seat` sees it, drawn for an 80×40 terminal in the game's own
    /// words; what `seat` may not see is drawn as hidden. Games override this; the
    /// default is a compact summary.
    fn screen(&self, state: &Self::State, seat: Seat, style: &Style) -> String {
        let who = match self.to_move(state) {
            ToMove::Seat(s) => format!("seat {s} to move"),
            ToMove::Terminal => "the game is over".to_string(),
        };
        let mut out = format!(
            "{} · round {} · {who} · you are {}\n",
            self.game_id(),
            self.progress(state).rounds,
            style.seat(seat, &format!("seat {seat}"))
        );
        // Every part of the seat's view (hidden values marked as such), one line each.
        if let serde_json::Value::Object(m) = self.view_to_json(state, seat) {
            for (k, v) in &m {
                let items = [v.to_string()];
                wrap(&format!("{k}: "), &items, "", &mut out);
            }
        }
        out
    }

    /// A short note of what a legal action costs or gives (`3 doubloons`), where the game
    /// knows it, for the numbered menu of `play`. Default: none.
    fn annotate(&self, _state: &Self::State, _action: Self::Action) -> Option<String> {
        None
    }
}

/// Screens are drawn for a terminal this wide.
pub const WIDTH: usize = 80;

/// How a screen is painted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// ANSI colour and emphasis; plain text when false.
    pub colour: bool,
}

/// What others may not see, as drawn on every screen.
pub const HIDDEN: &str = "?";

const SEAT_COLOURS: [AnsiColor; 6] =
    [AnsiColor::Red, AnsiColor::Blue, AnsiColor::Green, AnsiColor::Magenta, AnsiColor::Cyan, AnsiColor::Yellow];

impl Style {
    pub const PLAIN: Style = Style { colour: false };

    fn paint(&self, p: Paint, text: &str) -> String {
        if self.colour && !text.is_empty() {
            format!("{}{text}{}", p.render(), p.render_reset())
        } else {
            text.to_string()
        }
    }

    /// Headings and the seat that is looking.
    pub fn bold(&self, text: &str) -> String {
        self.paint(Paint::new().effects(Effects::BOLD), text)
    }

    /// Labels and things out of play.
    pub fn dim(&self, text: &str) -> String {
        self.paint(Paint::new().effects(Effects::DIMMED), text)
    }

    /// A seat's own colour (the same on every screen).
    pub fn seat(&self, seat: Seat, text: &str) -> String {
        let c = SEAT_COLOURS[seat as usize % SEAT_COLOURS.len()];
        self.paint(Paint::new().fg_color(Some(c.into())).effects(Effects::BOLD), text)
    }

    /// A value hidden from this seat.
    pub fn hidden(&self) -> String {
        self.paint(Paint::new().effects(Effects::DIMMED | Effects::ITALIC), HIDDEN)
    }

    /// A named colour (goods, terrain): `red`, `yellow`, `green`, `blue`, `magenta`,
    /// `cyan`, `white`, `black`; anything else is left plain.
    pub fn colour(&self, name: &str, text: &str) -> String {
        let c = match name {
            "red" => AnsiColor::Red,
            "yellow" => AnsiColor::Yellow,
            "green" => AnsiColor::Green,
            "blue" => AnsiColor::Blue,
            "magenta" => AnsiColor::Magenta,
            "cyan" => AnsiColor::Cyan,
            "white" => AnsiColor::White,
            "black" => AnsiColor::BrightBlack,
            _ => return text.to_string(),
        };
        self.paint(Paint::new().fg_color(Some(c.into())), text)
    }
}

/// The visible width of painted text (ANSI escapes count zero, every char one).
pub fn width(text: &str) -> usize {
    let mut n = 0;
    let mut in_escape = false;
    for c in text.chars() {
        if in_escape {
            if c.is_ascii_alphabetic() {
                in_escape = false;
            }
        } else if c == '\x1b' {
            in_escape = true;
        } else {
            n += 1;
        }
    }
    n
}

/// Pads painted text with spaces to `w` visible columns.
pub fn pad(text: &str, w: usize) -> String {
    let n = width(text);
    if n >= w { text.to_string() } else { format!("{text}{}", " ".repeat(w - n)) }
}

/// Lays out painted items after `label`, wrapped to [`WIDTH`] with continuation lines
/// indented under the first item; `sep` goes between items on a line.
pub fn wrap(label: &str, items: &[String], sep: &str, out: &mut String) {
    let indent = width(label);
    let mut line = label.to_string();
    let mut line_w = indent;
    let mut first = true;
    for item in items {
        let w = width(item);
        let extra = if first { 0 } else { width(sep) };
        if !first && line_w + extra + w > WIDTH {
            out.push_str(line.trim_end());
            out.push('\n');
            line = " ".repeat(indent);
            line_w = indent;
            first = true;
        }
        if !first {
            line.push_str(sep);
            line_w += extra;
        }
        line.push_str(item);
        line_w += w;
        first = false;
    }
    out.push_str(line.trim_end());
    out.push('\n');
}

/// `head · tail` on one line if it fits [`WIDTH`], else `tail` on the next line, indented.
pub fn head_tail(head: &str, tail: &str, out: &mut String) {
    if width(head) + 3 + width(tail) <= WIDTH {
        out.push_str(&format!("{head} · {tail}\n"));
    } else {
        out.push_str(&format!("{head}\n    {tail}\n"));
    }
}

/// A row of `filled` marks then `empty` marks, e.g. `●●○` for 2 of 3 colonist circles.
pub fn marks(filled: usize, total: usize) -> String {
    let mut s = "●".repeat(filled.min(total));
    s.push_str(&"○".repeat(total.saturating_sub(filled)));
    s
}

/// Every line at most [`WIDTH`] visible columns (for tests of the screens).
pub fn fits(screen: &str, rows: usize) -> Result<(), String> {
    let lines: Vec<&str> = screen.lines().collect();
    if lines.len() > rows {
        return Err(format!("{} rows, more than {rows}", lines.len()));
    }
    match lines.iter().find(|l| width(l) > WIDTH) {
        Some(l) => Err(format!("a line of {} columns: {l}", width(l))),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_does_not_count_in_width() {
        let s = Style { colour: true };
        let t = s.seat(1, "seat 1");
        assert_ne!(t, "seat 1");
        assert_eq!(width(&t), 6);
        assert_eq!(Style::PLAIN.seat(1, "seat 1"), "seat 1");
        assert_eq!(width(&pad(&t, 9)), 9);
    }

    #[test]
    fn wrap_keeps_to_the_width() {
        let items: Vec<String> = (0..40).map(|i| format!("item-{i}")).collect();
        let mut out = String::new();
        wrap("Label: ", &items, "  ", &mut out);
        assert!(fits(&out, 40).is_ok(), "{out}");
        assert!(out.lines().count() > 1);
        assert!(out.lines().nth(1).is_some_and(|l| l.starts_with("       item")));
    }
}
