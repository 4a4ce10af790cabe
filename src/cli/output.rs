//! Every file the binary writes (`--record`, `save`, `--games-csv`, `--html`) goes through
//! here, so that no output destroys data:
//! - a regular file is replaced atomically: written to a temporary file in its folder and
//!   renamed over it when whole (its permissions kept), so a failed or interrupted run
//!   leaves what was there before;
//! - a symbolic link is followed: its target is written, the link stays a link;
//! - a FIFO or character device (`/dev/null`, a pipe from `>(gzip > x)`) is written
//!   through, never replaced: replacing `/dev/null` with a regular file (as root) would
//!   break the machine, and writing into a pipe is what its user asked for;
//! - a folder, a block device or a socket is refused;
//! - outputs are compared with the run's inputs and with each other by file identity
//!   (device and inode), so a hard link or another spelling of a ruleset is caught.
//!
//! SIGINT and SIGTERM during a run ([`stop_on_signals`]) remove the unfinished outputs
//! and exit 130 or 143: an output is whole or absent, never cut.

use super::common::{Failure, bad, note};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Temporary files of outputs not yet renamed into place (removed on SIGINT/SIGTERM).
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn pending() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    PENDING.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Where an output goes once it is known what is at its path.
enum Sink {
    /// A regular file (new or replaced): the temporary file and the final path (a
    /// symlink's target).
    Replace { temp: tempfile::NamedTempFile, target: PathBuf },
    /// A FIFO or character device, opened for writing as it is.
    Through(File),
}

/// An output file being written.
pub struct OutFile {
    what: String,
    shown: PathBuf,
    /// `None` once committed.
    sink: Option<Sink>,
}

/// Follows symbolic links to the file finally named (which may not exist yet).
fn resolve(path: &Path, what: &str) -> Result<PathBuf, Failure> {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let link = std::fs::read_link(&p)
                    .map_err(|e| bad(format!("cannot read the link {what} `{}`: {e}", path.display())))?;
                p = match p.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                };
            }
            _ => return Ok(p),
        }
    }
    Err(bad(format!("{what} `{}`: too many levels of symbolic links", path.display())))
}

impl OutFile {
    /// Opens an output: checks what is at `path` and where its temporary file goes, before
    /// any game is played, so that a path that cannot be written fails at once.
    pub fn create(what: &str, path: &Path) -> Result<Self, Failure> {
        Self::create_as(what, path, "create")
    }

    fn create_as(what: &str, path: &Path, verb: &str) -> Result<Self, Failure> {
        let shown = path.to_path_buf();
        let target = resolve(path, what)?;
        let cannot = |e: std::io::Error| bad(format!("cannot {verb} {what} `{}`: {}", shown.display(), plain(&e)));
        let existing = match std::fs::metadata(&target) {
            Ok(m) => Some(m),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(cannot(e)),
        };
        if let Some(m) = &existing {
            let kind = kind_of(m);
            match kind {
                // Replaced by a rename, which needs no right to write the file itself: its
                // permissions are asked first, so a read-only file stays refused.
                Kind::Regular => {
                    std::fs::OpenOptions::new().write(true).open(&target).map_err(cannot)?;
                }
                Kind::Through => {
                    let file = std::fs::OpenOptions::new().write(true).open(&target).map_err(cannot)?;
                    return Ok(OutFile { what: what.to_string(), shown, sink: Some(Sink::Through(file)) });
                }
                Kind::Refused(name) => {
                    return Err(bad(format!(
                        "refusing to write {what} to `{}`: it is {name}, not a file",
                        shown.display()
                    )));
                }
            }
        }
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let mut builder = tempfile::Builder::new();
        builder.prefix(".").suffix(".partial");
        // The replaced file keeps its permissions; a new one gets the usual 0666 less umask.
        #[cfg(unix)]
        let perms = {
            use std::os::unix::fs::PermissionsExt;
            existing.as_ref().map_or_else(|| std::fs::Permissions::from_mode(0o666), std::fs::Metadata::permissions)
        };
        #[cfg(unix)]
        builder.permissions(perms);
        // Registered before it exists: a signal between creation and registration must not
        // leave it behind.
        let mut list = pending();
        let temp = builder.tempfile_in(&dir).map_err(cannot)?;
        list.push(temp.path().to_path_buf());
        drop(list);
        Ok(OutFile { what: what.to_string(), shown, sink: Some(Sink::Replace { temp, target }) })
    }

