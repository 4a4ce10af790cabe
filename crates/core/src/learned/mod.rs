//! Learned players: a small network trained by self-play and against the built-in bots
//! ([`train`]), saved as a policy file ([`policy`]) and played from Rust by the `learned`
//! bot ([`bot`]): `--bots learned` plays the policy bundled for the ruleset's game,
//! `learned:FILE` a trained file.

pub mod bot;
pub mod policy;
pub mod train;

pub use bot::{Learned, Pick};
pub use policy::{Policy, PolicyError};
