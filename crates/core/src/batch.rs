//! Batched environments for learning: N games of one ruleset stepped together into flat
//! buffers (observations, legal-action masks, the seat to move, rewards, terminations),
//! what the Python package's `rulesmith.vector.VectorEnv` wraps and `cargo bench --bench
//! learning` measures.
//!
//! Env `k` plays games `k`, `k + N`, `k + 2N`, … of the run seeded `seed` (game seeds
//! `game_seed(seed, k + j·N)`), so with one env the games are those of
//! `rulesmith simulate --seed`. A finished game restarts in the same step (Gymnasium's
//! "same_step" autoreset): the row then shows the next game, and the finished one's reward
//! and final observation are in their own buffers. Each env's game depends on its own seed
//! and actions only, so the buffers are the same for any thread count.
//!
//! A game that ends by its rules is `terminated`; one stopped by a safety cap of the
//! ruleset (Mundo 163's `max_rounds`) is `truncated` instead, with reward 0 for every seat
//! (nobody won it). The ended game's final scores and ranks are in their own buffers.

use crate::bots::BotSpec;
use crate::encode::{ObservationMemo, SeatRelative};
use crate::erased::{AnyGame, AnySession};
use crate::game::{Outcome, Seat, ToMove};
use crate::rng::{Rng, game_seed};
use std::any::Any;
use std::sync::Arc;

/// Most envs in one batch (each holds a game: bound what an argument allocates).
pub const MAX_ENVS: usize = 1 << 16;
/// Most bytes of output buffers one batch holds (the expansion's mask alone is about
/// 159 kB a game).
pub const MAX_BUFFER_BYTES: usize = 1 << 30;
/// Most threads one batch steps with.
pub const MAX_THREADS: usize = 256;
/// Most fresh games one reset may find already over before a decision (a ruleset whose
/// bots end every game at once would otherwise loop).
const MAX_EMPTY_GAMES: u32 = 16;

/// Why a batch was not made or not stepped.
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    /// The caller's argument (a count, a seat, an action id not legal in its env).
    #[error("{0}")]
    Argument(String),
    /// A game stopped (a game error, a ruleset whose games end before any decision).
    #[error("{0}")]
    Game(String),
}

/// What a finished game pays each seat, in the step that ends it (a game stopped by a
/// safety cap pays 0 to every seat under each).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Reward {
    /// The seat's share of the win: 1, or 1/k for each of k tied winners; 0 otherwise.
    #[default]
    WinShare,
    /// The seat's place, from 1 (first) to -1 (last), linear in between; tied seats share
    /// the mean of the places they hold, so the rewards of a game sum to 0.
    Rank,
    /// The seat's final score minus the mean of the other seats' (in the game's points,
    /// unscaled): the rewards of a game sum to 0.
    ScoreMargin,
}

impl Reward {
    /// The names the environments take: `win_share`, `rank`, `score_margin`.
    pub const NAMES: [&str; 3] = ["win_share", "rank", "score_margin"];

    /// The reward of this name (one of [`Reward::NAMES`]).
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "win_share" => Some(Reward::WinShare),
            "rank" => Some(Reward::Rank),
            "score_margin" => Some(Reward::ScoreMargin),
            _ => None,
        }
    }

    /// Writes each seat's reward for a finished game into `out` (one per seat).
    pub fn pay(self, outcome: &Outcome, out: &mut [f32]) {
        out.fill(0.0);
        if outcome.unfinished {
            return;
        }
        let ranks = &outcome.ranks;
        let n = ranks.len().min(out.len());
        match self {
            Reward::WinShare => {
                let winners = ranks.iter().filter(|&&r| r == 0).count().max(1);
                for (r, &rank) in out.iter_mut().zip(ranks) {
                    if rank == 0 {
                        *r = 1.0 / winners as f32;
                    }
                }
            }
            Reward::Rank if n > 1 => {
                for (r, &rank) in out.iter_mut().zip(ranks) {
                    // Ranks count the better seats: k tied seats of rank r hold places r to r + k - 1.
                    let tied = ranks.iter().filter(|&&o| o == rank).count();
                    let place = f64::from(rank) + (tied as f64 - 1.0) / 2.0;
                    *r = (1.0 - 2.0 * place / (n as f64 - 1.0)) as f32;
                }
            }
            Reward::Rank => {}
            Reward::ScoreMargin if n > 1 => {
                let total: f64 = outcome.scores.iter().map(|&s| f64::from(s)).sum();
                for (r, &s) in out.iter_mut().zip(&outcome.scores) {
                    let others = (total - f64::from(s)) / (n as f64 - 1.0);
                    *r = (f64::from(s) - others) as f32;
                }
            }
            Reward::ScoreMargin => {}
        }
    }
}

