//! What publishing needs and `cargo package` does not check: every crate carries the same
//! licence texts as the root, a file a crate keeps a copy of (so that it publishes on its
//! own, without the repository around it) equals the repository's original, the manifests
//! name their home page and documentation, and a library without unit tests builds no test
//! binary. And what an installed command offers a shell: completions of the bundled rulesets.

use crate::root;
use std::collections::{BTreeMap, BTreeSet};
use std::error::Error;
use std::path::{Path, PathBuf};

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

/// `cargo metadata` of the workspace, without dependencies.
fn metadata() -> Result<serde_json::Value, Box<dyn Error>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--no-deps", "--locked"])
        .current_dir(root())
        .output()?;
    assert!(out.status.success(), "cargo metadata: {}", String::from_utf8_lossy(&out.stderr));
    Ok(serde_json::from_slice(&out.stdout)?)
}

/// What crates.io shows beside a published crate: its home page and its documentation (the
/// crate's docs.rs page). There is no public repository address yet, so no `repository`
/// (CONTRIBUTING.md says where to add it).
#[test]
fn published_manifests_name_homepage_and_documentation() -> Result<(), Box<dyn Error>> {
    let metadata = metadata()?;
    let mut published = 0;
    for package in metadata["packages"].as_array().ok_or("no packages")? {
        let name = package["name"].as_str().ok_or("no name")?;
        if package["publish"].as_array().is_some_and(|registries| registries.is_empty()) {
            continue; // publish = false (the Python crate goes to PyPI)
        }
        published += 1;
        assert_eq!(
            package["documentation"].as_str(),
            Some(format!("https://docs.rs/{name}").as_str()),
            "{name}: `documentation` must be its docs.rs page"
        );
        assert!(
            package["homepage"].as_str().is_some_and(|h| h.starts_with("https://")),
            "{name}: no `homepage` (use `homepage.workspace = true`)"
        );
        assert!(
            package["repository"].is_null(),
            "{name}: a `repository` is named: update this test and CONTRIBUTING.md"
        );
    }
    assert!(published >= 9, "only {published} published packages");
    Ok(())
}

/// The source files of a library: its root and every module it declares in a file
/// (`mod name;` → `name.rs` or `name/mod.rs`, beside a `lib.rs`/`mod.rs`, else in the
/// folder named after the file).
fn module_files(root_file: &Path) -> Result<Vec<PathBuf>, Box<dyn Error>> {
    let mut files = Vec::new();
    let mut stack = vec![root_file.to_path_buf()];
    while let Some(file) = stack.pop() {
        let text = std::fs::read_to_string(&file)?;
        let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
        let dir = file.parent().ok_or("no folder")?;
        let children = if matches!(stem, "lib" | "mod" | "main") { dir.to_path_buf() } else { dir.join(stem) };
        for line in text.lines() {
            let line = line.trim();
            let Some(rest) = line
                .strip_prefix("mod ")
                .or_else(|| line.strip_prefix("pub mod "))
                .or_else(|| line.strip_prefix("pub(crate) mod "))
            else {
                continue;
            };
            let Some(name) = rest.strip_suffix(';') else { continue }; // an inline module
            for candidate in [children.join(format!("{name}.rs")), children.join(name).join("mod.rs")] {
                if candidate.is_file() {
                    stack.push(candidate);
                }
            }
        }
        files.push(file);
    }
    Ok(files)
}

/// A library with no unit tests builds no test binary (`[lib] test = false`: a `cargo test`
/// would otherwise build and run one that runs 0 tests), and one with unit tests keeps them
/// running (a `test = false` there would skip them silently).
#[test]
fn lib_test_flag_matches_its_unit_tests() -> Result<(), Box<dyn Error>> {
    let metadata = metadata()?;
    let mut libs = 0;
    for package in metadata["packages"].as_array().ok_or("no packages")? {
        let name = package["name"].as_str().ok_or("no name")?;
        for target in package["targets"].as_array().ok_or("no targets")? {
            let kinds = target["kind"].as_array().ok_or("no kind")?;
            if !kinds.iter().any(|k| k == "lib" || k == "cdylib" || k == "rlib") {
                continue;
            }
            libs += 1;
            let files = module_files(Path::new(target["src_path"].as_str().ok_or("no src_path")?))?;
            let mut has_tests = false;
            for file in &files {
                let text = std::fs::read_to_string(file)?;
                has_tests |= text.contains("#[test]") || text.contains("#[cfg(test)]") || text.contains("proptest!");
            }
            let runs_tests = target["test"].as_bool().unwrap_or(true);
            assert_eq!(
                runs_tests,
                has_tests,
                "{name}: its library {} unit tests but `[lib] test = {runs_tests}` ({} files read)",
                if has_tests { "has" } else { "has no" },
                files.len()
            );
        }
    }
    assert!(libs >= 10, "only {libs} libraries");
    Ok(())
}

