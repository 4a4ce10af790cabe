//! The extreme games of a run: the longest and the shortest, the largest and the smallest
//! margin, and the games stopped by a safety cap, each kept with what replays it.
//!
//! Each is chosen by its figure, then the lowest game index and rotation: the choice does
//! not depend on the order games are added in, so merged shards keep exactly the unsplit
//! run's extreme games.

use crate::sim::driver::GameResult;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// Games stopped by a cap that a report lists (the lowest indices); it counts them all.
pub const CAPPED_KEPT: usize = 10;

/// One game, as the extremes keep it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExtremeGame {
    pub index: u64,
    /// The seat rotation (0 unless seats rotate).
    #[serde(default)]
    pub rotation: u32,
    pub seed: u64,
    pub rounds: u32,
    pub decisions: u64,
    /// The winning score minus the best other score (0: tied, or decided by tie-break).
    pub margin: i64,
    pub scores: Vec<i32>,
    /// How it ended (the end condition, or the cap that stopped it).
    pub end: String,
}

impl ExtremeGame {
    pub fn of(r: &GameResult) -> Self {
        ExtremeGame {
            index: r.index,
            rotation: r.rotation,
            seed: r.seed,
            rounds: r.rounds,
            decisions: r.decisions,
            margin: margin(r),
            scores: r.outcome.scores.clone(),
            end: r.outcome.end.clone(),
        }
    }

    /// Which of two games is first where their figures tie: the lower index, then rotation.
    pub fn order(&self) -> (u64, u32) {
        (self.index, self.rotation)
    }
}

/// The winning score minus the best score of a seat that did not win; 0 where winners tie.
pub fn margin(r: &GameResult) -> i64 {
    let o = &r.outcome;
    let winners = o.ranks.iter().filter(|&&k| k == 0).count();
    let best = o.scores.iter().copied().max().unwrap_or(0);
    let second = o.scores.iter().enumerate().filter(|&(s, _)| o.ranks.get(s) != Some(&0)).map(|(_, &v)| v).max();
    if winners > 1 { 0 } else { second.map_or(0, |v| i64::from(best) - i64::from(v)) }
}

/// The extreme games of a run (inside [`crate::sim::Tally`]); finished games only, apart
/// from `capped`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Extremes {
    /// The most rounds, then the most decisions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub longest: Option<ExtremeGame>,
    /// The fewest rounds, then the fewest decisions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shortest: Option<ExtremeGame>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub largest_margin: Option<ExtremeGame>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub smallest_margin: Option<ExtremeGame>,
    /// The first [`CAPPED_KEPT`] games stopped by a safety cap, by index.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub capped: Vec<ExtremeGame>,
}

/// What decides whether a game is further out than another: its figures and its order.
#[derive(Clone, Copy)]
struct Probe {
    rounds: u32,
    decisions: u64,
    margin: i64,
    order: (u64, u32),
}

impl Probe {
    fn of(g: &ExtremeGame) -> Self {
        Probe { rounds: g.rounds, decisions: g.decisions, margin: g.margin, order: g.order() }
    }
}

/// A figure by which greater is further out.
type Key = fn(&Probe) -> (i128, i128);

const KEYS: [Key; 4] = [
    |p| (i128::from(p.rounds), i128::from(p.decisions)),
    |p| (-i128::from(p.rounds), -i128::from(p.decisions)),
    |p| (i128::from(p.margin), 0),
    |p| (-i128::from(p.margin), 0),
];

/// Whether `new` goes in `slot`: it is further out by `key`, or as far out and first.
fn beats(slot: &Option<ExtremeGame>, new: &Probe, key: Key) -> bool {
    match slot {
        None => true,
        Some(old) => {
            let old = Probe::of(old);
            match key(new).cmp(&key(&old)) {
                Ordering::Greater => true,
                Ordering::Less => false,
                Ordering::Equal => new.order < old.order,
            }
        }
    }
}

impl Extremes {
    /// Counts one game. A game beats the kept one only when it is further out, so a run
    /// (its games added in index order) copies a game only when it is a new extreme.
    pub fn add(&mut self, r: &GameResult) {
        if r.outcome.unfinished {
            let at = self.capped.partition_point(|g| g.order() < (r.index, r.rotation));
            if at < CAPPED_KEPT {
                self.capped.insert(at, ExtremeGame::of(r));
                self.capped.truncate(CAPPED_KEPT);
            }
            return;
        }
        // Compared before any copy: most games are no extreme.
        let probe = Probe { rounds: r.rounds, decisions: r.decisions, margin: margin(r), order: (r.index, r.rotation) };
        let mut game: Option<ExtremeGame> = None;
        for (slot, key) in self.slots().into_iter().zip(KEYS) {
            if beats(slot, &probe, key) {
                *slot = Some(game.get_or_insert_with(|| ExtremeGame::of(r)).clone());
            }
        }
    }

