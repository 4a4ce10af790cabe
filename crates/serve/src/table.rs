//! A table: the game in progress and the session's earlier games, its seats (people and
//! bots), who may look and act (the seats' and the observer's tokens), undo marks, and the
//! published snapshot the pages read.

use crate::hidden;
use crate::refusal::Refusal;
use crate::secret;
use crate::spec::{Error, Link, MAX_GAMES, Seating, TableSpec};
use crate::sync::lock;
use rulesmith_core::bots::BotSpec;
use rulesmith_core::erased::AnySession;
use rulesmith_core::game::{Outcome, Seat, ToMove};
use rulesmith_core::record::{HUMAN, Record};
use rulesmith_core::rng::Rng;
use rulesmith_core::sim::bot_rng;
use serde_json::{Value, json};
use std::sync::{Arc, Mutex, TryLockError};

/// Mixed into a hint's generator (with the move number: public, so a hint says nothing of
/// the game's seed, and the same position gives the same hint).
const HINT_SEED: u64 = 0x6869_6e74;

/// Whose page a request is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    /// The one page of a hot-seat table.
    HotSeat,
    /// A person's seat, by its link.
    Seat(Seat),
    /// The observer's link of a table by links: the whole game, never acting.
    Observer,
}

/// A person's decision point: where to go back to on undo (the history's length, the
/// bots' generator there, and whose decision it is).
struct Mark {
    at: usize,
    rng: Rng,
    seat: Seat,
}

/// The game itself, locked while someone acts or the bots think.
struct Live {
    session: Box<dyn AnySession + Send>,
    /// This game's seed.
    seed: u64,
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
    /// The whole state but the generator, for the observer (tables by links only).
    pub whole: Option<Value>,
    pub legal: Vec<(String, Option<String>)>,
    pub log: Vec<(Seat, String)>,
    pub outcome: Option<Outcome>,
    pub error: Option<String>,
    pub thinking: bool,
    /// The record so far (hot-seat pages download it; link pages only once it is over).
    pub record: Record,
    /// The seat whose view a hot-seat page shows: the person to move, else the last one.
    pub shown: Seat,
    /// Whether an undo would be taken now: at the hot-seat page (back to a person's earlier
    /// decision), and per seat at a table by links (its own, over nothing drawn or
    /// revealed); false while the bots move.
    pub undo_hot: bool,
    pub undo_seats: Vec<bool>,
}

