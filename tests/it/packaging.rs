//! What publishing needs and `cargo package` does not check: every crate carries the same
//! licence texts as the root, and a file a crate keeps a copy of (so that it publishes on
//! its own, without the repository around it) equals the repository's original.

use crate::root;
use std::error::Error;

#[test]
fn every_crate_carries_the_root_licences() -> Result<(), Box<dyn Error>> {
    let mut crates = Vec::new();
    for entry in std::fs::read_dir(root().join("crates"))? {
        let dir = entry?.path();
        if dir.join("Cargo.toml").is_file() {
            crates.push(dir);
        }
    }
    assert!(crates.len() >= 7, "found only {crates:?}");
    for name in ["LICENSE-MIT", "LICENSE-APACHE"] {
        let original = std::fs::read(root().join(name))?;
        for dir in &crates {
            let copy = std::fs::read(dir.join(name)).map_err(|e| format!("{}/{name}: {e}", dir.display()))?;
            assert!(copy == original, "{}/{name} differs from the root's {name}", dir.display());
        }
    }
    Ok(())
}

#[test]
fn mundo_163_publishes_the_bundled_ruleset() -> Result<(), Box<dyn Error>> {
    let original = std::fs::read_to_string(root().join("rulesets/mundo-163.toml"))?;
    assert!(
        original == rulesmith_mundo_163::BUNDLED_TOML,
        "crates/mundo-163/mundo-163.toml differs from rulesets/mundo-163.toml: copy the ruleset over the crate's copy"
    );
    Ok(())
}