/// The completions the installed command gives a shell (`COMPLETE=SHELL rulesmith -- WORDS`,
/// as the script of `rulesmith completions SHELL` asks): a RULESET offers the bundled names
/// and `.toml` files, options and subcommands come from the same definitions as `--help`.
#[test]
fn completions_offer_the_bundled_rulesets_and_files() -> Result<(), Box<dyn Error>> {
    let complete = |words: &[&str]| -> Result<Vec<String>, Box<dyn Error>> {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_rulesmith"))
            .env("COMPLETE", "fish")
            .arg("--")
            .arg("rulesmith")
            .args(words)
            .current_dir(root())
            .output()?;
        assert!(out.status.success(), "{words:?}: {}", String::from_utf8_lossy(&out.stderr));
        // fish's form: one candidate a line, its help after a tab.
        Ok(String::from_utf8(out.stdout)?.lines().map(|l| l.split('\t').next().unwrap_or(l).to_string()).collect())
    };
    let offered = complete(&["simulate", "puerto"])?;
    assert_eq!(offered, ["puerto-rico", "puerto-rico-expansion"], "simulate puerto<TAB>");
    let offered = complete(&["compare", "puerto-rico", "rulesets/house-rules/puerto-rico-no"])?;
    assert_eq!(offered, ["rulesets/house-rules/puerto-rico-no-hacienda.toml"], "a house rule's path");
    let offered = complete(&["validate", ""])?;
    for name in ["mundo-163", "santiago-de-cuba", "rulesets/", "tests/"] {
        assert!(offered.iter().any(|o| o == name), "validate <TAB> offers {name}: {offered:?}");
    }
    assert!(!offered.iter().any(|o| o == "README.md"), "only .toml files and folders: {offered:?}");
    let offered = complete(&["legal", "mundo"])?;
    assert_eq!(offered, ["mundo-163"], "legal takes a ruleset too");
    let offered = complete(&["sim"])?;
    assert_eq!(offered, ["simulate"], "subcommands");
    let offered = complete(&["completions", "fi"])?;
    assert_eq!(offered, ["fish"], "a fixed value");

    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rulesmith")).args(["completions", "bash"]).output()?;
    let script = String::from_utf8(out.stdout)?;
    assert!(
        out.status.success()
            && script.contains("COMPLETE=\"bash\"")
            && script.contains("_clap_complete_rulesmith rulesmith"),
        "{script}"
    );
    Ok(())
}

/// The game crates.
const GAME_CRATES: [&str; 4] =
    ["rulesmith-puerto-rico", "rulesmith-puerto-rico-expansion", "rulesmith-santiago-de-cuba", "rulesmith-mundo-163"];

/// Every package a package builds on (its normal and build dependencies, then theirs), by
/// name: a workspace member's from its manifest (dev-dependencies left out), any other's
/// from Cargo.lock (on every platform: more than one build needs, never less).
fn dependency_closure(of: &str) -> Result<BTreeSet<String>, Box<dyn Error>> {
    let metadata = metadata()?;
    let mut members: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for package in metadata["packages"].as_array().ok_or("no packages")? {
        let deps = package["dependencies"].as_array().ok_or("no dependencies")?;
        let normal = deps.iter().filter(|d| d["kind"].as_str() != Some("dev"));
        let names = normal.filter_map(|d| d["name"].as_str().map(String::from)).collect();
        members.insert(package["name"].as_str().ok_or("no name")?.to_string(), names);
    }
    let lock: toml::Table = std::fs::read_to_string(root().join("Cargo.lock"))?.parse()?;
    let mut locked: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for package in lock.get("package").and_then(|p| p.as_array()).ok_or("Cargo.lock: no packages")? {
        let name = package.get("name").and_then(|n| n.as_str()).ok_or("Cargo.lock: a package without name")?;
        let deps = package.get("dependencies").and_then(|d| d.as_array()).into_iter().flatten();
        // `name` or `name version` (when two versions are locked).
        let names = deps.filter_map(|d| d.as_str()?.split(' ').next().map(String::from));
        locked.entry(name.to_string()).or_default().extend(names);
    }
    let mut seen = BTreeSet::new();
    let mut stack = vec![of.to_string()];
    while let Some(name) = stack.pop() {
        let deps =
            members.get(&name).or_else(|| locked.get(&name)).ok_or_else(|| format!("`{name}` is in no manifest"))?;
        for dep in deps {
            if seen.insert(dep.clone()) {
                stack.push(dep.clone());
            }
        }
    }
    Ok(seen)
}

/// Games stand on the rules (issue 44): a game crate's dependencies are the rules core and
/// the capability traits (`rulesmith-game`), never the harness, so that nothing of threads,
/// subprocesses or HTTP reaches the rules code, and an edit to the harness rebuilds no game.
#[test]
fn games_stand_on_the_rules_not_the_harness() -> Result<(), Box<dyn Error>> {
    let closure = dependency_closure("rulesmith-puerto-rico")?;
    assert!(closure.contains("rulesmith-rules") && closure.contains("serde"), "read nothing? {closure:?}");
    let harness = ["rulesmith-core", "rayon", "rayon-core", "nix", "signal-hook", "anstream", "shlex"];
    let http = ["hyper", "hyper-util", "axum", "axum-core", "tokio", "tower", "tower-http", "http", "http-body"];
    for name in harness.iter().chain(&http) {
        assert!(!closure.contains(*name), "Puerto Rico's dependency tree holds `{name}`: {closure:?}");
    }
    for game in GAME_CRATES {
        let closure = dependency_closure(game)?;
        assert!(!closure.contains("rulesmith-core"), "{game} depends on the harness, rulesmith-core: {closure:?}");
        assert!(closure.contains("rulesmith-game"), "{game}: the capability traits come from rulesmith-game");
    }
    Ok(())
}
