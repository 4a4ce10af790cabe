//! Located diagnostics: file, line, column, the offending line and what was expected.

use std::fmt::Write as _;

/// Where a value came from: a file of a [`Sources`] and a byte range in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Origin {
    pub file: u16,
    pub start: u32,
    pub end: u32,
}

impl Origin {
    /// The origin given to a value that could not be read (a neutral value stands in for
    /// it): its problem is reported already, so checks of the stand-in stay silent.
    pub const REPORTED: Origin = Origin { file: u16::MAX, start: u32::MAX, end: u32::MAX };

    pub fn new(file: usize, span: std::ops::Range<usize>) -> Self {
        Origin { file: file as u16, start: span.start as u32, end: span.end.max(span.start) as u32 }
    }
}

/// The text of every file a ruleset was read from, for rendering diagnostics.
#[derive(Clone, Debug, Default)]
pub struct Sources {
    files: Vec<SourceFile>,
}

#[derive(Clone, Debug)]
struct SourceFile {
    name: String,
    text: String,
    /// Byte offset at which each line starts, so locating is a binary search (a file with
    /// thousands of problems renders in linear time).
    line_starts: Vec<usize>,
}

impl Sources {
    /// Adds a file and returns its index.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> usize {
        let text = text.into();
        let line_starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        self.files.push(SourceFile { name: name.into(), text, line_starts });
        self.files.len() - 1
    }

    /// The names of every file, in the order added (the files a ruleset was read from).
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.files.iter().map(|f| f.name.as_str())
    }

    pub fn name(&self, file: usize) -> &str {
        self.files.get(file).map_or("<unknown>", |f| f.name.as_str())
    }

    pub fn text(&self, file: usize) -> &str {
        self.files.get(file).map_or("", |f| f.text.as_str())
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, file: usize, offset: u32) -> (usize, usize) {
        let Some(f) = self.files.get(file) else {
            return (1, 1);
        };
        let offset = (offset as usize).min(f.text.len());
        // The last line start at or before the offset (line_starts[0] = 0 always).
        let line = f.line_starts.partition_point(|&start| start <= offset).max(1);
        let line_start = f.line_starts.get(line - 1).copied().unwrap_or(0);
        let col = f.text.get(line_start..offset).map_or(0, |s| s.chars().count()) + 1;
        (line, col)
    }

    /// The text of a 1-based line, without its line break.
    pub fn line_text(&self, file: usize, line: usize) -> &str {
        let Some(f) = self.files.get(file) else {
            return "";
        };
        let start = f.line_starts.get(line.wrapping_sub(1)).copied().unwrap_or(f.text.len());
        let end = f.line_starts.get(line).map_or(f.text.len(), |&next| next.saturating_sub(1));
        let text = f.text.get(start..end.max(start)).unwrap_or("");
        text.strip_suffix('\r').unwrap_or(text)
    }

    /// `name:line:col` of an origin.
    pub fn locate(&self, origin: Origin) -> String {
        let (line, col) = self.line_col(origin.file as usize, origin.start);
        format!("{}:{line}:{col}", self.name(origin.file as usize))
    }
}

/// One problem found in a ruleset (or scenario) file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub origin: Option<Origin>,
    pub message: String,
}

/// Every problem found; files are checked to the end so all are reported at once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnostics {
    pub items: Vec<Diagnostic>,
}

impl Diagnostics {
    /// A problem at `origin`. A value already reported as unreadable (its origin is
    /// [`Origin::REPORTED`], see `de`) is not reported again by later checks.
    pub fn error(&mut self, origin: Origin, message: impl Into<String>) {
        if origin == Origin::REPORTED {
            return;
        }
        self.items.push(Diagnostic { origin: Some(origin), message: message.into() });
    }

    pub fn error_at(&mut self, origin: Option<Origin>, message: impl Into<String>) {
        self.items.push(Diagnostic { origin, message: message.into() });
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Renders every diagnostic: location, message, the offending line and a marker.
    pub fn render(&self, sources: &Sources) -> String {
        let mut out = String::new();
        for d in &self.items {
            let Some(origin) = d.origin else {
                let _ = writeln!(out, "error: {}", d.message);
                continue;
            };
            let file = origin.file as usize;
            let (line, col) = sources.line_col(file, origin.start);
            let _ = writeln!(out, "error: {}:{line}:{col}: {}", sources.name(file), d.message);
            let text = sources.line_text(file, line);
            let width = line.to_string().len();
            let span_chars = {
                let (end_line, end_col) = sources.line_col(file, origin.end);
                if end_line == line {
                    end_col.saturating_sub(col).max(1)
                } else {
                    text.chars().count().saturating_sub(col - 1).max(1)
                }
            };
            let _ = writeln!(out, "{:width$} |", "");
            let _ = writeln!(out, "{line} | {text}");
            let _ = writeln!(out, "{:width$} | {}{}", "", " ".repeat(col - 1), "^".repeat(span_chars));
        }
        out
    }
}