/// How to build a batch.
#[derive(Clone, Debug, Default)]
pub struct BatchOptions {
    pub players: usize,
    pub num_envs: usize,
    /// The run seed (see the module docs).
    pub seed: u64,
    /// Threads a step uses (1: the caller's only).
    pub threads: usize,
    /// Empty: the caller plays every seat. Else one entry per seat: a bot, which plays
    /// that seat's decisions within the step, or `None`, a seat the caller plays (the
    /// rows show only those seats' decisions).
    pub bots: Vec<Option<BotSpec>>,
    /// Observations seat-relative ([`SeatRelative`]): the seat to move's features first.
    pub seat_relative: bool,
    /// What a finished game pays.
    pub reward: Reward,
}

type Session<'g> = Box<dyn AnySession + Send + 'g>;

/// One env: its game and where it is in its run.
struct Slot<'g> {
    session: Session<'g>,
    /// Which game of this env (0, 1, …): its seed is `game_seed(seed, k + episode·N)`.
    episode: u64,
    /// The legal ids of the row's decision, checked against the next action.
    ids: Vec<u32>,
    /// Decisions played in this game, for the bots' seeds (as `rulesmith.gym` seeds them).
    decision: u64,
    /// The absolute observation, before it is made seat-relative.
    absolute: Vec<f32>,
    /// What the game's encoder knows of the row's observation (the absolute one when the
    /// batch's are seat-relative), so that a step rewrites only what changed.
    memo: ObservationMemo,
}

/// What every env shares.
struct Table<'g> {
    game: &'g dyn AnyGame,
    players: usize,
    num_envs: u64,
    seed: u64,
    obs_len: usize,
    action_count: usize,
    bots: Vec<Option<BotSpec>>,
    relative: Option<SeatRelative>,
    reward: Reward,
    space: Arc<dyn Any + Send + Sync>,
}

/// One env's rows of the output buffers.
struct Rows<'a> {
    obs: &'a mut [f32],
    mask: &'a mut [u8],
    to_move: &'a mut [i64],
    reward: &'a mut [f32],
    terminated: &'a mut [u8],
    truncated: &'a mut [u8],
    final_obs: &'a mut [f32],
    scores: &'a mut [f32],
    ranks: &'a mut [i64],
}

impl<'a> Rows<'a> {
    /// The rows of the first `n` envs and those of the rest.
    fn split(self, n: usize, t: &Table<'_>) -> (Rows<'a>, Rows<'a>) {
        let (o1, o2) = self.obs.split_at_mut(n * t.obs_len);
        let (m1, m2) = self.mask.split_at_mut(n * t.action_count);
        let (s1, s2) = self.to_move.split_at_mut(n);
        let (r1, r2) = self.reward.split_at_mut(n * t.players);
        let (d1, d2) = self.terminated.split_at_mut(n);
        let (u1, u2) = self.truncated.split_at_mut(n);
        let (f1, f2) = self.final_obs.split_at_mut(n * t.obs_len);
        let (c1, c2) = self.scores.split_at_mut(n * t.players);
        let (k1, k2) = self.ranks.split_at_mut(n * t.players);
        (
            Rows {
                obs: o1,
                mask: m1,
                to_move: s1,
                reward: r1,
                terminated: d1,
                truncated: u1,
                final_obs: f1,
                scores: c1,
                ranks: k1,
            },
            Rows {
                obs: o2,
                mask: m2,
                to_move: s2,
                reward: r2,
                terminated: d2,
                truncated: u2,
                final_obs: f2,
                scores: c2,
                ranks: k2,
            },
        )
    }
}

