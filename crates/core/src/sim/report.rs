//! The simulation report: figures from a run's [`Tally`], as text and JSON, and the
//! merge of a run's shards.

use crate::bots::BotSpec;
use crate::metrics::wilson;
use crate::sim::run::SimOptions;
use crate::sim::tally::{BotSums, Tally};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The version of rulesmith that writes reports.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Why a report could not be read, saying so when another version of rulesmith made it
/// (its fields may differ from this version's).
pub fn report_read_error(text: &str, error: &str) -> String {
    #[derive(Deserialize)]
    struct Looks {
        #[serde(default)]
        version: Option<serde_json::Value>,
        #[serde(default)]
        ruleset: Option<serde_json::Value>,
        #[serde(default)]
        tally: Option<serde_json::Value>,
    }
    match serde_json::from_str::<Looks>(text) {
        Ok(Looks { version: Some(serde_json::Value::String(v)), .. }) if v != VERSION => {
            format!("it was made by another version of rulesmith ({v}; this is {VERSION}): {error}")
        }
        Ok(Looks { version: None, ruleset: Some(_), tally: Some(_) }) => {
            format!("it was made by another (earlier) version of rulesmith than this one ({VERSION}): {error}")
        }
        _ => error.to_string(),
    }
}

/// Figures for one seat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatReport {
    pub seat: usize,
    pub bot: String,
    pub wins: f64,
    pub win_rate: f64,
    /// Wilson 95% interval of the win rate.
    pub win_rate_ci95: [f64; 2],
    pub score_mean: f64,
    pub score_sd: f64,
}

/// The simulation report (`--format json` prints it as is).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The rulesmith version that made the report (absent in reports of versions before
    /// 0.1.0's; `merge` names the version when it cannot read a report).
    #[serde(default)]
    pub version: String,
    pub ruleset: String,
    /// The ruleset's digest: shards of one run must agree on it.
    pub digest: String,
    /// The `--set KEY=VALUE` overrides the ruleset was played with (absent when none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub overrides: Vec<String>,
    pub game: String,
    pub players: usize,
    pub seed: u64,
    pub bots: Vec<String>,
    /// The run's `--games`: the whole run, of which a shard plays its part.
    pub run_games: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
    /// Each seed played once per rotation of the bots ([`crate::sim::run::rotated_bots`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rotate_seats: bool,
    /// Games this report covers (unfinished included; with rotated seats, seeds × players).
    pub games: u64,
    /// Games stopped by a safety cap: no winner, out of win rates and score means.
    pub unfinished: u64,
    pub seats: Vec<SeatReport>,
    /// With rotated seats: each bot of the list (by position) over every seat it played.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub by_bot: Vec<SeatReport>,
    pub rounds_mean: f64,
    pub decisions_mean: f64,
    pub ends: BTreeMap<String, u64>,
    /// Designer metrics ([`crate::metrics`]): game-independent figures, then the game's.
    #[serde(default)]
    pub metrics: Vec<crate::metrics::Figure>,
    /// Each seat's score and money at each round end ([`crate::sim::rounds`]; runs with
    /// metrics).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by_round: Option<crate::sim::rounds::ByRound>,
    /// The extreme games, each with the commands that replay it ([`crate::sim::extremes`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extremes: Vec<crate::sim::extremes::Extreme>,
    /// The ruleset as the command was given it (a path for a file), which the replay
    /// commands name; absent: the ruleset's name.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub source: String,
    pub seconds: f64,
    pub games_per_second: f64,
    /// The raw sums, so reports of shards can be merged.
    pub tally: Tally,
}

/// The note a report carries when different bots sit in fixed seats: its seat figures
/// (the first player's share included) measure the bots as much as the seats.
pub fn unrotated_note(bots: &[String], rotated: bool) -> Option<String> {
    (!rotated && bots.windows(2).any(|w| w[0] != w[1])).then(|| {
        "note: the bots differ by seat and the seats are not rotated: the seat figures (the first player's share \
         included) measure the bots, not the seats; --rotate-seats separates them"
            .to_string()
    })
}

