//! The driver: one game from setup to its end, each seat played by a bot, with what the
//! run asked to keep ([`PlayOptions`]).

use crate::actions::Actions;
use crate::bots::{self, Bot, BotError, BotSpec};
use crate::game::{Game, GameError, Outcome, Seat, ToMove};
use crate::json::StateJson;
use crate::metrics::{MetricSheet, Metrics};
use crate::rng::{Rng, bot_rng};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};

/// One finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    pub index: u64,
    pub seed: u64,
    pub outcome: Outcome,
    pub decisions: u64,
    pub rounds: u32,
    /// The actions in notation, when recording.
    #[serde(default, skip_serializing_if = "Actions::is_empty")]
    pub actions: Actions,
    /// The game's designer metrics, flat per seat ([`crate::metrics::MetricSheet`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub metrics: Vec<i64>,
    /// Changes of the single leader ([`crate::metrics::Lead`]).
    #[serde(default)]
    pub lead_changes: u32,
    /// The seat rotation this game was played in (0 unless rotating, see [`crate::sim::run::rotated_bots`]).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rotation: u32,
    /// Each seat's score and money at each round end, flat
    /// (`[((round - 1) * players + seat) * 2]`, see [`crate::sim::rounds`]); with metrics only.
    #[serde(skip)]
    pub by_round: Vec<i64>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

#[derive(Debug, thiserror::Error)]
pub enum SimError {
    #[error("game {index} (seed {seed}): {source}")]
    Game { index: u64, seed: u64, source: GameError },
    #[error(
        "game {index} (seed {seed}) did not end after {limit} decisions: the ruleset may make a game that never ends"
    )]
    Endless { index: u64, seed: u64, limit: u64 },
    #[error("game {index} (seed {seed}): nobody can act but the game is not over")]
    Stuck { index: u64, seed: u64 },
    /// A bot could not choose (an `exec:` bot crashed, fell silent or answered nonsense).
    #[error("game {index} (seed {seed}): {source}")]
    Bot { index: u64, seed: u64, source: BotError },
    /// The game was stopped before its end because another game of the run failed (or
    /// the run was interrupted): it says nothing about this game.
    #[error("game {index} (seed {seed}): stopped before its end")]
    Stopped { index: u64, seed: u64 },
}

/// What to play and keep of one game: its table and seed, and what the run collects.
#[derive(Clone, Debug)]
pub struct PlayOptions<'a> {
    pub players: usize,
    /// The game's index in its run (reported with its result and its errors).
    pub index: u64,
    /// The game's seed (in a run, [`crate::rng::game_seed`]`(run_seed, index)`).
    pub seed: u64,
    /// Keep each action in notation (for records).
    pub record: bool,
    /// Collect the designer metrics ([`crate::metrics`]); off for the fastest runs.
    pub metrics: bool,
    /// Decisions after which the game is reported endless ([`SimError::Endless`]);
    /// `None`: the game's own [`Game::decision_limit`].
    pub decision_limit: Option<u64>,
    /// Once set, the game stops ([`SimError::Stopped`]) at its next decision.
    pub stop: Option<&'a AtomicBool>,
}

impl PlayOptions<'_> {
    /// Game 0 of `players` with `seed`: metrics on, no record, the game's decision limit.
    pub fn new(players: usize, seed: u64) -> Self {
        PlayOptions { players, index: 0, seed, record: false, metrics: true, decision_limit: None, stop: None }
    }
}

/// Who plays each seat: built-in bots by their specs, or bot objects (a Rust user's own
/// [`Bot`]s included), one per seat.
pub enum Seats<'a, G: Game> {
    /// A missing seat is played by `random`.
    Specs(&'a [BotSpec]),
    Bots(&'a mut [Box<dyn Bot<G>>]),
}

impl<'a, G: Game> From<&'a [BotSpec]> for Seats<'a, G> {
    fn from(specs: &'a [BotSpec]) -> Self {
        Seats::Specs(specs)
    }
}

impl<'a, G: Game> From<&'a Vec<BotSpec>> for Seats<'a, G> {
    fn from(specs: &'a Vec<BotSpec>) -> Self {
        Seats::Specs(specs)
    }
}

impl<'a, G: Game, const N: usize> From<&'a [BotSpec; N]> for Seats<'a, G> {
    fn from(specs: &'a [BotSpec; N]) -> Self {
        Seats::Specs(specs)
    }
}