/// A batch's output, one row per env (row-major): what the last reset or step wrote.
#[derive(Default)]
pub struct Buffers {
    /// `num_envs × obs_len`: the observation of the seat to move.
    pub obs: Vec<f32>,
    /// `num_envs × action_count`: 1 where the id is legal.
    pub mask: Vec<u8>,
    /// `num_envs`: the seat to move.
    pub to_move: Vec<i64>,
    /// `num_envs × players`: each seat's reward ([`Reward`]) in the step that ended a game.
    pub reward: Vec<f32>,
    /// `num_envs`: 1 where a game ended by its rules in this step.
    pub terminated: Vec<u8>,
    /// `num_envs`: 1 where a game was stopped by a safety cap in this step.
    pub truncated: Vec<u8>,
    /// `num_envs × obs_len`: the ended game's last observation (zeros in other rows).
    pub final_obs: Vec<f32>,
    /// `num_envs × players`: the ended game's final scores (zeros in other rows).
    pub scores: Vec<f32>,
    /// `num_envs × players`: the ended game's ranks, 0 first (-1 in other rows).
    pub ranks: Vec<i64>,
}

impl Buffers {
    fn rows(&mut self) -> Rows<'_> {
        Rows {
            obs: &mut self.obs,
            mask: &mut self.mask,
            to_move: &mut self.to_move,
            reward: &mut self.reward,
            terminated: &mut self.terminated,
            truncated: &mut self.truncated,
            final_obs: &mut self.final_obs,
            scores: &mut self.scores,
            ranks: &mut self.ranks,
        }
    }
}

impl<'g> Table<'g> {
    fn game_seed(&self, k: u64, episode: u64) -> u64 {
        game_seed(self.seed, k.wrapping_add(episode.wrapping_mul(self.num_envs)))
    }

