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

/// A file that a published crate's sources embed (`include_str!`, `include_bytes!`) must be
/// inside what the crate publishes: its own folder (the root package: not in `crates/` or
/// the folders its `exclude` leaves out). `cargo package --no-verify`, which CI runs, does
/// not compile the packaged sources, so this is where a path out of the crate is caught.
#[test]
fn published_sources_embed_only_their_own_files() -> Result<(), Box<dyn Error>> {
    let root = root().canonicalize()?;
    let mut packages = vec![(root.join("src"), root.clone())];
    for entry in std::fs::read_dir(root.join("crates"))? {
        let dir = entry?.path();
        if dir.join("Cargo.toml").is_file() {
            packages.push((dir.join("src"), dir));
        }
    }
    let left_out = ["crates", "tests", "benches", "deploy", ".ci"].map(|d| root.join(d));
    let mut embeds = 0;
    for (src, package) in packages {
        let mut stack = vec![src];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir)? {
                let path = entry?.path();
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                if path.extension().is_none_or(|e| e != "rs") {
                    continue;
                }
                let text = std::fs::read_to_string(&path)?;
                for macro_ in ["include_str!(\"", "include_bytes!(\""] {
                    for (at, _) in text.match_indices(macro_) {
                        let rest = &text[at + macro_.len()..];
                        let Some(relative) = rest.split('"').next() else { continue };
                        let file = dir
                            .join(relative)
                            .canonicalize()
                            .map_err(|e| format!("{}: {relative}: {e}", path.display()))?;
                        embeds += 1;
                        let outside = !file.starts_with(&package)
                            || (package == root && left_out.iter().any(|d| file.starts_with(d)));
                        assert!(
                            !outside,
                            "{} embeds {relative}, which its published crate does not carry",
                            path.display()
                        );
                    }
                }
            }
        }
    }
    assert!(embeds >= 5, "found only {embeds} embedded files: did the sources move?");
    Ok(())
}
