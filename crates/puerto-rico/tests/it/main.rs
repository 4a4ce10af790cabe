//! All integration tests of this crate in one test binary (one link instead of one per
//! file keeps a fresh `cargo test` fast); each file is a module.

mod common;
mod masks;
mod random_games;
mod rules;
mod transcript;
