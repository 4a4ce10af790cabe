//! Recorded games to step through, as any seat or as an all-seeing observer.
//!
//! A replay keeps only what stepping needs (the players, seed, seat names, actions, who made
//! each and the rounds), never the text it was sent as; those sent from pages share a
//! budget of count and bytes, the oldest sent going first, while the operator's
//! `--replay` records stay.

use crate::refusal::Refusal;
use crate::spec::{Link, Ruleset};
use rulesmith_core::erased::AnySession;
use rulesmith_core::game::{Seat, ToMove};
use rulesmith_core::record::Record;
use serde_json::{Value, json};
use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Mutex};

/// Most characters of a seat's name in a record (a bot's name, an `exec:` command line).
const MAX_NAME: usize = 256;
/// Bytes a game's session holds besides its history, about (the board, the hands).
const SESSION_BYTES: usize = 64 << 10;

/// How many records sent from pages a server keeps, and in how many bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplayLimits {
    /// Records sent from pages kept at once (the oldest goes to make room).
    pub uploads: usize,
    /// Bytes they may hold together, about: each record's actions counted twice (as kept
    /// and in its replaying game's history); the oldest goes to make room, and one record
    /// larger than this is refused.
    pub upload_bytes: usize,
}

impl Default for ReplayLimits {
    fn default() -> Self {
        ReplayLimits { uploads: 16, upload_bytes: 32 << 20 }
    }
}

pub struct Replay {
    pub ruleset: Arc<Ruleset>,
    players: usize,
    names: Vec<String>,
    actions: Vec<Box<str>>,
    /// Who made each decision.
    movers: Vec<Seat>,
    /// The round at each position (0: after setup).
    rounds: Vec<u32>,
    session: Mutex<Box<dyn AnySession + Send>>,
    /// The bytes it holds, about (its actions twice: here and in the session's history).
    pub size: usize,
}

pub struct Replays {
    next: usize,
    open: BTreeMap<usize, Arc<Replay>>,
    /// The ids of the records sent from pages still kept, oldest first.
    uploaded: VecDeque<usize>,
    uploaded_bytes: usize,
    limits: ReplayLimits,
}

impl Replays {
    pub fn new(limits: ReplayLimits) -> Self {
        Replays { next: 0, open: BTreeMap::new(), uploaded: VecDeque::new(), uploaded_bytes: 0, limits }
    }

    /// Checks an operator's record and keeps it for as long as the server runs. Its id.
    pub fn add(&mut self, ruleset: Arc<Ruleset>, record: Record) -> Result<usize, Refusal> {
        let replay = Replay::check(ruleset, record)?;
        let id = self.next;
        self.next += 1;
        self.open.insert(id, Arc::new(replay));
        Ok(id)
    }

    /// Keeps a record sent from a page, the oldest sent going to make room; its id.
    /// Refused if it alone is over the budget.
    pub fn upload(&mut self, replay: Replay) -> Result<usize, Refusal> {
        let budget = self.limits.upload_bytes;
        if replay.size > budget || self.limits.uploads == 0 {
            return Err(Refusal::TooLarge(format!(
                "the record: it holds about {} KiB once read, more than the {} KiB this server keeps for records sent to it",
                replay.size.div_ceil(1024),
                budget / 1024
            )));
        }
        while self.uploaded.len() >= self.limits.uploads || self.uploaded_bytes + replay.size > budget {
            let Some(old) = self.uploaded.pop_front() else { break };
            if let Some(r) = self.open.remove(&old) {
                self.uploaded_bytes = self.uploaded_bytes.saturating_sub(r.size);
            }
        }
        let id = self.next;
        self.next += 1;
        self.uploaded_bytes += replay.size;
        self.uploaded.push_back(id);
        self.open.insert(id, Arc::new(replay));
        Ok(id)
    }

    pub fn get(&self, id: usize) -> Option<Arc<Replay>> {
        self.open.get(&id).cloned()
    }

    /// The bytes the records sent from pages hold together, about.
    pub fn uploaded_bytes(&self) -> usize {
        self.uploaded_bytes
    }