impl Report {
    pub fn new(ruleset: &str, digest: &str, game: &str, opts: &SimOptions, tally: Tally, seconds: f64) -> Self {
        let finished = tally.finished();
        let n = finished.max(1) as f64;
        let seats = (0..tally.wins.len())
            .map(|s| {
                let mean = tally.score_sum.get(s).copied().unwrap_or(0) as f64 / n;
                let sq = tally.score_sum_sq.get(s).copied().unwrap_or(0) as f64 / n;
                let var = (sq - mean * mean).max(0.0);
                let wins = tally.win_share(s);
                let rate = wins / n;
                SeatReport {
                    seat: s,
                    bot: opts.bots.get(s).map_or_else(|| "random".into(), ToString::to_string),
                    wins,
                    win_rate: rate,
                    win_rate_ci95: wilson(rate, finished),
                    score_mean: mean,
                    score_sd: var.sqrt(),
                }
            })
            .collect();
        // A bot's seat-games: `seat` is its position in the bot list.
        let by_bot = tally
            .bots
            .iter()
            .enumerate()
            .map(|(p, b)| {
                let k = b.games.max(1) as f64;
                let mean = b.score_sum as f64 / k;
                let var = (b.score_sum_sq as f64 / k - mean * mean).max(0.0);
                let wins = b.wins as f64 / crate::metrics::WIN_UNIT as f64;
                SeatReport {
                    seat: p,
                    bot: opts.bots.get(p).map_or_else(|| "random".into(), ToString::to_string),
                    wins,
                    win_rate: wins / k,
                    win_rate_ci95: wilson(wins / k, b.games),
                    score_mean: mean,
                    score_sd: var.sqrt(),
                }
            })
            .collect();
        let mut report = Report {
            version: VERSION.to_string(),
            ruleset: ruleset.to_string(),
            digest: digest.to_string(),
            overrides: Vec::new(),
            game: game.to_string(),
            players: opts.players,
            seed: opts.seed,
            bots: opts.bots.iter().map(ToString::to_string).collect(),
            run_games: opts.games,
            shard: opts.shard.map(|(k, n)| format!("{}/{n}", k + 1)),
            rotate_seats: opts.rotate_seats,
            games: tally.games,
            unfinished: tally.unfinished,
            seats,
            by_bot,
            rounds_mean: tally.rounds_sum as f64 / n,
            decisions_mean: tally.decisions_sum as f64 / n,
            ends: tally.ends.clone(),
            metrics: tally.metrics.figures(tally.players(), tally.win_share(0)),
            by_round: tally.rounds.figures(),
            extremes: Vec::new(),
            source: String::new(),
            seconds,
            games_per_second: if seconds > 0.0 { tally.games as f64 / seconds } else { 0.0 },
            tally,
        };
        report.list_extremes();
        report
    }

    /// Names the ruleset as the command was given it and the overrides it was played with,
    /// which the extreme games' replay commands repeat.
    pub fn set_source(&mut self, source: &str, overrides: &[String]) {
        self.source = if source == self.ruleset { String::new() } else { source.to_string() };
        self.overrides = overrides.to_vec();
        self.list_extremes();
    }

    /// The extreme games of the tally, with their commands.
    fn list_extremes(&mut self) {
        let replay = crate::sim::extremes::Replay {
            source: if self.source.is_empty() { &self.ruleset } else { &self.source },
            overrides: &self.overrides,
            players: self.players,
            run_seed: self.seed,
            bots: &self.bots,
            rotate_seats: self.rotate_seats,
        };
        self.extremes = replay.list(&self.tally.extremes);
    }

