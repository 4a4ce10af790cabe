//! Secrets drawn from the operating system (never the game's seeded generator: knowing a
//! seed must not give away the links, nor one game's seed the next one's).

use crate::spec::Error;

/// Random hex for secret tokens (the seats' and the observer's links).
pub fn token() -> Result<String, Error> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| Error::Random(e.to_string()))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// A game's seed from the operating system's random source, for a table seated by links:
/// the seed and the public move log together show every hidden holding, so it must be one
/// no one can guess.
pub fn secret_seed() -> Result<u64, Error> {
    getrandom::u64().map_err(|e| Error::Random(e.to_string()))
}

/// Whether two secrets are equal, compared in time independent of where they differ.
pub fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
