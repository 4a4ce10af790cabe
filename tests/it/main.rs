//! The workspace's cross-game tests, in one binary so that a fresh `cargo test` links
//! the whole program once, not once per file:
//! - `cli`: the command line (exit codes, messages, every bad input refused);
//! - `conformance`: every bundled ruleset and player count against the `Game` contract,
//!   and the no-panic property tests over every reader (`never_panics`);
//! - `docs`: the book's `console` examples are run (trycmd), the README's and the book's
//!   commands too; the book lists every page; the README stays a front page;
//! - `modules`: no module cycle inside the core or a game crate;
//! - `packaging`: licence files in every crate, copies a crate publishes equal their originals,
//!   manifests' metadata, `[lib] test` where a crate has no unit tests, the completions;
//! - `play`: the play screens, the menu, undo, save and resume, bot programs;
//! - `scenarios`: the scenario library of `tests/scenarios/`;
//! - `serve`: the web table's HTTP API (through the router, no network).

mod cli;
mod conformance;
mod docs;
mod modules;
mod packaging;
mod play;
mod scenarios;
mod serve;

use std::path::Path;

/// What a run of the binary printed, and its exit code.
struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Whether `python3` runs here: the example bot program (`examples/python_bot.py`) and the
/// test bots need it. A test that needs it calls this first, and without it says so on stderr
/// and passes without running.
fn python3_available() -> bool {
    let found = std::process::Command::new("python3").arg("--version").output().is_ok_and(|o| o.status.success());
    if !found {
        eprintln!("skipped: python3 is not on the PATH (the bot programs this test runs are Python)");
    }
    found
}

/// The repository's root, where commands run.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}
