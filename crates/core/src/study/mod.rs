//! The designer's studies, run and reported by the library: `compare` (rulesets side by
//! side on the same games), `sweep` (a ruleset at every value of one or two keys) and
//! `tune` (the value of a key that brings a figure to a target). Each is a function that
//! plays the games and returns a typed report ([`CompareReport`], [`SweepReport`],
//! [`TuneReport`]) serialized once ([`to_json`]); the command line and the Python package
//! only parse their arguments, hand over a loader and a [`Runner`], and print.
//!
//! Every answer can be replayed with a second line-up (`check_with`, [`robust`]) and says
//! where it rests on few games ([`few`]).

pub mod compare;
mod dist;
pub mod few;
pub mod paired_run;
pub mod robust;
mod spec;
pub mod sweep_run;
pub mod tune_run;

pub use compare::{CompareOutcome, CompareReport, compare};
pub use dist::Distributions;
pub use paired_run::{PairedRun, Plain, Runner, play_paired, skill_figures};
pub use spec::{
    DEFAULT_BOTS, Loader, Ruleset, RunError, StudySpec, bots_error, players_for, sim_options, study_options, to_json,
};
pub use sweep_run::{Plan, SweepArgs, SweepMerge, SweepReport, plan, sweep};
pub use tune_run::{TuneArgs, TuneReport, tune};
