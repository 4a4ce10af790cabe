//! "Did you mean": the known name closest to a misspelt one, for messages about an unknown
//! key, value or id.

/// The candidate closest to `name` by edit distance (a swap of two letters counts once),
/// if it is close enough to be a misspelling: at most a third of `name`'s letters differ
/// (at least one), as cargo suggests. Ties go to the first candidate.
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .filter(|c| *c != name)
        .map(|c| (strsim::damerau_levenshtein(name, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// `; did you mean `harbor`?` when a candidate is close to `name`, else nothing: appended
/// to a message that names an unknown `name`.
pub fn hint<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    closest(name, candidates).map(|c| format!("; did you mean `{c}`?")).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_only_close_names() {
        let known = ["harbor", "hacienda", "hospice", "wharf"];
        assert_eq!(closest("harbour", known), Some("harbor"));
        assert_eq!(closest("hospcie", known), Some("hospice"));
        assert_eq!(closest("factory", known), None);
        assert_eq!(closest("x", ["y", "xy"]), Some("y"));
        assert_eq!(hint("wharff", known), "; did you mean `wharf`?");
        assert_eq!(hint("market", known), "");
    }
}
