//! `rulesmith tournament`: bots round robin over rotated seatings, rated.

use super::common::{Failure, Format, bad, bots_error, emit, emit_json, failed, load};
use super::common::{configure_threads, parse_shard};
use rulesmith::core::bots::parse_bots;
use rulesmith::core::sim::{SimError, default_players};
use rulesmith::core::tournament::{TournamentOptions, TournamentReport, TournamentTally, seatings};
use std::path::PathBuf;

/// What the command line asked for.
pub struct TournamentArgs {
    pub ruleset: String,
    pub bots: String,
    pub players: Option<usize>,
    pub games: u64,
    pub seed: u64,
    pub threads: Option<usize>,
    pub shard: Option<String>,
    /// `--set KEY=VALUE` overrides.
    pub sets: Vec<String>,
}

pub fn tournament(a: &TournamentArgs, f: Format) -> Result<u8, Failure> {
    let r = load(&a.ruleset, &a.sets)?;
    configure_threads(a.threads)?;
    let listed = a.bots.split(',').count();
    let range = r.game.players();
    // As many players as bots when the ruleset seats them, else the usual default.
    let players = a.players.unwrap_or(if range.contains(&listed) { listed } else { default_players(&range) });
    if !range.contains(&players) {
        return Err(bad(format!("--players {players}: `{}` seats {} to {}", a.ruleset, range.start(), range.end())));
    }
    let bots = parse_bots(&a.bots, listed).map_err(bots_error)?;
    if bots.len() < 2 {
        return Err(bad("--bots: a tournament needs at least two bots, comma-separated"));
    }
    if a.games == 0 {
        return Err(bad("--games 0: give at least 1 seed per seating (a tournament of no games rates nobody)"));
    }
    let tables = seatings(bots.len(), players).map_err(|e| bad(format!("--bots: {e}")))?.len();
    let opts = TournamentOptions {
        players,
        games: a.games,
        seed: a.seed,
        bots,
        shard: a.shard.as_deref().map(parse_shard).transpose()?,
        progress: None,
    };
    let seeds = match opts.shard {
        Some((k, n)) => rulesmith::core::sim::shard_games(opts.games, k, n),
        None => opts.games,
    };
    let total = seeds.saturating_mul(tables as u64);
    let result = super::common::with_progress(total, r.name(), |counter| {
        r.game.tournament(&TournamentOptions { progress: counter, ..opts.clone() })
    });
    let tally = result.map_err(|e| {
        let message = format!("tournament of `{}` stopped: {e}", r.name());
        if matches!(e, SimError::Bot { .. }) { bad(message) } else { failed(message) }
    })?;
    let report = TournamentReport::new(r.name(), &r.digest(), r.game.game_id(), &opts, tables, tally);
    match f {
        Format::Json => emit_json(&report),
        Format::Text => emit(&with_overrides(&report.to_text(), &r.loaded.overrides)),
    }
    Ok(0)
}

/// A text report with a `--set KEY=VALUE` line per override after its first line.
pub fn with_overrides(text: &str, sets: &[String]) -> String {
    let (first, rest) = text.split_once('\n').unwrap_or((text, ""));
    let mut o = format!("{first}\n");
    for s in sets {
        o.push_str(&format!("--set {s}\n"));
    }
    o + rest
}

/// Whether a report's text is a tournament's (`"kind": "tournament"`).
pub fn is_tournament(text: &str) -> bool {
    #[derive(serde::Deserialize)]
    struct Kind {
        #[serde(default)]
        kind: Option<String>,
    }
    serde_json::from_str::<Kind>(text).is_ok_and(|k| k.kind.as_deref() == Some("tournament"))
}

/// Merges the JSON reports of a tournament's shards (`first_text`: the first file's),
/// each read and folded in before the next: one report in memory at a time.
pub fn merge(paths: &[PathBuf], first_text: String, f: Format) -> Result<u8, Failure> {
    let mut first: Option<TournamentReport> = None;
    let mut tally: Option<TournamentTally> = None;
    let mut shards = std::collections::BTreeSet::new();
    let mut of = None;
    let mut text = Some(first_text);
    for p in paths {
        let t = match text.take() {
            Some(t) => t,
            None => rulesmith::core::input::read_text(p).map_err(|e| bad(e.to_string()))?,
        };
        if !is_tournament(&t) {
            return Err(bad(format!("`{}` is not a tournament report, unlike the others", p.display())));
        }
        let r: TournamentReport = rulesmith::core::game::object_from_json(&t).map_err(|e| {
            let why = rulesmith::core::sim::report_read_error(&t, &e);
            bad(format!("`{}` is not a tournament report: {why}", p.display()))
        })?;
        drop(t);
        let head = first.get_or_insert_with(|| r.clone());
        if r.version != head.version {
            return Err(bad(format!(
                "`{}` was made by another version of rulesmith than `{}`: merge shards of one version",
                p.display(),
                paths[0].display()
            )));
        }
        let same = r.ruleset == head.ruleset
            && r.digest == head.digest
            && r.players == head.players
            && r.seed == head.seed
            && r.bots == head.bots
            && r.games_per_seating == head.games_per_seating;
        if !same {
            return Err(bad(format!(
                "`{}` is not a shard of the same tournament as `{}` (ruleset, digest, players, seed, bots and games must match)",
                p.display(),
                paths[0].display()
            )));
        }
        let Some((k, n)) = r.shard.as_deref().map(parse_shard).transpose()? else {
            return Err(bad(format!("`{}` is a whole tournament, not a shard", p.display())));
        };
        if *of.get_or_insert(n) != n {
            return Err(bad(format!(
                "`{}` is shard {}/{n}, but the others are of {}",
                p.display(),
                k + 1,
                of.unwrap_or(n)
            )));
        }
        if !shards.insert(k) {
            return Err(bad(format!("`{}`: shard {}/{n} is given twice", p.display(), k + 1)));
        }
        tally
            .get_or_insert_with(|| TournamentTally::new(head.bots.len()))
            .merge(&r.tally)
            .map_err(|e| bad(format!("`{}`: {e}", p.display())))?;
    }
    let (Some(first), Some(tally)) = (first, tally) else { return Err(bad("merge: no reports given")) };
    let n = of.unwrap_or(1);
    if shards.len() as u64 != n {
        // At most ten named: a report may claim any number of shards.
        let missing: Vec<String> =
            (0..n).filter(|k| !shards.contains(k)).take(10).map(|k| format!("{}/{n}", k + 1)).collect();
        let more = if n.saturating_sub(shards.len() as u64) > missing.len() as u64 { ", …" } else { "" };
        return Err(bad(format!("shards missing: {}{more}", missing.join(", "))));
    }
    let bots = parse_bots(&first.bots.join(","), first.bots.len()).map_err(bots_error)?;
    let opts = TournamentOptions {
        players: first.players,
        games: first.games_per_seating,
        seed: first.seed,
        bots,
        shard: None,
        progress: None,
    };
    let report = TournamentReport::new(&first.ruleset, &first.digest, &first.game, &opts, first.seatings, tally);
    match f {
        Format::Json => emit_json(&report),
        Format::Text => emit(&report.to_text()),
    }
    Ok(0)
}
