//! What every study shares: the ruleset it plays, its options, its errors.

use crate::bots::{BotSpec, parse_bots};
use crate::erased::AnyGame;
use crate::ruleset::Loaded;
use crate::sim::SimOptions;

/// The players of `compare`, `sweep` and `tune` when none are given. Still plain `greedy`
/// (docs/strength.md, "Seat shares"): at 4 players no fast player measured (greedy with
/// random moves, a relative evaluation, softmax choices, search for the setup) came within
/// 6 points of `mcts` self-play in every seat of every game; `greedy:10%` comes closer in
/// Puerto Rico and Mundo 163 but not close enough there, and changing it changes every
/// default report.
pub const DEFAULT_BOTS: &str = "greedy";

/// A loaded, validated ruleset ready to play.
pub struct Ruleset {
    pub loaded: Loaded,
    pub game: Box<dyn AnyGame>,
}

impl Ruleset {
    pub fn name(&self) -> &str {
        &self.loaded.name
    }
    pub fn digest(&self) -> String {
        self.loaded.digest()
    }
}

/// Why a study stopped: bad input (a ruleset, an argument, a bot program: the command
/// line's exit code 2) or a game that broke (a failed check, exit code 1).
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RunError {
    #[error("{0}")]
    Bad(String),
    #[error("{0}")]
    Failed(String),
}

/// Bad input.
pub(crate) fn bad(message: impl Into<String>) -> RunError {
    RunError::Bad(message.into())
}

/// Loads a ruleset (a bundled name or a path) with `--set KEY=VALUE` overrides: the game
/// crates are the caller's (the `rulesmith` facade's `load_with`).
pub type Loader<'a> = dyn Fn(&str, &[String]) -> Result<Ruleset, RunError> + 'a;

/// What a study was asked for: the options `compare`, `sweep` and `tune` share.
#[derive(Clone, Debug)]
pub struct StudySpec {
    pub players: Option<usize>,
    pub games: u64,
    pub seed: u64,
    /// The line-up (`--bots`); `None`: [`DEFAULT_BOTS`].
    pub bots: Option<String>,
    /// Seconds per decision for `exec:` bots.
    pub bot_time_limit: f64,
    /// `None`: rotated when the bots differ by seat.
    pub rotate_seats: Option<bool>,
    /// Skip the designer metrics.
    pub no_metrics: bool,
    /// `--set KEY=VALUE` overrides, applied to every ruleset.
    pub sets: Vec<String>,
    /// `--skill STRONG,WEAK` (`compare`, `sweep`).
    pub skill: Option<String>,
    /// `--detect PP`: the difference whose games needed the power line states.
    pub detect: f64,
    /// `--check-with BOTS`: a second line-up the study is replayed with ([`super::robust`]).
    pub check_with: Option<String>,
    /// `--check-games N`: the games (seeds) of the replay; `None`: the same as `games`.
    pub check_games: Option<u64>,
}

impl StudySpec {
    /// A study of `games` games with every other option at its default.
    pub fn new(games: u64, seed: u64) -> Self {
        StudySpec {
            players: None,
            games,
            seed,
            bots: None,
            bot_time_limit: 10.0,
            rotate_seats: None,
            no_metrics: false,
            sets: Vec::new(),
            skill: None,
            detect: 2.0,
            check_with: None,
            check_games: None,
        }
    }

    /// The line-up asked for, or the default.
    pub fn bots_text(&self) -> &str {
        self.bots.as_deref().unwrap_or(DEFAULT_BOTS)
    }

    /// The same study with the second line-up (`--check-with`) and its games, if asked for.
    pub fn check_spec(&self) -> Option<StudySpec> {
        let bots = self.check_with.clone()?;
        Some(StudySpec {
            bots: Some(bots),
            games: self.check_games.unwrap_or(self.games),
            skill: None,
            check_with: None,
            check_games: None,
            ..self.clone()
        })
    }
}

/// The run options of a study of `players` players, checked: at least one game, a
/// `detect` and a bot time limit in range, the bots parsed.
pub fn sim_options(spec: &StudySpec, players: usize) -> Result<SimOptions, RunError> {
    if spec.games == 0 {
        return Err(bad("--games 0: give at least 1 game (a report of no games has no figures)"));
    }
    if !(spec.detect.is_finite() && spec.detect > 0.0 && spec.detect <= 100.0) {
        return Err(bad(format!("--detect {}: give percentage points, more than 0 and at most 100", spec.detect)));
    }
    if spec.check_games == Some(0) {
        return Err(bad("--check-games 0: give at least 1 game"));
    }
    if spec.check_games.is_some() && spec.check_with.is_none() {
        return Err(bad("--check-games needs --check-with BOTS: the line-up whose games it counts"));
    }
    let limit = spec.bot_time_limit;
    if !(limit.is_finite() && (0.001..=86_400.0).contains(&limit)) {
        return Err(bad(format!("--bot-time-limit {limit}: give seconds from 0.001 to 86400")));
    }
    let bots = parse_bots(spec.bots_text(), players)
        .map_err(bots_error)?
        .into_iter()
        .map(|b| match b {
            BotSpec::Exec(e) => BotSpec::Exec(std::sync::Arc::new(
                (*e).clone().with_time_limit(std::time::Duration::from_secs_f64(limit)),
            )),
            other => other,
        })
        .collect();
    Ok(SimOptions {
        players,
        games: spec.games,
        from: 0,
        seed: spec.seed,
        bots,
        shard: None,
        record: false,
        progress: None,
        rotate_seats: false,
        metrics: !spec.no_metrics,
    })
}

/// The run options of `compare`, `sweep` and `tune`: seats rotated when the bots differ by
/// seat, unless the spec says.
pub fn study_options(spec: &StudySpec, players: usize) -> Result<SimOptions, RunError> {
    let mut opts = sim_options(spec, players)?;
    let names: Vec<String> = opts.bots.iter().map(ToString::to_string).collect();
    opts.rotate_seats = spec.rotate_seats.unwrap_or(names.windows(2).any(|w| w[0] != w[1]));
    Ok(opts)
}

/// A `--bots` problem as bad input.
pub fn bots_error(e: String) -> RunError {
    if e.starts_with("--bots") { bad(e) } else { bad(format!("--bots: {e}")) }
}

/// The player count to use: the one given (checked against the range) or the default.
pub fn players_for(
    given: Option<usize>,
    range: &std::ops::RangeInclusive<usize>,
    ruleset: &str,
) -> Result<usize, RunError> {
    match given {
        None => Ok(crate::sim::default_players(range)),
        Some(p) if range.contains(&p) => Ok(p),
        Some(p) => {
            Err(bad(format!("--players {p}: ruleset `{ruleset}` seats {} to {} players", range.start(), range.end())))
        }
    }
}

/// A report as JSON, the one form the command line prints and Python returns: every
/// object's keys in name order (what `serde_json`'s map keeps).
pub fn to_json(report: &impl serde::Serialize) -> Result<serde_json::Value, RunError> {
    serde_json::to_value(report).map_err(|e| RunError::Failed(format!("cannot write the report as JSON: {e}")))
}
