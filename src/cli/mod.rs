//! The commands of the `rulesmith` binary, one module per family.

pub mod common;
pub mod games_csv;
pub mod html;
pub mod manual;
pub mod output;
pub mod play;
pub mod replay;
pub mod rulesets;
pub mod scenarios;
pub mod serve;
pub mod show_game;
pub mod simulate;
pub mod sweep;
pub mod tournament;
pub mod train;
pub mod view;
