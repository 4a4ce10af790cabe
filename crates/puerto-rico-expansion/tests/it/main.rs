//! All integration tests of this crate in one test binary (one link instead of one per
//! file keeps a fresh `cargo test` fast); each file is a module.

mod buildings;
mod common;
mod conformance;
mod draft;
mod encoding;
mod random_games;
mod transcript;