pub struct Table {
    pub id: usize,
    spec: TableSpec,
    pub names: Vec<String>,
    pub seating: Seating,
    tokens: Vec<Option<String>>,
    /// The observer's token (tables by links).
    observer: Option<String>,
    live: Mutex<Live>,
    published: Mutex<Arc<Snapshot>>,
    /// The session's finished games before the one in play, oldest first.
    earlier: Mutex<Arc<Vec<Record>>>,
    /// A session stepped to the past positions pages ask for (kept: the next step is
    /// usually near), with the seed it was dealt from.
    review: Mutex<Option<(u64, Box<dyn AnySession + Send>)>>,
    /// Held while a hint is searched: one at a time per table.
    hinting: Mutex<()>,
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
        if spec.earlier.len() >= MAX_GAMES {
            return Err(Error::Bad(format!(
                "{}: the session already holds {} games, more than the {MAX_GAMES} a table plays",
                r.name,
                spec.earlier.len()
            )));
        }
        let names: Vec<String> =
            spec.seats.iter().map(|s| s.as_ref().map_or(HUMAN.to_string(), ToString::to_string)).collect();
        for (k, e) in spec.earlier.iter().enumerate() {
            if e.digest != r.digest || e.players != players || e.bots != names || e.result.is_none() {
                return Err(Error::Bad(format!(
                    "the session's game {}: not a finished game of this table's ruleset, players and seats",
                    k + 1
                )));
            }
        }
        let (tokens, observer) = match seating {
            Seating::HotSeat => (vec![None; players], None),
            Seating::Links => (
                spec.seats
                    .iter()
                    .map(|s| if s.is_none() { secret::token().map(Some) } else { Ok(None) })
                    .collect::<Result<_, _>>()?,
                Some(secret::token()?),
            ),
        };
        let session = r.game.start(players, spec.seed).map_err(|e| Error::Bad(format!("{}: {e}", r.name)))?;
        let mut live = Live {
            session,
            seed: spec.seed,
            rng: bot_rng(spec.seed),
            marks: Vec::new(),
            movers: Vec::new(),
            error: None,
        };
        if let Some(rec) = &spec.resume {
            resume(&mut live, &spec, rec)?;
        }
        live.mark(&spec.seats);
        // Bots to move first: the page shows them thinking until they have moved.
        let thinking = live.bot_to_move(&spec.seats).is_some();
        let mut snapshot = snapshot(&live, &spec, &names, seating, thinking, 0);
        undoable(&mut snapshot, &live, &spec, seating);
        let earlier = Arc::new(spec.earlier.clone());
        let table = Table {
            id,
            spec,
            names,
            seating,
            tokens,
            observer,
            live: Mutex::new(live),
            published: Mutex::new(Arc::new(snapshot)),
            earlier: Mutex::new(earlier),
            review: Mutex::new(None),
            hinting: Mutex::new(()),
        };
        // Check the record can be written before anyone plays.
        if let Some(e) = table.save(&lock(&table.live)) {
            return Err(Error::Bad(e));
        }
        Ok(table)
    }

    pub fn ruleset(&self) -> &crate::spec::Ruleset {
        &self.spec.ruleset
    }

    pub fn players(&self) -> usize {
        self.spec.players
    }

    pub fn is_person(&self, seat: Seat) -> bool {
        matches!(self.spec.seats.get(usize::from(seat)), Some(None))
    }

    /// Whether people may ask for hints here.
    pub fn hints(&self) -> bool {
        self.spec.hints.is_some()
    }

    pub fn links(&self) -> Vec<Link> {
        let name = &self.spec.ruleset.name;
        match self.seating {
            Seating::HotSeat => vec![Link {
                label: format!("{name}, {} players, hot-seat", self.spec.players),
                path: format!("/?table={}", self.id),
            }],
            Seating::Links => {
                let mut out: Vec<Link> = self
                    .tokens
                    .iter()
                    .enumerate()
                    .filter_map(|(seat, t)| {
                        t.as_ref().map(|t| Link {
                            label: format!("{name}, seat {seat}"),
                            path: format!("/?table={}&seat={seat}&token={t}", self.id),
                        })
                    })
                    .collect();
                out.extend(self.observer.as_ref().map(|t| Link {
                    label: format!("{name}, observer (sees every hidden holding: not for a player)"),
                    path: format!("/?table={}&seat=observer&token={t}", self.id),
                }));
                out
            }
        }
    }

    /// Whose page a request with this `seat` and `token` is: at a hot-seat table the one
    /// page; at a table by links the seat (or the observer, `seat=observer`) its token
    /// opens, tokens compared in time independent of where they differ.
    pub fn viewer(&self, seat: Option<&str>, token: Option<&str>) -> Result<Viewer, Refusal> {
        if self.seating == Seating::HotSeat {
            return Ok(Viewer::HotSeat);
        }
        let (Some(seat), Some(token)) = (seat, token) else {
            return Err(Refusal::Forbidden(
                "this table seats people by link: open the address the server printed for your seat".into(),
            ));
        };
        if seat == "observer" {
            return match &self.observer {
                Some(t) if secret::same(t, token) => Ok(Viewer::Observer),
                _ => Err(Refusal::Forbidden("the observer: no such link (a wrong token)".into())),
            };
        }
        let n = seat.parse::<usize>().map_err(|_| Refusal::Malformed(format!("seat `{seat}`: not a number")))?;
        let admitted = Seat::try_from(n).ok().filter(|&s| {
            n < self.players() && matches!(self.tokens.get(usize::from(s)), Some(Some(t)) if secret::same(t, token))
        });
        admitted
            .map(Viewer::Seat)
            .ok_or_else(|| Refusal::Forbidden(format!("seat {n}: no such seat link (a wrong seat or token)")))
    }

    /// Whether `seed` is this table's while its seats' holdings are still secret: a table
    /// by links whose game is not over. Any record dealt from it is refused, whatever its
    /// ruleset or player count: a variant (`--set`) or another count may well deal the same
    /// face-down order, and the seed with the public move log shows every hidden holding.
    pub fn keeps_secret(&self, seed: u64) -> bool {
        let s = self.snapshot();
        self.seating == Seating::Links && s.record.seed == seed && s.outcome.is_none()
    }

    pub fn snapshot(&self) -> Arc<Snapshot> {
        Arc::clone(&lock(&self.published))
    }

    /// The session's finished games before the one in play.
    pub fn earlier(&self) -> Arc<Vec<Record>> {
        Arc::clone(&lock(&self.earlier))
    }

    /// The record of the session's game `game` (from 0; `None`: the one in play) for
    /// `viewer`: an earlier game's always; the one in play at a table by links only once
    /// it is over (its seed shows every hidden holding).
    pub fn record(&self, viewer: Viewer, game: Option<usize>) -> Result<Record, Refusal> {
        let earlier = self.earlier();
        if let Some(k) = game.filter(|&k| k < earlier.len()) {
            return earlier.get(k).cloned().ok_or_else(|| Refusal::Malformed(format!("no game {k}")));
        }
        if let Some(k) = game.filter(|&k| k > earlier.len()) {
            return Err(Refusal::Malformed(format!("game {k}: this table has played games 0 to {}", earlier.len())));
        }
        let snap = self.snapshot();
        if viewer != Viewer::HotSeat && snap.outcome.is_none() {
            return Err(Refusal::Forbidden(
                "the record (with its seed) is given to a page by link only once the game is over".into(),
            ));
        }
        Ok(snap.record.clone())
    }

    fn publish(&self, live: &Live, thinking: bool) {
        let shown = lock(&self.published).shown;
        let mut s = snapshot(live, &self.spec, &self.names, self.seating, thinking, shown);
        undoable(&mut s, live, &self.spec, self.seating);
        *lock(&self.published) = Arc::new(s);
    }

    /// After a person's move or a new game: marks the decision point, saves the record
    /// (a failure stops play with its message), shows the position and lets the bots play
    /// if one is to move.
    fn moved(self: &Arc<Self>, mut live: std::sync::MutexGuard<'_, Live>) {
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
    }

    /// Takes the game for a person's request; refused while the bots think or another
    /// request acts (two tabs at once).
    fn take(&self) -> Result<std::sync::MutexGuard<'_, Live>, Refusal> {
        match self.live.try_lock() {
            Ok(g) => Ok(g),
            Err(TryLockError::Poisoned(p)) => Ok(p.into_inner()),
            // The bots publish "done thinking" just before they let go of the game: a page
            // that saw it and acts at once waits those few instructions instead of being
            // told the table is busy.
            Err(TryLockError::WouldBlock) if !self.snapshot().thinking => Ok(lock(&self.live)),
            Err(TryLockError::WouldBlock) => Err(Refusal::Conflict(
                "the table is busy (the bots are moving, or another request is acting); try again".into(),
            )),
        }
    }

    /// The seat a request may act for: `None` at the hot-seat page (whoever is to move).
    fn actor(viewer: Viewer) -> Result<Option<Seat>, Refusal> {
        match viewer {
            Viewer::HotSeat => Ok(None),
            Viewer::Seat(s) => Ok(Some(s)),
            Viewer::Observer => Err(Refusal::Forbidden("the observer's page watches only: it never acts".into())),
        }
    }

    /// Plays `action` for `viewer` (a person's seat), checked against the move number the
    /// page saw.
    pub fn act(self: &Arc<Self>, viewer: Viewer, moves: usize, action: &str) -> Result<(), Refusal> {
        let seat = Self::actor(viewer)?;
        let mut live = self.take()?;
        stale(&live, moves)?;
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
        self.moved(live);
        Ok(())
    }

    /// Back to a person's previous decision. At a hot-seat table, whoever's; at a table by
    /// links, the seat's own, and only over decisions of its own that drew nothing and
    /// revealed nothing to it (so undo cannot be used to peek, nor change what others did).
    pub fn undo(&self, viewer: Viewer, moves: usize) -> Result<(), Refusal> {
        let seat = Self::actor(viewer)?;
        let mut live = self.take()?;
        stale(&live, moves)?;
        let now = live.session.history().len();
        let target = match seat {
            None => {
                if live.marks.last().is_some_and(|m| m.at == now) {
                    if live.marks.len() < 2 {
                        return Err(Refusal::Conflict("nothing to undo: this is the first decision".into()));
                    }
                    live.marks.pop();
                }
                live.marks.len().checked_sub(1).ok_or_else(|| Refusal::Conflict("nothing to undo".into()))?
            }
            Some(seat) => own_undo(&self.spec, &live, seat)?,
        };
        let Some((at, rng)) = live.marks.get(target).map(|m| (m.at, m.rng.clone())) else {
            return Err(Refusal::Conflict("nothing to undo".into()));
        };
        live.session.rewind(at).map_err(|e| Refusal::Conflict(format!("cannot undo: {e}")))?;
        live.rng = rng;
        live.marks.truncate(target + 1);
        live.movers.truncate(at);
        live.error = None;
        if let Some(e) = self.save(&live) {
            live.error = Some(e);
        }
        self.publish(&live, false);
        Ok(())
    }

    /// The position after `step` decisions of the game in play, as `viewer` saw it then
    /// (a seat's view, the observer's whole state; at a hot-seat table the view of
    /// `seat`, a person's, or of the seat shown now): never a step not yet played.
    pub fn past(&self, viewer: Viewer, step: usize, seat: Option<Seat>) -> Result<Value, Refusal> {
        let snap = self.snapshot();
        let steps = snap.moves;
        if step > steps {
            return Err(Refusal::Malformed(format!("step {step}: the game is at move {steps} (steps 0 to {steps})")));
        }
        let seen = match viewer {
            Viewer::Seat(s) => Some(s),
            Viewer::Observer => None,
            Viewer::HotSeat => match seat {
                Some(s) if self.is_person(s) => Some(s),
                Some(s) => return Err(Refusal::Malformed(format!("seat {s}: not a person's seat at this table"))),
                None => Some(snap.shown),
            },
        };
        let mut review = lock(&self.review);
        let seed = snap.record.seed;
        let actions = &snap.record.actions;
        let reuse = review.as_ref().is_some_and(|(s, _)| *s == seed);
        if !reuse {
            let session =
                self.spec.ruleset.game.start(self.spec.players, seed).map_err(|e| Refusal::Conflict(e.to_string()))?;
            *review = Some((seed, session));
        }
        let Some((_, session)) = review.as_mut() else {
            return Err(Refusal::Conflict("the review could not start".into()));
        };
        // Back to where its history and this game's part, then forward to `step`.
        let common = session.history().iter().zip(actions).take_while(|(a, b)| a == b).count().min(step);
        if session.history().len() > common {
            session.rewind(common).map_err(|e| Refusal::Conflict(e.to_string()))?;
        }
        let from = session.history().len();
        for a in actions.get(from..step).unwrap_or_default() {
            session.play(a).map_err(|e| Refusal::Conflict(e.to_string()))?;
        }
        let view = match seen {
            Some(s) => session.view_json(s),
            None => without_generator(session.state_json()),
        };
        let to_move = match session.to_move() {
            ToMove::Seat(s) => Some(s),
            ToMove::Terminal => None,
        };
        Ok(json!({
            "table": self.id,
            "game": self.ruleset().game.game_id(),
            "step": step,
            "steps": steps,
            "round": session.progress().rounds,
            "to_move": to_move,
            "seat": seen,
            "view": view,
        }))
    }

    /// The search's ranking of the decision now for the person to move (`viewer`'s seat
    /// at a table by links): its legal actions with their root visit counts, most visited
    /// first, searched from that seat's view only and never played.
    pub fn hint(&self, viewer: Viewer, moves: usize) -> Result<(Vec<(String, u32)>, u32), Refusal> {
        let Some(iterations) = self.spec.hints else {
            return Err(Refusal::Forbidden("hints are turned off at this table".into()));
        };
        let seat = Self::actor(viewer)?;
        let _one = match self.hinting.try_lock() {
            Ok(g) => g,
            Err(TryLockError::Poisoned(p)) => p.into_inner(),
            Err(TryLockError::WouldBlock) => {
                return Err(Refusal::Conflict("a hint is being worked out at this table; try again".into()));
            }
        };
        let (state, seed) = {
            let live = self.take()?;
            stale(&live, moves)?;
            let ToMove::Seat(to_move) = live.session.to_move() else {
                return Err(Refusal::Conflict("the game is over".into()));
            };
            if !self.is_person(to_move) || seat.is_some_and(|s| s != to_move) {
                return Err(Refusal::Forbidden(format!("seat {to_move} is to move: a hint is for the person to move")));
            }
            (live.session.state_json(), live.seed)
        };
        // A session of its own: the table plays on while the hint is searched.
        let r = &self.spec.ruleset;
        let mut scratch = r.game.start(self.spec.players, seed).map_err(|e| Refusal::Conflict(e.to_string()))?;
        scratch.set_state_json(state).map_err(|e| Refusal::Conflict(e.to_string()))?;
        let mut rng = Rng::from_seed(HINT_SEED ^ moves as u64);
        let bots = scratch.bots().map_err(|e| Refusal::Conflict(e.to_string()))?;
        Ok((bots.hint(iterations, &mut rng), iterations))
    }

    /// Deals the table's next game (same ruleset, seats and bots; the next seed at a
    /// hot-seat table, a fresh secret one at a table by links), once the game in play is
    /// over; the finished one is kept with the session's games.
    pub fn next_game(self: &Arc<Self>, viewer: Viewer, moves: usize) -> Result<(), Refusal> {
        Self::actor(viewer)?;
        let mut live = self.take()?;
        stale(&live, moves)?;
        if live.session.outcome().is_none() && live.error.is_none() {
            return Err(Refusal::Conflict("the game is not over: play again once it is".into()));
        }
        let earlier = self.earlier();
        if earlier.len() + 1 >= MAX_GAMES {
            return Err(Refusal::TooLarge(format!(
                "this table has played {MAX_GAMES} games, as many as one run of the server keeps; start it again for more"
            )));
        }
        let seed = match self.seating {
            Seating::HotSeat => live.seed.wrapping_add(1),
            Seating::Links => secret::secret_seed().map_err(|e| Refusal::Unavailable(e.to_string()))?,
        };
        let r = &self.spec.ruleset;
        let session = r.game.start(self.spec.players, seed).map_err(|e| Refusal::Conflict(e.to_string()))?;
        let finished = record(&live, &self.spec, &self.names);
        if let Ok(b) = live.session.bots() {
            b.end_bots();
        }
        let mut games = Vec::with_capacity(earlier.len() + 1);
        games.extend(earlier.iter().cloned());
        games.push(finished);
        *lock(&self.earlier) = Arc::new(games);
        *live = Live { session, seed, rng: bot_rng(seed), marks: Vec::new(), movers: Vec::new(), error: None };
        self.moved(live);
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

    /// Writes the session's records (the earlier games, then the one in play), if the
    /// table keeps them; the message if it failed.
    fn save(&self, live: &Live) -> Option<String> {
        let save = self.spec.save.as_ref()?;
        let earlier = self.earlier();
        let mut games = Vec::with_capacity(earlier.len() + 1);
        games.extend(earlier.iter().cloned());
        games.push(record(live, &self.spec, &self.names));
        save(&games).err()
    }
}