    fn start(&self, k: u64, episode: u64) -> Result<Slot<'g>, String> {
        let mut session = self.game.start(self.players, self.game_seed(k, episode)).map_err(|e| e.to_string())?;
        session.encodings().map_err(|e| e.to_string())?.adopt_action_space(self.space.clone());
        let mut slot = Slot { session, episode, ids: Vec::new(), decision: 0, absolute: Vec::new(), memo: None };
        self.play_bots(&mut slot, k)?;
        Ok(slot)
    }

    /// Lets the bots play up to a decision of a seat the caller plays.
    fn play_bots(&self, slot: &mut Slot<'g>, k: u64) -> Result<(), String> {
        if self.bots.is_empty() {
            return Ok(());
        }
        let gseed = self.game_seed(k, slot.episode);
        while let ToMove::Seat(s) = slot.session.to_move() {
            let Some(Some(spec)) = self.bots.get(usize::from(s)).cloned() else { break };
            let mut rng = Rng::from_seed(game_seed(gseed, slot.decision));
            // By action, never through its notation read back; nobody reads the history.
            if !slot.session.bots().map_err(|e| e.to_string())?.bot_play(&spec, &mut rng, false) {
                // A `learned` opponent without a policy for this table says so.
                if let BotSpec::Learned(l) = &spec
                    && let Some(why) = l.problem()
                {
                    return Err(format!("opponent `{spec}`: {why}"));
                }
                break;
            }
            slot.decision += 1;
        }
        Ok(())
    }

    /// Writes `seat`'s observation into the row's `out` (seat-relative when the batch's
    /// are), which holds the row's last one: the encoder rewrites what changed since.
    fn observe(&self, slot: &mut Slot<'g>, seat: Seat, out: &mut [f32]) {
        // Every session has encodings: the batch was built from one that had them.
        let Ok(encodings) = slot.session.encodings() else { return };
        match &self.relative {
            None => encodings.observation_update(seat, out, &mut slot.memo),
            Some(r) => {
                slot.absolute.resize(self.obs_len, 0.0);
                encodings.observation_update(seat, &mut slot.absolute, &mut slot.memo);
                r.write(seat, &slot.absolute, out);
            }
        }
    }

    /// Writes `seat`'s observation of a game that ended into `out` (not the row's).
    fn observe_final(&self, slot: &mut Slot<'g>, seat: Seat, out: &mut [f32]) {
        let Ok(encodings) = slot.session.encodings() else { return };
        match &self.relative {
            None => encodings.observation(seat, out),
            Some(r) => {
                slot.absolute.resize(self.obs_len, 0.0);
                encodings.observation(seat, &mut slot.absolute);
                // The absolute buffer no longer holds what the memo says.
                slot.memo = None;
                r.write(seat, &slot.absolute, out);
            }
        }
    }

    /// Plays `action` (already checked legal) in env `k`, restarts a finished game and
    /// writes the env's rows. No action: the row's decision stays as it is.
    fn step_one(&self, k: u64, slot: &mut Slot<'g>, action: Option<u32>, rows: Rows<'_>) -> Result<(), String> {
        rows.reward.fill(0.0);
        if rows.terminated[0] != 0 || rows.truncated[0] != 0 {
            rows.final_obs.fill(0.0);
            rows.scores.fill(0.0);
            rows.ranks.fill(-1);
            rows.terminated[0] = 0;
            rows.truncated[0] = 0;
        }
        if let Some(id) = action {
            let mover = match slot.session.to_move() {
                ToMove::Seat(s) => s,
                ToMove::Terminal => 0,
            };
            // Nobody reads a batched game's history: not formatting each action's
            // notation saves about a tenth of a step.
            slot.session
                .encodings()
                .map_err(|e| e.to_string())?
                .play_legal_id_unrecorded(id)
                .map_err(|e| e.to_string())?;
            slot.decision += 1;
            self.play_bots(slot, k)?;
            let mut empty = 0;
            let mut ended = false;
            while slot.session.to_move() == ToMove::Terminal {
                // The game the step ended (not one that a restart found over at once).
                if !ended {
                    ended = true;
                    let out = slot.session.outcome();
                    let unfinished = out.as_ref().is_some_and(|o| o.unfinished);
                    if let Some(out) = &out {
                        self.reward.pay(out, rows.reward);
                        for (x, &s) in rows.scores.iter_mut().zip(&out.scores) {
                            *x = s as f32;
                        }
                        for (x, &r) in rows.ranks.iter_mut().zip(&out.ranks) {
                            *x = i64::from(r);
                        }
                    }
                    // The seat that played the action: the caller's, whose game it was.
                    self.observe_final(slot, mover, rows.final_obs);
                    rows.terminated[0] = u8::from(!unfinished);
                    rows.truncated[0] = u8::from(unfinished);
                }
                empty += 1;
                if empty > MAX_EMPTY_GAMES {
                    return Err(format!("{MAX_EMPTY_GAMES} games in a row ended before a decision"));
                }
                // The row's mask still sets the ended game's ids: `write` unsets them.
                let ids = std::mem::take(&mut slot.ids);
                *slot = self.start(k, slot.episode + 1)?;
                slot.ids = ids;
            }
        }
        self.write(slot, rows)
    }

    /// Writes the decision of env `slot`: the observation and mask of the seat to move.
    fn write(&self, slot: &mut Slot<'g>, rows: Rows<'_>) -> Result<(), String> {
        let seat = match slot.session.to_move() {
            ToMove::Seat(s) => s,
            ToMove::Terminal => return Err("a game is over before its first decision".to_string()),
        };
        rows.to_move[0] = i64::from(seat);
        self.observe(slot, seat, rows.obs);
        // Unset the previous decision's ids rather than clearing the whole row.
        for &id in &slot.ids {
            if let Some(b) = rows.mask.get_mut(id as usize) {
                *b = 0;
            }
        }
        slot.session.encodings().map_err(|e| e.to_string())?.legal_ids(&mut slot.ids).map_err(|e| e.to_string())?;
        for &id in &slot.ids {
            if let Some(b) = rows.mask.get_mut(id as usize) {
                *b = 1;
            }
        }
        Ok(())
    }

    /// Steps envs `first..first + slots.len()` in this thread.
    fn step_range(
        &self,
        first: u64,
        slots: &mut [Slot<'g>],
        actions: &[Option<u32>],
        mut rows: Rows<'_>,
    ) -> Result<(), String> {
        for (i, slot) in slots.iter_mut().enumerate() {
            let (one, rest) = rows.split(1, self);
            rows = rest;
            self.step_one(first + i as u64, slot, actions.get(i).copied().flatten(), one)
                .map_err(|e| format!("env {}: {e}", first + i as u64))?;
        }
        Ok(())
    }

    /// Steps every env, in chunks of consecutive envs on `pool`'s threads (none: on this
    /// one).
    fn step_all(
        &self,
        slots: &mut [Slot<'g>],
        actions: &[Option<u32>],
        pool: Option<&rayon::ThreadPool>,
        rows: Rows<'_>,
    ) -> Result<(), String> {
        let Some(pool) = pool else { return self.step_range(0, slots, actions, rows) };
        // A few chunks per thread, so that a thread slowed by other work does not hold up
        // the step; the pool's threads live as long as the batch (spawning per step costs
        // more than a small step).
        let chunk = slots.len().div_ceil(pool.current_num_threads() * 4).max(1);
        let mut tasks = Vec::new();
        let (mut rows, mut rest_slots, mut first) = (rows, slots, 0);
        while !rest_slots.is_empty() {
            let take = chunk.min(rest_slots.len());
            let (mine, later) = rest_slots.split_at_mut(take);
            rest_slots = later;
            let (one, rest) = rows.split(take, self);
            rows = rest;
            let acts = actions.get(first..(first + take).min(actions.len())).unwrap_or(&[]);
            tasks.push((first as u64, mine, acts, one));
            first += take;
        }
        pool.install(|| {
            use rayon::prelude::*;
            tasks.into_par_iter().try_for_each(|(at, mine, acts, one)| self.step_range(at, mine, acts, one))
        })
    }
}

/// N games of one ruleset stepped together (see the module docs).
pub struct Batch<'g> {
    table: Table<'g>,
    threads: usize,
    /// The threads of a step, when more than one.
    pool: Option<rayon::ThreadPool>,
    /// A reset has been made: one without a seed moves every env to its next game.
    started: bool,
    slots: Vec<Slot<'g>>,
    buffers: Buffers,
}

