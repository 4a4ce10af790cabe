//! Recorded games to step through, as any seat or as an all-seeing observer.

use crate::api::ApiError;
use crate::{Link, Ruleset};
use rulesmith_core::erased::AnySession;
use rulesmith_core::game::{Seat, ToMove};
use rulesmith_core::record::Record;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// Replays kept at once: a page may send records, and each holds a game.
pub const MAX_REPLAYS: usize = 64;
/// Most decisions a replayed record may hold.
const MAX_ACTIONS: usize = 200_000;

pub struct Replay {
    pub ruleset: Arc<Ruleset>,
    pub record: Record,
    /// Who made each decision.
    movers: Vec<Seat>,
    /// The round at each position (0: after setup).
    rounds: Vec<u32>,
    session: Mutex<Box<dyn AnySession + Send>>,
}

#[derive(Default)]
pub struct Replays {
    next: usize,
    open: BTreeMap<usize, Arc<Replay>>,
}

impl Replays {
    /// Checks a record and keeps it. Returns its id.
    pub fn add(&mut self, ruleset: Arc<Ruleset>, record: Record) -> Result<usize, ApiError> {
        Ok(self.insert(Replay::check(ruleset, record)?))
    }

    /// Keeps a replay (the oldest goes when [`MAX_REPLAYS`] are open); its id.
    pub fn insert(&mut self, replay: Replay) -> usize {
        let id = self.next;
        self.next += 1;
        if self.open.len() >= MAX_REPLAYS {
            self.open.pop_first();
        }
        self.open.insert(id, Arc::new(replay));
        id
    }

    pub fn get(&self, id: usize) -> Option<Arc<Replay>> {
        self.open.get(&id).cloned()
    }

    pub fn list(&self) -> Vec<Value> {
        self.open
            .iter()
            .map(|(id, r)| {
                json!({
                    "id": id,
                    "ruleset": r.ruleset.name,
                    "game": r.record.game,
                    "players": r.record.players,
                    "names": r.record.bots,
                    "steps": r.record.actions.len(),
                })
            })
            .collect()
    }

    pub fn links(&self) -> Vec<Link> {
        self.open
            .iter()
            .map(|(id, r)| Link {
                label: format!("replay of {} ({} decisions)", r.ruleset.name, r.record.actions.len()),
                path: format!("/?replay={id}"),
            })
            .collect()
    }
}

impl Replay {
    /// Checks a record by playing it through under `ruleset`.
    pub fn check(ruleset: Arc<Ruleset>, record: Record) -> Result<Replay, ApiError> {
        let bad = |m: String| ApiError::unprocessable(format!("the record: {m}"));
        if record.digest != ruleset.digest {
            return Err(bad(format!("its ruleset `{}` is not the one served (digests differ)", record.ruleset)));
        }
        if record.actions.len() > MAX_ACTIONS {
            return Err(bad(format!("{} actions, more than {MAX_ACTIONS}", record.actions.len())));
        }
        if !ruleset.game.players().contains(&record.players) {
            return Err(bad(format!("{} players is outside the ruleset", record.players)));
        }
        if record.bots.len() != record.players {
            return Err(bad(format!("{} seats named for {} players", record.bots.len(), record.players)));
        }
        let mut session = ruleset.game.start(record.players, record.seed).map_err(|e| bad(e.to_string()))?;
        let mut movers = Vec::with_capacity(record.actions.len());
        let mut rounds = vec![session.progress().rounds];
        for (i, a) in record.actions.iter().enumerate() {
            let ToMove::Seat(s) = session.to_move() else {
                return Err(bad(format!("action {} `{a}`: the game is already over", i + 1)));
            };
            session.play(a).map_err(|e| bad(format!("action {}: {e}", i + 1)))?;
            movers.push(s);
            rounds.push(session.progress().rounds);
        }
        Ok(Replay { ruleset, record, movers, rounds, session: Mutex::new(session) })
    }

    /// The position after `step` decisions, as `seat` sees it (`None`: the observer, who
    /// sees the whole state).
    pub fn at(&self, step: usize, seat: Option<Seat>) -> Result<Value, ApiError> {
        let steps = self.record.actions.len();
        if step > steps {
            return Err(ApiError::bad(format!("step {step}: the record has {steps} decisions (steps 0 to {steps})")));
        }
        if let Some(s) = seat.filter(|&s| usize::from(s) >= self.record.players) {
            return Err(ApiError::bad(format!("seat {s}: the game has {} players", self.record.players)));
        }
        let mut session = crate::api::lock(&self.session);
        // Deterministic from the seed: back by playing the first `step` actions again,
        // forward by playing the next ones.
        let now = session.history().len();
        if now > step {
            session.rewind(step).map_err(|e| ApiError::conflict(e.to_string()))?;
        }
        let now = session.history().len();
        for a in self.record.actions.get(now..step).unwrap_or_default() {
            session.play(a).map_err(|e| ApiError::conflict(e.to_string()))?;
        }
        let view = match seat {
            Some(s) => session.view_json(s),
            None => session.state_json(),
        };
        let to_move = match session.to_move() {
            ToMove::Seat(s) => Some(s),
            ToMove::Terminal => None,
        };
        Ok(json!({
            "ruleset": self.ruleset.name,
            "game": self.record.game,
            "players": self.record.players,
            "names": self.record.bots,
            "seat": seat,
            "step": step,
            "steps": steps,
            "round": self.rounds.get(step).copied().unwrap_or(0),
            "rounds": self.rounds,
            "to_move": to_move,
            "view": view,
            "log": self.movers.iter().zip(&self.record.actions).map(|(s, a)| json!([s, a])).collect::<Vec<_>>(),
            "outcome": if step == steps { session.outcome() } else { None },
        }))
    }
}