/// Which mark `seat`'s undo at a table by links goes back to, or why it may not.
fn own_undo(spec: &TableSpec, live: &Live, seat: Seat) -> Result<usize, Refusal> {
    if live.session.outcome().is_some() {
        return Err(Refusal::Conflict("the game is over: nothing to undo".into()));
    }
    let now = live.session.history().len();
    let Some(target) = live.marks.iter().rposition(|m| m.seat == seat && m.at < now) else {
        return Err(Refusal::Conflict(format!("nothing to undo: seat {seat} has made no decision yet")));
    };
    let at = live.marks.get(target).map_or(now, |m| m.at);
    let since = live.movers.get(at..now).unwrap_or_default();
    if let Some(other) = since.iter().find(|&&m| m != seat) {
        return Err(Refusal::Conflict(format!(
            "cannot undo: seat {other} has moved since seat {seat}'s last decision (undo never changes what others did)"
        )));
    }
    // Played again from the start on a scratch session: the live one stays as it is
    // unless undo is allowed.
    let r = &spec.ruleset;
    let mut scratch = r.game.start(spec.players, live.seed).map_err(|e| Refusal::Conflict(e.to_string()))?;
    let history = live.session.history();
    for a in history.get(..at).unwrap_or_default() {
        scratch.play(a).map_err(|e| Refusal::Conflict(format!("cannot undo: `{a}`: {e}")))?;
    }
    let steps = history.get(at..now).unwrap_or_default();
    match hidden::first_draw_or_reveal(&mut *scratch, seat, steps) {
        Ok(None) => Ok(target),
        Ok(Some(i)) => Err(Refusal::Conflict(format!(
            "cannot undo: move {} (`{}`) drew or revealed something seat {seat} could not see before \
             (undo never goes back over a draw or a reveal)",
            at + i + 1,
            steps.get(i).map_or("", String::as_str)
        ))),
        Err(e) => Err(Refusal::Conflict(format!("cannot undo: {e}"))),
    }
}