impl<'a, G: Game> From<&'a mut [Box<dyn Bot<G>>]> for Seats<'a, G> {
    fn from(bots: &'a mut [Box<dyn Bot<G>>]) -> Self {
        Seats::Bots(bots)
    }
}

impl<'a, G: Game> From<&'a mut Vec<Box<dyn Bot<G>>>> for Seats<'a, G> {
    fn from(bots: &'a mut Vec<Box<dyn Bot<G>>>) -> Self {
        Seats::Bots(bots)
    }
}

/// Plays one game from setup to the end. Built-in bots named by their specs are fresh
/// for the game; bot objects are told the game is over ([`Bot::game_over`]).
pub fn play_game<'a, G: Metrics + StateJson + crate::encode::Encode>(
    game: &G,
    seats: impl Into<Seats<'a, G>>,
    opts: &PlayOptions,
) -> Result<GameResult, SimError> {
    match seats.into() {
        Seats::Specs(specs) if specs.iter().any(BotSpec::is_external) => {
            let mut bots: Vec<Box<dyn Bot<G>>> = (0..opts.players)
                .map(|s| specs.get(s).unwrap_or(&BotSpec::Random).instantiate::<G>(s as Seat) as _)
                .collect();
            play_with_bots(game, &mut bots, opts)
        }
        Seats::Specs(specs) => {
            // Built-in bots are chosen without a `Bot` object: the playout hot path stays
            // free of a virtual call and a fallible result per decision.
            let choose = |seat: Seat, state: &G::State, legal: &[G::Action], rng: &mut Rng| {
                let spec = specs.get(usize::from(seat)).unwrap_or(&BotSpec::Random);
                // Only a `learned` bot without a policy for this game can fail here.
                bots::try_choose(game, spec, state, legal, rng).map_err(|reason| BotError {
                    bot: spec.to_string(),
                    seat,
                    reason,
                })
            };
            run_game(game, opts, choose).map(|(result, _)| result)
        }
        Seats::Bots(bots) => play_with_bots(game, bots, opts),
    }
}

/// [`play_game`] with bot objects, one per seat.
fn play_with_bots<G: Metrics + StateJson + crate::encode::Encode>(
    game: &G,
    seats: &mut [Box<dyn Bot<G>>],
    opts: &PlayOptions,
) -> Result<GameResult, SimError> {
    let choose =
        |seat: Seat, state: &G::State, legal: &[G::Action], rng: &mut Rng| match seats.get_mut(usize::from(seat)) {
            Some(bot) => bot.choose(game, state, legal, rng),
            None => Err(BotError { bot: "none".into(), seat, reason: "no bot sits at this seat".into() }),
        };
    let (result, state) = run_game(game, opts, choose)?;
    for bot in seats.iter_mut() {
        bot.game_over(game, &state);
    }
    Ok(result)
}

/// What a game with metrics keeps besides its sheet: the leader, the standings buffer, the
/// round last seen and each round's figures.
struct RoundWatch {
    lead: crate::metrics::Lead,
    standings: Vec<f64>,
    /// The game's [`Metrics::standings_scratch`], made at the first round end.
    scratch: Option<Box<dyn std::any::Any>>,
    round: u32,
    by_round: Vec<i64>,
}

impl RoundWatch {
    /// Rounds whose figures are kept without growing the buffer (longer games grow it).
    const ROUNDS: usize = 32;

    fn new(players: usize, round: u32) -> Self {
        use crate::sim::rounds::PER_SEAT;
        RoundWatch {
            lead: crate::metrics::Lead::default(),
            standings: vec![0.0; players],
            scratch: None,
            round,
            by_round: Vec::with_capacity(players * PER_SEAT * Self::ROUNDS),
        }
    }

    /// Called when the round has changed to `now`: the standings (for the lead), then
    /// the figures of the rounds that ended. Out of the decision loop: a round end is
    /// one decision in dozens.
    #[inline(never)]
    fn round_ended<G: Metrics>(&mut self, game: &G, state: &G::State, sheet: &mut MetricSheet, now: u32) {
        let scratch = self.scratch.get_or_insert_with(|| game.standings_scratch());
        game.standings(state, sheet, scratch.as_mut(), &mut self.standings);
        self.lead.note(self.standings.iter().copied());
        self.note_rounds(game, state, sheet, true, self.round, now.saturating_sub(1));
        self.round = now;
    }