    /// The path as the user gave it.
    pub fn path(&self) -> &Path {
        &self.shown
    }

    /// Flushes and renames the whole file into place (a write-through file is flushed).
    pub fn commit(self) -> Result<(), Failure> {
        commit_all(vec![self])
    }

    fn cannot(&self, e: impl std::fmt::Display) -> Failure {
        bad(format!("cannot write {} `{}`: {e}", self.what, self.shown.display()))
    }
}

/// An I/O error without the temporary file's path that `tempfile` adds to it.
fn plain(e: &std::io::Error) -> String {
    // `tempfile` writes `<error> at path "<temporary file>"`.
    let text = e.to_string();
    match text.rfind(" at path \"") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

impl Drop for OutFile {
    fn drop(&mut self) {
        // Not committed: the temporary file goes (tempfile removes it); forget it here.
        if let Some(Sink::Replace { temp, .. }) = &self.sink {
            let p = temp.path().to_path_buf();
            pending().retain(|x| *x != p);
        }
    }
}

impl Write for OutFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match &mut self.sink {
            Some(Sink::Replace { temp, .. }) => temp.write(buf),
            Some(Sink::Through(f)) => f.write(buf),
            None => Err(std::io::Error::other("already committed")),
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.sink {
            Some(Sink::Replace { temp, .. }) => temp.flush(),
            Some(Sink::Through(f)) => f.flush(),
            None => Ok(()),
        }
    }
}

/// Renames every output into place at once (a signal meanwhile waits), so that an
/// interrupted run leaves all of them or none.
pub fn commit_all(outs: Vec<OutFile>) -> Result<(), Failure> {
    let mut outs = outs;
    for o in &mut outs {
        o.flush().map_err(|e| o.cannot(e))?;
        if let Some(Sink::Replace { temp, .. }) = &o.sink {
            temp.as_file().sync_all().map_err(|e| o.cannot(e))?;
        }
    }
    let mut list = pending();
    let mut result = Ok(());
    for o in &mut outs {
        if let Some(Sink::Replace { temp, target }) = o.sink.take() {
            let p = temp.path().to_path_buf();
            list.retain(|x| *x != p);
            if let Err(e) = temp.persist(&target) {
                result = result.and(Err(o.cannot(plain(&e.error))));
            }
        }
    }
    drop(list);
    result
}

/// Writes a whole output at once (`play`'s record after each decision, `save`).
pub fn write_whole(what: &str, path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    let mut out = OutFile::create_as(what, path, "write")?;
    out.write_all(bytes).map_err(|e| out.cannot(e))?;
    out.commit()
}