    /// The report as a designer reads it.
    pub fn to_text(&self) -> String {
        use std::fmt::Write as _;
        let mut o = String::new();
        let _ = writeln!(
            o,
            "{} ({}), {} players, {} games, seed {}{}",
            self.ruleset,
            self.game,
            self.players,
            self.games,
            self.seed,
            self.shard.as_ref().map(|s| format!(", shard {s}")).unwrap_or_default()
        );
        for set in &self.overrides {
            let _ = writeln!(o, "--set {set}");
        }
        if let Some(note) = unrotated_note(&self.bots, self.rotate_seats) {
            let _ = writeln!(o, "{note}");
        }
        let _ = writeln!(o);
        // One line per seat (or per bot when rotating): the first column `width` wide.
        let row = |o: &mut String, width: usize, s: &SeatReport| {
            let _ = writeln!(
                o,
                "{:<width$} {:<12} {:>8.1}  {:>7.1}%  [{:>5.1}%, {:>5.1}%]  {:>10.2}  {:.2}",
                s.seat,
                s.bot,
                s.wins,
                100.0 * s.win_rate,
                100.0 * s.win_rate_ci95[0],
                100.0 * s.win_rate_ci95[1],
                s.score_mean,
                s.score_sd
            );
        };
        let _ = writeln!(o, "seat  bot          wins     win rate  95% interval     score mean  sd");
        for s in &self.seats {
            row(&mut o, 5, s);
        }
        if self.rotate_seats {
            let _ = writeln!(o);
            let _ = writeln!(
                o,
                "seats rotated: each of {} seeds played once per rotation of the bots; by bot (over every seat):",
                self.games / self.players.max(1) as u64
            );
            let _ = writeln!(o, "bot# bot          wins     win rate  95% interval     score mean  sd");
            for s in &self.by_bot {
                row(&mut o, 4, s);
            }
        }
        let _ = writeln!(o);
        if self.unfinished > 0 {
            let _ = writeln!(
                o,
                "unfinished: {} games stopped by a safety cap ({:.1}%), no winner; out of the win rates and score means",
                self.unfinished,
                100.0 * self.unfinished as f64 / self.games.max(1) as f64
            );
        }
        let _ = writeln!(o, "game length: {:.1} rounds, {:.1} decisions (mean)", self.rounds_mean, self.decisions_mean);
        let ends: Vec<String> = self
            .ends
            .iter()
            .map(|(k, v)| format!("{k} {v} ({:.1}%)", 100.0 * *v as f64 / self.games.max(1) as f64))
            .collect();
        let _ = writeln!(o, "ended by: {}", ends.join(", "));
        o.push_str(&crate::sim::extremes::text(&self.extremes));
        if !self.metrics.is_empty() {
            let _ = writeln!(o);
            o.push_str(&crate::metrics::text(&self.metrics));
            let _ = writeln!(o);
        }
        let _ = writeln!(o, "speed: {} games/s ({:.2} s)", rate_text(self.games_per_second), self.seconds);
        o
    }
}

/// The games of shard `(k, n)` of a run of `games`: `i < games` with `i % n == k`.
pub fn shard_games(games: u64, k: u64, n: u64) -> u64 {
    if n == 0 || k >= games { 0 } else { (games - k - 1) / n + 1 }
}

/// `K/N` (1-based K, as reports and `--shard` write it) → `(K-1, N)`.
pub fn parse_shard(s: &str) -> Option<(u64, u64)> {
    let (k, n) = s.split_once('/')?;
    let (k, n) = (k.trim().parse::<u64>().ok()?, n.trim().parse::<u64>().ok()?);
    (n >= 1 && (1..=n).contains(&k)).then_some((k - 1, n))
}

/// Merges the reports of one run's shards (each named, e.g. by its file) into the report
/// of the whole run, refusing what does not belong together: another run (ruleset, digest,
/// game, players, seed, bots, `--games`), a shard given twice or overlapping another
/// (shards must split the run the same way), missing shards, and tallies that do not
/// hold together.
pub fn merge_reports(reports: &[(String, Report)]) -> Result<Report, String> {
    let mut m = ReportMerge::default();
    for (name, r) in reports {
        m.add(name, r)?;
    }
    m.finish()
}

/// [`merge_reports`] one report at a time: what is kept is the first report's header and
/// the running tally, so the shards of a long run merge in bounded memory.
#[derive(Default)]
pub struct ReportMerge {
    /// The first report's name and its fields (its tally left out).
    first: Option<(String, Report)>,
    tally: Tally,
    seen: BTreeMap<u64, String>,
    of: Option<u64>,
    seconds: f64,
}