    /// Notes each seat's figures now as the end of rounds `first..=last` (1-based): the rounds
    /// that ended with this decision (the final state ends the last round, noted again). A
    /// round never noted before them is noted with them; rounds past
    /// [`crate::sim::rounds::MAX_ROUNDS`] are not kept.
    /// `at_round_end`: the standings were just computed for this state (the final state
    /// has none).
    fn note_rounds<G: Metrics>(
        &mut self,
        game: &G,
        state: &G::State,
        sheet: &MetricSheet,
        at_round_end: bool,
        first: u32,
        last: u32,
    ) {
        use crate::sim::rounds::{MAX_ROUNDS, PER_SEAT};
        let per_round = self.standings.len() * PER_SEAT;
        let (first, last) = (first.max(1) as usize, (last as usize).min(MAX_ROUNDS));
        if per_round == 0 || first > last {
            return;
        }
        // Rounds before `first` were noted; a missing one is noted with these figures.
        let out = &mut self.by_round;
        let start = ((first - 1) * per_round).min(out.len());
        out.resize(last * per_round, 0);
        let Some((row, rest)) = out.get_mut(start..).and_then(|o| o.split_at_mut_checked(per_round)) else {
            return;
        };
        for (s, cell) in row.chunks_exact_mut(PER_SEAT).enumerate() {
            let standing = if at_round_end { self.standings.get(s).copied() } else { None };
            let f = game.round_figures(state, s as Seat, standing, sheet);
            cell[0] = f.score;
            cell[1] = f.money;
        }
        for later in rest.chunks_exact_mut(per_round) {
            later.copy_from_slice(row);
        }
    }
}

/// The game loop both kinds of seats share; `choose` answers for the seat to move.
/// One loop (the bot's choice is inlined into it once): with metrics, the hooks around
/// each decision and a comparison of the round; the rest happens at round ends, out of
/// the loop ([`RoundWatch::round_ended`]).
fn run_game<G: Metrics + StateJson>(
    game: &G,
    opts: &PlayOptions,
    mut choose: impl FnMut(Seat, &G::State, &[G::Action], &mut Rng) -> Result<G::Action, BotError>,
) -> Result<(GameResult, G::State), SimError> {
    let PlayOptions { players, index, seed, record, metrics, decision_limit, stop } = *opts;
    let err = |source| SimError::Game { index, seed, source };
    let mut state = game.new_game(players, seed).map_err(err)?;
    let mut rng = bot_rng(seed);
    let mut legal = Vec::with_capacity(64);
    // A game's worth of names at once, rather than growing through small sizes.
    let mut actions = if record { Actions::with_capacity(512) } else { Actions::new() };
    let mut decisions = 0u64;
    let limit = decision_limit.unwrap_or_else(|| game.decision_limit());
    let mut sheet = MetricSheet::new(players, if metrics { game.metric_len() } else { 0 });
    let mut watch = metrics.then(|| RoundWatch::new(players, game.progress(&state).rounds));
    loop {
        let seat = match game.to_move(&state) {
            ToMove::Terminal => break,
            ToMove::Seat(s) => s,
        };
        if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            return Err(SimError::Stopped { index, seed });
        }
        game.legal_actions(&state, &mut legal);
        if legal.is_empty() {
            return Err(SimError::Stuck { index, seed });
        }
        let action = choose(seat, &state, &legal, &mut rng).map_err(|source| SimError::Bot { index, seed, source })?;
        if record {
            actions.push_with(|out| game.write_action(&state, action, out));
        }
        if let Some(w) = watch.as_mut() {
            let after = game.metric_before(&state, action, &mut sheet);
            game.apply_legal(&mut state, action);
            if after {
                game.metric_after(&state, &mut sheet);
            }
            let now = game.progress(&state).rounds;
            if now != w.round {
                w.round_ended(game, &state, &mut sheet, now);
            }
        } else {
            game.apply_legal(&mut state, action);
        }
        decisions += 1;
        if decisions > limit {
            return Err(SimError::Endless { index, seed, limit });
        }
    }
    let outcome = game.outcome(&state).ok_or(SimError::Stuck { index, seed })?;
    let rounds = game.progress(&state).rounds;
    let (mut lead_changes, mut by_round) = (0, Vec::new());
    if let Some(mut w) = watch {
        game.metric_final(&state, &mut sheet);
        w.lead.finish(&outcome);
        w.note_rounds(game, &state, &sheet, false, rounds, rounds);
        (lead_changes, by_round) = (w.lead.changes, w.by_round);
    }
    let result = GameResult {
        index,
        seed,
        outcome,
        decisions,
        rounds,
        actions,
        metrics: sheet.into_values(),
        lead_changes,
        rotation: 0,
        by_round,
    };
    Ok((result, state))
}
