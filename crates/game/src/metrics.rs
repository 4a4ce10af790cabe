//! A capability: the game's designer metrics, and the sheet a game fills per game. The
//! harness sums the sheets across games, threads and shards and reports them
//! (`rulesmith_core::metrics`).

use crate::evaluate::Evaluate;
use crate::game::{Game, Seat};
use serde::{Deserialize, Serialize};

/// A capability: the game's designer metrics, kept on the playout path.
pub trait Metrics: Game + Evaluate {
    /// The game's metrics for this ruleset, in a stable order (names in the game's own
    /// words). Default: none (the game-independent figures still come with every report).
    fn metric_defs(&self) -> Vec<MetricDef> {
        Vec::new()
    }
    /// How many metrics [`Metrics::metric_defs`] lists, without building the list.
    fn metric_len(&self) -> usize {
        0
    }
    /// Called on the playout path before each decision is applied: records into `sheet`
    /// what no final-state read can give (when something happened), and says whether
    /// [`Metrics::metric_after`] must see this decision's result (most decisions need no
    /// second look; skipping it keeps metrics cheap). Must not allocate.
    fn metric_before(&self, _state: &Self::State, _action: Self::Action, _sheet: &mut MetricSheet) -> bool {
        false
    }
    /// Called right after a decision whose [`Metrics::metric_before`] asked for it (to see
    /// what it changed, with what that kept in the sheet's scratch). Must not allocate.
    fn metric_after(&self, _state: &Self::State, _sheet: &mut MetricSheet) {}
    /// A seat's standing at a round end, which the `lead changes` metric follows. Default:
    /// the heuristic; a game that can count its score so far gives that instead.
    fn standing(&self, state: &Self::State, seat: Seat) -> f64 {
        self.heuristic(state, seat)
    }
    /// Scratch memory [`Metrics::standings`] may keep for the length of one game, handed
    /// back at each round end: e.g. the evaluation's cache of values derived from parts
    /// of the state that change seldom ([`Evaluate::search_scratch`]). Made once a game,
    /// with metrics only. Default: none.
    fn standings_scratch(&self) -> Box<dyn std::any::Any> {
        Box::new(())
    }
    /// Every seat's [`Metrics::standing`] at a round end, into `out` (one per seat). A game
    /// may override it to reuse work between round ends (kept in [`MetricSheet::keep`], or
    /// in its `scratch` from [`Metrics::standings_scratch`]); the values must be the same.
    fn standings(
        &self,
        state: &Self::State,
        _sheet: &mut MetricSheet,
        _scratch: &mut dyn std::any::Any,
        out: &mut [f64],
    ) {
        for (s, v) in out.iter_mut().enumerate() {
            *v = self.standing(state, s as Seat);
        }
    }
    /// Called once on the final state: records what it tells.
    fn metric_final(&self, _state: &Self::State, _sheet: &mut MetricSheet) {}
    /// The game's money in its own words (`doubloons`, `pesos`), named on the per-round
    /// charts. Default: none (the charts show the score only).
    fn money_name(&self) -> Option<&'static str> {
        None
    }
    /// A seat's score so far and money at a round end, for the reports' per-round figures.
    /// `standing`: the seat's [`Metrics::standing`] just computed for this round end
    /// (`None` on the final state, where none is). `sheet` is the game's sheet so far: a
    /// game may read what its hooks and [`Metrics::standings`] keep there rather than
    /// count again. Default: the standing, rounded, and no money.
    fn round_figures(
        &self,
        state: &Self::State,
        seat: Seat,
        standing: Option<f64>,
        _sheet: &MetricSheet,
    ) -> SeatFigures {
        let standing = standing.unwrap_or_else(|| self.standing(state, seat));
        SeatFigures { score: standing.round() as i64, money: 0 }
    }
}

/// A seat's figures at a round end ([`Metrics::round_figures`]): integers, so that their
/// sums over games are exact.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatFigures {
    /// The score so far, as the end of the game would count it.
    pub score: i64,
    /// The money held, in the game's unit ([`Metrics::money_name`]).
    pub money: i64,
}

/// What a metric counts, which decides its figures.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A quantity per seat (barrels produced, VP from buildings); figure `"<unit> per game"`.
    Count { unit: String },
    /// Something a seat does in a round (builds a building, picks a role). Figures:
    /// `"<verb> share"` (games in which some seat did it), `"<verb> per game"`,
    /// `"mean round"`, `"<who> win share"` (seats that did it) and `"non-<who> win share"`.
    Event { verb: String, who: String },
}

/// One metric: its group (`building`, `role`, `vp`, `goods` …), item and kind.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MetricDef {
    pub group: String,
    pub name: String,
    pub kind: Kind,
}

impl MetricDef {
    #[inline]
    pub fn count(group: &str, name: &str, unit: &str) -> Self {
        MetricDef { group: group.into(), name: name.into(), kind: Kind::Count { unit: unit.into() } }
    }

    #[inline]
    pub fn event(group: &str, name: &str, verb: &str, who: &str) -> Self {
        MetricDef { group: group.into(), name: name.into(), kind: Kind::Event { verb: verb.into(), who: who.into() } }
    }
}

/// Scratch cells a game may use between its hooks within one decision.
pub const SCRATCH: usize = 32;
/// Cells a game may keep for its standings between round ends ([`Metrics::standings`]).
pub const KEEP: usize = 32;

/// One game's metrics: per seat and metric, a count and the sum of the rounds it
/// happened in.
#[derive(Clone, Debug, Default)]
pub struct MetricSheet {
    len: usize,
    values: Vec<i64>,
    /// For the game's own hooks: e.g. holdings before a decision, to see what it changed.
    pub scratch: [i64; SCRATCH],
    /// For the game's [`Metrics::standings`]: what it reuses from one round end to the
    /// next (zero at the start of a game).
    pub keep: [i64; KEEP],
}

impl MetricSheet {
    pub fn new(players: usize, len: usize) -> Self {
        MetricSheet { len, values: vec![0; players * len * 2], scratch: [0; SCRATCH], keep: [0; KEEP] }
    }

    #[inline]
    fn cell(&mut self, seat: usize, metric: usize) -> Option<&mut [i64]> {
        if metric >= self.len {
            return None;
        }
        let i = (seat * self.len + metric) * 2;
        self.values.get_mut(i..i + 2)
    }

    /// Adds `count` to a seat's metric.
    #[inline]
    pub fn add(&mut self, seat: usize, metric: usize, count: i64) {
        if let Some(c) = self.cell(seat, metric) {
            c[0] = c[0].saturating_add(count);
        }
    }

    /// Counts one event of a seat in `round`.
    #[inline]
    pub fn event(&mut self, seat: usize, metric: usize, round: u32) {
        if let Some(c) = self.cell(seat, metric) {
            c[0] = c[0].saturating_add(1);
            c[1] = c[1].saturating_add(i64::from(round));
        }
    }

    /// A seat's count of a metric so far.
    #[inline]
    pub fn count(&self, seat: usize, metric: usize) -> i64 {
        if metric >= self.len {
            return 0;
        }
        self.values.get((seat * self.len + metric) * 2).copied().unwrap_or(0)
    }

    /// The flat values: `[(seat * len + metric) * 2]` the count, `+ 1` the round sum.
    pub fn into_values(self) -> Vec<i64> {
        self.values
    }
}

/// A seat's count of metric `m` in a game's flat values.
pub fn seat_count(values: &[i64], len: usize, seat: usize, m: usize) -> i64 {
    values.get((seat * len + m) * 2).copied().unwrap_or(0)
}
