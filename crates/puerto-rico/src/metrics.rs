//! Designer metrics of Puerto Rico (and of its expansion, which plays through these).
//!
//! | group | name | figures | how |
//! |---|---|---|---|
//! | `building` | each building's id | built share, built per game, mean round, owner / non-owner win share | the `build` decision, in its round |
//! | `role` | each role's id | picked share, picked per game, mean round, picker / non-picker win share | the role choice, in its round |
//! | `vp` | `shipping` | VP per game | VP chips earned in play (shipping, the captain's privilege, harbor, wharf …), from the final state |
//! | `vp` | `buildings` | VP per game | the buildings' printed VP, from the final state |
//! | `vp` | `large-building bonuses` | VP per game | bonuses of occupied large buildings, from the final state |
//! | `goods` | each good | produced per game | barrels a player's holdings gained (only production adds barrels) |
//! | `goods` | each good | traded per game | `sell` decisions (trading house and trading post) |
//! | `goods` | each good | shipped or spoiled per game | produced − traded − kept at the end: barrels shipped, lost at storage or returned to pay |

use crate::board;
use crate::rules::RoleKind;
use crate::state::{Phase, Player, State};
use crate::{Action, Rules};
use rulesmith_game::metrics::{MetricDef, MetricSheet};

/// Metrics after the buildings and roles: the VP sources, then three per good.
const VP: usize = 3;
const PER_GOOD: usize = 3;

impl Rules {
    fn vp_base(&self) -> usize {
        self.buildings.len() + self.roles.len()
    }

    fn goods_base(&self) -> usize {
        self.vp_base() + VP
    }

    pub(crate) fn metric_list(&self) -> Vec<MetricDef> {
        let mut d: Vec<MetricDef> =
            self.buildings.iter().map(|b| MetricDef::event("building", &b.id, "built", "owner")).collect();
        d.extend(self.roles.iter().map(|r| MetricDef::event("role", &r.id, "picked", "picker")));
        for name in ["shipping", "buildings", "large-building bonuses"] {
            d.push(MetricDef::count("vp", name, "VP"));
        }
        for name in self.good_names() {
            for unit in ["produced", "traded", "shipped or spoiled"] {
                d.push(MetricDef::count("goods", name, unit));
            }
        }
        d
    }

    pub(crate) fn metric_count(&self) -> usize {
        self.goods_base() + PER_GOOD * self.good_count()
    }

    #[inline(always)]
    pub(crate) fn metric_decision(&self, s: &State, a: Action, m: &mut MetricSheet) -> bool {
        let seat = usize::from(s.current);
        // Production happens when the craftsman's phase begins (after the craftsman's
        // choice, or after a window of guest moves) and with the privilege good: keep the
        // holdings then only, so other decisions cost nothing more.
        let producing = match a {
            Action::Build(b) => {
                m.event(seat, usize::from(b), s.round);
                self.keep_built(seat, b, m);
                s.phase == Phase::Window
            }
            Action::Role(r) => {
                m.event(seat, self.buildings.len() + usize::from(r), s.round);
                self.roles.get(usize::from(r)).is_some_and(|r| r.kind == RoleKind::Craftsman)
            }
            Action::Sell(g) | Action::SellPost { good: g, .. } => {
                m.add(seat, self.goods_base() + PER_GOOD * g.index() + 1, 1);
                s.phase == Phase::Window
            }
            Action::Bonus(_) => true,
            _ => s.phase == Phase::Window,
        };
        if producing {
            // Cleared by the after hook, which does nothing without it (the decision
            // that ends the expansion's draft calls it too).
            m.scratch[SCRATCH_FLAG] = 1;
            for (p, player) in s.players.iter().enumerate() {
                m.scratch[p] = i64::from_le_bytes(player.goods.0);
            }
        }
        producing
    }

    #[inline]
    pub(crate) fn metric_applied(&self, s: &State, m: &mut MetricSheet) {
        if m.scratch[SCRATCH_FLAG] == 0 {
            return;
        }
        m.scratch[SCRATCH_FLAG] = 0;
        let (base, goods) = (self.goods_base(), self.good_count());
        for (p, player) in s.players.iter().enumerate() {
            // Most seats' barrels do not change with a given decision: one comparison of
            // the words.
            if m.scratch[p] == i64::from_le_bytes(player.goods.0) {
                continue;
            }
            // Only the goods whose byte changed (a seat produces a few kinds).
            let (was, now) = (m.scratch[p].to_le_bytes(), player.goods.0);
            let mut changed = (m.scratch[p] ^ i64::from_le_bytes(now)) as u64;
            while changed != 0 {
                let g = changed.trailing_zeros() as usize / 8;
                changed &= !(0xff << (8 * g));
                if g < goods && now[g] > was[g] {
                    m.add(p, base + PER_GOOD * g, i64::from(now[g] - was[g]));
                }
            }
        }
    }

