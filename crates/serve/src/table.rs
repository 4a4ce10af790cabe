//! A table: one game in progress, its seats (people and bots), undo marks and the
//! published snapshot the pages read.

use crate::refusal::Refusal;
use crate::{Error, Link, Seating, TableSpec, lock};
use rulesmith_core::bots::BotSpec;
use rulesmith_core::erased::AnySession;
use rulesmith_core::game::{Outcome, Seat, ToMove};
use rulesmith_core::record::{HUMAN, Record};
use rulesmith_core::rng::Rng;
use rulesmith_core::sim::bot_rng;
use serde_json::{Value, json};
use std::sync::{Arc, Mutex, TryLockError};

/// A person's decision point: where to go back to on undo (the history's length and the
/// bots' generator there).
struct Mark {
    at: usize,
    rng: Rng,
}

/// The game itself, locked while someone acts or the bots think.
struct Live {
    session: Box<dyn AnySession + Send>,
    rng: Rng,
    marks: Vec<Mark>,
    /// Who made each decision of the history.
    movers: Vec<Seat>,
    /// Why play stopped (a bot that failed, the decision cap, a record not written).
    error: Option<String>,
}

/// What the pages see, rebuilt after every decision (so reading never waits for a bot).
pub struct Snapshot {
    pub moves: usize,
    pub round: u32,
    pub to_move: Option<Seat>,
    pub views: Vec<Value>,
    pub legal: Vec<(String, Option<String>)>,
    pub log: Vec<(Seat, String)>,
    pub outcome: Option<Outcome>,
    pub error: Option<String>,
    pub thinking: bool,
    /// The record so far (hot-seat pages download it; link pages only once it is over).
    pub record: Record,
    /// The seat whose view a hot-seat page shows: the person to move, else the last one.
    pub shown: Seat,
}

pub struct Table {
    pub id: usize,
    spec: TableSpec,
    pub names: Vec<String>,
    pub seating: Seating,
    tokens: Vec<Option<String>>,
    live: Mutex<Live>,
    published: Mutex<Arc<Snapshot>>,
}

impl Table {
    pub fn open(id: usize, spec: TableSpec, seating: Seating) -> Result<Table, Error> {
        let r = &spec.ruleset;
        let players = spec.players;
        if !r.game.players().contains(&players) {
            let range = r.game.players();
            return Err(Error::Bad(format!(
                "{}: {players} players is outside the ruleset ({}–{})",
                r.name,
                range.start(),
                range.end()
            )));
        }
        if spec.seats.len() != players {
            return Err(Error::Bad(format!("{}: {} seats for {players} players", r.name, spec.seats.len())));
        }
        let names: Vec<String> =
            spec.seats.iter().map(|s| s.as_ref().map_or(HUMAN.to_string(), ToString::to_string)).collect();
        let tokens = match seating {
            Seating::HotSeat => vec![None; players],
            Seating::Links => spec
                .seats
                .iter()
                .map(|s| if s.is_none() { crate::token().map(Some) } else { Ok(None) })
                .collect::<Result<_, _>>()?,
        };
        let session = r.game.start(players, spec.seed).map_err(|e| Error::Bad(format!("{}: {e}", r.name)))?;
        let mut live = Live { session, rng: bot_rng(spec.seed), marks: Vec::new(), movers: Vec::new(), error: None };
        if let Some(rec) = &spec.resume {
            resume(&mut live, &spec, rec)?;
        }
        live.mark(&spec.seats);
        // Bots to move first: the page shows them thinking until they have moved.
        let thinking = live.bot_to_move(&spec.seats).is_some();
        let snapshot = snapshot(&live, &spec, &names, thinking, 0);
        let table = Table {
            id,
            spec,
            names,
            seating,
            tokens,
            live: Mutex::new(live),
            published: Mutex::new(Arc::new(snapshot)),
        };
        // Check the record can be written before anyone plays.
        if let Some(e) = table.save(&lock(&table.live)) {
            return Err(Error::Bad(e));
        }
        Ok(table)
    }

    pub fn ruleset(&self) -> &crate::Ruleset {
        &self.spec.ruleset
    }

    pub fn players(&self) -> usize {
        self.spec.players
    }

    pub fn is_person(&self, seat: Seat) -> bool {
        matches!(self.spec.seats.get(usize::from(seat)), Some(None))
    }