impl ReportMerge {
    /// Checks one shard's report against the first and adds its tally.
    pub fn add(&mut self, name: &str, r: &Report) -> Result<(), String> {
        let (first_name, first) = self.first.get_or_insert_with(|| {
            let mut header = r.clone();
            header.tally = Tally::default();
            (name.to_string(), header)
        });
        if r.version != first.version {
            let v = |v: &str| if v.is_empty() { "an earlier version".to_string() } else { v.to_string() };
            return Err(format!(
                "`{name}` was made by another version of rulesmith ({}) than `{first_name}` ({}): merge shards of one version",
                v(&r.version),
                v(&first.version)
            ));
        }
        // The first field that differs is named: what makes the file another run's.
        let differs = [
            ("ruleset", r.ruleset != first.ruleset),
            ("digest", r.digest != first.digest),
            ("game", r.game != first.game),
            ("players", r.players != first.players),
            ("seed", r.seed != first.seed),
            ("bots", r.bots != first.bots),
            ("run_games", r.run_games != first.run_games),
            ("rotate_seats", r.rotate_seats != first.rotate_seats),
            ("overrides", r.overrides != first.overrides),
        ];
        if let Some((field, _)) = differs.iter().find(|(_, d)| *d) {
            return Err(format!(
                "`{name}` is not a shard of the same run as `{first_name}`: its `{field}` differs (ruleset, digest, game, players, seed, bots, --games, --set and seat rotation must match)"
            ));
        }
        r.tally.check(r.players).map_err(|e| format!("`{name}`: {e}"))?;
        let (k, n) = match &r.shard {
            None => (0, 1),
            Some(s) => parse_shard(s).ok_or_else(|| format!("`{name}`: shard `{s}` is not K/N with 1 ≤ K ≤ N"))?,
        };
        match self.of {
            None => self.of = Some(n),
            Some(m) if m != n => {
                return Err(format!(
                    "`{name}` is shard {}/{n} but `{first_name}` is of {m} shards: shards split differently overlap",
                    k + 1
                ));
            }
            Some(_) => {}
        }
        if let Some(other) = self.seen.get(&k) {
            return Err(format!("shard {}/{n} is given twice (`{other}` and `{name}`)", k + 1));
        }
        self.seen.insert(k, name.to_string());
        let rotations = if r.rotate_seats { r.players as u64 } else { 1 };
        let expected = shard_games(r.run_games, k, n).saturating_mul(rotations);
        if r.tally.games != expected || r.games != r.tally.games || r.unfinished != r.tally.unfinished {
            return Err(format!(
                "`{name}`: shard {}/{n} of a {}-game run has {expected} games, but the report says {}",
                k + 1,
                r.run_games,
                r.tally.games
            ));
        }
        let tally = &mut self.tally;
        if tally.players() == 0 {
            *tally = Tally::new(r.players);
            tally.bots = vec![BotSums::default(); r.tally.bots.len()];
            tally.metrics = if r.tally.metrics.off {
                crate::metrics::MetricTally::off()
            } else {
                crate::metrics::MetricTally::new(r.tally.metrics.defs.clone())
            };
        }
        tally.merge(&r.tally).map_err(|e| format!("`{name}`: {e}"))?;
        if r.seconds.is_finite() && r.seconds >= 0.0 {
            self.seconds += r.seconds;
        }
        Ok(())
    }

    /// The merged report, once every shard is in.
    pub fn finish(self) -> Result<Report, String> {
        let Some((first_name, first)) = self.first else {
            return Err("no reports given".into());
        };
        let (seen, tally, seconds) = (self.seen, self.tally, self.seconds);
        let n = self.of.unwrap_or(1);
        let missing: Vec<String> =
            (0..n).filter(|k| !seen.contains_key(k)).take(10).map(|k| format!("{}/{n}", k + 1)).collect();
        if !missing.is_empty() {
            let more = if (n as usize).saturating_sub(seen.len()) > missing.len() { ", …" } else { "" };
            return Err(format!(
                "shards missing: {}{more} ({} of {n} given); merge all shards of the run",
                missing.join(", "),
                seen.len()
            ));
        }
        let bots: Vec<BotSpec> = first
            .bots
            .iter()
            .map(|b| b.parse())
            .collect::<Result<_, _>>()
            .map_err(|e| format!("`{first_name}`: {e}"))?;
        let opts = SimOptions {
            players: first.players,
            games: first.run_games,
            from: 0,
            seed: first.seed,
            bots,
            shard: None,
            record: false,
            progress: None,
            rotate_seats: first.rotate_seats,
            metrics: true,
        };
        let mut report = Report::new(&first.ruleset, &first.digest, &first.game, &opts, tally, seconds);
        // The overrides are the run's, as the unsplit run reports them.
        report.set_source(if first.source.is_empty() { &first.ruleset } else { &first.source }, &first.overrides);
        Ok(report)
    }
}