impl<'g> Batch<'g> {
    /// `opts.num_envs` games of `game`, each at its first decision (call [`Batch::reset`]
    /// before reading the buffers). `space` is the table's action space when the caller
    /// keeps one ([`crate::erased::SessionEncodings::action_space_handle`]); none: built here.
    pub fn new(
        game: &'g dyn AnyGame,
        opts: BatchOptions,
        space: Option<Arc<dyn Any + Send + Sync>>,
    ) -> Result<Self, BatchError> {
        let BatchOptions { players, num_envs, seed, threads, bots, seat_relative, reward } = opts;
        let arg = BatchError::Argument;
        let range = game.players();
        if !range.contains(&players) {
            return Err(arg(format!(
                "{players} players is not supported by `{}` (it allows {}–{})",
                game.game_id(),
                range.start(),
                range.end()
            )));
        }
        if !(1..=MAX_ENVS).contains(&num_envs) {
            return Err(arg(format!("num_envs={num_envs}: expected 1 to {MAX_ENVS}")));
        }
        if !(1..=MAX_THREADS).contains(&threads) {
            return Err(arg(format!("num_threads={threads}: expected 1 to {MAX_THREADS}")));
        }
        if !bots.is_empty() {
            if bots.len() != players {
                return Err(arg(format!("{} opponents for {players} seats (give one per seat)", bots.len())));
            }
            if bots.iter().all(Option::is_some) {
                return Err(arg("every seat is a bot's: leave at least one seat to the caller".to_string()));
            }
            if let Some(b) = bots.iter().flatten().find(|b| b.is_external()) {
                return Err(arg(format!(
                    "opponent `{b}`: a bot program (`exec:`) cannot play here; choose random, greedy or mcts:N"
                )));
            }
        }
        let game_err = |e: crate::game::GameError| BatchError::Game(e.to_string());
        let mut session = game.start(players, seed).map_err(|e| arg(e.to_string()))?;
        let probe = session.encodings().map_err(|e| arg(e.to_string()))?;
        if let Some(space) = space {
            probe.adopt_action_space(space);
        }
        let space = probe.action_space_handle().map_err(game_err)?;
        let action_count = probe.action_count().map_err(game_err)?;
        let names = probe.observation_names();
        let obs_len = names.len();
        let relative =
            if seat_relative { Some(SeatRelative::new(&names, players).map_err(BatchError::Game)?) } else { None };
        let row = 8 * obs_len + action_count + 8 + 16 * players + 2;
        if num_envs.saturating_mul(row) > MAX_BUFFER_BYTES {
            return Err(arg(format!(
                "num_envs={num_envs}: its batches would take {} MB ({row} bytes a game: {obs_len} numbers \
                 of observation twice, {action_count} of mask); at most {} MB, {} games of this table",
                num_envs.saturating_mul(row) >> 20,
                MAX_BUFFER_BYTES >> 20,
                MAX_BUFFER_BYTES / row
            )));
        }
        let table = Table {
            game,
            players,
            num_envs: num_envs as u64,
            seed,
            obs_len,
            action_count,
            bots,
            relative,
            reward,
            space,
        };
        let mut slots = Vec::with_capacity(num_envs);
        for k in 0..num_envs as u64 {
            slots.push(table.start(k, 0).map_err(|e| BatchError::Game(format!("env {k}: {e}")))?);
        }
        let buffers = Buffers {
            obs: vec![0.0; num_envs * obs_len],
            mask: vec![0; num_envs * action_count],
            to_move: vec![0; num_envs],
            reward: vec![0.0; num_envs * players],
            terminated: vec![0; num_envs],
            truncated: vec![0; num_envs],
            final_obs: vec![0.0; num_envs * obs_len],
            scores: vec![0.0; num_envs * players],
            ranks: vec![-1; num_envs * players],
        };
        let threads = threads.min(num_envs);
        let pool = if threads > 1 {
            let built = rayon::ThreadPoolBuilder::new().num_threads(threads).build();
            Some(built.map_err(|e| BatchError::Game(format!("cannot start {threads} threads: {e}")))?)
        } else {
            None
        };
        Ok(Batch { table, threads, pool, started: false, slots, buffers })
    }