    pub fn links(&self) -> Vec<Link> {
        let name = &self.spec.ruleset.name;
        match self.seating {
            Seating::HotSeat => vec![Link {
                label: format!("{name}, {} players, hot-seat", self.spec.players),
                path: format!("/?table={}", self.id),
            }],
            Seating::Links => self
                .tokens
                .iter()
                .enumerate()
                .filter_map(|(seat, t)| {
                    t.as_ref().map(|t| Link {
                        label: format!("{name}, seat {seat}"),
                        path: format!("/?table={}&seat={seat}&token={t}", self.id),
                    })
                })
                .collect(),
        }
    }

    /// Whether `token` opens `seat`'s page (compared in time independent of where they
    /// differ).
    pub fn admits(&self, seat: Seat, token: &str) -> bool {
        match self.tokens.get(usize::from(seat)) {
            Some(Some(t)) => {
                t.len() == token.len() && t.bytes().zip(token.bytes()).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
            }
            _ => false,
        }
    }

    /// Whether `seed` is this table's while its seats' holdings are still secret: a table
    /// by links whose game is not over. Any record dealt from it is refused, whatever its
    /// ruleset or player count: a variant (`--set`) or another count may well deal the same
    /// face-down order, and the seed with the public move log shows every hidden holding.
    pub fn keeps_secret(&self, seed: u64) -> bool {
        self.seating == Seating::Links && self.spec.seed == seed && self.snapshot().outcome.is_none()
    }

    pub fn snapshot(&self) -> Arc<Snapshot> {
        Arc::clone(&lock(&self.published))
    }

    fn publish(&self, live: &Live, thinking: bool) {
        let shown = lock(&self.published).shown;
        let s = snapshot(live, &self.spec, &self.names, thinking, shown);
        *lock(&self.published) = Arc::new(s);
    }