    fn slots(&mut self) -> [&mut Option<ExtremeGame>; 4] {
        [&mut self.longest, &mut self.shortest, &mut self.largest_margin, &mut self.smallest_margin]
    }

    /// Adds another shard's extremes: each kept game the further out, or the first by index.
    pub fn merge(&mut self, other: &Extremes) {
        let theirs = [&other.longest, &other.shortest, &other.largest_margin, &other.smallest_margin];
        for ((slot, key), g) in self.slots().into_iter().zip(KEYS).zip(theirs) {
            if let Some(g) = g {
                if beats(slot, &Probe::of(g), key) {
                    *slot = Some(g.clone());
                }
            }
        }
        let mut capped: Vec<ExtremeGame> = self.capped.drain(..).chain(other.capped.iter().cloned()).collect();
        capped.sort_by_key(ExtremeGame::order);
        capped.dedup_by_key(|g| g.order());
        capped.truncate(CAPPED_KEPT);
        self.capped = capped;
    }

    /// Checks extremes read from a file: no more capped games than the tally's, no kept
    /// game where no game finished, no more scores than seats.
    pub fn check(&self, finished: u64, unfinished: u64, players: usize) -> Result<(), String> {
        if self.capped.len() > CAPPED_KEPT || self.capped.len() as u64 > unfinished {
            return Err("its extremes list more capped games than it has".into());
        }
        let kept = [&self.longest, &self.shortest, &self.largest_margin, &self.smallest_margin];
        if finished == 0 && kept.iter().any(|g| g.is_some()) {
            return Err("its extremes keep a finished game, but it has none".into());
        }
        if kept.iter().filter_map(|g| g.as_ref()).chain(&self.capped).any(|g| g.scores.len() > players) {
            return Err("its extremes hold more scores than seats".into());
        }
        Ok(())
    }

    /// The kept games with what each is, in the order a report lists them.
    pub fn listed(&self) -> Vec<(&'static str, &ExtremeGame)> {
        let mut out = Vec::new();
        for (what, g) in [
            ("longest game", &self.longest),
            ("shortest game", &self.shortest),
            ("largest margin", &self.largest_margin),
            ("smallest margin", &self.smallest_margin),
        ] {
            if let Some(g) = g {
                out.push((what, g));
            }
        }
        out.extend(self.capped.iter().map(|g| ("stopped by a cap", g)));
        out
    }
}

/// What the commands that replay a run's games need: the ruleset as given (a bundled name
/// or a path), its overrides, the table and the run's bots.
pub struct Replay<'a> {
    pub source: &'a str,
    pub overrides: &'a [String],
    pub players: usize,
    pub run_seed: u64,
    /// The run's bot list (rotated per game when `rotate_seats`).
    pub bots: &'a [String],
    pub rotate_seats: bool,
}

/// One extreme game as a report lists it: what it is, the game, and the commands that
/// replay it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Extreme {
    /// `longest game`, `shortest game`, `largest margin`, `smallest margin` or
    /// `stopped by a cap`.
    pub what: String,
    #[serde(flatten)]
    pub game: ExtremeGame,
    /// The bots at its seats, in seat order.
    pub bots: Vec<String>,
    /// The same game played again by the same bots in the terminal, move by move.
    pub play: String,
    /// The same game at the web table, the bots playing it on the board.
    pub table: String,
    /// The run's own game written as a record and stepped through screen by screen.
    pub show_game: String,
}

/// A word of a command line, quoted for a POSIX shell where it needs to be.
fn quote(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-.,:/=@+%".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        return word.to_string();
    }
    shlex::try_quote(word).map_or_else(|_| format!("{word:?}"), |q| q.into_owned())
}

