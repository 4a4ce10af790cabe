//! `--html FILE` on `simulate` and `compare`: the run's page, written after its report.

use super::common::{Failure, bad};
use super::output::OutFile;
use std::io::Write as _;
use std::path::Path;

/// The page's file, opened before the run (a temporary file beside it: see
/// [`super::output`]) so that a path that cannot be written fails at once rather than
/// after the games.
pub struct HtmlOut {
    file: OutFile,
}

impl HtmlOut {
    /// Opens `path` (the caller has compared it with the run's inputs and other outputs).
    pub fn create(path: &Path) -> Result<Self, Failure> {
        Ok(HtmlOut { file: OutFile::create("the HTML page", path)? })
    }

    /// Writes the rendered page; the caller renames it into place with the other outputs.
    pub fn write(mut self, page: Result<String, rulesmith_report_html::Error>) -> Result<OutFile, Failure> {
        let path = self.file.path().display().to_string();
        let page = page.map_err(|e| bad(format!("cannot render the HTML page `{path}`: {e}")))?;
        self.file.write_all(page.as_bytes()).map_err(|e| bad(format!("cannot write the HTML page `{path}`: {e}")))?;
        Ok(self.file)
    }
}
