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
    /// New elements of a derived ruleset whose id is close to an id of its base: where,
    /// the id, and the base's id it likely misspells.
    near_misses: Vec<(Origin, String, String)>,
}

#[derive(Clone, Debug)]
struct SourceFile {
    name: String,
    text: String,
    /// Byte offset at which each line starts, so locating is a binary search (a file with
    /// thousands of problems renders in linear time).
    line_starts: Vec<usize>,
    /// A ruleset shipped with the program (read by name), not one the user wrote.
    bundled: bool,
}

impl Sources {
    /// Adds a file and returns its index.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> usize {
        let text = text.into();
        let line_starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        self.files.push(SourceFile { name: name.into(), text, line_starts, bundled: false });
        self.files.len() - 1
    }

    /// Adds a bundled ruleset's file (see [`Sources::near_misses`]) and returns its index.
    pub fn add_bundled(&mut self, name: impl Into<String>, text: impl Into<String>) -> usize {
        let file = self.add(name, text);
        if let Some(f) = self.files.last_mut() {
            f.bundled = true;
        }
        file
    }

    /// Whether `file` is a bundled ruleset rather than one the user wrote.
    pub fn is_bundled(&self, file: usize) -> bool {
        self.files.get(file).is_some_and(|f| f.bundled)
    }

    /// Notes that the element at `origin` has a new `id` close to the base's `near` (see
    /// [`Diagnostics::resolved`]).
    pub fn near_miss(&mut self, origin: Origin, id: &str, near: &str) {
        self.near_misses.push((origin, id.to_string(), near.to_string()));
    }

    /// The new elements whose id is close to one of the base's: `(where, id, base's id)`.
    /// A valid ruleset may still have them (a complete new element): `validate` warns.
    /// Only those in files the user wrote: a warning about a bundled ruleset (the
    /// expansion's new buildings over the base game) is nothing its reader can act on.
    pub fn near_misses(&self) -> impl Iterator<Item = (Origin, &str, &str)> {
        self.near_misses
            .iter()
            .filter(|(o, _, _)| !self.is_bundled(usize::from(o.file)))
            .map(|(o, id, near)| (*o, id.as_str(), near.as_str()))
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

    /// The byte offset at which a 1-based line starts (the file's length past its end).
    pub fn line_start(&self, file: usize, line: usize) -> usize {
        self.files.get(file).map_or(0, |f| f.line_starts.get(line.wrapping_sub(1)).copied().unwrap_or(f.text.len()))
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

    /// The diagnostics to show. The keys missing from a new element whose id is close to
    /// one of the base ruleset's (a misspelt id, most likely: `harbour` for `harbor`) become
    /// one problem that says so, in place of one "missing key" per key.
    pub fn resolved(&self, sources: &Sources) -> Vec<Diagnostic> {
        // By hash: a file with many new elements still renders in linear time.
        let near: std::collections::HashMap<(u16, u32, u32), usize> =
            sources.near_misses.iter().enumerate().map(|(i, (o, _, _))| ((o.file, o.start, o.end), i)).collect();
        let missing = |d: &Diagnostic| -> Option<(usize, String)> {
            let o = d.origin?;
            let at = *near.get(&(o.file, o.start, o.end))?;
            // The wording of `de`'s report of a missing key.
            let key = d.message.strip_prefix("missing key `")?.split('`').next()?;
            Some((at, format!("`{key}`")))
        };
        let mut out = Vec::with_capacity(self.items.len());
        let mut merged: Vec<Option<usize>> = vec![None; sources.near_misses.len()];
        let mut keys: Vec<Vec<String>> = vec![Vec::new(); sources.near_misses.len()];
        for d in &self.items {
            let Some((at, key)) = missing(d) else {
                out.push(d.clone());
                continue;
            };
            keys[at].push(key);
            if merged[at].is_none() {
                merged[at] = Some(out.len());
                out.push(d.clone());
            }
        }
        for (at, slot) in merged.iter().enumerate() {
            let (Some(slot), Some((_, id, near))) = (slot, sources.near_misses.get(at)) else { continue };
            if let Some(d) = out.get_mut(*slot) {
                d.message = format!(
                    "new element `{id}` lacks {}: the base ruleset has no element with that id; did you mean `{near}`?",
                    keys[at].join(", ")
                );
            }
        }
        out
    }

    /// Renders every diagnostic: location, message, the offending line and a marker under
    /// the offending text, laid out by `annotate-snippets` (as cargo's are), so the marker
    /// stays under its text after tabs and wide characters.
    pub fn render(&self, sources: &Sources) -> String {
        let renderer = annotate_snippets::Renderer::plain();
        let mut out = String::new();
        for d in &self.resolved(sources) {
            let Some(origin) = d.origin else {
                let _ = writeln!(out, "error: {}", d.message);
                continue;
            };
            let file = origin.file as usize;
            let (line, col) = sources.line_col(file, origin.start);
            let title = format!("{}:{line}:{col}: {}", sources.name(file), d.message);
            // Only the offending line is handed over (a file with thousands of problems
            // renders in linear time); the span is made relative to it and kept inside it.
            let text = sources.line_text(file, line);
            let line_start = sources.line_start(file, line);
            let start = (origin.start as usize).saturating_sub(line_start).min(text.len());
            let end = (origin.end as usize).saturating_sub(line_start).clamp(start, text.len());
            let span = if end > start { start..end } else { start..char_end(text, start) };
            let report = [annotate_snippets::Level::ERROR.primary_title(title.as_str()).element(
                annotate_snippets::Snippet::source(text)
                    .line_start(line)
                    .annotation(annotate_snippets::AnnotationKind::Primary.span(span)),
            )];
            out.push_str(&renderer.render(&report));
            out.push('\n');
        }
        out
    }
}

/// The end of the character that starts at byte `at` of `text` (`at` itself at the end):
/// the one-character span marked for a problem found at a point, such as a missing key.
fn char_end(text: &str, at: usize) -> usize {
    text.get(at..).and_then(|rest| rest.chars().next()).map_or(at, |c| at + c.len_utf8())
}
