//! Locks shared by the tables, the replays and the routes.

/// A lock that a panic elsewhere does not make unusable (nothing here panics; the data a
/// lock guards is consistent between statements).
pub fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
