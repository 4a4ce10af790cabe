//! Where `play` and `show-game` read their lines: a line editor with history and tab
//! completion when stdin is a terminal, plain lines from a stream otherwise (pipes,
//! files, tests).

use rustyline::completion::{Completer, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::validate::Validator;
use rustyline::{Context, Editor, Helper, history::DefaultHistory};
use std::io::{BufRead, IsTerminal, Write};

/// Longest input line accepted (a longer one is bad input, not a reason to allocate).
pub const MAX_LINE: usize = 4096;

/// One read from the player.
#[derive(Debug, PartialEq, Eq)]
pub enum Input {
    Line(String),
    /// Ctrl-C at the prompt.
    Interrupted,
    /// End of input (Ctrl-D, or the stream ended).
    End,
    /// A line that is not text: which line and why.
    Bad(String),
}

/// A source of input lines; `words` are what tab completes to at this prompt.
pub trait Lines {
    fn read(&mut self, prompt: &str, words: &[String]) -> Input;
}

/// Lines from any stream; the prompt goes to stdout.
pub struct Stream<R: BufRead> {
    reader: R,
    line: usize,
}

impl<R: BufRead> Stream<R> {
    pub fn new(reader: R) -> Self {
        Stream { reader, line: 0 }
    }
}

impl<R: BufRead> Lines for Stream<R> {
    fn read(&mut self, prompt: &str, _words: &[String]) -> Input {
        super::super::common::emit(prompt);
        self.line += 1;
        let mut buf = Vec::new();
        let mut limited = <&mut R as std::io::Read>::take(&mut self.reader, MAX_LINE as u64 + 1);
        match limited.read_until(b'\n', &mut buf) {
            Ok(0) => {
                super::super::common::emit("\n");
                Input::End
            }
            Ok(_) if buf.len() > MAX_LINE => {
                Input::Bad(format!("input line {} is longer than {MAX_LINE} bytes", self.line))
            }
            Ok(_) => match String::from_utf8(buf) {
                Ok(s) => Input::Line(s.trim_end_matches(['\n', '\r']).to_string()),
                Err(e) => Input::Bad(format!(
                    "input line {} is not UTF-8 text (invalid byte at column {})",
                    self.line,
                    e.utf8_error().valid_up_to() + 1
                )),
            },
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => Input::Interrupted,
            Err(e) => Input::Bad(format!("cannot read input line {}: {e}", self.line)),
        }
    }
}

/// Completes the whole line to one of the words (legal actions and commands).
#[derive(Default)]
pub struct Words {
    words: Vec<String>,
}

impl Completer for Words {
    type Candidate = Pair;
    fn complete(&self, line: &str, pos: usize, _: &Context<'_>) -> rustyline::Result<(usize, Vec<Pair>)> {
        let typed = line.get(..pos).unwrap_or(line).to_lowercase();
        let pairs = self
            .words
            .iter()
            .filter(|w| w.to_lowercase().starts_with(&typed))
            .map(|w| Pair { display: w.clone(), replacement: w.clone() })
            .collect();
        Ok((0, pairs))
    }
}

impl Hinter for Words {
    type Hint = String;
}
impl Highlighter for Words {}
impl Validator for Words {}
impl Helper for Words {}

/// The terminal's line editor: editing, history (up/down), tab completion.
pub struct Terminal {
    editor: Editor<Words, DefaultHistory>,
}

impl Lines for Terminal {
    fn read(&mut self, prompt: &str, words: &[String]) -> Input {
        self.editor.set_helper(Some(Words { words: words.to_vec() }));
        let _ = std::io::stdout().flush();
        match self.editor.readline(prompt) {
            Ok(line) => {
                if !line.trim().is_empty() {
                    let _ = self.editor.add_history_entry(line.as_str());
                }
                Input::Line(line)
            }
            Err(ReadlineError::Interrupted) => Input::Interrupted,
            Err(ReadlineError::Eof) => Input::End,
            Err(e) => Input::Bad(format!("cannot read the terminal: {e}")),
        }
    }
}

/// The line editor when stdin and stdout are terminals, else lines from stdin.
pub fn stdin_lines() -> Box<dyn Lines> {
    if std::io::stdin().is_terminal() && std::io::stdout().is_terminal() {
        if let Ok(editor) = Editor::<Words, DefaultHistory>::new() {
            return Box::new(Terminal { editor });
        }
    }
    Box::new(Stream::new(std::io::stdin().lock()))
}

/// Colour on a terminal, unless `NO_COLOR` is set (<https://no-color.org>).
pub fn colour() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tab_completes_legal_actions_in_any_case() {
        let words = Words { words: ["build harbor", "build hacienda", "pass"].map(String::from).to_vec() };
        let history = DefaultHistory::new();
        let ctx = Context::new(&history);
        let (start, found) = words.complete("BUILD HA", 8, &ctx).unwrap_or_default();
        assert_eq!(start, 0);
        let found: Vec<&str> = found.iter().map(|p| p.replacement.as_str()).collect();
        assert_eq!(found, ["build harbor", "build hacienda"]);
        let (_, found) = words.complete("pa", 2, &ctx).unwrap_or_default();
        assert_eq!(found.len(), 1);
    }

    #[test]
    fn streams_give_lines_end_and_bad_text() {
        let mut s = Stream::new(&b"settler\r\n\xff\n"[..]);
        assert_eq!(s.read("", &[]), Input::Line("settler".into()));
        assert!(matches!(s.read("", &[]), Input::Bad(m) if m.contains("line 2 is not UTF-8")));
        assert_eq!(s.read("", &[]), Input::End);
    }
}