    pub fn num_envs(&self) -> usize {
        self.slots.len()
    }
    pub fn players(&self) -> usize {
        self.table.players
    }
    /// The run seed: env `k`'s `j`-th game has seed `game_seed(seed, k + j·num_envs)`.
    pub fn seed(&self) -> u64 {
        self.table.seed
    }
    /// How many threads a step uses.
    pub fn threads(&self) -> usize {
        self.threads
    }
    /// How many action ids there are (a mask row's width).
    pub fn action_count(&self) -> usize {
        self.table.action_count
    }
    /// How many numbers an observation has.
    pub fn observation_len(&self) -> usize {
        self.table.obs_len
    }
    /// The seat-relative layout, when the observations are.
    pub fn seat_relative(&self) -> Option<&SeatRelative> {
        self.table.relative.as_ref()
    }
    /// What the last reset or step wrote.
    pub fn buffers(&self) -> &Buffers {
        &self.buffers
    }
    /// The legal ids of env `k`'s decision (those set in its mask row).
    pub fn legal_ids(&self, k: usize) -> Option<&[u32]> {
        self.slots.get(k).map(|s| s.ids.as_slice())
    }
    /// The seed of the game env `k` plays now.
    pub fn game_seed(&self, k: usize) -> Option<u64> {
        self.slots.get(k).map(|s| self.table.game_seed(k as u64, s.episode))
    }

