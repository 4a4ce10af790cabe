//! The simulation driver and its report.
//!
//! - [`driver`]: one game from setup to its end ([`play_game`] with [`PlayOptions`]);
//! - [`run`]: a run of many games in parallel, folded in index order ([`simulate`]);
//! - [`tally`]: the run's exact sums, which shards merge exactly, with the per-round
//!   figures ([`rounds`]) and the extreme games ([`extremes`]);
//! - [`report`]: the figures a designer reads, as text and JSON, and the merge of shards.

pub mod driver;
pub mod extremes;
pub mod report;
pub mod rounds;
pub mod run;
pub mod tally;

pub use driver::{GameResult, PlayOptions, Seats, SimError, play_game};
pub use report::{
    Report, ReportMerge, SeatReport, VERSION, merge_reports, parse_shard, rate_text, report_read_error, shard_games,
    unrotated_note,
};
pub use run::{SimOptions, rotated_bots, simulate, simulate_with};
pub use tally::{BotSums, MAX_REPORT_DECISIONS, MAX_REPORT_PLAYERS, Tally};

pub use crate::game::MAX_DECISIONS;
pub use crate::metrics::wilson;
pub use crate::rng::bot_rng;

/// The seed of every command that does not give one, so that two runs of the same
/// command print the same report.
pub const DEFAULT_SEED: u64 = 1;

/// The player count used when none is given: 4 if the ruleset seats 4, else its minimum.
pub fn default_players(range: &std::ops::RangeInclusive<usize>) -> usize {
    if range.contains(&4) { 4 } else { *range.start() }
}