/// Fills in whether each kind of undo would be taken now (see [`Snapshot::undo_hot`]).
fn undoable(snap: &mut Snapshot, live: &Live, spec: &TableSpec, seating: Seating) {
    if snap.thinking {
        return;
    }
    let now = live.session.history().len();
    match seating {
        Seating::HotSeat => snap.undo_hot = live.marks.iter().any(|m| m.at < now),
        Seating::Links => {
            snap.undo_seats = (0..spec.players)
                .map(|p| {
                    let seat = p as Seat;
                    matches!(spec.seats.get(p), Some(None)) && own_undo(spec, live, seat).is_ok()
                })
                .collect();
        }
    }
}

/// Refused if the page saw another move than the game's.
fn stale(live: &Live, moves: usize) -> Result<(), Refusal> {
    let now = live.session.history().len();
    if moves != now {
        return Err(Refusal::Conflict(format!(
            "stale: the page showed move {moves}, the game is at move {now}; reload the position"
        )));
    }
    Ok(())
}

/// The whole state as the observer sees it: everything on and under the table, but not
/// the generator (the draws to come are no one's to see).
fn without_generator(mut state: Value) -> Value {
    if let Some(m) = state.as_object_mut() {
        m.remove("rng");
    }
    state
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
            self.marks.push(Mark { at, rng: self.rng.clone(), seat });
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
            None => live.marks.push(Mark { at: i, rng: live.rng.clone(), seat }),
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
        seed: live.seed,
        index: None,
        run_seed: None,
        rotation: None,
        bots: names.to_vec(),
        actions: live.session.history().to_vec(),
        rounds: live.session.progress().rounds,
        result: live.session.outcome(),
    }
}