enum Kind {
    Regular,
    Through,
    Refused(&'static str),
}

fn kind_of(m: &std::fs::Metadata) -> Kind {
    let t = m.file_type();
    if t.is_file() {
        return Kind::Regular;
    }
    if t.is_dir() {
        return Kind::Refused("a folder");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() || t.is_char_device() {
            return Kind::Through;
        }
        if t.is_block_device() {
            return Kind::Refused("a block device");
        }
        if t.is_socket() {
            return Kind::Refused("a socket");
        }
    }
    Kind::Refused("a special file")
}

/// A file's identity: device and inode when it exists, else its folder's (resolved) path
/// and its name, so that two outputs not yet written are compared too.
#[derive(PartialEq)]
enum Identity {
    File(same_file::Handle),
    New(PathBuf),
}

fn identity(path: &Path) -> Option<Identity> {
    if let Some(h) = handle(path) {
        return Some(Identity::File(h));
    }
    let target = resolve(path, "").ok()?;
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Some(Identity::New(std::fs::canonicalize(dir).ok()?.join(target.file_name()?)))
}

/// A regular file's identity. Only regular files are opened: opening a FIFO to read
/// would wait for a writer, and a special file is never replaced anyway.
fn handle(path: &Path) -> Option<same_file::Handle> {
    std::fs::metadata(path).ok().filter(std::fs::Metadata::is_file)?;
    same_file::Handle::from_path(path).ok()
}

/// Refuses an output that is one of the inputs or another output (exit 2, naming both).
/// `outputs`: (what, path); `inputs`: the files read (bundled names that are not files
/// are skipped).
pub fn check_distinct(outputs: &[(&str, &Path)], inputs: &[&str]) -> Result<(), Failure> {
    let ins: Vec<(&str, same_file::Handle)> =
        inputs.iter().filter_map(|i| handle(Path::new(i)).map(|h| (*i, h))).collect();
    let mut seen: Vec<(&str, &Path, Identity)> = Vec::new();
    for &(what, path) in outputs {
        let Some(id) = identity(path) else { continue };
        if let Identity::File(h) = &id {
            if let Some((input, _)) = ins.iter().find(|(_, x)| x == h) {
                return Err(bad(format!(
                    "refusing to write {what} over `{}`: it is an input of this run (`{input}`)",
                    path.display()
                )));
            }
        }
        if let Some((w, p, _)) = seen.iter().find(|(_, _, x)| *x == id) {
            if !is_through(path) {
                return Err(bad(format!(
                    "{what} `{}` and {w} `{}` are the same file: give each output its own file",
                    path.display(),
                    p.display()
                )));
            }
        }
        seen.push((what, path, id));
    }
    Ok(())
}

/// A FIFO or character device (two outputs may both go to `/dev/null`).
fn is_through(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| matches!(kind_of(&m), Kind::Through))
}

/// Catches SIGINT and SIGTERM for the rest of the process: the unfinished outputs are
/// removed and the process exits 130 (SIGINT) or 143 (SIGTERM), as a shell reports them.
pub fn stop_on_signals() {
    stop_on_signals_saying(String::new());
}

/// [`stop_on_signals`], adding `kept` to the message (what the interrupted command keeps).
/// The bot programs running are ended first: they would otherwise outlive the run.
pub fn stop_on_signals_saying(kept: String) {
    use signal_hook::consts::{SIGINT, SIGTERM};
    // A SIGINT ignored at start (a job started with `nohup` or `&` by a shell without job
    // control) stays ignored, as in every command-line tool.
    let signals = if ignored_at_start(SIGINT) { vec![SIGTERM] } else { vec![SIGINT, SIGTERM] };
    let Ok(mut signals) = signal_hook::iterator::Signals::new(signals) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(sig) = signals.forever().next() {
            rulesmith::core::bots::exec::end_all();
            let list = pending();
            for p in list.iter() {
                let _ = std::fs::remove_file(p);
            }
            let name = if sig == SIGINT { "SIGINT" } else { "SIGTERM" };
            if list.is_empty() || !kept.is_empty() {
                note(&format!("interrupted ({name}){kept}"));
            } else {
                note(&format!(
                    "interrupted ({name}): stopped before the end; no output file was written (files already at those paths are as they were)"
                ));
            }
            std::process::exit(128 + sig);
        }
    });
}

/// Whether `signal` was ignored when the process started (Linux: `SigIgn` in
/// /proc/self/status; elsewhere taken as not).
fn ignored_at_start(signal: i32) -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let mask = status.lines().find_map(|l| l.strip_prefix("SigIgn:")).map(str::trim).unwrap_or("0");
    u64::from_str_radix(mask, 16).is_ok_and(|m| signal > 0 && m & (1u64 << (signal - 1)) != 0)
}
