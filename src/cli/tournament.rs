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
}

pub fn tournament(a: &TournamentArgs, f: Format) -> Result<u8, Failure> {
    let r = load(&a.ruleset)?;
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
    let tables = seatings(bots.len(), players).map_err(|e| bad(format!("--bots: {e}")))?.len();
    let opts = TournamentOptions {
        players,
        games: a.games,
        seed: a.seed,
        bots,
        shard: a.shard.as_deref().map(parse_shard).transpose()?,
    };
    let tally = r.game.tournament(&opts).map_err(|e| {
        let message = format!("tournament of `{}` stopped: {e}", r.name());
        if matches!(e, SimError::Bot { .. }) { bad(message) } else { failed(message) }
    })?;
    let report = TournamentReport::new(r.name(), &r.digest(), r.game.game_id(), &opts, tables, tally);
    match f {
        Format::Json => emit_json(&report),
        Format::Text => emit(&report.to_text()),
    }
    Ok(0)
}

/// Merges the JSON reports of a tournament's shards; `None` when they are not
/// tournament reports (then they are simulation reports).
pub fn merge(paths: &[PathBuf], texts: &[String], f: Format) -> Result<Option<u8>, Failure> {
    let kinds: Vec<bool> = texts
        .iter()
        .map(|t| serde_json::from_str::<serde_json::Value>(t).is_ok_and(|v| v["kind"] == "tournament"))
        .collect();
    if !kinds.iter().any(|&k| k) {
        return Ok(None);
    }
    if let Some(i) = kinds.iter().position(|&k| !k) {
        return Err(bad(format!("`{}` is not a tournament report, unlike the others", paths[i].display())));
    }
    let mut reports = Vec::new();
    for (p, t) in paths.iter().zip(texts) {
        let r: TournamentReport = rulesmith::core::game::object_from_json(t)
            .map_err(|e| bad(format!("`{}` is not a tournament report: {e}", p.display())))?;
        reports.push(r);
    }
    let first = &reports[0];
    let mut shards = std::collections::BTreeSet::new();
    let mut of = None;
    for (p, r) in paths.iter().zip(&reports) {
        let same = r.ruleset == first.ruleset
            && r.digest == first.digest
            && r.players == first.players
            && r.seed == first.seed
            && r.bots == first.bots
            && r.games_per_seating == first.games_per_seating;
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
    }
    let n = of.unwrap_or(1);
    if shards.len() as u64 != n {
        let missing: Vec<String> = (0..n).filter(|k| !shards.contains(k)).map(|k| format!("{}/{n}", k + 1)).collect();
        return Err(bad(format!("shards missing: {}", missing.join(", "))));
    }
    let mut tally = TournamentTally::new(first.bots.len());
    for (p, r) in paths.iter().zip(&reports) {
        tally.merge(&r.tally).map_err(|e| bad(format!("`{}`: {e}", p.display())))?;
    }
    let bots = parse_bots(&first.bots.join(","), first.bots.len()).map_err(bots_error)?;
    let opts = TournamentOptions {
        players: first.players,
        games: first.games_per_seating,
        seed: first.seed,
        bots,
        shard: None,
    };
    let report = TournamentReport::new(&first.ruleset, &first.digest, &first.game, &opts, first.seatings, tally);
    match f {
        Format::Json => emit_json(&report),
        Format::Text => emit(&report.to_text()),
    }
    Ok(Some(0))
}