    /// Every seat's score so far (VP chips, buildings and their bonuses), as
    /// [`crate::score`] gives it, for the lead changes at each round end. Each seat's
    /// buildings, their printed VP and how many of them score a bonus once occupied are
    /// kept in the sheet as they are built ([`Self::keep_built`]); a city whose length
    /// differs from the kept count is read again, and only a seat with a bonus building
    /// has its bonuses counted.
    pub(crate) fn metric_standings(&self, s: &State, m: &mut MetricSheet, out: &mut [f64]) {
        let seats = s.players.iter().zip(out.iter_mut()).zip(m.keep.chunks_exact_mut(KEEP_PER_SEAT));
        for ((player, v), keep) in seats {
            let len = i64::from(player.city.len);
            if keep[0] != len {
                let (mut printed, mut bonus) = (0i64, 0i64);
                for b in player.city.iter() {
                    let n = self.table.get(b.building);
                    printed += i64::from(n.vp);
                    bonus += i64::from(board::BONUS_KINDS & (1 << n.effect) != 0);
                }
                keep.copy_from_slice(&[len, printed, bonus]);
            }
            *v = f64::from(self.score_from_keep(player, keep));
        }
    }

    /// A seat's score so far, from what [`Self::metric_standings`] and the build hook keep
    /// (the per-round figures at a round end and at the end), or counted again where the
    /// kept city is not this one.
    #[inline]
    pub(crate) fn kept_score(&self, player: &Player, seat: usize, m: &MetricSheet) -> i32 {
        match m.keep.get(KEEP_PER_SEAT * seat..KEEP_PER_SEAT * (seat + 1)) {
            Some(keep) if keep[0] == i64::from(player.city.len) => self.score_from_keep(player, keep),
            _ => crate::score(self, player),
        }
    }

    /// The score from a seat's kept buildings: its VP chips, the kept printed VP and,
    /// only where it holds a bonus building, the bonuses.
    #[inline]
    fn score_from_keep(&self, player: &Player, keep: &[i64]) -> i32 {
        // Bonuses are 0 without an occupied bonus building (what `building_points` adds).
        let bonuses = if keep[2] == 0 { 0 } else { board::bonuses(self, player) };
        let score = i32::from(player.vp) + keep[1] as i32 + bonuses;
        debug_assert_eq!(score, crate::score(self, player), "a seat's kept score");
        score
    }

    /// Keeps building `b` in `seat`'s row of [`MetricSheet::keep`] (see
    /// [`Self::metric_standings`]).
    #[inline]
    fn keep_built(&self, seat: usize, b: u8, m: &mut MetricSheet) {
        if let Some(keep) = m.keep.get_mut(KEEP_PER_SEAT * seat..KEEP_PER_SEAT * (seat + 1)) {
            let n = self.table.get(b);
            keep[0] += 1;
            keep[1] += i64::from(n.vp);
            keep[2] += i64::from(board::BONUS_KINDS & (1 << n.effect) != 0);
        }
    }

    pub(crate) fn metric_end(&self, s: &State, m: &mut MetricSheet) {
        let vp = self.vp_base();
        for (p, player) in s.players.iter().enumerate() {
            // The printed VP as the build hook kept them, where it kept this city.
            let printed: i64 = match m.keep.get(KEEP_PER_SEAT * p..KEEP_PER_SEAT * (p + 1)) {
                Some(keep) if keep[0] == i64::from(player.city.len) => keep[1],
                _ => player.city.iter().map(|b| i64::from(self.table.get(b.building).vp)).sum(),
            };
            debug_assert_eq!(
                printed,
                player.city.iter().map(|b| i64::from(self.table.get(b.building).vp)).sum::<i64>()
            );
            m.add(p, vp, i64::from(player.vp));
            m.add(p, vp + 1, printed);
            // What `building_points` adds to the printed VP.
            m.add(p, vp + 2, i64::from(board::bonuses(self, player)));
        }
        let goods = self.goods_base();
        for (p, player) in s.players.iter().enumerate() {
            for g in self.goods() {
                let i = goods + PER_GOOD * g.index();
                let values = (m.count(p, i), m.count(p, i + 1));
                m.add(p, i + 2, values.0 - values.1 - i64::from(player.goods[g]));
            }
        }
    }
}

/// Cells of [`MetricSheet::keep`] per seat: how many buildings its city holds, their
/// printed VP, and how many of them score a bonus once occupied.
const KEEP_PER_SEAT: usize = 3;

/// The scratch cell that says whether holdings were kept before this decision (the cells
/// before it hold them: a seat's barrels by good, a byte each, in one cell).
const SCRATCH_FLAG: usize = rulesmith_game::metrics::SCRATCH - 1;