fn snapshot(
    live: &Live,
    spec: &TableSpec,
    names: &[String],
    seating: Seating,
    thinking: bool,
    shown: Seat,
) -> Snapshot {
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
        whole: (seating == Seating::Links).then(|| without_generator(s.state_json())),
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
        undo_hot: false,
        undo_seats: Vec::new(),
    }
}

impl Snapshot {
    /// The page's JSON for `viewer` (the hot-seat page shows the view of
    /// [`Snapshot::shown`]; the observer the whole state but the generator).
    pub fn to_json(&self, table: &Table, viewer: Viewer) -> Value {
        let seat = match viewer {
            Viewer::HotSeat => Some(self.shown),
            Viewer::Seat(s) => Some(s),
            Viewer::Observer => None,
        };
        let acts = match (viewer, self.to_move) {
            (Viewer::Seat(s), Some(m)) => s == m && table.is_person(m),
            (Viewer::HotSeat, Some(m)) => table.is_person(m),
            _ => false,
        };
        let view = match seat {
            Some(s) => self.views.get(usize::from(s)).cloned(),
            None => self.whole.clone(),
        };
        let earlier = table.earlier();
        let games: Vec<Value> = earlier
            .iter()
            .enumerate()
            .map(|(k, r)| json!({"game": k, "moves": r.actions.len(), "rounds": r.rounds, "outcome": r.result}))
            .collect();
        let person = !matches!(viewer, Viewer::Observer);
        let r = table.ruleset();
        json!({
            "table": table.id,
            "ruleset": r.name,
            "game": r.game.game_id(),
            "seating": match table.seating { Seating::HotSeat => "hot-seat", Seating::Links => "links" },
            "players": table.players(),
            "names": table.names,
            "seat": seat,
            "observer": viewer == Viewer::Observer,
            "move": self.moves,
            "round": self.round,
            "to_move": self.to_move,
            "acts": acts,
            "thinking": self.thinking,
            "view": view.unwrap_or(Value::Null),
            "legal": if acts {
                self.legal.iter().map(|(a, note)| json!({"action": a, "note": note})).collect::<Vec<_>>()
            } else {
                Vec::new()
            },
            "log": self.log.iter().map(|(s, a)| json!([s, a])).collect::<Vec<_>>(),
            "outcome": self.outcome,
            "error": self.error,
            "undo": match viewer {
                Viewer::HotSeat => self.undo_hot,
                Viewer::Seat(s) => self.undo_seats.get(usize::from(s)).copied().unwrap_or(false),
                Viewer::Observer => false,
            },
            "people": (0..table.players()).filter(|&p| table.is_person(p as Seat)).collect::<Vec<_>>(),
            "hints": acts && table.hints(),
            "record": viewer == Viewer::HotSeat || self.outcome.is_some(),
            "number": earlier.len(),
            "games": games,
            "again": person && (self.outcome.is_some() || self.error.is_some()) && earlier.len() + 1 < MAX_GAMES,
        })
    }
}
