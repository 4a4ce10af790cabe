//! `--html FILE` on `simulate` and `compare`: the run's page, written after its report.

use super::common::{Failure, bad};
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The page's file, created before the run so that a path that cannot be written fails
/// at once rather than after the games.
pub struct HtmlOut {
    path: PathBuf,
    file: std::fs::File,
}

impl HtmlOut {
    /// Creates `path`, refusing one of the run's input files (compared as canonical paths).
    pub fn create<'a>(path: &Path, inputs: impl Iterator<Item = &'a str>) -> Result<Self, Failure> {
        if let Ok(out) = std::fs::canonicalize(path) {
            for input in inputs {
                if std::fs::canonicalize(input).is_ok_and(|c| c == out) {
                    return Err(bad(format!(
                        "refusing to write the HTML page over `{}`: it is an input of this run (`{input}`)",
                        path.display()
                    )));
                }
            }
        }
        let file = std::fs::File::create(path)
            .map_err(|e| bad(format!("cannot create the HTML page `{}`: {e}", path.display())))?;
        Ok(HtmlOut { path: path.to_path_buf(), file })
    }

    /// Writes the rendered page.
    pub fn write(mut self, page: Result<String, rulesmith_report_html::Error>) -> Result<(), Failure> {
        let page = page.map_err(|e| bad(format!("cannot render the HTML page `{}`: {e}", self.path.display())))?;
        self.file
            .write_all(page.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|e| bad(format!("cannot write the HTML page `{}`: {e}", self.path.display())))
    }
}
