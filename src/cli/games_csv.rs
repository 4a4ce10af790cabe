//! `--games-csv FILE`: one row per game (per ruleset in `compare`), for analysis elsewhere.
//!
//! Columns: `ruleset`, `game` (the seed's index in the run), `rotation`, `seed`, `seats`,
//! `bots` (per seat, comma-separated), per seat `score N` and `rank N`, `end`,
//! `unfinished`, `rounds`, `decisions`, `lead changes`, then per seat each of the game's
//! metrics: `seat N <group>: <item> <verb or unit>` (e.g. `seat 0 building: harbor built`).

use super::common::{Failure, bad};
use super::output::OutFile;
use rulesmith::core::bots::BotSpec;
use rulesmith::core::metrics::{self, Kind, MetricDef};
use rulesmith::core::sim::{GameResult, rotated_bots};
use std::io::BufWriter;
use std::path::{Path, PathBuf};

pub struct GamesCsv {
    path: PathBuf,
    out: csv::Writer<BufWriter<OutFile>>,
    players: usize,
    defs: Vec<MetricDef>,
    error: Option<csv::Error>,
}

impl GamesCsv {
    /// Creates the file and writes the header: the metric columns of `defs` (in `compare`,
    /// every ruleset's metrics, each once).
    pub fn create(path: &Path, players: usize, defs: Vec<MetricDef>) -> Result<Self, Failure> {
        let file = OutFile::create("the games CSV", path)?;
        let mut header: Vec<String> =
            ["ruleset", "game", "rotation", "seed", "seats", "bots"].iter().map(|s| s.to_string()).collect();
        header.extend((0..players).map(|s| format!("score {s}")));
        header.extend((0..players).map(|s| format!("rank {s}")));
        header.extend(["end", "unfinished", "rounds", "decisions", "lead changes"].iter().map(|s| s.to_string()));
        for s in 0..players {
            header.extend(defs.iter().map(|d| format!("seat {s} {}", column(d))));
        }
        let mut out = csv::Writer::from_writer(BufWriter::new(file));
        let error = out.write_record(&header).err();
        Ok(GamesCsv { path: path.to_path_buf(), out, players, defs, error })
    }

    /// One game's row, its metrics listed by `defs` (its ruleset's); a column its ruleset
    /// lacks stays empty. Rows after a write error are dropped ([`Self::finish`] reports it).
    pub fn row(&mut self, ruleset: &str, bots: &[BotSpec], g: &GameResult, defs: &[MetricDef]) {
        if self.error.is_some() {
            return;
        }
        let seats = rotated_bots(bots, self.players, g.rotation);
        let mut row: Vec<String> = vec![
            ruleset.to_string(),
            g.index.to_string(),
            g.rotation.to_string(),
            g.seed.to_string(),
            self.players.to_string(),
            seats.iter().map(ToString::to_string).collect::<Vec<_>>().join(","),
        ];
        let at = |v: &[i32], s: usize| v.get(s).map_or(String::new(), ToString::to_string);
        row.extend((0..self.players).map(|s| at(&g.outcome.scores, s)));
        row.extend((0..self.players).map(|s| g.outcome.ranks.get(s).map_or(String::new(), ToString::to_string)));
        row.push(g.outcome.end.clone());
        row.push(g.outcome.unfinished.to_string());
        row.push(g.rounds.to_string());
        row.push(g.decisions.to_string());
        row.push(g.lead_changes.to_string());
        let len = defs.len();
        let at: Vec<Option<usize>> = if self.defs == defs {
            (0..len).map(Some).collect()
        } else {
            self.defs.iter().map(|d| defs.iter().position(|x| x == d)).collect()
        };
        for s in 0..self.players {
            row.extend(
                at.iter().map(|m| m.map_or(String::new(), |m| metrics::seat_count(&g.metrics, len, s, m).to_string())),
            );
        }
        if let Err(e) = self.out.write_record(&row) {
            self.error = Some(e);
        }
    }

    /// Flushes; a write that failed is bad output (exit 2), naming the file. The file is
    /// then renamed into place with the run's other outputs ([`super::output::commit_all`]).
    pub fn finish(self) -> Result<OutFile, Failure> {
        let cannot = |e: &dyn std::fmt::Display| bad(format!("cannot write `{}`: {e}", self.path.display()));
        if let Some(e) = &self.error {
            return Err(cannot(e));
        }
        let buffered = self.out.into_inner().map_err(|e| cannot(&e.error().to_string()))?;
        buffered.into_inner().map_err(|e| cannot(&e.error().to_string()))
    }
}

/// A metric's column name: `<group>: <item> <verb or unit>`.
fn column(d: &MetricDef) -> String {
    let what = match &d.kind {
        Kind::Count { unit } => unit,
        Kind::Event { verb, .. } => verb,
    };
    format!("{}: {} {what}", d.group, d.name)
}