impl Replay<'_> {
    /// The bots of rotation `r`, as [`crate::sim::run::rotated_bots`] seats them.
    fn seated(&self, r: u32) -> Vec<String> {
        let n = self.players.max(1);
        (0..self.players)
            .map(|s| self.bots.get((s + r as usize) % n).cloned().unwrap_or_else(|| "random".to_string()))
            .collect()
    }

    fn sets(&self) -> String {
        self.overrides.iter().map(|s| format!(" --set {}", quote(s))).collect()
    }

    /// Every kept game, with its commands.
    pub fn list(&self, e: &Extremes) -> Vec<Extreme> {
        e.listed()
            .into_iter()
            .map(|(what, g)| {
                let bots = self.seated(g.rotation);
                let (src, n, sets) = (quote(self.source), self.players, self.sets());
                let seated = quote(&bots.join(","));
                let deal = format!("{src} --players {n} --seed {} --human --bots {seated}{sets}", g.seed);
                let k = g.index + 1;
                let rotate = if self.rotate_seats { " --rotate-seats" } else { "" };
                let rotation = if g.rotation > 0 { format!(" --rotation {}", g.rotation) } else { String::new() };
                let show_game = format!(
                    "rulesmith simulate {src} --players {n} --seed {} --bots {} --games {k} --shard {k}/{k}{rotate}{sets} --record game.jsonl && rulesmith show-game game.jsonl --game {}{rotation}",
                    self.run_seed,
                    quote(&self.bots.join(",")),
                    g.index
                );
                Extreme {
                    what: what.to_string(),
                    game: g.clone(),
                    bots,
                    play: format!("rulesmith play {deal}"),
                    table: format!("rulesmith serve {deal}"),
                    show_game,
                }
            })
            .collect()
    }
}

/// The text section of a report: one line per extreme game and the command that plays it
/// again (the JSON and the page have the table's and `show-game`'s too).
pub fn text(list: &[Extreme]) -> String {
    use std::fmt::Write as _;
    let mut o = String::new();
    if list.is_empty() {
        return o;
    }
    let _ = writeln!(
        o,
        "extreme games (the command after each plays it again; `rulesmith serve` for `rulesmith play`: on the board):"
    );
    for x in list {
        let g = &x.game;
        let margin = if x.what == "stopped by a cap" { g.end.clone() } else { format!("margin {}", g.margin) };
        let _ = writeln!(
            o,
            "  {}: game {} (seed {}), {} rounds, {} decisions, {margin}: {}",
            x.what, g.index, g.seed, g.rounds, g.decisions, x.play
        );
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Outcome;

    fn game(index: u64, rounds: u32, scores: Vec<i32>, unfinished: bool) -> GameResult {
        let mut outcome = Outcome::ranked(scores, vec![], "e");
        outcome.unfinished = unfinished;
        GameResult {
            index,
            seed: 100 + index,
            outcome,
            decisions: u64::from(rounds) * 10,
            rounds,
            actions: Default::default(),
            metrics: vec![],
            lead_changes: 0,
            rotation: 0,
            by_round: vec![],
        }
    }

    /// Extremes chosen by figure, then lowest index: any split of the games into shards,
    /// merged in any order, keeps the unsplit run's.
    #[test]
    fn extremes_merge_as_the_whole_run() {
        let games: Vec<GameResult> = (0..40)
            .map(|i| game(i, (i * 7 % 5) as u32 + 3, vec![(i * 13 % 11) as i32, (i * 5 % 7) as i32], i % 9 == 4))
            .collect();
        let mut whole = Extremes::default();
        games.iter().for_each(|g| whole.add(g));
        for k in 1..5u64 {
            let mut parts = vec![Extremes::default(); k as usize];
            for g in &games {
                parts[(g.index % k) as usize].add(g);
            }
            let mut merged = Extremes::default();
            for p in parts.iter().rev() {
                merged.merge(p);
            }
            assert_eq!(merged, whole, "{k} shards");
        }
        // Ties go to the lowest index: games 2, 7, 12 … have 7 rounds and 70 decisions.
        let longest = whole.longest.as_ref().map(|g| (g.rounds, g.index));
        assert_eq!(longest, Some((7, 2)));
        assert_eq!(whole.capped.iter().map(|g| g.index).collect::<Vec<_>>(), [4, 13, 22, 31]);
        let replay = Replay {
            source: "my rules.toml",
            overrides: &["buildings.harbor.cost=6".into()],
            players: 2,
            run_seed: 1,
            bots: &["greedy".into(), "random".into()],
            rotate_seats: false,
        };
        let list = replay.list(&whole);
        assert_eq!(list[0].what, "longest game");
        assert_eq!(
            list[0].play,
            "rulesmith play 'my rules.toml' --players 2 --seed 102 --human --bots greedy,random --set buildings.harbor.cost=6"
        );
        assert!(list[0].show_game.contains("--games 3 --shard 3/3") && list[0].show_game.ends_with("--game 2"));
    }
}
