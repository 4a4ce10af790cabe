//! The workspace's cross-game tests, in one binary so that a fresh `cargo test` links
//! the whole program once, not once per file:
//! - `cli`: the command line (exit codes, messages, every bad input refused);
//! - `conformance`: every bundled ruleset and player count against the `Game` contract,
//!   and the no-panic property tests over every reader (`never_panics`);
//! - `docs`: the `console` examples of `docs/cli.md` are run (trycmd);
//! - `modules`: no module cycle inside the core or a game crate;
//! - `packaging`: licence files in every crate, copies a crate publishes equal their originals;
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

/// The repository's root, where commands run.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}