    pub fn list(&self) -> Vec<Value> {
        self.open
            .iter()
            .map(|(id, r)| {
                json!({
                    "id": id,
                    "ruleset": r.ruleset.name,
                    "game": r.ruleset.game.game_id(),
                    "players": r.players,
                    "names": r.names,
                    "steps": r.actions.len(),
                })
            })
            .collect()
    }

    pub fn links(&self) -> Vec<Link> {
        self.open
            .iter()
            .map(|(id, r)| Link {
                label: format!("replay of {} ({} decisions)", r.ruleset.name, r.actions.len()),
                path: format!("/?replay={id}"),
            })
            .collect()
    }
}

impl Replay {
    /// Checks a record by playing it through under `ruleset`.
    pub fn check(ruleset: Arc<Ruleset>, record: Record) -> Result<Replay, Refusal> {
        let bad = |m: String| Refusal::Unplayable(format!("the record: {m}"));
        if record.digest != ruleset.digest {
            return Err(bad(format!("its ruleset `{}` is not the one served (digests differ)", record.ruleset)));
        }
        // Most decisions a game of the ruleset may take: a longer record is refused unread.
        let limit = ruleset.game.decision_limit();
        if record.actions.len() as u64 > limit {
            return Err(bad(format!("{} actions, more than {limit}", record.actions.len())));
        }
        if !ruleset.game.players().contains(&record.players) {
            return Err(bad(format!("{} players is outside the ruleset", record.players)));
        }
        if record.bots.len() != record.players {
            return Err(bad(format!("{} seats named for {} players", record.bots.len(), record.players)));
        }
        if let Some((seat, _)) = record.bots.iter().enumerate().find(|(_, b)| b.chars().count() > MAX_NAME) {
            return Err(bad(format!("seat {seat}'s name is longer than {MAX_NAME} characters")));
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
        let actions: Vec<Box<str>> = record.actions.into_iter().map(String::into_boxed_str).collect();
        let size = SESSION_BYTES
            + record.bots.iter().map(|b| b.len() + 24).sum::<usize>()
            + actions.iter().map(|a| 2 * a.len() + 16 + 24 + 4 + 4).sum::<usize>();
        Ok(Replay {
            ruleset,
            players: record.players,
            names: record.bots,
            actions,
            movers,
            rounds,
            session: Mutex::new(session),
            size,
        })
    }

    /// The position after `step` decisions, as `seat` sees it (`None`: the observer, who
    /// sees the whole state).
    pub fn at(&self, step: usize, seat: Option<Seat>) -> Result<Value, Refusal> {
        let steps = self.actions.len();
        if step > steps {
            return Err(Refusal::Malformed(format!(
                "step {step}: the record has {steps} decisions (steps 0 to {steps})"
            )));
        }
        if let Some(s) = seat.filter(|&s| usize::from(s) >= self.players) {
            return Err(Refusal::Malformed(format!("seat {s}: the game has {} players", self.players)));
        }
        let mut session = crate::sync::lock(&self.session);
        // Deterministic from the seed: back by playing the first `step` actions again,
        // forward by playing the next ones.
        let now = session.history().len();
        if now > step {
            session.rewind(step).map_err(|e| Refusal::Conflict(e.to_string()))?;
        }
        let now = session.history().len();
        for a in self.actions.get(now..step).unwrap_or_default() {
            session.play(a).map_err(|e| Refusal::Conflict(e.to_string()))?;
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
            "game": self.ruleset.game.game_id(),
            "players": self.players,
            "names": self.names,
            "seat": seat,
            "step": step,
            "steps": steps,
            "round": self.rounds.get(step).copied().unwrap_or(0),
            "rounds": self.rounds,
            "to_move": to_move,
            "view": view,
            "log": self.movers.iter().zip(&self.actions).map(|(s, a)| json!([s, a])).collect::<Vec<_>>(),
            "outcome": if step == steps { session.outcome() } else { None },
        }))
    }
}
