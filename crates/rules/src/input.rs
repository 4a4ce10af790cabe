//! Reading input files with bounds: every ruleset (and its `extends`), scenario, record and
//! report goes through here, so `/dev/zero`, a FIFO, a folder or a huge file is refused
//! with a message naming it instead of hanging or exhausting memory.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// Largest ruleset, scenario or report file read whole (16 MiB).
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// Longest line of a record file (16 MiB); record files themselves are streamed, unbounded.
pub const MAX_LINE_BYTES: u64 = 16 << 20;

/// Why an input file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    #[error("cannot read `{path}`: {message}")]
    Io { path: String, message: String },
    #[error("`{path}` is not a regular file")]
    NotAFile { path: String },
    #[error("`{path}` is larger than the limit of {} MiB", .limit >> 20)]
    TooLarge { path: String, limit: u64 },
    #[error("`{path}`: line {line} is longer than the limit of {} MiB", .limit >> 20)]
    LineTooLong { path: String, line: usize, limit: u64 },
    #[error("`{path}` is not UTF-8 text: invalid byte at offset {offset}")]
    NotUtf8 { path: String, offset: u64 },
}

fn io(path: &Path, e: &std::io::Error) -> InputError {
    InputError::Io { path: path.display().to_string(), message: e.to_string() }
}

/// Opens `path` for reading if it is a regular file (checked before opening, so a FIFO
/// never blocks).
fn open(path: &Path) -> Result<std::fs::File, InputError> {
    let meta = std::fs::metadata(path).map_err(|e| io(path, &e))?;
    if !meta.is_file() {
        return Err(InputError::NotAFile { path: path.display().to_string() });
    }
    std::fs::File::open(path).map_err(|e| io(path, &e))
}

/// Reads a whole text file of at most [`MAX_FILE_BYTES`].
pub fn read_text(path: &Path) -> Result<String, InputError> {
    read_text_limited(path, MAX_FILE_BYTES)
}

/// Reads a whole text file of at most `limit` bytes.
pub fn read_text_limited(path: &Path, limit: u64) -> Result<String, InputError> {
    let file = open(path)?;
    let mut bytes = Vec::new();
    // Read one byte more than the limit: the file may grow after the metadata check.
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes).map_err(|e| io(path, &e))?;
    if bytes.len() as u64 > limit {
        return Err(InputError::TooLarge { path: path.display().to_string(), limit });
    }
    String::from_utf8(bytes).map_err(|e| InputError::NotUtf8 {
        path: path.display().to_string(),
        offset: e.utf8_error().valid_up_to() as u64,
    })
}

/// The lines of a text file, streamed: `(line number from 1, text)`, each at most
/// [`MAX_LINE_BYTES`], a byte-order mark at the start skipped, a non-UTF-8 line named with
/// its byte offset in the file.
pub fn lines(path: &Path) -> Result<Lines, InputError> {
    let file = open(path)?;
    Ok(Lines { path: path.display().to_string(), reader: BufReader::new(file), line: 0, offset: 0, done: false })
}

/// Iterator of [`lines`].
pub struct Lines {
    path: String,
    reader: BufReader<std::fs::File>,
    line: usize,
    offset: u64,
    done: bool,
}

impl Iterator for Lines {
    type Item = Result<(usize, String), InputError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let mut bytes = Vec::new();
        let read = (&mut self.reader).take(MAX_LINE_BYTES.saturating_add(1)).read_until(b'\n', &mut bytes);
        let n = match read {
            Ok(0) => {
                self.done = true;
                return None;
            }
            Ok(n) => n,
            Err(e) => {
                self.done = true;
                return Some(Err(InputError::Io { path: self.path.clone(), message: e.to_string() }));
            }
        };
        self.line += 1;
        let start = self.offset;
        self.offset += n as u64;
        if bytes.last() == Some(&b'\n') {
            bytes.pop();
            if bytes.last() == Some(&b'\r') {
                bytes.pop();
            }
        } else if n as u64 > MAX_LINE_BYTES {
            self.done = true;
            return Some(Err(InputError::LineTooLong {
                path: self.path.clone(),
                line: self.line,
                limit: MAX_LINE_BYTES,
            }));
        }
        let mut skip = 0;
        if self.line == 1 && bytes.starts_with(b"\xEF\xBB\xBF") {
            skip = 3;
        }
        match String::from_utf8(bytes.split_off(skip)) {
            Ok(text) => Some(Ok((self.line, text))),
            Err(e) => {
                self.done = true;
                let offset = start + skip as u64 + e.utf8_error().valid_up_to() as u64;
                Some(Err(InputError::NotUtf8 { path: self.path.clone(), offset }))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str, bytes: &[u8]) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("rulesmith-input-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let p = dir.join(name);
        let _ = std::fs::write(&p, bytes);
        p
    }

    #[test]
    fn devices_folders_and_huge_files_are_refused() {
        let e = read_text(Path::new("/dev/zero"));
        assert!(matches!(e, Err(InputError::NotAFile { .. })), "{e:?}");
        assert!(matches!(read_text(&std::env::temp_dir()), Err(InputError::NotAFile { .. })));
        let p = temp("big.toml", &[b'#'; 100]);
        assert!(matches!(read_text_limited(&p, 99), Err(InputError::TooLarge { limit: 99, .. })));
        assert_eq!(read_text_limited(&p, 100).map(|t| t.len()), Ok(100));
        assert!(matches!(lines(Path::new("/dev/zero")).map(|_| ()), Err(InputError::NotAFile { .. })));
    }

    #[test]
    fn non_utf8_gets_its_byte_offset_and_a_bom_is_skipped() {
        let p = temp("bad.toml", b"ab\ncd\xFFe");
        assert_eq!(
            read_text(&p).err().map(|e| e.to_string()),
            Some(format!("`{}` is not UTF-8 text: invalid byte at offset 5", p.display()))
        );
        let got: Vec<_> = lines(&p).into_iter().flatten().collect();
        assert_eq!(got[0], Ok((1, "ab".to_string())));
        assert!(matches!(got[1], Err(InputError::NotUtf8 { offset: 5, .. })), "{got:?}");
        let p = temp("bom.jsonl", b"\xEF\xBB\xBF{}\r\n\n{}");
        let got: Vec<_> = lines(&p).into_iter().flatten().collect();
        assert_eq!(got, vec![Ok((1, "{}".into())), Ok((2, String::new())), Ok((3, "{}".into()))]);
    }
}