    /// `seed` given: restarts every env at its first game of the run seeded `seed`; none:
    /// every env starts its next game of the run; the first reset without a seed keeps each
    /// at its first game. Writes the buffers.
    pub fn reset(&mut self, seed: Option<u64>) -> Result<(), BatchError> {
        if let Some(s) = seed {
            self.table.seed = s;
        }
        let next = seed.is_none() && self.started;
        let table = &self.table;
        for (k, slot) in self.slots.iter_mut().enumerate() {
            let episode = if next { slot.episode + 1 } else { 0 };
            *slot = table.start(k as u64, episode).map_err(|e| BatchError::Game(format!("env {k}: {e}")))?;
        }
        self.buffers.final_obs.fill(0.0);
        self.buffers.terminated.fill(0);
        self.buffers.truncated.fill(0);
        self.buffers.scores.fill(0.0);
        self.buffers.ranks.fill(-1);
        self.buffers.mask.fill(0);
        table.step_all(&mut self.slots, &[], self.pool.as_ref(), self.buffers.rows()).map_err(BatchError::Game)?;
        self.started = true;
        Ok(())
    }

    /// Plays `actions[k]` in env `k` for every `k`; each must be legal in its env (set in
    /// its mask row), else an [`BatchError::Argument`] naming the env and the id, and
    /// nothing is played. Writes the buffers.
    pub fn step(&mut self, actions: &[u32]) -> Result<(), BatchError> {
        let some: Vec<Option<u32>> = actions.iter().copied().map(Some).collect();
        self.step_some(&some)
    }

    /// [`Batch::step`] where `None` leaves env `k` at its decision (its rows rewritten as
    /// they were, with no reward): for a caller that plays some envs' decisions later (a
    /// policy in another process, an opponent of its own).
    pub fn step_some(&mut self, actions: &[Option<u32>]) -> Result<(), BatchError> {
        let n = self.slots.len();
        if actions.len() != n {
            return Err(BatchError::Argument(format!("{} actions for {n} envs (give one per env)", actions.len())));
        }
        for (k, (slot, id)) in self.slots.iter().zip(actions).enumerate() {
            let Some(id) = *id else { continue };
            if !slot.ids.contains(&id) {
                return Err(BatchError::Argument(format!(
                    "env {k}: action id {id} is not legal now (its mask does not set it; {} ids are legal)",
                    slot.ids.len()
                )));
            }
        }
        self.table.step_all(&mut self.slots, actions, self.pool.as_ref(), self.buffers.rows()).map_err(BatchError::Game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paid(reward: Reward, scores: Vec<i32>) -> Vec<f32> {
        let n = scores.len();
        let out = Outcome::ranked(scores, vec![Vec::new(); n], "test");
        let mut r = vec![9.0; n];
        reward.pay(&out, &mut r);
        r
    }

    #[test]
    fn rewards_of_each_kind() {
        assert_eq!(paid(Reward::WinShare, vec![5, 9, 9]), [0.0, 0.5, 0.5]);
        assert_eq!(paid(Reward::Rank, vec![5, 9, 7]), [-1.0, 1.0, 0.0]);
        // Two tied for first hold places 0 and 1: both get their mean.
        assert_eq!(paid(Reward::Rank, vec![9, 9, 1]), [0.5, 0.5, -1.0]);
        assert_eq!(paid(Reward::ScoreMargin, vec![10, 4, 7]), [4.5, -4.5, 0.0]);
        for kind in [Reward::Rank, Reward::ScoreMargin] {
            let sum: f32 = paid(kind, vec![3, 8, 8, 1]).iter().sum();
            assert!(sum.abs() < 1e-5, "{kind:?}: {sum}");
        }
    }

    #[test]
    fn a_game_stopped_by_a_cap_pays_nobody() {
        let mut out = Outcome::ranked(vec![5, 9], vec![Vec::new(); 2], "max_rounds");
        out.unfinished = true;
        for kind in [Reward::WinShare, Reward::Rank, Reward::ScoreMargin] {
            let mut r = vec![9.0; 2];
            kind.pay(&out, &mut r);
            assert_eq!(r, [0.0, 0.0]);
        }
    }

    #[test]
    fn reward_names() {
        for name in Reward::NAMES {
            assert!(Reward::from_name(name).is_some(), "{name}");
        }
        assert_eq!(Reward::from_name("wins"), None);
    }
}