    /// Takes the game for a person's request; refused while the bots think or another
    /// request acts (two tabs at once).
    fn take(&self) -> Result<std::sync::MutexGuard<'_, Live>, Refusal> {
        match self.live.try_lock() {
            Ok(g) => Ok(g),
            Err(TryLockError::Poisoned(p)) => Ok(p.into_inner()),
            Err(TryLockError::WouldBlock) => Err(Refusal::Conflict(
                "the table is busy (the bots are moving, or another request is acting); try again".into(),
            )),
        }
    }

    /// Plays `action` for `seat` (a person's), checked against the move number the page
    /// saw.
    pub fn act(self: &Arc<Self>, seat: Option<Seat>, moves: usize, action: &str) -> Result<(), Refusal> {
        let mut live = self.take()?;
        let now = live.session.history().len();
        if moves != now {
            return Err(Refusal::Conflict(format!(
                "stale: the page showed move {moves}, the game is at move {now}; reload the position"
            )));
        }
        let ToMove::Seat(to_move) = live.session.to_move() else {
            return Err(Refusal::Conflict("the game is over".into()));
        };
        if !self.is_person(to_move) {
            return Err(Refusal::Conflict(format!("seat {to_move} is a bot's; wait for its move")));
        }
        if let Some(seat) = seat.filter(|&s| s != to_move) {
            return Err(Refusal::Forbidden(format!("seat {to_move} is to move, not seat {seat}")));
        }
        if live.error.is_some() {
            return Err(Refusal::Conflict("play has stopped; see the table's error".into()));
        }
        live.session.play(action).map_err(|e| Refusal::Unplayable(format!("`{action}`: {e}")))?;
        live.movers.push(to_move);
        live.mark(&self.spec.seats);
        if let Some(e) = self.save(&live) {
            live.error = Some(e);
        }
        let bots_next = live.bot_to_move(&self.spec.seats).is_some();
        self.publish(&live, bots_next);
        drop(live);
        if bots_next {
            Table::start_bots(self);
        }
        Ok(())
    }

    /// Back to the person's decision before the current one (hot-seat only).
    pub fn undo(self: &Arc<Self>, moves: usize) -> Result<(), Refusal> {
        if self.seating != Seating::HotSeat {
            return Err(Refusal::Forbidden("undo is for hot-seat tables only".into()));
        }
        let mut live = self.take()?;
        let now = live.session.history().len();
        if moves != now {
            return Err(Refusal::Conflict(format!(
                "stale: the page showed move {moves}, the game is at move {now}; reload the position"
            )));
        }
        let at_mark = live.marks.last().is_some_and(|m| m.at == now);
        if at_mark {
            if live.marks.len() < 2 {
                return Err(Refusal::Conflict("nothing to undo: this is the first decision".into()));
            }
            live.marks.pop();
        }
        let Some((at, rng)) = live.marks.last().map(|m| (m.at, m.rng.clone())) else {
            return Err(Refusal::Conflict("nothing to undo".into()));
        };
        live.session.rewind(at).map_err(|e| Refusal::Conflict(format!("cannot undo: {e}")))?;
        live.rng = rng;
        live.movers.truncate(at);
        live.error = None;
        if let Some(e) = self.save(&live) {
            live.error = Some(e);
        }
        self.publish(&live, false);
        Ok(())
    }

    /// Lets the bots play their seats, on a blocking thread, until a person is to move or
    /// the game ends.
    pub fn start_bots(table: &Arc<Table>) {
        let t = Arc::clone(table);
        let run = move || t.bots_move();
        // Outside a runtime (an app opening its tables before it serves) on a thread of
        // their own: the server starts listening while they think.
        match tokio::runtime::Handle::try_current() {
            Ok(h) => {
                h.spawn_blocking(run);
            }
            Err(_) => {
                std::thread::spawn(run);
            }
        }
    }

    fn bots_move(&self) {
        let mut live = lock(&self.live);
        let mut moved = false;
        while let Some((seat, bot)) = live.bot_to_move(&self.spec.seats) {
            if live.error.is_some() {
                break;
            }
            // A house rule can make a game that never ends: the ruleset's own limit stops it.
            let limit = self.spec.ruleset.game.decision_limit();
            if live.session.history().len() as u64 >= limit {
                live.error = Some(format!("the game did not end within {limit} decisions; stopped"));
                break;
            }
            let Live { session, rng, .. } = &mut *live;
            let bots = session.bots().map_err(|e| e.to_string());
            let step = bots.and_then(|b| b.bot_move(seat, &bot, rng).map_err(|e| e.to_string())).and_then(|choice| {
                session.play(&choice).map_err(|e| format!("seat {seat} ({bot}) chose `{choice}`: {e}"))
            });
            match step {
                Ok(()) => {
                    live.movers.push(seat);
                    moved = true;
                    self.publish(&live, true);
                }
                Err(e) => live.error = Some(e),
            }
        }
        live.mark(&self.spec.seats);
        if live.session.outcome().is_some() {
            if let Ok(b) = live.session.bots() {
                b.end_bots();
            }
        }
        if moved {
            if let Some(e) = self.save(&live) {
                live.error = Some(e);
            }
        }
        self.publish(&live, false);
    }

    pub fn end_bots(&self) {
        if let Ok(b) = lock(&self.live).session.bots() {
            b.end_bots();
        }
    }

    /// Writes the record, if the table keeps one; the message if it failed.
    fn save(&self, live: &Live) -> Option<String> {
        let save = self.spec.save.as_ref()?;
        save(&record(live, &self.spec, &self.names)).err()
    }
}

impl Live {
    /// The bot to move now, if a bot is to move.
    fn bot_to_move(&self, seats: &[Option<BotSpec>]) -> Option<(Seat, BotSpec)> {
        let ToMove::Seat(seat) = self.session.to_move() else { return None };
        seats.get(usize::from(seat)).cloned().flatten().map(|b| (seat, b))
    }

    /// Notes a person's decision point (for undo).
    fn mark(&mut self, seats: &[Option<BotSpec>]) {
        let ToMove::Seat(seat) = self.session.to_move() else { return };
        let at = self.session.history().len();
        if matches!(seats.get(usize::from(seat)), Some(None)) && self.marks.last().is_none_or(|m| m.at != at) {
            self.marks.push(Mark { at, rng: self.rng.clone() });
        }
    }
}

