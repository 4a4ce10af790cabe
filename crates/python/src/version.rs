//! Loaded rulesets, shared by every `Ruleset`, game and batch made from one version, and
//! what every game of a version at a player count shares.

use crate::errors::RulesetError;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use rulesmith::core::erased::AnySession;
use std::any::Any;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError, Weak};

/// Most versions of one ruleset source in use at once in a process (see [`load`]).
pub(crate) const MAX_VERSIONS: usize = 64;

/// One loaded version of a ruleset, shared (by `Arc`) by the `Ruleset`s, games and batches
/// made from it and freed with the last of them.
pub(crate) struct Version {
    pub(crate) ruleset: rulesmith::Ruleset,
    /// What every game of this version at a player count shares (see [`share`]).
    pub(crate) tables: Mutex<HashMap<usize, Shared>>,
}

impl std::ops::Deref for Version {
    type Target = rulesmith::Ruleset;
    fn deref(&self) -> &rulesmith::Ruleset {
        &self.ruleset
    }
}

/// Loads a ruleset. Loading the same source again (same digest) while that version is in
/// use reuses it; a version nobody holds any more is freed, so a loop reloading an edited
/// file keeps only the versions still in use, at most [`MAX_VERSIONS`] of one source
/// (about 100 KB each) so that it cannot exhaust memory.
pub(crate) fn load(arg: &str) -> PyResult<Arc<Version>> {
    type Cache = HashMap<String, Vec<(String, Weak<Version>)>>;
    static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
    let r = rulesmith::load(arg).map_err(|f| {
        // One problem reads as a sentence; several keep the rendered `error:` lines.
        let text = f.render();
        let text = text.trim_end();
        let one = if text.contains('\n') { None } else { text.strip_prefix("error: ") };
        RulesetError::new_err(one.unwrap_or(text).to_string())
    })?;
    let digest = r.digest();
    let mut cache = CACHE.get_or_init(Default::default).lock().unwrap_or_else(PoisonError::into_inner);
    // Forget the versions already freed (and the sources with none left).
    cache.retain(|_, versions| {
        versions.retain(|(_, v)| v.strong_count() > 0);
        !versions.is_empty()
    });
    let versions = cache.entry(arg.to_string()).or_default();
    if let Some(kept) = versions.iter().filter(|(d, _)| *d == digest).find_map(|(_, v)| v.upgrade()) {
        return Ok(kept);
    }
    if versions.len() >= MAX_VERSIONS {
        return Err(RulesetError::new_err(format!(
            "`{arg}`: {MAX_VERSIONS} versions of this ruleset are in use in this process, the most kept at once \
             (each held by a Ruleset, Game or VectorEnv made from it): let go of those you no longer use \
             (`del` them) to load another version"
        )));
    }
    let version = Arc::new(Version { ruleset: r, tables: Mutex::default() });
    versions.push((digest, Arc::downgrade(&version)));
    Ok(version)
}

/// `players` as given by the caller of `at`: a count the ruleset seats.
pub(crate) fn players_arg(r: &rulesmith::Ruleset, players: i64, at: &str) -> PyResult<usize> {
    let range = r.game.players();
    match usize::try_from(players) {
        Ok(n) if range.contains(&n) => Ok(n),
        _ => Err(PyValueError::new_err(format!(
            "{at}: players={players} is not supported by `{}` (it seats {} to {} players)",
            r.name(),
            range.start(),
            range.end()
        ))),
    }
}

/// A table's encoding sizes: `(action ids, observation length)`.
pub(crate) type Sizes = (usize, usize);

/// What every game of a ruleset and player count shares: the sizes and the action space,
/// computed once per ruleset version (naming every feature and building a large space is not
/// free, and environments start a game per episode).
#[derive(Clone)]
pub(crate) struct Shared {
    pub(crate) sizes: Sizes,
    pub(crate) space: Arc<dyn Any + Send + Sync>,
}

/// Gives `session` its table's shared action space and returns the sizes.
pub(crate) fn share(v: &Version, players: usize, session: &mut dyn AnySession) -> PyResult<Sizes> {
    let mut tables = v.tables.lock().unwrap_or_else(PoisonError::into_inner);
    let err = |e: rulesmith::core::GameError| PyRuntimeError::new_err(e.to_string());
    let session = session.encodings().map_err(|e| err(e.into()))?;
    if let Some(shared) = tables.get(&players) {
        session.adopt_action_space(shared.space.clone());
        return Ok(shared.sizes);
    }
    let space = session.action_space_handle().map_err(err)?;
    let sizes = (session.action_count().map_err(err)?, session.observation_names().len());
    tables.insert(players, Shared { sizes, space });
    Ok(sizes)
}