/// A rate with as many decimals as it needs to be read (slow search bots play < 1 game/s).
pub fn rate_text(r: f64) -> String {
    if r >= 100.0 {
        format!("{r:.0}")
    } else if r >= 10.0 {
        format!("{r:.1}")
    } else {
        format!("{r:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::actions::Actions;
    use crate::game::Outcome;
    use crate::sim::driver::GameResult;

    #[test]
    fn wilson_interval_brackets_the_rate() {
        let [lo, hi] = wilson(0.25, 1000);
        assert!(lo < 0.25 && hi > 0.25 && hi - lo < 0.06, "{lo} {hi}");
        assert_eq!(wilson(0.0, 0), [0.0, 1.0]);
    }

    fn report(games: u64, shard: Option<(u64, u64)>, tally: Tally) -> Report {
        let opts = SimOptions {
            players: 2,
            games,
            from: 0,
            seed: 1,
            bots: vec![],
            shard,
            record: false,
            progress: None,
            rotate_seats: false,
            metrics: true,
        };
        Report::new("r", "d", "g", &opts, tally, 0.0)
    }

    /// Two 2-way ties and one 3-way tie split across shards add up exactly.
    #[test]
    fn shared_wins_merge_exactly() {
        let game = |index, ranks: Vec<u8>| GameResult {
            index,
            seed: index,
            outcome: Outcome { scores: vec![1, 1, 1], tiebreaks: vec![], ranks, end: "e".into(), unfinished: false },
            decisions: 1,
            rounds: 1,
            actions: Actions::new(),
            metrics: vec![],
            lead_changes: 0,
            rotation: 0,
            by_round: vec![],
        };
        let games = [game(0, vec![0, 0, 0]), game(1, vec![0, 0, 1]), game(2, vec![0, 1, 0])];
        let mut whole = Tally::new(3);
        let mut parts = [Tally::new(3), Tally::new(3)];
        for g in &games {
            whole.add(g);
            parts[(g.index % 2) as usize].add(g);
        }
        let opts = |shard| SimOptions {
            players: 3,
            games: 3,
            from: 0,
            seed: 1,
            bots: vec![],
            shard,
            record: false,
            progress: None,
            rotate_seats: false,
            metrics: true,
        };
        let named: Vec<(String, Report)> = parts
            .iter()
            .enumerate()
            .map(|(k, t)| (format!("s{k}"), Report::new("r", "d", "g", &opts(Some((k as u64, 2))), t.clone(), 0.0)))
            .collect();
        let merged = merge_reports(&named).unwrap();
        assert_eq!(merged.tally, whole);
        assert_eq!(whole.wins[0], vec![0, 2, 1]);
        assert_eq!(merged.seats[0].wins, 1.0 + 1.0 / 3.0);
    }

    proptest::proptest! {
        /// Any tally, shard and game count a report file may hold: merge answers, never panics.
        #[test]
        fn merge_never_panics(
            games in proptest::prelude::any::<u64>(),
            wins in proptest::collection::vec(proptest::collection::vec(proptest::prelude::any::<u64>(), 0..4), 0..4),
            sums in proptest::collection::vec(proptest::prelude::any::<i64>(), 0..4),
            tg in proptest::prelude::any::<u64>(),
            unfinished in proptest::prelude::any::<u64>(),
            k in 0u64..5, n in 0u64..5, twice in proptest::prelude::any::<bool>(),
        ) {
            let tally = Tally { games: tg, unfinished, wins, score_sum: sums, ..Default::default() };
            let mut r = report(games, Some((k, n)), tally);
            r.shard = Some(format!("{k}/{n}"));
            let mut list = vec![("a".to_string(), r.clone())];
            if twice {
                list.push(("b".to_string(), r));
            }
            let _ = merge_reports(&list);
        }
    }
}