/// Plays a saved game again: the record decides every move; built-in bots choose again,
/// unchecked, so that their generator is where it was (as `play --resume` does).
fn resume(live: &mut Live, spec: &TableSpec, rec: &Record) -> Result<(), Error> {
    let bad = |m: String| Error::Bad(format!("the resumed record: {m}"));
    if rec.players != spec.players || rec.seed != spec.seed || rec.digest != spec.ruleset.digest {
        return Err(bad("its ruleset, players or seed are not the table's".into()));
    }
    let limit = spec.ruleset.game.decision_limit();
    if rec.actions.len() as u64 > limit {
        return Err(bad(format!("{} actions, more than {limit}", rec.actions.len())));
    }
    for (i, action) in rec.actions.iter().enumerate() {
        let ToMove::Seat(seat) = live.session.to_move() else {
            return Err(bad(format!("action {} `{action}`: the game is already over", i + 1)));
        };
        match spec.seats.get(usize::from(seat)).cloned().flatten() {
            Some(bot) if bot.is_external() => {}
            Some(bot) => {
                let _ = live.session.bots().map(|b| b.bot_choice(bot, &mut live.rng));
            }
            None => live.marks.push(Mark { at: i, rng: live.rng.clone() }),
        }
        live.session.play(action).map_err(|e| bad(format!("action {}: {e}", i + 1)))?;
        live.movers.push(seat);
    }
    match (&rec.result, live.session.outcome()) {
        (Some(_), None) => {
            Err(bad(format!("it has a result, but its {} actions stop before the end of the game", rec.actions.len())))
        }
        (Some(claimed), Some(o)) if *claimed != o => Err(bad("its result is not the result of its actions".into())),
        _ => Ok(()),
    }
}

fn record(live: &Live, spec: &TableSpec, names: &[String]) -> Record {
    let r = &spec.ruleset;
    Record {
        ruleset: r.name.clone(),
        source: r.source.clone(),
        overrides: r.overrides.clone(),
        digest: r.digest.clone(),
        game: r.game.game_id().to_string(),
        players: spec.players,
        seed: spec.seed,
        index: None,
        run_seed: None,
        rotation: None,
        bots: names.to_vec(),
        actions: live.session.history().to_vec(),
        rounds: live.session.progress().rounds,
        result: live.session.outcome(),
    }
}

fn snapshot(live: &Live, spec: &TableSpec, names: &[String], thinking: bool, shown: Seat) -> Snapshot {
    let s = &live.session;
    let to_move = match s.to_move() {
        ToMove::Seat(seat) => Some(seat),
        ToMove::Terminal => None,
    };
    let person = |seat: Seat| matches!(spec.seats.get(usize::from(seat)), Some(None));
    let shown = match to_move {
        Some(seat) if person(seat) => seat,
        _ if person(shown) => shown,
        _ => (0..spec.players).find(|&p| person(p as Seat)).unwrap_or(0) as Seat,
    };
    Snapshot {
        moves: s.history().len(),
        round: s.progress().rounds,
        to_move,
        views: (0..spec.players).map(|p| s.view_json(p as Seat)).collect(),
        legal: if to_move.is_some_and(person) && live.error.is_none() {
            s.views().map(|v| v.legal_annotated()).unwrap_or_default()
        } else {
            Vec::new()
        },
        log: live.movers.iter().copied().zip(s.history().iter().cloned()).collect(),
        outcome: s.outcome(),
        error: live.error.clone(),
        thinking,
        record: record(live, spec, names),
        shown,
    }
}

impl Snapshot {
    /// The page's JSON for `seat`'s view (`None`: the hot-seat page, the view of
    /// [`Snapshot::shown`]); `acts`: whether that page may act now.
    pub fn to_json(&self, table: &Table, seat: Option<Seat>) -> Value {
        let viewer = seat.unwrap_or(self.shown);
        let acts = match (seat, self.to_move) {
            (Some(s), Some(m)) => s == m && table.is_person(m),
            (None, Some(m)) => table.is_person(m),
            _ => false,
        };
        let r = table.ruleset();
        json!({
            "table": table.id,
            "ruleset": r.name,
            "game": r.game.game_id(),
            "seating": match table.seating { Seating::HotSeat => "hot-seat", Seating::Links => "links" },
            "players": table.players(),
            "names": table.names,
            "seat": viewer,
            "move": self.moves,
            "round": self.round,
            "to_move": self.to_move,
            "acts": acts,
            "thinking": self.thinking,
            "view": self.views.get(usize::from(viewer)).cloned().unwrap_or(Value::Null),
            "legal": if acts {
                self.legal.iter().map(|(a, note)| json!({"action": a, "note": note})).collect::<Vec<_>>()
            } else {
                Vec::new()
            },
            "log": self.log.iter().map(|(s, a)| json!([s, a])).collect::<Vec<_>>(),
            "outcome": self.outcome,
            "error": self.error,
            "undo": table.seating == Seating::HotSeat,
            "record": table.seating == Seating::HotSeat || self.outcome.is_some(),
        })
    }
}
